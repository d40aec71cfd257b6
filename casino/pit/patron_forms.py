"""The players' forms: finding a player, and identifying one (casino/pit/patron_views.py).

The identification form checks only what a browser sends (a date is a date); what the document
must look like, and the player's age, is the service's to say (`patrons.identify`), beside each
field (casino/refusals.py)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .countries import country_choices
from .models import Patron


class PatronSearchForm(forms.Form):
    q = forms.CharField(label=_("Name or document number"), max_length=100, required=False,
                        widget=forms.TextInput(attrs={"type": "search"}))

    def __init__(self, *args, by_document: bool, **kwargs):
        super().__init__(*args, **kwargs)
        if not by_document:
            self.fields["q"].label = _("Name")


class CountryField(forms.ChoiceField):
    """A country by its ISO 3166-1 code, the list named and sorted in the reader's language."""

    def __init__(self, **kwargs):
        super().__init__(choices=self._choices, required=False, **kwargs)

    @staticmethod
    def _choices():
        return [("", "—"), *country_choices()]


class IdentifyForm(forms.Form):
    """Everything that identifies a player for a large transaction (DICJ Instruction n.º 1/2016)."""

    document_type = forms.ChoiceField(label=_("Identity document"), choices=[("", "—"), *Patron.DOCUMENT_TYPES],
                                      required=False)
    document_number = forms.CharField(label=_("Document number"), max_length=30, required=False,
                                      widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}))
    document_country = CountryField(label=_("Issuing country"))
    date_of_birth = forms.DateField(label=_("Date of birth"), required=False,
                                    widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    nationality = CountryField(label=_("Nationality"))
