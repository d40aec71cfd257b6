"""C-1's default minimum capital (docs/rules.md §11): the most one seat can be made to pay in one
jogo, worked out by the engine's own settlement. Each figure below is also worked out by hand."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from regulation.capital import most_payable
from regulation.rules import DEFAULT
from regulation.settlement import settle_false_win, settle_win


@pytest.mark.parametrize(("variant", "stake", "players", "by_hand"), [
    # Conventional, grade cap 2 fán (Art. 6(a)(3)): the top share is X × 2² = 4X (I-6). A pay-all on the
    # banker's win (Art. 10, I-9) makes the liable seat pay the three losers' dues, each a double (Art. 7):
    # 3 × 2 × 4X = 24X.
    ("conventional", 25, 4, 24 * 25),        # 600
    ("conventional", 1000, 4, 24 * 1000),    # 24,000
    # Simplified, grade cap 1 fán (I-5): the top share is 2X; the same pay-all costs 3 × 2 × 2X = 12X.
    ("simplified", 100, 4, 12 * 100),        # 1,200
    ("simplified", 5000, 4, 12 * 5000),      # 60,000
    # Fewer players, fewer losers to pay for: 2 × 2 × 2X = 8X with three, 1 × 2 × 2X = 4X with two.
    ("simplified", 100, 3, 8 * 100),         # 800
    ("simplified", 100, 2, 4 * 100),         # 400
])
def test_the_default_minimum_is_the_pay_all_on_a_bankers_win_at_the_grade_cap(variant, stake, players, by_hand):
    assert most_payable(DEFAULT, variant, stake, players) == by_hand


def test_it_is_more_than_a_false_win_or_a_plain_loss_costs():
    """Conventional 25/50: a banker's false win costs 3 × 4X = 300 (I-10); the banker losing a 2-fán
    hand without pay-all costs 2 × 4X = 200; the pay-all costs 600."""
    capital = dict.fromkeys("ESWN", 10**9)
    false_win = settle_false_win(rules=DEFAULT, variant="conventional", stake=25, offender="E", capital=capital)
    plain = settle_win(rules=DEFAULT, variant="conventional", stake=25, fan=2, winner="S", capital=capital)
    assert -false_win.net["E"] == 300
    assert -plain.net["E"] == 200
    assert most_payable(DEFAULT, "conventional", 25) == 600


@given(variant=st.sampled_from(["conventional", "simplified"]), data=st.data())
def test_no_single_jogo_costs_a_seat_more_than_the_minimum(variant, data):
    """Whatever the winner, the grade and the seat liable for a pay-all, no seat pays more."""
    stake = data.draw(st.sampled_from(DEFAULT.tiers(variant)))
    winner = data.draw(st.sampled_from("ESWN"))
    fan = data.draw(st.integers(0, DEFAULT.max_fan[variant]))
    liable = data.draw(st.sampled_from([None] + [seat for seat in "ESWN" if seat != winner]))
    capital = dict.fromkeys("ESWN", 10**9)
    settlement = settle_win(rules=DEFAULT, variant=variant, stake=stake, fan=fan, winner=winner, capital=capital,
                            pay_all=liable)
    assert max(-net for net in settlement.net.values()) <= most_payable(DEFAULT, variant, stake)


def test_a_game_seats_two_to_four():
    with pytest.raises(ValueError):
        most_payable(DEFAULT, "simplified", 100, 5)
