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
- a finished deal waits for ``next_deal``;
- at a table for friends, ``{"type": "finish"}`` is a human's word for finishing the game
  early (``"agree": false`` says no and withdraws the request): the state lists who agreed
  (``finish_asked``) and who is still to (``finish_waiting``); when every human at the table
  has agreed the game stops there, is saved finished and the state says how
  (``stopped``: :meth:`Table.finish`).

Payloads are built from ``game.observation(0)`` and the sheet only, so hidden
cards never leave the server.

The state message (see the protocol in the project notes)::

    {"type": "state", "seq": 17, "game_id": "...", "seat": 0,
     "names": ["You", "Misha", "Lena"], "colours": [...], "difficulty": "easy",
     "rules": {"preset": "sochi", "pool": 10, "players": 3, ...}, "rules_title": "Sochi",
     "rules_doc": "The usual modern game: ...", "house_rules": [{"name": "stalingrad",
     "value": true, "preset_value": false, "doc": "..."}], "observation": {...},
     "why_not": {"QH": "must follow ♠"}, "thinking": 1, "paused": false,
     "deal_over": false, "last_entry": null, "game_over": false, "result": null,
     "event": {"kind": "card", "seat": 2, "token": "QH"}}

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
``not_your_turn``, ``save_failed`` (with ``database`` and ``problem``: the action was taken
back), ``server_error``; before a socket joins a table (see :mod:`preferans.server.app`):
``unknown_game``, ``not_yours``, ``damaged`` and ``database``, then the socket closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import anyio.to_thread
from starlette.websockets import WebSocket, WebSocketState

from .. import i18n
from ..actions import PLAY_ACTIONS, Action, ActionKind, IllegalAction
from ..cards import Card, CardSet
from ..game import Game
from ..players import Player
from ..rules import Rules
from .chat import CHAT_MOST, ChatRoom, clean_chat
from .fastjson import EncodedJSON, dumps, fragment
from .hints import Hints, hint_summary
from .house_rules import house_rules, rules_title
from .lang import (
    PHASE_VERBS,
    HouseRules,
    Lines,
    NameOf,
    Reasons,
    Refusal,
    Rendered,
    Said,
    Token,
    localize,
    socket_language,
    store_message,
)
from .party import Party
from .presets_text import preset_line, preset_line_in, preset_title_in
from .request_errors import MessageError
from .rules_brief import rules_brief
from .seats import HUMAN, bot_seed
from .spectators import SPECTATOR, public_view
from .standin import StandIn
from .stats import summarise
from .store import FINISHED, LOBBY, PLAYING, Fenced, GameStore, SavedGame, StoreError
from .summaries import entry_in, sheet_in
from .thinking import Pickled, Seat, Thinking, ThinkingError, make_bot

log = logging.getLogger("preferans.server")

NAMES = ("You", "Misha", "Lena")
"""Seats 0, 1, 2 clockwise: you at the bottom, Misha on your left, Lena on your right."""
COLOURS = ("#2e7d32", "#1565c0", "#c62828")
"""Each player's colour on the table and the sheet."""
NAMES_FOUR = ("You", "Misha", "Sasha", "Lena")
"""Four players, clockwise: you at the bottom, Misha on your left, Sasha opposite you at
the top, Lena on your right."""
COLOURS_FOUR = ("#2e7d32", "#1565c0", "#ef6c00", "#c62828")
"""Each player's colour with four players (Sasha orange; the others keep theirs)."""


NAMES_TWO = ("You", "Misha")
"""Two players (the two-player game and the Rogue): you and Misha; the dummy's hand is the
third (seat 2, :data:`DUMMY_NAME`), on the dealer's left, and never decides."""
DUMMY_NAME = "Dummy"
"""How the table names the two-player game's dummy (seat 2: state ``dummy``)."""
DUMMY_COLOUR = "#757575"
"""The dummy's colour (grey): the state's ``colours`` has it as a third entry."""


def seat_names(players: int) -> tuple[str, ...]:
    """The names at a table of two, three or four players (the dummy is not a player)."""
    return {2: NAMES_TWO, 4: NAMES_FOUR}.get(players, NAMES)


