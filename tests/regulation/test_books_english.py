"""The English booklet "Mah Jong Rules": its "Examples of Score" (Figs. 11–17) and the "36
doubled three times is 288" of "Concerning winning hands", with the booklet's own figures (its
misprints corrected, as erratum E-A7 says), and every reading's alternative.

Each figure gives two columns: the sets laid on the table, and the same sets held in hand.
"""
from functools import partial

import pytest

from regulation import MalformedRecord
from regulation.books import book, read_book_record, score_book
from tests.builders.jogos import book_record, kong, player, pong as pung

RULES = book("english-booklet")
record = partial(book_record, winner="S", winning_tile="8m", winning_from="discard")


def scored(data, rules=RULES):
    return score_book(read_book_record(data), rules)


def winner(data, rules=RULES):
    result = scored(data, rules).to_dict()
    assert result["valid"], result["errors"]
    return result["players"][data["winner"]]


def codes(items):
    return [i["code"] for i in items]


# Fig. 11: three 1 circles, three 2 bamboos, a pair of red dragons, and two straights.
FIG_11_TABLE = player("77z 345m 67m", [pung("111p"), pung("222s")])
FIG_11_HAND = player("111p 222s 77z 345m 67m")


def test_english_fig_11_on_table_scores_18():
    assert winner(record({"S": FIG_11_TABLE}))["points_total"] == 4 + 2 + 2 + 10 == 18


def test_english_fig_11_in_hand_scores_24():
    assert winner(record({"S": FIG_11_HAND}))["points_total"] == 8 + 4 + 2 + 10 == 24


def test_english_fig_11_drawn_from_the_wall_adds_2_and_the_only_place_adds_2():
    drawn = winner(record({"S": FIG_11_TABLE}, winning_from="self_drawn"))
    assert drawn["points_total"] == 20 and "self_drawn" in codes(drawn["points"])
    only = winner(record({"S": FIG_11_TABLE}, winning_from="self_drawn", only_possible_tile=True))
    assert only["points_total"] == 22 and "only_piece" in codes(only["points"])


FIG_12 = player("123m 456p 789s 234s 5m")


def test_english_fig_12_entirely_no_points_scores_20():
    north = winner(record({"S": FIG_12}, winning_tile="5m"))
    assert [(p["code"], p["points"]) for p in north["points"]] == [("basal", 10), ("no_points", 10)]
    assert north["score"] == 20


# Fig. 13: three 1 circles, the rest circles, and a pair of West wind.
FIG_13_TABLE = player("234p 567p 789p 3z", [pung("111p")])
FIG_13_HAND = player("111p 234p 567p 789p 3z")


def test_english_fig_13_one_suit_with_honours_doubles_once_28_and_36():
    table = winner(record({"S": FIG_13_TABLE}, winning_tile="3z"))
    hand = winner(record({"S": FIG_13_HAND}, winning_tile="3z"))
    assert (table["points_total"], table["score"]) == (14, 28)
    assert (hand["points_total"], hand["score"]) == (18, 36)
    assert codes(table["doubles"]) == ["one_suit_with_honours"]


def test_english_fig_13_west_winning_adds_2_for_his_own_wind_pair_32_and_40():
    table = winner(record({"W": FIG_13_TABLE}, winner="W", winning_tile="3z", discarder="N"))
    hand = winner(record({"W": FIG_13_HAND}, winner="W", winning_tile="3z", discarder="N"))
    assert (table["score"], hand["score"]) == (32, 40)


def test_english_fig_14_green_dragons_and_one_suit_64_and_80():
    table = winner(record({"S": player("123m 456m 789m 5z", [pung("666z")])}, winning_tile="5z"))
    hand = winner(record({"S": player("666z 123m 456m 789m 5z")}, winning_tile="5z"))
    assert (table["points_total"], table["score"]) == (16, 64)
    assert (hand["points_total"], hand["score"]) == (20, 80)
    assert codes(table["doubles"]) == ["dragon_set", "one_suit_with_honours"]


def test_english_fig_15_purely_one_group_doubles_3_times_128_and_176():
    table = winner(record({"S": player("456s 78s 11s", [pung("333s"), pung("999s")])}, winning_tile="6s"))
    hand = winner(record({"S": player("333s 999s 456s 78s 11s")}, winning_tile="6s"))
    assert (table["points_total"], table["score"]) == (16, 128)
    assert (hand["points_total"], hand["score"]) == (22, 176)
    assert [(d["code"], d["doubles"]) for d in table["doubles"]] == [("pure_one_suit", 3)]


