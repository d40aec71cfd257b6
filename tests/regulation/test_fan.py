"""Fán items and the grade (Art. 6; docs/rules.md §4, I-3, I-4, I-5).

Every expected value below is worked out by hand from docs/rules.md; the comment above each
assertion shows the reading. Default seating: South wins on West's discard in the East round,
so the round wind is 1z (East) and the winner's seat wind is 2z (South).
"""
from __future__ import annotations

import pytest
from hypothesis import assume, given, strategies as st

from regulation import read_record, score
from tests.builders.jogos import kong, pong, win

# docs/rules.md §4: every item's fán and article, as the tables give them.
CONVENTIONAL_TABLE = {
    **{code: (1, "6(a)(2)") for code in (
        "dragon_set", "round_wind_set", "seat_wind_set", "robbing_kong", "kong_replacement",
        "all_pongs", "all_chows", "mixed_one_suit", "last_tile", "small_three_dragons",
        "small_four_winds", "terminals_and_honours")},
    **{code: (2, "6(a)(3)") for code in (
        "heavenly", "earthly", "double_wind_set", "kong_upon_kong", "mixed_one_suit_all_chows",
        "pure_one_suit", "thirteen_orphans", "concealed_pongs", "big_three_dragons",
        "big_four_winds", "pure_terminals", "all_honours")},
}
SIMPLIFIED_TABLE = {code: (1, "6(b)(2)") for code in ("robbing_kong", "last_tile", "green_winning_tile")}


def graded(record: dict):
    result = score(read_record(record))
    assert result.valid, [b.message for b in result.breaches]
    return result


def assert_items(result, expected: list[str]) -> None:
    """The items scored, repeats included, each with the fán and article of docs/rules.md §4."""
    table = CONVENTIONAL_TABLE if result.jogo.variant == "conventional" else SIMPLIFIED_TABLE
    assert sorted(item.code for item in result.grade.items) == sorted(expected)
    for item in result.grade.items:
        assert (item.fan, item.article) == table[item.code], item


# --- Chicken hand and I-3 -----------------------------------------------------------------

def test_art_6a1_chicken_hand_scores_no_item_and_grade_zero():
    # 345m 678p 234s chows, 111p pong (not valued), 99m pair: no item.
    result = graded(win("345m678p234s99m11p", "1p"))

    assert_items(result, [])
    assert result.fan == 0
    assert result.as_dict()["items"] == []


@pytest.mark.parametrize("pair, what", [("5z", "white dragon"), ("7z", "red dragon"),
                                        ("1z", "round wind East"), ("2z", "seat wind South")])
def test_i3_all_chows_with_a_valued_pair_is_a_chicken_hand(pair, what):
    # 345m 678p 234s 567s + a pair of the {what}: all_chows excludes that pair, and the pair
    # alone scores nothing, so grade 0 (I-3).
    result = graded(win(f"345m678p234s567s{pair[0]}z", pair))

    assert_items(result, [])
    assert result.fan == 0


def test_a_pong_of_a_wind_that_is_neither_round_nor_seat_scores_nothing():
    # North pong for South in the East round: no wind item; 3 chows + pong: chicken.
    result = graded(win("345m678p234s99m44z", "4z"))

    assert_items(result, [])
    assert result.fan == 0


# --- Art. 6(a)(2): one fán each ------------------------------------------------------------

def test_art_6a2_dragon_set_scores_one_fan():
    # 777z pong + 345m 678p 234s + 99m: dragon_set = 1.
    result = graded(win("345m678p234s99m77z", "7z"))

    assert_items(result, ["dragon_set"])
    assert result.fan == 1


def test_art_6a2_dragon_set_scores_one_fan_per_set():
    # 555z + 777z pongs, 345m 678p, 99s: dragon_set twice = 2.
    result = graded(win("345m678p99s555z77z", "7z"))

    assert_items(result, ["dragon_set", "dragon_set"])
    assert result.fan == 2


