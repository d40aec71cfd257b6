"""A record checked against its table and scored by the engine, as the ledger row it would be.

Pure: nothing here reads or writes the database. The recording and amendment services
(`services/`) call it with where the game stands, and write what it returns.
"""
from __future__ import annotations

from django.utils.translation import gettext_noop

from regulation import MalformedRecord, Record, Result, read_record, score
from regulation.jogo import SEAT_NAMES
from regulation.rotation import Progress
from regulation.rules import RuleSet

from .errors import Problem, Refused, capital_article, chair_number
from .models import Jogo, Table
from .recheck import capital_after


def check_against_table(table: Table, state: Progress, amounts: list[int | None], parsed: Record) -> list[Problem]:
    """The record must describe this table's next jogo: variant, tier, round wind, seats and
    each seat's capital as the ledger has them (Art. 2, 3, 8, 9(a)(4) or 9(b)(3))."""
    problems = []
    article = capital_article(table.variant)
    if parsed.variant != table.variant:
        problems.append(Problem.of("table_variant", "2",
                                   gettext_noop("table {table} plays the {variant} variant; the record says "
                                                "{recorded}."), "variant", cite=True,
                                   table=table.number, variant=table.variant, recorded=parsed.variant))
    if parsed.stake != table.stake:
        problems.append(Problem.of("table_stake", "8",
                                   gettext_noop("table {table} plays at {stake}/{double}; the record says "
                                                "{recorded}/{recorded_double}."), "stake", cite=True,
                                   table=table.number, stake=table.stake, double=2 * table.stake,
                                   recorded=parsed.stake, recorded_double=2 * parsed.stake))
    if parsed.round_wind != state.round_wind:
        problems.append(Problem.of("round_wind", "3",
                                   gettext_noop("Art. 3 (I-2): this jogo is played in the {round} round; the record "
                                                "says {recorded}."), "round_wind",
                                   round=state.round_wind, recorded=parsed.round_wind))
    seats = state.seats
    if set(parsed.capital) != set(seats):
        problems.append(Problem.of("seats", "3",
                                   gettext_noop("the seated seat winds are {seats}; the record has capital for "
                                                "{recorded}."), "capital", cite=True,
                                   seats=", ".join(seats), recorded=", ".join(parsed.capital)))
    else:
        for seat, chair in seats.items():
            if parsed.capital[seat] != amounts[chair]:
                problems.append(Problem.of("capital", article,
                                           gettext_noop("{seat} (chair {chair}) has {capital} at stake; the record "
                                                        "says {recorded}."), f"capital.{seat}", cite=True,
                                           seat=SEAT_NAMES[seat], chair=chair_number(chair), capital=amounts[chair],
                                           recorded=parsed.capital[seat]))
    return problems


def scored(table: Table, state: Progress, amounts: list[int | None], record: dict,
           rules: RuleSet | None = None) -> tuple[Record, Result]:
    """Read, check against the table and score a record under `rules` (the corrected jogo's own
    for an amendment; by default the table's, for a new jogo): (the record read, the engine's
    result), or Refused with every problem."""
    try:
        parsed = read_record(record)
    except MalformedRecord as error:
        raise Refused(Problem("malformed_record", None, f"{error.field}: {error.message}" if error.field else
                              error.message, error.template, error.params, error.field or None)) from None
    problems = check_against_table(table, state, amounts, parsed)
    result = score(parsed, rules or table.rules)
    problems += result.breaches  # the engine's breaches are refusals as they are
    if problems:
        raise Refused(*problems)
    return parsed, result


def jogo_row(state: Progress, amounts: list[int | None], record: dict, parsed: Record, result: Result,
             **fields) -> Jogo:
    """The ledger row of a scored record, not saved: who played as what, the engine's figures,
    and each chair's capital before and after; `fields` are the row's ledger fields."""
    outcome = result.as_dict()
    after = capital_after(state.banker, parsed.capital, result.settlement.net)
    return Jogo(banker_chair=state.banker, round_wind=state.round_wind, record=record, outcome=outcome,
                result=parsed.result, winner_chair=state.chair_of(parsed.winner) if parsed.result == "win" else None,
                fan=result.fan, declared_fan=parsed.declared_fan, fan_mismatch=result.fan_mismatch,
                commission=result.settlement.commission, capped=result.settlement.capped,
                pay_all=parsed.pay_all is not None, capital_before=list(amounts), capital_after=after,
                rule_set_code=result.rules.code, rule_set_version=result.rules.version, **fields)
