"""Rule sets: everything a regulation decides, as data the engine reads.

A rule set holds the tiers and the commission (Art. 8), the caps (Art. 6), the fán of every
item and which items score instead of which (Art. 6), the grades of the false-win
compensation (Art. 10), and the alternative it adopts at every point where the text leaves a
question open or where its Portuguese and Chinese words differ (`readings`, by the codes of
`regulation.readings`).

A later amendment of the regulation is a new `RuleSet` value (or a new version of one) added
to `RULE_SETS`, never an edit of the engine. A stored jogo names the code and version of the
rule set that scored it, so that it is judged again by the same rules.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping, TypeVar

from .errors import RegulationError, gettext_noop
from .items import Item, item_values
from .readings import check_choices
from .tiles import CONVENTIONAL, SIMPLIFIED

ADDITIVE = "additive"
HIGHEST_PLUS_BONUS = "highest_plus_bonus"


class UnknownRuleSet(RegulationError, LookupError):
    """No shipped rule set has that code (and version). It breaks no article, so it carries
    no breach."""

    def __init__(self, code: str, version: int | None = None):
        self.code, self.version = code, version
        known = ", ".join(r.label for r in RULE_SETS)
        named = code if version is None else f"{code} version {version}"
        self.breaches = ()
        self.message = f"no rule set {named}; the rule sets are {known}"
        Exception.__init__(self, self.message)


Key = TypeVar("Key")


def frozen(mapping: Mapping[Key, Any]) -> Mapping[Key, Any]:
    """A read-only copy of `mapping` (nested dicts included)."""
    return MappingProxyType({key: frozen(value) if isinstance(value, dict) else value
                             for key, value in mapping.items()})


@dataclass(frozen=True)
class RuleSet:
    code: str
    version: int
    title: str
    # Art. 8: stake X of the tier X/2X -> the house commission per won jogo.
    commission: Mapping[str, Mapping[int, int]]
    # Art. 6(a)(3) «graduação máxima» 2 fán; Art. 6(b) defines 1 fán only (I-5).
    max_fan: Mapping[str, int]
    # Art. 10(a)(8), (b)(3), I-10: the grade of the false-win compensation, as
    # (paid between the offender and the banker, paid between two other players).
    false_win_fan: Mapping[str, tuple[int, int]]
    # Art. 6: the fán of every item, by variant; an item absent from a variant is not scored there.
    fan: Mapping[str, Mapping[str, int]]
    # docs/rules.md §4, "scores instead of": an item -> the items it replaces when both apply.
    instead_of: Mapping[str, frozenset[str]]
    # I-5: the items the Chinese text calls 多算一番 ("one more fán").
    bonus_items: frozenset[str]
    # The alternative adopted at every reading (regulation.readings): "I-4" -> "portuguese".
    readings: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        check_choices(self.readings, complete=True)

    @property
    def label(self) -> str:
        return f"{self.code} v{self.version}"

    @property
    def fan_combination(self) -> str:
        """I-5: `additive` or `highest_plus_bonus`."""
        return self.readings["I-5"]

    def tiers(self, variant: str) -> tuple[int, ...]:
        return tuple(self.commission[variant])

    def commission_for(self, variant: str, stake: int) -> int:
        """Art. 8: the fixed commission per won jogo at the tier X/2X, taken from the winner."""
        return self.commission[variant][stake]

    def share(self, stake: int, grade: int) -> int:
        """I-6: X is the single share of a chicken hand and every fán doubles it."""
        doubled: int = 2 ** grade  # typeshed gives int ** int as Any: a negative power is a float
        if self.readings["I-6"] == "tier_bounds":
            return stake * min(doubled, 2)
        return stake * doubled

    def with_readings(self, choices: Mapping[str, str]) -> "RuleSet":
        """The same rule set with the readings in `choices` read otherwise (ValueError on an
        unknown reading or alternative)."""
        if all(self.readings.get(code) == name for code, name in choices.items()):
            return self
        key = frozenset(choices.items())
        other = self._variants.get(key)
        if other is None:
            check_choices(choices)
            other = self._variants[key] = replace(self, readings=MappingProxyType({**self.readings, **choices}))
        return other

    @cached_property
    def _variants(self) -> dict[frozenset[tuple[str, str]], RuleSet]:
        """The rule sets `with_readings` made, by choices: a record's `rules` field asks for the
        same few again and again."""
        return {}

    def with_overrides(self, overrides: Mapping[str, str]) -> "RuleSet":
        """The record's `rules` field may choose the fán combination reading (I-5)."""
        reading = overrides.get("fan_combination", self.fan_combination)
        return self if reading == self.fan_combination else self.with_readings({"I-5": reading})

    @cached_property
    def scored_items(self) -> Mapping[str, Mapping[str, Item]]:
        """variant -> item code -> the `Item` this rule set scores (built once)."""
        return item_values(self.fan)


# Art. 6(a)(2) 1 fán, 6(a)(3) 2 fán («fán» dobrado, the highest grade), 6(b)(2) 1 fán.
_CONVENTIONAL_FAN = {
    "dragon_set": 1, "round_wind_set": 1, "seat_wind_set": 1, "robbing_kong": 1, "kong_replacement": 1,
    "all_pongs": 1, "all_chows": 1, "mixed_one_suit": 1, "last_tile": 1, "small_three_dragons": 1,
    "small_four_winds": 1, "terminals_and_honours": 1,
    "heavenly": 2, "earthly": 2, "double_wind_set": 2, "kong_upon_kong": 2, "mixed_one_suit_all_chows": 2,
    "pure_one_suit": 2, "thirteen_orphans": 2, "concealed_pongs": 2, "big_three_dragons": 2,
    "big_four_winds": 2, "pure_terminals": 2, "all_honours": 2,
}
_SIMPLIFIED_FAN = {"robbing_kong": 1, "last_tile": 1, "green_winning_tile": 1}

