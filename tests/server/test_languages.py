"""The pages and the server's messages in the reader's language (issue 17): ``?lang=`` (kept
in the ``lang`` cookie) before the cookie before ``Accept-Language``; every page in Russian
has ``<html lang="ru">``, the RU / EN switch keeping the page, and Russian text; the JSON
errors and the table's socket messages speak the language of their request."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game, read_until_settled

from preferans.i18n import COOKIE_NAME, render_reason
from preferans.i18n.reasons import Reason
from preferans.server.lang.language import say

RU = {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}
JSON = {"Content-Type": "application/json"}
CYRILLIC = re.compile(r"[А-Яа-яЁё]{4,}")
HUMAN_FIRST = 2  # seed 2: the human speaks first


def html_lang(html: str) -> str:
    match = re.search(r'<html lang="(\w+)">', html)
    assert match, html[:200]
    return match.group(1)


def visible(html: str) -> str:
    """The page's text outside scripts, styles and tags (roughly what a reader sees)."""
    html = re.sub(r"<(script|style|noscript)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<title>.*?</title>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def english_words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z]{2,}", text)) - {"RU", "EN"}


def test_every_page_in_russian(client: TestClient) -> None:
    game = new_game(client)
    pages = {"/": "ИГРАТЬ", "/stats": "Средний итог", "/no/such": "По этому адресу ничего нет",
             f"/table/{game}": "Соединяемся", "/replay": "Повтор"}
    for path, words in pages.items():
        response = client.get(path, headers=RU)
        assert response.status_code in (200, 404), path
        html = response.text
        assert html_lang(html) == "ru", path
        assert 'id="lang-switch"' in html, path
        assert f'href="{path}?lang=en"' in html and f'href="{path}?lang=ru"' in html, path
        assert words in html, path
        assert CYRILLIC.search(visible(html)), path
        if path != "/replay":  # the replay viewer's start page is drawn by its script
            assert not english_words(visible(html)), (path, english_words(visible(html)))
    settings = client.get("/", headers=RU).text
    assert 'href="/guide?lang=ru"' in settings
    for title in ("Сочинка", "Ленинградка", "Жёсткий Питер", "Разбойник, короткий список"):
        assert title in settings
    guide = client.get("/guide", headers=RU)
    assert html_lang(guide.text) == "ru" and "Полный разбор одной раздачи" in guide.text
    assert 'id="lang-switch" href="/guide?lang=en"' in guide.text


def test_the_editor_schema_speaks_russian(client: TestClient) -> None:
    html = client.get("/", headers=RU).text
    schema = re.search(r'<script id="rules-schema" type="application/json">(.*?)</script>',
                       html, re.S)
    assert schema
    import json

    data = json.loads(schema.group(1))
    options = {o["name"]: o for o in data["options"]}
    assert options["stalingrad"]["title"] == "Сталинград"
    assert "шести пик" in options["stalingrad"]["doc"]
    assert options["whist"]["labels"] == ["жлобский", "джентльменский"]
    for option in data["options"]:
        assert CYRILLIC.search(option["title"] + option["doc"]), option["name"]
    for preset in data["presets"]:
        assert CYRILLIC.search(preset["title"]) and CYRILLIC.search(preset["doc"]), preset
    english = client.get("/").text
    assert 'value="sochi"' in english and "Sochi" in english and "Сочинка" not in english


