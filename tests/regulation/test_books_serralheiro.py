"""Serralheiro, *Mah-Jong, Regras Básicas* (2003), §10 «Valor das Mãos»: the book's worked
example with its figures, the tables, the limit hands, and every reading's alternative."""
from functools import partial

import pytest

from regulation import MalformedRecord
from regulation.books import book, read_book_record, score_book
from tests.builders.jogos import book_record, kong, player, pong

RULES = book("serralheiro-2003")
record = partial(book_record, banker="E", opener="S", winner="N", winning_tile="3m", winning_from="discard")


# §10(c): North presents 3rd flower, the banker's season, a concealed East kong, exposed pongs of
# 1 and 4 bamboo; the opener is South. The rest of his hand (a chow and a pair) scores nothing.
NORTH_10C = player("12m 55s", [kong("1111z", exposed=False), pong("111s"), pong("444s")], "f3 g1")


def scored(data, rules=RULES):
    return score_book(read_book_record(data), rules)


def seat(result, name):
    return result.to_dict()["players"][name]


def test_serralheiro_10c_north_scores_66_points():
    north = seat(scored(record({"N": NORTH_10C})), "N")
    assert [(p["code"], p["points"], p.get("tiles")) for p in north["points"]] == [
        ("flower", 4, "f3"), ("season", 4, "g1"), ("concealed_kong", 32, "1111z"),
        ("exposed_pong", 4, "111s"), ("exposed_pong", 2, "444s"), ("mah_jong", 20, None)]
    assert north["points_total"] == 66


def test_serralheiro_10c_north_has_3_doubles_wind_and_banker_then_three_pongs():
    north = seat(scored(record({"N": NORTH_10C})), "N")
    assert [(d["code"], d["doubles"]) for d in north["doubles"]] == [("wind_set", 2), ("three_pongs", 1)]
    assert north["doubles_total"] == 3


def test_serralheiro_10c_north_scores_528():
    north = seat(scored(record({"N": NORTH_10C})), "N")
    assert north["score"] == 66 * 2 * 2 * 2 == 528
    assert north["limited_score"] == 528 and north["limit"] == 2000


def test_serralheiro_10c_v_south_and_west_pay_528_east_pays_1056():
    """§10(c)(v) prints «Oeste e Norte»: erratum S-A13, North cannot pay himself; South and West."""
    result = scored(record({"N": NORTH_10C})).to_dict()
    assert {(p["from"], p["to"], p["amount"]) for p in result["payments"]} == {
        ("S", "N", 528), ("W", "N", 528), ("E", "N", 1056)}
    assert result["net"] == {"E": -1056, "S": -528, "W": -528, "N": 2112}


def test_serralheiro_note_9_the_banker_presenting_the_east_kong_earns_3_doubles():
    east = seat(scored(record({"E": NORTH_10C}, winner="E")), "E")
    assert ("wind_set", 3) in [(d["code"], d["doubles"]) for d in east["doubles"]]


def test_serralheiro_10_2nd_b_the_banker_always_takes_one_more_double():
    east = seat(scored(record({"E": NORTH_10C}, winner="E")), "E")
    codes = [d["code"] for d in east["doubles"]]
    assert "banker" in codes and "own_season" in codes  # g1 is East's own season
    # wind 3 + three pongs 1 + own season 1 + banker 1 (note 10's 528 × 2 is an illustration, S-A7)
    assert east["doubles_total"] == 6


def test_serralheiro_s_a7_the_banker_winner_is_paid_his_value_once_by_default():
    result = scored(record({"E": NORTH_10C}, winner="E")).to_dict()
    value = result["players"]["E"]["limited_score"]
    assert {p["amount"] for p in result["payments"]} == {value}
    doubled = scored(record({"E": NORTH_10C}, winner="E", rules={"S-A7": "every_payment_doubled"})).to_dict()
    assert {p["amount"] for p in doubled["payments"]} == {min(2 * value, 4000)}


def test_serralheiro_10c_iv_limit_is_2000_and_4000_with_the_banker():
    """S-A12: the book's example limit; a payment to or from the banker at most 4,000."""
    big = player("234p 1m", [kong("5555z", exposed=False), kong("6666z", exposed=False), pong("777z")], "")
    result = scored(record({"N": big}, winning_tile="1m")).to_dict()
    north = result["players"]["N"]
    assert north["score"] > 4000 or north["limit_hand"] is not None
    assert north["limited_score"] == 2000
    assert {(p["from"], p["amount"]) for p in result["payments"]} == {("E", 4000), ("S", 2000), ("W", 2000)}


