"""The forms of the suspicious-transaction case screens."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from casino.limits import NOTE_MAX_LENGTH

NOT_THE_IDENTITY = _("Say what you saw; the case names the player already, so do not repeat his identity here.")


class OpenCaseForm(forms.Form):
    """A case on a player: the gaming day it is about, the movements of that day it concerns (the
    choices are that day's movements of the player, by id) and the grounds."""

    gaming_day = forms.DateField(label=_("Gaming day"), widget=forms.DateInput(attrs={"type": "date"}))
    movements = forms.TypedMultipleChoiceField(label=_("The movements it concerns"), coerce=int, required=False,
                                               widget=forms.CheckboxSelectMultiple)
    note = forms.CharField(label=_("What looks suspicious (the grounds)"), max_length=NOTE_MAX_LENGTH,
                           help_text=NOT_THE_IDENTITY, widget=forms.Textarea(attrs={"rows": 4}))

    def __init__(self, *args, movements=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["movements"].choices = [(movement.pk, str(movement.pk)) for movement in movements]


STEP_LABELS = {
    "note": _("Your note"),
    "report": _("Why it is reported"),
    "no_report": _("Why it is not reported"),
    "escalate": _("What is sent to the financial intelligence office, and how"),
}


class NoteForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=NOTE_MAX_LENGTH, help_text=NOT_THE_IDENTITY,
                           widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, step: str = "note", **kwargs):
        kwargs.setdefault("auto_id", f"{step}_%s")  # several of these forms share the case's page
        super().__init__(*args, **kwargs)
        self.fields["note"].label = STEP_LABELS[step]
