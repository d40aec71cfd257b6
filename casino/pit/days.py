"""The gaming day: the one home of when a casino's day starts and ends.

A gaming day starts at GAMING_DAY_STARTS (default 06:00) Macau time and ends at the same hour
the next calendar day, so a jogo at 03:00 belongs to the day before. The pit, the count, the
audit and the reports all ask this module; none of them reads the setting itself, and none
works out which moment a clock time of a day is.

Nothing here reads a request: `day_forms.py` turns a person's choice of day into a date.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone

DAY = dt.timedelta(days=1)

# The gaming days a person may ask for. None is kept before 1991, the year of Portaria
# 135/91/M; and a day at the calendar's very ends (0001-01-01, 9999-12-31) has no day before
# or after, nor an end that Python can hold.
FIRST_DAY, LAST_DAY = dt.date(1991, 1, 1), dt.date(2099, 12, 31)


def clock(text: str) -> dt.timedelta:
    """How long after midnight a time of day written "HH:MM" is (a setting's form of a time).
    ValueError when it is not one."""
    hours, minutes = (int(part) for part in text.split(":"))
    if not (0 <= hours < 24 and 0 <= minutes < 60):
        raise ValueError(f"{text!r} is not a time of day (HH:MM)")
    return dt.timedelta(hours=hours, minutes=minutes)


def day_starts() -> dt.timedelta:
    """How long after midnight a gaming day starts (GAMING_DAY_STARTS, "HH:MM")."""
    return clock(settings.GAMING_DAY_STARTS)


def starts_at() -> str:
    """The clock time a gaming day starts, as people read it ("06:00")."""
    return settings.GAMING_DAY_STARTS


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


def minute(moment: dt.datetime) -> str:
    """A moment as a message names it: Macau time, to the minute ("2026-11-21 14:30")."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def hours_of_the_day() -> list[int]:
    """The clock hours of a gaming day in order: 6, 7, …, 23, 0, …, 5 when it starts at 06:00."""
    first = int(day_starts().total_seconds()) // 3600
    return [(first + offset) % 24 for offset in range(24)]


def moment_of(day: dt.date, time: dt.time, *, closing: bool = False) -> dt.datetime:
    """The moment of gaming day `day` that a clock shows (Macau time): on the calendar day the
    gaming day starts when the clock is at or after its start, on the next calendar day before
    it (03:00 is the night after when the day starts at 06:00). As the `closing` end of a
    period, the day's first moment is its last: 06:00 closes the day."""
    after_start = (dt.timedelta(hours=time.hour, minutes=time.minute, seconds=time.second,
                                microseconds=time.microsecond) - day_starts()) % DAY
    if closing and not after_start:
        after_start = DAY
    return day_bounds(day)[0] + after_start


def period(day: dt.date, *, start: dt.time | None = None,
           end: dt.time | None = None) -> tuple[dt.datetime, dt.datetime]:
    """The moments a gaming day's period starts and ends: from `start` to `end` on the clock
    (Macau time), the whole day for a time not given. An `end` before `start` on the clock runs
    past midnight; the period is empty when the end comes no later than the start."""
    day_start, day_end = day_bounds(day)
    first = moment_of(day, start) if start is not None else day_start
    last = moment_of(day, end, closing=True) if end is not None else day_end
    return first, last
