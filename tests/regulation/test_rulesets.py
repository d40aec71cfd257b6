"""Rule sets as versioned data: the shipped rule sets, the readings each adopts,
the other alternatives of every reading the engine can score by, and a rule set defined here,
in the test, that scores differently with no edit of the engine.

Each test names the article and the reading (I-n, or §8.n for a point where the Portuguese
and Chinese texts differ).
"""
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from regulation import read_record, rules as rules_module, score
from regulation.decisions import decided_by, outcome
from regulation.readings import READINGS, reading
from regulation.rules import (
    CURRENT,
    DEFAULT,
    PORTARIA_135_91_M,
    PORTARIA_135_91_M_ZH,
    RULE_SETS,
    RuleSet,
    UnknownRuleSet,
    rule_set,
)
from tests.builders.jogos import registered
from tests.strategies import won_jogos

EVEN = {"E": 5000, "S": 5000, "W": 5000, "N": 5000}
ZH = PORTARIA_135_91_M_ZH


def jogo(**fields):
    """South wins on West's discard at the conventional 25/50 table; `fields` change it."""
    record = {"variant": "conventional", "stake": 25, "round_wind": "E", "capital": EVEN, "result": "win",
              "winner": "S", "discarder": "W", "hand": {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}}
    record.update(fields)
    return read_record(record)


def meld(kind, tiles, exposed=True):
    return {"kind": kind, "tiles": tiles, "exposed": exposed}


def codes(result):
    return [item.code for item in result.grade.items]


def reading_as(code, alternative, rules=DEFAULT):
    return rules.with_readings({code: alternative})


# --- the shipped rule sets ------------------------------------------------------------------------

def test_the_default_is_portaria_135_91_m_version_1_and_current_stays_its_alias():
    assert DEFAULT is PORTARIA_135_91_M is CURRENT
    assert (DEFAULT.code, DEFAULT.version) == ("portaria-135-91-M", 1)
    assert rule_set("portaria-135-91-M") is DEFAULT
    assert rule_set("portaria-135-91-M", 1) is DEFAULT
    assert rule_set("portaria-135-91-M-zh") is ZH
    assert [r.label for r in RULE_SETS] == ["portaria-135-91-M v1", "portaria-135-91-M-zh v1"]


def test_an_unknown_rule_set_or_version_is_a_lookup_error_naming_the_known_ones():
    with pytest.raises(UnknownRuleSet, match="portaria-135-91-M v1") as error:
        rule_set("portaria-52-89-M")
    assert isinstance(error.value, LookupError)
    with pytest.raises(LookupError, match="portaria-135-91-M version 2"):
        rule_set("portaria-135-91-M", 2)


def test_every_reading_of_the_portuguese_rule_set_is_one_of_its_alternatives_and_every_reading_is_chosen():
    for rules in RULE_SETS:
        assert set(rules.readings) == {r.code for r in READINGS}
        for code, name in rules.readings.items():
            assert reading(code).alternative(name).implemented


def test_the_register_holds_every_reading_of_rules_md_and_every_difference_of_section_8():
    codes_ = {r.code for r in READINGS}
    assert {f"I-{n}" for n in range(1, 19)} <= codes_
    section_8 = codes_ | {d for r in READINGS for d in r.differences}
    assert {f"§8.{n}" for n in range(1, 17)} <= section_8
    for entry in READINGS:
        assert entry.pt and entry.zh and entry.question and entry.article
        assert len(entry.alternatives) >= 2 or not entry.changes_outcome, entry.code


def test_the_chinese_rule_set_reads_every_outcome_changing_point_of_section_8_the_chinese_way():
    chinese = {"I-4": "chinese", "I-5": "highest_plus_bonus", "I-12": "pong_only", "§8.2": "chinese",
               "§8.4": "chinese", "§8.6": "chinese", "§8.10": "chinese", "§8.12": "chinese"}
    assert {code: name for code, name in ZH.readings.items() if DEFAULT.readings[code] != name} == chinese
    # §8.3, §8.11 and §8.13 turn on facts no record holds: described, not scored.
    for code in ("§8.3", "§8.11", "§8.13"):
        assert not reading(code).alternative("chinese").implemented
    assert ZH.commission == DEFAULT.commission and ZH.fan == DEFAULT.fan


