"""Penalties: Art. 10 pay-all (包輸) — every trigger, its failures and the exemptions — and the
false win (詐糊, jogo nulo), docs/rules.md §6, I-9, I-10.

Every expected amount is worked out by hand from docs/rules.md in the test's comment.
"""
import pytest

from regulation import MalformedRecord, read_record, score
from tests.builders.jogos import CHICKEN, scored

# A chicken hand (grade 0): 345m 678p 234s, a pong of 1p, a pair of 9m.
# A chicken hand won on 4s completing the chow 234s: the winner holds no other 4s.
CHICKEN_ON_A_CHOW = {"concealed": "345m678p111p99m23s", "winning_tile": "4s"}
# The same sets, but the winning 9m completes the pair: the winner holds one other 9m.
CHICKEN_ON_A_PAIR = {"concealed": "345m678p111p234s9m", "winning_tile": "9m"}

RICH = {"E": 1_000_000, "S": 1_000_000, "W": 1_000_000, "N": 1_000_000}


def meld(kind, tiles, exposed=True):
    return {"kind": kind, "tiles": tiles, "exposed": exposed}


def hand(concealed, winning_tile, *melds):
    return {"concealed": concealed, "winning_tile": winning_tile, "melds": list(melds)}


# Pure one suit (circles) with three exposed sets: 111p 234p 567p on the table, 888p 99p in hand.
PURE_THREE_EXPOSED = hand("8889p", "9p", meld("pong", "111p"), meld("chow", "234p"), meld("chow", "567p"))
# ... with four exposed sets, waiting on a single 9p.
PURE_FOUR_EXPOSED = hand("9p", "9p", meld("pong", "111p"), meld("chow", "234p"), meld("chow", "567p"),
                         meld("pong", "888p"))
# Big three dragons: white and red exposed, green completed by the discarded 6z.
BIG_THREE_DRAGONS = hand("66z22m", "6z", meld("pong", "555z"), meld("pong", "777z"), meld("chow", "345s"))
# Big four winds: East, South, West exposed; North completed by the discarded 4z.
BIG_FOUR_WINDS = hand("44z55m", "4z", meld("pong", "111z"), meld("pong", "222z"), meld("pong", "333z"))

SIMPLE_CHICKEN = {"concealed": "789s1p", "winning_tile": "1p"}


def jogo(**fields):
    """Score a conventional won jogo: South wins a chicken hand on West's discard, unless told."""
    fields.setdefault("capital", RICH)
    return scored(**fields)


def simplified(**fields):
    fields.setdefault("capital", dict(RICH))
    fields.setdefault("stake", 100)
    fields.setdefault("hand", SIMPLE_CHICKEN)
    return jogo(variant="simplified", **fields)


def false_win(offender, **fields):
    fields.setdefault("hand", None)
    return jogo(result="false_win", winner=None, discarder=None, false_win={"seat": offender}, **fields)


def pay_all(seat, article, live_tile=False):
    return {"seat": seat, "article": article, "live_tile": live_tile}


def breaches(result):
    for breach in result.breaches:
        assert breach.message.startswith(f"Art. {breach.article}: ")
    return {(b.code, b.article) for b in result.breaches}


def paid(result):
    return {p.payer: p.amount for p in result.settlement.payments}


def assert_nothing_moves(result):
    assert not result.valid
    assert result.settlement.payments == ()
    assert result.settlement.commission == 0
    assert set(result.settlement.net.values()) == {0}


# --- Art. 10(a)(1): pure one suit with 3 or 4 exposed sets; the discarder pays all ------------


def test_art_10a1_pay_all_discarder_into_pure_one_suit_with_three_exposed_sets_pays_everything():
    result = jogo(hand=PURE_THREE_EXPOSED, pay_all=pay_all("W", "10(a)(1)"))

    # Pure one suit: 2 fán, share 25 × 4 = 100. Dues: W 100, N 100, E 2 × 100 = 200 = 400,
    # all paid by West (I-9); N and E pay nothing. Commission 10: S nets 390.
    assert result.valid and result.fan == 2
    assert paid(result) == {"W": 400}
    assert result.settlement.net == {"E": 0, "S": 390, "W": -400, "N": 0}