# docs/rules.md §4: the items that score instead of others.
_WIND_SETS = frozenset({"round_wind_set", "seat_wind_set", "double_wind_set"})
_INSTEAD_OF = {
    "double_wind_set": frozenset({"round_wind_set", "seat_wind_set"}),
    "kong_upon_kong": frozenset({"kong_replacement"}),
    "mixed_one_suit_all_chows": frozenset({"all_chows", "mixed_one_suit"}),
    "concealed_pongs": frozenset({"all_pongs"}),
    "big_three_dragons": frozenset({"dragon_set"}),
    "big_four_winds": _WIND_SETS | {"small_four_winds"},
    "pure_terminals": frozenset({"all_pongs"}),
    "all_honours": _WIND_SETS | {"all_pongs", "dragon_set"},
}

# The reading every point takes under Portaria 135/91/M with the Portuguese text governing.
PORTUGUESE_READINGS = {
    "I-1": "bank_stays", "I-2": "back_to_first_chair", "I-3": "chicken", "I-4": "portuguese",
    "I-5": ADDITIVE, "I-6": "doubling", "I-7": "pro_rata", "I-8": "from_what_is_received",
    "I-9": "every_due", "I-10": "single_share", "I-11": "honours_worth_no_fan", "I-12": "any_set_of_three",
    "I-13": "no_winning_tile", "I-14": "winner_holds_none", "I-15": "any_discard", "I-16": "on_view",
    "I-17": "seated_players", "I-18": "honours_together",
    "§8.2": "portuguese", "§8.3": "portuguese", "§8.4": "portuguese", "§8.6": "portuguese", "§8.8": "chicken",
    "§8.10": "portuguese", "§8.11": "portuguese", "§8.12": "portuguese", "§8.13": "portuguese",
    "§8.14": "open_kong", "§8.15": "every_other_player",
}

# The points of docs/rules.md §8 where reading the Chinese text changes an outcome.
CHINESE_READINGS = {
    "I-4": "chinese", "I-5": HIGHEST_PLUS_BONUS, "I-12": "pong_only",
    "§8.2": "chinese", "§8.4": "chinese", "§8.6": "chinese", "§8.10": "chinese", "§8.12": "chinese",
}

_COMMISSION = {
    CONVENTIONAL: {
        25: 10, 50: 20, 100: 40, 200: 80, 300: 120, 500: 200,
        1_000: 400, 2_000: 800, 3_000: 1_200, 5_000: 2_000, 10_000: 4_000,
    },
    SIMPLIFIED: {
        100: 20, 200: 40, 300: 60, 500: 100, 1_000: 200, 2_000: 400,
        3_000: 600, 5_000: 1_000, 10_000: 2_000, 20_000: 4_000, 30_000: 6_000,
    },
}

PORTARIA_135_91_M = RuleSet(
    code="portaria-135-91-M",
    version=1,
    title="Portaria n.º 135/91/M (Regulamento Oficial do Jogo de Mah-Jong)",
    commission=frozen(_COMMISSION),
    max_fan=frozen({CONVENTIONAL: 2, SIMPLIFIED: 1}),
    false_win_fan=frozen({CONVENTIONAL: (2, 1), SIMPLIFIED: (1, 1)}),
    fan=frozen({CONVENTIONAL: _CONVENTIONAL_FAN, SIMPLIFIED: _SIMPLIFIED_FAN}),
    instead_of=frozen(_INSTEAD_OF),
    bonus_items=frozenset({"robbing_kong", "kong_replacement", "last_tile", "terminals_and_honours"}),
    readings=frozen(PORTUGUESE_READINGS),
)

PORTARIA_135_91_M_ZH = replace(
    PORTARIA_135_91_M,
    code="portaria-135-91-M-zh",
    title=gettext_noop("Portaria n.º 135/91/M, read by its Chinese text (訓令第一三五/九一/M號)"),
    readings=frozen({**PORTUGUESE_READINGS, **CHINESE_READINGS}),
)

RULE_SETS: tuple[RuleSet, ...] = (PORTARIA_135_91_M, PORTARIA_135_91_M_ZH)
DEFAULT = PORTARIA_135_91_M
CURRENT = DEFAULT  # the name the rest of the project used before rule sets were versioned


def rule_set(code: str, version: int | None = None) -> RuleSet:
    """The shipped rule set `code` at `version` (its latest version when None): one dict lookup.

    It reads `RULE_SETS` as it is at the call, so that a test may add a rule set of its own."""
    known, index = _index
    if known is not RULE_SETS:
        index = _build_index(RULE_SETS)
    found = index.get((code, version))
    if found is None:
        raise UnknownRuleSet(code, version)
    return found


def _build_index(rule_sets: tuple[RuleSet, ...]) -> dict[tuple[str, int | None], RuleSet]:
    global _index
    index: dict[tuple[str, int | None], RuleSet] = {}
    for each in sorted(rule_sets, key=lambda r: r.version):
        index[each.code, each.version] = index[each.code, None] = each  # the latest version last
    _index = rule_sets, index
    return index


_index: tuple[tuple[RuleSet, ...], dict[tuple[str, int | None], RuleSet]] = ((), {})