def test_serralheiro_s_a12_without_a_limit_the_value_is_paid_in_full():
    hand = player("789p 1m", [kong("2222z", exposed=False), kong("3333z", exposed=False), pong("999s")])
    limited = scored(record({"N": hand}, winning_tile="1m")).to_dict()["players"]["N"]
    free = scored(record({"N": hand}, winning_tile="1m", rules={"S-A12": "no_limit"})).to_dict()["players"]["N"]
    assert limited["limited_score"] == 2000 and free["limit"] is None
    assert free["limited_score"] == free["score"] > 2000


def test_serralheiro_10c_vi_losers_settle_differences_the_banker_paying_double():
    players = {"N": NORTH_10C,
               "S": player("234m 567p 88s 99m", [pong("999p")]),  # 4 points
               "W": player("345m 789p 22s 11m", [pong("666p")]),  # 2 points
               "E": player("456m 789s 33p 22m", [pong("555p")])}  # 2 points, ×2 for the banker: 4
    result = scored(record(players)).to_dict()
    assert result["players"]["S"]["limited_score"] == 4
    assert result["players"]["W"]["limited_score"] == 2
    assert result["players"]["E"]["limited_score"] == 4
    between = {(p["from"], p["to"], p["amount"]) for p in result["payments"] if p["section"] == "§10(c)(vi)"}
    assert between == {("W", "S", 2), ("W", "E", 2)}  # S and E equal: nothing between them


def test_serralheiro_s_a1_an_unprivileged_wind_pong_earns_one_double_by_default():
    hand = player("123m 456p 7s", [pong("333z"), pong("222p")])  # West's wind, held by North
    data = record({"N": hand}, winning_tile="7s", opener="E")
    doubles = seat(scored(data), "N")["doubles"]
    assert ("wind_set", 1) in [(d["code"], d["doubles"]) for d in doubles]
    data["rules"] = {"S-A1": "no_double"}
    assert "wind_set" not in [d["code"] for d in seat(scored(data), "N")["doubles"]]


def test_serralheiro_s_a2_three_privileges_make_at_most_3_doubles_by_default():
    hand = player("123m 456p 7s", [pong("111z"), pong("222p")])
    data = record({"E": hand}, winner="E", winning_tile="7s", opener="E")  # banker, opener, own wind
    assert ("wind_set", 3) in [(d["code"], d["doubles"]) for d in seat(scored(data), "E")["doubles"]]
    data["rules"] = {"S-A2": "four"}
    assert ("wind_set", 4) in [(d["code"], d["doubles"]) for d in seat(scored(data), "E")["doubles"]]


def test_serralheiro_s_a3_any_wind_pair_scores_2_by_default():
    hand = player("123m 456p 789s 3z", [pong("222p")])  # a pair of West for North, opener South
    data = record({"N": hand}, winning_tile="3z")
    assert ("pair", 2) in [(p["code"], p["points"]) for p in seat(scored(data), "N")["points"]]
    data["rules"] = {"S-A3": "privileged_wind"}
    assert "pair" not in [p["code"] for p in seat(scored(data), "N")["points"]]


def test_serralheiro_s_a4_the_opener_flower_earns_2_and_4_when_the_opener_holds_his_own():
    hand = player("123m 456p 789s 5m", [pong("222p")], "f2")
    data = record({"S": hand}, winner="S", winning_tile="5m", opener="S")
    assert ("opener_flower", 2) in [(d["code"], d["doubles"]) for d in seat(scored(data), "S")["doubles"]]
    data["rules"] = {"S-A4": "four_for_opener"}
    assert ("opener_flower", 4) in [(d["code"], d["doubles"]) for d in seat(scored(data), "S")["doubles"]]


def test_serralheiro_10_flower_bouquet_is_2_doubles():
    hand = player("123m 456p 789s 5m", [pong("222p")], "f1 f2 f3 f4")
    doubles = seat(scored(record({"N": hand}, winning_tile="5m", opener="E")), "N")["doubles"]
    assert ("flower_bouquet", 2) in [(d["code"], d["doubles"]) for d in doubles]


def test_serralheiro_pinderico_pure_suit_pongs_and_chows_is_3_doubles():
    hand = player("123m 456m 789m 9m", [pong("222m")])
    doubles = seat(scored(record({"N": hand}, winning_tile="9m")), "N")["doubles"]
    assert [(d["code"], d["doubles"]) for d in doubles] == [("pinderico", 3)]