def test_art_10a1_pay_all_also_with_four_exposed_sets():
    result = jogo(hand=PURE_FOUR_EXPOSED, pay_all=pay_all("W", "10(a)(1)"))

    assert result.valid
    assert paid(result) == {"W": 400}


def test_art_10a1_needs_three_exposed_sets():
    two_exposed = hand("567p888p9p", "9p", meld("pong", "111p"), meld("chow", "234p"))
    result = jogo(hand=two_exposed, pay_all=pay_all("W", "10(a)(1)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(1)")}
    assert_nothing_moves(result)


def test_art_10a1_needs_a_pure_one_suit_hand():
    mixed = hand("888s9p", "9p", meld("pong", "111p"), meld("chow", "234p"), meld("chow", "567p"))
    result = jogo(hand=mixed, pay_all=pay_all("W", "10(a)(1)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(1)")}


def test_art_10a1_liable_must_be_the_discarder():
    result = jogo(hand=PURE_THREE_EXPOSED, discarder="N", pay_all=pay_all("W", "10(a)(1)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(1)")}


def test_art_10a1_no_pay_all_on_a_self_drawn_win():
    result = jogo(hand=PURE_THREE_EXPOSED, discarder=None, pay_all=pay_all("W", "10(a)(1)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(1)")}


# --- Art. 10(a)(2): the discard made the 4th exposed set; the winner self-drew next ------------


def test_art_10a2_pay_all_feeder_of_the_fourth_set_pays_a_banker_winners_doubles():
    result = jogo(winner="E", discarder=None, hand=PURE_FOUR_EXPOSED, pay_all=pay_all("N", "10(a)(2)"))

    # 2 fán, share 100; a banker winner is owed 2 × 100 by each of S, W, N = 600, all paid by
    # North (I-9). Commission 10: E nets 590.
    assert result.valid and result.fan == 2
    assert paid(result) == {"N": 600}
    assert result.settlement.net == {"E": 590, "S": 0, "W": 0, "N": -600}


def test_art_10a2_the_winner_must_self_draw():
    result = jogo(winner="E", discarder="N", hand=PURE_FOUR_EXPOSED, pay_all=pay_all("N", "10(a)(2)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(2)")}


def test_art_10a2_needs_four_exposed_sets():
    result = jogo(winner="E", discarder=None, hand=PURE_THREE_EXPOSED, pay_all=pay_all("N", "10(a)(2)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(2)")}


def test_art_10a2_needs_a_pure_one_suit_hand():
    four_mixed = hand("9s", "9s", meld("pong", "111p"), meld("chow", "234p"), meld("chow", "567p"),
                      meld("pong", "888p"))
    result = jogo(winner="E", discarder=None, hand=four_mixed, pay_all=pay_all("N", "10(a)(2)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(2)")}


# --- Art. 10(a)(3): the dragon or wind that completed big three dragons / big four winds ------


def test_art_10a3_pay_all_discarder_of_third_dragon_pays_everything():
    result = jogo(stake=100, winner="W", discarder="N", hand=BIG_THREE_DRAGONS,
                  pay_all=pay_all("N", "10(a)(3)"))

    # Big three dragons: 2 fán, share 100 × 4 = 400. Dues N 400, E 800, S 400 = 1600, all
    # from North. Commission at 100/200 is 40: W nets 1560.
    assert result.valid and result.fan == 2
    assert paid(result) == {"N": 1600}
    assert result.settlement.net == {"E": 0, "S": 0, "W": 1560, "N": -1600}


def test_art_10a3_pay_all_discarder_of_fourth_wind_pays_everything():
    result = jogo(stake=50, winner="S", discarder="N", hand=BIG_FOUR_WINDS, pay_all=pay_all("N", "10(a)(3)"))

    # Big four winds (+ all pongs), capped at 2 fán: share 50 × 4 = 200. Dues W 200, N 200,
    # E 400 = 800, all from North. Commission 20: S nets 780.
    assert result.valid and result.fan == 2
    assert paid(result) == {"N": 800}
    assert result.settlement.net == {"E": 0, "S": 780, "W": 0, "N": -800}


