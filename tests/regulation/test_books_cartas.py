"""The Brazilian rules for Mah Jong with 144 cards: the «Exemplo de contagem de pontos e de
acerto de contas» with the book's figures, the «Tabela de contagem de pontos» and the
«Combinações que dão "dobres"» item by item, the «Mãos-Limite», and every reading's alternative."""
from functools import partial

import pytest

from regulation import MalformedRecord
from regulation.books import book, read_book_record, score_book
from regulation.books.settlement import round_hundreds
from tests.builders.jogos import book_record, kong, player, pong

RULES = book("cartas-pt-br")
record = partial(book_record, winner="N", winning_tile="9m", winning_from="self_drawn")


def scored(data, rules=RULES):
    result = score_book(read_book_record(data), rules).to_dict()
    assert result["valid"], result["errors"]
    return result


def items(entries, key):
    return [(e["code"], e[key]) for e in entries]


# «Exemplo de contagem»: North goes out with a card from the wall.
NORTH = player("456s 9m", [kong("8888p"), pong("777z"), pong("777s")], "f4")
SOUTH = player("111m 257p 369s 4m", [kong("2222z", exposed=False)], "g2")  # season 2, hidden South kong, 1s pong
EAST = player("555s 2468m", [kong("9999p", exposed=False), kong("1111s")], "f3 g4")  # 32 + 16 + 4 + 4 + 4 = 60
WEST = player("147m 268s 6p", [pong("999s"), pong("333p")], "f2")  # 4 + 4 + 2 = 10
EXAMPLE = {"N": NORTH, "S": SOUTH, "E": EAST, "W": WEST}


def test_cartas_exemplo_north_has_40_points():
    north = scored(record(EXAMPLE))["players"]["N"]
    assert items(north["points"], "points") == [
        ("flower", 4), ("exposed_kong", 8), ("exposed_pong", 2), ("exposed_pong", 4),
        ("mah_jong_from_the_wall", 22)]
    assert north["points_total"] == 40


def test_cartas_exemplo_north_doubles_for_dragons_and_his_own_flower_160():
    north = scored(record(EXAMPLE))["players"]["N"]
    assert items(north["doubles"], "doubles") == [("dragon_set", 1), ("own_flower", 1)]
    assert north["score"] == 160


def test_cartas_exemplo_south_and_west_pay_200_east_pays_300():
    """160 rounds up to 200; the banker's 320 drops its 20 to 300 (P-A13: each payment after
    the banker's doubling)."""
    payments = scored(record(EXAMPLE))["payments"]
    assert {(p["from"], p["amount"]) for p in payments if p["to"] == "N"} == {("S", 200), ("W", 200), ("E", 300)}


def test_cartas_exemplo_east_60_and_west_10():
    players = scored(record(EXAMPLE))["players"]
    assert players["E"]["score"] == 60 and players["W"]["score"] == 10


def test_cartas_p_a6_by_default_the_table_governs_south_is_176_not_208():
    """The example counts South's concealed pong of 1s 16; the table gives 8: 44 × 2 × 2."""
    south = scored(record(EXAMPLE))["players"]["S"]
    assert ("concealed_pong", 8) in items(south["points"], "points")
    assert (south["points_total"], south["score"]) == (44, 176)
    assert items(south["doubles"], "doubles") == [("own_wind_set", 1), ("own_season", 1)]


def test_cartas_p_a6_by_default_the_settlement_with_south_176():
    result = scored(record(EXAMPLE))
    between = {(p["from"], p["to"], p["amount"]) for p in result["payments"] if p["to"] != "N"}
    assert between == {("E", "S", 200), ("W", "S", 200), ("W", "E", 100)}  # 232 -> 200, 166 -> 200
    assert result["net"] == {"N": 700, "S": 200, "E": -400, "W": -500}


def test_cartas_p_a6_the_example_reading_south_208_and_the_book_settlement():
    result = scored(record(EXAMPLE, rules={"P-A6": "example"}))
    south = result["players"]["S"]
    assert (south["points_total"], south["score"]) == (52, 208)
    between = {(p["from"], p["to"], p["amount"]) for p in result["payments"] if p["to"] != "N"}
    assert between == {("E", "S", 300), ("W", "S", 200), ("W", "E", 100)}  # 296, 198, (60 − 10) × 2
    assert result["net"] == {"N": 700, "S": 300, "E": -500, "W": -500}