def test_serralheiro_s_a5_one_family_is_a_suit_with_honours_and_does_not_add_to_pinderico():
    honours = player("123m 456m 789m 5z", [pong("222m")])
    doubles = seat(scored(record({"N": honours}, winning_tile="5z")), "N")["doubles"]
    assert ("one_family", 1) in [(d["code"], d["doubles"]) for d in doubles]
    pure = record({"N": player("123m 456m 789m 9m", [pong("222m")])}, winning_tile="9m",
                  rules={"S-A5": "stacks_with_pinderico"})
    assert [(d["code"], d["doubles"]) for d in seat(scored(pure), "N")["doubles"]] == [
        ("one_family", 1), ("pinderico", 3)]


def test_serralheiro_s_a6_esquisito_needs_dragons_and_winds_by_default():
    hand = player("123m 456p 789s 3z", [pong("222p")])  # three suits and a wind pair only
    data = record({"N": hand}, winning_tile="3z")
    assert "esquisito" not in [d["code"] for d in seat(scored(data), "N")["doubles"]]
    data["rules"] = {"S-A6": "any_honours"}
    assert "esquisito" in [d["code"] for d in seat(scored(data), "N")["doubles"]]


def test_serralheiro_s_a8_three_concealed_pongs_earn_the_highest_row_by_default():
    hand = player("111m 555p 999s 4m")  # all concealed; won on a discard pairing the 4m
    data = record({"N": {**hand, "melds": [{"kind": "chow", "tiles": "234s", "exposed": True}]}},
                  winning_tile="4m")
    rows = [d["code"] for d in seat(scored(data), "N")["doubles"]]
    assert "three_concealed_pongs" in rows and "three_pongs" not in rows
    data["rules"] = {"S-A8": "rows_add"}
    rows = [d["code"] for d in seat(scored(data), "N")["doubles"]]
    assert "three_concealed_pongs" in rows and "three_pongs" in rows


def test_serralheiro_s_a9_a_concealed_hand_won_on_a_discard_earns_2_doubles_by_default():
    data = record({"N": player("123m 456p 789s 234m 5p")}, winning_tile="5p")
    assert ("concealed_hand", 2) in [(d["code"], d["doubles"]) for d in seat(scored(data), "N")["doubles"]]
    data["rules"] = {"S-A9": "self_drawn_only"}
    assert "concealed_hand" not in [d["code"] for d in seat(scored(data), "N")["doubles"]]


def test_serralheiro_s_a10_fulminante_a_win_on_the_banker_discard_is_a_limit_hand():
    data = record({"N": player("123m 456p 789s 234m 5p")}, winning_tile="5p", discarder="E")
    north = seat(scored(data), "N")
    assert north["limit_hand"]["code"] == "fulminante" and north["limited_score"] == 2000
    data["rules"] = {"S-A10": "first_discard_only"}
    with pytest.raises(MalformedRecord, match="cannot be scored"):
        scored(data)


def test_serralheiro_s_a11_a_loser_takes_only_the_doubles_of_his_sets_by_default():
    players = {"N": NORTH_10C, "S": player("123m 456m 55z 89m", [pong("777m")])}  # one suit with honours
    loser = seat(scored(record(players)), "S")
    assert "one_family" not in [d["code"] for d in loser["doubles"]]
    all_doubles = seat(scored(record(players, rules={"S-A11": "all_doubles"})), "S")
    assert "one_family" in [d["code"] for d in all_doubles["doubles"]]


def test_serralheiro_s_a14_the_numbers_read_with_north_and_south_swapped():
    hand = player("123m 456p 789s 5m", [pong("222p")], "f2")
    data = record({"N": hand}, winning_tile="5m", opener="E")
    assert "own_flower" not in [d["code"] for d in seat(scored(data), "N")["doubles"]]
    data["rules"] = {"S-A14": "north_south_swapped"}
    assert "own_flower" in [d["code"] for d in seat(scored(data), "N")["doubles"]]


def test_serralheiro_s_a15_a_pong_completed_by_the_discard_is_exposed_by_default():
    hand = player("123m 456s 789s 11m 55p")  # the 5p discard makes the pong
    data = record({"N": hand}, winning_tile="5p")
    points = [(p["code"], p["points"]) for p in seat(scored(data), "N")["points"]]
    assert ("exposed_pong", 2) in points
    data["rules"] = {"S-A15": "concealed"}
    points = [(p["code"], p["points"]) for p in seat(scored(data), "N")["points"]]
    assert ("concealed_pong", 4) in points


