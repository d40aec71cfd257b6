"""casino/terms: the regulation's vocabulary and the engine's messages in Portuguese,
Traditional Chinese and English."""
import ast
import json
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.utils import translation

from casino.pit.errors import Problem
from casino.terms import vocabulary as v
from regulation import MalformedRecord, read_record, score
from regulation.items import ITEMS
from tests.builders.jogos import record

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = {lang: ROOT / "casino/terms/locale" / lang / "LC_MESSAGES/django.po" for lang in ("pt", "zh_Hant")}
TILES = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def in_language(language, function, *args):
    with translation.override(language):
        return function(*args)


# --- the vocabulary ------------------------------------------------------------------------------

@pytest.mark.parametrize("language, expected", [
    ("en", ["East", "South", "West", "North"]),
    ("pt", ["Este", "Sul", "Oeste", "Norte"]),
    ("zh-hant", ["東位", "南位", "西位", "北位"]),
])
def test_art_3_seat_names(language, expected):
    assert [in_language(language, v.seat_name, wind) for wind in "ESWN"] == expected


def test_art_3_round_names():
    assert in_language("en", v.round_name, "S") == "South round"
    assert in_language("pt", v.round_name, "E") == "roda Este («t'ông hin»)"
    assert in_language("zh-hant", v.round_name, "N") == "北風圈"


@pytest.mark.parametrize("code, en, pt, zh", [
    ("1m", "1 Characters", "1 de números", "一萬"),
    ("9p", "9 Circles", "9 de círculos", "九筒"),
    ("5s", "5 Bamboos", "5 de bambus", "五索"),
    ("1z", "East wind", "vento Este («tông»)", "東風"),
    ("5z", "White dragon", "trunfo branca («pak pán»)", "白板"),
    ("6z", "Green dragon", "trunfo verde («fát chói»)", "發財"),
    ("7z", "Red dragon", "trunfo encarnada («hong chông»)", "紅中"),
])
def test_art_2_tile_names(code, en, pt, zh):
    assert (in_language("en", v.tile_name, code), in_language("pt", v.tile_name, code),
            in_language("zh-hant", v.tile_name, code)) == (en, pt, zh)


def test_every_tile_has_a_name_in_each_language():
    for language in ("en", "pt", "zh-hant"):
        names = [in_language(language, v.tile_name, code) for code in TILES]
        assert len(set(names)) == 34, language


def test_tile_glyphs_follow_the_unicode_block_order():
    assert [v.tile_glyph(c) for c in ("1z", "2z", "3z", "4z", "7z", "6z", "5z")] == [chr(0x1F000 + i) for i in range(7)]
    assert v.tile_glyph("1m") == "\U0001F007" and v.tile_glyph("9m") == "\U0001F00F"
    assert v.tile_glyph("1s") == "\U0001F010" and v.tile_glyph("9s") == "\U0001F018"
    assert v.tile_glyph("1p") == "\U0001F019" and v.tile_glyph("9p") == "\U0001F021"
    assert len({v.tile_glyph(c) for c in TILES}) == 34
    with pytest.raises(KeyError):
        v.tile_glyph("8z")


def test_art_6_every_fan_item_has_a_name():
    codes = {code for items in ITEMS.values() for code in items} | {"chicken"}
    assert len(codes) == 26
    for language in ("pt", "zh-hant"):
        for code in codes:
            assert in_language(language, v.fan_item_name, code) != in_language("en", v.fan_item_name, code), code
    assert in_language("en", v.fan_item_name, "all_pongs") == "All pongs (tò-i-tò-i vu)"
    assert in_language("pt", v.fan_item_name, "all_pongs") == "trios («tò-i-tò-i vu»)"
    assert in_language("zh-hant", v.fan_item_name, "all_pongs") == "對對糊"
    assert in_language("zh-hant", v.fan_item_name, "chicken") == "雞糊"


