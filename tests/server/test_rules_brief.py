"""The rules in short for the table's "?" (issue 35) and the guide's opening line: every
figure from the table's own rules, in the socket's or the page's language; the guide's
query (``?preset=…&pool=…``) is the network's and is checked."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from server_helpers import new_game, read_until_settled

from preferans.guide.profile import chosen_rules, profile
from preferans.i18n import count
from preferans.rules import Rules
from preferans.server.lang.rules_brief import rules_brief

RU = {"Accept-Language": "ru-RU,ru;q=0.9"}


@pytest.mark.parametrize("preset", ["sochi", "leningrad", "rostov", "classical-1971", "finn"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_brief_tells_the_tables_own_figures(preset: str, lang: str) -> None:
    rules = Rules.preset(preset)
    lines = rules_brief(rules, lang)
    assert len(lines) == 6 and all(lines) and not any("{" in line for line in lines), lines
    cards, bidding, whisting, values, allpass, sheet = lines
    assert "A K Q J 10 9 8 7" in cards or "Т К Д В 10 9 8 7" in cards
    below = f"{rules.misere_outbid_by - 1}"
    assert re.search(rf"{below}\s?(NT|БК) \S+ {rules.misere_outbid_by}♠", bidding), bidding
    assert count("trick", rules.quota(6), lang) in whisting, whisting
    for level in (6, 7, 8, 9, 10):
        assert f"{level} — {rules.contract_value(level)}" in values, values
    assert f"— {rules.misere_value}." in values
    if len(rules.allpass_progression) > 1:
        assert ", ".join(f"×{s}" for s in rules.allpass_progression) in allpass, allpass
    assert str(rules.pool) in sheet
    if lang == "ru":
        assert not re.search(r"[A-Za-z]{3,}", " ".join(lines)), lines


def test_the_brief_follows_the_house_rules() -> None:
    house = Rules.preset("sochi", auction="seniority", tens_whisted=False, mountain_scale=2,
                         allpass_talon="closed", players=4, pool=30)
    cards, bidding, whisting, values, allpass, sheet = rules_brief(house, "en")
    assert "dealer sits each deal out" in cards
    assert "“here”" in bidding
    assert "A 10 is not whisted" in whisting and "9 or 10" not in whisting
    assert "Mountain entries are multiplied by 2" in values
    assert "the talon stays face down" in allpass
    assert "reaches 30" in sheet


def test_the_state_carries_the_brief_in_the_sockets_language(client: TestClient) -> None:
    game = new_game(client, rules={"preset": "leningrad"})
    with client.websocket_connect(f"/ws/{game}?lang=ru", headers=RU) as ws:
        state = read_until_settled(ws)
    assert state["rules_brief"] == rules_brief(Rules.preset("leningrad", pool=10), "ru")
    assert "×1, ×2, ×4" in state["rules_brief"][4]


def test_the_guide_opens_with_its_profile_and_the_tables_differences(
        client: TestClient) -> None:
    page = client.get("/guide?lang=en&preset=leningrad&pool=10").text
    line = re.search(r'<p class="profile" id="profile" data-chosen="true">(.*?)</p>', page,
                     re.S)
    assert line, page[:2000]
    text = " ".join(line.group(1).split())
    assert "This guide teaches one way of playing" in text and "Pulya 20" in text
    assert "Your table plays <strong>Leningrad</strong>, pulya 10" in text
    assert "pool: 10 (this guide: 20)" in text and "mountain scale: 2 (this guide: 1)" in text
    assert 'href="/guide?lang=ru&amp;preset=leningrad&amp;pool=10"' in page  # the switch keeps it
    russian = client.get("/guide?lang=ru&preset=rostov&pool=30").text
    assert "За вашим столом играют <strong>Ростов</strong>" in russian
    assert "счёт распасов: вистами (в этих правилах: в гору)" in russian
    plain = client.get("/guide?lang=en").text
    assert 'data-chosen="false"' in plain
    assert "The game's default is <strong>Sochi</strong>" in plain


@pytest.mark.parametrize("query", ["preset=%3Cscript%3Ealert(1)%3C/script%3E", "preset=guide",
                                   "preset=sochi&pool=99999999", "preset=" + "s" * 500,
                                   "preset=sochi&pool=-5", "pool=10"])
def test_the_guides_query_is_checked(client: TestClient, query: str) -> None:
    response = client.get(f"/guide?lang=en&{query}")
    assert response.status_code == 200
    assert "<script>alert" not in response.text and "s" * 100 not in response.text
    chosen = 'data-chosen="true"' in response.text
    assert chosen == query.startswith("preset=sochi&"), query
    if chosen:
        assert "pulya 20" in " ".join(response.text.split())  # a pool the rules refuse: kept


def test_chosen_rules_accepts_only_the_games_presets_and_pools() -> None:
    assert chosen_rules("Leningrad ", "30") == Rules.preset("leningrad", pool=30)
    assert chosen_rules("guide", "10") is None and chosen_rules(None, None) is None
    assert profile(chosen_rules("sochi", "20"), "en")["differences"][0].startswith("auction")
