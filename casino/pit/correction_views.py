"""Corrections on screen (maker/checker): a supervisor of the table proposes a correction of a
jogo in the dealer's own form, with the recorded and the corrected outcome side by side and the
later jogos it carries; a second person (another supervisor of the table, or a manager)
approves or rejects it with a reason.

Views stay thin: `service.preview_amendment`, `propose_amendment` and `decide_amendment`
check and write; `corrections` reads. Every refusal is the service's, in the page's language.
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from casino.limits import REASON_MAX_LENGTH

from . import corrections, errors, services
from .access import require
from .forms import JogoForm, initial_from_record
from .models import Amendment, Jogo
from .views import palette


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why is the jogo corrected?"), max_length=REASON_MAX_LENGTH,
                             widget=forms.Textarea(attrs={"rows": 3}))


class DecisionForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason for the decision (required to reject)"), required=False,
                             max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2}))


def _jogo(request: HttpRequest, pk: int) -> Jogo:
    row = get_object_or_404(Jogo.objects.select_related("table__casino", "game"), pk=pk)
    require(request.user, "pit.propose_amendment", row.table)
    return row


def _jogo_form(row: Jogo, data=None) -> JogoForm:
    initial = initial_from_record(row.record)
    return JogoForm(data, seats=corrections.seat_labels(row), variant=row.table.variant, initial=initial)


def _comparison(row: Jogo, form: JogoForm) -> dict:
    """The preview's context: the form's errors, or the service's refusals, or the recorded and
    corrected outcomes side by side with the later jogos the correction carries."""
    if not form.is_valid():
        return {"form": form}
    try:
        correction = services.preview_amendment(jogo=row, record=form.record(row.record))
    except errors.Refused as refused:
        return {"form": form, "problems": refused.problems}
    return {"form": form, "compare": corrections.side_by_side(row, correction.amended),
            "carried": corrections.carried_lines(correction.carried)}


@login_required
def propose(request: HttpRequest, pk: int) -> HttpResponse:
    """The dealer's form filled with the recorded jogo; Preview (without the script) or Propose."""
    row = _jogo(request, pk)
    form, reason_form, context, status = _jogo_form(row), ReasonForm(), {}, 200
    if request.method == "POST":
        proposing = request.POST.get("action") == "propose"
        form = _jogo_form(row, request.POST)
        reason_form = ReasonForm(request.POST) if proposing else ReasonForm(initial={"reason": request.POST.get("reason")})
        context = _comparison(row, form)
        if proposing and form.is_valid() and reason_form.is_valid():
            try:
                amendment = services.propose_amendment(jogo=row, user=request.user, record=form.record(row.record),
                                                      reason=reason_form.cleaned_data["reason"])
            except errors.Refused as refused:
                context["problems"] = refused.problems
            else:
                messages.success(request, _("Correction proposed. A second person must approve or reject it."))
                return redirect("pit:correction", pk=amendment.pk)
        status = 400 if context.get("problems") or form.errors or reason_form.errors else 200
    return render(request, "pit/corrections/propose.html", {
        "jogo": row, "table": row.table, "form": form, "reason_form": reason_form,
        "palette": palette(row.table.variant), "current": corrections.current(row), **context}, status=status)


@login_required
@require_POST
def preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The live comparison, fetched by the form's script as the supervisor edits."""
    row = _jogo(request, pk)
    return render(request, "pit/corrections/_compare.html", _comparison(row, _jogo_form(row, request.POST)))


@login_required
def pending(request: HttpRequest) -> HttpResponse:
    """The corrections waiting for a decision: who proposed each, when, why, and what it changes."""
    require(request.user, "pit.view_amendment")
    rows = []
    for amendment in corrections.pending(request.user):
        rows.append({"amendment": amendment, "may_decide": corrections.may_decide(request.user, amendment),
                     "changes": corrections.record_changes(amendment.jogo, amendment.record),
                     **_proposed(amendment)})
    return render(request, "pit/corrections/pending.html", {"rows": rows})


def _proposed(amendment: Amendment) -> dict:
    """A pending correction as approving it now would apply it, or why it no longer can be."""
    try:
        correction = services.preview_amendment(jogo=amendment.jogo, record=amendment.record)
    except errors.Refused as refused:
        return {"problems": refused.problems}
    return {"compare": corrections.side_by_side(amendment.jogo, correction.amended),
            "carried": corrections.carried_lines(correction.carried)}


@login_required
def correction(request: HttpRequest, pk: int) -> HttpResponse:
    """One correction: what it changes and, while pending, the second person's decision; once
    approved, the new revision and every carried revision."""
    amendment = get_object_or_404(Amendment.objects.select_related("jogo__table", "jogo__game", "proposed_by",
                                                                   "decided_by", "revision"), pk=pk)
    require(request.user, "pit.view_amendment", amendment.jogo.table)
    form, problems, status = DecisionForm(), (), 200
    if request.method == "POST":
        require(request.user, "pit.approve_amendment", amendment.jogo.table)
        form = DecisionForm(request.POST)
        if form.is_valid():
            approve = request.POST.get("action") == "approve"
            try:
                services.decide_amendment(amendment=amendment, user=request.user, approve=approve,
                                         reason=form.cleaned_data["reason"])
            except errors.Refused as refused:
                problems, status = refused.problems, 409 if refused.conflict else 400
            else:
                messages.success(request, _("Correction approved: the ledger has the new revision.") if approve
                                 else _("Correction rejected: the ledger is unchanged."))
                return redirect("pit:correction", pk=amendment.pk)
        else:
            status = 400
    context = {"amendment": amendment, "jogo": amendment.jogo, "form": form, "problems": problems,
               "changes": corrections.record_changes(amendment.jogo, amendment.record),
               "may_decide": amendment.state == Amendment.PENDING and corrections.may_decide(request.user, amendment),
               "own": amendment.proposed_by_id == request.user.pk}
    if amendment.state == Amendment.APPROVED:
        context.update(compare=corrections.side_by_side(amendment.jogo, amendment.revision),
                       carried=corrections.carried_lines(corrections.carried_revisions(amendment)))
    elif amendment.state == Amendment.PENDING:
        context.update(_proposed(amendment))
    return render(request, "pit/corrections/correction.html", context, status=status)