def test_serralheiro_s_a16_a_flower_replacement_cannot_be_scored():
    with pytest.raises(MalformedRecord, match="cannot be scored"):
        RULES.with_readings({"S-A16": "flower_replacement_too"})


def test_serralheiro_10b_winning_on_the_dragon_head_tile_is_1_double():
    data = record({"N": player("123m 456p 789s 5m", [pong("222p")])}, winning_tile="5m",
                  winning_from="kong_replacement")
    assert ("dragon_head_tile", 1) in [(d["code"], d["doubles"]) for d in seat(scored(data), "N")["doubles"]]


def test_serralheiro_maravilhas_the_thirteen_orphans_is_a_limit_hand():
    data = record({"N": player("19m19p19s1234567z")}, winning_tile="1m")
    result = scored(data).to_dict()
    assert result["players"]["N"]["limit_hand"] == {"code": "wonders", "section": "§10, Organização de alguns jogos"}
    assert result["net"]["N"] == 2000 + 2000 + 4000


def test_serralheiro_pares_na_regua_seven_pairs_of_one_suit_and_honours_is_half_the_limit():
    data = record({"N": player("1133557799m55z7z")}, winning_tile="7z")
    north = seat(scored(data), "N")
    assert north["limit_hand"]["code"] == "seven_pairs_honours_mixed" and north["limited_score"] == 1000


def test_serralheiro_seven_pairs_of_mixed_suits_is_not_a_winning_hand():
    result = scored(record({"N": player("1133m5577p99s55z7z")}, winning_tile="7z")).to_dict()
    assert result["valid"] is False and result["errors"][0]["code"] == "not_a_winning_hand"
    assert result["payments"] == [] and set(result["net"].values()) == {0}


def test_serralheiro_three_dragon_pongs_is_a_limit_hand():
    data = record({"N": player("123m 4p", [pong("555z"), pong("666z"), pong("777z")])}, winning_tile="4p")
    assert seat(scored(data), "N")["limit_hand"]["code"] == "three_dragons_or_four_winds"


def test_serralheiro_the_same_run_of_seven_in_two_suits_is_a_limit_hand():
    data = record({"N": player("1234567m 123456p")}, winning_tile="7p")
    assert seat(scored(data), "N")["limit_hand"]["code"] == "twin_sequences"


def test_serralheiro_jogo_em_cabecas_pongs_of_ones_and_nines_is_a_limit_hand():
    data = record({"N": player("9s", [pong("111m"), pong("999p"), pong("111s"), pong("999m")])}, winning_tile="9s")
    assert seat(scored(data), "N")["limit_hand"]["code"] == "heads"
    data = record({"N": player("5z", [pong("111m"), pong("999p"), pong("111s"), pong("999m")])}, winning_tile="5z")
    north = seat(scored(data), "N")
    assert north["limit_hand"]["code"] == "heads_with_honours" and north["limited_score"] == 1000


def test_serralheiro_grande_sequencia_is_a_limit_hand():
    data = record({"N": player("123456789s 111s 9s")}, winning_tile="9s", winning_from="self_drawn")
    assert seat(scored(data), "N")["limit_hand"]["code"] == "grand_sequence"


def test_serralheiro_s_a13_the_misprinted_payers_cannot_be_scored():
    with pytest.raises(MalformedRecord, match="cannot be scored"):
        RULES.with_readings({"S-A13": "as_printed"})


# --- Four of a kind in the rack: §9(a) «os congues … apenas contam com 3 pedras cada. Por esta razão,
# há que comprar … uma pedra da cabeça do dragão». A kong is made by taking that tile; four of a kind
# among 13 tiles (no tile taken) was never made a kong. ---

def test_serralheiro_9a_a_losers_four_of_a_kind_never_made_a_kong_is_a_pong_in_the_rack():
    south = seat(scored(record({"N": NORTH_10C, "S": player("2222z 1357m 246p 59s", [])})), "S")
    assert [(p["code"], p["points"]) for p in south["points"]] == [("concealed_pong", 8)]


def test_serralheiro_9a_a_winner_whose_four_of_a_kind_leaves_no_complete_hand_is_told_to_write_a_kong():
    data = record({"N": player("2222z 123m 456m 789p")}, winning_tile="9p")
    with pytest.raises(MalformedRecord) as refused:
        scored(data)
    assert refused.value.field == "players.N.concealed"
    assert "four 2z" in str(refused.value) and "among the melds" in str(refused.value)
    assert "§9(a)" in str(refused.value)