def test_with_readings_refuses_an_unknown_reading_an_unknown_alternative_and_a_described_one():
    with pytest.raises(ValueError, match="no reading 'I-99'"):
        DEFAULT.with_readings({"I-99": "x"})
    with pytest.raises(ValueError, match="I-4 has no alternative 'japanese'"):
        DEFAULT.with_readings({"I-4": "japanese"})
    with pytest.raises(ValueError, match="described, not implemented"):
        DEFAULT.with_readings({"§8.11": "chinese"})
    assert DEFAULT.with_readings({"I-4": "portuguese"}) is DEFAULT
    other = DEFAULT.with_readings({"I-4": "chinese"})
    assert (other.code, other.version, other.readings["I-4"]) == (DEFAULT.code, 1, "chinese")
    assert DEFAULT.with_readings({"I-4": "chinese"}) is other  # made once


def test_the_records_fan_combination_still_chooses_i5_and_keeps_the_rule_sets_code_and_version():
    hand = {"concealed": "111m222p777z9s", "winning_tile": "9s", "melds": [meld("pong", "333s")]}
    result = score(jogo(hand=hand, rules={"fan_combination": "highest_plus_bonus"}), ZH)
    assert result.fan == 1
    assert (result.rules.code, result.rules.version) == (ZH.code, 1)


# --- a rule set defined here: data plus tests, no engine edit -----------------------------------------

AMENDMENT = replace(
    PORTARIA_135_91_M, code="test-amendment", version=2, title="An amendment written in a test",
    commission={**DEFAULT.commission, "conventional": {25: 5, 50: 10}},
    max_fan={"conventional": 3, "simplified": 1},
    fan={**DEFAULT.fan, "conventional": {**DEFAULT.fan["conventional"], "all_pongs": 2, "dragon_set": 0}},
    instead_of={code: replaced for code, replaced in DEFAULT.instead_of.items() if code != "big_three_dragons"},
    false_win_fan={"conventional": (1, 0), "simplified": (1, 1)},
)

ALL_PONGS_WITH_A_DRAGON = {"concealed": "111m222p777z9s", "winning_tile": "9s", "melds": [meld("pong", "333s")]}
BIG_THREE = {"concealed": "555z666z777z222m5s", "winning_tile": "5s"}


def test_a_rule_set_defined_in_a_test_changes_fan_values_caps_tiers_and_scores_instead_of():
    under_default = score(jogo(hand=ALL_PONGS_WITH_A_DRAGON))
    under_amendment = score(jogo(hand=ALL_PONGS_WITH_A_DRAGON), AMENDMENT)
    assert [(i.code, i.fan) for i in under_default.grade.items] == [("dragon_set", 1), ("all_pongs", 1)]
    assert [(i.code, i.fan) for i in under_amendment.grade.items] == [("dragon_set", 0), ("all_pongs", 2)]
    assert under_amendment.settlement.commission == 5  # the amendment's tier 25/50
    # Without "big three dragons scores instead of its dragon sets", both score; the cap is 3.
    big = score(jogo(hand=BIG_THREE, discarder=None), AMENDMENT)
    assert codes(big) == ["dragon_set"] * 3 + ["big_three_dragons", "concealed_pongs"]
    assert big.fan == 3 and big.settlement.share == 25 * 2 ** 3
    assert codes(score(jogo(hand=BIG_THREE, discarder=None))) == ["big_three_dragons", "concealed_pongs"]