def test_lang_parameter_then_cookie_then_accept_language(client: TestClient) -> None:
    assert html_lang(client.get("/stats").text) == "en"
    assert html_lang(client.get("/stats", headers=RU).text) == "ru"
    assert html_lang(client.get("/stats", headers={"Accept-Language": "de, en;q=0.1"}).text) == "en"
    response = client.get("/stats?lang=ru")
    assert html_lang(response.text) == "ru"
    assert client.cookies.get(COOKIE_NAME) == "ru"
    assert "samesite=lax" in response.headers["set-cookie"].lower()
    assert html_lang(client.get("/").text) == "ru"  # the cookie remembers
    english_browser = {"Accept-Language": "en-GB,en"}
    assert html_lang(client.get("/", headers=english_browser).text) == "ru"  # cookie > browser
    assert html_lang(client.get("/?lang=en", headers=RU).text) == "en"  # ?lang > browser
    assert client.cookies.get(COOKIE_NAME) == "en"
    assert html_lang(client.get("/", headers=RU).text) == "en"  # cookie > browser
    assert html_lang(client.get("/?lang=xx", headers=RU).text) == "en"  # not a language
    client.cookies.clear()
    assert html_lang(client.get("/?lang=xx", headers=RU).text) == "ru"


def test_the_switch_keeps_the_page_and_its_parameters(client: TestClient) -> None:
    html = client.get("/stats?x=1&lang=ru").text
    assert 'href="/stats?x=1&amp;lang=en"' in html
    assert 'aria-current="true">RU<' in html


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_json_errors_speak_the_request_language(client: TestClient, lang: str) -> None:
    headers = {"Accept-Language": lang}
    missing = client.get("/api/games/nosuch/record", headers=headers)
    assert missing.status_code == 404
    assert missing.json()["detail"] == say("error.no_game_short", lang, game="nosuch")
    assert client.get("/api/games/current", headers=headers).json()["detail"] == say(
        "error.no_current", lang)
    bad = client.post("/api/games", json={"rules": {"preset": "sochi", "rogue": "small"}},
                      headers=headers)
    assert bad.status_code == 422 and bad.json()["field"] == "rules"
    assert bad.json()["message"].startswith("правила: " if lang == "ru" else "rules: ")
    if lang == "ru":
        assert "нет" in missing.json()["detail"]


def test_another_browsers_game_in_russian(client: TestClient, db_url: str) -> None:
    game = new_game(client)
    with TestClient(client.app) as other:  # the same server, another browser (no cookie)
        page = other.get(f"/table/{game}", headers=RU)
        assert page.status_code == 403
        assert html_lang(page.text) == "ru" and "Партия другого браузера" in page.text
        record = other.get(f"/api/games/{game}/record", headers=RU)
        assert record.status_code == 403 and "другом браузере" in record.json()["detail"]
        with other.websocket_connect(f"/ws/{game}", headers=RU) as ws:
            refusal = ws.receive_json()
        assert refusal["code"] == "not_yours" and "другом браузере" in refusal["message"]


def test_the_table_socket_speaks_the_language_it_was_opened_in(client: TestClient) -> None:
    game = new_game(client, seed=HUMAN_FIRST)
    client.cookies.set(COOKIE_NAME, "ru")
    with client.websocket_connect(f"/ws/{game}") as ws:
        state = read_until_settled(ws)
        assert state["observation"]["phase"] == "auction"
        ws.send_json({"type": "action", "token": "WHIST"})
        reply = ws.receive_json()
    assert reply["code"] == "illegal" and reply["reason_code"] == "bid_or_pass"
    russian = render_reason(Reason("bid_or_pass"), "ru")
    assert reply["reason"] == russian
    assert reply["message"] == f"Сейчас нельзя «вист»: {russian}."
    client.cookies.set(COOKIE_NAME, "en")
    with client.websocket_connect(f"/ws/{game}") as ws:
        read_until_settled(ws)
        ws.send_json({"type": "action", "token": "WHIST"})
        reply = ws.receive_json()
    assert reply["reason"] == str(Reason("bid_or_pass"))
    assert reply["message"].startswith("WHIST is not allowed now: ")


