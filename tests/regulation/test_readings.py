"""The readings docs/rules.md §9.2 names with no change in behaviour (I-15, I-16, I-17), the reading of
§10 (I-18), and the issue's worked examples of the readings that changed, each in one place with
its article.

The other readings of §9 are tested where their rule lives: I-8 in test_regulation_settlement.py,
I-11 and I-13 in test_regulation_fan.py, I-12, I-14 and the false win with a winning hand in
test_regulation_penalties.py.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given

from regulation import read_record, score
from regulation.rotation import Progress
from regulation.rules import DEFAULT, PORTARIA_135_91_M_ZH
from tests.builders.jogos import record, scored
from tests.strategies import won_jogos

EVEN = {"E": 5000, "S": 5000, "W": 5000, "N": 5000}


def meld(kind, tiles, exposed=True):
    return {"kind": kind, "tiles": tiles, "exposed": exposed}


# --- I-15: a win may complete a sequence on any player's discard (Art. 5(a)(3), 5(a)(6)) ---------

# 345m 678p 111p 99m and 23s waiting on 1s or 4s: the winning 4s completes the chow 234s.
ON_A_CHOW = {"concealed": "345m678p111p99m23s", "winning_tile": "4s"}


@pytest.mark.parametrize("discarder", ["E", "W", "N"], ids=["on-his-left", "opposite", "on-his-right"])
def test_i15_art_5a6_a_win_completes_a_sequence_on_any_players_discard(discarder):
    # Art. 5(a)(3) lets only the player on the discarder's right take a discard to make a
    # sequence; that governs claims made to meld. South may win on East's, West's or North's 4s.
    result = scored(capital=EVEN, winner="S", discarder=discarder, hand=ON_A_CHOW)

    assert result.valid, [b.message for b in result.breaches]
    assert result.fan == 0


def test_i15_claim_priority_still_decides_between_two_players_winning_on_one_discard():
    # Art. 5(a)(6): North's 4s completes South's chow and West's hand; South comes first after
    # North, so South wins, even though the 4s makes a sequence for him.
    result = scored(capital=EVEN, winner="S", discarder="N", hand=ON_A_CHOW, claimants=["W"])

    assert result.valid


# --- I-16: 10(a)(1) counts only sets on view; a concealed kong is not on view --------------------

def test_i16_art_10a1_a_concealed_kong_is_not_an_exposed_set():
    # Pure one suit of círculos: 111p and 234p exposed, 5555p a concealed kong, 888p 99p in hand.
    # Only two sets are on view, so West's discard of the 9p is no 10(a)(1) pay-all.
    hand = {"concealed": "8889p", "winning_tile": "9p",
            "melds": [meld("pong", "111p"), meld("chow", "234p"), meld("kong", "5555p", exposed=False)]}
    result = scored(capital=EVEN, winner="S", discarder="W", hand=hand,
                    pay_all={"seat": "W", "article": "10(a)(1)"})

    assert [(b.code, b.article) for b in result.breaches] == [("pay_all_trigger", "10(a)(1)")]


def test_i16_art_10a1_an_exposed_kong_is_on_view():
    hand = {"concealed": "8889p", "winning_tile": "9p",
            "melds": [meld("pong", "111p"), meld("chow", "234p"), meld("kong", "5555p")]}
    result = scored(capital=EVEN, winner="S", discarder="W", hand=hand,
                    pay_all={"seat": "W", "article": "10(a)(1)"})

    assert result.valid, [b.message for b in result.breaches]
    assert {p.payer for p in result.settlement.payments} == {"W"}


# --- I-17: fewer than four players (simplified): 4 × players jogos make a complete game ---------

def jogos_to_complete(progress: Progress) -> int:
    """Jogos played, every one won by a non-banker (the bank always moves), until the game ends."""
    played = 0
    while not progress.complete:
        progress = progress.after(banker_moves=True)
        played += 1
    return played


@pytest.mark.parametrize("chairs, jogos", [((0, 1), 8), ((0, 2, 3), 12), ((0, 1, 2, 3), 16)],
                         ids=["two", "three", "four"])
def test_i17_art_3_a_complete_game_is_four_jogos_per_seated_player(chairs, jogos):
    # I-1 and I-2 over the seated players only: each round passes the bank once round the
    # occupied chairs, so two players play 8 jogos, three 12, four 16 (with no retentions).
    assert jogos_to_complete(Progress.start(chairs=chairs, banker=chairs[-1])) == jogos


def test_i17_art_3_the_round_wind_advances_when_the_bank_has_passed_the_seated_players():
    progress = Progress.start(chairs=(0, 2, 3), banker=2)
    winds = []
    for _ in range(12):
        winds.append(progress.round_wind)
        progress = progress.after(banker_moves=True)

    assert winds == ["E"] * 3 + ["S"] * 3 + ["W"] * 3 + ["N"] * 3
    assert progress.complete


def test_i17_i1_a_retained_bank_does_not_count_towards_the_round():
    progress = Progress.start(chairs=(0, 1), banker=0)
    progress = progress.after(banker_moves=False)  # the banker wins, or a draw (I-1)

    assert (progress.banker, progress.round_wind) == (0, "E")
    assert jogos_to_complete(progress) == 8


# --- I-18: mixed one suit beside small four winds (Art. 6(a)(2)) -----------------------------------

# South wins in the South round: 789m, pongs of East, West and North (neither South's seat wind
# nor the round's), and a pair of South. The honours are worth no fán one set at a time, but
# together they make small four winds.
SMALL_FOUR_WINDS_ONE_SUIT = {"concealed": "789m111z333z444z2z", "winning_tile": "2z"}


def test_i18_art_6a2_one_suit_beside_small_four_winds_scores_small_four_winds_only():
    # «pedras trunfos ou pedras ventos sem valerem «fán»» (無番之門風牌): honours that make small
    # four winds are worth fán, so the hand is not wân iat sêk: 1 fán, not 2.
    result = scored(capital=EVEN, round_wind="S", hand=SMALL_FOUR_WINDS_ONE_SUIT)

    assert result.valid, [b.message for b in result.breaches]
    assert [(item.code, item.fan, item.article) for item in result.grade.items] == [
        ("small_four_winds", 1, "6(a)(2)")]
    assert result.fan == 1


def test_i18_art_6a2_the_each_set_reading_scores_mixed_one_suit_beside_small_four_winds():
    # The other reading judges each honour set alone: none scores, so wân iat sêk adds 1 fán.
    each_set = DEFAULT.with_readings({"I-18": "each_set"})
    result = score(read_record(record(round_wind="S", hand=SMALL_FOUR_WINDS_ONE_SUIT)), each_set)

    assert sorted(item.code for item in result.grade.items) == ["mixed_one_suit", "small_four_winds"]
    assert result.fan == 2


def test_i18_art_6a2_under_the_any_honours_reading_of_i11_small_four_winds_keeps_mixed_one_suit():
    # I-11's other reading allows any honours in wân iat sêk, so there is nothing for I-18 to take.
    any_honours = DEFAULT.with_readings({"I-11": "any_honours"})
    result = score(read_record(record(round_wind="S", hand=SMALL_FOUR_WINDS_ONE_SUIT)), any_honours)

    assert sorted(item.code for item in result.grade.items) == ["mixed_one_suit", "small_four_winds"]


def test_i18_art_6a2_two_unvalued_wind_pongs_and_a_wind_pair_keep_mixed_one_suit():
    # 789m 456m, pongs of West and North and a pair of East, for South in the South round: no
    # small four winds, no item among the honours, so wân iat sêk stands (I-11, I-18).
    result = scored(capital=EVEN, round_wind="S", hand={"concealed": "456m789m333z444z1z", "winning_tile": "1z"})

    assert [item.code for item in result.grade.items] == ["mixed_one_suit"]
    assert result.fan == 1


def test_i18_art_6a2_small_three_dragons_of_concealed_sets_under_the_chinese_rule_set_is_not_mixed_one_suit():
    # §8.4 under the Chinese text: concealed dragon sets score no dragon set (碰出或槓), yet two
    # of them and a dragon pair still make small three dragons, so the honours are worth fán.
    hand = {"concealed": "123m456m555z666z7z", "winning_tile": "7z"}
    jogo = read_record(record(discarder=None, hand=hand))

    chinese = PORTARIA_135_91_M_ZH
    each_set = chinese.with_readings({"I-18": "each_set"})

    assert [item.code for item in score(jogo, chinese).grade.items] == ["small_three_dragons"]
    assert sorted(item.code for item in score(jogo, each_set).grade.items) == ["mixed_one_suit", "small_three_dragons"]


def test_i18_the_scorer_reads_the_hand_the_same_way():
    line = record(round_wind="S", hand=SMALL_FOUR_WINDS_ONE_SUIT)
    process = subprocess.run([sys.executable, "-m", "regulation", "score"], input=json.dumps(line).encode(),
                             cwd=Path(__file__).resolve().parents[2], capture_output=True, timeout=30)

    assert process.returncode == 0, process.stderr
    output = json.loads(process.stdout)
    assert (output["fan"], [item["code"] for item in output["items"]]) == (1, ["small_four_winds"])


# --- The worked examples -------------------------------------------------------------------

def test_i11_example_one_suit_and_a_red_dragon_pong_scores_the_dragon_set_only():
    # 123m 456m 789m 55m 77z won on 7z: dragon_set, 1 fán (mixed one suit no longer adds one).
    result = scored(capital=EVEN, hand={"concealed": "123m456m789m55m77z", "winning_tile": "7z"})

    assert [item.code for item in result.grade.items] == ["dragon_set"]
    assert result.fan == 1


def test_i8_example_a_winner_with_capital_5_at_25_50_nets_0():
    result = scored(capital={**EVEN, "S": 5}, hand={"concealed": "345m678p234s99m11p", "winning_tile": "1p"})

    assert result.settlement.net["S"] == 0
    assert result.settlement.commission == 5


def test_i12_example_west_pays_all_for_breaking_a_chow():
    # South wins 444m 678p 234s 99s with 777p exposed, on West's 4m, under 10(a)(5).
    hand = {"concealed": "44m678p234s99s", "winning_tile": "4m", "melds": [meld("pong", "777p")]}
    result = scored(capital=EVEN, winner="S", discarder="W", hand=hand,
                    pay_all={"seat": "W", "article": "10(a)(5)", "broken_set": "chow"})

    assert result.valid, [b.message for b in result.breaches]
    assert {p.payer for p in result.settlement.payments} == {"W"}


# --- The command-line scorer gives the same readings (docs/record-format.md) -----------------------------

def test_the_scorer_reads_broken_set_and_applies_i11_i8_i12_line_by_line():
    base = {"variant": "conventional", "stake": 25, "round_wind": "E", "capital": EVEN, "result": "win",
            "winner": "S", "discarder": "W"}
    lines = [
        {**base, "hand": {"concealed": "123m456m789m55m77z", "winning_tile": "7z"}},  # I-11
        {**base, "capital": {**EVEN, "S": 5}, "hand": {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}},  # I-8
        {**base, "hand": {"concealed": "44m678p234s99s", "winning_tile": "4m", "melds": [meld("pong", "777p")]},
         "pay_all": {"seat": "W", "article": "10(a)(5)", "broken_set": "chow"}},  # I-12
    ]
    process = subprocess.run([sys.executable, "-m", "regulation", "score", "--jsonl", "-"],
                             cwd=Path(__file__).resolve().parents[2], capture_output=True, timeout=30,
                             input="\n".join(json.dumps(line) for line in lines).encode())

    assert process.returncode == 0, process.stderr
    i11, i8, i12 = [json.loads(line) for line in process.stdout.splitlines()]
    assert (i11["fan"], [item["code"] for item in i11["items"]]) == (1, ["dragon_set"])
    assert (i8["commission"], i8["net"]["S"]) == (5, 0)
    assert i12["valid"] and i12["payments"] == [{"from": "W", "to": "S", "amount": 100}]
    assert i12["commission"] == 10 and i12["net"] == {"E": 0, "S": 90, "W": -100, "N": 0}


# --- A false win whose hand wins (Art. 10(b)(3), docs/rules.md §6), as a property ---------------------------

@given(won_jogos(pay_all="never"))
def test_art_10b3_a_false_win_whose_hand_is_any_winning_hand_is_refused(case):
    record = {key: case.record[key] for key in ("variant", "stake", "round_wind", "capital", "hand")}
    record.update(result="false_win", false_win={"seat": case.winner})

    result = score(read_record(record))

    assert [b.code for b in result.breaches] == ["false_win_winning_hand"]
    assert result.breaches[0].article == ("10(a)(8)" if case.variant == "conventional" else "10(b)(3)")
    assert result.settlement.payments == ()
