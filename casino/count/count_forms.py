"""The counter's forms: a count signed with the password, optionally by chip value; a recount
with its reason. The services check the rules (services.py); these only read the fields."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from casino.limits import REASON_MAX_LENGTH

CHIP_ROWS = 4  # rows of chip value and quantity on the form


class CountForm(forms.Form):
    attempt = forms.IntegerField(widget=forms.HiddenInput, min_value=1)  # the count this signs
    counted = forms.IntegerField(label=_("Amount counted"), help_text=_("whole currency units"))
    password = forms.CharField(label=_("Your password"), strip=False, widget=forms.PasswordInput,
                               help_text=_("confirming your password signs the count"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for row in range(CHIP_ROWS):
            self.fields[f"chip_{row}"] = forms.IntegerField(label=_("Chip value"), required=False, min_value=1)
            self.fields[f"quantity_{row}"] = forms.IntegerField(label=_("Quantity"), required=False, min_value=0)

    def chip_rows(self):
        return [(self[f"chip_{row}"], self[f"quantity_{row}"]) for row in range(CHIP_ROWS)]

    def denominations(self) -> dict[str, int]:
        """The chips by value entered ({"1000": 3}); a quantity without a value is a value of 0,
        which the service refuses."""
        chips: dict[str, int] = {}
        for row in range(CHIP_ROWS):
            value, quantity = self.cleaned_data.get(f"chip_{row}"), self.cleaned_data.get(f"quantity_{row}")
            if value is None and quantity is None:
                continue
            key = str(value or 0)
            chips[key] = chips.get(key, 0) + (quantity or 0)
        return chips


class RecountForm(forms.Form):
    reason = forms.CharField(label=_("Reason for the recount"), max_length=REASON_MAX_LENGTH,
                             widget=forms.Textarea(attrs={"rows": 2}))
    abandon = forms.BooleanField(label=_("Abandon the count I signed first, for this reason"), required=False)


class DecisionForm(forms.Form):
    """A manager's decision on a recount: its reason, and which recount is accepted."""

    reason = forms.CharField(label=_("Reason"), max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2}))
    attempt = forms.IntegerField(label=_("Count"), required=False, min_value=1)
