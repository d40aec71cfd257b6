"""The hand calculator: every logged-in user scores a hand side by side under the
Portaria's rule sets and the classical books; the command-line scorer gives the same figures."""
from __future__ import annotations

import html as html_module
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils.http import urlencode

from casino.calculator.forms import form_data
from casino.calculator.scoring import AMPLE_CAPITAL, portaria_record, score_hand
from casino.calculator.views import EXAMPLE
from casino.pit.roles import COUNTER, DEALER, INSPECTOR, MANAGER, SUPERVISOR
from regulation import books
from regulation.rules import PORTARIA_135_91_M, RULE_SETS
from tests.builders.pit import user
from tests.builders.words import Reader, wrong_words

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

# South wins on West's discard: a pong of red dragons exposed, the rest concealed.
DRAGON_HAND = {
    "round_wind": "E", "banker": "E", "winner": "S", "winning_from": "discard", "discarder": "W",
    "winning_tile": "9p", "only_possible_tile": False,
    "players": {"S": {"concealed": "234m567m345s9p", "flowers": "",
                      "melds": [{"kind": "pong", "tiles": "777z", "exposed": True}]}},
}


def url(hand: dict) -> str:
    return "/calculator/?" + urlencode(form_data(hand), doseq=True)


def column(columns, code: str, variant: str | None = None):
    return next(c for c in columns if c.code == code and c.variant == variant)


