"""Who pays whom (Serralheiro §10(c)(v)–(vi); the English booklet, Section VI 1; the Brazilian
«acerto de contas» 1–3): the winner is paid his value by each other player and pays nobody;
the others settle the differences of their values pairwise; the banker pays and receives
double; the Brazilian rules pay in hundreds."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from .base import BookRuleSet
from .readings import CARTAS, ENGLISH, SERRALHEIRO

SECTIONS = {
    SERRALHEIRO: ("§10(c)(v)", "§10(c)(vi)"),
    ENGLISH: ("Section VI 1", "Section VI 1"),
    CARTAS: ("Acerto de contas, 2", "Acerto de contas, 3"),
}


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int
    section: str

    def to_dict(self) -> dict[str, str | int]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "section": self.section}


def round_hundreds(amount: int) -> int:
    """P-R18: fractions under 50 are dropped, 50 or more round up to the next hundred."""
    return (amount + 50) // 100 * 100


def factor(rules: BookRuleSet, payer: str, payee: str, banker: str) -> int:
    """The banker pays and receives double. Serralheiro's banker receives it through his extra
    double (S-A7 extra_double_is_receiving), so only what he pays is doubled."""
    if payer == banker:
        return 2
    if payee == banker:
        if rules.code == SERRALHEIRO and rules.reading("S-A7") == "extra_double_is_receiving":
            return 1
        return 2
    return 1


def cap(rules: BookRuleSet, payer: str, payee: str, banker: str) -> int | None:
    """The most one payment may be, where a book caps payments rather than hands."""
    if rules.code == SERRALHEIRO and rules.reading("S-A12") == "book_example":
        return rules.banker_limit if banker in (payer, payee) else rules.limit
    if rules.code == ENGLISH and rules.reading("E-A2") == "payment_capped":
        return rules.limit
    if rules.code == CARTAS and rules.reading("P-A5") == "limit_per_payment":
        return rules.limit
    return None


def settle(rules: BookRuleSet, values: Mapping[str, int], *, winner: str, banker: str) -> list[Payment]:
    """`values`: each seat's value (its limited score; 0 for a seat not in the record)."""
    to_winner, between = SECTIONS[rules.code]
    payments = []
    for seat in values:
        if seat != winner:
            payments.append(_payment(rules, seat, winner, values[winner], banker, to_winner))
    losers = [seat for seat in values if seat != winner]
    for one, other in combinations(losers, 2):
        if values[one] == values[other]:
            continue
        high, low = (one, other) if values[one] > values[other] else (other, one)
        payments.append(_payment(rules, low, high, values[high] - values[low], banker, between))
    return [p for p in payments if p.amount]


def _payment(rules: BookRuleSet, payer: str, payee: str, value: int, banker: str, section: str) -> Payment:
    hundreds = rules.rounding == 100
    if hundreds and rules.reading("P-A13") == "hand_value":
        value = round_hundreds(value)
    amount = value * factor(rules, payer, payee, banker)
    most = cap(rules, payer, payee, banker)
    if most is not None:
        amount = min(amount, most)
    if hundreds and rules.reading("P-A13") == "each_payment":
        amount = round_hundreds(amount)
    return Payment(payer, payee, amount, section)