def test_a_rule_set_defined_in_a_test_changes_the_false_win_grades_and_refuses_a_tier_it_drops():
    false_win = jogo(result="false_win", winner=None, discarder=None, hand=None, false_win={"seat": "S"})
    payments = {(p.payer, p.payee): p.amount for p in score(false_win, AMENDMENT).settlement.payments}
    assert payments == {("S", "W"): 25, ("S", "N"): 25, ("S", "E"): 50}
    refused = score(jogo(stake=100), AMENDMENT)
    assert [b.code for b in refused.breaches] == ["stake_not_a_tier"]
    assert "25/50, 50/100" in refused.breaches[0].message


def test_a_rule_set_registered_in_a_test_is_found_by_code_and_version_then_forgotten():
    assert rule_set("portaria-135-91-M") is DEFAULT
    with registered(AMENDMENT):
        assert rule_set("test-amendment") is AMENDMENT
        assert rule_set("test-amendment", 2) is AMENDMENT
        assert AMENDMENT in rules_module.RULE_SETS
        with pytest.raises(ValueError, match="already registered"):
            with registered(AMENDMENT):
                pass
    with pytest.raises(UnknownRuleSet):
        rule_set("test-amendment")


def test_a_rule_set_must_choose_every_reading():
    readings = {**DEFAULT.readings}
    del readings["I-7"]
    with pytest.raises(ValueError, match="missing I-7"):
        RuleSet("x", 1, "x", DEFAULT.commission, DEFAULT.max_fan, DEFAULT.false_win_fan, DEFAULT.fan,
                DEFAULT.instead_of, DEFAULT.bonus_items, readings)


# --- the Chinese readings of §8 --------------------------------------------------------------------

def test_i4_art_6a3_kan_kan_vu_by_the_chinese_text_allows_a_concealed_kong_and_a_discard():
    hand = {"concealed": "111m222p777p9s", "winning_tile": "9s", "melds": [meld("kong", "5555s", exposed=False)]}
    assert codes(score(jogo(hand=hand))) == ["all_pongs"]
    assert codes(score(jogo(hand=hand), ZH)) == ["concealed_pongs"]
    exposed = {**hand, "melds": [meld("kong", "5555s", exposed=True)]}
    assert codes(score(jogo(hand=exposed), ZH)) == ["all_pongs"]


def test_i5_art_6a_the_chinese_rule_set_takes_the_highest_item_plus_the_bonus_items():
    assert score(jogo(hand=ALL_PONGS_WITH_A_DRAGON)).fan == 2
    assert score(jogo(hand=ALL_PONGS_WITH_A_DRAGON), ZH).fan == 1
    last = score(jogo(hand=ALL_PONGS_WITH_A_DRAGON, discarder=None, conditions=["last_tile"]), ZH)
    assert last.fan == 2 and last.grade.raw == 2  # dragon set 1 + last tile, a bonus item


def test_section_8_2_the_last_tile_on_a_discard_scores_only_under_the_portuguese_text():
    assert codes(score(jogo(conditions=["last_tile"]))) == ["last_tile"]
    assert score(jogo(conditions=["last_tile"]), ZH).fan == 0
    assert codes(score(jogo(conditions=["last_tile"], discarder=None), ZH)) == ["last_tile"]
    simplified = dict(variant="simplified", stake=100, capital={"E": 5000, "S": 5000},
                      hand={"concealed": "1234m", "winning_tile": "4m"}, conditions=["last_tile"], discarder="E")
    assert score(jogo(**simplified)).fan == 1
    assert score(jogo(**simplified), ZH).fan == 0


def test_section_8_4_a_concealed_dragon_pong_scores_only_under_the_portuguese_text():
    # The I-11 example: one suit and a dragon pong made in the hand, won on South's own draw.
    hand = {"concealed": "123m456m789m55m77z", "winning_tile": "7z"}
    assert codes(score(jogo(hand=hand, discarder=None))) == ["dragon_set"]
    # Under the Chinese text the concealed pong is worth nothing, so the honours are worth no fán.
    assert codes(score(jogo(hand=hand, discarder=None), ZH)) == ["mixed_one_suit"]
    # Won on a discard, the pong is laid open (碰出) and scores.
    assert codes(score(jogo(hand=hand), ZH)) == ["dragon_set"]
    exposed = {"concealed": "123m456m789m5m", "winning_tile": "5m", "melds": [meld("pong", "777z")]}
    assert codes(score(jogo(hand=exposed, discarder=None), ZH)) == ["dragon_set"]