def test_art_6a2_a_dragon_kong_is_a_dragon_set():
    # Exposed 6666z kong + 345m 678p 234s + 99m: dragon_set = 1.
    result = graded(win("345m678p234s9m", "9m", melds=[kong("6666z")]))

    assert_items(result, ["dragon_set"])
    assert result.fan == 1


def test_art_6a2_round_wind_set_scores_one_fan():
    # South round, West wins: 222z is the round wind, not West's seat wind.
    result = graded(win("345m678p234s99m22z", "2z", round_wind="S", winner="W", discarder="N"))

    assert_items(result, ["round_wind_set"])
    assert result.fan == 1


def test_art_6a2_seat_wind_set_scores_one_fan():
    # East round, West wins: 333z is West's seat wind, not the round wind.
    result = graded(win("345m678p234s99m33z", "3z", winner="W", discarder="N"))

    assert_items(result, ["seat_wind_set"])
    assert result.fan == 1


def test_art_6a2_seat_wind_is_relative_to_the_banker():
    # East round, West wins with a South pong: South is neither his seat nor the round.
    result = graded(win("345m678p234s99m22z", "2z", winner="W", discarder="N"))

    assert_items(result, [])
    assert result.fan == 0


def test_art_6a2_robbing_kong_scores_one_fan():
    # Chicken hand 345m 678p 234s 111p 99m, won on the 4s West adds to his pong.
    result = graded(win("345m678p23s111p99m", "4s", conditions=["robbing_kong"]))

    assert_items(result, ["robbing_kong"])
    assert result.fan == 1


def test_art_6a2_kong_replacement_scores_one_fan():
    # Exposed 1111p kong, 345m 678p 234s 99m, self-drawn on the replacement tile.
    result = graded(win("345m678p23s99m", "4s", melds=[kong("1111p")], discarder=None,
                        conditions=["kong_replacement"]))

    assert_items(result, ["kong_replacement"])
    assert result.fan == 1


def test_art_6a2_all_pongs_scores_one_fan():
    # 222m 333p 444s 888m + 55p, won on a discard: all_pongs = 1 (no chow reading exists).
    result = graded(win("222m333p444s888m5p", "5p"))

    assert_items(result, ["all_pongs"])
    assert result.fan == 1


def test_art_6a2_all_pongs_counts_kongs_as_pongs():
    # Exposed 2222m kong + 333p 444s 888m + 55p.
    result = graded(win("333p444s888m5p", "5p", melds=[kong("2222m")]))

    assert_items(result, ["all_pongs"])
    assert result.fan == 1


@pytest.mark.parametrize("pair", ["5p", "4z"])
def test_art_6a2_all_chows_scores_one_fan(pair):
    # 345m 678p 234s 567s + a pair of 5p, or of North (neither round nor seat wind).
    result = graded(win(f"345m678p234s567s{pair[0]}{pair[1]}", pair))

    assert_items(result, ["all_chows"])
    assert result.fan == 1


def test_art_6a2_mixed_one_suit_scores_one_fan():
    # 123m 456m 789m + 444z (North, not valued) + 55m: números and honours only.
    result = graded(win("123m456m789m444z5m", "5m"))

    assert_items(result, ["mixed_one_suit"])
    assert result.fan == 1


def test_i11_art_6a2_one_suit_with_a_dragon_pong_is_not_mixed_one_suit():
    # I-11: «sem valerem fán ou fán dobrado» (ZH 無番之門風牌): the honours of wân iat sêk are
    # worth no fán. 123m 456m 789m + 55m + 777z won on 7z: dragon_set only, 1 fán (not 2).
    result = graded(win("123m456m789m55m77z", "7z"))

    assert_items(result, ["dragon_set"])
    assert result.fan == 1


