"""The gaming day: the one home of when a casino's day starts and ends.

A gaming day starts at GAMING_DAY_STARTS (default 06:00) Macau time and ends at the same hour
the next calendar day, so a jogo at 03:00 belongs to the day before. The pit, the count, the
audit and the reports all ask this module; none of them reads the setting itself.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

DAY = dt.timedelta(days=1)


def day_starts() -> dt.timedelta:
    """How long after midnight a gaming day starts (GAMING_DAY_STARTS, "HH:MM")."""
    hours, minutes = (int(part) for part in settings.GAMING_DAY_STARTS.split(":"))
    return dt.timedelta(hours=hours, minutes=minutes)


def gaming_day(moment: dt.datetime) -> dt.date:
    """The gaming day of a moment."""
    return (timezone.localtime(moment) - day_starts()).date()


def today() -> dt.date:
    """The gaming day now."""
    return gaming_day(timezone.now())


def day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    """The moments gaming day `day` starts and ends (the end belongs to the next day)."""
    start = timezone.make_aware(dt.datetime.combine(day, dt.time(0)) + day_starts())
    return start, start + DAY


def hours_of_the_day() -> list[int]:
    """The clock hours of a gaming day in order: 6, 7, …, 23, 0, …, 5 when it starts at 06:00."""
    first = int(day_starts().total_seconds()) // 3600
    return [(first + offset) % 24 for offset in range(24)]


def moment_of(day: dt.date, clock: dt.time) -> dt.datetime:
    """The moment of gaming day `day` that a clock shows: on the calendar day the gaming day
    starts when the clock is at or after its start, on the next calendar day before it."""
    after_start = dt.timedelta(hours=clock.hour, minutes=clock.minute) - day_starts()
    return day_bounds(day)[0] + after_start % DAY
