"""Money: Art. 7 (shares, the banker's double), Art. 8 (the house commission), Art. 9(a)(4)/(b)(3)
(the winner's capital cap), docs/rules.md I-6, I-7, I-8, and conservation.

Every expected amount is worked out by hand from docs/rules.md §5 in the test's comment.
"""
import pytest
from hypothesis import given, strategies as st

from regulation.settlement import apportion_cap
from tests.builders.jogos import CHICKEN, scored

# A chicken hand (grade 0): 345m 678p 234s, a pong of 1p, a pair of 9m; no item scores.
# One red-dragon pong (Art. 6(a)(2)): 1 fán.
ONE_FAN = {"concealed": "345m678p234s99m77z", "winning_tile": "7z"}
# White and red dragon pongs: 2 fán.
TWO_FAN = {"concealed": "345m678p99m555z77z", "winning_tile": "7z"}
# Pure one suit (2) and all chows (1): 3 fán raw, capped at 2 (I-5).
THREE_FAN_RAW = {"concealed": "123p456p789p123p5p", "winning_tile": "5p"}
# Simplified (Art. 4(b)): one set and a pair; chicken, and won on the green dragon (1 fán).
SIMPLE_CHICKEN = {"concealed": "789s1p", "winning_tile": "1p"}
SIMPLE_GREEN = {"concealed": "789s6z", "winning_tile": "6z"}

RICH = {"E": 1_000_000, "S": 1_000_000, "W": 1_000_000, "N": 1_000_000}


def jogo(**fields):
    """Score a conventional won jogo: South wins a chicken hand on West's discard, unless told."""
    fields.setdefault("capital", RICH)
    return scored(**fields)


def paid(result):
    """{payer: amount} of a won jogo's payments (their order is not part of the rule)."""
    payments = result.settlement.payments
    assert len({p.payer for p in payments}) == len(payments)
    return {p.payer: p.amount for p in payments}


def conserved(result):
    return sum(result.settlement.net.values()) + result.settlement.commission == 0


# --- Art. 7: every loser pays one share; the banker pays and receives double -----------------


def test_art_7_banker_pays_double_to_a_non_banker_winner():
    result = jogo(stake=100, winner="N", discarder="S", hand=ONE_FAN)

    # share = 100 × 2^1 = 200 (I-6); E pays 2 × 200 = 400, S and W 200 each: 800 in all.
    # Commission at 100/200 is 40 (Art. 8): N nets 800 − 40 = 760.
    assert result.valid and result.fan == 1
    assert result.settlement.share == 200
    assert paid(result) == {"E": 400, "S": 200, "W": 200}
    assert result.settlement.commission == 40
    assert result.settlement.net == {"E": -400, "S": -200, "W": -200, "N": 760}
    assert conserved(result)


def test_art_7_the_discarder_pays_no_more_than_the_other_losers():
    on_discard = jogo(stake=50, winner="W", discarder="N")
    self_drawn = jogo(stake=50, winner="W", discarder=None)

    # Chicken: share 50. N (the discarder) 50, S 50, E 2 × 50 = 100; 200 − 20 = 180 either way.
    for result in (on_discard, self_drawn):
        assert paid(result) == {"N": 50, "E": 100, "S": 50}
        assert result.settlement.net == {"E": -100, "S": -50, "W": 180, "N": -50}


def test_art_7_banker_winner_receives_double_from_every_loser():
    result = jogo(winner="E", discarder="W", hand=TWO_FAN)

    # share = 25 × 2^2 = 100; each of S, W, N pays 2 × 100 = 200: 600, less 10 commission.
    assert result.fan == 2
    assert paid(result) == {"S": 200, "W": 200, "N": 200}
    assert result.settlement.net == {"E": 590, "S": -200, "W": -200, "N": -200}
    assert conserved(result)


