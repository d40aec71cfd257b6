"""The register of readings: every point where the regulation leaves a question open
or where its Portuguese and Chinese texts differ (`regulation.readings.READINGS`), the reading
each rule set adopts, and which jogos a point decided; then, book by book, the points where a
classical rule book is ambiguous, garbled or contradicts itself (`regulation.books.readings`),
with the book's own words and the reading adopted by default. A jogo is decided by a point when its
outcome (grade, payments, commission, refused or not) would differ under the other alternative
(`regulation.decisions.decided_by`), each jogo judged under the rule set that scored it.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import regulation.rules
from casino.pit.recheck import COLUMNS, Stored, read
from casino.terms.vocabulary import BOOK_LANGUAGE
from regulation import Result
from regulation.books import BOOK_READINGS, BOOKS, BookReading, BookRuleSet
from regulation.decisions import decided_by
from regulation.readings import READINGS, Alternative, Reading
from regulation.rules import RuleSet

from .ledger import Casinos, Days, current_revisions

LISTED = 50  # links listed per point; the count says how many more there are


@dataclass(frozen=True)
class Outcome:
    """What a rule set makes of a jogo, as the side-by-side shows it."""

    valid: bool
    grade: int | None  # fán, when a hand is graded
    payments: tuple[tuple[str, str, int], ...]  # (payer's seat, payee's seat, amount)
    commission: int
    banker_moves: bool  # Art. 3: the bank passes to the next player after the jogo
    breaches: tuple  # regulation breaches, when the rule set refuses the jogo

    @classmethod
    def of(cls, result: Result) -> Outcome:
        settlement = result.settlement
        return cls(result.valid, result.fan, tuple((p.payer, p.payee, p.amount) for p in settlement.payments),
                   settlement.commission, result.banker_moves, tuple(result.breaches))


@dataclass(frozen=True)
class Decided:
    """A reading that decided a jogo: the alternative its rule set adopts and the outcome it
    gave, beside the other alternative and the outcome that one would give."""

    reading: Reading
    adopted: Alternative
    other: Alternative
    recorded: Outcome
    otherwise: Outcome

    @property
    def outcomes(self) -> tuple[Outcome, Outcome]:
        return self.recorded, self.otherwise


def decisions(result: Result | None, rules: RuleSet | None) -> list[Decided]:
    """The readings that decided the jogo `result` scored, under the rule set that scored it."""
    if result is None or rules is None:
        return []
    return [Decided(d.reading, d.reading.alternative(d.adopted), d.reading.alternative(d.other),
                    Outcome.of(d.result), Outcome.of(d.other_result))
            for d in decided_by(result.jogo, rules)]


@dataclass(frozen=True)
class JogoLink:
    jogo_id: int
    table: str
    number: int
    revision: int
    gaming_day: dt.date


@dataclass
class Point:
    """One point of the register: the reading, what each rule set adopts, and the jogos of the
    period it decided (the first LISTED of them listed)."""

    reading: Reading
    adopted: list[tuple[RuleSet, Alternative]]  # each rule set and the alternative it adopts
    decided: int = 0
    jogos: list[JogoLink] = field(default_factory=list)

    @property
    def not_listed(self) -> int:
        return self.decided - len(self.jogos)


def register(days: Days | None, *, casinos: Casinos = None) -> list[Point]:
    """Every point of the register in the order of READINGS; with `days`, how many of their
    current jogos (at the tables of `casinos`, a person's) each point decided, and links to
    them. The caller bounds the days
    (`check_page_range`): every jogo is re-scored under each reading that can apply to it."""
    points = {reading.code: Point(reading, [(rules, reading.alternative(rules.readings[reading.code]))
                                            for rules in regulation.rules.RULE_SETS
                                            if reading.code in rules.readings])
              for reading in READINGS}
    if days is None:
        return list(points.values())
    rows = current_revisions(days, casinos=casinos).values_list(*COLUMNS, "table__number", "gaming_day")
    size = len(COLUMNS)
    for values in rows.iterator(chunk_size=2000):
        row = Stored(*values[:size])
        table, day = values[size:]
        try:
            decided = decided_by(read(row.record), row.rules)
        except (LookupError, ValueError):  # an unknown rule set or an unreadable record: the audit says so
            continue
        for decision in decided:
            point = points[decision.reading.code]
            point.decided += 1
            if len(point.jogos) < LISTED:
                point.jogos.append(JogoLink(row.id, table, row.number, row.revision, day))
    return list(points.values())


@dataclass(frozen=True)
class BookPoint:
    """One point of a book's register: the reading, and each alternative with whether it is the
    default the book's rule set adopts."""

    reading: BookReading
    alternatives: tuple[tuple[Alternative, bool], ...]


@dataclass(frozen=True)
class BookSection:
    rules: BookRuleSet
    language: str
    points: tuple[BookPoint, ...]


def book_register() -> list[BookSection]:
    """Each classical rule book with its points, in the order of BOOK_READINGS."""
    return [BookSection(rules, BOOK_LANGUAGE.get(rules.code, ""), tuple(
        BookPoint(reading, tuple((alternative, alternative.name == reading.default)
                                 for alternative in reading.alternatives))
        for reading in BOOK_READINGS if reading.book == rules.code)) for rules in BOOKS]
