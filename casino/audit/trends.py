"""Each table against expectation (Kansas K.A.R. 112-108-51, Maryland COMAR 36.05.03.25): a
table's commission, jogos, commission per jogo and per hour, by gaming day, month to date and
year to date, and whether the day's commission per jogo lies in the table's expected band.

What the band is, and why:

- **The figure.** Art. 8 fixes the commission of a won jogo at each tier, and a draw or a false
  win pays none; so a table's commission per jogo is its rate times the share of its jogos
  recorded as won. A dealer who records won jogos as draws, or who leaves jogos out, moves
  it; the traffic of the floor does not. Commission per hour is shown beside it, but not
  banded: it follows how busy the floor was.
- **Its own history at its tier.** A table's variant and stake are fixed (Art. 8, `Table`), so
  its own past days are all at its tier; tables are not pooled, since a table's seats and
  players shape its share of wins.
- **The band** is the mean ± 2 standard deviations (sample, n − 1) of the daily commission per
  jogo over the last BAND_DAYS gaming days on which the table played, before the day judged,
  within BAND_LOOKBACK calendar days (an older history says little of today's table). The
  lower edge is never below 0. Two σ leaves about one day in twenty outside by chance, few
  enough for an inspector to look at each.
- **No band before BAND_MIN_DAYS days of play:** a mean of fewer days would flag ordinary
  days. Such a table shows "no band yet", never "outside".
- A day on which the table recorded no jogo is not judged; it is not in the history either.

Hours of play are the hours with jogos: the clock hours (Macau time, 14:00 to 14:59 is one)
in which the table recorded at least one jogo, as first recorded (revision 0, since an
amendment's row carries the time of the amendment). An hour with one jogo counts whole; an
open game with no jogo, and any hour between jogos without one, counts nothing: a game left
open and idle is not play (the walkthrough of issue 24 found it counted when hours ran from a
game's start to its last jogo). Commission per hour is the commission over those hours.

All figures are Decimal, never float; the selectors read the ledger in a fixed number of
queries whatever the number of tables and days (three).
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, QuerySet, Sum
from django.db.models.functions import TruncHour

from casino.pit.models import Jogo, Table, superseded

BAND_DAYS = 30  # the last gaming days of play the band is drawn from
BAND_MIN_DAYS = 7  # fewer days of play: no band yet
BAND_LOOKBACK = 90  # calendar days before the day judged in which that history is looked for
BAND_WIDTH = 2  # standard deviations either side of the mean
CHART_DAYS = 30  # gaming days of play on a table's trend chart
CENT = Decimal("0.01")

BELOW, WITHIN, ABOVE = "below", "within", "above"


@dataclass(frozen=True)
class Band:
    """The expected range of a table's daily commission per jogo, from `days` days of play."""

    mean: Decimal
    sigma: Decimal
    days: int

    @property
    def low(self) -> Decimal:
        return max(Decimal(0), self.mean - BAND_WIDTH * self.sigma)

    @property
    def high(self) -> Decimal:
        return self.mean + BAND_WIDTH * self.sigma

    def place(self, value: Decimal) -> str:
        """BELOW, WITHIN or ABOVE the band (its edges are within)."""
        if value < self.low:
            return BELOW
        return ABOVE if value > self.high else WITHIN


def band(history: list[Decimal]) -> Band | None:
    """The band of a history of daily figures: mean ± BAND_WIDTH sample standard deviations.
    None with fewer than BAND_MIN_DAYS figures."""
    count = len(history)
    if count < BAND_MIN_DAYS:
        return None
    mean = sum(history, Decimal(0)) / count
    variance = sum(((value - mean) ** 2 for value in history), Decimal(0)) / (count - 1)
    return Band(mean, variance.sqrt(), count)


@dataclass(frozen=True)
class TrendFigures:
    """A table's commission, jogos and hours with jogos over one day or a run of days."""

    commission: int = 0
    jogos: int = 0
    hours: int = 0

    def __add__(self, other: TrendFigures) -> TrendFigures:
        return TrendFigures(self.commission + other.commission, self.jogos + other.jogos, self.hours + other.hours)

    @property
    def per_jogo(self) -> Decimal | None:
        """Commission per jogo; None without jogos."""
        return Decimal(self.commission) / self.jogos if self.jogos else None

    @property
    def per_hour(self) -> Decimal | None:
        """Commission per hour with jogos; None without jogos."""
        return Decimal(self.commission) / self.hours if self.hours else None