def test_art_7_non_banker_gross_is_four_shares_and_banker_gross_six():
    non_banker = jogo(stake=200, winner="S", discarder=None)
    banker = jogo(stake=200, winner="E", discarder=None)

    # Chicken at 200: S gets 2 + 1 + 1 = 4 shares = 800; E gets 2 + 2 + 2 = 6 shares = 1200.
    assert sum(paid(non_banker).values()) == 4 * 200
    assert sum(paid(banker).values()) == 6 * 200


@pytest.mark.parametrize(
    "hand, fan, share",
    [
        (CHICKEN, 0, 200),  # 200 × 2^0
        (ONE_FAN, 1, 400),  # 200 × 2^1
        (TWO_FAN, 2, 800),  # 200 × 2^2
        (THREE_FAN_RAW, 2, 800),  # 3 fán raw, capped at 2 (I-5): still 200 × 2^2, not 2^3
    ],
)
def test_i6_share_doubles_with_every_fan(hand, fan, share):
    result = jogo(stake=200, winner="S", discarder=None, hand=hand)

    assert result.fan == fan
    assert result.settlement.share == share
    # E pays double, W and N one share (Art. 7).
    assert paid(result) == {"E": 2 * share, "W": share, "N": share}
    assert result.settlement.dues == {"W": share, "N": share, "E": 2 * share}


# --- Art. 9(a)(4), (b)(3) and I-7: the winner's capital caps what he receives ------------------


def test_art_9a4_cap_is_not_applied_when_the_dues_fit_the_capital():
    # Chicken at 25: dues W 25, N 25, E 50 = 100, exactly South's capital.
    result = jogo(capital={**RICH, "S": 100})

    assert result.settlement.cap == 100
    assert result.settlement.capped is False
    assert paid(result) == {"W": 25, "N": 25, "E": 50}


def test_art_9a4_banker_winner_capped_pro_rata():
    result = jogo(winner="E", discarder="W", hand=TWO_FAN, capital={**RICH, "E": 300})

    # Dues 200 each = 600 > 300: each × 300/600 = 100 exactly. E nets 300 − 10 = 290.
    assert result.settlement.capped is True
    assert result.settlement.cap == 300
    assert paid(result) == {"S": 100, "W": 100, "N": 100}
    assert result.settlement.net == {"E": 290, "S": -100, "W": -100, "N": -100}
    assert conserved(result)


def test_i7_largest_remainder_beats_an_earlier_seat():
    result = jogo(capital={**RICH, "S": 53})

    # Dues W 25, N 25, E 50 (total 100); × 53/100: W 13.25, N 13.25, E 26.5.
    # Floors 13 + 13 + 26 = 52, one unit left: E has the largest remainder (.5), though E
    # comes last in turn order after South (W, N, E). S nets 53 − 10 = 43.
    assert paid(result) == {"W": 13, "N": 13, "E": 27}
    assert result.settlement.net == {"E": -27, "S": 43, "W": -13, "N": -13}
    assert conserved(result)


def test_i7_tie_goes_to_the_earlier_seat_in_turn_order_after_the_winner():
    result = jogo(winner="W", discarder="N", capital={**RICH, "W": 50})

    # Dues N 25, E 50, S 25 (total 100); × 50/100: N 12.5, E 25, S 12.5.
    # Floors 12 + 25 + 12 = 49, one unit left; N and S tie at .5. Turn order after West is
    # N, E, S, so North gets it (in plain seat order E, S, W, N it would have gone to South).
    # W nets 50 − 10 = 40.
    assert paid(result) == {"N": 13, "E": 25, "S": 12}
    assert result.settlement.net == {"E": -25, "S": -12, "W": 40, "N": -13}
    assert conserved(result)


def test_i7_three_way_tie_under_a_banker_winner_goes_to_south():
    result = jogo(winner="E", discarder=None, capital={**RICH, "E": 100})

    # Chicken: dues 50 each = 150; × 100/150 = 33.33 each, floors 99, one unit left; all tie,
    # South is first after East. E nets 100 − 10 = 90.
    assert paid(result) == {"S": 34, "W": 33, "N": 33}
    assert result.settlement.net == {"E": 90, "S": -34, "W": -33, "N": -33}


