"""What the daily report reads: the figures of one casino's gaming day, each aggregated by the
database, so that the number of queries is fixed whatever the number of jogos.

Only current revisions count: a jogo's latest revision (see the `current` filter of the API).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce, ExtractHour
from django.utils import timezone

from casino.pit.models import Amendment, Casino, Flag, Jogo, Refusal, superseded
from regulation import CURRENT

from .models import DayEvent, GamingDay

GRADES = range(max(CURRENT.max_fan.values()) + 1)  # 0, 1, 2 fán (Art. 6, I-5)


def day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The moments a gaming day starts and ends: GAMING_DAY_STARTS (06:00) Macau time, to the same
    hour the next calendar day."""
    hours, minutes = (int(part) for part in settings.GAMING_DAY_STARTS.split(":"))
    start = timezone.make_aware(dt.datetime.combine(day, dt.time(hours, minutes)))
    return start, start + dt.timedelta(days=1)


def hours_of_the_day() -> list[int]:
    """The clock hours of a gaming day in order: 6, 7, …, 23, 0, …, 5 when it starts at 06:00."""
    first = int(settings.GAMING_DAY_STARTS.split(":")[0])
    return [(first + offset) % 24 for offset in range(24)]


def current_jogos_of_day(casino: Casino, day: dt.date) -> QuerySet[Jogo]:
    """The casino's jogos of the gaming day, each at its current (highest) revision."""
    return Jogo.objects.filter(table__casino=casino, gaming_day=day).filter(~superseded())


@dataclass(frozen=True)
class Figures:
    """The counts and commission of a table's day, or of the whole casino's."""

    games: int = 0
    jogos: int = 0
    wins_by_grade: tuple[int, ...] = tuple(0 for _ in GRADES)
    draws: int = 0
    false_wins: int = 0
    pay_alls: int = 0
    capped: int = 0
    fan_mismatches: int = 0
    commission: int = 0

    @property
    def wins(self) -> int:
        return sum(self.wins_by_grade)

    def __add__(self, other: "Figures") -> "Figures":
        return Figures(self.games + other.games, self.jogos + other.jogos,
                       tuple(a + b for a, b in zip(self.wins_by_grade, other.wins_by_grade)),
                       self.draws + other.draws, self.false_wins + other.false_wins, self.pay_alls + other.pay_alls,
                       self.capped + other.capped, self.fan_mismatches + other.fan_mismatches,
                       self.commission + other.commission)


@dataclass(frozen=True)
class TableDay:
    number: str
    variant: str
    stake: int
    figures: Figures

    @property
    def tier(self) -> str:
        """Art. 8 «modalidade de aposta» X/2X."""
        return f"{self.stake}/{2 * self.stake}"

    @property
    def rate(self) -> int:
        """Art. 8: the commission per won jogo at this table's tier."""
        return CURRENT.commission_for(self.variant, self.stake)


@dataclass(frozen=True)
class TierLine:
    """Art. 8: the commission of one stake tier: wins × the tier's rate."""

    variant: str
    stake: int
    rate: int
    tables: int
    wins: int
    commission: int

    @property
    def tier(self) -> str:
        return f"{self.stake}/{2 * self.stake}"

    @property
    def expected(self) -> int:
        return self.wins * self.rate


@dataclass(frozen=True)
class Exceptions:
    """How many of each kind of exception the day shows."""

    fan_mismatches: int
    amendments: int
    amendments_pending: int
    pay_alls: int
    false_wins: int
    capped: int
    flags: int
    refusals: int


@dataclass(frozen=True)
class DailySummary:
    casino: Casino
    day: dt.date
    tables: list[TableDay]
    totals: Figures
    tiers: list[TierLine]
    exceptions: Exceptions
    commission_by_hour: list[tuple[int, int]]
    state: GamingDay | None
    events: list[DayEvent] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.tables

    @property
    def closed(self) -> bool:
        return bool(self.state and self.state.closed)