def seat_colours(players: int) -> tuple[str, ...]:
    """The colours at a table of two (the dummy's grey third), three or four players."""
    if players == 2:
        return (*COLOURS[:2], DUMMY_COLOUR)
    return COLOURS_FOUR if players == 4 else COLOURS
MAX_MESSAGE_BYTES = 4096
"""The largest message a browser may send."""
MAX_MESSAGE_DEPTH = 8
"""The deepest nesting of arrays and objects a browser message may have (the protocol's
messages are flat objects)."""
MESSAGE_TYPES = ("action", "next_deal", "pause", "resume", "hint")
FRIENDS_MESSAGE_TYPES = (*MESSAGE_TYPES, "hand_over", "chat", "finish")
"""A table for friends takes three more: the creator's hand-over of an absent friend's seat,
the chat, and a friend's word on finishing the game early (``{"type": "finish"}`` agrees,
``"agree": false`` says no: :meth:`Table.finish`)."""


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


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets inside strings do
    not count); measured before parsing, so a deep frame never reaches the parser.

    >>> json_depth('{"a": [1, {"b": "[["}]}')
    3
    """
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def parse_message(text: str | bytes | None, friends: bool = False) -> dict[str, Any]:
    """Check one browser message: a JSON text frame of at most 4 KiB nested at most 8 deep,
    an object with a known ``type``; an ``action`` carries a string ``token``.  Raises
    :class:`MessageError`.

    >>> parse_message('{"type": "action", "token": "QH"}')
    {'type': 'action', 'token': 'QH'}
    >>> parse_message('{"type": "dance"}')
    Traceback (most recent call last):
    ...
    preferans.server.table.MessageError: Unknown message type 'dance' (expected action, \
next_deal, pause, resume or hint).
    """
    if text is None or isinstance(text, bytes | bytearray):
        raise MessageError("bad_message", Said("error.msg.binary"))
    size = len(text) if len(text) > MAX_MESSAGE_BYTES else len(text.encode("utf-8"))
    if size > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", Said("error.msg.too_large", size=size,
                                             most=MAX_MESSAGE_BYTES))
    depth = json_depth(text)
    if depth > MAX_MESSAGE_DEPTH:
        raise MessageError("bad_message", Said("error.msg.too_deep", depth=depth,
                                               most=MAX_MESSAGE_DEPTH))
    try:
        obj = json.loads(text)
    except RecursionError:
        raise MessageError("bad_message", Said("error.msg.unreadable")) from None
    except json.JSONDecodeError as exc:
        raise MessageError("bad_message", Said("error.msg.not_json", detail=exc.msg,
                                               column=exc.colno)) from None
    if not isinstance(obj, dict):
        raise MessageError("bad_message", Said("error.msg.not_object"))
    kind = obj.get("type")
    known = FRIENDS_MESSAGE_TYPES if friends else MESSAGE_TYPES
    if kind not in known:
        raise MessageError("bad_message", Said("error.msg.unknown_type", kind=repr(kind),
                                               known=_one_of(known)))
    if kind == "action":
        token = obj.get("token")
        if not isinstance(token, str) or not token.strip():
            raise MessageError("bad_message", Said("error.msg.no_token"))
        if len(token) > 40:
            raise MessageError("bad_message", Said("error.msg.long_token",
                                                   token=repr(token[:40])))
    if kind == "finish" and not isinstance(obj.get("agree", True), bool):
        raise MessageError("bad_message", Said("friends.bad_finish"))
    if kind == "hand_over":
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise MessageError("bad_message", Said("friends.bad_seat"))
    return obj


def _one_of(words: tuple[str, ...]) -> Rendered:
    """``a, b or c`` with the reader's word for "or"."""
    def said(lang: str) -> str:
        return ", ".join(words[:-1]) + f" {i18n.pgettext('term', 'or', lang)} " + words[-1]

    return Rendered(said("en"), said)


class SaveFailed(Exception):
    """A save failed: the table was put back to its last saved state and every socket was
    told (the ``save_failed`` error)."""


def _phase_name(deal: Any) -> str:
    phase = getattr(deal, "phase", None)
    # an enum member's ``_name_`` is a plain attribute (``.name`` goes through a slow
    # descriptor, and this runs several times per action)
    return getattr(phase, "_name_", None) or getattr(phase, "name", str(phase))


