"""Corrections on screen (maker/checker): a supervisor of the table proposes a correction of a
jogo in the dealer's own form, with the recorded and the corrected outcome side by side and the
later jogos it carries; a second person (another supervisor of the table, or a manager)
approves or rejects it with a reason.

Views stay thin: `service.preview_amendment`, `propose_amendment` and `decide_amendment`
check and write; `corrections` reads. Every refusal is the service's, in the page's language.
"""
from __future__ import annotations

from functools import partial

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_POST

from casino.limits import REASON_MAX_LENGTH
from casino.refusals import refused_form

from . import confirmation, corrections, errors, selectors, services
from .access import casinos_of, require
from .forms import JogoForm, initial_from_record, palette, problem_field
from .models import Amendment, Jogo


class ReasonForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why is the jogo corrected?"), max_length=REASON_MAX_LENGTH,
                             widget=forms.Textarea(attrs={"rows": 3}))


class DecisionForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason for the decision (required to reject)"), required=False,
                             max_length=REASON_MAX_LENGTH, widget=forms.Textarea(attrs={"rows": 2}))


def _jogo(request: HttpRequest, pk: int) -> Jogo:
    # Another casino's jogo is not found, as one that does not exist (docs/casinos.md).
    row = get_object_or_404(Jogo.objects.select_related("table__casino", "game")
                            .filter(table__casino__in=casinos_of(request.user)), pk=pk)
    require(request.user, "pit.propose_amendment", row.table)
    return row


def _jogo_form(row: Jogo, data=None, *, initial: dict | None = None) -> JogoForm:
    """The dealer's form for a correction of `row`, filled with its record (or `initial`, the
    record of a stale correction being redone)."""
    initial = initial_from_record(initial or row.record)
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
    """The dealer's form filled with the recorded jogo; Preview (without the script) or Propose.
    A correction the comparison already finds refused is not proposed: the page shows why (400)."""
    row = _jogo(request, pk)
    if request.method != "POST":
        redone = _redone(request, row)
        if redone is not None:  # the proposer's stale correction, proposed again on this revision
            return _propose_page(request, row, _jogo_form(row, initial=redone.record),
                                 ReasonForm(initial={"reason": redone.reason}))
        return _propose_page(request, row, _jogo_form(row), ReasonForm())
    proposing = request.POST.get("action") == "propose"
    form = _jogo_form(row, request.POST)
    reason_form = ReasonForm(request.POST) if proposing else ReasonForm(initial={"reason": request.POST.get("reason")})
    compared = _comparison(row, form)
    if proposing and form.is_valid() and reason_form.is_valid() and not compared.get("problems"):
        try:
            amendment = services.propose_amendment(jogo=row, user=request.user, record=form.record(row.record),
                                                  reason=reason_form.cleaned_data["reason"])
        except errors.Refused as refused:
            return refused_form(refused, partial(_propose_page, request, row, form, reason_form, compared), form,
                                field=problem_field)
        messages.success(request, _("Correction proposed. A second person must approve or reject it."))
        return redirect("pit:correction", pk=amendment.pk)
    refused = compared.get("problems") or form.errors or reason_form.errors
    return _propose_page(request, row, form, reason_form, compared, status=400 if refused else 200)


def _redone(request: HttpRequest, row: Jogo) -> Amendment | None:
    """The stale correction ?redo= names, when `row` is the current revision of its jogo; only
    its proposer redoes it."""
    number = request.GET.get("redo", "")
    if not number.isdigit():
        return None
    stale = get_object_or_404(Amendment.objects.select_related("jogo"), pk=int(number), state=Amendment.PENDING,
                              jogo__table=row.table, jogo__number=row.number)
    if not corrections.may_redo(request.user, stale):
        raise PermissionDenied(_("Only the person who proposed a correction may redo it."))
    if corrections.staleness(stale) is None or selectors.current_revision(row).pk != row.pk:
        return None
    return stale