def table_figures(casino: Casino, day: dt.date) -> list[TableDay]:
    """One row per table that played that day, aggregated in one query."""
    grades = {f"win_{grade}": Count("pk", filter=Q(result="win", fan=grade)) for grade in GRADES}
    rows = (current_jogos_of_day(casino, day)
            .values("table_id", "table__number", "table__variant", "table__stake")
            .annotate(games=Count("game", distinct=True), jogos=Count("pk"), **grades,
                      draws=Count("pk", filter=Q(result="draw")),
                      false_wins=Count("pk", filter=Q(result="false_win")),
                      pay_alls=Count("pk", filter=Q(pay_all=True)),
                      capped=Count("pk", filter=Q(capped=True)),
                      fan_mismatches=Count("pk", filter=Q(fan_mismatch=True)),
                      commission=Coalesce(Sum("commission"), 0))
            .order_by("table__number"))
    return [TableDay(row["table__number"], row["table__variant"], row["table__stake"],
                     Figures(row["games"], row["jogos"], tuple(row[f"win_{grade}"] for grade in GRADES),
                             row["draws"], row["false_wins"], row["pay_alls"], row["capped"],
                             row["fan_mismatches"], row["commission"]))
            for row in rows]


def tier_lines(tables: list[TableDay]) -> list[TierLine]:
    """Art. 8: commission by stake tier, from the table rows (no query)."""
    lines: dict[tuple[str, int], TierLine] = {}
    for table in tables:
        key = (table.variant, table.stake)
        line = lines.get(key) or TierLine(table.variant, table.stake, table.rate, 0, 0, 0)
        lines[key] = TierLine(line.variant, line.stake, line.rate, line.tables + 1, line.wins + table.figures.wins,
                              line.commission + table.figures.commission)
    return [lines[key] for key in sorted(lines)]


def commission_by_hour(casino: Casino, day: dt.date) -> list[tuple[int, int]]:
    """The commission of the day's won jogos by the Macau clock hour they were played (an amended
    jogo counts at the hour of its first revision), for every hour of the gaming day."""
    played_at = Jogo.objects.filter(table=OuterRef("table"), number=OuterRef("number"), revision=0)
    rows = (current_jogos_of_day(casino, day).filter(commission__gt=0)
            .annotate(played_at=Subquery(played_at.values("recorded_at")[:1]))
            .annotate(hour=ExtractHour("played_at"))
            .values("hour").annotate(commission=Sum("commission")).order_by("hour"))
    amounts = {row["hour"]: row["commission"] for row in rows}
    return [(hour, amounts.get(hour, 0)) for hour in hours_of_the_day()]


def exceptions(casino: Casino, day: dt.date, totals: Figures) -> Exceptions:
    """Counts per kind of exception: the ledger's from the totals, then amendments of the day's
    jogos, flags on them and refused attempts during the day (three queries)."""
    amendments = Amendment.objects.filter(jogo__table__casino=casino, jogo__gaming_day=day).aggregate(
        total=Count("pk"), pending=Count("pk", filter=Q(state=Amendment.PENDING)))
    flagged = Jogo.objects.filter(table=OuterRef("table"), number=OuterRef("number"), gaming_day=day)
    flags = Flag.objects.filter(table__casino=casino).filter(Exists(flagged)).count()
    start, end = day_bounds(day)
    refusals = Refusal.objects.filter(table__casino=casino, attempted_at__gte=start, attempted_at__lt=end).count()
    return Exceptions(totals.fan_mismatches, amendments["total"], amendments["pending"], totals.pay_alls,
                      totals.false_wins, totals.capped, flags, refusals)


def day_state(casino: Casino, day: dt.date) -> tuple[GamingDay | None, list[DayEvent]]:
    """Whether the day is closed, and every close and reopen, oldest first."""
    events = list(DayEvent.objects.filter(gaming_day__casino=casino, gaming_day__day=day)
                  .select_related("gaming_day", "by").order_by("at", "pk"))
    state = events[-1].gaming_day if events else None
    return state, events


def daily_summary(casino: Casino, day: dt.date) -> DailySummary:
    tables = table_figures(casino, day)
    totals = sum((table.figures for table in tables), Figures())
    state, events = day_state(casino, day)
    return DailySummary(casino=casino, day=day, tables=tables, totals=totals, tiers=tier_lines(tables),
                        exceptions=exceptions(casino, day, totals), commission_by_hour=commission_by_hour(casino, day),
                        state=state, events=events)


def default_casino() -> Casino | None:
    """The casino when the database holds one (the usual case); None when it holds several."""
    casinos = list(Casino.objects.order_by("pk")[:2])
    return casinos[0] if len(casinos) == 1 else None
