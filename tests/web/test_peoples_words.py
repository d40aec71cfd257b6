"""People's words only (issue 23 §2): the dealer's preview and the engine's messages say what a pit
supervisor understands, in English, Portuguese and Traditional Chinese.

- A half-filled form is not an error: the preview says what is still to enter.
- Every record the engine cannot read (MalformedRecord, regulation/record.py) reads, through the
  preview, without a backtick, "expected", "got", a file name or a field path.
- On Portuguese and Chinese pages the engine's messages name the tiles (Art. 2), cite articles in
  one style (Art. 10.º(a)(1)) and give 包輸 its Portuguese name beside it.
- A count and its noun agree (ngettext): "1 false win", "1 meld".
- The register of readings and the audit of a jogo show an alternative's description, not its code.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from casino.pit import views
from casino.pit.errors import Problem
from casino.terms import vocabulary as v
from regulation import MalformedRecord, read_record, score
from regulation.record import decode_record
from tests.builders.jogos import CHICKEN, record
from tests.builders.pit import record_next, seat

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["en", "pt", "zh-hant"]

# What a person never reads: a developer's words, a file name, a record's field path or code.
DEVELOPERS_WORDS = re.compile(
    r"`|\bexpected\b|\bgot\b|\.md\b|\bnull\b|\{|"
    r"\b(variant|stake|round_wind|capital|result|winner|discarder|hand|conditions|declared_fan|conduct|claimants|"
    r"pay_all|false_win|rules|concealed|winning_tile|melds|seat|article|live_tile|broken_set|kind|tiles|exposed|"
    r"fan_combination)(\.\w|\[\d)|\b[a-z]+_[a-z_]+\b", re.IGNORECASE)


@pytest.fixture
def table_in_play(people):
    staff_, t1, _ = people
    game = seat(t1, staff_["dealer"])
    t1.refresh_from_db()  # the table's projection now names its game
    return staff_, t1, game


def visible(html: str) -> str:
    """The text of a fragment as a person reads it: tags and attributes left out."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def preview(client, person, table, language: str, **posted) -> str:
    client.force_login(person)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.post(reverse("pit:preview", args=[table.pk]), posted)
    assert response.status_code == 200
    return response.content.decode()


# --- A half-filled form: what is still to enter ------------------------------------------------------

@pytest.mark.parametrize("language, missing, heading", [
    ("en", "choose the offender", "Still to enter"),
    ("pt", "escolha o infractor", "Ainda falta"),
    ("zh-hant", "請選擇詐糊者", "尚待填寫"),
])
def test_art_10a7_a_false_win_without_its_offender_says_what_is_still_to_enter(
        client, table_in_play, language, missing, heading):
    staff_, t1, _ = table_in_play
    page = preview(client, staff_["dealer"], t1, language, result="false_win")
    text = visible(page)
    assert missing in text and heading in text
    assert DEVELOPERS_WORDS.search(text) is None, text
    assert 'class="verdict bad"' not in page and 'data-missing="false_win_seat"' in page


@pytest.mark.parametrize("language, article, liable", [
    ("en", "choose the article of the pay-all (包輸)", "choose the liable player of the pay-all (包輸)"),
    ("pt", "escolha o artigo da obrigação de suportar a perda (包輸)",
     "escolha o parceiro obrigado a suportar a perda (包輸)"),
    ("zh-hant", "請選擇包輸之條款", "請選擇包輸之一家"),
])
def test_art_10_a_pay_all_half_filled_says_what_is_still_to_enter(client, table_in_play, language, article, liable):
    staff_, t1, _ = table_in_play
    chicken = {"result": "win", "winner": "S", "discarder": "W", "concealed": CHICKEN["concealed"],
               "winning_tile": CHICKEN["winning_tile"]}
    seat_only = visible(preview(client, staff_["dealer"], t1, language, **chicken, pay_all_seat="W"))
    assert article in seat_only and liable not in seat_only
    assert DEVELOPERS_WORDS.search(seat_only) is None, seat_only
    article_only = visible(preview(client, staff_["dealer"], t1, language, **chicken, pay_all_article="10(a)(1)"))
    assert liable in article_only and article not in article_only
    assert DEVELOPERS_WORDS.search(article_only) is None, article_only


def test_art_4_an_empty_win_lists_the_winner_the_tiles_and_a_melds_missing_half(client, table_in_play):
    staff_, t1, _ = table_in_play
    page = preview(client, staff_["dealer"], t1, "en", result="win", meld_kind_0="pong")
    text = visible(page)
    for missing in ("choose the winner", "enter the concealed tiles", "enter the winning tile",
                    "enter the tiles of meld 1"):
        assert missing in text
    assert "Not complete" in text and "Cannot be saved" not in text
    page = preview(client, staff_["dealer"], t1, "pt", result="win", winner="S", concealed="345m678p234s99m1p",
                   winning_tile="1p", meld_tiles_0="111s")
    assert "escolha o tipo do conjunto 1" in visible(page) and "Incompleto" in visible(page)