@pytest.mark.parametrize("role", [DEALER, SUPERVISOR, INSPECTOR, MANAGER, COUNTER, None])
def test_every_logged_in_user_reaches_the_calculator_and_its_nav_link(client, role):
    client.force_login(user("someone", role))
    response = client.get("/calculator/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="hand-form"' in html and 'href="/calculator/"' in html
    assert "Casino tables stay under the Portaria" in html
    assert 'id="results"' not in html  # nothing is scored before a hand is sent


def test_an_anonymous_visitor_is_sent_to_log_in(client):
    response = client.get("/calculator/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_dragon_pong_won_on_a_discard_scores_one_fan_under_the_portaria(client):
    client.force_login(user("dealer", DEALER))
    response = client.get(url(DRAGON_HAND))
    assert response.status_code == 200
    columns = response.context["columns"]
    conventional = column(columns, PORTARIA_135_91_M.code, "conventional")
    assert conventional.valid
    assert conventional.output["items"] == [{"code": "dragon_set", "fan": 1, "article": "6(a)(2)"}]
    # Art. 7 at the lowest tier 25/50, 1 fán: a share of 50, the banker pays double; Art. 8 takes 10.
    assert conventional.output["payments"] == [{"from": "W", "to": "S", "amount": 50},
                                               {"from": "N", "to": "S", "amount": 50},
                                               {"from": "E", "to": "S", "amount": 100}]
    assert conventional.output["commission"] == 10
    assert [(p.payer, p.payee, p.amount) for p in conventional.payments] == [
        ("West", "South", 50), ("North", "South", 50), ("East (banker)", "South", 100)]
    html = response.content.decode()
    assert "Dragon set" in html and "Art. 6(a)(2)" in html


def test_a_fourteen_tile_hand_gets_the_simplified_games_own_refusal(client):
    client.force_login(user("dealer", DEALER))
    columns = client.get(url(DRAGON_HAND)).context["columns"]
    simplified = column(columns, PORTARIA_135_91_M.code, "simplified")
    assert not simplified.valid and not simplified.payments
    assert {e["code"] for e in simplified.output["errors"]} >= {"simplified_claim", "tile_not_in_variant"}
    assert any(error.startswith("Art. 2(b): the simplified game has only the suits") for error in simplified.errors)


def test_every_portaria_rule_set_is_shown_in_both_variants(client):
    client.force_login(user("inspector", INSPECTOR))
    columns = client.get(url(DRAGON_HAND)).context["columns"]
    assert [(c.code, c.variant) for c in columns if c.kind == "portaria"] == [
        (rules.code, variant) for variant in ("conventional", "simplified") for rules in RULE_SETS]


def test_the_portaria_record_is_at_the_lowest_tier_with_capital_no_payment_reaches():
    record = portaria_record({**DRAGON_HAND, "winning_from": "robbing_kong"}, rules=PORTARIA_135_91_M,
                             variant="simplified")
    assert record["stake"] == 100 and record["variant"] == "simplified"
    assert record["capital"] == dict.fromkeys("ESWN", AMPLE_CAPITAL)
    assert record["conditions"] == ["robbing_kong"] and record["discarder"] == "W"
    drawn = portaria_record({**DRAGON_HAND, "winning_from": "kong_replacement"}, rules=PORTARIA_135_91_M,
                            variant="conventional")
    assert drawn["discarder"] is None and drawn["conditions"] == ["kong_replacement"]


@pytest.mark.parametrize("change, field, message", [
    ({"S_concealed": "234m567m345s9x"}, "S_concealed", "'x' is not part of the tile notation"),
    ({"winning_tile": ""}, "winning_tile", "Enter the winning tile"),
    ({"winning_tile": "9p9p"}, "winning_tile", "The winning tile is one tile"),
    ({"discarder": ""}, "discarder", "Choose who discarded the winning tile."),
    ({"discarder": "S"}, "discarder", "The winner cannot win on his own discard"),
    ({"S_meld_tiles_0": "77z"}, "S_meld_tiles_0", "this meld has 2"),
    ({"S_meld_kind_0": ""}, "S_meld_kind_0", "Choose what this meld is"),
    ({"S_flowers": ["f1"], "E_flowers": ["f1"]}, "S_flowers", "Flower 1 is already with East"),
    ({"winner": "N"}, "N_concealed", "Enter the winner's tiles."),
    ({"winner": "X"}, "winner", "Select a valid choice"),
])
def test_a_mistake_is_shown_beside_its_field_and_nothing_is_scored(client, change, field, message):
    client.force_login(user("dealer", DEALER))
    data = {**form_data(DRAGON_HAND), **change}
    response = client.get("/calculator/?" + urlencode(data, doseq=True))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert field in errors and message in " ".join(errors[field])
    assert response.context["columns"] is None
    assert f'id="id_{field}_error"' in response.content.decode() or field == "S_flowers"


def test_strange_query_strings_never_break_the_page(client):
    client.force_login(user("dealer", DEALER))
    for query in ("winner=", "winner=S&winning_from=nonsense", "winner=S&S_meld_kind_0=kong&S_meld_tiles_0=1234m",
                  "winner=S&winning_tile=1z&S_concealed=" + "1" * 200 + "m"):
        assert client.get("/calculator/?" + query).status_code in (200, 400)


def cli(record: dict, code: str, tmp_path) -> dict:
    path = tmp_path / f"{code}.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "regulation", "score", "--rules", code, str(path)],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("hand", [
    DRAGON_HAND, EXAMPLE, {**EXAMPLE, "winning_from": "kong_replacement", "discarder": None},
    {**DRAGON_HAND, "winning_from": "robbing_kong"}, {**DRAGON_HAND, "winning_from": "last_tile", "discarder": None},
], ids=["dragon pong", "Serralheiro 10(c)", "loose tile after a kong", "robbing a kong", "last tile"])
def test_the_command_line_scorer_and_the_calculator_give_the_same_results(hand, tmp_path):
    """Every column's record, scored by `python -m regulation score --rules <code>`, gives the
    column's output exactly: the same engine, the same figures."""
    columns = score_hand(hand)
    assert len(columns) >= 4
    for each in columns:
        assert cli(each.record, each.code, tmp_path) == json.loads(json.dumps(each.output)), each.anchor


class CalculatorReader(Reader):
    """The text a person reads, leaving out what is cited in a book's own words: a book's title and
    its sections (<cite>), as the other pages leave out the record and codes (<code>)."""

    SKIP = Reader.SKIP | {"cite"}


def read(html: str) -> list[str]:
    reader = CalculatorReader()
    reader.feed(html)
    return reader.texts


FIRST_TURN_HAND = {**DRAGON_HAND, "winning_from": "self_drawn", "discarder": None, "first_turn": True}


@pytest.mark.parametrize("hand", [DRAGON_HAND, EXAMPLE, FIRST_TURN_HAND],
                         ids=["dragon pong", "Serralheiro 10(c)", "Mão Celeste"])
@pytest.mark.parametrize("language", ["pt", "zh-hant"])
def test_the_calculator_speaks_the_users_language(client, language, hand):
    client.force_login(user("dealer", DEALER))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(url(hand)).content.decode()
    texts = read(html)
    assert len(texts) > 40
    assert wrong_words(texts, language) == []