def test_results_conditions_conduct_melds_variants():
    assert in_language("zh-hant", v.result_name, "false_win") == "詐糊"
    assert in_language("pt", v.result_name, "false_win") == "jogo «nulo»"
    assert in_language("zh-hant", v.result_name, "win") == "食糊"
    assert in_language("zh-hant", v.condition_name, "kong_upon_kong") == "槓上槓"
    assert in_language("pt", v.condition_name, "heavenly") == "ganho natural («t'in vu»)"
    assert in_language("zh-hant", v.conduct_name, "declined_pong") == "叫碰唔碰"
    assert in_language("pt", v.conduct_name, "saw_tiles") == "viu as pedras doutro parceiro"
    assert [in_language("zh-hant", v.meld_kind_name, k) for k in ("chow", "pong", "kong")] == ["上", "碰", "槓"]
    assert in_language("pt", v.meld_kind_name, "pong") == "trio («p'ông»)"
    assert in_language("zh-hant", v.variant_name, "simplified") == "簡易麻雀"
    assert in_language("pt", v.variant_name, "conventional") == "Mah-Jong convencional"


def test_art_10_every_pay_all_article_has_a_text():
    articles = ["10(a)(1)", "10(a)(2)", "10(a)(3)", "10(a)(4)", "10(a)(5)", "10(a)(6)", "10(b)(1)", "10(b)(2)"]
    for language in ("en", "pt", "zh-hant"):
        texts = [in_language(language, v.pay_all_article_text, a) for a in articles]
        assert len(set(texts)) == 8
    assert "包摸一輪" in in_language("zh-hant", v.pay_all_article_text, "10(a)(2)")


def test_article_names():
    assert in_language("en", v.article_name, "10(a)(1)") == "Art. 10(a)(1)"
    assert in_language("pt", v.article_name, "10(a)(1)") == "Art. 10.º(a)(1)"
    assert in_language("zh-hant", v.article_name, "10(b)(4)") == "第十條(乙)(4)"
    assert in_language("zh-hant", v.article_name, "8") == "第八條"
    assert in_language("zh-hant", v.article_name, "I-2") == "Art. I-2"


# --- localise: the engine's messages ---------------------------------------------------------------

def breaches_of(**fields):
    result = score(read_record(record(**fields)))
    assert result.breaches
    return result.breaches


def test_localise_a_breach_naming_a_seat():
    (breach,) = breaches_of(conduct=[{"seat": "S", "kind": "declined_pong"}])
    assert breach.article == "9(a)(2)"
    assert in_language("en", v.localise, breach) == breach.message
    assert breach.message == "Art. 9(a)(2): South called pong and declined it, and so cannot win this jogo."
    assert in_language("pt", v.localise, breach) == (
        "Art. 9.º(a)(2): Sul anunciou «p'òng» e desistiu de o fazer, e por isso perde o direito de ganhar este jogo.")
    assert in_language("zh-hant", v.localise, breach) == "第九條(甲)(2)：南位叫碰唔碰，此局食糊無效。"


def test_localise_translates_seats_kinds_and_variants_and_names_tiles_but_in_english():
    seats, breach = breaches_of(capital={"E": 5000, "S": 3000, "W": 2000}, claimants=["N"])
    assert seats.code == "seats" and breach.code == "seat_not_seated"
    assert in_language("pt", v.localise, breach) == (
        "Art. 3.º(a): Outro pretendente 1 é Norte, mas ninguém ocupa o lugar Norte neste jogo.")
    zh = in_language("zh-hant", v.localise, breach)
    assert zh.startswith("第三條(甲)：") and "北位" in zh and "同時要求食糊者 1" in zh and "claimants" not in zh
    breaches = breaches_of(hand={"concealed": "345m678p99m11p", "winning_tile": "1p",
                                 "melds": [{"kind": "chow", "tiles": "235s", "exposed": True}]})
    pt = in_language("pt", v.localise, breaches[0])
    assert pt == ("Art. 5.º(a)(3): o conjunto 1 é declarado sequência («ch'i»), "
                  "mas tem 2 de bambus, 3 de bambus, 5 de bambus.")
    assert in_language("en", v.localise, breaches[0]) == "Art. 5(a)(3): meld 1 is declared a chow but holds 235s."
    (tier,) = breaches_of(variant="simplified", capital={"E": 5000, "S": 3000}, discarder="E",
                          hand={"concealed": "2223m", "winning_tile": "3m"})
    assert "簡易麻雀" in in_language("zh-hant", v.localise, tier)
    assert "100/200" in in_language("zh-hant", v.localise, tier)