def test_the_state_names_the_rules_in_the_sockets_language(client: TestClient) -> None:
    game = new_game(client, rules={"preset": "leningrad", "stalingrad": True})
    with client.websocket_connect(f"/ws/{game}", headers=RU) as ws:
        ru = read_until_settled(ws)
    client.cookies.set(COOKIE_NAME, "en")
    with client.websocket_connect(f"/ws/{game}", headers=RU) as ws:
        en = read_until_settled(ws)
    assert (ru["rules_title"], en["rules_title"]) == ("Ленинградка", "Leningrad")
    assert CYRILLIC.search(ru["rules_doc"]) and not CYRILLIC.search(en["rules_doc"])
    [house] = ru["house_rules"]
    assert house["name"] == "stalingrad" and house["title"] == "Сталинград"
    assert "шести пик" in house["doc"] and "6♠" in en["house_rules"][0]["doc"]


def test_the_socket_speaks_the_language_its_page_names(client: TestClient) -> None:
    """The page names its language in the socket's address (issue 35): it wins over the
    handshake's Accept-Language and cookie; a language the game does not speak, or anything
    else sent there, is ignored (the cookie, then Accept-Language decide)."""
    game = new_game(client)
    english = {"Accept-Language": "en-US,en;q=0.9"}
    with client.websocket_connect(f"/ws/{game}?lang=ru", headers=english) as ws:
        ru = read_until_settled(ws)
    assert ru["rules_title"] == "Сочинка" and CYRILLIC.search(ru["rules_doc"])
    client.cookies.set(COOKIE_NAME, "ru")
    with client.websocket_connect(f"/ws/{game}?lang=en", headers=RU) as ws:
        assert read_until_settled(ws)["rules_title"] == "Sochi"
    client.cookies.delete(COOKIE_NAME)
    for hostile in ("xx", "en%00", "%3Cscript%3E", "en'%20OR%201=1x", "e" * 300):
        with client.websocket_connect(f"/ws/{game}?lang={hostile}", headers=RU) as ws:
            assert read_until_settled(ws)["rules_title"] == "Сочинка", hostile
    with client.websocket_connect(f"/ws/{game}?lang=de", headers=english) as ws:
        assert read_until_settled(ws)["rules_title"] == "Sochi"


def test_the_unplayable_cards_reasons_in_russian(client: TestClient) -> None:
    """``why_not`` (each unplayable card's reason) in the socket's language."""
    import random

    from server_helpers import modest_token, send_action

    rng = random.Random(5)
    game = new_game(client, seed=HUMAN_FIRST)
    with client.websocket_connect(f"/ws/{game}", headers=RU) as ws:
        state = read_until_settled(ws)
        for _ in range(200):
            if state["why_not"] or state["deal_over"]:
                break
            send_action(ws, modest_token(state, rng))
            state = read_until_settled(ws)
    if not state["why_not"]:
        pytest.skip("no deal of this seed left a card unplayable")
    for reason in state["why_not"].values():
        assert CYRILLIC.search(reason), reason


def test_damaged_games_and_database_troubles_in_russian(db_url: str) -> None:
    import json

    from test_store_faults import damage

    from preferans.server.app import create_app
    from preferans.server.lang.language import damage_text, store_message
    from preferans.server.store.faults import StoreError

    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        bad_moves = new_game(client, seed=HUMAN_FIRST)
        not_json = new_game(client, seed=HUMAN_FIRST)
        record = client.app.state.store.get(bad_moves).record  # type: ignore[attr-defined]
    record["deals"][0]["actions"] = ["7NT", "XYZ"]
    damage(db_url, bad_moves, "'" + json.dumps(record) + "'")
    damage(db_url, not_json, "'{\"format\": \"preferans-record/1\", \"deals\": [{'")
    with TestClient(create_app(db_url, bot_delay=0, bot_level="random"),
                    cookies=client.cookies) as client:
        page = client.get("/", headers=RU).text
        banner = re.search(r'<section class="damaged".*?</section>', page, re.S)
        assert banner, page
        text = visible(banner.group(0))
        assert "Повреждённые сохранённые партии" in text and "Скачать запись" in text
        assert "запись партии не воспроизводится" in text and "запись партии — не JSON" in text
        table = client.get(f"/table/{bad_moves}", headers=RU)
        assert table.status_code == 409 and "нельзя продолжить" in table.text
        english = client.get("/").text
        assert "does not replay" in english and "not valid JSON" in english
    assert damage_text("its seats is empty; its result is not a JSON list", "ru") == (
        "запись мест пуста; запись итога не того вида")
    trouble = StoreError("/tmp/g.db", "is read-only", "attempt to write a readonly database")
    assert store_message(trouble, "ru") == "база данных сервера доступна только для чтения"
    assert store_message(trouble, "en") == "the server's database is read-only"
    assert "/tmp/g.db" in trouble.message  # where and the database's words: the log's