# --- the classical rule books ------------------------------------------------------------------

def test_serralheiro_10c_north_scores_528_and_east_the_banker_pays_1056(client):
    client.force_login(user("inspector", INSPECTOR))
    response = client.get(url(EXAMPLE))
    assert response.status_code == 200
    columns = response.context["columns"]
    assert [c.code for c in columns if c.kind == "book"] == [b.code for b in books.BOOKS]
    serralheiro = column(columns, "serralheiro-2003")
    north = serralheiro.output["players"]["N"]
    # §10(c): 4 + 4 + 32 + 4 + 2 + 20 = 66 points, 3 doubles, 66 × 2³ = 528.
    assert [p["points"] for p in north["points"]] == [4, 4, 32, 4, 2, 20]
    assert (north["points_total"], north["doubles_total"], north["score"]) == (66, 3, 528)
    assert {(p["from"], p["to"], p["amount"]) for p in serralheiro.output["payments"]} == {
        ("S", "N", 528), ("W", "N", 528), ("E", "N", 1056)}
    shown = {(p.payer, p.payee, p.amount) for p in serralheiro.payments}
    assert shown == {("South", "North", 528), ("West", "North", 528), ("East (banker)", "North", 1056)}
    (player,) = serralheiro.players
    assert ("Score", 528) in player.totals and ("Points", 66) in player.totals
    html = response.content.decode()
    card = html.split('id="rules-serralheiro-2003"', 1)[1].split("</article>", 1)[0]
    assert "§10(b)" in card and "1056" in card and "528" in card


def test_every_book_scores_every_players_hand_that_is_entered(client):
    client.force_login(user("dealer", DEALER))
    hand = {**EXAMPLE, "players": {**EXAMPLE["players"],
                                   "E": {"concealed": "555z 222z 345p 678p 9m", "melds": [], "flowers": "f1"}}}
    columns = client.get(url(hand)).context["columns"]
    for each in (c for c in columns if c.kind == "book"):
        assert each.valid, (each.code, each.errors)
        assert set(each.output["players"]) == {"N", "E"}, each.code
        assert sum(each.output["net"].values()) == 0, each.code


def test_a_book_refuses_a_hand_with_a_fifth_tile_in_its_own_words(client):
    client.force_login(user("dealer", DEALER))
    hand = {**EXAMPLE, "players": {**EXAMPLE["players"],
                                   "E": {"concealed": "1111s 2345678m 99p", "melds": [], "flowers": ""}}}
    columns = client.get(url(hand)).context["columns"]
    for each in (c for c in columns if c.kind == "book"):
        assert not each.valid and each.errors and not each.payments, each.code


def test_a_losers_hand_the_books_cannot_read_is_marked_beside_its_field_and_the_portaria_still_scores(client):
    client.force_login(user("dealer", DEALER))
    hand = {**EXAMPLE, "players": {**EXAMPLE["players"], "E": {"concealed": "123p 456p 789p", "melds": [],
                                                               "flowers": ""}}}
    response = client.get(url(hand))
    assert response.status_code == 200
    columns = response.context["columns"]
    assert column(columns, PORTARIA_135_91_M.code, "conventional").valid
    for each in (c for c in columns if c.kind == "book"):
        assert not each.valid and each.field == "E_concealed"
        assert each.errors[0].startswith("East (banker): 9 tiles; with 0 melds a player holds 13 concealed tiles")
    errors = response.context["form"].errors
    assert list(errors) == ["E_concealed"] and errors["E_concealed"][0].startswith("East (banker): 9 tiles")
    assert 'id="id_E_concealed_error"' in response.content.decode()
    assert 'id="form-errors"' not in response.content.decode()


def test_the_example_link_opens_serralheiros_hand_scored(client):
    client.force_login(user("dealer", DEALER))
    page = client.get("/calculator/").content.decode()
    query = html_module.unescape(re.search(r'class="example" href="\?([^"]+)"', page)[1])
    response = client.get("/calculator/?" + query)
    assert response.status_code == 200
    serralheiro = column(response.context["columns"], "serralheiro-2003")
    assert serralheiro.output["players"]["N"]["score"] == 528