@pytest.mark.parametrize("amount, paid", [(160, 200), (320, 300), (296, 300), (198, 200), (100, 100),
                                          (149, 100), (150, 200), (49, 0)])
def test_cartas_acerto_de_contas_fractions_under_50_dropped_50_or_more_rounded_up(amount, paid):
    assert round_hundreds(amount) == paid


def test_cartas_p_a13_rounding_the_hand_value_before_the_banker_doubles():
    result = scored(record(EXAMPLE, rules={"P-A13": "hand_value"}))
    assert {(p["from"], p["amount"]) for p in result["payments"] if p["to"] == "N"} == {
        ("S", 200), ("W", 200), ("E", 400)}


# --- Tabela de contagem de pontos, A: pongs and kongs, open («aberto») and closed («fechado») ---

FILLER = "1357m23s46p13z"  # ten single cards that make no set with each other or with North's


@pytest.mark.parametrize("meld, concealed, points", [
    (pong("555p"), "", 2), (None, "555p", 4),  # A 2
    (pong("111p"), "", 4), (None, "111p", 8), (pong("222z"), "", 4), (None, "666z", 8),  # A 3
    (kong("5555p"), "", 8), (kong("5555p", exposed=False), "", 16),  # A 4
    (kong("9999p"), "", 16), (kong("4444z", exposed=False), "", 32),  # A 5
])
def test_cartas_tabela_a_pongs_and_kongs_score_for_every_player(meld, concealed, points):
    hand = player(concealed + FILLER, [meld] if meld else [])
    loser = scored(record({"N": NORTH, "S": hand}))["players"]["S"]
    assert loser["points_total"] == points


def test_cartas_tabela_a1_chows_and_pairs_score_nothing_for_a_loser():
    loser = scored(record({"N": NORTH, "S": player("123m 456p 11s 55z 378m", [])}))["players"]["S"]
    assert loser["points_total"] == 0


# --- Tabela, B: pairs, only for the player who goes out ---

def test_cartas_tabela_b_pairs_of_a_dragon_own_wind_and_the_banker_wind():
    dragon = scored(record({"S": player("123m 456p 789s 5z", [pong("222p")])}, winner="S", winning_tile="5z",
                           winning_from="discard"))["players"]["S"]
    assert ("pair", 2) in items(dragon["points"], "points")
    own = scored(record({"S": player("123m 456p 789s 2z", [pong("222p")])}, winner="S", winning_tile="2z",
                        winning_from="discard"))["players"]["S"]
    assert ("own_wind_pair", 2) in items(own["points"], "points")
    east = scored(record({"S": player("123m 456p 789s 1z", [pong("222p")])}, winner="S", winning_tile="1z",
                         winning_from="discard"))["players"]["S"]
    assert ("banker_wind_pair", 2) in items(east["points"], "points")


def test_cartas_tabela_b_nota_the_banker_going_out_with_an_east_pair_has_4_points():
    banker = scored(record({"E": player("123m 456p 789s 1z", [pong("222p")])}, winner="E", winning_tile="1z",
                           winning_from="discard"))["players"]["E"]
    assert sum(p["points"] for p in banker["points"] if p.get("tiles") == "11z") == 4


# --- Tabela, C: the bonuses of the player who goes out ---

HAND_C = player("123m 456p 789s 5m", [pong("222p")])


@pytest.mark.parametrize("how, only, code, points", [
    ("discard", False, "mah_jong_on_discard", 20), ("self_drawn", False, "mah_jong_from_the_wall", 22),
    ("discard", True, "only_possible_card", 24), ("last_tile", False, "last_card", 30)])
def test_cartas_tabela_c_1_to_4_one_bonus_for_going_out(how, only, code, points):
    data = record({"S": HAND_C}, winner="S", winning_tile="5m", winning_from=how, only_possible_tile=only)
    bonuses = [p for p in scored(data)["players"]["S"]["points"] if p["section"] == "Tabela, C"]
    assert items(bonuses, "points") == [(code, points)]


def test_cartas_p_a10_the_bonuses_added_instead():
    data = record({"S": HAND_C}, winner="S", winning_tile="5m", winning_from="last_tile", rules={"P-A10": "added"})
    bonuses = [p["points"] for p in scored(data)["players"]["S"]["points"] if p["section"] == "Tabela, C"]
    assert sum(bonuses) == 20 + 2 + 10