def test_art_10a3_small_three_dragons_is_no_trigger():
    small = hand("345m678p7z", "7z", meld("pong", "555z"), meld("pong", "666z"))
    result = jogo(winner="W", discarder="N", hand=small, pay_all=pay_all("N", "10(a)(3)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(3)")}


def test_art_10a3_the_discarded_tile_must_be_the_dragon_that_completed_it():
    on_the_pair = hand("345m2m", "2m", meld("pong", "555z"), meld("pong", "666z"), meld("pong", "777z"))
    result = jogo(winner="W", discarder="N", hand=on_the_pair, pay_all=pay_all("N", "10(a)(3)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(3)")}


def test_art_10a3_liable_must_be_the_discarder():
    result = jogo(winner="W", discarder="N", hand=BIG_THREE_DRAGONS, pay_all=pay_all("S", "10(a)(3)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(3)")}


# --- Art. 10(a)(4)–(6): conduct at the discard; no pattern in the hand -------------------------


def test_art_10a4_pay_all_holder_of_the_last_honour_the_banker_pays_his_double_and_the_rest():
    result = jogo(stake=100, winner="W", discarder="E", pay_all=pay_all("E", "10(a)(4)"))

    # Chicken at 100: share 100. Dues N 100, E 200, S 100 = 400, all from East.
    # Commission 40: W nets 360.
    assert result.valid and result.fan == 0
    assert paid(result) == {"E": 400}
    assert result.settlement.net == {"E": -400, "S": 0, "W": 360, "N": 0}


def test_art_10a4_liable_must_have_discarded_the_winning_tile():
    result = jogo(winner="W", discarder=None, pay_all=pay_all("E", "10(a)(4)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(4)")}
    assert_nothing_moves(result)


def test_art_10a5_pay_all_breaker_of_a_concealed_pong_pays_everything():
    result = jogo(stake=200, winner="N", discarder="S", hand=CHICKEN_ON_A_CHOW,
                  pay_all=pay_all("S", "10(a)(5)"))

    # Chicken at 200: share 200. Dues E 400, S 200, W 200 = 800, all from South.
    # Commission 80: N nets 720.
    assert result.valid
    assert paid(result) == {"S": 800}
    assert result.settlement.net == {"E": 0, "S": -800, "W": 0, "N": 720}


def test_art_10a5_winner_may_hold_the_fourth_copy_of_the_broken_pong():
    # South held three 9m concealed and discarded one; North holds the fourth 9m and pairs it.
    # 3 + 1 = 4 copies: a possible jogo, and docs/rules.md's 10(a)(5) asks nothing of the hand.
    result = jogo(stake=200, winner="N", discarder="S", hand=CHICKEN_ON_A_PAIR,
                  pay_all=pay_all("S", "10(a)(5)"))

    # As above: South pays 800, North nets 720.
    assert breaches(result) == set()
    assert paid(result) == {"S": 800}


def test_art_10a5_winner_cannot_hold_two_more_copies_of_the_broken_pong():
    # The winning 1p makes the winner's pong: he holds two 1p, the liable held three: five.
    result = jogo(winner="N", discarder="S", hand=CHICKEN, pay_all=pay_all("S", "10(a)(5)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(5)")}


def test_art_10a5_liable_must_be_the_discarder():
    result = jogo(winner="N", discarder="W", hand=CHICKEN_ON_A_CHOW, pay_all=pay_all("S", "10(a)(5)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(5)")}


# I-12: PT «descartar uma pedra dum conjunto de 3» is any set of three, a chow included (ZH 拆一擱碰牌
# says a pong; the Portuguese governs). 444m 678p 234s 99s with 777p exposed, won on West's 4m.
BROKEN_CHOW_WIN = hand("44m678p234s99s", "4m", meld("pong", "777p"))