def test_section_8_6_fa_iu_kau_by_the_chinese_text_counts_chows_of_1_2_3_and_7_8_9():
    hand = {"concealed": "123m789p333z999s5z", "winning_tile": "5z"}
    assert score(jogo(hand=hand)).fan == 0
    assert codes(score(jogo(hand=hand), ZH)) == ["terminals_and_honours"]
    simples = {"concealed": "234m789p333z999s5z", "winning_tile": "5z"}
    assert score(jogo(hand=simples), ZH).fan == 0


def test_i12_art_10a5_a_broken_chow_is_refused_under_the_chinese_text():
    broken_chow = dict(hand={"concealed": "44m678p234s99s", "winning_tile": "4m", "melds": [meld("pong", "777p")]},
                       pay_all={"seat": "W", "article": "10(a)(5)", "broken_set": "chow"})
    assert score(jogo(**broken_chow)).valid
    refused = score(jogo(**broken_chow), ZH)
    assert [(b.code, b.article) for b in refused.breaches] == [("pay_all_trigger", "10(a)(5)")]
    assert "I-12" in refused.breaches[0].message


PURE_FOUR_EXPOSED = {"concealed": "9p", "winning_tile": "9p",
                     "melds": [meld("pong", "111p"), meld("chow", "234p"), meld("chow", "567p"), meld("pong", "888p")]}


def test_section_8_10_art_10a1_four_exposed_sets_are_nine_tiles_only_under_the_portuguese_text():
    pay_all = {"seat": "W", "article": "10(a)(1)"}
    assert score(jogo(hand=PURE_FOUR_EXPOSED, pay_all=pay_all)).valid
    refused = score(jogo(hand=PURE_FOUR_EXPOSED, pay_all=pay_all), ZH)
    assert [b.article for b in refused.breaches] == ["10(a)(1)"]
    three = {"concealed": "8889p", "winning_tile": "9p",
             "melds": [meld("pong", "111p"), meld("chow", "234p"), meld("chow", "567p")]}
    assert score(jogo(hand=three, pay_all=pay_all), ZH).valid


def test_section_8_12_art_10a3_the_chinese_text_needs_two_dragon_sets_already_exposed():
    pay_all = {"seat": "W", "article": "10(a)(3)"}
    one_exposed = {"concealed": "66z777z123m99p", "winning_tile": "6z", "melds": [meld("pong", "555z")]}
    two_exposed = {"concealed": "66z123m99p", "winning_tile": "6z",
                   "melds": [meld("pong", "555z"), meld("pong", "777z")]}
    chinese = reading_as("§8.12", "chinese")
    assert score(jogo(hand=one_exposed, pay_all=pay_all)).valid
    assert [b.article for b in score(jogo(hand=one_exposed, pay_all=pay_all), chinese).breaches] == ["10(a)(3)"]
    assert score(jogo(hand=two_exposed, pay_all=pay_all), chinese).valid
    assert score(jogo(hand=two_exposed, pay_all=pay_all), ZH).valid


# --- the other alternatives the engine scores by ----------------------------------------------------

def test_i1_art_3_a_drawn_jogo_moves_the_bank_only_under_the_other_reading():
    draw = jogo(result="draw", winner=None, discarder=None, hand=None)
    assert score(draw).banker_moves is False
    assert score(draw, reading_as("I-1", "bank_passes")).banker_moves is True


def test_i6_art_7_the_tier_bounds_reading_pays_2x_for_a_two_fan_hand():
    hand = {"concealed": "111m222p777z9s", "winning_tile": "9s", "melds": [meld("pong", "333s")]}
    assert score(jogo(hand=hand)).settlement.share == 100
    assert score(jogo(hand=hand), reading_as("I-6", "tier_bounds")).settlement.share == 50