@pytest.mark.parametrize("wind, winner, discarder, round_wind, item", [
    ("2z", "S", "W", "E", "seat_wind_set"),  # South's own wind, East round
    ("1z", "S", "W", "E", "round_wind_set"),  # the round wind
    ("1z", "E", "S", "E", "double_wind_set"),  # East's seat wind in the East round
], ids=["seat-wind", "round-wind", "double-wind"])
def test_i11_art_6a2_one_suit_with_a_seat_or_round_wind_pong_is_not_mixed_one_suit(wind, winner, discarder,
                                                                                  round_wind, item):
    # I-11: a seat- or round-wind set is worth fán, so the hand scores that set only.
    result = graded(win(f"123p456p789p55p{wind[0]}{wind[0]}z", wind, winner=winner, discarder=discarder,
                        round_wind=round_wind))

    assert_items(result, [item])


def test_i11_art_6a2_a_dragon_kong_also_takes_away_mixed_one_suit():
    result = graded(win("123s456s789s5s", "5s", melds=[kong("5555z", exposed=False)], discarder=None))

    assert_items(result, ["dragon_set"])


@pytest.mark.parametrize("concealed, winning, what", [
    ("123m456m789m111m7z", "7z", "a red dragon pair"),
    ("123m456m789m111m1z", "1z", "a pair of the round wind"),
    ("123m456m789m444z5m", "5m", "a pong of North, neither seat nor round wind"),
], ids=["dragon-pair", "round-wind-pair", "unvalued-wind-pong"])
def test_i11_art_6a2_an_honour_pair_or_an_unvalued_wind_pong_keeps_mixed_one_suit(concealed, winning, what):
    # I-11: a pair is worth no fán, nor is a pong of a wind that is neither seat nor round wind.
    result = graded(win(concealed, winning))

    assert "mixed_one_suit" in [item.code for item in result.grade.items], what


@pytest.mark.parametrize("discarder", ["W", None])
def test_art_6a2_last_tile_scores_one_fan_on_a_discard_or_self_drawn(discarder):
    # Chicken hand won with the last tile of the jogo (RULES §8.2: PT, either way).
    result = graded(win("345m678p234s99m11p", "1p", discarder=discarder, conditions=["last_tile"]))

    assert_items(result, ["last_tile"])
    assert result.fan == 1


def test_art_6a2_small_three_dragons_scores_with_its_two_dragon_sets():
    # 555z 666z pongs + 77z pair + 345m 678p: dragon_set ×2 + small_three_dragons = 3, cap 2.
    result = graded(win("555z666z77z345m67p", "8p"))

    assert_items(result, ["dragon_set", "dragon_set", "small_three_dragons"])
    assert result.fan == 2


def test_art_6a2_small_four_winds_scores_one_fan():
    # North round, North wins on East's discard: 111z 222z 333z are no valued winds,
    # 44z pair, 345m: small_four_winds = 1. The honours score no item one set at a time, but
    # together they make small four winds, so they are worth fán and the hand is no wân iat
    # sêk (I-18; it was 2 fán before).
    result = graded(win("111z222z333z44z34m", "5m", round_wind="N", winner="N", discarder="E"))

    assert_items(result, ["small_four_winds"])
    assert result.fan == 1


def test_art_6a2_terminals_and_honours_scores_one_fan():
    # 111m 999p 111s 444z + 99s: 1s, 9s and North only: all_pongs + terminals_and_honours = 2.
    result = graded(win("111m999p111s444z9s", "9s"))

    assert_items(result, ["all_pongs", "terminals_and_honours"])
    assert result.fan == 2


# --- Art. 6(a)(3): two fán each ------------------------------------------------------------

def test_art_6a3_heavenly_is_two_fan():
    # The banker's dealt chicken hand: heavenly = 2.
    result = graded(win("345m678p234s99m11p", "1p", winner="E", discarder=None, conditions=["heavenly"]))

    assert_items(result, ["heavenly"])
    assert result.fan == 2


def test_art_6a3_earthly_is_two_fan():
    # South wins a chicken hand on the banker's first discard: earthly = 2.
    result = graded(win("345m678p234s99m11p", "1p", winner="S", discarder="E", conditions=["earthly"]))

    assert_items(result, ["earthly"])
    assert result.fan == 2


