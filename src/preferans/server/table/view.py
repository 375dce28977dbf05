"""What a table shows: the state frame of each socket (a seat's observation, the sheet, the
rules), the record, the summary, why a card may not be played.
"""

from __future__ import annotations

import functools
import json
import logging
from typing import Any

from ... import i18n
from ...actions import PLAY_ACTIONS, Action
from ...cards import Card
from ...i18n.translate import player_gender
from ..lang.language import (
    HouseRules,
    Lines,
    Reasons,
    Refusal,
    Rendered,
    Said,
    localize,
)
from ..lang.presets_text import preset_line, preset_line_in, preset_title_in
from ..lang.rules_brief import rules_brief
from ..lang.summaries import entry_in, sheet_in
from ..store.fastjson import EncodedJSON, dumps, fragment
from ..store.faults import StoreError
from ..store.stats import summarise
from .common import _phase_name
from .hints import hint_summary
from .seats import DUMMY_NAME, HUMAN
from .spectators import SPECTATOR, public_view

log = logging.getLogger("preferans.server")

_KEPT_SHEET = fragment(["sheet"])
"""A state frame's ``kept`` when it leaves the sheet out (written once)."""

_PLAYS: dict[str, Action] = {str(action): action for action in PLAY_ACTIONS}
"""A card's token -> the action playing it (:meth:`Table.why_not` asks about every card)."""


