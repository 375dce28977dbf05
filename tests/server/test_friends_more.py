"""A table for friends, continued: the watch-only link, a server restart's grace time, the
statistics and CONTINUE of each browser's own seat, the two- and four-player tables."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import receive_json
from test_friends import (
    Browser,
    _pass_until_the_stand_in_plays,
    _read_until,
    _read_until_error,
    assert_no_leak,
    code_of,
    create,
    play_whole_deal,
    seated,
)

from preferans.server.table.party import INVITE_BYTES, Party
from preferans.server.table.spectators import SPECTATOR


@contextmanager
def app_on(db_url: str, **options: Any) -> Iterator[TestClient]:
    """A server on ``db_url`` (its lifespan run: a restart is a new one on the same store)."""
    from preferans.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0, bot_level="random", **options)) as client:
        yield client


def watch_code(client: TestClient, game: str) -> str:
    return client.app.state.store.get(game).friends["watch"]


# --- the watch-only link -----------------------------------------------------------------
def test_the_watch_link_is_its_own_code_shown_only_to_the_creator(client: TestClient) -> None:
    anna = Browser(client)
    created = create(anna, ["friend", "easy"], seed=4)
    game = created["id"]
    view = anna.get(f"/api/friends/{game}").json()
    code = view["watch"].rsplit("/", 1)[1]
    assert view["watch"] == f"/watch/{game}/{code}"
    assert len(code) >= 22 and code != code_of(created) and INVITE_BYTES * 8 >= 128
    page = anna.get(f"/lobby/{game}").text
    assert 'id="watch-link"' in page and 'id="new-watch"' in page
    # before the start the watch link opens no table: it says the game has not started
    early = Browser(client, "ru").get(f"/watch/{game}/{code}")
    assert early.status_code == 409 and "ещё не началась" in early.text
    boris = Browser(client)
    assert boris.post(f"/api/friends/{game}/join",
                      {"code": code, "seat": 1, "name": "Boris"}).status_code == 404
    assert boris.post(f"/api/friends/{game}/join",
                      {"code": code_of(created), "seat": 1, "name": "Boris"}).status_code == 200
    # a friend who joined sees neither link; the lobby page has no watch link either
    joined = boris.get(f"/api/friends/{game}").json()
    assert "watch" not in joined and "invite" not in joined
    assert 'id="watch-link"' not in boris.get(f"/lobby/{game}").text
    assert anna.post(f"/api/friends/{game}/start", {}).status_code == 200
    # the creator's state frame carries the watch link; Boris's and a spectator's do not
    with anna.socket(game) as wa, boris.socket(game) as wb, \
            Browser(client).socket(game, watch=code) as watcher:
        assert receive_json(wa)["watch"] == f"/watch/{game}/{code}"
        assert receive_json(wb)["watch"] is None
        public = receive_json(watcher)
        assert public["seat"] is None and public["watch"] is None
        assert code not in str(public) and code_of(created) not in str(public)


def test_the_watch_link_opens_the_spectators_view_never_a_seat(client: TestClient) -> None:
    game, (anna, _boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    code = watch_code(client, game)
    stranger = Browser(client, "ru")
    page = stranger.get(f"/watch/{game}/{code}")
    assert page.status_code == 200 and f'data-watch="{code}"' in page.text
    assert anna.invite not in page.text  # type: ignore[attr-defined]
    # a full table's invite link is sent on to the watch link: the page never holds it
    by_invite = stranger.get(f"/watch/{game}/{anna.invite}")  # type: ignore[attr-defined]
    assert by_invite.url.path == f"/watch/{game}/{code}"
    assert anna.invite not in by_invite.text  # type: ignore[attr-defined]
    # the watch code takes no seat, and with it the socket only watches
    taken = stranger.post(f"/api/friends/{game}/join", {"code": code, "seat": 1, "name": "Vera"})
    assert taken.status_code == 404 and taken.json()["code"] == "stale_invite"
    with stranger.socket(game, watch=code) as ws:
        public = receive_json(ws)
        assert public["seat"] is None and public["observation"]["hand"] == []
        ws.send_json({"type": "action", "token": "PASS"})
        assert _read_until_error(ws)["code"] == "spectator"
    assert stranger.get(f"/api/friends/{game}").status_code == 403
    assert stranger.get(f"/table/{game}").status_code == 403


def test_a_new_watch_link_stops_the_old_one_and_shows_its_watchers_out(
        client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    old = watch_code(client, game)
    # only the creator makes a new one
    refused = boris.post(f"/api/friends/{game}/watch", {})
    assert refused.status_code == 403 and refused.json()["code"] == "creator_only"
    assert watch_code(client, game) == old
    with anna.socket(game) as wa, Browser(client, "ru").socket(game, watch=old) as watcher:
        receive_json(wa)
        receive_json(watcher)
        fresh = anna.post(f"/api/friends/{game}/watch", {}).json()["watch"]
        new = fresh.rsplit("/", 1)[1]
        assert new != old and fresh == f"/watch/{game}/{new}"
        said = _read_until_error(watcher)
        assert said["code"] == "watch_changed" and "новую ссылку" in said["message"]
        # the creator's page gets the new link
        assert _read_until(wa, lambda m: m.get("watch") == fresh)
    with Browser(client).socket(game, watch=old) as again:
        assert receive_json(again)["code"] == "not_yours"
    assert Browser(client).get(f"/watch/{game}/{old}").status_code == 404
    with Browser(client).socket(game, watch=new) as ws:
        assert receive_json(ws)["seat"] is None


def test_a_spectator_reads_the_finished_deals_analysis_with_the_watch_code(
        client: TestClient) -> None:
    _frames, _deal, last = play_whole_deal(client, ["friend", "easy"], ["Boris"], seed=21)
    game = last["game_id"]
    code = watch_code(client, game)
    stranger = Browser(client)
    analysis = f"/api/games/{game}/analysis?deal=1"
    assert stranger.get(analysis).status_code == 403
    assert stranger.get(f"{analysis}&watch={'z' * 22}").status_code == 403
    opened = stranger.get(f"{analysis}&watch={code}")
    assert opened.status_code == 200, opened.text
    [entry] = [d for d in opened.json()["deals"] if d["deal"] == 1]
    assert entry["hands"]  # every hand, now that the deal is over
    # the analysis of the whole game covers the finished deals only
    whole = stranger.get(f"/api/games/{game}/analysis?watch={code}").json()
    assert [d["deal"] for d in whole["deals"]] == [1]
    # nothing else opens with the watch code: the calls review, the record, the replay
    assert stranger.get(f"/api/games/{game}/calls/1?watch={code}").status_code == 403
    assert stranger.get(f"/api/games/{game}/record?watch={code}").status_code == 403
    assert stranger.get(f"/replay/{game}?watch={code}").status_code == 403


def test_a_table_saved_before_watch_links_gets_one_from_its_creator(client: TestClient) -> None:
    party = Party.from_json({"seats": [{"kind": "human", "name": "Anna"}], "invite": "x" * 22})
    assert party.watch == ""
    game, (anna, _boris) = seated(client, ["friend", "easy"], ["Boris"], seed=4)
    store = client.app.state.store

    def forget(seats: dict[str, str], friends: dict[str, Any]) -> None:
        friends.pop("watch")

    store.write_now(store.change_friends, game, forget)
    client.app.state.tables.open.pop(game, None)
    assert anna.get(f"/join/{game}/{anna.invite}").status_code == 200  # type: ignore[attr-defined]
    with anna.socket(game) as wa:
        assert receive_json(wa)["watch"] is None
    fresh = anna.post(f"/api/friends/{game}/watch", {}).json()["watch"]
    assert Browser(client).get(fresh).status_code == 200


# --- a server restart ---------------------------------------------------------------------
def _wait_for(done: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.02)


def test_after_a_restart_an_absent_friends_grace_time_counts_from_the_restore(
        tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    with app_on(db) as first:
        game, (anna, boris) = seated(first, ["friend", "easy"], ["Boris"], seed=4)
        with anna.socket(game) as wa, boris.socket(game) as wb:
            receive_json(wa)
            receive_json(wb)
        # beside it: a game against the computer, a table still in its lobby
        lobby = create(Browser(first), ["friend", "easy"])["id"]
        single = Browser(first).post("/api/games", {"difficulty": "easy"}).json()["id"]
    # the server restarts with a short grace time; Boris never comes back
    with app_on(db, grace_seconds=0.3) as second:
        tables = second.app.state.tables
        _wait_for(lambda: game in tables.open)
        assert lobby not in tables.open and single not in tables.open
        time.sleep(0.5)  # the grace time passes before anybody returns
        assert tables.open[game].standin.away == {0, 1}
        anna.client = second
        with anna.socket(game) as wa:
            first_frame = receive_json(wa)
            # Anna is back at once, and Boris's seat is the stand-in's from the first frame
            assert first_frame["seat"] == 0 and first_frame["stand_in"] == [1]
            # she never waits on Boris: the stand-in plays his seat
            _pass_until_the_stand_in_plays(wa, first_frame)
    # the grace time of a restart with nobody back yet has not run out: nobody is away
    with app_on(db, grace_seconds=30) as third:
        tables = third.app.state.tables
        _wait_for(lambda: game in tables.open)
        assert tables.open[game].standin.away == set()
        assert set(tables.open[game].standin._graces) == {0, 1}


def test_the_restore_at_the_start_is_bounded(tmp_path: Path) -> None:
    from preferans.server.table.comeback import restore_friends_tables

    db = f"sqlite:///{tmp_path / 'games.db'}"
    with app_on(db) as first:
        games = [seated(first, ["friend", "easy"], ["Boris"], seed=4 + k)[0] for k in range(3)]
    with app_on(db, grace_seconds=30) as second:
        tables = second.app.state.tables
        _wait_for(lambda: all(g in tables.open for g in games))
        for game in games:
            tables.open.pop(game)
        restored = second.portal.call(lambda: restore_friends_tables(tables, most=2))
        assert len(restored) == 2 and set(restored) < set(games)
        assert second.portal.call(lambda: restore_friends_tables(tables, within=-1.0)) == []


# --- two and four players -------------------------------------------------------------
def test_two_humans_play_the_two_player_game_with_its_dummy(client: TestClient) -> None:
    frames, deal, _last = play_whole_deal(client, ["friend"], ["Boris"], seed=21,
                                         rules="two-player")
    assert {seat for seat, _ in frames} == {0, 1, SPECTATOR}
    assert assert_no_leak(frames, deal) > 5
    table = next(iter(client.app.state.tables.open.values()))
    assert table.names == ["Anna", "Boris"] and table.dummy == 2
    assert table.humans == frozenset((0, 1))


def test_two_humans_and_two_computers_play_the_four_player_game(client: TestClient) -> None:
    frames, deal, _last = play_whole_deal(client, ["easy", "friend", "easy"], ["Boris"],
                                         seed=22, players=4)
    assert {seat for seat, _ in frames} == {0, 2, SPECTATOR}
    assert assert_no_leak(frames, deal) > 5
    first = {seat: __import__("json").loads(text) for seat, text in reversed(frames)}
    assert first[2]["seat"] == 2 and first[2]["names"][2] == "Boris"


@pytest.mark.parametrize("rules", ["rogue-small"])
def test_two_humans_play_the_rogue(client: TestClient, rules: str) -> None:
    frames, deal, _ = play_whole_deal(client, ["friend"], ["Boris"], seed=5, rules=rules)
    assert assert_no_leak(frames, deal) > 5


# --- the statistics and CONTINUE of each browser's own seat --------------------------------
def test_a_friends_tables_summary_has_each_human_seats_own_figures(client: TestClient) -> None:
    _frames, _deal, last = play_whole_deal(client, ["friend", "friend"], ["Boris", "Vera"],
                                           seed=21)
    game = last["game_id"]
    summary = client.app.state.store.get(game).summary
    sheet = last["observation"]["sheet"]
    assert set(summary["by_seat"]) == {"1", "2"}
    for seat in (1, 2):
        assert summary["by_seat"][str(seat)]["deals"] == 1
        assert summary["by_seat"][str(seat)]["balance"] == sheet["balance"][seat]
    assert summary["balance"] == sheet["balance"][0]


def test_statistics_replays_and_continue_list_only_the_browsers_own_seats(
        client: TestClient) -> None:
    game, (anna, boris) = seated(client, ["friend", "easy"], ["Boris"], seed=21)
    stranger = Browser(client)
    stranger_game = stranger.post("/api/games", {"difficulty": "hard"}).json()["id"]
    # the friends' table stops by agreement after its first deal: both have a result
    with anna.socket(game) as wa, boris.socket(game) as wb:
        sockets = {0: wa, 1: wb}
        states = {0: receive_json(wa), 1: receive_json(wb)}
        # the computer may move before Boris's socket opens: Anna's is read up to his state
        while states[0]["seq"] < states[1]["seq"]:
            states[0] = _read_until(wa, lambda m: True)
        for _ in range(400):
            if states[0]["deal_over"]:
                break
            actor = states[0]["observation"]["to_act"]
            if actor in sockets and states[0]["thinking"] is None:
                legal = sorted(states[actor]["observation"]["legal"])
                # Anna bids (the lowest) and whists, Boris passes: their results differ
                bids = sorted((t for t in legal if t[0].isdigit()),
                              key=lambda t: int(re.match(r"\d+", t).group()))
                if actor == 0 and bids:
                    token = bids[0]
                elif "WHIST" in legal:
                    token = "WHIST" if actor == 0 else "PASS"
                else:
                    token = "PASS" if "PASS" in legal else legal[0]
                sockets[actor].send_json({"type": "action", "token": token})
            states = {seat: _read_until(ws, lambda m: True) for seat, ws in sockets.items()}
        wa.send_json({"type": "finish"})
        wb.send_json({"type": "finish"})
        over = _read_until(wa, lambda m: m["game_over"])
    result = over["result"]
    for seat, who, other_names in ((0, anna, ["Boris", "Lena"]), (1, boris, ["Anna", "Lena"])):
        stats = who.get("/api/stats").json()
        row = stats["stats"]["friends"]
        assert (row["games"], row["finished"]) == (1, 1)
        assert row["average_result"] == round(result[seat], 2)
        assert row["deals"] == 1
        assert sum(stats["stats"][level]["games"] for level in ("easy", "hard")) == 0
        [listed] = stats["friends_tables"]
        assert listed["id"] == game and listed["seat"] == seat and listed["status"] == "finished"
        assert listed["others"] == other_names and listed["url"] == f"/replay/{game}"
        assert listed["balance"] == round(result[seat], 1)
        page = who.get("/stats").text
        assert 'id="friends-tables"' in page and f'data-game="{game}"' in page
        assert 'data-difficulty="friends"' in page
        # the replays list has the table for each of its seats
        assert [g["id"] for g in who.get("/api/replays").json()["games"]] == [game]
        assert who.get(f"/api/games/{game}/record").status_code == 200
    assert result[0] != result[1]  # each seat's own figures, not seat 0's for both
    # the game is over: its invite seats nobody, and says why in the player's language
    late = Browser(client, "ru").post(f"/api/friends/{game}/join", {
        "code": anna.invite, "seat": 1, "name": "Vera"})  # type: ignore[attr-defined]
    assert late.status_code == 409 and late.json()["code"] == "closed"
    assert "окончена" in late.json()["message"]
    # the stranger's statistics have his own game only, never the friends' table
    theirs = stranger.get("/api/stats").json()
    assert theirs["friends_tables"] == [] and theirs["stats"]["friends"]["games"] == 0
    assert theirs["stats"]["hard"]["games"] == 1
    assert 'id="friends-tables"' not in stranger.get("/stats").text
    assert stranger.get("/api/replays").json()["games"] == []
    assert stranger.get("/api/games/current").json()["id"] == stranger_game
    # a table still being played: CONTINUE and the list offer it to its seats only
    game2, (_anna2, boris2) = seated(client, ["friend", "easy"], ["Vera"], seed=5)
    assert boris2.get("/api/games/current").json()["id"] == game2
    listed = boris2.get("/api/stats").json()["friends_tables"]
    assert [(t["id"], t["status"], t["url"]) for t in listed] == [
        (game2, "playing", f"/table/{game2}")]
    assert stranger.get("/api/games/current").json()["id"] == stranger_game
    settings = boris2.get("/").text
    assert f'href="/table/{game2}"' in settings and "Anna, Vera" in settings


def test_of_browser_counts_each_game_from_the_browsers_own_seat() -> None:
    from datetime import UTC, datetime

    from preferans.server.store.stats import of_browser, statistics

    when = datetime(2026, 12, 7, tzinfo=UTC)
    mine, theirs = "a" * 64, "b" * 64

    def row(game_id: str, difficulty: str, seats: Any, summary: Any, status: str = "finished",
            names: Any = None) -> dict[str, Any]:
        return {"id": game_id, "updated": when, "status": status, "difficulty": difficulty,
                "names": names or ["You", "Misha", "Lena"], "result": None, "summary": summary,
                "seats": seats}

    figures = {"deals": 3, "declared": 1, "made": 1, "whists_written": 2, "balance": 5.0,
               "finished": True, "won": True}
    others = {**figures, "balance": -7.5, "won": False, "made": 0}
    games = [
        row("solo", "easy", {"0": mine}, figures),
        row("stranger", "easy", {"0": theirs}, figures),
        row("legacy", "hard", None, figures),  # before seat tokens: nobody holds it
        row("seat1", "friends", {"0": theirs, "1": mine},
            {**figures, "hints_used": 2, "by_seat": {"1": others}},
            names=["Anna", "Me", "Misha"]),
        row("notmine", "friends", {"0": theirs, "1": "c" * 64}, figures),
        row("old", "friends", {"0": theirs, "2": mine}, figures, names=["Anna", "Misha", "Me"]),
        row("lobby", "friends", {"0": mine}, None, status="lobby", names=["Me", "Misha", "Lena"]),
    ]
    pairs, tables = of_browser(games, mine)
    assert [d for d, _ in pairs] == ["easy", "hard", "friends", "friends"]
    stats = statistics(pairs)
    assert stats["easy"]["games"] == 1 and stats["hard"]["games"] == 1
    friends = stats["friends"]
    # seat 1's own figures (not seat 0's); the old row has none for seat 2: a game, no figures
    assert (friends["games"], friends["finished"], friends["wins"]) == (2, 1, 0)
    assert friends["average_result"] == -7.5 and friends["contracts_made_pct"] == 0.0
    assert friends["hinted"] == 1
    assert [(t["id"], t["seat"], t["others"], t["url"]) for t in tables] == [
        ("lobby", 0, ["Misha", "Lena"], "/lobby/lobby"),
        ("old", 2, ["Anna", "Misha"], "/replay/old"),
        ("seat1", 1, ["Anna", "Misha"], "/replay/seat1"),
    ]
    assert tables[2]["balance"] == -7.5 and tables[2]["won"] is False
    assert tables[1]["balance"] is None  # no figures for that seat
    # a browser with no token holds nothing but the games nobody holds
    pairs, tables = of_browser(games, None)
    assert [g for g, _ in pairs] == ["hard"] and tables == []