def test_english_fig_16_erratum_e_a7_the_on_table_total_is_18_not_16_144_and_208():
    """Fig. 16 prints 16 for 4 + 4 + 10 but doubles 18 (36, 72, 144); its "4 White Dragons" is a
    pung ("Doubling once for 3 White Dragons")."""
    table = winner(record({"S": player("123m 456m 4z", [pung("555z"), pung("666z")])}, winning_tile="4z"))
    hand = winner(record({"S": player("555z 666z 123m 456m 4z")}, winning_tile="4z"))
    assert (table["points_total"], table["score"]) == (18, 144)
    assert (hand["points_total"], hand["score"]) == (26, 208)


def test_english_fig_16_north_winning_adds_2_for_his_own_wind_pair_160_and_224():
    table = winner(record({"N": player("123m 456m 4z", [pung("555z"), pung("666z")])}, winner="N",
                          winning_tile="4z"))
    hand = winner(record({"N": player("555z 666z 123m 456m 4z")}, winner="N", winning_tile="4z"))
    assert (table["score"], hand["score"]) == (160, 224)


FIG_17_TABLE = player("9m", [kong("5555z"), pung("777z"), pung("666z"), pung("111z")])
FIG_17_HAND = player("777z 666z 111z 9m", [kong("5555z", exposed=False)])


def test_english_fig_17_erratum_e_a7_unlimited_48_and_76_then_768_and_1216():
    """Fig. 17 prints "6" for the exposed kong's 16."""
    table = winner(record({"S": FIG_17_TABLE}, winning_tile="9m"))
    hand = winner(record({"S": FIG_17_HAND}, winning_tile="9m"))
    assert (table["points_total"], table["score"]) == (48, 768)
    assert (hand["points_total"], hand["score"]) == (76, 1216)
    assert codes(table["doubles"]) == ["dragon_set"] * 3 + ["one_suit_with_honours"]


def test_english_fig_17_east_winning_doubles_again_1536_and_2432():
    table = winner(record({"E": FIG_17_TABLE}, winner="E", winning_tile="9m"))
    hand = winner(record({"E": FIG_17_HAND}, winner="E", winning_tile="9m"))
    assert (table["score"], hand["score"]) == (1536, 2432)


def test_english_section_vi_4_all_the_dragons_is_full_score_300():
    south = winner(record({"S": FIG_17_TABLE}, winning_tile="9m"))
    assert south["limit_hand"] == {"code": "all_dragons", "section": "Section VI 4"}
    assert south["limited_score"] == 300


def test_english_e_a2_east_receives_double_the_300_by_default():
    result = scored(record({"E": FIG_17_TABLE}, winner="E", winning_tile="9m")).to_dict()
    assert {p["amount"] for p in result["payments"]} == {600}
    capped = scored(record({"E": FIG_17_TABLE}, winner="E", winning_tile="9m",
                           rules={"E-A2": "payment_capped"})).to_dict()
    assert {p["amount"] for p in capped["payments"]} == {300}


def test_english_concerning_winning_hands_36_doubled_three_times_is_288():
    hand = player("234p 5p", [kong("7777z"), pung("222z"), pung("111p")])
    south = winner(record({"S": hand}, winning_tile="5p", winning_from="self_drawn"))
    assert south["points_total"] == 16 + 4 + 4 + 10 + 2 == 36
    assert codes(south["doubles"]) == ["dragon_set", "own_wind_set", "one_suit_with_honours"]
    assert south["score"] == 288


def test_english_section_vi_1_the_winner_is_paid_his_whole_score_and_east_pays_double():
    result = scored(record({"S": FIG_11_TABLE})).to_dict()
    assert {(p["from"], p["amount"]) for p in result["payments"]} == {("E", 36), ("W", 18), ("N", 18)}


def test_english_section_vi_1_losers_settle_the_difference_east_double():
    players = {"S": FIG_11_TABLE, "N": player("234m 567s 99p 13s", [pung("888p")]),  # 2 points
               "E": player("234s 567s 11m 39p", [pung("444p")])}  # 2 points
    result = scored(record(players)).to_dict()
    between = {(p["from"], p["to"], p["amount"]) for p in result["payments"] if p["to"] != "S"}
    assert between == {("W", "N", 2), ("W", "E", 4)}  # W holds nothing; E receives double


def test_english_section_x_own_flower_doubles_once_and_a_complete_set_twice():
    own = winner(record({"S": {**FIG_11_TABLE, "flowers": "f2 f3"}}))
    assert own["points_total"] == 18 + 8
    assert [(d["code"], d["doubles"]) for d in own["doubles"]] == [("own_flower", 1)]
    bouquet = winner(record({"S": {**FIG_11_TABLE, "flowers": "f1 f2 f3 f4 g1 g2 g3 g4"}}))
    assert [(d["code"], d["doubles"]) for d in bouquet["doubles"]] == [("flower_set", 2), ("season_set", 2)]