def test_i7_art_9a4_the_turn_order_reading_lets_the_first_losers_pay_in_full():
    capped = jogo(capital={"E": 5000, "S": 50, "W": 5000, "N": 5000})
    pro_rata = {p.payer: p.amount for p in score(capped).settlement.payments}
    in_turn = {p.payer: p.amount for p in score(capped, reading_as("I-7", "turn_order")).settlement.payments}
    assert pro_rata == {"W": 13, "N": 12, "E": 25}
    assert in_turn == {"W": 25, "N": 25}


def test_i8_art_8_the_whole_commission_reading_lets_a_capped_winner_net_less_than_nothing():
    capped = jogo(capital={"E": 5000, "S": 5, "W": 5000, "N": 5000})
    assert score(capped).settlement.net["S"] == 0
    whole = score(capped, reading_as("I-8", "whole_commission")).settlement
    assert (whole.commission, whole.net["S"]) == (10, -5)
    assert sum(whole.net.values()) + whole.commission == 0


def test_i11_art_6a2_the_any_honours_reading_scores_mixed_one_suit_beside_the_dragon_set():
    hand = {"concealed": "123m456m789m55m77z", "winning_tile": "7z"}
    assert codes(score(jogo(hand=hand))) == ["dragon_set"]
    assert codes(score(jogo(hand=hand), reading_as("I-11", "any_honours"))) == ["dragon_set", "mixed_one_suit"]


# I-18: 789m, pongs of East, West and North and a pair of South, for South in the South round.
SMALL_FOUR_WINDS_ONE_SUIT = {"concealed": "789m111z333z444z2z", "winning_tile": "2z"}


def test_i18_art_6a2_is_registered_with_both_alternatives_and_the_words_of_both_texts():
    entry = reading("I-18")
    assert entry.article == "6(a)(2)"
    assert "sem valerem «fán»" in entry.pt and "Siu sei hei" in entry.pt
    assert "無番之門風牌" in entry.zh and "小四喜" in entry.zh
    assert [(a.name, a.implemented) for a in entry.alternatives] == [("honours_together", True), ("each_set", True)]
    assert DEFAULT.readings["I-18"] == ZH.readings["I-18"] == "honours_together"


def test_i18_art_6a2_a_rule_set_may_adopt_the_each_set_reading():
    each_set = replace(PORTARIA_135_91_M, code="test-i18-each-set", title="Each honour set judged alone",
                       readings={**PORTARIA_135_91_M.readings, "I-18": "each_set"})
    record = jogo(round_wind="S", hand=SMALL_FOUR_WINDS_ONE_SUIT)
    with registered(each_set):
        other = score(record, rule_set("test-i18-each-set"))

    assert (codes(score(record)), score(record).fan) == (["small_four_winds"], 1)
    assert (sorted(codes(other)), other.fan) == (["mixed_one_suit", "small_four_winds"], 2)
    assert (other.rules.code, other.settlement.share) == ("test-i18-each-set", 100)


HEAVENLY_GREEN = dict(variant="simplified", stake=100, capital={"E": 5000, "S": 5000}, winner="E", discarder=None,
                      hand={"concealed": "6z123m", "winning_tile": "6z"}, conditions=["heavenly"])


def test_i13_art_5b1_the_named_tile_reading_scores_the_green_on_a_heavenly_win():
    assert score(jogo(**HEAVENLY_GREEN)).fan == 0
    assert codes(score(jogo(**HEAVENLY_GREEN), reading_as("I-13", "named_tile"))) == ["green_winning_tile"]


def test_i14_art_10b1_the_not_checked_reading_lets_the_winner_hold_the_green():
    record = jogo(variant="simplified", stake=100, capital={"E": 5000, "S": 5000},
                  hand={"concealed": "6z123m", "winning_tile": "6z"}, discarder="E",
                  pay_all={"seat": "E", "article": "10(b)(1)"})
    assert [b.article for b in score(record).breaches] == ["10(b)(1)"]
    assert score(record, reading_as("I-14", "not_checked")).valid


