"""The floor's forms: a buy-in or cash-out at a seated game, and choosing a gaming day, a time
range of it, or a jogo's number."""
from __future__ import annotations

import datetime as dt

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .models import Movement, Table
from .selectors import period


class MoneyForm(forms.Form):
    """Money a seated player brings to the table or takes from it between jogos. Chairs are
    shown 1–4 with the player's name; the value sent is the chair 0–3 the ledger keeps."""

    chair = forms.TypedChoiceField(label=_("Player"), coerce=int)
    kind = forms.ChoiceField(label=_("Movement"), choices=Movement.KINDS, widget=forms.RadioSelect,
                             initial=Movement.BUY_IN)
    amount = forms.IntegerField(label=_("Amount"), min_value=1, max_value=10**12,
                                widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 1}),
                                help_text=_("Whole currency units."))

    def __init__(self, *args, seats: list[dict], **kwargs):
        """`seats`: the game's chairs in order (chair, name, seat_name), as the table shows them."""
        super().__init__(*args, **kwargs)
        self.fields["chair"].choices = [
            (seat["chair"], _("Chair %(chair)s · %(seat)s · %(name)s") % {
                "chair": seat["chair"] + 1, "seat": seat["seat_name"], "name": seat["name"]})
            for seat in seats]


def clock_input() -> forms.TimeInput:
    """A time typed on the 24-hour clock, "14:30" (the browser's own time picker may show AM/PM)."""
    return forms.TimeInput(format="%H:%M", attrs={"inputmode": "numeric", "placeholder": "HH:MM", "size": 5,
                                                  "maxlength": 5, "pattern": "[0-2][0-9]:[0-5][0-9]"})


def with_day(data, today: dt.date):
    """The query asked, with today's gaming day when it names none, so the form shows the day it lists."""
    if data is None or data.get("day"):
        return data
    data = data.copy()
    data["day"] = today.isoformat()
    return data


class DayForm(forms.Form):
    """A gaming day (default: today's), with an optional time range of it, Macau time."""

    day = forms.DateField(label=_("Gaming day"), required=False,
                          widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    start = forms.TimeField(label=_("From"), required=False, input_formats=["%H:%M"], widget=clock_input())
    end = forms.TimeField(label=_("To"), required=False, input_formats=["%H:%M"], widget=clock_input(),
                          help_text=_("Macau time, 24-hour clock; a range may run past midnight."))

    def __init__(self, data=None, *, today: dt.date, **kwargs):
        super().__init__(with_day(data, today), initial={"day": today}, **kwargs)
        self.today = today

    def clean_day(self) -> dt.date:
        return self.cleaned_data.get("day") or self.today

    def clean(self):
        data = super().clean()
        if data.get("day") and (data.get("start") or data.get("end")):
            first, last = period(data["day"], start=data.get("start"), end=data.get("end"))
            if last <= first:
                self.add_error("end", _("The period ends before it starts: the gaming day starts at %(hour)s.")
                               % {"hour": settings.GAMING_DAY_STARTS})
        return data


class TableChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, table: Table) -> str:
        return f"{table.number} · {table.casino.name}"


class RefusalsForm(forms.Form):
    """Which refused attempts to list: a gaming day (default: today's) and one of the reader's
    tables, or all of them."""

    table = TableChoiceField(label=_("Table"), queryset=Table.objects.none(), required=False,
                             empty_label=_("All my tables"))
    day = DayForm.base_fields["day"]

    def __init__(self, data=None, *, today: dt.date, tables, **kwargs):
        super().__init__(with_day(data, today), initial={"day": today}, **kwargs)
        self.fields["table"].queryset = tables
        self.today = today

    def clean_day(self) -> dt.date:
        return self.cleaned_data.get("day") or self.today


class FindJogoForm(forms.Form):
    number = forms.IntegerField(label=_("Jogo number"), min_value=1, required=False,
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


