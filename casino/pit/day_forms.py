"""Choosing a gaming day on a page: the one place a request's `day` (or `from`/`to`) becomes a
date. The pit's floor, the count's rotation log, the reports and the audit all use it.

A day is typed as YYYY-MM-DD and must be one from `days.FIRST_DAY` to `days.LAST_DAY`; the
clock of the day itself is `days.py`'s.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from . import days


def clock_input() -> forms.TimeInput:
    """A time typed on the 24-hour clock, "14:30" (the browser's own time picker may show AM/PM)."""
    return forms.TimeInput(format="%H:%M", attrs={"inputmode": "numeric", "placeholder": "HH:MM", "size": 5,
                                                  "maxlength": 5, "pattern": "[0-2][0-9]:[0-5][0-9]"})


class GamingDayField(forms.DateField):
    """A gaming day typed as YYYY-MM-DD, from `days.FIRST_DAY` to `days.LAST_DAY`."""

    default_error_messages = {
        "invalid": _("not a date; write it as YYYY-MM-DD."),
        "out_of_range": _("choose a day from %(first)s to %(last)s."),
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Gaming day"))
        kwargs.setdefault("widget", forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
        super().__init__(**kwargs)

    def validate(self, value: dt.date | None) -> None:
        super().validate(value)
        if value is not None and not days.FIRST_DAY <= value <= days.LAST_DAY:
            raise forms.ValidationError(self.error_messages["out_of_range"], code="out_of_range",
                                        params={"first": days.FIRST_DAY.isoformat(), "last": days.LAST_DAY.isoformat()})


def with_day(data: Any, default: dt.date) -> Any:
    """The query asked, with the `default` day when it names none, so the form shows the day the
    page lists."""
    if data is None or data.get("day"):
        return data
    data = data.copy()
    data["day"] = default.isoformat()
    return data


class GamingDayForm(forms.Form):
    """One gaming day, `?day=YYYY-MM-DD`; the `default` day (usually today's gaming day) when
    the request names none. Unbound (no query), it shows the `default` day."""

    day = GamingDayField(required=False)

    def __init__(self, data: Any = None, *, default: dt.date, **kwargs: Any) -> None:
        super().__init__(with_day(data, default), initial={"day": default}, **kwargs)
        self.default = default

    def clean_day(self) -> dt.date:
        return self.cleaned_data.get("day") or self.default


class GamingDayPeriodForm(GamingDayForm):
    """A gaming day with an optional time range of it, Macau time (`start`, `end` as HH:MM): a
    shift, or any part of the day. A range may run past midnight; it may not end before it starts."""

    start = forms.TimeField(label=_("From"), required=False, input_formats=["%H:%M"], widget=clock_input())
    end = forms.TimeField(label=_("To"), required=False, input_formats=["%H:%M"], widget=clock_input(),
                          help_text=_("Macau time, 24-hour clock; a range may run past midnight."))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("day") and (data.get("start") or data.get("end")):
            first, last = days.period(data["day"], start=data.get("start"), end=data.get("end"))
            if last <= first:
                self.add_error("end", _("The period ends before it starts: the gaming day starts at %(hour)s.")
                               % {"hour": days.starts_at()})
        return data


class GamingDaysForm(forms.Form):
    """A gaming day (`?day=`) or a range of them (`?from=…&to=…`, both ends included; either
    alone is one day). Valid, its `cleaned_data` holds `first` and `last`; a request naming no
    day is refused on `day`, a range ending before it starts on `to`."""

    day = GamingDayField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # `from` is a Python keyword: the two ends are added by name.
        self.fields["from"] = GamingDayField(label=_("From"), required=False)
        self.fields["to"] = GamingDayField(label=_("To"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        if data.get("day"):
            data["first"] = data["last"] = data["day"]
            return data
        first, last = data.get("from"), data.get("to")
        if first is None and last is None:
            self.add_error("day", _("choose a gaming day, or a range from … to …"))
            return data
        first, last = first or last, last or first
        if last < first:
            self.add_error("to", _("the range ends before it starts"))
            return data
        data["first"], data["last"] = first, last
        return data
