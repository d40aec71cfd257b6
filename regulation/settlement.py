"""Who pays whom (Art. 7, Art. 8, Art. 9(a)(4)/(b)(3), Art. 10; docs/rules.md §5–§6).

Amounts are whole currency units (int). On every jogo the seats' net changes plus the
commission sum to zero.
"""
from __future__ import annotations

from collections.abc import Container, Mapping

from .rules import RuleSet
from .seats import BANKER, SEATS, banker_factor, turn_order_after
from .values import Value


class Payment(Value, frozen=True, rename={"payer": "from", "payee": "to"}):
    payer: str
    payee: str
    amount: int


class Settlement(Value, frozen=True):
    payments: tuple[Payment, ...]
    commission: int
    net: dict[str, int]
    share: int = 0  # the single share X × 2^grade (I-6); 0 when nobody won
    dues: Mapping[str, int] = {}  # what each loser owed before the cap (Art. 7)
    cap: int | None = None  # the winner's capital at stake (Art. 9(a)(4))
    capped: bool = False  # the cap bound (I-7)


def nothing_moves(seated: Container[str]) -> Settlement:
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
    Art. 8 (I-8): the commission is taken from the winner after the cap, out of what he
    receives, so it never exceeds it: a winner capped below the tier's commission pays all he
    receives and nets 0, never less (docs/rules.md §9.2).
    """
    seated = tuple(capital)
    shares = _SHARES.get((id(rules), variant, stake, fan, winner, seated))
    if shares is None or shares[0] is not rules:
        shares = _shares(rules, variant, stake, fan, winner, seated)
    _, share, commission, losers, dues, total, payments, net = shares
    cap = capital[winner]
    if pay_all is None and total <= cap and commission <= total:
        return Settlement(payments, commission, dict(net), share, dict(dues), cap, False)
    if pay_all is not None:
        owed = {pay_all: min(total, cap)}
    elif rules.readings["I-7"] == "turn_order":
        owed = pay_in_turn(dues, cap, losers)
    else:
        owed = apportion_cap(dues, cap, losers)
    received = sum(owed.values())
    if rules.readings["I-8"] == "from_what_is_received":
        commission = min(commission, received)
    payments = tuple([Payment(seat, winner, amount) for seat, amount in owed.items() if amount])
    net = dict.fromkeys(capital, 0)  # capital is keyed in turn order E, S, W, N
    for seat, amount in owed.items():
        net[seat] = -amount
    net[winner] = received - commission
    return Settlement(payments, commission, net, share, dict(dues), cap, total > cap)


def pay_in_turn(dues: Mapping[str, int], cap: int, order: list[str]) -> dict[str, int]:
    """I-7's other reading: the losers pay in full in `order` until the winner has `cap`."""
    owed = {}
    left = cap
    for seat in order:
        owed[seat] = min(dues[seat], left)
        left -= owed[seat]
    return owed


_Shares = tuple[RuleSet, int, int, list[str], dict[str, int], int, tuple[Payment, ...], dict[str, int]]
# A win settles the same under one rule set whenever the variant, the stake, the grade, the
# winner and the seats are the same and the cap does not bind: a few thousand cases at most, so
# each is worked out once. Keyed by the rule set's id; the entry holds the rule set itself, so
# that the id stays its own while the entry is kept.
_SHARES: dict[tuple[int, str, int, int, str, tuple[str, ...]], _Shares] = {}
_SHARES_KEPT = 20_000


def _shares(rules: RuleSet, variant: str, stake: int, fan: int, winner: str, seated: tuple[str, ...]) -> _Shares:
    """The single share (I-6) and the commission (Art. 8); the losers in turn order after the
    winner (the order I-7 breaks ties in), each one's due (Art. 7), their total, and the payments
    and net changes when every due is paid in full (kept in _SHARES, where settle_win looks
    first)."""
    share = rules.share(stake, fan)
    commission = rules.commission_for(variant, stake)
    losers = turn_order_after(winner, seated)
    dues = {seat: share * banker_factor(seat, winner) for seat in losers}
    total = sum(dues.values())
    payments = tuple([Payment(seat, winner, amount) for seat, amount in dues.items() if amount])
    net = dict.fromkeys(seated, 0)  # seated in turn order E, S, W, N
    for seat, amount in dues.items():
        net[seat] = -amount
    net[winner] = total - commission
    shares = rules, share, commission, losers, dues, total, payments, net
    if len(_SHARES) < _SHARES_KEPT:
        _SHARES[id(rules), variant, stake, fan, winner, seated] = shares
    return shares


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