def test_i12_art_10a5_breaker_of_a_concealed_chow_pays_everything():
    result = jogo(winner="S", discarder="W", hand=BROKEN_CHOW_WIN,
                  pay_all={**pay_all("W", "10(a)(5)"), "broken_set": "chow"})

    # West broke a concealed chow (say 345m) and discarded its 4m. Chicken at 25: dues W 25,
    # N 25, E 50 = 100, all from West (I-9). Commission 10: South nets 90.
    assert breaches(result) == set()
    assert paid(result) == {"W": 100}
    assert result.settlement.net == {"E": 0, "S": 90, "W": -100, "N": 0}


@pytest.mark.parametrize("broken_set", [None, "pong"], ids=["default", "named"])
def test_i12_art_10a5_a_broken_pong_still_limits_the_winner_to_one_more_copy(broken_set):
    # The same hand under a broken pong: West held three 4m, the winner two more besides the
    # winning 4m, five in all. "pong" is the default.
    fields = pay_all("W", "10(a)(5)") if broken_set is None else {**pay_all("W", "10(a)(5)"), "broken_set": broken_set}
    result = jogo(winner="S", discarder="W", hand=BROKEN_CHOW_WIN, pay_all=fields)

    assert breaches(result) == {("pay_all_trigger", "10(a)(5)")}
    assert "triplet" in result.breaches[0].message


def test_i12_art_10a5_a_broken_chow_cannot_have_given_an_honour():
    hand_on_red = hand("345m678p234s99m77z", "7z")
    result = jogo(winner="S", discarder="W", hand=hand_on_red,
                  pay_all={**pay_all("W", "10(a)(5)"), "broken_set": "chow"})

    assert breaches(result) == {("pay_all_trigger", "10(a)(5)")}
    assert "I-12" in result.breaches[0].message


@pytest.mark.parametrize("article", ["10(a)(6)", "10(b)(2)"])
def test_i12_only_a_10a5_pay_all_names_the_broken_set(article):
    record = {"variant": "conventional", "stake": 25, "round_wind": "E", "capital": RICH, "result": "win",
              "winner": "S", "discarder": "W", "hand": CHICKEN_ON_A_CHOW,
              "pay_all": {"seat": "W", "article": article, "broken_set": "pong"}}

    with pytest.raises(MalformedRecord) as raised:
        read_record(record)
    assert raised.value.field == "pay_all.broken_set"


def test_i12_broken_set_is_a_pong_or_a_chow():
    record = {"variant": "conventional", "stake": 25, "round_wind": "E", "capital": RICH, "result": "win",
              "winner": "S", "discarder": "W", "hand": CHICKEN_ON_A_CHOW,
              "pay_all": {"seat": "W", "article": "10(a)(5)", "broken_set": "kong"}}

    with pytest.raises(MalformedRecord) as raised:
        read_record(record)
    assert raised.value.field == "pay_all.broken_set"


def test_art_10a6_pay_all_ready_player_who_broke_his_hand_pays_a_banker_winner_everything():
    result = jogo(winner="E", discarder="S", pay_all=pay_all("S", "10(a)(6)"))

    # Chicken at 25, banker winner: 2 × 25 from each of S, W, N = 150, all from South.
    # Commission 10: E nets 140.
    assert result.valid
    assert paid(result) == {"S": 150}
    assert result.settlement.net == {"E": 140, "S": -150, "W": 0, "N": 0}


def test_art_10a6_liable_must_be_the_discarder():
    result = jogo(winner="E", discarder="W", pay_all=pay_all("S", "10(a)(6)"))

    assert breaches(result) == {("pay_all_trigger", "10(a)(6)")}


# --- Art. 10(b)(1)–(2): the simplified game --------------------------------------------------


def test_art_10b1_pay_all_holder_of_the_last_green_dragon_pays_everything():
    result = simplified(winner="S", discarder="W", pay_all=pay_all("W", "10(b)(1)"))

    # Simplified chicken at 100: share 100. Dues W 100, N 100, E 200 = 400, all from West.
    # Commission at simplified 100/200 is 20: S nets 380.
    assert result.valid and result.fan == 0
    assert paid(result) == {"W": 400}
    assert result.settlement.net == {"E": 0, "S": 380, "W": -400, "N": 0}