class Table:
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
        memory: :class:`preferans.server.app.Tables`)."""
        self.pause_asked: set[int] = set()
        """The humans of a friends' table who asked for a pause (it waits for all of them)."""
        self.chat = ChatRoom()
        """Each socket's pace of chat messages (a friends' table: :mod:`.chat`)."""
        self.standin: StandIn | None = StandIn(self, friends.clock, handed=friends.handed) \
            if friends else None
        """A table for friends' stand-in (the move clock, the seats of absent humans)."""
        self.epoch: int | None = None
        """The epoch of this process's lease of the table when several processes share the
        store (:mod:`.cluster`): every save carries it and the database refuses it once
        another process has taken the table over; None: one process, no lease."""
        self.lease_until: float | None = None
        """When (``time.monotonic``) the lease runs out unless renewed: past it the table
        saves nothing (another process may own it by now); None: no lease."""
        self.on_fenced: Callable[[], None] | None = None
        """Called when a save was refused because the lease is lost (:mod:`.cluster`)."""

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
        :class:`preferans.server.store.StoreError` when it cannot be).

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
                "finish_asked": sorted(self.finish_asked),
                "finish_waiting": sorted(self.present_humans() - self.finish_asked)
                if self.finish_asked else [],
                "stopped": self.stopped_view(),
                "rematch": (f"/table/{self.party.rematch}"
                            if self.party is not None and self.party.rematch else None),
                # the watch-only link, for its creator to copy (no other seat, no spectator)
                "watch": (f"/watch/{self.id}/{self.party.watch}" if seat == HUMAN
                          and self.party is not None and self.party.watch else None),
                "stand_in_seats": self.stand_in_seats(self.deal_number() - 1)}),
        }

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

    def deal_number(self) -> int:
        """The number of the deal on the table (1 = the first), the one that just ended too."""
        return len(self.game.finished_deals) + (1 if self.game.deal is not None else 0)

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

    # --- sockets -------------------------------------------------------------------------------
    async def connect(self, socket: WebSocket, seat: int = HUMAN) -> None:
        """Add an accepted socket of ``seat``: it gets that seat's current state, and the
        computer players go on (after a failed save, they try again)."""
        async with self.lock:
            self.touch()
            self.save_error = None
            self.sockets.add(socket)
            self._seat_of[socket] = seat
            back = self.standin is not None and self.standin.back(seat)
            if self.standin is not None:  # after a restart: the others' grace time starts
                for other in self.humans:
                    if other != seat and not self.has_socket(other):
                        self.standin.left(other)
            if back:
                await self._publish(None)  # every plate: the human is back
            else:
                await self._send(socket, self._publishable(self.state(None, seat)))
        self._ensure_driver()

    def disconnect(self, socket: WebSocket) -> None:
        """Forget a closed socket (the last of a human's seat: the stand-in's grace time
        starts)."""
        self.sockets.discard(socket)
        seat = self._seat_of.pop(socket, None)
        self.chat.forget(socket)
        if self.standin is not None and seat is not None and not self.has_socket(seat):
            self.standin.left(seat)
        self._langs.pop(socket, None)
        self._sheet_sent.pop(socket, None)
        self.touch()

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

    async def receive(self, socket: WebSocket, text: str | bytes | None) -> None:
        """Handle one browser message; a bad one gets an error reply and changes nothing."""
        self.touch()
        try:
            message = parse_message(text, friends=self.party is not None)
            kind = message["type"]
            if self.seat_of(socket) == SPECTATOR:
                raise MessageError("spectator", Said("friends.spectator"))
            if kind == "action":
                await self._human_action(message["token"].strip(), self.seat_of(socket))
            elif kind == "next_deal":
                await self._next_deal()
            elif kind == "pause":
                await self._set_paused(True, self.seat_of(socket))
            elif kind == "resume":
                await self._set_paused(False)
            elif kind == "hint":
                await self.hints.give(self, socket)
            elif kind == "hand_over":
                await self.hand_over(socket, message["seat"])
            elif kind == "chat":
                await self._chat(socket, message.get("text"))
            elif kind == "finish":
                await self.finish(self.seat_of(socket), message.get("agree", True))
        except MessageError as exc:
            await self._send(socket, exc.payload())
        except SaveFailed:
            pass  # every socket has been told, the table is back at its last saved state
        except Exception:
            log.exception("game %s: a message failed", self.id)
            await self._send(socket, MessageError(
                "server_error", Said("error.server_error")).payload())

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

    async def _next_deal(self) -> None:
        async with self.lock:
            if self.game_over():
                raise MessageError("illegal", Said("table.no_next_deal"))
            if not self.deal_over():
                if self.party is not None:
                    return  # another friend has just started it
                raise MessageError("illegal", Said("table.deal_on"))
            hands, talon = deal_hands(self.seed, self.deal_number(), self.rules.players,
                                      self.game.dealer)
            self.game.start_deal(hands=hands, talon=talon)
            await self._save(Said("table.next_not_started"))
            await self._publish({"kind": "deal_started", "seat": self.game.deal.dealer,
                                 "token": None})
        self._ensure_driver()

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

    def present_humans(self) -> set[int]:
        """The humans at the table now (not played by the stand-in): those whose word a pause
        or an early finish waits for."""
        away = self.standin.away if self.standin is not None else set()
        return {h for h in self.humans if h not in away}

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

    async def finish(self, seat: int, agree: bool = True) -> None:
        """A friend's word on finishing the game now.  It ends when every human at the table
        has agreed (``finish_asked`` and ``finish_waiting`` in the state meanwhile); one
        friend saying no (``agree: false``) withdraws the request.  The deal in progress, if
        any, is not scored; the sheet settles as it stands (:meth:`Sheet.balance`: the
        missing pool points charged unless ``settle_no_missing_pool``), the game is saved
        finished, its record marked ``stopped``."""
        async with self.lock:
            if self.party is None:
                raise MessageError("bad_message", Said("friends.finish_alone"))
            if self.game_over():
                raise MessageError("illegal", Said("table.game_over"))
            if not self.started():
                raise MessageError("not_your_turn", Said("friends.not_started"))
            if not agree:
                if self.finish_asked:
                    self.finish_asked.clear()
                    await self._publish(None)
                return
            self.finish_asked.add(seat)
            if not self.present_humans() <= self.finish_asked:
                await self._publish(None)
                return
            await self._stop_early()

    async def _stop_early(self) -> None:
        """Every friend agreed: the game stops here and is saved finished (lock held)."""
        open_deal = self.game.deal is not None
        self.stopped = {"agreed": sorted(self.finish_asked),
                        "deals": len(self.game.finished_deals), "deal_dropped": open_deal}
        self.game.deal = None  # the deal in progress is not scored
        self.finish_asked.clear()
        self.pause_asked.clear()
        self.paused = False
        self._record_cache = None
        self._deal_cache = None
        # a failed save puts the game back as last saved (not stopped: it goes on), tells
        # every socket and raises SaveFailed
        await self._save(Said("friends.finish_not_saved"))
        await self._publish(None)

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

    async def _save(self, taken_back: Said) -> None:
        """Commit the record after an action (on the store's writer thread: the loop goes
        on), so a crash loses nothing that a browser has seen.

        If the database fails, the game goes back to the last saved record, every socket
        gets a ``save_failed`` error (``taken_back`` says what was undone), the computer
        players stop, and :class:`SaveFailed` is raised.  Called with the lock held."""
        sheet = self.sheet_json()
        over = self.game_over()
        record = self.record_encoded()
        fenced = False
        try:
            if self.epoch is None:
                await self.store.save_async(
                    self.id,
                    record=record,
                    status=FINISHED if over else PLAYING,
                    result=list(sheet.get("balance", [])) if over else None,
                    summary=self.summary(sheet),
                )
            else:
                if self.lease_until is not None and time.monotonic() > self.lease_until:
                    raise Fenced(self.store.location, self.id, self.epoch, None)
                await self.store.save_async(
                    self.id, record=record, status=FINISHED if over else PLAYING,
                    result=list(sheet.get("balance", [])) if over else None,
                    summary=self.summary(sheet), epoch=self.epoch)
        except (StoreError, KeyError) as exc:
            if isinstance(exc, KeyError):
                exc = StoreError(self.store.location, "no longer holds this game", str(exc))
            fenced = isinstance(exc, Fenced)
            await self._roll_back(exc, taken_back)
            if fenced and self.on_fenced is not None:
                self.on_fenced()
            raise SaveFailed(exc.message) from exc
        self._saved_record = record
        self.save_error = None
        self.touch()

    async def _roll_back(self, exc: StoreError, taken_back: Said) -> None:
        """Put the game back to the last saved record and tell every socket why."""
        log.warning("game %s: not saved: %s", self.id, exc.message)
        self.game = Game.from_record(self._saved_record.value)
        stopped = self._saved_record.value.get("stopped")
        self.stopped = stopped if isinstance(stopped, dict) else None  # an early finish too
        self._record_cache = None
        self._deal_cache = None
        self._sheet_cache = None
        self.save_error = exc
        await self._publish(None)  # nobody is thinking now: the players wait for a retry
        payload = {
            "type": "error",
            "code": "save_failed",
            "database": exc.location,
            "problem": exc.problem,
            "message": Said("table.not_saved", taken_back=taken_back, problem=Rendered(
                exc.message, functools.partial(store_message, exc))),
        }
        for socket in list(self.sockets):
            await self._send(socket, payload)

    # --- the computer players ------------------------------------------------------------------
    def _ensure_driver(self) -> None:
        if self._driver is not None and not self._driver.done():
            return
        if self.bot_to_move() is None:
            return
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        """Move the computer players one action at a time until the human is to act."""
        try:
            await self._drive_steps()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the computer players stopped", self.id)

    async def _drive_steps(self) -> None:
        while True:
            async with self.lock:
                seat = self.bot_to_move()
                if seat is None:
                    return
                version = self._version()
                observation = self.seat_observation(seat)
                # the seat's legal tokens, as game.legal_actions() writes them: the game
                # has not changed when the move is applied (the version is checked below)
                legal = set(observation["legal"])
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            token = await self._think(seat, observation)
            async with self.lock:
                if self._version() != version or self.bot_to_move() != seat:
                    continue
                if token not in legal:
                    self._log_fallback(seat, f"chose {token!r}, not a legal action")
                    token = self._random_legal(seat, legal)
                try:
                    event = self._apply(seat, token)
                except (IllegalAction, ValueError) as exc:
                    self._log_fallback(seat, f"chose an illegal action {token!r} ({exc})")
                    event = self._apply(seat, self._random_legal(seat, legal))
                try:
                    await self._save(f"{self.names[seat]}'s move was taken back")
                except SaveFailed:
                    return
                await self._publish(event)

    def _version(self) -> tuple[int, Any, int]:
        """Changes whenever the game does: the state sent, the deal, the actions in it."""
        deal = self.game.deal
        return self.seq, deal, len(deal.history) if deal is not None else -1

    def _random_legal(self, seat: int, legal: set[str]) -> str:
        """The random baseline's decision: a legal action drawn with the table's own seed."""
        return random.Random(f"{self.seed}:{seat}:{self.seq}").choice(sorted(legal))

    def _log_fallback(self, seat: int, what: str) -> None:
        """Log (once per seat and phase) that a computer player fell back to a random move:
        the levels may not know every variant's tokens yet (Rogue naming, ALONE, BLIND...)."""
        phase = _phase_name(self.game.deal)
        if (seat, phase) in self._fallbacks_logged:
            return
        self._fallbacks_logged.add((seat, phase))
        log.warning("game %s (%s): %s %s in %s: playing a random legal action (logged once)",
                    self.id, self.rules.name, self.names[seat], what, phase)

    async def _think(self, seat: int, observation: dict[str, Any]) -> str:
        """The computer player's decision: in a thinking process when the table has them and
        the player is the one the table made, else in a thread.  A player that fails, or a
        process that dies or hangs, gets the random legal fallback."""
        if self.thinking is None or self.bots.get(seat) is not self._own_bots.get(seat):
            return await anyio.to_thread.run_sync(self._choose, seat, observation)
        who = self._seats.get(seat)
        if who is None:
            who = self._seats[seat] = Seat(
                self._thinking_id, seat, self.levels.get(seat, self.bot_level),
                json.dumps(self.rules.to_json(), sort_keys=True), bot_seed(self.seed, seat))
        sheet = observation.get("sheet")
        if sheet is not None and sheet is self.sheet_json():
            # the sheet is pickled once per deal, not with every decision
            if self._sheet_pickled is None or self._sheet_pickled[0] is not sheet:
                self._sheet_pickled = (sheet, Pickled(sheet))
            observation = {**observation, "sheet": self._sheet_pickled[1]}
        try:
            return await self.thinking.choose(who, observation)
        except ThinkingError as exc:
            return self._fallback(seat, observation, f"failed to choose ({exc})")

    def _fallback(self, seat: int, observation: dict[str, Any], what: str) -> str:
        self._log_fallback(seat, what)
        legal = set(observation.get("legal") or [])
        return self._random_legal(seat, legal) if legal else "PASS"

    def _choose(self, seat: int, observation: dict[str, Any]) -> str:
        """Ask a computer player (in a worker thread); a failing player gets a random legal
        move (the random baseline), so a variant the levels do not know never stalls."""
        try:
            return str(self.bots[seat].choose(observation))
        except Exception as exc:
            return self._fallback(seat, observation,
                                  f"failed to choose ({type(exc).__name__}: {exc})")

    async def refresh(self) -> None:
        """Send every socket the state again (a seat changed hands)."""
        async with self.lock:
            await self._publish(None)
        self._ensure_driver()

    async def _chat(self, socket: WebSocket, text: Any) -> None:
        """A chat message of a friends' table to every socket of it (:mod:`.chat`)."""
        said = clean_chat(text)
        if said is None:
            raise MessageError("bad_message", Said("chat.bad", most=CHAT_MOST))
        if not self.chat.allow(socket):
            raise MessageError("too_many_messages", Said("chat.slow"))
        seat = self.seat_of(socket)
        payload = {"type": "chat", "seat": seat, "name": self.names[seat], "text": said}
        text_out = dumps(payload)
        for other in list(self.sockets):
            await self._send_text(other, text_out)

    async def hand_over(self, socket: WebSocket, seat: int) -> None:
        """The creator gives the seat of a friend who is away (the stand-in plays it) to the
        computer for the rest of the game: the seat's holder is forgotten (saved first)."""
        party = self.party
        if party is None or self.seat_of(socket) != HUMAN:
            raise MessageError("creator_only", Said("friends.creator_only"))
        if (self.standin is None or seat not in self.humans or seat == HUMAN
                or seat in party.handed or seat not in self.standin.away):
            raise MessageError("not_away", Said("friends.not_away"))

        def forget(seats: dict[str, str], friends: dict[str, Any]) -> Party:
            handed = Party.from_json(friends).hand_over(seat)
            seats.pop(str(seat), None)
            friends.clear()
            friends.update(handed.to_json())
            return handed

        try:
            self.party = await self.store.write(self.store.change_friends, self.id, forget)
        except (StoreError, KeyError) as exc:
            raise MessageError("save_failed", Said("table.not_saved_short")) from exc
        self.seats.pop(str(seat), None)
        self.standin.handed.add(seat)
        await self.refresh()

    async def stand_in_move(self, seat: int, decision: tuple[int, int]) -> None:
        """The move clock ran out: the stand-in makes this one decision for ``seat`` (unless
        the human has decided meanwhile)."""
        async with self.lock:
            if self.decision() != decision or self.seat_to_act() != seat or self.paused:
                return
            observation = self.seat_observation(seat)
            legal = set(observation["legal"])
        token = await self._think(seat, observation)
        async with self.lock:
            if self.decision() != decision or self.seat_to_act() != seat:
                return  # the human was quicker
            if token not in legal:
                token = self._random_legal(seat, legal)
            event = self._apply(seat, token)
            try:
                await self._save(f"the move for {self.names[seat]} was taken back")
            except SaveFailed:
                return
            await self._publish(event)
        self._ensure_driver()

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

    @property
    def thinking_table(self) -> str:
        """This table object's name in the thinking processes."""
        return self._thinking_id

    def rules_json(self) -> str:
        """The rules as the thinking processes receive them."""
        return json.dumps(self.rules.to_json(), sort_keys=True)

    async def send_to(self, socket: WebSocket, payload: dict[str, Any]) -> None:
        """Send one message to one socket (a hint goes only to the browser that asked)."""
        await self._send(socket, payload)

    # --- sending ---------------------------------------------------------------------------------
    def _publishable(self, payload: dict[str, Any]) -> dict[str, Any]:
        for listener in self.listeners:
            listener(payload)
        return payload

    async def _publish(self, event: dict[str, Any] | None) -> None:
        """Send the new state to every socket of the table, encoded once per language."""
        self.seq += 1
        if self.standin is not None:
            self.standin.arm()
        payloads = {HUMAN: self._publishable(self.state(event))}
        if not self.sockets:
            return
        texts: dict[tuple[int, str, bool], str] = {}
        langs = self._langs
        sent = self._sheet_sent
        sheet = payloads[HUMAN]["observation"].get("sheet")
        for socket in list(self.sockets):
            lang = langs.get(socket)
            if lang is None:  # a socket's language is set when it opens
                lang = langs[socket] = i18n.normalize(socket_language(socket))
            seat = self._seat_of.get(socket, HUMAN)
            with_sheet = sent.get(socket) is not sheet
            text = texts.get((seat, lang, with_sheet))
            if text is None:
                payload = payloads.get(seat)
                if payload is None:
                    payload = payloads[seat] = self._publishable(self.state(event, seat))
                text = texts[seat, lang, with_sheet] = self.encode_state(payload, lang,
                                                                         with_sheet)
            if await self._send_text(socket, text):
                sent[socket] = sheet

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
            payload = {**payload, "last_entry": entry_in(last, self.names, lang)}
        return dumps({**payload, **static, "observation": observation})

    def _sheet_in(self, lang: str) -> Any:
        """The sheet's JSON text with the deals' summaries in ``lang`` (:mod:`.summaries`),
        written once per language each time a deal ends."""
        count, sheet, sheet_json = self._sheet()
        lang = i18n.normalize(lang)
        if lang == "en":
            return sheet_json
        cached = self._sheet_lang.get(lang)
        if cached is None or cached[0] != count or cached[1] is not sheet:
            cached = self._sheet_lang[lang] = (count, sheet, fragment(sheet_in(sheet, lang)))
        return cached[2]

    def _static_in(self, lang: str) -> dict[str, Any]:
        """The parts of every state frame that never change at a table, in ``lang``, encoded
        once per language."""
        lang = i18n.normalize(lang)
        static = self._static_json.get(lang)
        if static is None:
            static = self._static_json[lang] = {key: fragment(value) for key, value in (
                ("names", self.names), ("colours", self.colours),
                ("house_rules", self.house if lang == "en"
                 else HouseRules(self.house).render(lang)),
                ("rules", self._rules_info),
                ("rules_doc", preset_line(self.rules.name) if lang == "en"
                 else preset_line_in(self.rules.name, lang)),
                ("rules_brief", rules_brief(self.rules, lang)))}
        return static

    async def _send(self, socket: WebSocket, payload: dict[str, Any]) -> None:
        lang = socket_language(socket)
        if payload.get("type") != "state":
            await self._send_text(socket, dumps(localize(payload, lang)))
            return
        # a state sent to one socket (the one just opened) always carries the sheet
        if await self._send_text(socket, self.encode_state(payload, lang)):
            self._sheet_sent[socket] = payload["observation"].get("sheet")

    async def _send_text(self, socket: WebSocket, text: str) -> bool:
        """Send ``text``; False (and the socket forgotten) when it could not be sent."""
        if socket.application_state is not WebSocketState.CONNECTED:
            self._forget(socket)
            return False
        try:
            await socket.send_text(text)
        except Exception:
            self._forget(socket)
            return False
        return True

    def _forget(self, socket: WebSocket) -> None:
        self.sockets.discard(socket)
        self._seat_of.pop(socket, None)
        self.chat.forget(socket)
        self._langs.pop(socket, None)
        self._sheet_sent.pop(socket, None)


_KEPT_SHEET = fragment(["sheet"])
"""A state frame's ``kept`` when it leaves the sheet out (written once)."""

_PLAYS: dict[str, Action] = {str(action): action for action in PLAY_ACTIONS}
"""A card's token -> the action playing it (:meth:`Table.why_not` asks about every card)."""

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
    from ..i18n.reasons import params_json

    reason = Refusal(exc.why)
    return MessageError(
        "illegal", Said("table.not_allowed", token=Token(token), reason=reason), reason=reason,
        token=token,
        reason_code=exc.code, reason_params=params_json(exc.params),
    )