def test_i16_art_10a1_the_any_declared_reading_counts_a_concealed_kong():
    hand = {"concealed": "8889p", "winning_tile": "9p",
            "melds": [meld("pong", "111p"), meld("chow", "234p"), meld("kong", "5555p", exposed=False)]}
    pay_all = {"seat": "W", "article": "10(a)(1)"}
    assert not score(jogo(hand=hand, pay_all=pay_all)).valid
    assert score(jogo(hand=hand, pay_all=pay_all), reading_as("I-16", "any_declared")).valid


# --- decided_by: the readings that decided one jogo -------------------------------------------------

def test_decided_by_names_nothing_for_a_plain_chicken_hand():
    assert decided_by(jogo(), DEFAULT) == ()


def test_decided_by_names_i11_for_one_suit_with_a_concealed_dragon_pong():
    record = jogo(hand={"concealed": "123m456m789m55m77z", "winning_tile": "7z"}, discarder=None)
    decisions = {d.reading.code: d for d in decided_by(record, DEFAULT)}
    assert set(decisions) == {"I-11"}  # a 1-fán share is 2X under both readings of I-6
    i11 = decisions["I-11"]
    assert (i11.adopted, i11.other, i11.result.fan, i11.other_result.fan) == (
        "honours_worth_no_fan", "any_honours", 1, 2)
    assert [i.code for i in i11.other_result.grade.items] == ["dragon_set", "mixed_one_suit"]


def test_decided_by_names_i18_for_one_suit_beside_small_four_winds():
    record = jogo(round_wind="S", hand=SMALL_FOUR_WINDS_ONE_SUIT)
    decisions = {d.reading.code: d for d in decided_by(record, DEFAULT)}
    i18 = decisions["I-18"]
    assert (i18.adopted, i18.other, i18.result.fan, i18.other_result.fan) == ("honours_together", "each_set", 1, 2)
    assert sorted(i.code for i in i18.other_result.grade.items) == ["mixed_one_suit", "small_four_winds"]
    # Read by I-11's other alternative, any honours make wân iat sêk: the same 2 fán. (§8.6: the
    # Chinese 混么 takes the chow 789m as related to a 9, and adds terminals and honours.)
    assert set(decisions) == {"I-11", "I-18", "§8.6"}
    assert decisions["I-11"].other_result.fan == 2


def test_decided_by_under_an_each_set_rule_set_names_i18_the_other_way():
    each_set = DEFAULT.with_readings({"I-18": "each_set"})
    decision = {d.reading.code: d for d in decided_by(jogo(round_wind="S", hand=SMALL_FOUR_WINDS_ONE_SUIT),
                                                      each_set)}["I-18"]
    assert (decision.adopted, decision.other, decision.result.fan, decision.other_result.fan) == (
        "each_set", "honours_together", 2, 1)


def test_decided_by_under_the_chinese_rule_set_names_the_broken_chow_as_refused():
    record = jogo(hand={"concealed": "44m678p234s99s", "winning_tile": "4m", "melds": [meld("pong", "777p")]},
                  pay_all={"seat": "W", "article": "10(a)(5)", "broken_set": "chow"})
    decision = {d.reading.code: d for d in decided_by(record, ZH)}["I-12"]
    assert (decision.adopted, decision.other) == ("pong_only", "any_set_of_three")
    assert not decision.result.valid and decision.other_result.valid
    assert decision.other_result.settlement.payments[0].payer == "W"


# --- the command line --------------------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
LAST_TILE_ON_A_DISCARD = {
    "variant": "conventional", "stake": 25, "round_wind": "E", "capital": EVEN, "result": "win", "winner": "S",
    "discarder": "W", "hand": {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}, "conditions": ["last_tile"]}


def run(*args, stdin=b""):
    return subprocess.run([sys.executable, "-m", "regulation", *args], cwd=REPO, input=stdin, capture_output=True,
                          timeout=60)