def test_art_10b1_the_winning_tile_cannot_be_the_green_dragon_he_held():
    result = simplified(winner="S", discarder="W", hand={"concealed": "789s6z", "winning_tile": "6z"},
                        pay_all=pay_all("W", "10(b)(1)"))

    assert breaches(result) == {("pay_all_trigger", "10(b)(1)")}


@pytest.mark.parametrize("concealed, winning", [("78s66z", "9s"), ("666z5m", "5m")], ids=["green-pair", "green-pong"])
def test_i14_art_10b1_refused_when_the_winner_holds_a_green_dragon(concealed, winning):
    # I-14: "the 4th green" means the other three are on view, so the winner holds none.
    result = simplified(winner="S", discarder="W", hand={"concealed": concealed, "winning_tile": winning},
                        pay_all=pay_all("W", "10(b)(1)"))

    assert breaches(result) == {("pay_all_trigger", "10(b)(1)")}
    assert "I-14" in result.breaches[0].message
    assert_nothing_moves(result)


def test_art_10b1_liable_must_be_the_discarder():
    result = simplified(winner="S", discarder=None, pay_all=pay_all("W", "10(b)(1)"))

    assert breaches(result) == {("pay_all_trigger", "10(b)(1)")}


def test_art_10b2_pay_all_with_three_players_the_banker_pays_everything():
    result = simplified(stake=200, winner="W", discarder="E", hand={"concealed": "12m99s", "winning_tile": "3m"},
                        capital={"E": 50_000, "S": 50_000, "W": 50_000}, pay_all=pay_all("E", "10(b)(2)"))

    # North is not seated. Chicken at 200: share 200. Dues E 400, S 200 = 600, all from East.
    # Commission at simplified 200/400 is 40: W nets 560.
    assert result.valid
    assert paid(result) == {"E": 600}
    assert result.settlement.net == {"E": -600, "S": 0, "W": 560}


def test_art_10b2_winner_may_hold_the_fourth_copy_of_the_broken_triplet():
    # East held three 9s and discarded one; West holds the fourth 9s: 3 + 1 = 4 copies.
    result = simplified(stake=200, winner="W", discarder="E", hand={"concealed": "123m9s", "winning_tile": "9s"},
                        capital={"E": 50_000, "S": 50_000, "W": 50_000}, pay_all=pay_all("E", "10(b)(2)"))

    assert breaches(result) == set()
    assert paid(result) == {"E": 600}


def test_art_10b2_winner_cannot_hold_two_more_copies_of_the_broken_triplet():
    result = simplified(winner="W", discarder="E", hand={"concealed": "11m99s", "winning_tile": "1m"},
                        pay_all=pay_all("E", "10(b)(2)"))

    assert breaches(result) == {("pay_all_trigger", "10(b)(2)")}


def test_art_10b2_liable_must_be_the_discarder():
    result = simplified(winner="W", discarder="N", hand={"concealed": "12m99s", "winning_tile": "3m"},
                        pay_all=pay_all("E", "10(b)(2)"))

    assert breaches(result) == {("pay_all_trigger", "10(b)(2)")}


# --- I-9: the cap still binds; what does not fit is an error ---------------------------------


def test_i9_pay_all_is_still_capped_by_the_winners_capital():
    result = jogo(hand=PURE_THREE_EXPOSED, capital={**RICH, "S": 300}, pay_all=pay_all("W", "10(a)(1)"))

    # Dues 400 (as in the 10(a)(1) case) > 300: West pays 300; commission 10: S nets 290.
    assert result.valid
    assert result.settlement.capped is True
    assert paid(result) == {"W": 300}
    assert result.settlement.net == {"E": 0, "S": 290, "W": -300, "N": 0}


def test_i9_pay_all_dues_record_what_each_loser_owed():
    result = jogo(hand=PURE_THREE_EXPOSED, pay_all=pay_all("W", "10(a)(1)"))

    assert result.settlement.dues == {"W": 100, "N": 100, "E": 200}