@pytest.mark.parametrize("seat, round_wind, wind, discarder", [
    ("S", "S", "2z", "W"),
    ("E", "E", "1z", "S"),
])
def test_art_6a3_double_wind_set_scores_instead_of_round_and_seat_wind(seat, round_wind, wind, discarder):
    # A pong of the wind that is both the round and the seat wind: double_wind_set = 2,
    # not round_wind_set + seat_wind_set.
    result = graded(win(f"345m678p234s99m{wind[0]}{wind[0]}z", wind, winner=seat,
                        round_wind=round_wind, discarder=discarder))

    assert_items(result, ["double_wind_set"])
    assert result.fan == 2


def test_art_6a3_kong_upon_kong_is_two_fan():
    # Exposed kongs 1111p and 9999s, 345m 678p 99m, self-drawn: kong_upon_kong = 2.
    result = graded(win("345m67p99m", "8p", melds=[kong("1111p"), kong("9999s")], discarder=None,
                        conditions=["kong_upon_kong"]))

    assert_items(result, ["kong_upon_kong"])
    assert result.fan == 2


def test_art_6a3_kong_upon_kong_scores_instead_of_kong_replacement():
    # Both recorded: kong_upon_kong scores instead of kong_replacement, so 2 (not 3 raw).
    result = graded(win("345m67p99m", "8p", melds=[kong("1111p"), kong("9999s")], discarder=None,
                        conditions=["kong_replacement", "kong_upon_kong"]))

    assert_items(result, ["kong_upon_kong"])
    assert result.grade.raw == 2


def test_art_6a3_mixed_one_suit_all_chows_is_two_fan():
    # 123m 234m 456m 789m + 44z (North: neither round nor seat wind).
    result = graded(win("123m456m789m234m4z", "4z"))

    assert_items(result, ["mixed_one_suit_all_chows"])
    assert result.grade.raw == 2


@pytest.mark.parametrize("pair", ["1z", "2z", "6z"])
def test_art_6a3_mixed_one_suit_all_chows_needs_an_unvalued_wind_pair(pair):
    # With the round wind, seat wind or a dragon as the pair: not mixed_one_suit_all_chows,
    # not all_chows (I-3); only mixed_one_suit = 1.
    result = graded(win(f"123m456m789m234m{pair}", pair))

    assert_items(result, ["mixed_one_suit"])
    assert result.fan == 1


def test_art_6a3_pure_one_suit_is_two_fan():
    # 111m 234m 567m 888m + 99m (the only reading): pure_one_suit = 2.
    result = graded(win("111m234m567m888m9m", "9m"))

    assert_items(result, ["pure_one_suit"])
    assert result.fan == 2


def test_art_6a3_pure_one_suit_of_chows_also_scores_all_chows():
    # 123m 234m 456m 789m + 55m: all_chows 1 + pure_one_suit 2 = 3, capped at 2 (I-5).
    result = graded(win("123m456m789m234m5m", "5m"))

    assert_items(result, ["all_chows", "pure_one_suit"])
    assert result.grade.raw == 3
    assert result.fan == 2


@pytest.mark.parametrize("winning", ["1m", "7z"])
def test_art_6a3_thirteen_orphans_is_two_fan(winning):
    # 1m 9m 1p 9p 1s 9s 1z–7z and a duplicate: thirteen_orphans only = 2.
    result = graded(win("19m19p19s1234567z", winning))

    assert_items(result, ["thirteen_orphans"])
    assert result.fan == 2
    assert result.grade.shape.thirteen_orphans


def test_art_6a3_concealed_pongs_is_two_fan_and_scores_instead_of_all_pongs():
    # 222m 333p 444s 888m + 55p, no meld, self-drawn: concealed_pongs = 2, no all_pongs.
    result = graded(win("222m333p444s888m5p", "5p", discarder=None))

    assert_items(result, ["concealed_pongs"])
    assert result.fan == 2


