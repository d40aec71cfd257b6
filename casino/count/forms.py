"""The forms of the case screens and of the rotation log (its day is chosen with
`casino.pit.day_forms.GamingDayForm`).

Times on the rotation log are typed on the 24-hour clock and belong to the gaming day shown:
with the day starting at 06:00, "22:00" is that evening and "03:00" the night after."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from casino.limits import NOTE_MAX_LENGTH
from casino.pit.day_forms import clock_input
from casino.pit.models import Casino

from .models import Rotation


class NoteForm(forms.Form):
    note = forms.CharField(label=_("Note"), max_length=NOTE_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, step: str = "note", **kwargs):
        kwargs.setdefault("auto_id", f"{step}_%s")  # several of these forms share the case's page
        super().__init__(*args, **kwargs)
        self.fields["note"].label = STEP_LABELS[step]


STEP_LABELS = {
    "note": _("Your note"),
    "explain": _("What explains the variance"),
    "escalate": _("Why it goes to the regulator"),
    "resolve": _("What was found and done (the resolution)"),
}




def pit_people(casinos: QuerySet[Casino] | None = None):
    """Who may be on the log: every active staff member given one of `casinos` (those of the
    person keeping the log; every casino when None), whatever their roles, since whoever dealt
    or supervised must be on it (a counter who dealt a table that day may not count its box).
    Another casino's staff are no choice (docs/casinos.md)."""
    people = get_user_model().objects.filter(is_active=True)
    if casinos is not None:
        people = people.filter(pk__in=get_user_model().objects.filter(casinos__in=casinos).values("pk"))
    return people.order_by("first_name", "last_name", "username")


class PersonChoice(forms.ModelChoiceField):
    def label_from_instance(self, person) -> str:
        full = person.get_full_name()
        return f"{full} ({person.get_username()})" if full else person.get_username()


class RotationForm(forms.Form):
    """A new entry of the rotation log: who, at which table, dealing or supervising, from when:
    a time of the gaming day shown, or the start of one of its shifts."""

    table = forms.ModelChoiceField(label=_("Table"), queryset=None, to_field_name="pk")
    person = PersonChoice(label=_("Person"), queryset=None)
    duty = forms.ChoiceField(label=_("Duty"), choices=Rotation.DUTIES, initial=Rotation.DEALER)
    starts = forms.TimeField(label=_("From"), input_formats=["%H:%M"], widget=clock_input(), required=False,
                             help_text=_("On the 24-hour clock, within the gaming day shown; or choose a shift."))
    shift = forms.TypedChoiceField(label=_("Or for the shift"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args, tables, casinos: QuerySet[Casino] | None = None, shift_count: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = tables
        self.fields["table"].label_from_instance = lambda table: table.number
        self.fields["person"].queryset = pit_people(casinos)
        self.fields["shift"].choices = [("", "—")] + [(n, n) for n in range(1, shift_count + 1)]

    def clean(self):
        data = super().clean()
        if data.get("starts") is None and data.get("shift") is None and not self.errors:
            raise forms.ValidationError(_("Give the time the entry starts, or the shift it is for."))
        table, person = data.get("table"), data.get("person")
        if table and person and not pit_people(Casino.objects.filter(pk=table.casino_id)).filter(pk=person.pk).exists():
            self.add_error("person", _("%(person)s is not on the staff of table %(table)s's casino.") % {
                "person": self.fields["person"].label_from_instance(person), "table": table.number})
        return data


class ReliefForm(forms.Form):
    """A relief of an open entry: who takes the table over, and when (the time of the entry's
    gaming day)."""

    person = PersonChoice(label=_("Relieved by"), queryset=None)
    at = forms.TimeField(label=_("At"), input_formats=["%H:%M"], widget=clock_input())

    def __init__(self, *args, entry: Rotation | None = None, **kwargs):
        kwargs.setdefault("auto_id", f"relieve_{entry.pk}_%s" if entry else "relieve_%s")
        kwargs.setdefault("prefix", "relief")  # beside the new entry's form, whose person is another field
        super().__init__(*args, **kwargs)
        # The entry's casino's staff relieve it.
        self.fields["person"].queryset = pit_people(Casino.objects.filter(pk=entry.table.casino_id) if entry else None)


class DraftForm(forms.Form):
    """A shift's draft rotation as a supervisor confirms it: each line kept or dropped, and its
    person the same or another."""

    def __init__(self, *args, lines=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.lines = list(lines)
        for line in self.lines:
            pk = line.entry.pk
            self.fields[f"keep_{pk}"] = forms.BooleanField(label=_("Keep"), required=False, initial=True)
            people = pit_people(Casino.objects.filter(pk=line.entry.table.casino_id))  # the line's casino's staff
            self.fields[f"person_{pk}"] = PersonChoice(label=_("Person"), queryset=people,
                                                       initial=line.entry.person_id)

    def rows(self):
        """Each draft line with its two fields."""
        return [(line, self[f"keep_{line.entry.pk}"], self[f"person_{line.entry.pk}"]) for line in self.lines]

    def kept(self) -> list[dict]:
        """The lines kept, as `services.rotation_confirm` takes them."""
        return [{"entry": line.entry, "person": self.cleaned_data[f"person_{line.entry.pk}"]}
                for line in self.lines if self.cleaned_data.get(f"keep_{line.entry.pk}")]


class CloseRotationForm(forms.Form):
    ends = forms.TimeField(label=_("Until"), input_formats=["%H:%M"], widget=clock_input())

    def __init__(self, *args, entry: Rotation | None = None, **kwargs):
        kwargs.setdefault("auto_id", f"close_{entry.pk}_%s" if entry else "close_%s")
        super().__init__(*args, **kwargs)