@pytest.mark.parametrize("article", ["10(a)(1)", "10(a)(2)", "10(a)(3)", "10(a)(4)", "10(a)(5)", "10(a)(6)"])
def test_art_10_the_winner_cannot_be_the_liable_seat(article):
    result = jogo(winner="S", discarder="W", pay_all=pay_all("S", article))

    assert breaches(result) == {("pay_all_seat", article)}
    assert_nothing_moves(result)


def test_art_10_the_winner_cannot_be_liable_in_the_simplified_game():
    result = simplified(winner="S", discarder="W", pay_all=pay_all("S", "10(b)(1)"))

    assert breaches(result) == {("pay_all_seat", "10(b)(1)")}


@pytest.mark.parametrize("article", ["10(b)(1)", "10(b)(2)"])
def test_art_10_a_simplified_article_does_not_fit_a_conventional_jogo(article):
    result = jogo(pay_all=pay_all("W", article))

    assert breaches(result) == {("pay_all_article", article)}


@pytest.mark.parametrize("article", ["10(a)(1)", "10(a)(4)", "10(a)(6)"])
def test_art_10_a_conventional_article_does_not_fit_a_simplified_jogo(article):
    result = simplified(winner="S", discarder="W", pay_all=pay_all("W", article))

    assert breaches(result) == {("pay_all_article", article)}


def test_art_3b_liable_seat_must_be_seated():
    result = simplified(winner="S", discarder="E", capital={"E": 5000, "S": 5000},
                        pay_all=pay_all("W", "10(b)(1)"))

    assert ("seat_not_seated", "3(b)") in breaches(result)
    assert_nothing_moves(result)


# --- Exemptions: Art. 10(a)(9), 10(a)(10), 10(b)(4) --------------------------------------------


def test_art_10a9_no_pay_all_on_pure_terminals():
    terminals = {"concealed": "111m999m111p999p1s", "winning_tile": "1s"}
    result = jogo(hand=terminals, pay_all=pay_all("W", "10(a)(6)"))

    assert breaches(result) == {("pay_all_exempt", "10(a)(9)")}
    assert_nothing_moves(result)


def test_art_10a9_no_pay_all_on_all_honours_even_when_10a3_fits():
    # Big three dragons in an all-honours hand, the red dragon discarded by North.
    honours = hand("77z111z22z", "7z", meld("pong", "555z"), meld("pong", "666z"))
    result = jogo(winner="W", discarder="N", hand=honours, pay_all=pay_all("N", "10(a)(3)"))

    assert breaches(result) == {("pay_all_exempt", "10(a)(9)")}


def test_art_10a10_no_pay_all_for_a_dragon_not_yet_seen_on_the_table():
    result = jogo(winner="W", discarder="N", hand=BIG_THREE_DRAGONS, pay_all=pay_all("N", "10(a)(3)", live_tile=True))

    assert breaches(result) == {("pay_all_exempt", "10(a)(10)")}
    assert_nothing_moves(result)


def test_art_10a10_no_pay_all_for_a_wind_not_yet_seen_on_the_table():
    on_a_wind = {"concealed": "345m678p234s111p2z", "winning_tile": "2z"}
    result = jogo(winner="S", discarder="W", hand=on_a_wind, pay_all=pay_all("W", "10(a)(6)", live_tile=True))

    assert breaches(result) == {("pay_all_exempt", "10(a)(10)")}


def test_art_10a10_a_live_suit_tile_is_no_exemption():
    result = jogo(winner="N", discarder="S", hand=CHICKEN_ON_A_CHOW, pay_all=pay_all("S", "10(a)(6)", live_tile=True))

    # Chicken at 25, N wins: dues E 50, S 25, W 25 = 100, all from South; N nets 90.
    assert result.valid
    assert paid(result) == {"S": 100}
    assert result.settlement.net == {"E": 0, "S": -100, "W": 0, "N": 90}


