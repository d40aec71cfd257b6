"""The rule set: every figure of Portaria n.º 135/91/M that settlement and grading use.

A later amendment of the regulation is a new `RuleSet` value, not edits through the code.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Mapping

from .tiles import CONVENTIONAL, SIMPLIFIED

ADDITIVE = "additive"
HIGHEST_PLUS_BONUS = "highest_plus_bonus"
FAN_COMBINATIONS = (ADDITIVE, HIGHEST_PLUS_BONUS)


@dataclass(frozen=True)
class RuleSet:
    code: str
    title: str
    # Art. 8: stake X of the tier X/2X -> the house commission per won jogo.
    commission: Mapping[str, Mapping[int, int]]
    # Art. 6(a)(3) «graduação máxima» 2 fán; Art. 6(b) defines 1 fán only (I-5).
    max_fan: Mapping[str, int]
    # I-5: `additive` (default) or `highest_plus_bonus`.
    fan_combination: str
    # Art. 10(a)(8), (b)(3), I-10: the grade of the false-win compensation, as
    # (paid between the offender and the banker, paid between two other players).
    false_win_fan: Mapping[str, tuple[int, int]]
    # I-5: the items the Chinese text calls 多算一番 ("one more fán").
    bonus_items: frozenset[str]

    def tiers(self, variant: str) -> tuple[int, ...]:
        return tuple(self.commission[variant])

    def commission_for(self, variant: str, stake: int) -> int:
        """Art. 8: the fixed commission per won jogo at the tier X/2X, taken from the winner."""
        return self.commission[variant][stake]

    def share(self, stake: int, grade: int) -> int:
        """I-6: X is the single share of a chicken hand and every fán doubles it."""
        return stake << grade

    def with_overrides(self, overrides: Mapping[str, str]) -> "RuleSet":
        """The record's `rules` field may choose the fán combination reading (I-5)."""
        reading = overrides.get("fan_combination", self.fan_combination)
        return self if reading == self.fan_combination else replace(self, fan_combination=reading)


def _tiers(rows: dict[int, int]) -> Mapping[int, int]:
    return MappingProxyType(rows)


PORTARIA_135_91_M = RuleSet(
    code="portaria-135-91-M",
    title="Portaria n.º 135/91/M (Regulamento Oficial do Jogo de Mah-Jong)",
    commission=MappingProxyType({
        CONVENTIONAL: _tiers({
            25: 10, 50: 20, 100: 40, 200: 80, 300: 120, 500: 200,
            1_000: 400, 2_000: 800, 3_000: 1_200, 5_000: 2_000, 10_000: 4_000,
        }),
        SIMPLIFIED: _tiers({
            100: 20, 200: 40, 300: 60, 500: 100, 1_000: 200, 2_000: 400,
            3_000: 600, 5_000: 1_000, 10_000: 2_000, 20_000: 4_000, 30_000: 6_000,
        }),
    }),
    max_fan=MappingProxyType({CONVENTIONAL: 2, SIMPLIFIED: 1}),
    fan_combination=ADDITIVE,
    false_win_fan=MappingProxyType({CONVENTIONAL: (2, 1), SIMPLIFIED: (1, 1)}),
    bonus_items=frozenset({"robbing_kong", "kong_replacement", "last_tile", "terminals_and_honours"}),
)

CURRENT = PORTARIA_135_91_M
