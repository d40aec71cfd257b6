"""The suspicious-transaction cases on screen, under /aml/: the list, opening a case on a player,
a case's page with its steps, and the PDF of an escalated case for the financial intelligence
office. Thin views: `cases` writes, `selectors` reads.

Who: every page needs aml.view_suspicioncase (inspectors and managers); opening, a note and a
decision aml.work_suspicioncase; escalating aml.escalate_suspicioncase (managers). Dealers,
supervisors and counters get 403.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from casino.pit import confirmation, days
from casino.pit.access import casinos_of
from casino.pit.errors import Problem, Refused
from casino.pit.models import Patron
from casino.pit.privacy import mask_number, shown_name
from casino.refusals import refused_form

from . import cases as steps, selectors
from .forms import NoteForm, OpenCaseForm
from .models import SuspicionCase
from .pdf import LANGUAGES, case_pdf

VIEW, WORK, ESCALATE = steps.VIEW, steps.WORK, steps.ESCALATE

# The steps of a case: the service call, the permission, what the page says once it is done.
STEPS = {
    "note": (steps.add_note, WORK, lambda: _("Note added.")),
    "report": (partial(steps.decide, report=True), WORK, lambda: _("The case is decided: to be reported.")),
    "no_report": (partial(steps.decide, report=False), WORK, lambda: _("The case is decided: not reported. It is "
                                                                       "closed.")),
    "escalate": (steps.escalate, ESCALATE,
                 lambda: _("The case is escalated to the financial intelligence office.")),
}
# The steps that ask first: (question, what follows, the button that confirms).
ASKS = {
    "report": (gettext_lazy("Decide that case %(number)s is reported?"),
               gettext_lazy("The decision is kept in the case's chain and cannot be taken back; a manager then "
                            "escalates the case to the financial intelligence office."),
               gettext_lazy("Yes, it is reported")),
    "no_report": (gettext_lazy("Decide that case %(number)s is not reported?"),
                  gettext_lazy("The decision is kept in the case's chain and cannot be taken back; the case is "
                               "closed. New facts open a new case."),
                  gettext_lazy("Yes, it is not reported")),
    "escalate": (gettext_lazy("Escalate case %(number)s to the financial intelligence office?"),
                 gettext_lazy("The escalation is kept in the case's chain and cannot be taken back; the case's "
                              "report is then printed for the financial intelligence office."),
                 gettext_lazy("Yes, escalate")),
}
STEP_FORMS = {
    "note": (gettext_lazy("Add a note"), gettext_lazy("Add the note")),
    "report": (gettext_lazy("Decide: report"), gettext_lazy("Report the case")),
    "no_report": (gettext_lazy("Decide: no report"), gettext_lazy("Close the case without a report")),
    "escalate": (gettext_lazy("Escalate to the financial intelligence office"), gettext_lazy("Escalate the case")),
}
FILTERS = [("in_progress", gettext_lazy("In progress")), ("report", gettext_lazy("To be reported")),
           ("escalated", gettext_lazy("Escalated")), ("no_report", gettext_lazy("Not reported")),
           ("all", gettext_lazy("All"))]


@require_GET
@login_required
@permission_required(VIEW, raise_exception=True)
def case_list(request: HttpRequest) -> HttpResponse:
    """The cases in progress, newest first; ?state=report, escalated, no_report or all for others."""
    shown = request.GET.get("state", "in_progress")
    if shown not in selectors.LIST_STATES:
        shown = "in_progress"
    return render(request, "aml/cases.html", {
        "cases": selectors.case_list(request.user, states=selectors.LIST_STATES[shown]), "shown": shown,
        "filters": FILTERS, "in_progress": selectors.in_progress_count(request.user)})


def _day(request: HttpRequest, patron: Patron) -> dt.date:
    """The gaming day asked for (?day= or the form's), else the player's latest day with a movement,
    else today."""
    try:
        return dt.date.fromisoformat(request.POST.get("gaming_day") or request.GET.get("day") or "")
    except ValueError:
        return selectors.last_day_with_movements(patron) or days.today()


def _open_page(request: HttpRequest, patron: Patron, day: dt.date, form: OpenCaseForm, *,
               problems: Sequence[Problem] = (), status: int = 200) -> HttpResponse:
    movements = selectors.day_movements(patron, day)
    checked = set(form.data.getlist("movements")) if form.is_bound else set()
    return render(request, "aml/open.html", {
        "patron": patron, "name": shown_name(request.user, patron.name), "day": day, "form": form,
        "movements": [(movement, str(movement.pk) in checked) for movement in movements], "problems": problems},
        status=status)


@require_http_methods(["GET", "POST"])
@login_required
@permission_required(VIEW, raise_exception=True)
def open_case(request: HttpRequest, patron_id: int) -> HttpResponse:
    """Open a case on a player: the gaming day (the player's latest by default), the movements of
    that day it concerns, and the grounds."""
    if not request.user.has_perm(WORK):
        raise PermissionDenied(_("Your role does not allow this."))
    # Another casino's player is not found, as one that does not exist (docs/casinos.md).
    patron = get_object_or_404(Patron.objects.filter(casino__in=casinos_of(request.user)), pk=patron_id)
    day = _day(request, patron)
    movements = selectors.day_movements(patron, day)
    if request.method == "GET":
        return _open_page(request, patron, day, OpenCaseForm(initial={"gaming_day": day}, movements=movements))
    form = OpenCaseForm(request.POST, movements=movements)
    if not form.is_valid():
        return _open_page(request, patron, day, form, status=400)
    try:
        case = steps.open_case(patron=patron, user=request.user, note=form.cleaned_data["note"],
                               gaming_day=form.cleaned_data["gaming_day"], movements=form.cleaned_data["movements"])
    except Refused as refused:
        return refused_form(refused, partial(_open_page, request, patron, day, form), form)
    messages.success(request, _("Case %(number)s is open.") % {"number": case.pk})
    return redirect("aml:case", pk=case.pk)


def _case_page(request: HttpRequest, case: SuspicionCase, *, forms: dict | None = None,
               problems: Sequence[Problem] = (), status: int = 200) -> HttpResponse:
    file = selectors.case_file(case)
    forms = {step: NoteForm(step=step) for step in STEPS} | (forms or {})
    state, user = file.case.state, request.user
    may = {"note": user.has_perm(WORK),
           "report": user.has_perm(WORK) and state == SuspicionCase.OPEN,
           "no_report": user.has_perm(WORK) and state == SuspicionCase.OPEN,
           "escalate": user.has_perm(ESCALATE) and state == SuspicionCase.REPORT}
    offered = [{"step": step, "title": STEP_FORMS[step][0], "button": STEP_FORMS[step][1], "form": forms[step]}
               for step in STEPS if may[step]]
    return render(request, "aml/case.html", {
        "file": file, "case": file.case, "patron": file.patron, "name": shown_name(user, file.patron.name),
        "document_number": mask_number(file.patron.document_number), "steps": offered,
        "pdf_languages": LANGUAGES, "problems": problems}, status=status)


@require_GET
@login_required
@permission_required(VIEW, raise_exception=True)
def case(request: HttpRequest, pk: int) -> HttpResponse:
    return _case_page(request, get_object_or_404(selectors.cases_of(request.user), pk=pk))


@require_POST
@login_required
@permission_required(VIEW, raise_exception=True)
def case_step(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    """A note, a decision or the escalation, through its service; on success back to the case's
    page, otherwise the page again with the form and the reason. A decision and the escalation
    ask first."""
    if step not in STEPS:
        raise Http404
    write, permission, done = STEPS[step]
    if not request.user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))
    the_case = get_object_or_404(selectors.cases_of(request.user), pk=pk)
    form = NoteForm(request.POST, step=step)
    if not form.is_valid():
        return _case_page(request, the_case, forms={step: form}, status=400)
    if step in ASKS and not confirmation.confirmed(request):
        question, consequence, button = ASKS[step]
        return confirmation.ask(request, question=str(question) % {"number": the_case.pk},
                                consequence=str(consequence), button=str(button),
                                back=reverse("aml:case", args=[the_case.pk]), note=form.cleaned_data["note"])
    try:
        write(case=the_case, user=request.user, note=form.cleaned_data["note"])
    except Refused as refused:
        the_case.refresh_from_db()  # the case as it stands: the step's form may be gone
        return refused_form(refused, partial(_case_page, request, the_case, forms={step: form}), form)
    messages.success(request, done())
    return redirect("aml:case", pk=the_case.pk)


@require_GET
@login_required
@permission_required(VIEW, raise_exception=True)
def case_download(request: HttpRequest, pk: int, language: str) -> HttpResponse:
    """An escalated case as a PDF for the financial intelligence office, in one of the three
    languages. Printing it reads the player's document number: the read is logged."""
    if language not in LANGUAGES:
        raise Http404
    the_case = get_object_or_404(selectors.cases_of(request.user), pk=pk)
    if not the_case.escalated:
        raise Http404(_("Only a case escalated to the financial intelligence office is printed for it."))
    pdf = case_pdf(selectors.case_file(the_case), user=request.user, language=language)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="suspicious-transaction-case-{the_case.pk}-{language}.pdf"'
    return response
