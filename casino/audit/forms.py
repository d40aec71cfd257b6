"""The inspector's forms: the gaming days a page (or `audit_recompute`) asks for, a comment on a
flag, the note that resolves it, and the day and casino of a multiple-transaction log."""
from __future__ import annotations

from collections.abc import Mapping

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from casino.pit.day_forms import GamingDayForm, GamingDaysForm
from casino.pit.models import Casino

from .ledger import BadDays, Days


def asked_days(params: Mapping[str, str | None]) -> Days:
    """The gaming days a request names (`day=`, or `from=` and `to=`: either alone is one day),
    read by the one gaming-day form; BadDays on the first field it refuses, in people's words."""
    form = GamingDaysForm(params)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise BadDays(field, errors[0])
    return Days(form.cleaned_data["first"], form.cleaned_data["last"])


class CommentForm(forms.Form):
    note = forms.CharField(label=_("Your comment"), max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))


class ResolveForm(forms.Form):
    note = forms.CharField(label=_("What was found (the resolution)"), max_length=4000,
                           widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "resolve_%s")  # the comment form on the same page has its own `note`
        super().__init__(*args, **kwargs)


class LogForm(GamingDayForm):
    """The gaming day of a multiple-transaction log (`?day=`, the `default` day when none) and its
    casino (`?casino=`, one of the person's: `casinos`; all of his casinos' tables when none). A
    casino he is not given is no choice: the form refuses it as it refuses one that does not
    exist."""

    casino = forms.ModelChoiceField(Casino.objects.none(), label=_("Casino"), required=False,
                                    empty_label=_("every casino"))

    def __init__(self, *args, casinos: QuerySet[Casino], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["casino"].queryset = casinos.order_by("name")