def _propose_page(request: HttpRequest, row: Jogo, form: JogoForm, reason_form: ReasonForm,
                  compared: dict | None = None, *, problems=None, status: int = 200) -> HttpResponse:
    """The proposal's page: the form, the reason, and the comparison (or what refuses it)."""
    context = {**(compared or {}), **({"problems": problems} if problems is not None else {})}
    return render(request, "pit/corrections/propose.html", {
        "jogo": row, "table": row.table, "form": form, "reason_form": reason_form,
        "palette": palette(row.table.variant), "current": selectors.current_revision(row), **context}, status=status)


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
    rows, stale = [], []
    for amendment in corrections.pending(request.user):
        row = {"amendment": amendment, "changes": corrections.record_changes(amendment.jogo, amendment.record)}
        if amendment.is_stale:  # no longer waiting for a decision: said apart, with why
            stale.append({**row, "stale": corrections.staleness(amendment),
                          "may_redo": corrections.may_redo(request.user, amendment)})
        else:
            rows.append({**row, "may_decide": corrections.may_decide(request.user, amendment),
                         **_proposed(amendment)})
    return render(request, "pit/corrections/pending.html", {"rows": rows, "stale": stale})


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
                                                                   "decided_by", "revision")
                                  .filter(jogo__table__casino__in=casinos_of(request.user)), pk=pk)
    require(request.user, "pit.view_amendment", amendment.jogo.table)
    if request.method != "POST":
        return _correction_page(request, amendment, DecisionForm())
    require(request.user, "pit.approve_amendment", amendment.jogo.table)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return _correction_page(request, amendment, form, status=400)
    approve = request.POST.get("action") == "approve"
    if not confirmation.confirmed(request) and _asks(request, amendment, approve, form.cleaned_data["reason"]):
        return confirmation.ask(request, **_decision_question(amendment, approve, form.cleaned_data["reason"]))
    try:
        services.decide_amendment(amendment=amendment, user=request.user, approve=approve,
                                 reason=form.cleaned_data["reason"])
    except errors.Refused as refused:
        return refused_form(refused, partial(_correction_page, request, amendment, form), form)
    messages.success(request, _("Correction approved: the ledger has the new revision.") if approve
                     else _("Correction rejected: the ledger is unchanged."))
    return redirect("pit:correction", pk=amendment.pk)


def _asks(request: HttpRequest, amendment: Amendment, approve: bool, reason: str) -> bool:
    """Whether the decision asks for confirmation first: one the service would take. One it
    refuses (his own correction, a rejection without its reason, an approval the ledger no longer
    takes: stale, or its day closed) is refused at once, with its reason."""
    if not corrections.may_decide(request.user, amendment) or amendment.state != Amendment.PENDING:
        return False
    if not approve:
        return bool(reason.strip())
    return corrections.staleness(amendment) is None and "problems" not in _proposed(amendment)


def _decision_question(amendment: Amendment, approve: bool, reason: str) -> dict:
    where = {"number": amendment.jogo.number, "table": amendment.jogo.table.number}
    if approve:
        return {"question": _("Approve the correction of jogo %(number)s, table %(table)s?") % where,
                "consequence": _("The ledger gets the corrected revision of the jogo, and a new revision of each "
                                 "later jogo whose capital it changes. A ledger row is never removed: only another "
                                 "correction can change it."),
                "button": _("Yes, approve"), "back": reverse("pit:correction", args=[amendment.pk]), "note": reason}
    return {"question": _("Reject the correction of jogo %(number)s, table %(table)s?") % where,
            "consequence": _("The correction is closed and the ledger stays as it is; to correct the jogo, a new "
                             "correction must be proposed."),
            "button": _("Yes, reject"), "back": reverse("pit:correction", args=[amendment.pk]), "note": reason}


def _correction_page(request: HttpRequest, amendment: Amendment, form: DecisionForm, *, problems=(),
                     status: int = 200) -> HttpResponse:
    """The correction's page: what it changes, the decision's form while it is pending, and what
    refuses it (the decision's refusal, or what approving it now would meet)."""
    stale = corrections.staleness(amendment)
    context = {"amendment": amendment, "jogo": amendment.jogo, "form": form, "problems": problems,
               "changes": corrections.record_changes(amendment.jogo, amendment.record),
               "may_decide": amendment.state == Amendment.PENDING and corrections.may_decide(request.user, amendment),
               "own": amendment.proposed_by_id == request.user.pk, "stale": stale,
               "may_redo": stale is not None and corrections.may_redo(request.user, amendment)}
    if amendment.state == Amendment.APPROVED:
        context.update(compare=corrections.side_by_side(amendment.jogo, amendment.revision),
                       carried=corrections.carried_lines(corrections.carried_revisions(amendment)))
    elif amendment.state == Amendment.PENDING and stale is None:
        context.update(_proposed(amendment))
    return render(request, "pit/corrections/correction.html", context, status=status)