def test_localise_a_malformed_record_keeps_the_dynamic_text():
    with pytest.raises(MalformedRecord) as raised:
        read_record(record(result="draw", winner="S", discarder=None, hand=None))
    error = raised.value
    assert in_language("en", v.localise, error) == error.message == "a drawn jogo has none (I-1)"
    assert in_language("zh-hant", v.localise, error) == "流局並無此項 (I-1)"
    with pytest.raises(MalformedRecord) as raised:
        read_record(record(hand={"concealed": "345m678p234s99m11x", "winning_tile": "1p"}))
    assert in_language("pt", v.localise, raised.value) == (
        "'x' não faz parte da notação das pedras (algarismos, depois m, p, s ou z) "
        "(Art. 2.º: as pedras escrevem-se com os números seguidos do naipe, p. ex. 123m 456p 789s 11z)")
    assert in_language("zh-hant", v.localise, raised.value).startswith("「x」不屬於牌的記法")
    assert "hand.concealed" not in in_language("en", v.localise, raised.value)


def test_localise_a_pit_problem_from_the_engine_and_from_the_service():
    (breach,) = breaches_of(conduct=[{"seat": "S", "kind": "declined_pong"}])
    problem = Problem(breach.code, breach.article, breach.message, breach.template, breach.params)
    assert problem == breach  # one error type: the engine's breach is the pit's problem
    assert in_language("zh-hant", v.localise, problem) == "第九條(甲)(2)：南位叫碰唔碰，此局食糊無效。"
    variant = Problem.of("table_variant", "2", "table {table} plays the {variant} variant; the record says "
                         "{recorded}.", "variant", cite=True, table=3, variant="conventional", recorded="simplified")
    assert variant.message == "Art. 2: table 3 plays the conventional variant; the record says simplified."
    assert in_language("en", v.localise, variant) == variant.message
    assert in_language("zh-hant", v.localise, variant) == "第二條：第 3 號枱玩傳統麻雀；記錄卻為簡易麻雀。"
    malformed = Problem("malformed_record", None, "winner: a won jogo names its winner",
                        "a won jogo names its winner", {}, field="winner")
    assert in_language("pt", v.localise, malformed) == "Vencedor: um jogo ganho indica quem ganhou"
    assert in_language("pt", lambda e: v.localise(e, field=False), malformed) == "um jogo ganho indica quem ganhou"


def test_localise_falls_back_to_the_stored_english_message():
    old = Problem("seats", "3", "Art. 3: something stored before templates existed.")
    assert in_language("zh-hant", v.localise, old) == old.message
    altered = Problem("seats", "3", "Art. 3: not what the template says.", "table {table} is closed.",
                      {"table": 1})
    assert in_language("pt", v.localise, altered) == altered.message


# --- the catalogues ------------------------------------------------------------------------------

def marked_messages(path: Path) -> set[str]:
    """Every string a gettext_noop(...) call marks in the Python files under `path`."""
    found = set()
    for source in [path] if path.is_file() else path.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop":
                found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("language", CATALOGUES)