def test_art_9b3_simplified_winner_capped_with_tie_break():
    result = jogo(variant="simplified", stake=100, winner="N", discarder=None, hand=SIMPLE_GREEN,
                  capital={"E": 5000, "S": 5000, "W": 5000, "N": 250})

    # Green winning tile: 1 fán, share 100 × 2 = 200. Dues after N: E 400, S 200, W 200 = 800.
    # × 250/800: E 125, S 62.5, W 62.5 → 125 + 62 + 62 = 249, one unit to the tie S/W: South
    # is first after North. Commission at simplified 100/200 is 20: N nets 250 − 20 = 230.
    assert result.fan == 1
    assert paid(result) == {"E": 125, "S": 63, "W": 62}
    assert result.settlement.net == {"E": -125, "S": -63, "W": -62, "N": 230}
    assert conserved(result)


def test_i7_apportion_cap_follows_the_given_turn_order_on_ties():
    dues = {"S": 1, "W": 1, "N": 1}

    # 2/3 each, floors 0, two units left, all tied: the first two in the order given.
    assert apportion_cap(dues, 2, ["W", "N", "S"]) == {"W": 1, "N": 1, "S": 0}
    assert apportion_cap(dues, 2, ["N", "S", "W"]) == {"N": 1, "S": 1, "W": 0}


def test_i7_apportion_cap_leaves_dues_alone_when_they_fit():
    assert apportion_cap({"S": 50, "W": 25}, 75, ["S", "W"]) == {"S": 50, "W": 25}


def test_i7_apportion_cap_adds_up_to_the_cap_exactly():
    # 100, 50, 50 → cap 7: 3.5, 1.75, 1.75 → floors 3, 1, 1 = 5, two units: .75 and .75 beat .5.
    assert apportion_cap({"E": 100, "W": 50, "N": 50}, 7, ["W", "N", "E"]) == {"E": 3, "W": 2, "N": 2}


# --- Art. 8 and I-8: the house commission -------------------------------------------------------

CONVENTIONAL_TIERS = [(25, 10), (50, 20), (100, 40), (200, 80), (300, 120), (500, 200), (1000, 400),
                      (2000, 800), (3000, 1200), (5000, 2000), (10000, 4000)]
SIMPLIFIED_TIERS = [(100, 20), (200, 40), (300, 60), (500, 100), (1000, 200), (2000, 400), (3000, 600),
                    (5000, 1000), (10000, 2000), (20000, 4000), (30000, 6000)]


@pytest.mark.parametrize("stake, commission", CONVENTIONAL_TIERS)
def test_art_8a_commission_by_conventional_tier(stake, commission):
    result = jogo(stake=stake)

    # Chicken, South wins: 4 shares of X (2 from E, 1 each from W and N), less the commission.
    assert result.valid
    assert result.settlement.commission == commission
    assert result.settlement.net["S"] == 4 * stake - commission
    assert conserved(result)


@pytest.mark.parametrize("stake, commission", SIMPLIFIED_TIERS)
def test_art_8b_commission_by_simplified_tier(stake, commission):
    result = jogo(variant="simplified", stake=stake, winner="S", discarder="E", hand=SIMPLE_CHICKEN,
                  capital={"E": 1_000_000, "S": 1_000_000})

    # Two players: East pays the banker's double, 2X; South nets 2X − commission.
    assert result.valid
    assert result.settlement.commission == commission
    assert result.settlement.net == {"E": -2 * stake, "S": 2 * stake - commission}


def test_i8_commission_is_taken_after_the_cap():
    result = jogo(capital={**RICH, "S": 60})

    # Dues W 25, N 25, E 50 = 100 > 60: × 0.6 → W 15, N 15, E 30. Then the 10 commission:
    # South nets 60 − 10 = 50 (not min(100 − 10, 60) = 60).
    assert paid(result) == {"W": 15, "N": 15, "E": 30}
    assert result.settlement.commission == 10
    assert result.settlement.net["S"] == 50
    assert conserved(result)


