"""The casino's shifts: each gaming day is cut into shifts at the times of the setting SHIFTS
(Macau time, e.g. "06:00,14:00,22:00"); the first starts with the gaming day (`casino.pit.days`
says when), each ends when the next starts and the last when the gaming day ends. A
table's shift is a table-shift; its commission goes into one box (models.Box).

Shifts are numbered from 1 in the order they start within the gaming day.
"""
from __future__ import annotations

import datetime as dt

from django.conf import settings

from casino.pit.days import DAY, clock, day_bounds, day_starts as gaming_day_starts, gaming_day


def offsets(starts: list[str] | None = None, day_starts: str | None = None) -> list[dt.timedelta]:
    """How long after the start of the gaming day each shift starts: 0 first, then increasing,
    each under a day. A start before the gaming day's hour is on the next calendar day. `starts`
    defaults to the setting SHIFTS, `day_starts` ("HH:MM") to the gaming day's start."""
    starts = settings.SHIFTS if starts is None else starts
    origin = gaming_day_starts() if day_starts is None else clock(day_starts)
    found = [(clock(start) - origin) % DAY for start in starts]
    if not found or found[0] != dt.timedelta(0):
        raise ValueError("the first shift starts when the gaming day starts")
    if any(later <= earlier for earlier, later in zip(found, found[1:])):
        raise ValueError("shifts start in order through the gaming day, each once")
    return found


def count() -> int:
    """How many shifts a gaming day has."""
    return len(offsets())


def shift_bounds(day: dt.date, shift: int) -> tuple[dt.datetime, dt.datetime]:
    """When shift `shift` (from 1) of gaming day `day` starts and ends, aware, in the casino's
    time zone; the end is the next shift's start (not part of this shift)."""
    found = offsets()
    if not 1 <= shift <= len(found):
        raise ValueError(f"a gaming day has shifts 1 to {len(found)}, not {shift}")
    start = day_bounds(day)[0]
    ends = found[shift] if shift < len(found) else DAY
    return start + found[shift - 1], start + ends


def shift_of(moment: dt.datetime) -> tuple[dt.date, int]:
    """The gaming day and shift (from 1) of an aware moment."""
    day = gaming_day(moment)
    elapsed = moment - day_bounds(day)[0]
    return day, max(number for number, start in enumerate(offsets(), 1) if start <= elapsed)
