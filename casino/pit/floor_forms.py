"""The floor's forms: a buy-in or cash-out at a seated game, the refused attempts to list, and a
jogo's number. Choosing a gaming day, or a time range of it, is `day_forms.py`'s."""
from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from .day_forms import GamingDayForm
from .forms import whole_amount
from .models import Movement, Table


class MoneyForm(forms.Form):
    """Money a seated player brings to the table or takes from it between jogos. Chairs are
    shown 1–4 with the player's name; the value sent is the chair 0–3 the ledger keeps."""

    chair = forms.TypedChoiceField(label=_("Player"), coerce=int)
    kind = forms.ChoiceField(label=_("Movement"), choices=Movement.KINDS, widget=forms.RadioSelect,
                             initial=Movement.BUY_IN)
    amount = whole_amount(label=_("Amount"), max_value=10**12, help_text=_("A whole number of patacas."))

    def __init__(self, *args, seats: list[dict], **kwargs):
        """`seats`: the game's chairs in order (chair, name, seat_name), as the table shows them."""
        super().__init__(*args, **kwargs)
        self.fields["chair"].choices = [
            (seat["chair"], _("Chair %(chair)s · %(seat)s · %(name)s") % {
                "chair": seat["chair"] + 1, "seat": seat["seat_name"], "name": seat["name"]})
            for seat in seats]


class TableChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, table: Table) -> str:
        return f"{table.number} · {table.casino.name}"


class RefusalsForm(GamingDayForm):
    """Which refused attempts to list: a gaming day (default: today's) and one of the reader's
    tables, or all of them."""

    table = TableChoiceField(label=_("Table"), queryset=Table.objects.none(), required=False,
                             empty_label=_("All my tables"))
    field_order = ["table", "day"]

    def __init__(self, data: Any = None, *, default: dt.date, tables: QuerySet[Table], **kwargs: Any) -> None:
        super().__init__(data, default=default, **kwargs)
        self.fields["table"].queryset = tables


class FindJogoForm(forms.Form):
    number = forms.IntegerField(label=_("Jogo number"), min_value=1, required=False,
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


