"""Which readings decided one jogo: `decided_by(jogo, rules)` re-scores the jogo under every
other implemented alternative of the readings that can touch it (regulation/readings.py, the
register) and keeps those where the outcome changes (refused or not, grade, payments,
commission, or whether the bank moves), with the outcome under that alternative.

It scores, so it sits above `jogo.py`; the register it reads sits below `rules.py`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .fan import Grade
from .jogo import Result, score
from .readings import HONOUR_COMBINATIONS, HONOUR_SET_ITEMS, Reading, reading
from .record import Hand, Record
from .rules import RuleSet
from .settlement import Payment

Outcome = tuple[bool, int | None, tuple[Payment, ...], int, bool]


@dataclass(frozen=True)
class Decision:
    reading: Reading
    adopted: str
    other: str
    result: Result
    other_result: Result


def outcome(result: Result) -> Outcome:
    """What a reading can change: refused or not, grade, payments, commission, the bank."""
    settlement = result.settlement
    return (result.valid, result.fan, settlement.payments, settlement.commission, result.banker_moves)


def _won_conventional(jogo: Record, result: Result) -> tuple[Hand, Grade] | None:
    """The hand and grade of a conventional win with a winning reading; None for any other jogo."""
    hand, grade = jogo.hand, result.grade
    if jogo.result == "win" and jogo.variant == "conventional" and hand is not None and grade is not None:
        return hand, grade
    return None


def _holds_honours(jogo: Record, result: Result) -> bool:
    won = _won_conventional(jogo, result)
    if won is None:
        return False
    hand = won[0]
    return (hand.winning_tile >= 27 or max(hand.concealed, default=0) >= 27
            or any(meld.tiles[0] >= 27 for meld in hand.melds))


def _no_chow_meld(jogo: Record, result: Result) -> bool:
    won = _won_conventional(jogo, result)
    return won is not None and all(meld.kind != "chow" for meld in won[0].melds)


def _honours_worth_fan(jogo: Record, result: Result) -> bool:
    """I-11: an honour set that scores; or, since I-18 reads honours that score together as worth
    fán, an honour combination (I-11's other alternative then adds wân iat sêk beside it)."""
    won = _won_conventional(jogo, result)
    return won is not None and any(
        item.code in HONOUR_SET_ITEMS or item.code in HONOUR_COMBINATIONS for item in won[1].items)


def _honour_combination_scored(jogo: Record, result: Result) -> bool:
    won = _won_conventional(jogo, result)
    return won is not None and any(item.code in HONOUR_COMBINATIONS for item in won[1].items)


def _pay_all(*articles: str) -> Callable[[Record, Result], bool]:
    return lambda jogo, result: jogo.pay_all is not None and jogo.pay_all.article in articles


def _capped(jogo: Record, result: Result) -> bool:
    return result.settlement.capped


# When each reading can change a jogo's outcome at all: the others are not re-scored. (A reading
# whose only other alternatives are described, not implemented, is never re-scored.)
CAN_APPLY: dict[str, Callable[[Record, Result], bool]] = {
    "I-1": lambda jogo, result: jogo.result in ("draw", "false_win"),
    "I-4": _no_chow_meld,
    "I-5": lambda jogo, result: jogo.result == "win" and result.grade is not None and len(result.grade.items) > 1,
    "I-6": lambda jogo, result: jogo.result == "false_win" or (result.fan or 0) >= 2,
    "I-7": _capped,
    "I-8": _capped,
    "I-11": _honours_worth_fan,
    "I-12": _pay_all("10(a)(5)"),
    "I-13": lambda jogo, result: jogo.result == "win" and "heavenly" in jogo.conditions,
    "I-14": _pay_all("10(b)(1)"),
    "I-16": _pay_all("10(a)(1)"),
    "I-18": _honour_combination_scored,
    "§8.2": lambda jogo, result: "last_tile" in jogo.conditions and jogo.discarder is not None,
    "§8.4": _holds_honours,
    "§8.6": _holds_honours,
    "§8.10": _pay_all("10(a)(1)"),
    "§8.12": _pay_all("10(a)(3)"),
}


def decided_by(jogo: Record, rules: RuleSet) -> tuple[Decision, ...]:
    """Every reading whose other alternative would change this jogo's outcome under `rules`."""
    result = score(jogo, rules)
    found = outcome(result)
    decisions = []
    for code, can_apply in CAN_APPLY.items():
        if not can_apply(jogo, result):
            continue
        entry = reading(code)
        adopted = rules.readings[code]
        for alternative in entry.alternatives:
            if alternative.name == adopted or not alternative.implemented:
                continue
            other = score(jogo, rules.with_readings({code: alternative.name}))
            if outcome(other) != found:
                decisions.append(Decision(entry, adopted, alternative.name, result, other))
    return tuple(decisions)