class TableView:
    """What a table shows (a part of :class:`.table.Table`)."""

    # --- the payloads ----------------------------------------------------------------------------
    def state(self, event: dict[str, Any] | None = None, seat: int = HUMAN) -> dict[str, Any]:
        """The ``state`` message for the browser of ``seat`` (that seat's view only): a
        discard by another seat is shown face down."""
        observation = self.observation(seat)
        if (event is not None and event.get("seat") != seat and event.get("kind") == "discard"
                and event.get("token") != "DISCARD"):
            event = {**event, "token": "DISCARD"}
        sheet = observation["sheet"]
        deal_over = self.deal_over()
        game_over = self.game_over()
        last_entry = sheet["deals"][-1] if deal_over and sheet.get("deals") else None
        return {
            "type": "state",
            "seq": self.seq,
            "game_id": self.id,
            "seat": None if seat == SPECTATOR else seat,
            "names": self.names,
            "genders": self.genders(),
            "colours": self.colours,
            "dummy": self.dummy,
            "dummy_name": DUMMY_NAME if self.dummy is not None else None,
            "rules_title": Rendered(self._rules_title,
                                    functools.partial(preset_title_in, self.rules.name)),
            "rules_doc": Rendered(preset_line(self.rules.name),
                                  functools.partial(preset_line_in, self.rules.name)),
            "house_rules": HouseRules(self.house),
            "rules_brief": Lines(rules_brief(self.rules, "en"),
                                 functools.partial(rules_brief, self.rules)),
            "difficulty": self.difficulty,
            "rules": self._rules_info,
            "observation": observation,
            "why_not": self.why_not(observation, seat),
            "thinking": self.bot_to_move(),
            "paused": self.paused,
            "deal_number": self.deal_number(),
            "deal_over": deal_over,
            "last_entry": last_entry,
            "game_over": game_over,
            "result": list(sheet.get("balance", [])) if game_over else None,
            "event": event,
            "hints": self.hints.on,
            **({} if self.standin is None else {
                "clock": self.standin.shown(), "stand_in": sorted(self.standin.away),
                "stand_in_name": self.standin.name, "handed": sorted(self.standin.handed),
                "pause_asked": sorted(self.pause_asked),
                **self.ready_view(),
                "away": self.standin.away_left(),
                "finish_asked": sorted(self.finish_asked),
                "finish_waiting": sorted(self.present_humans() - self.finish_asked)
                if self.finish_asked else [],
                "stopped": self.stopped_view(),
                "rematch": (f"/table/{self.party.rematch}"
                            if self.party is not None and self.party.rematch else None),
                # the watch-only link, for its creator to copy (no other seat, no spectator)
                "watch": (f"/watch/{self.id}/{self.party.watch}" if seat == HUMAN
                          and self.party is not None and self.party.watch else None),
                "humans": sorted(self.humans),
                # this seat's own link to open it on another device (its frames only)
                "device": (f"/seat/{self.id}/{self.party.link(seat)}"
                           if self.party is not None and seat >= 0 and self.party.link(seat)
                           and not game_over else None),
                "stand_in_seats": self.stand_in_seats(self.deal_number() - 1)}),
        }

    def genders(self) -> list[str]:
        """Each seat's form of address in Russian (``"m"``, ``"f"``; ``"plural"`` for
        "You"): a friend's choice in the name form, else his name's guess; a computer
        player's from the catalogue (:func:`preferans.i18n.player_gender`)."""
        places = self.party.places if self.party is not None else ()
        return [player_gender(name, places[seat].gender
                          if seat < len(places) and places[seat].human else None)
                for seat, name in enumerate(self.names)]

    def observation(self, seat: int = HUMAN) -> dict[str, Any]:
        """A seat's observation plus the sheet, as ``game.observation(seat)`` gives it;
        between deals, of the deal that just ended (so the table still shows how it
        ended)."""
        if seat == SPECTATOR:  # what every seat sees alike (:mod:`.spectators`)
            return public_view([self.observation(s) for s in range(len(self.names))])
        finished = self.game.finished_deals
        deal = self.game.deal if self.game.deal is not None else (
            finished[-1] if finished else None)
        if deal is None:
            return self.game.observation(seat)
        observation = deal.observation(seat)
        observation["sheet"] = self.sheet_json()
        observation["game_finished"] = self.game.finished
        return observation

    def seat_observation(self, seat: int) -> dict[str, Any]:
        """``game.observation(seat)`` (what a computer player decides from), with the sheet
        kept between deals (:meth:`sheet_json`) instead of written anew for each decision."""
        if self.game.deal is None:
            return self.game.observation(seat)
        observation = self.game.deal.observation(seat)
        observation["sheet"] = self.sheet_json()
        observation["game_finished"] = self.game.finished
        return observation

    def sheet_json(self) -> dict[str, Any]:
        """The sheet as JSON; it changes only when a deal ends, so it is kept until then."""
        return self._sheet()[1]

    def _sheet(self) -> tuple[int, dict[str, Any], Any]:
        count = len(self.game.sheet.entries)
        if self._sheet_cache is None or self._sheet_cache[0] != count:
            sheet = self.game.sheet.to_json(notes=True)
            self._sheet_cache = (count, sheet, fragment(sheet))
        return self._sheet_cache

    def record(self) -> dict[str, Any]:
        """The game record, as ``game.to_record()`` writes it.

        The finished deals' part is kept between actions (it changes only when a deal
        ends), so saving after every action does not rewrite the whole game each time.
        """
        prefix = self._record_prefix()[1]
        deal = self.game.deal
        if deal is None:
            return prefix
        return {**prefix, "deals": [*prefix["deals"],
                                    self._deal_entry(deal, len(self.game.finished_deals))]}

    def _record_prefix(self) -> tuple[int, dict[str, Any], str]:
        """The record without the open deal, and its text up to where that deal's entry goes
        (``...,"deals":[{...},{...}``): rewritten only when a deal ends."""
        finished = len(self.game.finished_deals)
        cached = self._record_cache
        if (cached is not None and cached[0] == finished - 1
                and not self.game.sheet.irregularities):
            # one more deal ended: its entry is appended (the finished deals never change;
            # an irregularity, which goes between deals, rewrites the whole record instead)
            entry = self._deal_entry(self.game.finished_deals[-1], finished - 1)
            _, before, head = cached
            prefix = {**before, "deals": [*before["deals"], entry]}
            separator = "," if before["deals"] else ""
            self._record_cache = (finished, prefix, f"{head}{separator}{dumps(entry)}")
        if self._record_cache is None or self._record_cache[0] != finished:
            full = self.game.to_record()
            deals = full["deals"][:finished]
            if self.stand_ins and len(deals) == finished:
                deals = [{**entry, "stand_in": self.stand_ins[k]} if k in self.stand_ins
                         else entry for k, entry in enumerate(deals)]
            prefix = {**{k: v for k, v in full.items() if k != "deals"},
                      **({"stopped": self.stopped} if self.stopped is not None else {}),
                      "deals": deals}
            text = dumps(prefix)
            assert text.endswith("]}"), "the record's deals come last"
            self._record_cache = (finished, prefix, text[:-2])
        return self._record_cache

    def _deal_entry(self, deal: Any, number: int) -> dict[str, Any]:
        """Deal ``number`` (0 = the first) as the record writes it; ``stand_in`` (an optional
        field) lists the indices of the actions a stand-in decided (:mod:`.standin`)."""
        entry = {
            "dealer": deal.dealer,
            "hands": [hand.to_list() for hand in deal.initial_hands],
            "talon": [str(card) for card in deal.talon],
            "actions": deal.tokens(),
        }
        if number in self.stand_ins:
            entry["stand_in"] = list(self.stand_ins[number])
        return entry

    def record_encoded(self) -> EncodedJSON:
        """:meth:`record` as JSON text, built from parts: the finished deals are written once
        (when a deal ends), the open deal's hands and talon once per deal, and only its actions
        after every move, so a save does not encode the whole game again."""
        _, _, head = self._record_prefix()
        deal = self.game.deal
        if deal is None:
            return EncodedJSON(head + "]}")
        history = deal.history
        if (self._deal_cache is None or self._deal_cache[0] is not deal
                or len(self._deal_cache[2]) > len(history)):
            entry = {key: value for key, value in
                     self._deal_entry(deal, len(self.game.finished_deals)).items()
                     if key not in ("actions", "stand_in")}
            text = dumps(entry)
            self._deal_cache = (deal, text[:-1] + ',"actions":', [])
        _, entry_text, tokens = self._deal_cache
        tokens.extend(str(action) for _, action in history[len(tokens):])
        separator = "," if not head.endswith("[") else ""
        marks = self.stand_ins.get(len(self.game.finished_deals))
        tail = f',"stand_in":{dumps(marks)}' if marks else ""
        return EncodedJSON(f"{head}{separator}{entry_text}{dumps(tokens)}{tail}}}]}}")

    def why_not(self, observation: dict[str, Any], seat: int = HUMAN) -> dict[str, str]:
        """Why each card ``seat`` can see in a hand it plays from is not playable now.

        Only while that seat is to play a card; the cards come from its own observation
        (its hand and the exposed hand it controls), never from hidden hands.
        """
        if self.deal_over() or self.seat_to_act() != seat or _phase_name(self.game.deal) != "PLAY":
            return {}
        legal = set(observation.get("legal") or [])
        tokens = list(observation.get("hand") or [])
        playing = observation.get("hand_to_play")
        exposed = observation.get("exposed") or {}
        if playing is not None and playing != seat:
            tokens += list(exposed.get(playing, exposed.get(str(playing), [])))
        reasons = Reasons()  # English, said again in each socket's language (lang.localize)
        for token in tokens:
            if token in legal:
                continue
            play = _PLAYS.get(token) or Action.make_play(Card.parse(token))
            reason = self.game.deal.refusal(play)
            reasons[token] = Refusal(reason) if reason else Said("table.card_not_now")
        return reasons

    def stopped_view(self) -> dict[str, Any] | None:
        """How the game stopped early, as the result screen says it: after how many deals,
        whether a deal in progress was left unscored, and how the missing pool points were
        settled (``charged`` to the mountain, ``doubled`` there, or ``uncharged``: the house
        option ``settle_no_missing_pool``)."""
        if self.stopped is None:
            return None
        rules = self.rules
        missing = ("uncharged" if rules.settle_no_missing_pool
                   else "doubled" if rules.pool_doubled_at_settlement else "charged")
        return {"deals": len(self.game.finished_deals),
                "deal_dropped": bool(self.stopped.get("deal_dropped")), "missing": missing}

    # --- hints (see :mod:`.hints`) -------------------------------------------------------------
    def summary(self, sheet: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game's summary for the statistics: the sheet's figures and the hints' (kept
        until the sheet or the hints change)."""
        sheet = sheet if sheet is not None else self.sheet_json()
        cached = self._summary_cache
        if (cached is None or cached[0] is not sheet or cached[1] != self.hints.on
                or cached[2] != self.hints.used or cached[3].get("stopped") != bool(self.stopped)):
            # stopped by agreement: settled, a final result (``stopped`` in the summary)
            figures = {**sheet, "finished": True} if self.stopped is not None else sheet
            summary = {**summarise(figures), **hint_summary(self.hints.on, self.hints.used)}
            if self.stopped is not None:
                summary["stopped"] = True
            if self.party is not None:  # each friend's own figures (his statistics)
                summary["by_seat"] = {str(seat): summarise(figures, seat)
                                      for seat in sorted(self.humans) if seat != HUMAN}
            cached = self._summary_cache = (sheet, self.hints.on, self.hints.used, summary)
        return cached[3]

    async def save_summary(self) -> None:
        """Save the summary alone (a hint was given); a failing database only logs."""
        try:
            await self.store.write(self.store.save_summary, self.id, self.summary())
        except (StoreError, KeyError) as exc:
            log.warning("game %s: the hint count was not saved: %s", self.id, exc)

    def rules_json(self) -> str:
        """The rules as the thinking processes receive them."""
        return json.dumps(self.rules.to_json(), sort_keys=True)

    def encode_state(self, payload: dict[str, Any], lang: str = "en",
                     with_sheet: bool = True) -> str:
        """A state message as JSON text in ``lang``, the parts that rarely change (the rules,
        the names, the sheet) copied from their text written once instead of encoded again.

        ``with_sheet=False`` (the socket has this sheet already) leaves the sheet out of the
        observation and says so: ``"kept": ["sheet"]``."""
        static = self._static_in(lang)
        payload = localize({k: v for k, v in payload.items() if k not in static}, lang)
        observation = payload["observation"]
        sheet = self._sheet()[1]
        if observation.get("sheet") is sheet:
            if with_sheet:
                observation = {**observation, "sheet": self._sheet_in(lang)}
            else:
                observation = {k: v for k, v in observation.items() if k != "sheet"}
                payload["kept"] = _KEPT_SHEET
        last = payload.get("last_entry")
        if last is not None and i18n.normalize(lang) != "en":
            payload = {**payload, "last_entry": entry_in(last, self.names, lang,
                                                         self.genders())}
        return dumps({**payload, **static, "observation": observation})

    def _sheet_in(self, lang: str) -> Any:
        """The sheet's JSON text with the deals' summaries in ``lang`` (:mod:`.summaries`),
        written once per language each time a deal ends."""
        count, sheet, sheet_json = self._sheet()
        lang = i18n.normalize(lang)
        if lang == "en":
            return sheet_json
        self._words_fresh()
        cached = self._sheet_lang.get(lang)
        if cached is None or cached[0] != count or cached[1] is not sheet:
            cached = self._sheet_lang[lang] = (count, sheet,
                                                 fragment(sheet_in(sheet, lang, self.genders())))
        return cached[2]

    def _words_fresh(self) -> None:
        """Forget the texts written once per language when a friend changed his form of
        address («он / она») since: the next frame says every sentence about him anew."""
        genders = tuple(self.genders())
        if getattr(self, "_words_genders", genders) != genders:
            self._static_json.clear()
            self._sheet_lang.clear()
            self._sheet_sent.clear()
        self._words_genders = genders

    def _static_in(self, lang: str) -> dict[str, Any]:
        """The parts of every state frame that never change at a table, in ``lang``, encoded
        once per language."""
        lang = i18n.normalize(lang)
        self._words_fresh()
        static = self._static_json.get(lang)
        if static is None:
            static = self._static_json[lang] = {key: fragment(value) for key, value in (
                ("names", self.names), ("genders", self.genders()),
                ("colours", self.colours),
                ("house_rules", self.house if lang == "en"
                 else HouseRules(self.house).render(lang)),
                ("rules", self._rules_info),
                ("rules_doc", preset_line(self.rules.name) if lang == "en"
                 else preset_line_in(self.rules.name, lang)),
                ("rules_brief", rules_brief(self.rules, lang)))}
        return static

    # --- sending ---------------------------------------------------------------------------------
    def _publishable(self, payload: dict[str, Any]) -> dict[str, Any]:
        for listener in self.listeners:
            listener(payload)
        return payload
