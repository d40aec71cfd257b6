"""A seat's capital at stake: the least it must hold before a jogo, the most it may hold (the
casino's rule C-1, docs/rules.md §11; docs/money.md).

The Portaria caps what a winner receives (Art. 9(a)(4), (b)(3)) and says nothing of a loser whose
capital cannot cover what he owes. The casino's rule: before a jogo starts, every seat holds at
least the table's minimum capital. By default that is the most the seat can be made to pay in one
jogo at the table's tier under its rule set, as the engine works it out
(`regulation.capital.most_payable`), so that no capital goes below zero. A casino may set a lower
minimum per tier (TABLE_MINIMUM_CAPITAL), never a higher one (`checks.py`); then a capital can go
below zero, and the jogo records it (the floor's alert and the audit's exception say so).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from regulation.capital import most_payable
from regulation.rules import RuleSet

from .models import Table


def default_minimum(table: Table, players: int = 4, rules: RuleSet | None = None) -> int:
    """C-1's default: the most one seat can be made to pay in one jogo at `table` with
    `players` seated, under `rules` (by default the rule set the table runs under now; the audit
    gives a jogo's own)."""
    return most_payable(rules or table.rules, table.variant, table.stake, players)


def minimum_capital(table: Table, players: int = 4, rules: RuleSet | None = None) -> int:
    """The least capital each seat holds before a jogo at `table` with `players` seated (under
    `rules`, as `default_minimum`): the casino's lower minimum for the tier when it set one, else
    C-1's default."""
    lower = settings.TABLE_MINIMUM_CAPITAL.get(table.variant, {}).get(table.stake)
    default = default_minimum(table, players, rules)
    return default if lower is None else min(lower, default)


def maximum_capital() -> int:
    """The most a seat may hold at stake (SEAT_MAXIMUM_CAPITAL)."""
    return settings.SEAT_MAXIMUM_CAPITAL


@dataclass(frozen=True)
class Short:
    """A seat below the minimum: its chair (0–3), its capital, the minimum and what it lacks."""

    chair: int
    capital: int
    minimum: int

    @property
    def missing(self) -> int:
        return self.minimum - self.capital


def below_minimum(table: Table, capital: list[int | None]) -> list[Short]:
    """The seated chairs of `capital` (per chair 0–3, None = empty) below the table's minimum for
    as many players, in chair order."""
    seated = [amount for amount in capital if amount is not None]
    if not seated:
        return []
    minimum = minimum_capital(table, len(seated))
    return [Short(chair, amount, minimum) for chair, amount in enumerate(capital)
            if amount is not None and amount < minimum]
