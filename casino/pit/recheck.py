"""One ledger row re-scored by the engine and compared, field by field, with what was stored.

Everything the audit says about a jogo's money comes from here: the commission audit (Art. 8),
the exception queue's differences, a jogo explained, and `manage.py audit_recompute`. It reads
plain values (a row's columns), not model instances, so that the bulk re-audit can feed it
straight from a database cursor: JSON columns may come as decoded values or as JSON text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import msgspec

from regulation import MalformedRecord, Result, score
from regulation.readings import HONOUR_COMBINATIONS, HONOUR_SET_ITEMS
from regulation.record import decode_record, read_record
from regulation.rules import RuleSet, rule_set
from regulation.seats import SEATS

SEAT_INDEX = {seat: index for index, seat in enumerate(SEATS)}
_decode = msgspec.json.decode
_encode = msgspec.json.encode

# The columns `Stored` is read from, in its order (the bulk re-audit selects exactly these).
COLUMNS = ("id", "game_id", "number", "revision", "banker_chair", "round_wind", "record", "outcome", "result",
           "winner_chair", "fan", "declared_fan", "fan_mismatch", "commission", "capped", "pay_all",
           "capital_before", "capital_after", "rule_set_code", "rule_set_version")


class Stored(NamedTuple):
    """A jogo row as the ledger holds it (pit.Jogo's columns)."""

    id: int
    game_id: int
    number: int
    revision: int
    banker_chair: int
    round_wind: str
    record: Any
    outcome: Any
    result: str
    winner_chair: int | None
    fan: int | None
    declared_fan: int | None
    fan_mismatch: bool
    commission: int
    capped: bool
    pay_all: bool
    capital_before: Any
    capital_after: Any
    rule_set_code: str
    rule_set_version: int

    @property
    def rules(self) -> RuleSet:
        """The rule set that scored the row (`UnknownRuleSet`, a LookupError, if none is known)."""
        return rule_set(self.rule_set_code, self.rule_set_version)


@dataclass(frozen=True)
class Difference:
    """A figure the ledger holds that the engine does not give for the jogo's own record."""

    table: str  # the table's number
    game: int
    number: int
    revision: int
    jogo_id: int
    field: str
    recorded: Any
    recomputed: Any

    def __str__(self) -> str:
        revision = f" revision {self.revision}" if self.revision else ""
        return (f"table {self.table}, game {self.game}, jogo {self.number}{revision} (id {self.jogo_id}): "
                f"{self.field} recorded {_show(self.recorded)}, recomputed {_show(self.recomputed)}")


def _show(value: Any) -> str:
    return _encode(value).decode() if isinstance(value, (dict, list, tuple)) else repr(value)


def _json(value: Any) -> Any:
    """A JSON column's value: PostgreSQL (jsonb through Django's cursor) and SQLite give text."""
    if isinstance(value, (str, bytes, bytearray, memoryview)):
        return _decode(value)
    return value


def read(record: Any):
    """The engine's reading of a stored record (text or decoded); `MalformedRecord` if unreadable."""
    if isinstance(record, (str, bytes, bytearray, memoryview)):
        return decode_record(record)
    return read_record(record)


def rescore(record: Any, rules: RuleSet) -> Result:
    """The engine's result for a stored record under the rule set that scored it."""
    return score(read(record), rules)


def compare(row: Stored) -> tuple[Result | None, list[tuple[str, Any, Any]]]:
    """The engine's result for the row's record, and every (field, recorded, recomputed) that
    differs. The record is what the dealer (or an approved amendment) said happened; the engine
    gives the grade (Art. 6), the settlement (Art. 7, 9, 10) and the commission (Art. 8), each
    under the rule set that scored the row, whatever its table runs under now."""
    try:
        rules = row.rules
    except LookupError:
        return None, [("rule_set", f"{row.rule_set_code} v{row.rule_set_version}", "unknown")]
    try:
        result = rescore(row.record, rules)
    except MalformedRecord as error:
        return None, [("record", "readable", f"malformed: {error}")]
    found: list[tuple[str, Any, Any]] = []
    expected = result.as_dict()  # what to_json() encodes, field for field (tests/regulation/test_output.py)
    outcome = _json(row.outcome)
    if outcome != expected:
        if not isinstance(outcome, dict):
            found.append(("outcome", outcome, expected))
        else:
            for key in sorted(expected.keys() | outcome.keys()):
                if outcome.get(key) != expected.get(key):
                    found.append((f"outcome.{key}", outcome.get(key), expected.get(key)))
    jogo, settlement = result.jogo, result.settlement
    banker = row.banker_chair
    won = jogo.result == "win"
    winner_chair = (banker + SEAT_INDEX[jogo.winner]) % 4 if won else None
    pay_all = jogo.pay_all is not None
    if not (row.commission == settlement.commission and row.fan == result.fan and row.result == jogo.result
            and row.winner_chair == winner_chair and bool(row.fan_mismatch) == result.fan_mismatch
            and bool(row.capped) == settlement.capped and bool(row.pay_all) == pay_all
            and row.declared_fan == jogo.declared_fan and row.round_wind == jogo.round_wind):
        for name, recorded, recomputed in (
            ("result", row.result, jogo.result),
            ("round_wind", row.round_wind, jogo.round_wind),
            ("winner_chair", row.winner_chair, winner_chair),
            ("fan", row.fan, result.fan),
            ("declared_fan", row.declared_fan, jogo.declared_fan),
            ("fan_mismatch", bool(row.fan_mismatch), result.fan_mismatch),
            ("commission", row.commission, settlement.commission),
            ("capped", bool(row.capped), settlement.capped),
            ("pay_all", bool(row.pay_all), pay_all),
        ):
            if recorded != recomputed:
                found.append((name, recorded, recomputed))
    # Each chair's capital: the record states it per seat wind (Art. 9(a)(4)); the settlement's
    # net moves it (Art. 7, 8, 10).
    before = _json(row.capital_before)
    stated = [None, None, None, None]
    for seat, amount in jogo.capital.items():
        stated[(banker + SEAT_INDEX[seat]) % 4] = amount
    after = capital_after(banker, jogo.capital, settlement.net)
    if before != stated:
        found.append(("capital_before", before, stated))
    recorded_after = _json(row.capital_after)
    if recorded_after != after:
        found.append(("capital_after", recorded_after, after))
    if found and isinstance(outcome, dict):
        named = readings_changed(outcome, expected, jogo)
        if named:
            found.append(("reading", "—", named))
    return result, found


def capital_after(banker: int, capital: dict[str, int], net: dict[str, int]) -> list[int | None]:
    """Each chair's capital at stake after a jogo (None for an empty chair): the capital the
    record states for each seat wind (Art. 9(a)(4), 9(b)(3)) moved by the settlement's net
    (Art. 7, 8, 10). The banker's chair is East (Art. 3). The recording service and the
    re-check both work it out here."""
    after: list[int | None] = [None, None, None, None]
    for seat, amount in capital.items():
        after[(banker + SEAT_INDEX[seat]) % 4] = amount + net.get(seat, 0)
    return after


def readings_changed(recorded: dict, recomputed: dict, jogo) -> str:
    """The readings of docs/rules.md §9.2 and §9.3 that tell a stored outcome
    from the engine's, as far as the figures that changed show them ("I-11 (Art. 6(a)(2))"); ""
    when none does.

    A jogo recorded under an earlier reading is a difference, and this names why, so that an
    inspector can tell a change of reading from a wrong figure.
    """
    named = []
    before = {item.get("code") for item in recorded.get("items") or () if isinstance(item, dict)}
    after = {item["code"] for item in recomputed["items"]}
    if "mixed_one_suit" in before - after:
        if after & HONOUR_COMBINATIONS and not after & HONOUR_SET_ITEMS:
            named.append("I-18 (Art. 6(a)(2))")  # honours that score together are worth fán too
        else:
            named.append("I-11 (Art. 6(a)(2))")  # wân iat sêk needs honours worth no fán
    if "green_winning_tile" in before - after and "heavenly" in jogo.conditions:
        named.append("I-13 (Art. 5(b)(1), 6(b)(2))")  # a heavenly win has no winning tile of its own
    commission, received = recorded.get("commission"), sum(p["amount"] for p in recomputed["payments"])
    if (recomputed["valid"] and jogo.result == "win" and recomputed["commission"] == received
            and isinstance(commission, int) and commission > received):
        named.append("I-8 (Art. 8)")  # the commission never exceeds what the winner receives
    if recorded.get("valid") is True and not recomputed["valid"]:
        for error in recomputed["errors"]:
            if error["code"] == "pay_all_trigger" and error["article"] == "10(b)(1)":
                named.append("I-14 (Art. 10(b)(1))")  # the winner holds no 發
            elif error["code"] == "false_win_winning_hand":
                named.append(f"docs/rules.md §6 (Art. {error['article']})")  # a false win's hand that wins is refused
    return "; ".join(dict.fromkeys(named))


def stored(jogo) -> Stored:
    """The `Stored` view of a pit.Jogo instance."""
    return Stored(*(getattr(jogo, name) for name in COLUMNS))