def test_module_doctests() -> None:
    import doctest

    from preferans.server.lang import house_rules, presets_text
    from preferans.server.lang import language as lang

    for module in (lang, house_rules, presets_text):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_the_rules_and_a_review_in_the_request_language(client: TestClient) -> None:
    import json

    from preferans.guide import worked_deal_record

    rules = client.get("/api/rules", headers=RU).json()
    assert {p["name"]: p["title"] for p in rules["presets"]}["piter-hard"] == "Жёсткий Питер"
    assert client.get("/api/rules").json()["presets"][0]["title"] == "Sochi"
    body = json.dumps(worked_deal_record())
    ru = client.post("/api/review", content=body, headers={**RU, **JSON}).json()
    en = client.post("/api/review", content=body, headers=JSON).json()
    assert CYRILLIC.search(ru["rules_title"]) and not CYRILLIC.search(en["rules_title"])
    assert ru["deals"] == en["deals"]


def test_a_failed_save_is_told_in_the_sockets_language(db_url: str, tmp_path) -> None:
    from server_helpers import human_to_act, receive_json, send_action
    from test_store_faults import make_read_only, make_writable, read_error

    from preferans.server.app import create_app

    with TestClient(create_app(db_url, bot_delay=0, bot_level="random")) as client:
        game = new_game(client, seed=HUMAN_FIRST)
        with client.websocket_connect(f"/ws/{game}", headers=RU) as ws:
            before = receive_json(ws)
            assert human_to_act(before)
            make_read_only(client, db_url)
            send_action(ws, sorted(before["observation"]["legal"])[0])
            error, _ = read_error(ws)
            banner = client.get("/", headers=RU).text
            make_writable(client, db_url)
    assert error["code"] == "save_failed"
    message = error["message"]
    assert message.startswith("Не сохранено: база данных ") and str(tmp_path) not in message
    assert "доступна только для чтения" in message and "» отменён" in message, message
    assert "Партии не сохраняются: база данных" in banner


def test_the_pages_families_are_written_in_russian() -> None:
    """Every Russian entry of the pages' families is Russian words, with the English's
    {fields}; the editor's option titles and the rule sets' names are all there."""
    from babel.messages.pofile import read_po

    from preferans import i18n
    from preferans.rules import option_docs
    from preferans.server.lang.presets_text import PRESET_TEXT

    def entries(lang: str) -> dict[tuple[str, str], object]:
        with i18n.catalogue_path(lang).open("rb") as fh:
            catalog = read_po(fh)
        families = ("page", "preset-title", "preset-line", "option-title")
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m.string
                for m in catalog if m.id and m.context in families}

    ru, en = entries("ru"), entries("en")
    assert set(ru) == set(en)
    for key, text in ru.items():
        forms = text if isinstance(text, tuple) else (text,)
        english = en[key] if isinstance(en[key], tuple) else (en[key],)
        for form in forms:
            assert re.search(r"[А-Яа-яЁё]", form), key
            assert set(re.findall(r"\{(\w+)\}", form)) == set(
                re.findall(r"\{(\w+)\}", english[0])), key
    assert {k for c, k in ru if c == "option-title"} == set(option_docs())
    assert {k for c, k in ru if c == "preset-title"} == set(PRESET_TEXT)