@pytest.mark.parametrize("melds, concealed, discarder", [
    ([], "222m333p444s888m5p", "W"),                              # won on a discard
    ([kong("2222m", exposed=False)], "333p444s888m5p", None),     # a concealed kong
    ([pong("222m")], "333p444s888m5p", None),                     # an exposed pong
], ids=["discard", "concealed-kong", "exposed-pong"])
def test_i4_concealed_pongs_needs_self_drawn_no_kong_and_no_exposed_pong(melds, concealed, discarder):
    # I-4 (PT text): a discard win or any kong, even concealed, leaves all_pongs = 1.
    result = graded(win(concealed, "5p", melds=melds, discarder=discarder))

    assert_items(result, ["all_pongs"])
    assert result.fan == 1


def test_art_6a3_big_three_dragons_scores_instead_of_its_dragon_sets():
    # 555z 666z 777z + 345m + 44p: big_three_dragons = 2, no dragon_set.
    result = graded(win("555z666z777z345m4p", "4p"))

    assert_items(result, ["big_three_dragons"])
    assert result.grade.raw == 2


def test_art_6a3_big_three_dragons_counts_exposed_sets():
    # RULES §8.4 (PT): exposed 555z and 777z, 666z completed on the discard, 345m, 44p.
    result = graded(win("66z345m44p", "6z", melds=[pong("555z"), pong("777z")]))

    assert_items(result, ["big_three_dragons"])
    assert result.fan == 2


def test_art_6a3_big_four_winds_scores_instead_of_wind_sets_and_small_four_winds():
    # 111z 222z 333z 444z + 55m, South wins in the East round: big_four_winds 2, no
    # round/seat wind set, no small_four_winds; still all_pongs 1. The wind sets hold the round
    # and seat winds' (worth fán), so no mixed_one_suit (I-11).
    result = graded(win("111z222z333z444z5m", "5m"))

    assert_items(result, ["all_pongs", "big_four_winds"])
    assert result.grade.raw == 3
    assert result.fan == 2


def test_art_6a3_pure_terminals_scores_instead_of_all_pongs():
    # 111m 999m 111p 999s + 99p: pure_terminals = 2, no all_pongs, no terminals_and_honours.
    result = graded(win("111m999m111p999s9p", "9p"))

    assert_items(result, ["pure_terminals"])
    assert result.grade.raw == 2


def test_art_6a3_all_honours_scores_instead_of_all_pongs_and_its_set_items():
    # 111z (round) 222z (seat) 333z 555z + 66z: all_honours = 2, no wind/dragon sets,
    # no all_pongs; one dragon set and a dragon pair is no small_three_dragons.
    result = graded(win("111z222z333z555z6z", "6z"))

    assert_items(result, ["all_honours"])
    assert result.grade.raw == 2


# --- Art. 6(b)(2): the simplified game -------------------------------------------------------

def test_art_6b2_green_winning_tile_scores_one_fan():
    # 789s + 66z, won on 6z.
    result = graded(win("789s6z", "6z", variant="simplified", winner="E", discarder="N"))

    assert_items(result, ["green_winning_tile"])
    assert result.fan == 1


@pytest.mark.parametrize("concealed, named", [("789s6z", "6z"), ("66z78s", "9s")], ids=["names-6z", "names-9s"])
def test_i13_art_6b2_a_heavenly_win_never_scores_the_green_winning_tile(concealed, named):
    # I-13: the banker's dealt tiles 789s 66z already win (Art. 5(b)(1)); a heavenly win has no
    # winning tile of its own, so the same five tiles grade 0 whichever tile the record names.
    result = graded(win(concealed, named, variant="simplified", winner="E", discarder=None,
                        conditions=["heavenly"]))

    assert_items(result, [])
    assert result.fan == 0


def test_i13_the_green_winning_tile_still_scores_on_a_self_drawn_win():
    result = graded(win("789s6z", "6z", variant="simplified", winner="E", discarder=None))

    assert_items(result, ["green_winning_tile"])