def test_art_10b4_no_pay_all_for_a_green_dragon_not_yet_seen_on_the_table():
    # East held three 發 concealed while ready and discarded one (10(b)(2)); West pairs it.
    green_pair = {"concealed": "789s6z", "winning_tile": "6z"}
    result = simplified(winner="W", discarder="E", hand=green_pair, pay_all=pay_all("E", "10(b)(2)", live_tile=True))

    assert ("pay_all_exempt", "10(b)(4)") in breaches(result)
    assert ("pay_all_exempt", "10(a)(10)") not in breaches(result)
    assert_nothing_moves(result)


def test_art_10b4_live_green_dragon_is_the_only_breach():
    green_pair = {"concealed": "789s6z", "winning_tile": "6z"}
    result = simplified(winner="W", discarder="E", hand=green_pair, pay_all=pay_all("E", "10(b)(2)", live_tile=True))

    assert breaches(result) == {("pay_all_exempt", "10(b)(4)")}


# --- False win (jogo nulo): Art. 10(a)(7)–(8), 10(b)(3), I-10, I-1 ------------------------------


def test_art_10a8_false_win_by_the_banker_pays_each_other_player_a_two_fan_share():
    result = false_win("E")

    # I-10: the 2-fán share is 25 × 4 = 100, once, to each of S, W, N; East pays 300.
    assert result.valid
    assert result.fan is None
    assert {(p.payer, p.payee, p.amount) for p in result.settlement.payments} == {
        ("E", "S", 100), ("E", "W", 100), ("E", "N", 100)}
    assert result.settlement.net == {"E": -300, "S": 100, "W": 100, "N": 100}
    assert result.settlement.commission == 0
    assert result.banker_moves is False


def test_art_10a8_false_win_by_a_non_banker_pays_the_banker_two_fan_the_others_one_fan():
    result = false_win("W", stake=50)

    # I-10: to the banker the 2-fán share 50 × 4 = 200; to S and N the 1-fán share 50 × 2 = 100.
    assert {(p.payer, p.payee, p.amount) for p in result.settlement.payments} == {
        ("W", "E", 200), ("W", "S", 100), ("W", "N", 100)}
    assert result.settlement.net == {"E": 200, "S": 100, "W": -400, "N": 100}
    assert result.settlement.commission == 0
    assert result.banker_moves is False


def test_art_10a7_declaring_on_an_uncorrected_wrong_exposure_is_a_false_win():
    result = false_win("N", stake=100)

    # As 10(a)(8) for a non-banker: E 100 × 4 = 400; S and W 100 × 2 = 200; N pays 800.
    assert result.settlement.net == {"E": 400, "S": 200, "W": 200, "N": -800}


# A false win's record may give the offender's hand (docs/record-format.md); when it is a winning hand,
# the declaration was a win, not a false win «sem a necessária combinação» (Art. 10(b)(3), docs/rules.md §6).

@pytest.mark.parametrize("offender_hand", [
    CHICKEN,  # 345m 678p 234s 111p 99m
    hand("19m19p19s1234567z", "1m"),  # thirteen orphans
    hand("234s99m11p", "1p", meld("chow", "678p"), meld("kong", "3333z", exposed=False)),
], ids=["chicken", "thirteen-orphans", "with-melds"])
def test_art_10a8_a_false_win_whose_hand_wins_is_refused(offender_hand):
    result = false_win("N", hand=offender_hand)

    assert breaches(result) == {("false_win_winning_hand", "10(a)(8)")}
    assert "North" in result.breaches[0].message
    assert_nothing_moves(result)


def test_art_10b3_a_simplified_false_win_whose_hand_wins_is_refused():
    result = jogo(variant="simplified", stake=100, result="false_win", winner=None, discarder=None,
                  hand=SIMPLE_CHICKEN, false_win={"seat": "S"})

    assert breaches(result) == {("false_win_winning_hand", "10(b)(3)")}


@pytest.mark.parametrize("offender_hand", [
    hand("345m678p234s99m1p", "2p"),  # no combination of Art. 4
    hand("345m678p99m11p", "1p", meld("chow", "235s")),  # a wrong exposure (Art. 10(a)(7))
    hand("19m19p19s123456z", "1m"),  # one tile short
], ids=["no-hand", "wrong-exposure", "short"])
def test_art_10a8_a_false_win_whose_hand_does_not_win_stands(offender_hand):
    result = false_win("N", stake=100, hand=offender_hand)

    # As 10(a)(8) for a non-banker: E 400, S and W 200 each; N pays 800.
    assert result.valid
    assert result.settlement.net == {"E": 400, "S": 200, "W": 200, "N": -800}