def test_cli_rules_lists_every_rule_set_with_its_version_and_title():
    listed = run("rules")
    assert listed.returncode == 0
    from regulation.books import BOOKS  # the classical rule books follow the Portaria's rule sets
    assert listed.stdout.decode().splitlines() == [f"{r.code}\t{r.version}\t{r.title}" for r in (*RULE_SETS, *BOOKS)]


def test_cli_score_under_a_named_rule_set_and_version():
    record = json.dumps(LAST_TILE_ON_A_DISCARD).encode()
    default = run("score", stdin=record)
    named_default = run("score", "--rules", "portaria-135-91-M", stdin=record)
    chinese = run("score", "--rules", "portaria-135-91-M-zh", "--rules-version", "1", stdin=record)
    assert default.returncode == named_default.returncode == chinese.returncode == 0
    assert default.stdout == named_default.stdout
    assert json.loads(default.stdout)["fan"] == 1
    assert json.loads(chinese.stdout)["fan"] == 0  # §8.2: 摸, the last tile drawn
    lines = run("score", "--jsonl", "--rules", "portaria-135-91-M-zh", stdin=record + b"\n" + record + b"\n")
    assert [json.loads(line)["fan"] for line in lines.stdout.splitlines()] == [0, 0]


@pytest.mark.parametrize("args, named", [
    (["--rules", "portaria-52-89-M"], b"no rule set portaria-52-89-M"),
    (["--rules", "portaria-135-91-M", "--rules-version", "7"], b"portaria-135-91-M version 7"),
    (["--rules-version", "1"], b"--rules-version needs --rules"),
])
def test_cli_an_unknown_rule_set_is_refused_with_exit_status_2_and_no_traceback(args, named):
    refused = run("score", *args, stdin=json.dumps(LAST_TILE_ON_A_DISCARD).encode())
    assert refused.returncode == 2 and refused.stdout == b""
    assert named in refused.stderr and b"Traceback" not in refused.stderr


# --- the documents ---------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: r.code)
def test_each_rule_set_has_its_document_naming_every_reading_it_reads_otherwise_than_the_default(rules):
    document = REPO / "docs" / "rules" / f"{rules.code}.md"
    text = document.read_text(encoding="utf-8")
    assert f"`{rules.code}`, version {rules.version}" in text
    assert f"rules/{rules.code}.md" in (REPO / "docs" / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().split(" ")[0]: line for line in text.splitlines() if line.startswith("| ")}
    named = rules.readings if rules is DEFAULT else {
        code: name for code, name in rules.readings.items() if DEFAULT.readings[code] != name}
    for code, name in named.items():
        assert code in rows, code
        assert rules is not DEFAULT or f"`{name}`" in rows[code], code


def every_decision(record, rules) -> set[tuple[str, str]]:
    """Re-score `record` under every implemented alternative of every reading: the slow truth."""
    base = outcome(score(record, rules))
    found = set()
    for entry in READINGS:
        for alternative in entry.alternatives:
            if alternative.implemented and alternative.name != rules.readings[entry.code]:
                if outcome(score(record, rules.with_readings({entry.code: alternative.name}))) != base:
                    found.add((entry.code, alternative.name))
    return found


def test_decided_by_agrees_with_rescoring_every_alternative_on_the_worked_examples():
    # The shortcut (CAN_APPLY skips readings that cannot matter) must never hide a decision.
    examples = REPO / "tests" / "data" / "jogo-examples.jsonl"
    for line in examples.read_text().splitlines():
        if line.strip():
            record = read_record(json.loads(line)["record"])
            for rules in RULE_SETS:
                assert {(d.reading.code, d.other) for d in decided_by(record, rules)} == every_decision(
                    record, rules), json.loads(line)["title"]


@settings(max_examples=150, deadline=None)
@given(won_jogos(), st.sampled_from(RULE_SETS))
def test_decided_by_agrees_with_rescoring_every_alternative_on_any_won_jogo(case, rules):
    record = read_record(case.record)
    assert {(d.reading.code, d.other) for d in decided_by(record, rules)} == every_decision(record, rules)