def test_cartas_tabela_c5_and_dobres_1_no_chow_is_10_points_and_a_double():
    hand = player("111m 555p 999s 5m", [pong("222p")])
    south = scored(record({"S": hand}, winner="S", winning_tile="5m", winning_from="discard"))["players"]["S"]
    assert ("no_chow", 10) in items(south["points"], "points")
    assert ("no_chow", 1) in items(south["doubles"], "doubles")


def test_cartas_p_a4_no_chow_the_double_only():
    hand = player("111m 555p 999s 5m", [pong("222p")])
    data = record({"S": hand}, winner="S", winning_tile="5m", winning_from="discard", rules={"P-A4": "double_only"})
    south = scored(data)["players"]["S"]
    assert "no_chow" not in [p["code"] for p in south["points"]]
    assert ("no_chow", 1) in items(south["doubles"], "doubles")


def test_cartas_tabela_c6_and_dobres_2_no_suit_cards_is_10_points_and_a_double():
    hand = player("111z 333z 555z 6z", [pong("777z")])
    south = scored(record({"S": hand}, winner="S", winning_tile="6z", winning_from="discard"))["players"]["S"]
    assert ("no_suit_cards", 10) in items(south["points"], "points")
    assert ("no_suit_cards", 1) in items(south["doubles"], "doubles")


# --- Combinações que dão "dobres" ---

def test_cartas_dobres_a_dragon_pong_and_an_own_wind_pong_for_every_player():
    loser = scored(record({"N": NORTH, "W": player("13579m 24p", [pong("555z"), pong("333z")])}))["players"]["W"]
    assert items(loser["doubles"], "doubles") == [("own_wind_set", 1), ("dragon_set", 1)]


def test_cartas_dobres_own_flower_and_own_season():
    loser = scored(record({"N": NORTH, "W": player("13579m 24p 356s 124z", [], "f3 g3")}))["players"]["W"]
    assert items(loser["doubles"], "doubles") == [("own_flower", 1), ("own_season", 1)]


def test_cartas_dobres_3_and_6_one_suit_p_a3_one_and_three_by_default():
    honours = scored(record({"S": player("123m 456m 789m 5z", [pong("222m")])}, winner="S", winning_tile="5z",
                            winning_from="discard"))["players"]["S"]
    assert ("one_suit_with_honours", 1) in items(honours["doubles"], "doubles")
    pure = record({"S": player("123m 456m 789m 9m", [pong("222m")])}, winner="S", winning_tile="9m",
                  winning_from="discard")
    assert ("pure_one_suit", 3) in items(scored(pure)["players"]["S"]["doubles"], "doubles")
    pure["rules"] = {"P-A3": "two_and_four"}
    assert ("pure_one_suit", 4) in items(scored(pure)["players"]["S"]["doubles"], "doubles")


def test_cartas_dobres_4_terminals_with_honours():
    hand = player("111m 999p 111s 5z", [pong("777z")])
    south = scored(record({"S": hand}, winner="S", winning_tile="5z", winning_from="discard"))["players"]["S"]
    assert ("terminals_with_honours", 1) in items(south["doubles"], "doubles")


def test_cartas_dobres_5_robbing_a_kong():
    data = record({"S": HAND_C}, winner="S", winning_tile="5m", winning_from="robbing_kong")
    assert ("robbing_kong", 1) in items(scored(data)["players"]["S"]["doubles"], "doubles")


def test_cartas_p_a2_the_east_pong_doubles_for_everybody_under_the_alternative():
    data = record({"N": NORTH, "W": player("13579m 24p", [pong("111z"), pong("333p")])})
    assert scored(data)["players"]["W"]["doubles"] == []
    data["rules"] = {"P-A2": "own_and_east"}
    assert items(scored(data)["players"]["W"]["doubles"], "doubles") == [("banker_wind_set", 1)]


# --- Mãos-Limite, the limit and the banker ---

