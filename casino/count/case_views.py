"""The variance cases on screen, under /count/cases/: the list, a case's page, its steps and its
PDF for the regulator, for inspectors and managers. Thin views: `cases` writes, `selectors` reads.

Who: reading cases needs count.view_case; a note, "explained" and "escalated", count.work_case;
resolving, count.resolve_case (managers). The rotation log is in rotation_views.py, the
counters' screens in box_views.py.

A person reads and works the cases of the casinos he is given (`access.casinos_of`,
docs/casinos.md): another casino's case answers 404, as one that does not exist.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from casino.pit import confirmation
from casino.pit.access import casinos_of
from casino.pit.errors import Problem, Refused
from casino.refusals import refused_form

from . import cases as steps, selectors
from .forms import NoteForm
from .models import Case
from .pdf import LANGUAGES, case_pdf

VIEW_CASE, WORK, RESOLVE = "count.view_case", steps.WORK, steps.RESOLVE

# The steps of a case: the service, the permission, what the page says once it is done, and the
# step's form on the case's page (its title and button).
STEPS = {
    "note": (steps.add_note, WORK, lambda: _("Note added.")),
    "explain": (steps.mark_explained, WORK, lambda: _("The case is marked explained.")),
    "escalate": (steps.escalate, WORK, lambda: _("The case is escalated to the regulator.")),
    "resolve": (steps.resolve, RESOLVE, lambda: _("The case is resolved.")),
}
# The steps that ask first: (question, what follows, the button that confirms).
ASKS = {
    "escalate": (gettext_lazy("Escalate case %(number)s to the regulator?"),
                 gettext_lazy("The escalation is kept in the case's chain and cannot be taken back; the case's file is "
                              "then printed for the regulator."),
                 gettext_lazy("Yes, escalate")),
    "resolve": (gettext_lazy("Resolve case %(number)s?"),
                gettext_lazy("The resolution is kept in the case's chain; the case reopens only if its box's "
                             "variance changes again."),
                gettext_lazy("Yes, resolve")),
}
STEP_FORMS = {
    "note": (gettext_lazy("Add a note"), gettext_lazy("Add the note")),
    "explain": (gettext_lazy("Mark explained"), gettext_lazy("Mark the case explained")),
    "escalate": (gettext_lazy("Escalate to the regulator"), gettext_lazy("Escalate the case")),
    "resolve": (gettext_lazy("Resolve"), gettext_lazy("Resolve the case")),
}


def _his_case(request: HttpRequest, pk: int) -> Case:
    """A case of a box of one of the person's casinos; 404 for any other."""
    return get_object_or_404(Case.objects.filter(box__casino__in=casinos_of(request.user)), pk=pk)


LIST_STATES = {"open": [Case.OPEN, Case.EXPLAINED, Case.ESCALATED], "escalated": [Case.ESCALATED],
               "resolved": [Case.RESOLVED], "all": None}


@require_GET
@login_required
@permission_required(VIEW_CASE, raise_exception=True)
def case_list(request: HttpRequest) -> HttpResponse:
    """The cases not yet resolved, newest first; ?state=escalated, resolved or all for others."""
    shown = request.GET.get("state", "open")
    if shown not in LIST_STATES:
        shown = "open"
    return render(request, "count/cases.html", {
        "cases": selectors.case_list(states=LIST_STATES[shown], casinos=casinos_of(request.user)), "shown": shown,
        "open_cases": selectors.open_case_count(casinos_of(request.user)), "thresholds": selectors.Thresholds.now()})


def _case_page(request: HttpRequest, case: Case, *, forms: dict | None = None, problems: Sequence[Problem] = (),
               status: int = 200) -> HttpResponse:
    file = selectors.case_file(case)
    forms = {step: NoteForm(step=step) for step in STEPS} | (forms or {})
    state = case.state
    may = {"note": request.user.has_perm(WORK),
           "explain": request.user.has_perm(WORK) and state == Case.OPEN,
           "escalate": request.user.has_perm(WORK) and state in (Case.OPEN, Case.EXPLAINED),
           "resolve": request.user.has_perm(RESOLVE) and state != Case.RESOLVED}
    offered = [{"step": step, "title": STEP_FORMS[step][0], "button": STEP_FORMS[step][1], "form": forms[step]}
               for step in STEPS if may[step]]
    return render(request, "count/case.html", {
        "file": file, "case": file.case, "box": file.box, "steps": offered,
        "pdf_languages": LANGUAGES, "open_cases": selectors.open_case_count(casinos_of(request.user)),
        "problems": problems}, status=status)


@require_GET
@login_required
@permission_required(VIEW_CASE, raise_exception=True)
def case(request: HttpRequest, pk: int) -> HttpResponse:
    return _case_page(request, _his_case(request, pk))


@require_POST
@login_required
@permission_required(VIEW_CASE, raise_exception=True)
def case_step(request: HttpRequest, pk: int, step: str) -> HttpResponse:
    """A note, "explained", "escalated" or "resolved" on a case, through its service; on success back
    to the case's page, otherwise the page again with the form and the reason."""
    if step not in STEPS:
        raise Http404
    write, permission, done = STEPS[step]
    if not request.user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))
    the_case = _his_case(request, pk)
    form = NoteForm(request.POST, step=step)
    if not form.is_valid():
        return _case_page(request, the_case, forms={step: form}, status=400)
    if step in ASKS and not confirmation.confirmed(request):  # escalating and resolving are not taken back
        question, consequence, button = ASKS[step]
        return confirmation.ask(request, question=str(question) % {"number": the_case.pk}, consequence=str(consequence),
                                button=str(button), back=reverse("count:case", args=[the_case.pk]),
                                note=form.cleaned_data["note"])
    try:
        write(case=the_case, user=request.user, note=form.cleaned_data["note"])
    except Refused as refused:
        the_case.refresh_from_db()  # the case as it stands: the step's form may be gone
        return refused_form(refused, partial(_case_page, request, the_case, forms={step: form}), form)
    messages.success(request, done())
    return redirect("count:case", pk=the_case.pk)


@require_GET
@login_required
@permission_required(VIEW_CASE, raise_exception=True)
def case_download(request: HttpRequest, pk: int, language: str) -> HttpResponse:
    """The case as a PDF for the regulator, in one of the three languages, once it was escalated."""
    if language not in LANGUAGES:
        raise Http404
    the_case = _his_case(request, pk)
    file = selectors.case_file(the_case)
    if not file.escalated:
        raise Http404(_("Only a case escalated to the regulator is printed for it."))
    response = HttpResponse(case_pdf(file, language=language), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="variance-case-{the_case.pk}-{language}.pdf"'
    return response
