"""The gaming day (casino/pit/days.py): it starts at GAMING_DAY_STARTS, Macau time."""
import datetime as dt

import pytest
from django.utils import timezone

from casino.pit import days


def macau(*args) -> dt.datetime:
    return timezone.make_aware(dt.datetime(*args))


@pytest.mark.parametrize(("moment", "day"), [
    (macau(2026, 11, 21, 6, 0), dt.date(2026, 11, 21)),
    (macau(2026, 11, 21, 23, 59), dt.date(2026, 11, 21)),
    (macau(2026, 11, 22, 3, 0), dt.date(2026, 11, 21)),
    (macau(2026, 11, 22, 5, 59, 59), dt.date(2026, 11, 21)),
    (macau(2026, 11, 22, 6, 0), dt.date(2026, 11, 22)),
])
def test_a_moment_belongs_to_the_gaming_day_that_started_at_six(moment, day):
    assert days.gaming_day(moment) == day


def test_a_moment_in_another_time_zone_is_read_in_macau_time():
    # 21:30 UTC on the 21st is 05:30 in Macau on the 22nd: still the gaming day of the 21st.
    assert days.gaming_day(dt.datetime(2026, 11, 21, 21, 30, tzinfo=dt.timezone.utc)) == dt.date(2026, 11, 21)


def test_a_day_runs_from_its_start_to_the_next_days_start():
    start, end = days.day_bounds(dt.date(2026, 11, 21))
    assert (start, end) == (macau(2026, 11, 21, 6, 0), macau(2026, 11, 22, 6, 0))
    assert days.gaming_day(start) == dt.date(2026, 11, 21)
    assert days.gaming_day(end) == dt.date(2026, 11, 22)


def test_the_setting_moves_the_start(settings):
    settings.GAMING_DAY_STARTS = "08:30"
    assert days.gaming_day(macau(2026, 11, 22, 8, 29)) == dt.date(2026, 11, 21)
    assert days.day_bounds(dt.date(2026, 11, 21))[0] == macau(2026, 11, 21, 8, 30)
    assert days.hours_of_the_day()[:3] == [8, 9, 10]


def test_the_hours_of_a_day_run_from_its_start_round_the_clock():
    assert days.hours_of_the_day() == [*range(6, 24), *range(0, 6)]


@pytest.mark.parametrize(("clock", "moment"), [
    (dt.time(6, 0), macau(2026, 11, 21, 6, 0)),
    (dt.time(22, 15), macau(2026, 11, 21, 22, 15)),
    (dt.time(3, 0), macau(2026, 11, 22, 3, 0)),  # the night after, not the morning before
])
def test_a_clock_time_of_a_gaming_day_is_the_moment_it_shows_within_that_day(clock, moment):
    assert days.moment_of(dt.date(2026, 11, 21), clock) == moment