def test_art_10b3_a_simplified_false_win_with_a_claimed_pong_stands():
    # Art. 5(b)(3): no pong is claimed in the simplified game, so this exposure is wrong.
    result = jogo(variant="simplified", stake=100, result="false_win", winner=None, discarder=None,
                  hand=hand("1p", "1p", meld("pong", "789s")), false_win={"seat": "S"})

    assert result.valid


def test_art_2_a_false_win_hand_with_a_fifth_copy_is_refused():
    result = false_win("N", hand=hand("11111m234p567s9s", "9s"))

    assert breaches(result) == {("fifth_copy", "2(a)")}


def test_i10_false_win_compensation_is_not_capped():
    result = false_win("E", stake=100, capital={"E": 10, "S": 10, "W": 10, "N": 10})

    # Nobody won, so no capital cap: 100 × 4 = 400 to each, East pays 1200.
    assert result.settlement.net == {"E": -1200, "S": 400, "W": 400, "N": 400}


@pytest.mark.parametrize(
    "capital, offender, stake, net",
    [
        # Two players: the other is paid the 1-fán share 100 × 2 = 200.
        ({"E": 5000, "S": 5000}, "S", 100, {"E": 200, "S": -200}),
        # Three players, the banker offends: 200 × 2 = 400 to each of W and N; no banker double.
        ({"E": 5000, "W": 5000, "N": 5000}, "E", 200, {"E": -800, "W": 400, "N": 400}),
        # Four players: 500 × 2 = 1000 to each of E, S, W; the banker gets no double either.
        ({"E": 5000, "S": 5000, "W": 5000, "N": 5000}, "N", 500, {"E": 1000, "S": 1000, "W": 1000, "N": -3000}),
    ],
)
def test_art_10b3_simplified_false_win_pays_every_other_present_player_a_one_fan_share(capital, offender, stake, net):
    result = jogo(variant="simplified", stake=stake, capital=capital, result="false_win", winner=None,
                  discarder=None, hand=None, false_win={"seat": offender})

    assert result.valid
    assert result.settlement.net == net
    assert result.settlement.commission == 0
    assert {p.payer for p in result.settlement.payments} == {offender}
    assert result.banker_moves is False


def test_art_10b3_the_offender_must_be_seated():
    result = jogo(variant="simplified", stake=100, capital={"E": 5000, "S": 5000}, result="false_win",
                  winner=None, discarder=None, hand=None, false_win={"seat": "N"})

    assert breaches(result) == {("seat_not_seated", "3(b)")}
    assert_nothing_moves(result)


def test_false_win_output_has_no_grade_and_keeps_the_bank():
    out = false_win("S", stake=100).as_dict()

    # I-10 non-banker at 100: E 400, W 200, N 200; S pays 800.
    assert out["valid"] is True
    assert out["fan"] is None
    assert out["items"] == []
    assert out["commission"] == 0
    assert out["net"] == {"E": 400, "S": -800, "W": 200, "N": 200}
    assert out["next"] == {"banker_moves": False}


def test_art_10b1_refused_when_the_winner_holds_all_four_green_dragons():
    # The liable player held the last 發 (Art. 10(b)(1)); a winner with a kong of 6z leaves none for him.
    record = {
        "variant": "simplified", "stake": 100, "round_wind": "E",
        "capital": {"E": 5000, "S": 5000, "W": 5000}, "result": "win", "winner": "S", "discarder": "W",
        "hand": {"concealed": "5m", "winning_tile": "5m",
                 "melds": [{"kind": "kong", "tiles": "6666z", "exposed": False}]},
        "pay_all": {"seat": "W", "article": "10(b)(1)", "live_tile": False},
    }
    result = score(read_record(record))
    assert [(b.code, b.article) for b in result.breaches] == [("pay_all_trigger", "10(b)(1)")]