def test_cartas_maos_limite_mao_maravilha_is_4000_and_the_banker_pays_8000():
    result = scored(record({"S": player("19m19p19s1234567z")}, winner="S", winning_tile="9s"))
    south = result["players"]["S"]
    assert south["limit_hand"] == {"code": "wonder_hand", "section": "Mãos-Limite"}
    assert south["limited_score"] == 4000
    assert {(p["from"], p["amount"]) for p in result["payments"]} == {("E", 8000), ("W", 4000), ("N", 4000)}


def test_cartas_p_a5_the_limit_caps_every_payment_under_the_alternative():
    data = record({"S": player("19m19p19s1234567z")}, winner="S", winning_tile="9s",
                  rules={"P-A5": "limit_per_payment"})
    assert {p["amount"] for p in scored(data)["payments"]} == {4000}


def test_cartas_maos_limite_winds_and_dragons_and_the_serpent_need_no_sets():
    winds = scored(record({"S": player("1234567z 111223z")}, winner="S", winning_tile="7z"))["players"]["S"]
    assert winds["limit_hand"]["code"] == "winds_and_dragons"
    serpent = scored(record({"S": player("123456789p 1234z")}, winner="S", winning_tile="5p"))["players"]["S"]
    assert serpent["limit_hand"]["code"] == "serpent"


def test_cartas_maos_limite_pares_de_honra():
    south = scored(record({"S": player("1199m 1199p 1s 5566z")}, winner="S", winning_tile="1s"))
    assert south["players"]["S"]["limit_hand"]["code"] == "honour_pairs"


def test_cartas_p_a7_4000_caps_ordinary_hands_by_default():
    big = player("9m", [kong("5555z"), kong("6666z"), kong("1111m"), kong("2222z")], "f2 g2")
    south = scored(record({"S": big}, winner="S", winning_tile="9m"))["players"]["S"]
    assert south["score"] > 4000 and south["limited_score"] == 4000
    free = scored(record({"S": big}, winner="S", winning_tile="9m", rules={"P-A7": "special_hands_only"}))
    assert free["players"]["S"]["limited_score"] == free["players"]["S"]["score"]


def test_cartas_p_a14_two_doubles_to_go_out_under_the_alternative():
    data = record({"S": HAND_C}, winner="S", winning_tile="5m", rules={"P-A14": "two_doubles"})
    result = score_book(read_book_record(data), RULES).to_dict()
    assert not result["valid"] and result["errors"][0]["code"] == "fewer_than_two_doubles"


@pytest.mark.parametrize("code, name", [("P-A1", "as_printed"), ("P-A8", "drawn_is_closed"),
                                        ("P-A9", "book_structure"), ("P-A11", "from_discards"),
                                        ("P-A12", "a_further_double")])
def test_cartas_readings_the_record_cannot_decide_are_refused(code, name):
    with pytest.raises(MalformedRecord, match="cannot be scored"):
        RULES.with_readings({code: name})


@pytest.mark.parametrize("hand, winning, code", [
    (player("999s 9m", [pong("111m"), pong("999p"), pong("111s")]), "9m", "terminals_hand"),  # Mão dos Extremos
    (player("222m 555p 777s 333m 9p"), "9p", "hidden_hand"),  # Mão Oculta
    (player("1112345678999p"), "5p", "gates_of_heaven"),  # As Portas do Céu
    (player("5m", [pong("111z"), pong("222z"), pong("333z"), pong("444z")]), "5m", "four_great_winds"),
    (player("123s 234s 888s 4s", [pong("666z")]), "4s", "green_hand"),  # Mão Verdinha
])
def test_cartas_maos_limite_are_4000(hand, winning, code):
    south = scored(record({"S": hand}, winner="S", winning_tile=winning))["players"]["S"]
    assert south["limit_hand"]["code"] == code and south["limited_score"] == 4000


# --- Mão Celeste (6.): going out on one's own first turn, from the record's `first_turn` ---

def test_cartas_mao_celeste_a_self_drawn_win_on_the_first_turn_is_4000_and_the_banker_pays_8000():
    result = scored(record({"S": HAND_C}, winner="S", winning_tile="5m", first_turn=True))
    south = result["players"]["S"]
    assert south["limit_hand"] == {"code": "heavenly_hand", "section": "Mãos-Limite"}
    assert south["limited_score"] == 4000
    assert {(p["from"], p["amount"]) for p in result["payments"]} == {("E", 8000), ("W", 4000), ("N", 4000)}
    assert result["net"]["S"] == 16000


