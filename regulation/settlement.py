"""Who pays whom (Art. 7, Art. 8, Art. 9(a)(4)/(b)(3), Art. 10; RULES.md §5–§6).

Amounts are whole currency units (int). On every jogo the seats' net changes plus the
commission sum to zero.
"""
from __future__ import annotations

from typing import Mapping

from .rules import RuleSet
from .seats import BANKER, SEATS, banker_factor, turn_order_after
from .values import Value


class Payment(Value, rename={"payer": "from", "payee": "to"}):
    payer: str
    payee: str
    amount: int


class Settlement(Value):
    payments: tuple[Payment, ...]
    commission: int
    net: dict[str, int]
    share: int = 0  # the single share X × 2^grade (I-6); 0 when nobody won
    dues: Mapping[str, int] = {}  # what each loser owed before the cap (Art. 7)
    cap: int | None = None  # the winner's capital at stake (Art. 9(a)(4))
    capped: bool = False  # the cap bound (I-7)


def nothing_moves(seated) -> Settlement:
    """A drawn jogo, or a record that breaks the regulation: no money moves (I-1, I-8)."""
    return Settlement((), 0, {seat: 0 for seat in SEATS if seat in seated})


def apportion_cap(dues: Mapping[str, int], cap: int, order: list[str]) -> dict[str, int]:
    """I-7: reduce each due pro rata so that they add up to `cap`, in whole units by largest
    remainder; ties go to the earlier seat in `order` (turn order after the winner)."""
    total = sum(dues.values())
    if total <= cap:
        return dict(dues)
    reduced = {seat: dues[seat] * cap // total for seat in order}
    leftover = cap - sum(reduced.values())
    by_remainder = sorted(order, key=lambda seat: -(dues[seat] * cap % total))  # stable: ties keep turn order
    for seat in by_remainder[:leftover]:
        reduced[seat] += 1
    return reduced


def settle_win(*, rules: RuleSet, variant: str, stake: int, fan: int, winner: str,
               capital: Mapping[str, int], pay_all: str | None = None) -> Settlement:
    """Art. 7: every loser pays one share, the banker pays and receives double.

    Art. 9(a)(4)/(b)(3): the winner receives at most his capital at stake (I-7).
    Art. 10 (I-9): under pay-all the liable seat pays every loser's due.
    Art. 8 (I-8): the commission is taken from the winner after the cap.
    """
    share = rules.share(stake, fan)
    losers = turn_order_after(winner, capital)  # the order I-7 breaks ties in
    dues = {seat: share * banker_factor(seat, winner) for seat in losers}
    total = sum(dues.values())
    cap = capital[winner]
    if pay_all is not None:
        owed = {pay_all: min(total, cap)}
    elif total > cap:
        owed = apportion_cap(dues, cap, losers)
    else:
        owed = dues
    commission = rules.commission_for(variant, stake)
    received = sum(owed.values())
    payments = tuple([Payment(seat, winner, amount) for seat, amount in owed.items() if amount])
    net = dict.fromkeys(capital, 0)  # capital is keyed in turn order E, S, W, N
    for seat, amount in owed.items():
        net[seat] = -amount
    net[winner] = received - commission
    return Settlement(payments, commission, net, share, dues, cap, total > cap)


def settle_false_win(*, rules: RuleSet, variant: str, stake: int, offender: str,
                     capital: Mapping[str, int]) -> Settlement:
    """Art. 10(a)(7)–(8), (b)(3), I-10: the offender compensates every other seated player with
    the single share of the named grade; no cap (nobody won), no commission, the bank stays."""
    with_banker, between_others = rules.false_win_fan[variant]
    payments = []
    for seat in turn_order_after(offender, capital):
        grade = with_banker if BANKER in (offender, seat) else between_others
        payments.append(Payment(offender, seat, rules.share(stake, grade)))
    net = dict.fromkeys(capital, 0)
    for payment in payments:
        net[payment.payer] -= payment.amount
        net[payment.payee] += payment.amount
    return Settlement(tuple(payments), 0, net)
