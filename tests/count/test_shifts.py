"""The casino's shifts (casino/count/shifts.py): three 8-hour shifts from 06:00 Macau time by default."""
import datetime as dt
import zoneinfo

import pytest

from casino.count import shifts

MACAU = zoneinfo.ZoneInfo("Asia/Macau")


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 11, day, hour, minute, tzinfo=MACAU)


def test_three_shifts_from_the_start_of_the_gaming_day():
    assert shifts.count() == 3
    assert shifts.shift_bounds(dt.date(2026, 11, 20), 1) == (at(20, 6), at(20, 14))
    assert shifts.shift_bounds(dt.date(2026, 11, 20), 2) == (at(20, 14), at(20, 22))
    assert shifts.shift_bounds(dt.date(2026, 11, 20), 3) == (at(20, 22), at(21, 6))


def test_a_moment_belongs_to_the_shift_that_started_last():
    assert shifts.shift_of(at(20, 6)) == (dt.date(2026, 11, 20), 1)
    assert shifts.shift_of(at(20, 13, 59)) == (dt.date(2026, 11, 20), 1)
    assert shifts.shift_of(at(20, 14)) == (dt.date(2026, 11, 20), 2)
    assert shifts.shift_of(at(20, 23)) == (dt.date(2026, 11, 20), 3)


def test_the_night_after_midnight_is_the_last_shift_of_the_previous_gaming_day():
    assert shifts.shift_of(at(21, 3)) == (dt.date(2026, 11, 20), 3)
    assert shifts.shift_of(at(21, 5, 59)) == (dt.date(2026, 11, 20), 3)
    assert shifts.shift_of(at(21, 6)) == (dt.date(2026, 11, 21), 1)


def test_a_moment_in_utc_is_read_in_macau_time():
    assert shifts.shift_of(dt.datetime(2026, 11, 20, 6, 30, tzinfo=dt.UTC)) == (dt.date(2026, 11, 20), 2)


@pytest.mark.parametrize("moment", [at(20, 6), at(20, 17, 30), at(21, 0, 1), at(21, 5, 59)])
def test_every_moment_lies_within_the_bounds_of_its_shift(moment):
    day, shift = shifts.shift_of(moment)
    starts, ends = shifts.shift_bounds(day, shift)
    assert starts <= moment < ends


def test_the_pattern_is_a_setting(settings):
    settings.SHIFTS = ["06:00", "18:00"]
    assert shifts.count() == 2
    assert shifts.shift_bounds(dt.date(2026, 11, 20), 2) == (at(20, 18), at(21, 6))
    assert shifts.shift_of(at(21, 2)) == (dt.date(2026, 11, 20), 2)


def test_a_shift_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="shifts 1 to 3"):
        shifts.shift_bounds(dt.date(2026, 11, 20), 4)
    with pytest.raises(ValueError):
        shifts.shift_bounds(dt.date(2026, 11, 20), 0)


@pytest.mark.parametrize("pattern", [["14:00", "06:00"], ["06:00", "22:00", "14:00"], ["06:00", "06:00"],
                                     ["06:00", "25:00"]])
def test_a_pattern_out_of_order_or_not_from_the_start_of_the_day_is_refused(pattern):
    with pytest.raises(ValueError):
        shifts.offsets(pattern, "06:00")