# --- Every record the engine cannot read, through the preview --------------------------------------

HAND = dict(CHICKEN)


def without(field: str, **fields) -> dict:
    data = record(**fields)
    del data[field]
    return data


# One case at least for each MalformedRecord regulation/record.py raises, and for each kind of
# message msgspec gives about the record's shape (type, bound, length, pattern, choice, missing
# and unknown fields).
MALFORMED = [
    [], "jogo", 42, None, True,
    record(colour="red"), without("variant"), without("stake"), without("capital"),
    record(variant="riichi"), record(round_wind="X"), record(result="won"), record(winner="South"),
    record(capital={"E": 5000, "S": 5000, "W": 5000, "X": 5000}), record(capital={}),
    record(capital={"E": -1, "S": 5000, "W": 5000, "N": 5000}),
    record(capital={"E": "5000.50", "S": 5000, "W": 5000, "N": 5000}),
    record(capital={"E": "50x", "S": 5000, "W": 5000, "N": 5000}),
    record(stake=0), record(stake="25.5"), record(stake="9999999999999"), record(stake=10**13),
    record(stake=50.0), record(stake=True), record(declared_fan=3), record(declared_fan="1"),
    record(conditions=["lucky"]), record(conditions=["last_tile", "last_tile"]), record(conditions=["last_tile"] * 7),
    record(conduct=[{"seat": "N", "kind": "cheated"}]), record(conduct=[{"seat": "N"}]),
    record(claimants=["N", "N"]), record(claimants="N"),
    record(pay_all={"seat": "W", "article": "10(a)(9)"}), record(pay_all={"seat": "W", "article": None}),
    record(pay_all={"seat": None, "article": "10(a)(1)"}),
    record(pay_all={"seat": "W", "article": "10(a)(1)", "live_tile": "no"}),
    record(pay_all={"seat": "W", "article": "10(a)(1)", "broken_set": "chow"}),
    record(rules={"fan_combination": "multiplicative"}), record(rules={"reading": "additive"}),
    record(rules=["additive"]),
    record(result="false_win", winner=None, discarder=None, hand=None, false_win={"seat": None}),
    record(result="false_win", winner=None, discarder=None, hand=None),
    record(result="false_win", winner="S", discarder=None, hand=None, false_win={"seat": "N"}),
    record(winner=None), without("discarder"), record(hand=None), record(false_win={"seat": "N"}),
    record(result="draw", discarder="W", winner=None, hand=None),
    record(result="draw", discarder=None, winner=None, hand=None, pay_all={"seat": "W", "article": "10(a)(1)"}),
    record(result="draw", discarder=None, winner="S", hand=None),
    record(hand={**HAND, "winning_tile": "0m"}), record(hand={**HAND, "concealed": "345m678p234s99m8z"}),
    record(hand={**HAND, "concealed": "345x"}), record(hand={**HAND, "concealed": "m345"}),
    record(hand={**HAND, "concealed": "345m678p234s99m11"}),
    record(hand={**HAND, "winning_tile": "1p1p"}), record(hand={**HAND, "winning_tile": ""}),
    record(hand={**HAND, "concealed": 345}), record(hand={"concealed": "345m678p234s99m11p"}),
    record(hand={**HAND, "concealed": "1" * 81}),
    record(hand={**HAND, "melds": [{"kind": "set", "tiles": "111p", "exposed": True}]}),
    record(hand={**HAND, "melds": [{"kind": "", "tiles": "111p", "exposed": True}]}),
    record(hand={**HAND, "melds": [{"kind": "pong", "tiles": "111p"}]}),
    record(hand={**HAND, "melds": [{"kind": "pong", "tiles": "11x", "exposed": True}]}),
    record(hand={**HAND, "melds": [{"kind": "pong", "tiles": "111p", "exposed": True}] * 5}),
]


