"""Choosing a gaming day on a page (casino/pit/day_forms.py): the one form the pit's floor, the
count's rotation log, the reports and the audit read a request's day with."""
import datetime as dt

import pytest

from casino.pit.day_forms import GamingDayForm, GamingDayPeriodForm, GamingDaysForm

TODAY = dt.date(2026, 11, 22)


def test_a_request_naming_no_day_is_the_default_day():
    form = GamingDayForm({}, default=TODAY)
    assert form.is_valid() and form.cleaned_data["day"] == TODAY
    assert 'value="2026-11-22"' in str(GamingDayForm(default=TODAY)["day"])


def test_the_day_asked_is_read_as_yyyy_mm_dd():
    form = GamingDayForm({"day": "2026-11-21"}, default=TODAY)
    assert form.is_valid() and form.cleaned_data["day"] == dt.date(2026, 11, 21)


@pytest.mark.parametrize("text", ["2026-99-99", "yesterday", "21/13/2026"])
def test_a_day_that_is_no_date_says_how_to_write_one(text):
    form = GamingDayForm({"day": text}, default=TODAY)
    assert not form.is_valid() and form.errors["day"] == ["not a date; write it as YYYY-MM-DD."]


@pytest.mark.parametrize("text", ["1990-12-31", "2100-01-01", "0001-01-01", "9999-12-31"])
def test_a_day_outside_the_days_kept_says_which_are(text):
    form = GamingDayForm({"day": text}, default=TODAY)
    assert not form.is_valid() and form.errors["day"] == ["choose a day from 1991-01-01 to 2099-12-31."]


@pytest.mark.parametrize("text", ["1991-01-01", "2099-12-31"])
def test_the_first_and_last_days_kept_may_be_asked_for(text):
    assert GamingDayForm({"day": text}, default=TODAY).is_valid()


def test_a_period_may_run_past_midnight_but_not_end_before_it_starts():
    assert GamingDayPeriodForm({"day": "2026-11-21", "start": "22:00", "end": "03:00"}, default=TODAY).is_valid()
    form = GamingDayPeriodForm({"day": "2026-11-21", "start": "14:00", "end": "10:00"}, default=TODAY)
    assert not form.is_valid()
    assert form.errors["end"] == ["The period ends before it starts: the gaming day starts at 06:00."]


@pytest.mark.parametrize(("query", "first", "last"), [
    ({"day": "2026-11-21"}, dt.date(2026, 11, 21), dt.date(2026, 11, 21)),
    ({"from": "2026-11-20", "to": "2026-11-21"}, dt.date(2026, 11, 20), dt.date(2026, 11, 21)),
    ({"from": "2026-11-20"}, dt.date(2026, 11, 20), dt.date(2026, 11, 20)),
    ({"to": "2026-11-21"}, dt.date(2026, 11, 21), dt.date(2026, 11, 21)),
])
def test_a_range_of_days_is_a_day_or_from_and_to(query, first, last):
    form = GamingDaysForm(query)
    assert form.is_valid() and (form.cleaned_data["first"], form.cleaned_data["last"]) == (first, last)


@pytest.mark.parametrize(("query", "field", "message"), [
    ({}, "day", "choose a gaming day, or a range from … to …"),
    ({"from": "2026-11-22", "to": "2026-11-21"}, "to", "the range ends before it starts"),
    ({"from": "yesterday"}, "from", "not a date; write it as YYYY-MM-DD."),
])
def test_a_range_that_is_none_says_why_on_its_field(query, field, message):
    form = GamingDaysForm(query)
    assert not form.is_valid() and form.errors[field] == [message]
