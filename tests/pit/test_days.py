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


@pytest.mark.parametrize(("clock", "moment"), [
    (dt.time(6, 0), macau(2026, 11, 22, 6, 0)),  # the day's first moment, as the end of a period, is its last
    (dt.time(5, 59), macau(2026, 11, 22, 5, 59)),
    (dt.time(14, 0), macau(2026, 11, 21, 14, 0)),
])
def test_a_clock_time_closing_a_period_counts_the_days_start_as_its_end(clock, moment):
    assert days.moment_of(dt.date(2026, 11, 21), clock, closing=True) == moment


def test_a_period_of_a_day_runs_from_its_start_to_its_end_on_the_clock():
    day = dt.date(2026, 11, 21)
    assert days.period(day) == days.day_bounds(day)
    assert days.period(day, start=dt.time(14, 0)) == (macau(2026, 11, 21, 14, 0), macau(2026, 11, 22, 6, 0))
    assert days.period(day, end=dt.time(14, 0)) == (macau(2026, 11, 21, 6, 0), macau(2026, 11, 21, 14, 0))


def test_a_shift_crossing_midnight_is_one_period_of_the_day_it_started():
    first, last = days.period(dt.date(2026, 11, 21), start=dt.time(22, 0), end=dt.time(6, 0))
    assert (first, last) == (macau(2026, 11, 21, 22, 0), macau(2026, 11, 22, 6, 0))
    assert days.gaming_day(first) == days.gaming_day(last - dt.timedelta(microseconds=1)) == dt.date(2026, 11, 21)


def test_a_period_ending_before_it_starts_is_empty():
    first, last = days.period(dt.date(2026, 11, 21), start=dt.time(14, 0), end=dt.time(10, 0))
    assert last <= first


def test_the_setting_moves_the_clock_of_a_period(settings):
    settings.GAMING_DAY_STARTS = "08:30"
    day = dt.date(2026, 11, 21)
    assert days.moment_of(day, dt.time(8, 0)) == macau(2026, 11, 22, 8, 0)  # before 08:30: the next morning
    assert days.period(day, start=dt.time(8, 30), end=dt.time(8, 30)) == days.day_bounds(day)
    assert days.starts_at() == "08:30"


@pytest.mark.parametrize(("text", "after_midnight"), [("06:00", dt.timedelta(hours=6)),
                                                      ("23:59", dt.timedelta(hours=23, minutes=59)),
                                                      ("00:00", dt.timedelta(0))])
def test_a_time_of_day_in_a_setting_is_read_on_the_24_hour_clock(text, after_midnight):
    assert days.clock(text) == after_midnight


@pytest.mark.parametrize("text", ["24:00", "06:60", "-1:00"])
def test_a_time_of_day_that_is_none_is_refused(text):
    with pytest.raises(ValueError):
        days.clock(text)


def test_a_moment_is_named_to_the_minute_in_macau_time():
    assert days.minute(dt.datetime(2026, 11, 21, 21, 30, 59, tzinfo=dt.UTC)) == "2026-11-22 05:30"


def test_the_days_a_person_may_ask_for_run_from_the_portarias_year():
    assert (days.FIRST_DAY, days.LAST_DAY) == (dt.date(1991, 1, 1), dt.date(2099, 12, 31))
    assert days.day_bounds(days.LAST_DAY)[1] > days.day_bounds(days.FIRST_DAY)[0]