def test_english_e_a1_a_loser_dragon_pung_doubles_by_default():
    players = {"S": FIG_11_TABLE, "N": player("234m 567s 99p 13s", [pung("555z")])}
    loser = scored(record(players)).to_dict()["players"]["N"]
    assert codes(loser["doubles"]) == ["dragon_set"] and loser["score"] == 8
    loser = scored(record(players, rules={"E-A1": "winning_hands_only"})).to_dict()["players"]["N"]
    assert loser["doubles"] == [] and loser["score"] == 4


def test_english_e_a3_extra_scores_double_instead_of_adding_10():
    south = winner(record({"S": FIG_12}, winning_tile="5m", rules={"E-A3": "double"}))
    assert codes(south["points"]) == ["basal"] and codes(south["doubles"]) == ["no_points"]
    assert south["score"] == 20


def test_english_e_a4_a_flower_is_a_point_for_entirely_no_points_by_default():
    flowered = {**FIG_12, "flowers": "f3"}
    assert "no_points" not in codes(winner(record({"S": flowered}, winning_tile="5m"))["points"])
    aside = winner(record({"S": flowered}, winning_tile="5m", rules={"E-A4": "flowers_aside"}))
    assert "no_points" in codes(aside["points"])


def test_english_e_a6_a_pung_completed_by_the_discard_is_on_table_by_default():
    hand = player("111p 22s 77z 345m 678m")  # the 2s discard makes the pung
    assert winner(record({"S": hand}, winning_tile="2s"))["points_total"] == 8 + 2 + 2 + 10
    assert winner(record({"S": hand}, winning_tile="2s", rules={"E-A6": "in_hand"}))["points_total"] == 8 + 4 + 2 + 10


def test_english_e_a8_a_round_wind_pung_doubles_only_under_the_alternative():
    hand = player("123m 456p 789s 5m", [pung("333z")])
    assert "round_wind_set" not in codes(winner(record({"S": hand}, winning_tile="5m", round_wind="W"))["doubles"])
    doubled = winner(record({"S": hand}, winning_tile="5m", round_wind="W", rules={"E-A8": "round_wind_doubles"}))
    assert "round_wind_set" in codes(doubled["doubles"])


def test_english_e_a9_a_loser_dragon_pair_scores_2_by_default():
    players = {"S": FIG_11_TABLE, "N": player("234m 567s 99p 55z 1s", [])}
    players["N"]["concealed"] = "234m 567s 99p 55z 13s 9m"
    assert scored(record(players)).to_dict()["players"]["N"]["points_total"] == 2
    only = scored(record(players, rules={"E-A9": "winner_only"})).to_dict()["players"]["N"]
    assert only["points_total"] == 0


@pytest.mark.parametrize("code, name", [("E-A5", "single_reading_only"), ("E-A7", "as_printed"),
                                        ("E-A10", "per_combination")])
def test_english_readings_the_record_cannot_decide_are_refused(code, name):
    with pytest.raises(MalformedRecord, match="cannot be scored"):
        RULES.with_readings({code: name})


def test_english_seven_pairs_is_not_a_winning_hand_in_the_booklet():
    result = scored(record({"S": player("1133m5577p99s55z7z")}, winning_tile="7z")).to_dict()
    assert not result["valid"] and result["errors"][0]["code"] == "not_a_winning_hand"


# --- Four of a kind in hand: "Any player who has Kong (either Open or Close) must draw one card more
# from the 'Loose Cards' … (4 of a kind is to be treated as a set of threes)". Four of a kind among
# 13 tiles (no loose card drawn) was never declared a kong. ---

def test_english_a_losers_four_of_a_kind_never_declared_is_a_pung_in_hand():
    table = {"S": FIG_11_TABLE, "N": player("3333z 1357m 246p 59s", [])}
    north = scored(record(table)).to_dict()["players"]["N"]
    assert [(p["code"], p["points"]) for p in north["points"]] == [("concealed_pong", 8)]


def test_english_a_winner_whose_four_of_a_kind_leaves_no_complete_hand_is_told_to_declare_the_kong():
    data = record({"S": player("2222z 123m 456m 789p")}, winning_tile="9p")
    with pytest.raises(MalformedRecord) as refused:
        scored(data)
    assert refused.value.field == "players.S.concealed"
    assert "four 2z" in str(refused.value) and "among the melds" in str(refused.value)
    assert "Object of the game, 3" in str(refused.value)