def test_first_turn_self_drawn_is_the_brazilian_mao_celeste_and_on_a_discard_a_mistake_beside_its_box(client):
    client.force_login(user("dealer", DEALER))
    response = client.get(url(FIRST_TURN_HAND))
    assert response.status_code == 200
    assert response.context["form"].hand()["first_turn"] is True
    south = column(response.context["columns"], "cartas-pt-br").output["players"]["S"]
    assert south["limit_hand"]["code"] == "heavenly_hand" and south["limited_score"] == 4000
    assert column(response.context["columns"], "serralheiro-2003").players[0].limit_hand is None
    response = client.get(url({**DRAGON_HAND, "first_turn": True}))
    assert response.status_code == 400 and response.context["columns"] is None
    assert "is self-drawn" in " ".join(response.context["form"].errors["first_turn"])
    assert 'id="id_first_turn_error"' in response.content.decode()


# --- The Brazilian rules pay in hundreds (P-R18, «Acerto de contas»): a 24-point hand is paid nothing ---

# South goes out on West's discard with two open pongs of 2 to 8: 2 + 2 + 20 = 24 points, no double.
HAND_OF_24 = {
    "round_wind": "E", "banker": "E", "winner": "S", "winning_from": "discard", "discarder": "W",
    "winning_tile": "9p", "only_possible_tile": False,
    "players": {"S": {"concealed": "123m456m9p", "flowers": "",
                      "melds": [{"kind": "pong", "tiles": "555p", "exposed": True},
                                {"kind": "pong", "tiles": "333s", "exposed": True}]}},
}


@pytest.mark.parametrize("language, why", [
    ("en", "pays in hundreds"), ("pt", "paga em centenas"), ("zh-hant", "以百為單位付款")])
def test_cartas_a_24_point_hand_says_nobody_pays_because_payments_round_to_hundreds(client, language, why):
    client.force_login(user("dealer", DEALER))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url(HAND_OF_24))
    cartas = column(response.context["columns"], "cartas-pt-br")
    assert cartas.valid and cartas.output["players"]["S"]["limited_score"] == 24
    assert cartas.output["payments"] == []
    card = response.content.decode().split('id="rules-cartas-pt-br"', 1)[1].split(">", 1)[1].split("</article>")[0]
    assert why in card
    # What each would have paid before rounding: 48 by East, the banker, 24 by West and North.
    assert [(p.amount, p.paid) for p in cartas.rounded] == [(48, 0), (24, 0), (24, 0)]
    assert "48 → 0" in card and "24 → 0" in card
    if language != "en":
        assert wrong_words(read(card), language) == []


def test_cartas_payments_rounded_to_hundreds_show_what_was_due():
    """The book's example: North's 160 is paid 200 by South and West, and East's 320 is paid 300."""
    north = {"concealed": "456s 9m", "flowers": "f4",
             "melds": [{"kind": "kong", "tiles": "8888p", "exposed": True},
                       {"kind": "pong", "tiles": "777z", "exposed": True},
                       {"kind": "pong", "tiles": "777s", "exposed": True}]}
    hand = {"round_wind": "E", "banker": "E", "winner": "N", "winning_from": "self_drawn", "winning_tile": "9m",
            "players": {"N": north}}
    cartas = column(score_hand(hand), "cartas-pt-br")
    assert [(p.payer, p.amount, p.paid) for p in cartas.rounded] == [
        ("East (banker)", 320, 300), ("South", 160, 200), ("West", 160, 200)]
    assert [(p.payer, p.amount) for p in cartas.payments] == [("East (banker)", 300), ("South", 200), ("West", 200)]
    assert all(not c.rounded for c in score_hand(hand) if c.code != "cartas-pt-br")


@pytest.mark.parametrize("language, words",
                         [("en", "among the melds"), ("pt", "nos conjuntos"), ("zh-hant", "填入擱中")])
def test_a_winners_four_of_a_kind_left_among_his_concealed_tiles_is_marked_beside_them_saying_how_to_write_a_kong(
        client, language, words):
    client.force_login(user("dealer", DEALER))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    hand = {**DRAGON_HAND, "winning_tile": "9p",
            "players": {"S": {"concealed": "2222z 123m 456m 789p", "flowers": "", "melds": []}}}
    response = client.get(url(hand))
    assert response.status_code == 200
    for each in (c for c in response.context["columns"] if c.kind == "book"):
        assert not each.valid and each.field == "S_concealed", each.code
        assert words in each.errors[0], each.code
    assert words in " ".join(response.context["form"].errors["S_concealed"])