def test_art_6b2_a_green_pong_won_on_another_tile_scores_nothing():
    # 666z + 55m won on 5m: it is the winning tile that counts, no dragon set in 6(b).
    result = graded(win("666z5m", "5m", variant="simplified"))

    assert_items(result, [])
    assert result.fan == 0


def test_art_6b2_robbing_kong_scores_one_fan():
    # 789s + 55m, won on the 9s West adds to make a kong.
    result = graded(win("78s55m", "9s", variant="simplified", conditions=["robbing_kong"]))

    assert_items(result, ["robbing_kong"])
    assert result.fan == 1


def test_art_6b2_last_tile_scores_one_fan():
    result = graded(win("789s5m", "5m", variant="simplified", conditions=["last_tile"]))

    assert_items(result, ["last_tile"])
    assert result.fan == 1


@pytest.mark.parametrize("winner, discarder, condition", [("E", None, "heavenly"), ("S", "E", "earthly")])
def test_art_6b_heavenly_and_earthly_are_valid_but_carry_no_fan(winner, discarder, condition):
    result = graded(win("789s5m", "5m", variant="simplified", winner=winner, discarder=discarder,
                        conditions=[condition]))

    assert_items(result, [])
    assert result.fan == 0


def test_art_6b_conventional_items_do_not_score_in_the_simplified_game():
    # 555s + 99s: a pong of one suit, but 6(b)(2) has no all_pongs or pure_one_suit.
    result = graded(win("555s9s", "9s", variant="simplified"))

    assert_items(result, [])
    assert result.fan == 0


# --- Articles in the output ----------------------------------------------------------------

def test_output_items_carry_their_fan_and_article():
    one = graded(win("345m678p234s99m77z", "7z")).as_dict()
    two = graded(win("19m19p19s1234567z", "1m")).as_dict()
    simple = graded(win("78s55m", "9s", variant="simplified", conditions=["robbing_kong"])).as_dict()

    assert one["items"] == [{"code": "dragon_set", "fan": 1, "article": "6(a)(2)"}]
    assert two["items"] == [{"code": "thirteen_orphans", "fan": 2, "article": "6(a)(3)"}]
    assert simple["items"] == [{"code": "robbing_kong", "fan": 1, "article": "6(b)(2)"}]


# --- I-5: combining items and the cap --------------------------------------------------------

def test_i5_additive_sum_is_capped_at_two_fan_listing_every_item():
    # 555z 777z pongs, 345m 678p, 99s, last tile: dragon_set ×2 + last_tile = 3, cap 2.
    result = graded(win("345m678p99s555z77z", "7z", conditions=["last_tile"]))
    output = result.as_dict()

    assert_items(result, ["dragon_set", "dragon_set", "last_tile"])
    assert output["fan"] == 2
    assert len(output["items"]) == 3


def test_i5_simplified_grade_is_capped_at_one_fan():
    # 789s + 66z won on 6z with the last tile: last_tile + green_winning_tile = 2, cap 1.
    result = graded(win("789s6z", "6z", variant="simplified", conditions=["last_tile"]))

    assert_items(result, ["green_winning_tile", "last_tile"])
    assert result.fan == 1


def test_i5_additive_is_the_default_and_may_be_named():
    # 777z 222m 333p 444s + 55p on a discard: dragon_set + all_pongs = 2.
    default = graded(win("777z222m333p444s5p", "5p"))
    named = graded(win("777z222m333p444s5p", "5p", fan_combination="additive"))

    assert default.fan == named.fan == 2


