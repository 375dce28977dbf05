"""A table for friends speaks of each friend as he asked (issue 47, "Words"): the form of
address chosen in the name form (or guessed from the name) is kept in the party, sent in
every state frame beside the names, and the Russian deal summaries agree with it; a bad
value is refused in the player's language; a table saved before the choice still opens."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from test_friends import Browser, code_of, create

from preferans.bids import Bid
from preferans.outcome import DealOutcome
from preferans.server.table.party import Party


def _table(client: TestClient, friends: list[tuple[str, str | None]],
           creator: tuple[str, str | None] = ("Anna", None)) -> tuple[str, Browser]:
    """A started table: the creator at seat 0, then each friend (name, chosen form), an Easy
    computer in a seat left over."""
    anna = Browser(client)
    extra = {"gender": creator[1]} if creator[1] else {}
    seats = ["friend"] * len(friends) + ["easy"] * (2 - len(friends))
    created = create(anna, seats, seed=7, name=creator[0], **extra)
    for seat, (name, gender) in enumerate(friends, start=1):
        body = {"code": code_of(created), "seat": seat, "name": name}
        if gender is not None:
            body["gender"] = gender
        response = Browser(client).post(f"/api/friends/{created['id']}/join", body)
        assert response.status_code == 200, response.text
    assert anna.post(f"/api/friends/{created['id']}/start", {}).status_code == 200
    return created["id"], anna


def _summaries(client: TestClient, game: str, outcome: DealOutcome) -> tuple[str, str, dict]:
    table = client.app.state.tables.get(game)  # type: ignore[attr-defined]
    table.game.sheet.record(outcome)
    payload = table.state(None, seat=0)
    payload["last_entry"] = table.sheet_json()["deals"][-1]
    russian = json.loads(table.encode_state(payload, "ru"))
    english = json.loads(table.encode_state(payload, "en"))
    assert russian["observation"]["sheet"]["deals"][-1]["summary"] == \
        russian["last_entry"]["summary"]
    return russian["last_entry"]["summary"], english["last_entry"]["summary"], russian


def test_a_womans_failed_misere_and_a_mans_whists_agree_in_russian(client: TestClient) -> None:
    game, _ = _table(client, [("Вера", "f"), ("Никита", None)], creator=("Boris", None))
    # Вера (seat 1) fails a misère taking two tricks
    ru, en, frame = _summaries(client, game, DealOutcome(
        "misere", 0, 3, 1, Bid.parse("MISERE"), (), (), None, None, (4, 2, 4)))
    assert ru.startswith("Вера поймалась на мизере"), ru
    assert en.startswith("Вера failed misère"), en
    assert frame["names"] == ["Boris", "Вера", "Никита"]
    assert frame["genders"] == ["m", "f", "m"]


def test_a_latin_name_and_a_choice_against_the_guess(client: TestClient) -> None:
    # Anna made 7♠ (her name's guess: «сыграла»); Женя chose «она», Nikola «он»
    game, _ = _table(client, [("Женя", "f"), ("Nikola", "m")], creator=("Anna", None))
    ru, _, frame = _summaries(client, game, DealOutcome(
        "contract", 2, 3, 0, Bid.parse("7S"), ("WHIST", "PASS"), (1,), None, True,
        (7, 3, 0)))
    assert ru.startswith("Anna сыграла 7♠"), ru
    assert "Женя записала" in ru, ru
    assert frame["genders"] == ["f", "f", "m"]


def test_the_creator_s_choice_is_kept_and_a_bad_one_refused(client: TestClient) -> None:
    game, _ = _table(client, [("Oleg", None)], creator=("Вера", "m"))
    ru, _, frame = _summaries(client, game, DealOutcome(
        "misere", 1, 3, 0, Bid.parse("MISERE"), (), (), None, None, (1, 4, 5)))
    assert ru.startswith("Вера поймался на мизере"), ru  # he chose «он»
    assert frame["names"][:2] == ["Вера", "Oleg"] and frame["genders"][:2] == ["m", "m"]
    anna = Browser(client, lang="ru")
    response = anna.post("/api/friends", {"name": "Вера", "gender": "x", "seats": ["friend"],
                                          "rules": "sochi"})
    assert response.status_code == 422


def test_a_table_saved_before_the_choice_opens_and_guesses(client: TestClient) -> None:
    game, anna = _table(client, [("Вера", None), ("Boris", None)], creator=("Anna", None))
    store = client.app.state.store  # type: ignore[attr-defined]
    saved = store.get(game)
    old = dict(saved.friends)
    old["seats"] = [{k: v for k, v in s.items() if k != "gender"} for s in old["seats"]]
    party = Party.from_json(old)
    assert all(place.gender is None for place in party.places)
    assert party.genders(("You", "Misha", "Lena")) == ["f", "f", "m"]
    with anna.socket(game) as ws:
        frame = ws.receive_json()
        while frame.get("type") != "state":
            frame = ws.receive_json()
    assert frame["genders"] == ["f", "f", "m"]


def test_a_seated_friend_changes_his_form_of_address_and_every_page_follows(
        client: TestClient) -> None:
    """Вера took her seat as «он» by mistake; she changes it at the table: every socket gets
    a state at once with her new form, and the Russian sentences about her agree."""
    anna = Browser(client, lang="ru")
    created = create(anna, ["friend", "easy"], seed=7, name="Boris")
    game = created["id"]
    vera = Browser(client, lang="ru")
    assert vera.post(f"/api/friends/{game}/join", {
        "code": code_of(created), "seat": 1, "name": "Вера", "gender": "m"}).status_code == 200
    assert vera.get(f"/api/friends/{game}").json()["seats"][1]["gender"] == "m"
    assert anna.post(f"/api/friends/{game}/start", {}).status_code == 200
    ru, _, frame = _summaries(client, game, DealOutcome(
        "misere", 0, 3, 1, Bid.parse("MISERE"), (), (), None, None, (4, 2, 4)))
    assert ru.startswith("Вера поймался на мизере") and frame["genders"][1] == "m", ru
    with anna.socket(game) as wa, vera.socket(game) as wv:
        for ws in (wa, wv):
            first = ws.receive_json()
            while first.get("type") != "state":
                first = ws.receive_json()
            assert first["genders"][1] == "m"
        answer = vera.post(f"/api/friends/{game}/address", {"gender": "f"})
        assert answer.status_code == 200 and answer.json() == {"seat": 1, "gender": "f"}
        for ws in (wa, wv):  # every page at once, the Russian sheet said anew
            told = ws.receive_json()
            while told.get("type") != "state" or told["genders"][1] != "f":
                told = ws.receive_json()
            last = told["observation"]["sheet"]["deals"][-1]["summary"]
            assert last.startswith("Вера поймалась на мизере"), last
    ru, _, frame = _summaries(client, game, DealOutcome(
        "misere", 0, 3, 1, Bid.parse("MISERE"), (), (), None, None, (4, 2, 4)))
    assert ru.startswith("Вера поймалась на мизере"), ru
    assert Party.from_json(client.app.state.store.get(game).friends).places[1].gender == "f"
    # only a seat's holder changes it, only to «он» or «она»
    assert Browser(client).post(f"/api/friends/{game}/address",
                                {"gender": "f"}).status_code == 403
    assert vera.post(f"/api/friends/{game}/address", {"gender": "x"}).status_code == 422
