"""What the audit reads of the pit's ledger: the gaming days asked for, their jogos at the current
(highest) revision, and each of those re-scored by the engine beside what was stored
(`casino.pit.recheck`). Every other audit module, and the daily report, reads the ledger
through here.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Max, OuterRef, QuerySet
from django.utils.translation import ngettext

from casino.pit.days import gaming_day
from casino.pit.models import Casino, Jogo, Refusal, superseded
from casino.pit.recheck import COLUMNS, Difference, Stored, compare
from regulation.rules import RuleSet

# The casinos whose objects an audit page reads: a person's (`casino.pit.access.casinos_of`), a
# QuerySet or a collection of casinos or ids; None for every casino (a command has no person).
Casinos = QuerySet[Casino] | Iterable[Casino | int] | None


@dataclass(frozen=True)
class Days:
    """A gaming day, or a range of them (both ends included)."""

    first: dt.date
    last: dt.date

    @property
    def single(self) -> bool:
        return self.first == self.last

    def __str__(self) -> str:
        return self.first.isoformat() if self.single else f"{self.first.isoformat()} – {self.last.isoformat()}"

    @property
    def query(self) -> str:
        return f"from={self.first.isoformat()}&to={self.last.isoformat()}"


class BadDays(ValueError):
    """Gaming days a page cannot show: the request's field it concerns (`day`, `from`, `to`, …)
    and why, in people's words."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


def in_casinos(rows: QuerySet, casinos: Casinos, path: str = "table__casino") -> QuerySet:
    """The rows of `casinos` only (every casino's when None): `path` leads from a row to its
    casino. A person given no casino reads nothing."""
    return rows if casinos is None else rows.filter(**{f"{path}__in": casinos})


def check_page_range(days: Days, casinos: Casinos = None) -> None:
    """A page re-scores every jogo of its range while the inspector waits. So that no page takes
    more than about 2 s, a range holding more ledger rows than AUDIT_PAGE_MAX_JOGOS is refused
    (BadDays on `to`, or on `day`), pointing to the export and to audit_recompute, which stream."""
    limit = settings.AUDIT_PAGE_MAX_JOGOS
    rows = in_casinos(Jogo.objects.filter(gaming_day__range=(days.first, days.last)), casinos).count()
    if rows > limit:
        raise BadDays("day" if days.single else "to", ngettext(
            "these gaming days hold %(rows)s jogo, more than a page re-checks at once (%(limit)s): choose fewer "
            "days, or download the export, which holds them all",
            "these gaming days hold %(rows)s jogos, more than a page re-checks at once (%(limit)s): choose fewer "
            "days, or download the export, which holds them all", rows) % {"rows": rows, "limit": limit})


def latest_active_day(casino: Casino | None = None, *, casinos: Casinos = None) -> dt.date | None:
    """The latest gaming day with activity, a jogo or a refused record, at the casino's tables
    (or at those of `casinos`, or at any casino's); None when nothing was ever recorded or
    refused. The audit and the reports open on it."""
    jogos, refusals = in_casinos(Jogo.objects.all(), casinos), in_casinos(Refusal.objects.all(), casinos)
    if casino is not None:
        jogos, refusals = jogos.filter(table__casino=casino), refusals.filter(table__casino=casino)
    last_jogo = jogos.aggregate(day=Max("gaming_day"))["day"]
    last_refusal = refusals.aggregate(at=Max("attempted_at"))["at"]
    days = [last_jogo, gaming_day(last_refusal) if last_refusal else None]
    return max((day for day in days if day is not None), default=None)


# --- The current revisions -----------------------------------------------------------------------


def current_revisions(days: Days, *, casino: Casino | None = None, casinos: Casinos = None) -> QuerySet[Jogo]:
    """The jogos of the gaming days (at the casino's tables, or at those of `casinos`, or at every
    casino's), each at its current (highest) revision, in ledger order."""
    rows = in_casinos(Jogo.objects.filter(gaming_day__range=(days.first, days.last)), casinos)
    if casino is not None:
        rows = rows.filter(table__casino=casino)
    return rows.filter(~superseded()).order_by("table__casino__name", "table__number", "number")


@dataclass(frozen=True)
class Checked:
    """A current jogo, its table, and what the engine says of it."""

    row: Stored
    table_id: int
    casino_id: int
    table: str
    variant: str
    stake: int
    gaming_day: dt.date
    kind: str
    seq: int
    hash: str
    commission_due: int  # Art. 8 as the engine gives it for the record
    won: bool  # a valid won jogo, by the engine
    differences: list[Difference]
    rules: RuleSet | None  # the rule set that scored it; None when the engine knows it not


def checked(days: Days, *, casino: Casino | None = None, casinos: Casinos = None) -> Iterator[Checked]:
    """Every current jogo of the days (at the casino's tables, or at those of `casinos`),
    re-scored by the engine."""
    rows = current_revisions(days, casino=casino, casinos=casinos).values_list(
        *COLUMNS, "table_id", "table__casino_id", "table__number", "table__variant", "table__stake", "gaming_day",
        "kind", "seq", "hash")
    size = len(COLUMNS)
    for values in rows.iterator(chunk_size=2000):
        row = Stored(*values[:size])
        table_id, casino_id, table, variant, stake, day, kind, seq, hash_ = values[size:]
        result, found = compare(row)
        won = result is not None and result.valid and result.jogo.result == "win"
        yield Checked(row, table_id, casino_id, table, variant, stake, day, kind, seq, hash_,
                      result.settlement.commission if result is not None else 0, won,
                      [Difference(table, row.game_id, row.number, row.revision, row.id, *item) for item in found],
                      rules_of(row))


def flagged_jogo() -> QuerySet[Jogo]:
    """The current revision of the jogo a flag names (a flag names a table and a jogo number, and
    a jogo is its current revision), for a `Subquery` whose `OuterRef`s are the flag's."""
    return Jogo.objects.filter(table=OuterRef("table"), number=OuterRef("number")).order_by("-revision")


def rules_of(row: Stored) -> RuleSet | None:
    """The rule set that scored the row; None when the engine knows it not."""
    try:
        return row.rules
    except LookupError:
        return None