# Under highest_plus_bonus: highest non-bonus item + 1 per bonus item (robbing_kong,
# kong_replacement, last_tile, terminals_and_honours), capped the same way.
@pytest.mark.parametrize("record, items, additive, highest_plus_bonus", [
    # dragon_set 1 + all_pongs 1: additive 2; highest 1 + no bonus = 1.
    (win("777z222m333p444s5p", "5p"), ["all_pongs", "dragon_set"], 2, 1),
    # dragon_set twice: additive 2; highest single item 1.
    (win("345m678p99s555z77z", "7z"), ["dragon_set", "dragon_set"], 2, 1),
    # dragon_set 1 + last_tile (bonus): 2 either way.
    (win("345m678p234s99m77z", "7z", conditions=["last_tile"]), ["dragon_set", "last_tile"], 2, 2),
    # all_pongs 1 + terminals_and_honours (bonus): 2 either way.
    (win("111m999p111s444z9s", "9s"), ["all_pongs", "terminals_and_honours"], 2, 2),
    # chicken hand + last_tile (bonus): 0 + 1 = 1 either way.
    (win("345m678p234s99m11p", "1p", conditions=["last_tile"]), ["last_tile"], 1, 1),
    # thirteen_orphans 2 + last_tile: 3, capped at 2 either way.
    (win("19m19p19s1234567z", "1m", conditions=["last_tile"]), ["last_tile", "thirteen_orphans"], 2, 2),
], ids=["dragon+all-pongs", "two-dragon-sets", "dragon+last-tile", "all-pongs+terminals-honours",
        "chicken+last-tile", "orphans+last-tile"])
def test_i5_highest_plus_bonus_reading(record, items, additive, highest_plus_bonus):
    bonus_record = dict(record, rules={"fan_combination": "highest_plus_bonus"})

    plain = graded(record)
    bonus = graded(bonus_record)

    assert_items(plain, items)
    assert_items(bonus, items)
    assert plain.fan == additive
    assert bonus.fan == highest_plus_bonus
    assert bonus.as_dict()["fan"] == highest_plus_bonus


def test_i5_highest_plus_bonus_simplified_is_capped_at_one_fan():
    # green_winning_tile 1 + last_tile (bonus) 1 = 2, capped at 1.
    result = graded(win("789s6z", "6z", variant="simplified", conditions=["last_tile"],
                        fan_combination="highest_plus_bonus"))

    assert_items(result, ["green_winning_tile", "last_tile"])
    assert result.fan == 1


# --- I-5 as an invariant ---------------------------------------------------------------------

BONUS = {"robbing_kong", "kong_replacement", "last_tile", "terminals_and_honours"}
CHOW_STARTS = [t for t in range(27) if t % 9 <= 6]
A_SET = st.one_of(st.sampled_from(CHOW_STARTS).map(lambda t: (t, t + 1, t + 2)),
                  st.integers(0, 33).map(lambda t: (t, t, t)))


def notation(tiles) -> str:
    """One group per tile: "1m2m3m7z" (docs/rules.md §1)."""
    return "".join(f"{t - 26}z" if t >= 27 else f"{t % 9 + 1}{'mps'[t // 9]}" for t in tiles)


@given(sets=st.lists(A_SET, min_size=4, max_size=4), pair=st.integers(0, 33),
       winner=st.sampled_from("ESWN"), round_wind=st.sampled_from("ESWN"), self_drawn=st.booleans(),
       last_tile=st.booleans(), reading=st.sampled_from(["additive", "highest_plus_bonus"]))
def test_i5_grade_is_the_reading_of_the_items_capped_at_two_fan(sets, pair, winner, round_wind, self_drawn,
                                                                 last_tile, reading):
    tiles = [t for s in sets for t in s] + [pair, pair]
    assume(max(tiles.count(t) for t in tiles) <= 4)
    discarder = None if self_drawn else {"E": "S", "S": "W", "W": "N", "N": "E"}[winner]

    result = graded(win(notation(tiles[:-1]), notation(tiles[-1:]), winner=winner, discarder=discarder,
                        round_wind=round_wind, conditions=["last_tile"] if last_tile else [],
                        fan_combination=reading))

    items = result.grade.items
    if reading == "additive":
        raw = sum(item.fan for item in items)
    else:
        raw = max((i.fan for i in items if i.code not in BONUS), default=0) + sum(i.code in BONUS for i in items)
    assert result.fan == min(raw, 2)
    assert ("last_tile" in [item.code for item in items]) == last_tile
    for item in items:
        assert (item.fan, item.article) == CONVENTIONAL_TABLE[item.code]
