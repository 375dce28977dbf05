"""One open table of the web game: the game, its computer players, its sockets.

A :class:`Table` owns a :class:`preferans.game.Game` with the human at seat 0
("You") and computer players at seats 1 (Misha) and 2 (Lena); with four players
Sasha sits opposite you (seats clockwise: You 0, Misha 1 on the left, Sasha 2 at the
top, Lena 3 on the right) and each deal's dealer sits out.  It is the only judge of
what happens at the table:

- every message from a browser is checked (:meth:`Table.receive`); a bad one
  gets an ``error`` reply and changes nothing;
- the human's actions go through the engine, and only on the human's turn
  (``deal.to_act == 0``: in an open defence that includes playing the exposed
  hand the human controls);
- after every single action (the human's or a computer player's) the game is
  saved, off the event loop (the store's writer thread), and only once the save has
  committed does a ``state`` message go to every socket of the table and the computer
  players go on;
- a save that fails takes the action back (the game is replayed from the last saved
  record) and every socket gets an ``error`` with code ``save_failed`` naming the database
  and the problem; the computer players wait until a browser tries again (sends the
  action again, reconnects, or resumes), so nothing is ever played that is not saved;
- computer players move one action at a time, thinking in a worker process
  (:mod:`.thinking`; a thread when the table has no pool), with a short
  pause between moves so the table can animate, until it is the human's turn
  or the deal is over; ``pause``/``resume`` stop and restart them;
- a finished deal waits for ``next_deal``; at a table for friends it is each human's READY:
  the next deal starts when every human at the table (not away: the stand-in plays for him)
  has said it (``ready`` and ``ready_waiting`` in the state meanwhile: :mod:`.friends`);
- at a table for friends, ``{"type": "finish"}`` is a human's word for finishing the game
  early (``"agree": false`` says no and withdraws the request): the state lists who agreed
  (``finish_asked``) and who is still to (``finish_waiting``); when every human at the table
  has agreed the game stops there, is saved finished and the state says how
  (``stopped``: :meth:`Table.finish`).

The table is told in parts: this module holds the game and its actions; what it shows
(:mod:`.view`), its computer players (:mod:`.bots`), its sockets (:mod:`.sockets`), its
saves and a failed save taken back (:mod:`.saving`) and what only a table for friends does
(:mod:`.friends`) are classes :class:`Table` is made of; a browser's message is checked by
:mod:`.messages`.

Payloads are built from ``game.observation(0)`` and the sheet only, so hidden
cards never leave the server.

The state message (see the protocol in the project notes)::

    {"type": "state", "seq": 17, "game_id": "...", "seat": 0,
     "names": ["You", "Misha", "Lena"], "genders": ["plural", "m", "f"],
     "colours": [...], "difficulty": "easy",
     "rules": {"preset": "sochi", "pool": 10, "players": 3, ...}, "rules_title": "Sochi",
     "rules_doc": "The usual modern game: ...", "house_rules": [{"name": "stalingrad",
     "value": true, "preset_value": false, "doc": "..."}], "observation": {...},
     "why_not": {"QH": "must follow ♠"}, "thinking": 1, "paused": false,
     "deal_over": false, "last_entry": null, "game_over": false, "result": null,
     "event": {"kind": "card", "seat": 2, "token": "QH"}}

``genders`` is each seat's form of address in Russian (``m``, ``f``; ``plural`` for "You"): a
friend's choice in the name form, else his name's guess (:meth:`.view.TableView.genders`).

A state frame leaves out what the socket already has and says so in ``kept``: while the
sheet is unchanged since the socket last received it, the observation has no ``sheet``
and the frame has ``"kept": ["sheet"]`` (the page keeps the sheet it has).  The first
state on a socket, and the first after a deal is scored or a move taken back, carry it.

``event.kind`` is one of ``bid``, ``pass`` (auction), ``talon`` (the last auction
call won the auction: the talon is turned up), ``discard``, ``contract``,
``defence`` (WHIST, PASS, HALF, OPEN, CLOSED, and the four-player dealer's LOOK s,
WHIST, PASS), ``card``, ``trick`` (a card that
completed a trick; ``winner`` names who took it), ``deal_scored`` (the card or call
that ended the deal), ``deal_started``; the event also names the ``seat`` and
``token`` of the action (a computer player's discard, the all-pass exchange's included
(event ``discard``), is just ``DISCARD``: its cards lie face down).  The state sent on
connecting and after pause/resume has ``event: null``.  ``thinking`` is the computer
player about to move (null when the human is to act, the deal is over or the table is
paused).

An ``error`` message is ``{"type": "error", "code": ..., "message": "..."}``; the codes:
``bad_message``, ``too_large`` (the frame), ``illegal`` (with ``reason`` and ``token``),
``not_your_turn``, ``save_failed`` (with ``problem``: the action was taken
back), ``server_error``; before a socket joins a table (see :mod:`..web.sockets`):
``unknown_game``, ``not_yours``, ``damaged`` and ``database``, then the socket closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from starlette.websockets import WebSocket

from ...actions import Action, ActionKind, IllegalAction
from ...cards import Card, CardSet
from ...game import Game
from ...players import Player
from ...rules import Rules
from ..lang.house_rules import house_rules, rules_title
from ..lang.language import (
    PHASE_VERBS,
    NameOf,
    Refusal,
    Said,
    Token,
)
from ..lang.request_errors import MessageError
from ..store.fastjson import EncodedJSON
from ..store.faults import StoreError
from ..store.games import GameStore
from ..store.saved import SavedGame
from ..store.schema import LOBBY
from .bots import TableBots
from .chat import ChatRoom
from .common import _phase_name
from .friends import TableFriends
from .hints import Hints
from .party import Party
from .saving import TableSaving
from .seats import (
    HUMAN,
    bot_seed,
    seat_colours,
    seat_names,
)
from .sockets import TableSockets
from .standin import StandIn
from .thinking import Pickled, Seat, Thinking, make_bot
from .view import TableView

log = logging.getLogger("preferans.server")


# --- deterministic dealing -----------------------------------------------------------------
def deal_cards(seed: int, number: int) -> tuple[list[CardSet], list[Card]]:
    """The hands (seats 0, 1, 2) and talon of deal ``number`` (0 = the first) of a game seeded
    with ``seed``: the same seed always gives the same deals, before and after a restart.

    >>> hands, talon = deal_cards(7, 0)
    >>> [len(h) for h in hands], len(talon)
    ([10, 10, 10], 2)
    >>> deal_cards(7, 0) == (hands, talon)
    True
    """
    rng = random.Random(f"preferans-web:{seed}:{number}")
    pack = [Card.from_index(i) for i in range(32)]
    rng.shuffle(pack)
    hands = [CardSet(pack[i * 10:(i + 1) * 10]) for i in range(3)]
    return hands, pack[30:32]


def deal_hands(
    seed: int, number: int, players: int, dealer: int
) -> tuple[list[CardSet], list[Card]]:
    """The hands of every seat for deal ``number``: :func:`deal_cards`' three hands, and with
    four players an empty hand for the dealer, who sits out (the others get the three hands
    clockwise from the dealer's left).

    >>> hands, talon = deal_hands(7, 0, 4, dealer=2)
    >>> [len(h) for h in hands]
    [10, 10, 0, 10]
    >>> hands[3] == deal_cards(7, 0)[0][0]
    True
    """
    hands, talon = deal_cards(seed, number)
    if players != 4:
        return hands, talon
    seats: list[CardSet] = [CardSet()] * 4
    for k, hand in enumerate(hands):
        seats[(dealer + 1 + k) % 4] = hand
    return seats, talon


def first_dealer(seed: int, players: int = 3) -> int:
    """The dealer of a game's first deal."""
    return seed % players


def first_game(rules: Rules, seed: int, names: Sequence[str]) -> Game:
    """A game of ``rules`` seeded with ``seed``, its first deal dealt, the seats named
    ``names`` (a table for friends names them again when it starts)."""
    dealer = first_dealer(seed, rules.players)
    game = Game(rules, list(names), seed=seed, first_dealer=dealer)
    hands, talon = deal_hands(seed, 0, rules.players, dealer)
    game.start_deal(hands=hands, talon=talon)
    return game


def rules_info(rules: Rules) -> dict[str, Any]:
    """The rules as the browser sees them: the preset, the pool, the number of players and
    any changed option."""
    info = rules.to_json()
    info["pool"] = rules.pool
    info["players"] = rules.players
    return info


@functools.lru_cache(maxsize=256)
def _rules_shown(rules: Rules) -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    """The house rules, the rules and their title as the state shows them, once per rules
    (every table of the same rules shares them: they are only read)."""
    return house_rules(rules), rules_info(rules), rules_title(rules)


class Table(TableView, TableBots, TableSockets, TableFriends, TableSaving):
    """One game at the web table (see the module docstring)."""

    def __init__(
        self,
        game_id: str,
        game: Game,
        *,
        difficulty: str,
        seed: int,
        store: GameStore,
        bot_delay: float = 0.5,
        bot_level: str | None = None,
        seats: dict[str, str] | None = None,
        thinking: Thinking | None = None,
        hints: Hints | None = None,
        friends: Party | None = None,
    ) -> None:
        self.id = game_id
        self.party = friends
        """A table for friends (who sits where, the clock: :mod:`.friends`), or None: one
        human at seat 0 against the computer."""
        self.humans: frozenset[int] = friends.humans() if friends else frozenset((HUMAN,))
        """The seats humans play (the others are computer players)."""
        self.stand_ins: dict[int, list[int]] = {}
        """Deal (0 = the first) -> the indices of its actions a stand-in decided."""
        self.hints = hints or Hints()
        """The HINT button's state: on for this game or not, hints given (:mod:`.hints`)."""
        self.game = game
        self.difficulty = difficulty
        self.seed = seed
        self.store = store
        self.bot_delay = bot_delay
        self.names = list(game.players)
        self.colours = list(seat_colours(len(self.names)))
        self.dummy: int | None = 2 if len(self.names) == 2 else None
        """The dummy's seat in a two-player game (the third hand), else None."""
        self._fallbacks_logged: set[tuple[int, str]] = set()
        self.sockets: set[WebSocket] = set()
        self._langs: dict[WebSocket, str] = {}
        """Each socket's language, noted at its first state frame."""
        self._sheet_sent: dict[WebSocket, Any] = {}
        """The sheet (the object :meth:`sheet_json` gave) each socket last received: a
        state frame leaves the sheet out while it is unchanged for that socket."""
        self._seat_of: dict[WebSocket, int] = {}
        """Each socket's seat: the hand it is shown and plays (:meth:`connect`)."""
        self.paused = False
        self.seq = 0
        self.finish_asked: set[int] = set()
        """The humans of a friends' table who agree to finish the game now (it ends when all
        of them do: :meth:`finish`)."""
        self.stopped: dict[str, Any] | None = None
        """How a game finished early by agreement stopped (the record's optional ``stopped``),
        or None: it goes on, or ended as the rules end it."""
        self.lock = asyncio.Lock()
        self.bot_level = bot_level or difficulty
        self.levels: dict[int, str] = {
            seat: bot_level or (friends.level(seat) if friends else difficulty)
            for seat in range(len(self.names)) if seat not in self.humans}
        """Each computer seat's level (a table for friends chooses one per seat)."""
        self.stand_in_level = bot_level or (friends.stand_in if friends else difficulty)
        """The level of the stand-in that decides for a human out of time or away."""
        if friends is not None:
            self.levels.update({seat: self.stand_in_level for seat in self.humans})
        self.bots: dict[int, Player] = {
            seat: make_bot(level, game.rules, bot_seed(seed, seat))
            for seat, level in self.levels.items()
        }
        self.thinking = thinking
        """The worker processes the computer players think in; None: a thread of this process.
        A player put in :attr:`bots` by hand (tests) always thinks in a thread."""
        self._own_bots = dict(self.bots)
        self._thinking_id = f"{game_id}#{next(_TABLE_NUMBERS)}"
        self._seats: dict[int, Seat] = {}
        """Who decides at each computer seat, as the thinking processes know them."""
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        """Called with every state payload before it is sent (tests check payloads with it)."""
        self._driver: asyncio.Task[None] | None = None
        self._sheet_cache: tuple[int, dict[str, Any], Any] | None = None
        self._sheet_lang: dict[str, tuple[int, dict[str, Any], Any]] = {}
        """(entries, the sheet as JSON, that JSON encoded once for the state frames)."""
        self._record_cache: tuple[int, dict[str, Any], str] | None = None
        """(finished deals, the record without the open deal, its text up to that deal)."""
        self._deal_cache: tuple[Any, str, list[str]] | None = None
        """(the open deal, its record entry's text up to its actions, its action tokens so
        far: each action is written once)."""
        self._summary_cache: tuple[Any, bool, int, dict[str, Any]] | None = None
        self._sheet_pickled: tuple[dict[str, Any], Pickled] | None = None
        """(the sheet as JSON, that sheet pickled once for the thinking processes)."""
        self.house, self._rules_info, self._rules_title = _rules_shown(game.rules)
        """The rules as every state message shows them (they never change at a table);
        ``house``: the options changed from the preset (the sheet's circle lists them)."""
        self._static_json: dict[str, dict[str, Any]] = {}
        """Language -> the parts of every state frame that never change at a table, encoded
        once (:meth:`_static_in`)."""
        self.seats: dict[str, str] = dict(seats or {})
        """Human seat ("0") -> the sha256 of the token of the browser holding it (see the
        store's ``seats``); empty: nobody has claimed the game yet."""
        self._saved_record: EncodedJSON = self.record_encoded()
        """The record as last committed: a failed save goes back to it."""
        self.save_error: StoreError | None = None
        """Why the last save failed (the computer players wait), or None."""
        self.last_active = time.monotonic()
        """When a socket, a message or a move last touched the table (idle tables leave
        memory: :class:`.tables.Tables`)."""
        self.pause_asked: set[int] = set()
        self.ready: set[int] = set()
        """The humans of a friends' table who pressed READY for the next deal (it starts when
        every human at the table has: :meth:`TableFriends.all_ready`)."""
        """The humans of a friends' table who asked for a pause (it waits for all of them)."""
        self.chat = ChatRoom()
        """Each socket's pace of chat messages (a friends' table: :mod:`.chat`)."""
        self.standin: StandIn | None = StandIn(self, friends.clock, handed=friends.handed) \
            if friends else None
        """A table for friends' stand-in (the move clock, the seats of absent humans)."""
        self.epoch: int | None = None
        """The epoch of this process's lease of the table when several processes share the
        store (:mod:`..cluster`): every save carries it and the database refuses it once
        another process has taken the table over; None: one process, no lease."""
        self.lease_until: float | None = None
        """When (``time.monotonic``) the lease runs out unless renewed: past it the table
        saves nothing (another process may own it by now); None: no lease."""
        self.on_fenced: Callable[[], None] | None = None
        """Called when a save was refused because the lease is lost (:mod:`..cluster`)."""

    # --- creation and restoring ----------------------------------------------------------------
    @classmethod
    def new(
        cls,
        game_id: str,
        *,
        difficulty: str,
        rules: Rules,
        seed: int,
        store: GameStore,
        bot_delay: float = 0.5,
        bot_level: str | None = None,
        seats: dict[str, str] | None = None,
        hints: bool = False,
        friends: Party | None = None,
        names: list[str] | None = None,
    ) -> Table:
        """A new game with its first deal dealt, saved at once (raises
        :class:`..store.faults.StoreError` when it cannot be).

        ``bot_level`` plays the computer seats at that level instead of the difficulty's
        (tests use ``random``).  A table for friends (``friends``, the seats' ``names``) is
        saved waiting in its lobby until its creator starts it."""
        game = first_game(rules, seed, names or seat_names(rules.players))
        table = cls(game_id, game, difficulty=difficulty, seed=seed, store=store,
                    bot_delay=bot_delay, bot_level=bot_level, seats=seats, hints=Hints(hints),
                    friends=friends)
        store.create(
            game_id,
            difficulty=difficulty,
            rules=rules_info(rules),
            names=table.names,
            seed=seed,
            record=table.record(),
            summary=table.summary(),
            seats=table.seats or None,
            friends=friends.to_json() if friends else None,
            status=LOBBY if friends and not friends.started else None,
        )
        return table

    @classmethod
    def restore(
        cls,
        saved: SavedGame,
        *,
        store: GameStore,
        bot_delay: float = 0.5,
        bot_level: str | None = None,
    ) -> Table:
        """A saved game put back exactly where it was, by replaying its record."""
        game = Game.from_record(saved.record)
        summary = saved.summary or {}
        hints = Hints(bool(summary.get("hints")), int(summary.get("hints_used") or 0))
        party = Party.from_json(saved.friends) if saved.friends else None
        table = cls(saved.id, game, difficulty=saved.difficulty, seed=saved.seed, store=store,
                    bot_delay=bot_delay, bot_level=bot_level, seats=saved.seats, hints=hints,
                    friends=party)
        for number, deal in enumerate(saved.record.get("deals") or []):
            marks = deal.get("stand_in") if isinstance(deal, dict) else None
            if isinstance(marks, list) and all(isinstance(k, int) for k in marks):
                table.stand_ins[number] = list(marks)
        if party is not None:
            table.chat.restore(saved.chat)
            if party.deal_ready_at == table.deal_number() and table.deal_over():
                table.ready = set(party.deal_ready) & set(table.humans)  # READY kept
        stopped = saved.record.get("stopped")
        if isinstance(stopped, dict) and table.game.deal is None:
            table.stopped = stopped
        if table.stand_ins or table.stopped:
            table._record_cache = None
            table._saved_record = table.record_encoded()
        return table

    # --- where the game stands -----------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        """The rules of this game."""
        return self.game.rules

    def deal_over(self) -> bool:
        """Whether no deal is in progress (the last one ended, or the game is over)."""
        deal = self.game.deal
        return deal is None or _phase_name(deal) == "DONE"

    def game_over(self) -> bool:
        """Whether the game has reached its end (or every friend agreed to stop it)."""
        return bool(self.game.finished) or self.stopped is not None

    def seat_to_act(self) -> int | None:
        """The seat that must decide now, or None between deals."""
        if self.deal_over():
            return None
        return int(self.game.deal.to_act)

    def bot_to_move(self) -> int | None:
        """The computer player that moves next, or None (human's turn, deal over, paused,
        or the last save failed: nothing is played until it can be saved)."""
        seat = self.seat_to_act()
        if seat is None or self.paused or self.save_error is not None:
            return None
        if seat in self.humans and (self.standin is None or seat not in self.standin.away):
            return None
        if seat in self.humans and not any(self.has_socket(h) for h in self.humans):
            return None  # everybody is away: the game waits instead of playing itself out
        if not self.started():
            return None  # the friends are still gathering in the lobby
        return seat

    def started(self) -> bool:
        """Whether the game is on (a table for friends waits in its lobby until started)."""
        return self.party is None or self.party.started

    def decision(self) -> tuple[int, int]:
        """Which decision the table waits for: changes with every action."""
        deal = self.game.deal
        return len(self.game.finished_deals), len(deal.history) if deal is not None else -1

    def stand_in_seats(self, number: int) -> list[int]:
        """The seats a stand-in decided for in deal ``number`` (0 = the first)."""
        marks = self.stand_ins.get(number)
        if not marks:
            return []
        finished = self.game.finished_deals
        deal = finished[number] if number < len(finished) else self.game.deal
        history = deal.history if deal is not None else []
        return sorted({history[k][0] for k in marks if k < len(history)})

    def has_socket(self, seat: int) -> bool:
        """Whether a socket of ``seat`` is open."""
        return any(s == seat for s in self._seat_of.values())

    def seat_of(self, socket: WebSocket) -> int:
        """The seat a socket plays and is shown (seat 0 at a table against the computer)."""
        return self._seat_of.get(socket, HUMAN)


    def deal_number(self) -> int:
        """The number of the deal on the table (1 = the first), the one that just ended too."""
        return len(self.game.finished_deals) + (1 if self.game.deal is not None else 0)


    def touch(self) -> None:
        """Note that the table is in use now (it stays in memory)."""
        self.last_active = time.monotonic()

    def idle_for(self) -> float | None:
        """Seconds since the table was last used, or None while it is in use (a socket is
        open, the computer players are moving, a message is being handled)."""
        if self.sockets or self.lock.locked() or (
                self._driver is not None and not self._driver.done()):
            return None
        return time.monotonic() - self.last_active


    # --- what messages do ----------------------------------------------------------------------
    async def _human_action(self, token: str, seat: int = HUMAN) -> None:
        async with self.lock:
            self._check_human_turn(token, seat)
            try:
                event = self._apply(seat, token, stand_in=False)
            except IllegalAction as exc:
                raise _illegal(exc, token) from None
            except ValueError as exc:
                reason = str(exc).rstrip(".")
                raise MessageError("illegal", Said("table.not_an_action", token=repr(token),
                                                   reason=reason)) from None
            await self._save(Said("table.taken_back", token=Token(token)))
            await self._publish(event)
        self._ensure_driver()

    def _check_human_turn(self, token: str, mine: int = HUMAN) -> None:
        if self.game_over():
            raise MessageError("not_your_turn", Said("table.game_over"))
        if self.deal_over():
            raise MessageError("not_your_turn", Said("table.deal_over"))
        if self.party is not None and not self.party.started:
            raise MessageError("not_your_turn", Said("friends.not_started"))
        if self.party is not None and self.paused:
            raise MessageError("paused", Said("friends.paused"))
        seat = self.seat_to_act()
        if seat != mine:
            phase = _phase_name(self.game.deal)
            verb = Said(f"verb.{phase}" if phase in PHASE_VERBS else "verb.act")
            raise MessageError("not_your_turn", Said(
                "table.not_your_turn", name=NameOf(self.names[seat]), verb=verb,
                token=Token(token)))

    async def _next_deal(self, seat: int = HUMAN) -> None:
        async with self.lock:
            if self.game_over():
                raise MessageError("illegal", Said("table.no_next_deal"))
            if not self.deal_over():
                if self.party is not None:
                    return  # the last friend's READY has just started it
                raise MessageError("illegal", Said("table.deal_on"))
            if self.party is not None:  # a table for friends: each human's READY
                self.ready.add(seat)
                if not self.all_ready():
                    await self._keep_ready()  # a restart still knows who is ready
                    await self._publish(None)
                    return
            await self._deal_again()
        self._ensure_driver()

    async def _deal_again(self) -> None:
        """Deal the next deal, save it and tell every socket (lock held)."""
        self.ready.clear()
        hands, talon = deal_hands(self.seed, self.deal_number(), self.rules.players,
                                  self.game.dealer)
        self.game.start_deal(hands=hands, talon=talon)
        await self._save(Said("table.next_not_started"))
        await self._publish({"kind": "deal_started", "seat": self.game.deal.dealer,
                             "token": None})

    async def _set_paused(self, paused: bool, seat: int = HUMAN) -> None:
        """Pause or go on.  At a table for friends a pause waits until every human who is at
        the table has asked for it (``pause_asked`` in the state); any of them goes on."""
        async with self.lock:
            if paused and self.standin is not None and not self.paused:
                self.pause_asked.add(seat)
                present = {h for h in self.humans if h not in self.standin.away}
                if not present <= self.pause_asked:
                    await self._publish(None)
                    return
            self.pause_asked.clear()
            self.paused = paused
            if not paused:
                self.save_error = None  # resuming tries a failed save again
            await self._publish(None)
        if not paused:
            self._ensure_driver()


    def _apply(self, seat: int, token: str, stand_in: bool | None = None) -> dict[str, Any]:
        """Apply one action of ``seat`` through the engine and describe it as an event (the
        caller saves it: :meth:`_save`).  A human seat's action taken by the computer is a
        stand-in's (marked in the event and the record) unless ``stand_in`` says otherwise."""
        if stand_in is None:
            stand_in = seat in self.humans and self.party is not None
        deal = self.game.deal
        phase = _phase_name(deal)
        tricks_before = len(deal.tricks)
        number, index = len(self.game.finished_deals), len(deal.history)
        self.game.apply(token)
        done = deal.history[-1][1] if deal.history else Action.parse(token)
        token_shown = str(done)
        if done.kind is ActionKind.DISCARD and seat not in self.humans:
            # the discard lies face down: only its owner sees it (a human's is hidden from
            # the others by :meth:`state`)
            token_shown = "DISCARD"
        event: dict[str, Any] = {"kind": _event_kind(phase, done), "seat": seat,
                                 "token": token_shown}
        if stand_in:
            event["stand_in"] = True
            self.stand_ins.setdefault(number, []).append(index)
        if phase == "AUCTION" and _phase_name(deal) == "DISCARD":
            event["kind"] = "talon"
        if phase == "PLAY" and len(deal.tricks) > tricks_before:
            event["kind"] = "trick"
            event["winner"] = deal.tricks[-1].winner
        if _phase_name(deal) == "DONE" or self.game.deal is not deal:
            event["kind"] = "deal_scored"
        return event

    def _version(self) -> tuple[int, Any, int]:
        """Changes whenever the game does: the state sent, the deal, the actions in it."""
        deal = self.game.deal
        return self.seq, deal, len(deal.history) if deal is not None else -1


    async def stop(self) -> None:
        """Stop the computer players (server shutdown, or the table leaves memory)."""
        if self.standin is not None:
            self.standin.stop()
        if self.thinking is not None:
            self.thinking.forget(self._thinking_id)
        task, self._driver = self._driver, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


_TABLE_NUMBERS = itertools.count(1)
"""Numbers the table objects of this process: a table restored from the store gets fresh
computer players in the thinking processes, as it does after a restart."""


def _event_kind(phase: str, action: Action) -> str:
    if phase == "AUCTION":
        return "pass" if action.kind is ActionKind.PASS else "bid"
    if phase == "DISCARD":
        return "discard"
    if phase == "CONTRACT":
        return "contract"
    if phase in ("DEFENCE", "DEFENCE_MODE", "DEALER"):
        return "defence"
    if phase == "NAME":
        return "contract"  # the Rogue's soloist names the game
    if phase == "EXCHANGE":
        return "discard"
    return "card"


def _illegal(exc: IllegalAction, token: str) -> MessageError:
    """The error for an action the engine refused, naming the action and the engine's reason:
    ``reason`` in English, ``reason_code`` and ``reason_params`` (JSON tokens) for a browser
    that shows it in its own language (``code`` is already the error's own code)."""
    from ...i18n.reasons import params_json

    reason = Refusal(exc.why)
    return MessageError(
        "illegal", Said("table.not_allowed", token=Token(token), reason=reason), reason=reason,
        token=token,
        reason_code=exc.code, reason_params=params_json(exc.params),
    )
