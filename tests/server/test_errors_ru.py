"""Refusals in the reader's language (issue 17): a bad house rule, a malformed request body,
a record whose rules are refused and the table's protocol errors, said in Russian to a
Russian reader and in the same English as before to an English one."""

from __future__ import annotations

import json
import re

from fastapi.testclient import TestClient
from server_helpers import new_game

from preferans.server.lang.house_rules import option_title

RU = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}
JSON = {"Content-Type": "application/json"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]{4,}")


def create(client: TestClient, body: object, headers: dict[str, str] | None = None):
    return client.post("/api/games", json=body, headers=headers or {})


def test_a_bad_house_rule_in_russian_names_the_option_and_the_range(client: TestClient):
    body = {"difficulty": "easy", "rules": {"preset": "sochi", "mountain_scale": 500},
            "pool": 10}
    ru = create(client, body, RU)
    assert ru.status_code == 422
    reply = ru.json()
    title = option_title("mountain_scale", "ru")
    assert reply["message"] == (f"правила: «{title}» = 500: вне допустимых пределов, "
                                "можно от 1 до 100")
    assert reply["detail"] == reply["message"]
    assert reply["code"] == "opt_range" and reply["params"]["option"] == "mountain_scale"
    assert (reply["params"]["low"], reply["params"]["high"]) == (1, 100)
    en = create(client, body).json()
    assert en["detail"] == "rules: option mountain_scale=500 is out of range: 1 to 100"
    assert client.get("/api/games/current").status_code == 404


def test_clashing_house_rules_in_russian(client: TestClient):
    body = {"rules": {"preset": "sochi", "allpass_dealer_zero": True}, "players": 3}
    message = create(client, body, RU).json()["message"]
    assert message.startswith("правила: «" + option_title("allpass_dealer_zero", "ru"))
    assert "вчетвером" in message and "игроков 3" in message, message
    assert not re.search(r"\b(needs|players|option)\b", message), message


def test_a_web_table_refusal_in_russian(client: TestClient):
    message = create(client, {"rules": "sochi", "players": 2}, RU).json()["message"]
    assert message.startswith("правила: игроков 2") and "трое или четверо" in message, message


def test_a_malformed_body_in_russian(client: TestClient):
    cases = [({"difficulty": "godlike"}, "difficulty: можно только 'easy', 'normal', 'hard' "
                                         "или 'crazy'"),
             ({"pool": 15}, "pool: можно только 10, 20 или 30"),
             ({"cheat": True}, "cheat: такого поля в запросе быть не может"),
             ({"seed": -1}, "seed: не меньше 0"),
             ({"seed": "x"}, "seed: нужно целое число"),
             ({"hints": "maybe"}, "hints: нужно true или false"),
             ([1, 2], "запрос: нужен JSON-объект {...}")]
    for body, said in cases:
        response = create(client, body, RU)
        assert response.status_code == 422, body
        assert response.json()["detail"] == said, response.json()
        assert response.json()["message"] == said
        assert response.json()["errors"], response.json()  # pydantic's own, for tools
    broken = client.post("/api/games", content=b"{not json",
                         headers={"content-type": "application/json", **RU})
    assert broken.status_code == 422
    assert broken.json()["detail"].startswith("запрос: запрос — не JSON ("), broken.json()
    assert CYRILLIC.search(broken.json()["detail"])


def test_a_malformed_body_in_english(client: TestClient):
    response = create(client, {"pool": 15, "cheat": 1})
    assert response.json()["detail"] == ("pool: must be 10, 20 or 30; cheat: no such field "
                                         "(the request cannot have it)")
    broken = client.post("/api/games", content=b"{not json",
                         headers={"content-type": "application/json"})
    assert "JSON" in broken.json()["detail"]


def test_an_uploaded_record_with_bad_rules_in_russian(client: TestClient):
    record = {"format": "preferans-record/1", "rules": {"preset": "sochi",
                                                         "stalingrad": "yes"}, "deals": []}
    text = json.dumps(record)
    ru = client.post("/api/review", content=text, headers={**RU, **JSON})
    assert ru.status_code == 422
    title = option_title("stalingrad", "ru")
    assert ru.json()["detail"] == (f"запись партии не воспроизводится: правила: «{title}» = "
                                   "'yes': нужно «да» или «нет»"), ru.json()
    en = client.post("/api/review", content=text, headers=JSON)
    assert en.json()["detail"] == ("the record does not replay: rules: option "
                                   "stalingrad='yes' must be true or false")


def test_protocol_errors_in_russian(client: TestClient):
    game = new_game(client, seed=2)
    with client.websocket_connect(f"/ws/{game}", headers=RU) as ws:
        ws.receive_json()
        ws.send_text('{"type": "dance"}')
        reply = ws.receive_json()
        assert reply["code"] == "bad_message"
        assert reply["message"] == ("Неизвестный тип сообщения 'dance' (ожидается action, "
                                    "next_deal, pause, resume или hint).")
        ws.send_text('{"type": "action", "token": "6S", "pad": "' + "x" * 5000 + '"}')
        reply = ws.receive_json()
        assert reply["code"] == "too_large"
        assert reply["message"].startswith("Сообщение слишком велико") and "4096" in reply[
            "message"]
        ws.send_bytes(b"{}")
        reply = ws.receive_json()
        assert reply["code"] == "bad_message" and "двоичные" in reply["message"]
        ws.send_text("{not json")
        reply = ws.receive_json()
        assert reply["code"] == "bad_message" and reply["message"].startswith(
            "Сообщение — не JSON")
        ws.send_text('{"type": "action"}')
        reply = ws.receive_json()
        assert "token" in reply["message"] and CYRILLIC.search(reply["message"])


def test_an_unreadable_upload_and_a_bad_query_in_russian(client: TestClient):
    binary = client.post("/api/review", content=b"\xff\xfe\x00", headers={**RU, **JSON})
    assert binary.status_code == 422 and binary.json()["detail"] == "файл — не текст в UTF-8"
    broken = client.post("/api/review", content=b"[1, 2", headers={**RU, **JSON})
    assert broken.json()["detail"].startswith("файл — не запись партии в JSON: ")
    query = client.get("/api/games/abc/analysis?deal=x", headers=RU)
    assert query.status_code == 422 and query.json()["detail"] == "deal: нужно целое число"