def test_every_engine_and_service_message_is_translated(language):
    catalogue = polib.pofile(str(CATALOGUES[language]))
    translated = {entry.msgid: entry.msgstr for entry in catalogue if not entry.msgctxt}
    wanted = (marked_messages(ROOT / "regulation") | marked_messages(ROOT / "casino/terms")
              | marked_messages(ROOT / "casino/pit/services") | marked_messages(ROOT / "casino/pit/scoring.py")
              | marked_messages(ROOT / "casino/pit/entry.py") | marked_messages(ROOT / "casino/pit/errors.py"))
    assert len(wanted) > 150
    assert sorted(wanted - set(translated)) == []
    assert [m for m in wanted if not translated[m].strip()] == []
    assert [e.msgid for e in catalogue if "fuzzy" in e.flags] == []
    assert not catalogue.metadata_is_fuzzy
    assert catalogue.percent_translated() == 100
    assert catalogue.obsolete_entries() == []


@pytest.mark.parametrize("language", CATALOGUES)
def test_catalogues_keep_every_placeholder(language):
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(CATALOGUES[language])],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_chinese_is_traditional():
    catalogue = polib.pofile(str(CATALOGUES["zh_Hant"]))
    text = "".join(entry.msgstr for entry in catalogue)
    for simplified in "庄发万风门条杠诈输这为须无东听张对":
        assert simplified not in text, simplified


# --- the engine's output is unchanged --------------------------------------------------------------

def test_engine_output_on_the_worked_examples_is_unchanged():
    examples = Path(__file__).resolve().parents[1] / "data" / "jogo-examples.jsonl"
    lines = [json.loads(line) for line in examples.read_text().splitlines() if line.strip()]
    records = "".join(json.dumps(line["record"]) + "\n" for line in lines)
    output = subprocess.run([sys.executable, "-m", "regulation", "score", "--jsonl", "-"], input=records,
                            capture_output=True, text=True, cwd=ROOT, check=True).stdout.splitlines()
    for line, out in zip(lines, output, strict=True):
        result = json.loads(out)
        assert {key: result[key] for key in line["expected"]} == line["expected"], line["title"]
    invalid = json.dumps(record(conduct=[{"seat": "S", "kind": "declined_pong"}], stake=30)) + "\n"
    out = subprocess.run([sys.executable, "-m", "regulation", "score", "--jsonl", "-"], input=invalid,
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert json.loads(out)["errors"] == [
        {"code": "stake_not_a_tier", "article": "8", "message": "Art. 8: 30/60 is not a tier of the conventional "
         "game; its tiers are 25/50, 50/100, 100/200, 200/400, 300/600, 500/1000, 1000/2000, 2000/4000, "
         "3000/6000, 5000/10000, 10000/20000."},
        {"code": "winner_declined_pong", "article": "9(a)(2)",
         "message": "Art. 9(a)(2): South called pong and declined it, and so cannot win this jogo."}]
    assert '"template"' not in out and '"params"' not in out


# --- one vocabulary: the engine's codes, named once ------------------------------------------------

def test_the_vocabulary_names_every_item_seat_and_pay_all_article_the_engine_has_and_no_other():
    from regulation.items import ITEMS
    from regulation.jogo import SEAT_NAMES
    from regulation.record import PAY_ALL_ARTICLES
    from regulation.seats import SEATS

    engine_items = {code for items in ITEMS.values() for code in items}
    assert set(v.FAN_ITEM_CODES) == engine_items | {"chicken"}
    assert set(SEAT_NAMES) == set(SEATS)
    for seat in SEATS:
        assert in_language("en", v.seat_name, seat) == SEAT_NAMES[seat]
    assert all(in_language("en", v.pay_all_article_text, article) for article in PAY_ALL_ARTICLES)


def test_the_forms_choices_are_the_engines_conditions_and_pay_all_articles():
    from casino.pit.forms import CONDITIONS, PAY_ALL_ARTICLES as FORM_ARTICLES
    from regulation.record import CONDITIONS as ENGINE_CONDITIONS, PAY_ALL_ARTICLES

    assert sorted(code for code, _label in CONDITIONS) == sorted(ENGINE_CONDITIONS)
    assert sorted(FORM_ARTICLES["conventional"] + FORM_ARTICLES["simplified"]) == sorted(PAY_ALL_ARTICLES)
    assert all(article.startswith("10(a)") for article in FORM_ARTICLES["conventional"])
