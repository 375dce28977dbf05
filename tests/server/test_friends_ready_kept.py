"""The next deal's READY is kept with the table (issue 47): friends who pressed READY before
a server restart are still ready after it (the store's ``friends`` column holds who, and for
which deal), so the last friend's READY deals the next deal at once; a READY saved for an
earlier deal is not carried to the next."""

from __future__ import annotations

from pathlib import Path

from server_helpers import receive_json
from test_friends import (
    _play_deal_out,
    _read_until,
    _six_nobody_whists,
    in_step,
    open_sockets,
    seated,
)
from test_friends_more import app_on

from preferans.server.table.party import Party


def test_the_next_deals_ready_survives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    with app_on(db) as first:
        game, browsers = seated(first, ["friend", "friend"], ["Boris", "Vera"], seed=30)
        with open_sockets(game, browsers) as sockets:
            states = _play_deal_out(sockets, in_step(sockets), _six_nobody_whists)
            assert all(state["deal_over"] for state in states.values())
            sockets[0].send_json({"type": "next_deal"})  # Anna and Boris are ready
            _read_until(sockets[2], lambda m: m["ready"] == [0])
            sockets[1].send_json({"type": "next_deal"})
            told = _read_until(sockets[2], lambda m: m["ready"] == [0, 1])
            assert told["ready_waiting"] == [2] and told["deal_number"] == 1
        kept = Party.from_json(first.app.state.store.get(game).friends)
        assert kept.deal_ready == (0, 1) and kept.deal_ready_at == 1
    with app_on(db) as second:  # the server restarts: Anna and Boris are still ready
        for browser in browsers:
            browser.client = second
        with open_sockets(game, browsers) as sockets:
            states = in_step(sockets)
            for state in states.values():
                assert state["deal_over"] and state["deal_number"] == 1
                assert state["ready"] == [0, 1] and state["ready_waiting"] == [2]
            sockets[2].send_json({"type": "next_deal"})  # Vera's READY deals at once
            for ws in sockets.values():
                dealt = _read_until(ws, lambda m: not m["deal_over"])
                assert dealt["deal_number"] == 2 and dealt["ready"] == []


def test_a_ready_kept_for_an_earlier_deal_is_not_carried_to_the_next(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    with app_on(db) as first:
        game, browsers = seated(first, ["friend", "friend"], ["Boris", "Vera"], seed=30)
        with open_sockets(game, browsers) as sockets:
            _play_deal_out(sockets, in_step(sockets), _six_nobody_whists)
            for seat in (0, 1, 2):  # all ready: deal 2 is dealt
                sockets[seat].send_json({"type": "next_deal"})
            states = {seat: _read_until(ws, lambda m: m["deal_number"] == 2
                                        and not m["deal_over"])
                      for seat, ws in sockets.items()}
            _play_deal_out(sockets, states, _six_nobody_whists)
    with app_on(db) as second:
        for browser in browsers:
            browser.client = second
        with browsers[0].socket(game) as ws:
            state = receive_json(ws)
            assert state["deal_over"] and state["deal_number"] == 2
            assert state["ready"] == [] and 0 in state["ready_waiting"]