def marked_templates(path: Path) -> set[str]:
    return {node.args[0].value for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop"}


def test_the_cases_reach_every_malformed_record_the_engine_raises():
    seen = set()
    for data in MALFORMED:
        with pytest.raises(MalformedRecord) as raised:
            read_record(data)
        seen.add(raised.value.template)
    with pytest.raises(MalformedRecord) as raised:
        decode_record(b"{")
    seen.add(raised.value.template)
    assert marked_templates(ROOT / "regulation/record.py") - seen == set()


def as_the_service_refuses(error: MalformedRecord) -> Problem:
    """A MalformedRecord as the recording service turns it into a refusal (scoring.scored)."""
    return Problem("malformed_record", None, f"{error.field}: {error.message}" if error.field else error.message,
                   error.template, error.params, error.field or None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_malformed_record_reads_in_peoples_words_through_the_preview(table_in_play, language):
    staff_, t1, game = table_in_play
    bad = []
    with translation.override(language):
        for data in MALFORMED:
            context = views._preview_context(t1, data, staff_["dealer"])  # unread, the record never meets the table
            assert context.get("missing") or [p.code for p in context["problems"]] == ["malformed_record"], data
            text = visible(render_to_string("pit/_preview.html", context))
            if DEVELOPERS_WORDS.search(text):
                bad.append(text)
        with pytest.raises(MalformedRecord) as raised:
            decode_record(b"{")
        text = visible(render_to_string("pit/_preview.html", {"problems": [as_the_service_refuses(raised.value)]}))
        if DEVELOPERS_WORDS.search(text):
            bad.append(text)
    assert bad == []


def test_the_checker_finds_what_it_looks_for():
    for text in ["Artigo do 包輸: expected `str`, got `null` (ver JOGO-FORMAT.md)", "hand.concealed: x",
                 "pay_all.article", "ou null quando", 'names the offender: {"seat": "N"}', "meld hand.melds[0]",
                 "um jogo false_win indica", "Got it", "Expected one"]:
        assert DEVELOPERS_WORDS.search(text), text
    for text in ["Pedras escondidas: em falta", "Art. 2: tiles are written as numbers then the suit, e.g. 123m",
                 "手上暗牌：未填", "choose the offender"]:
        assert DEVELOPERS_WORDS.search(text) is None, text


# --- Tiles as tiles, one citation style, 包輸 named ------------------------------------------------

def breaches_of(**fields):
    result = score(read_record(record(**fields)))
    assert result.breaches
    return result.breaches


def in_language(language, function, *args):
    with translation.override(language):
        return function(*args)


NOTATION = re.compile(r"\d[mpsz]\b|\d[mpsz]\d")


def test_art_2_a_fifth_copy_names_the_tile_in_portuguese_and_chinese():
    melds = [{"kind": "pong", "tiles": "111m", "exposed": True}, {"kind": "kong", "tiles": "1111m", "exposed": True}]
    (fifth, *_rest) = [b for b in breaches_of(hand={"concealed": "345m678p99m", "winning_tile": "9m",
                                                    "melds": melds}) if b.code == "fifth_copy"]
    assert "7 × 1m" in fifth.message  # the engine's English, as the API gives it
    assert "7 × 1m" in in_language("en", v.localise, fifth)
    pt, zh = in_language("pt", v.localise, fifth), in_language("zh-hant", v.localise, fifth)
    assert "7 × 1 de números" in pt and NOTATION.search(pt) is None, pt
    assert "7 隻一萬" in zh and NOTATION.search(zh) is None, zh


def test_art_4_a_hand_that_is_no_winning_hand_names_its_tiles():
    (breach,) = breaches_of(hand={"concealed": "13579m2468p1357s", "winning_tile": "9s"})
    assert breach.code == "not_a_winning_hand" and "13579m2468p13579s" in breach.message
    pt, zh = in_language("pt", v.localise, breach), in_language("zh-hant", v.localise, breach)
    assert "1 de números, 3 de números" in pt and NOTATION.search(pt) is None, pt
    assert "一萬、三萬" in zh and NOTATION.search(zh) is None, zh
    assert "0 conjuntos declarados" in pt or "nenhum conjunto" in pt or "0 conjuntos" in pt, pt


def test_art_2b_a_foreign_tile_is_named_and_the_green_dragon_too():
    (breach, *_rest) = breaches_of(variant="simplified", stake=100, capital={"E": 5000, "S": 5000},
                                   discarder="E", hand={"concealed": "1z1z2m", "winning_tile": "2m"})
    assert breach.code == "tile_not_in_variant"
    pt, zh = in_language("pt", v.localise, breach), in_language("zh-hant", v.localise, breach)
    assert "vento Este" in pt and NOTATION.search(pt) is None, pt
    assert "東風" in zh and "發財" in zh and NOTATION.search(zh) is None, zh


def test_one_citation_style_on_a_portuguese_page_art_10_a_5():
    with pytest.raises(MalformedRecord) as raised:
        read_record(record(pay_all={"seat": "W", "article": "10(a)(1)", "broken_set": "chow"}))
    pt = in_language("pt", v.localise, as_the_service_refuses(raised.value))
    assert "Art. 10.º(a)(5)" in pt and "10.º, a)" not in pt, pt


def test_one_citation_style_in_every_engine_message_in_portuguese():
    """The style chosen is the vocabulary's article_name: "Art. 10.º(a)(1)", never "art. 10.º, a), 1)"."""
    comma_style = re.compile(r"\d\.º, [ab]\)|\b[aA]rt\. \d+\.º, ")
    templates = set()
    for path in ("regulation", "casino/pit/services", "casino/pit/scoring.py", "casino/pit/entry.py",
                 "casino/pit/errors.py"):
        for source in [ROOT / path] if path.endswith(".py") else (ROOT / path).rglob("*.py"):
            templates |= marked_templates(source)
    with translation.override("pt"):
        wrong = [t for t in templates if comma_style.search(v.template_in_words(t))]
    assert wrong == []


def test_art_4_a_false_win_that_was_a_win_cites_art_4_in_the_one_style():
    breaches = score(read_record(record(result="false_win", winner=None, discarder=None, hand=CHICKEN,
                                        false_win={"seat": "S"}))).breaches
    (breach,) = [b for b in breaches if b.code == "false_win_winning_hand"]
    pt = in_language("pt", v.localise, breach)
    assert "(Art. 4.º)" in pt and "(art. 4.º)" not in pt, pt
    assert "0 conjuntos declarados" in pt and "conjunto(s)" not in pt, pt


def test_art_10_pay_all_has_its_portuguese_name_beside_the_chinese_wherever_the_vocabulary_names_it():
    with translation.override("pt"):
        names = [v.field_name(path) for path in ("pay_all", "pay_all.seat", "pay_all.article", "pay_all.live_tile",
                                                 "pay_all.broken_set")]
    assert all("包輸" in name and "suportar a perda" in name.lower() for name in names), names


# --- Plurals --------------------------------------------------------------------------------------

@pytest.mark.parametrize("language, one, two", [
    ("en", "1 meld", "2 melds"), ("pt", "1 conjunto declarado", "2 conjuntos declarados"),
])
def test_art_4_a_count_of_melds_agrees_with_its_noun(language, one, two):
    pong = {"kind": "pong", "tiles": "111p", "exposed": True}
    texts = []
    for melds in ([pong], [pong, {**pong, "tiles": "999p"}]):
        breaches = breaches_of(hand={"concealed": "345m678p99m1s", "winning_tile": "2s", "melds": melds})
        texts.append(" ".join(in_language(language, v.localise, b) for b in breaches))
    assert one in texts[0] and "(s)" not in texts[0], texts[0]
    assert two in texts[1] and "(s)" not in texts[1], texts[1]


@pytest.mark.parametrize("language, one_false_win", [("en", "1 false win)"), ("pt", "1 jogo «nulo»)"),
                                                     ("zh-hant", "詐糊1局")])
def test_the_day_and_the_game_summary_count_one_false_win_in_the_singular(client, table_in_play, language,
                                                                           one_false_win):
    staff_, t1, game = table_in_play
    record_next(game, staff_["dealer"], result="false_win", winner=None, discarder=None, hand=None,
                false_win={"seat": "N"}, declared_fan=None)
    client.force_login(staff_["supervisor"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for url in (f"/pit/tables/{t1.pk}/day?day=2026-11-21", f"/pit/games/{game.pk}/summary"):
        page = visible(client.get(url).content.decode())
        assert one_false_win in page, (url, page)
        if language == "en":
            assert "1 false wins" not in page and "0 won" in page


# --- Reading alternatives by their descriptions -----------------------------------------------------

def test_the_register_of_readings_shows_descriptions_not_codes(client, people):
    staff_, _, _ = people
    client.force_login(staff_["inspector"])
    page = client.get("/audit/readings/").content.decode()
    for code in ("doubling", "tier_bounds", "bank_stays", "portuguese"):
        assert f">{code}<" not in page, code
    assert "The bank passes only when another player wins" in page


def test_the_audit_of_a_jogo_names_the_readings_alternatives_by_their_descriptions(client):
    from tests.builders.audit import varied_day

    people, _t1, _game, (_chicken, _draw, _false_win, pay_all, _misdeclared) = varied_day()
    client.force_login(people["inspector"])
    page = client.get(f"/audit/jogos/{pay_all.pk}/").content.decode()
    assert 'id="decided-I-6"' in page  # I-6, the share at the tier X/2X, decided this jogo
    side = page.split('id="decided-I-6"', 1)[1].split("</thead>")[0]
    assert "doubling" not in visible(side) and "tier_bounds" not in visible(side)
    assert "X is the share of a chicken hand and every fán doubles it" in side


def test_a_period_of_one_jogo_too_many_for_a_page_says_1_jogo(client, table_in_play, settings):
    staff_, t1, game = table_in_play
    record_next(game, staff_["dealer"])
    settings.AUDIT_PAGE_MAX_JOGOS = 0
    client.force_login(staff_["inspector"])
    page = visible(client.get("/audit/readings/?from=2026-11-21&to=2026-11-21").content.decode())
    assert "these gaming days hold 1 jogo, more than a page" in page