def test_i8_commission_is_taken_on_a_pay_all_jogo():
    result = jogo(stake=50, winner="S", discarder="W", pay_all={"seat": "W", "article": "10(a)(6)"})

    # Chicken at 50: dues W 50, N 50, E 100 = 200, all paid by West (I-9); commission 20.
    assert result.valid
    assert paid(result) == {"W": 200}
    assert result.settlement.commission == 20
    assert result.settlement.net == {"E": 0, "S": 180, "W": -200, "N": 0}


def test_i8_art_8_commission_never_exceeds_what_the_capped_winner_receives():
    result = jogo(capital={**RICH, "S": 5})

    # I-8 (RULES §9): dues W 25, N 25, E 50 = 100, capped at South's capital 5: × 0.05 → W 1.25,
    # N 1.25, E 2.5 → 1, 1, 2 and the leftover unit to E (remainder .5, the largest): W 1, N 1,
    # E 3. The commission (10 at 25/50) is taken from the 5 he receives: 5, so he nets 0, not −5.
    assert paid(result) == {"W": 1, "N": 1, "E": 3}
    assert result.settlement.commission == 5
    assert result.settlement.net == {"E": -3, "S": 0, "W": -1, "N": -1}
    assert result.as_dict()["commission"] == 5
    assert conserved(result)


def test_i8_a_winner_with_no_capital_receives_nothing_and_pays_no_commission():
    result = jogo(capital={**RICH, "S": 0})

    assert result.valid
    assert result.settlement.payments == ()
    assert result.settlement.commission == 0
    assert set(result.settlement.net.values()) == {0}


def test_i8_a_capped_pay_all_winner_at_a_high_tier_ends_no_worse_off_than_the_losers():
    # 10 000/20 000: commission 4 000. South's capital is 3 000, all paid by West under
    # 10(a)(6) (I-9); the commission is the 3 000 he receives, so he nets 0 like East and North.
    result = jogo(stake=10_000, capital={**RICH, "S": 3_000}, pay_all={"seat": "W", "article": "10(a)(6)"})

    assert result.valid
    assert paid(result) == {"W": 3_000}
    assert result.settlement.commission == 3_000
    assert result.settlement.net == {"E": 0, "S": 0, "W": -3_000, "N": 0}
    assert conserved(result)


def test_i8_the_full_commission_is_taken_once_the_winner_receives_it():
    # Capital 12 at 25/50: he receives 12 and pays the whole 10.
    result = jogo(capital={**RICH, "S": 12})

    assert result.settlement.commission == 10
    assert result.settlement.net["S"] == 2


def test_i8_no_commission_on_a_drawn_jogo():
    result = jogo(stake=100, result="draw", winner=None, discarder=None, hand=None)

    assert result.valid
    assert result.settlement.commission == 0
    assert result.settlement.payments == ()
    assert result.settlement.net == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_i8_no_commission_on_a_void_jogo():
    result = jogo(stake=100, result="false_win", winner=None, discarder=None, hand=None,
                  false_win={"seat": "S"})

    # The compensation moves money between the players (I-10) but the house takes nothing.
    assert result.valid
    assert result.settlement.commission == 0
    assert sum(result.settlement.net.values()) == 0


def test_no_money_moves_on_a_jogo_that_breaks_the_regulation():
    result = jogo(hand={"concealed": "1155m3377p2288s9s", "winning_tile": "9s"})  # seven pairs

    assert not result.valid
    assert result.settlement.payments == ()
    assert result.settlement.commission == 0
    assert result.settlement.net == {"E": 0, "S": 0, "W": 0, "N": 0}


# --- The simplified game with 2 and 3 players (Art. 3(b), Art. 7) -------------------------------


def test_art_7_simplified_two_players_banker_wins_double():
    result = jogo(variant="simplified", stake=500, winner="E", discarder=None, hand=SIMPLE_GREEN,
                  capital={"E": 50_000, "S": 50_000})

    # 1 fán: share 500 × 2 = 1000; South pays the banker double, 2000; commission 100.
    assert result.fan == 1
    assert paid(result) == {"S": 2000}
    assert result.settlement.net == {"E": 1900, "S": -2000}