def test_cartas_mao_celeste_the_banker_going_out_on_his_first_turn_receives_8000_from_each():
    result = scored(record({"E": HAND_C}, winner="E", winning_tile="5m", first_turn=True))
    assert result["players"]["E"]["limit_hand"]["code"] == "heavenly_hand"
    assert {(p["from"], p["amount"]) for p in result["payments"]} == {("S", 8000), ("W", 8000), ("N", 8000)}


def test_cartas_the_same_hand_without_first_turn_is_no_limit_hand():
    south = scored(record({"S": HAND_C}, winner="S", winning_tile="5m"))["players"]["S"]
    assert south["limit_hand"] is None and south["limited_score"] < 4000


@pytest.mark.parametrize("how", ["discard", "robbing_kong", "kong_replacement", "last_tile"])
def test_cartas_mao_celeste_first_turn_is_only_for_a_self_drawn_win(how):
    data = record({"S": HAND_C}, winner="S", winning_tile="5m", winning_from=how, first_turn=True)
    with pytest.raises(MalformedRecord, match="first_turn: only a self-drawn win") as refused:
        read_book_record(data)
    assert refused.value.field == "first_turn"


@pytest.mark.parametrize("code", ["serralheiro-2003", "english-booklet"])
def test_the_other_books_read_first_turn_and_score_no_differently(code):
    data = record({"S": HAND_C}, winner="S", winning_tile="5m")
    plain = score_book(read_book_record(data), book(code)).to_dict()
    assert score_book(read_book_record({**data, "first_turn": True}), book(code)).to_dict() == plain


# --- A kong kept in the hand, never laid down («sem arriar») ---
# «se o jogador fizer um kong com uma carta comprada do monte, ele pode mantê-lo fechado na mão (caso
# em que não tem direito a comprar outra carta)»; the example: «4 ventos Sul, sem arriar (kong
# fechado) = 32 pontos».

SOUTH_AS_HELD = player("2222z 111m 257p 369s", [], "g2")  # the book's South: 13 cards, the kong among them


def test_cartas_exemplo_south_kong_sem_arriar_among_his_cards_is_a_closed_kong_of_32():
    south = scored(record({**EXAMPLE, "S": SOUTH_AS_HELD}))["players"]["S"]
    assert ("concealed_kong", 32) in items(south["points"], "points")
    assert (south["points_total"], south["score"]) == (44, 176)  # 4 + 32 + 8, × 2 own wind, × 2 own season
    assert items(south["doubles"], "doubles") == [("own_wind_set", 1), ("own_season", 1)]


def test_cartas_exemplo_south_as_the_book_holds_him_settles_as_the_book_with_p_a6_example():
    result = scored(record({**EXAMPLE, "S": SOUTH_AS_HELD}, rules={"P-A6": "example"}))
    assert (result["players"]["S"]["points_total"], result["players"]["S"]["score"]) == (52, 208)
    assert result["net"] == {"N": 700, "S": 300, "E": -500, "W": -500}


def test_cartas_a_losers_kong_of_2_to_8_kept_in_hand_is_16():
    loser = scored(record({"N": NORTH, "S": player("5555p 1357m 23s 134z", [])}))["players"]["S"]
    assert items(loser["points"], "points") == [("concealed_kong", 16)]


def test_cartas_p_a9_a_winner_going_out_with_kongs_kept_in_hand_is_refused_saying_how_to_write_them():
    """«2 kongs e 2 chaus»: the book's own hand; under P-A9's default a winning hand is four sets and a
    pair, kongs declared, so the record is refused with the way to write the kongs."""
    data = record({"N": player("1111z 2222z 123m 45m")}, winning_tile="6m")
    with pytest.raises(MalformedRecord) as refused:
        score_book(read_book_record(data), RULES)
    assert refused.value.field == "players.N.concealed"
    message = str(refused.value)
    assert "four 1z" in message and "among the melds" in message and "P-A9" in message


def test_cartas_a_winner_using_the_fourth_card_in_a_chow_holds_a_pong_and_a_chow():
    data = record({"N": player("1111m 23m 456p 789s 5z")}, winning_tile="5z", winning_from="discard")
    north = scored(data)["players"]["N"]
    assert ("concealed_pong", 8) in items(north["points"], "points")