@dataclass
class TableTrend:
    """One table on one gaming day: its day, month to date and year to date, its history of
    days of play (oldest first), the band drawn from it and where the day lies."""

    table: Table
    day: dt.date
    days: dict[dt.date, TrendFigures] = field(default_factory=dict)

    @property
    def today(self) -> TrendFigures:
        return self.days.get(self.day, TrendFigures())

    def _since(self, first: dt.date) -> TrendFigures:
        return sum((figures for day, figures in self.days.items() if first <= day <= self.day), TrendFigures())

    @property
    def month_to_date(self) -> TrendFigures:
        return self._since(self.day.replace(day=1))

    @property
    def year_to_date(self) -> TrendFigures:
        return self._since(self.day.replace(month=1, day=1))

    @property
    def history(self) -> list[tuple[dt.date, TrendFigures]]:
        """The days of play the band is drawn from: the last BAND_DAYS before the day, within
        BAND_LOOKBACK calendar days."""
        first = self.day - dt.timedelta(days=BAND_LOOKBACK)
        played = sorted((day, figures) for day, figures in self.days.items()
                        if first <= day < self.day and figures.jogos)
        return played[-BAND_DAYS:]

    @property
    def band(self) -> Band | None:
        return band([figures.per_jogo for _, figures in self.history])

    @property
    def place(self) -> str | None:
        """Where the day's commission per jogo lies in the band; None when the table did not play
        that day or has no band yet."""
        expected, today = self.band, self.today
        if expected is None or not today.jogos:
            return None
        return expected.place(today.per_jogo)

    @property
    def outside(self) -> bool:
        return self.place in (BELOW, ABOVE)

    @property
    def chart_days(self) -> list[tuple[dt.date, TrendFigures]]:
        """The last CHART_DAYS days of play up to the day, oldest first."""
        return sorted((day, figures) for day, figures in self.days.items()
                      if day <= self.day and figures.jogos)[-CHART_DAYS:]


def first_day_read(day: dt.date) -> dt.date:
    """The earliest gaming day the trends of `day` read: the first of its year, or earlier when
    the band's history reaches into the year before."""
    return min(day.replace(month=1, day=1), day - dt.timedelta(days=BAND_LOOKBACK))


def table_trends(day: dt.date, *, tables=None, to_date: bool = True) -> list[TableTrend]:
    """Every table's (or those of the `tables` queryset) trend on a gaming day, by casino and
    number. Three queries: the tables, the current jogos' figures by table and day, and the
    clock hours with jogos by table and day. Without `to_date`, only the band's history and the day are read
    (month and year to date are then not whole): enough to say which tables lie outside."""
    tables = list((tables if tables is not None else Table.objects.all())
                  .select_related("casino").order_by("casino__name", "number"))
    trends = {table.pk: TableTrend(table, day) for table in tables}
    span = (first_day_read(day) if to_date else day - dt.timedelta(days=BAND_LOOKBACK), day)
    jogos = Jogo.objects.filter(table__in=list(trends), gaming_day__range=span)
    counted = (jogos.filter(~superseded()).values("table_id", "gaming_day")
               .annotate(jogos=Count("pk"), commission=Sum("commission")).order_by())
    totals: dict[tuple[int, dt.date], TrendFigures] = {
        (row["table_id"], row["gaming_day"]): TrendFigures(row["commission"] or 0, row["jogos"]) for row in counted}
    played = (jogos.filter(revision=0).annotate(hour=TruncHour("recorded_at"))
              .values("table_id", "gaming_day", "hour").distinct().order_by())
    hours: dict[tuple[int, dt.date], int] = defaultdict(int)
    for row in played:
        hours[row["table_id"], row["gaming_day"]] += 1
    for (table_id, played_day), figures in totals.items():
        trends[table_id].days[played_day] = TrendFigures(figures.commission, figures.jogos,
                                                         hours[table_id, played_day])
    return [trends[table.pk] for table in tables]


def table_trend(table: Table, day: dt.date) -> TableTrend:
    """One table's trend on a gaming day (the same three queries)."""
    return table_trends(day, tables=Table.objects.filter(pk=table.pk))[0]


def outside_band(day: dt.date, tables: QuerySet[Table] | None = None) -> list[TableTrend]:
    """The tables (every casino's when None; a person's `visible_tables` on his dashboard) whose
    commission per jogo on the day lies outside their expected band (the dashboard's list: it
    reads only the band's history, not the year)."""
    return [trend for trend in table_trends(day, tables=tables, to_date=False) if trend.outside]