def test_art_7_simplified_three_players_only_seated_seats_pay():
    result = jogo(variant="simplified", stake=300, winner="W", discarder=None, hand=SIMPLE_CHICKEN,
                  capital={"E": 50_000, "W": 50_000, "N": 50_000})

    # South is not seated. Chicken: share 300; N 300, E 2 × 300 = 600: 900, less 60 commission.
    assert result.fan == 0
    assert paid(result) == {"N": 300, "E": 600}
    assert result.settlement.net == {"E": -600, "W": 840, "N": -300}
    assert conserved(result)


def test_output_lists_payments_and_net_as_jogo_format_says():
    out = jogo(stake=50).as_dict()

    # Chicken at 50: E 100, W 50, N 50 to South; S nets 200 − 20 = 180.
    assert sorted(out["payments"], key=lambda p: p["from"]) == [
        {"from": "E", "to": "S", "amount": 100},
        {"from": "N", "to": "S", "amount": 50},
        {"from": "W", "to": "S", "amount": 50},
    ]
    assert out["commission"] == 20
    assert out["net"] == {"E": -100, "S": 180, "W": -50, "N": -50}
    assert out["next"] == {"banker_moves": True}


# --- Conservation and the invariants of Art. 7 / Art. 9(a)(4) (properties) ----------------------

HANDS = [(CHICKEN, 0), (ONE_FAN, 1), (TWO_FAN, 2)]


@given(
    tier=st.sampled_from(CONVENTIONAL_TIERS),
    hand_fan=st.sampled_from(HANDS),
    winner=st.sampled_from("ESWN"),
    discarder=st.sampled_from(["E", "S", "W", "N", None]),
    capital=st.integers(min_value=0, max_value=200_000),
    pay_all=st.booleans(),
)
def test_money_is_conserved_and_the_cap_never_exceeded(tier, hand_fan, winner, discarder, capital, pay_all):
    stake, commission = tier
    hand, fan = hand_fan
    if discarder == winner:
        discarder = None
    fields = {}
    if pay_all and discarder is not None:
        fields["pay_all"] = {"seat": discarder, "article": "10(a)(6)"}
    result = jogo(stake=stake, winner=winner, discarder=discarder, hand=hand,
                  capital={**RICH, winner: capital}, **fields)

    assert result.valid
    settlement = result.settlement
    share = stake * 2 ** fan
    dues = {seat: share * (2 if "E" in (seat, winner) else 1) for seat in "ESWN" if seat != winner}
    received = sum(p.amount for p in settlement.payments)
    assert sum(settlement.net.values()) + settlement.commission == 0
    assert received == min(sum(dues.values()), capital)
    assert settlement.commission == min(commission, received)  # I-8: never more than he receives
    assert settlement.net[winner] >= 0
    assert all(p.payee == winner for p in settlement.payments)
    if "pay_all" in fields:
        assert {p.payer for p in settlement.payments} <= {discarder}
    else:
        for p in settlement.payments:
            assert p.amount <= dues[p.payer]
        if sum(dues.values()) <= capital:
            assert paid(result) == dues  # the banker's ratio holds uncapped


@given(
    dues=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=3),
    cap=st.integers(min_value=0, max_value=40_000),
)
def test_i7_apportionment_sums_to_the_cap_and_stays_within_a_unit_of_pro_rata(dues, cap):
    order = ["S", "W", "N"][: len(dues)]
    due = dict(zip(order, dues))
    total = sum(dues)
    reduced = apportion_cap(due, cap, order)

    if total <= cap:
        assert reduced == due
    else:
        assert sum(reduced.values()) == cap
        for seat in order:
            exact = due[seat] * cap / total
            assert exact - 1 < reduced[seat] < exact + 1
            assert 0 <= reduced[seat] <= due[seat]
