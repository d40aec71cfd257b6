from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from casino.limits import REASON_MAX_LENGTH
from casino.pit.day_forms import GamingDayField
from casino.pit.models import Casino


class CasinoDayForm(forms.Form):
    """A casino, one of the person's (`casinos`), and one of its gaming days: the day whose report
    the managers' page shows. A casino he is not given is no choice, as one that does not exist."""

    casino = forms.ModelChoiceField(Casino.objects.none(), label=_("Casino"), empty_label=None)
    day = GamingDayField()

    def __init__(self, *args, casinos: QuerySet[Casino], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["casino"].queryset = casinos.order_by("name")


class CloseForm(forms.Form):
    note = forms.CharField(label=_("Note (optional)"), required=False, max_length=REASON_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 2}))
    override_reason = forms.CharField(
        label=_("Reason for closing anyway"), required=False, max_length=REASON_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Only while boxes of the day are not counted yet: the reason is kept and printed beside each "
                    "of them in the daily report."))
    confirm = forms.BooleanField(
        label=_("I have reviewed this gaming day and close it: its jogos cannot change until a manager reopens it."),
        error_messages={"required": _("Closing the day: tick the confirmation first.")})


class ReopenForm(forms.Form):
    reason = forms.CharField(label=_("Reason (required)"), max_length=REASON_MAX_LENGTH,
                             widget=forms.Textarea(attrs={"rows": 2}))
