"""Large transactions: a player's cash over a gaming day against the threshold of DICJ
Instruction n.º 1/2016 (the casino's rule C-2, docs/rules.md §11; docs/money.md).

A casino identifies and records the customer of any transaction of MOP 500,000 or more
(LARGE_TRANSACTION_THRESHOLD) and refuses it when no credible identification is given. As US
casinos do with their multiple-transaction log (31 CFR 1021.311–313), the amount counted against
the threshold is one player's cash over a gaming day across every table: his buy-ins, and
separately his cash-outs (a Mah-Jong table pays a winner into his capital at stake, so what he
takes away is his cash-out). A movement that brings either total to the threshold or beyond is
refused until the player is identified (`casino.pit.services.recording.move_money`).

Structuring: two or more movements of one direction, each below the threshold, whose sum reaches
it within the gaming day.
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Count, Max, QuerySet, Sum

from .models import Casino, Movement, Patron

# The two totals counted apart: money in and money out.
DIRECTIONS = (Movement.BUY_IN, Movement.CASH_OUT)


def threshold() -> int:
    return settings.LARGE_TRANSACTION_THRESHOLD


def day_total(patron: Patron | int, day: dt.date, kind: str) -> int:
    """The patron's movements of `kind` (buy-in or cash-out) over gaming day `day`, at every
    table: one query."""
    return Movement.objects.filter(patron=patron, gaming_day=day, kind=kind).aggregate(
        total=Sum("amount"))["total"] or 0


def movements_of_day(day: dt.date, casino: Casino | None = None) -> QuerySet[Movement]:
    """The day's movements that name a patron, at every table of `casino` (of every casino when
    None), in the order recorded."""
    movements = Movement.objects.filter(gaming_day=day, patron__isnull=False)
    if casino is not None:
        movements = movements.filter(table__casino=casino)
    return movements.order_by("recorded_at", "table_id", "seq")


@dataclass(frozen=True)
class Pattern:
    """A patron's movements of one direction over a gaming day that reach the threshold
    together: `count` movements, each below it, totalling `total`, the last at `last_at`."""

    patron_id: int
    day: dt.date
    kind: str
    count: int
    total: int
    largest: int
    last_at: dt.datetime


def structuring(days: tuple[dt.date, dt.date], casino: Casino | None = None) -> list[Pattern]:
    """Every structuring pattern of the days (first, last): per patron, day and direction, two or
    more movements each below the threshold whose sum reaches it. One query."""
    limit = threshold()
    movements = Movement.objects.filter(gaming_day__range=days, patron__isnull=False, amount__lt=limit)
    if casino is not None:
        movements = movements.filter(table__casino=casino)
    rows = (movements.values("patron", "gaming_day", "kind")
            .annotate(count=Count("pk"), total=Sum("amount"), largest=Max("amount"), last_at=Max("recorded_at"))
            .filter(count__gte=2, total__gte=limit)
            .order_by("gaming_day", "patron", "kind"))
    return [Pattern(row["patron"], row["gaming_day"], row["kind"], row["count"], row["total"], row["largest"],
                    row["last_at"]) for row in rows]


def running_totals(movements: list[Movement]) -> dict[int, int]:
    """Each movement's running total (by its id): the sum of its patron's movements of its
    direction on its gaming day up to and including it, `movements` being in the order recorded."""
    totals: dict[tuple[int | None, dt.date, str], int] = defaultdict(int)
    running = {}
    for movement in movements:
        key = (movement.patron_id, movement.gaming_day, movement.kind)
        totals[key] += movement.amount
        running[movement.pk] = totals[key]
    return running
