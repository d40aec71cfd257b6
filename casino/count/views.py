"""The count room's screens for the pit's people, under /count/: the variance cases for inspectors
and managers (the list, a case's page, its steps and its PDF for the regulator) and the rotation
log supervisors keep. Thin views: `cases` and `services` write, `selectors` reads.

Who: reading cases needs count.view_case; a note, "explained" and "escalated", count.work_case;
resolving, count.resolve_case (managers). The rotation log is read with count.view_rotation (a
supervisor his assigned tables, inspectors and managers every table) and kept with
count.add_rotation at one's assigned tables. The counters' own screens are in count_views.py.
"""
from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_lazy, pgettext
from django.views.decorators.http import require_GET, require_POST

from casino.pit.access import require, visible_tables
from casino.pit.days import moment_of
from casino.pit.errors import Refused
from casino.terms.vocabulary import localise

from . import cases as steps, selectors, services, shifts
from .forms import CloseRotationForm, DayForm, NoteForm, RotationForm
from .models import Case, Rotation
from .pdf import LANGUAGES, case_pdf

VIEW_CASE, WORK, RESOLVE = "count.view_case", steps.WORK, steps.RESOLVE
VIEW_ROTATION, KEEP_ROTATION = "count.view_rotation", "count.add_rotation"

# The steps of a case: the service, the permission, what the page says once it is done, and the
# step's form on the case's page (its title and button).
STEPS = {
    "note": (steps.add_note, WORK, lambda: _("Note added.")),
    "explain": (steps.mark_explained, WORK, lambda: _("The case is marked explained.")),
    "escalate": (steps.escalate, WORK, lambda: _("The case is escalated to the regulator.")),
    "resolve": (steps.resolve, RESOLVE, lambda: _("The case is resolved.")),
}
STEP_FORMS = {
    "note": (gettext_lazy("Add a note"), gettext_lazy("Add the note")),
    "explain": (gettext_lazy("Mark explained"), gettext_lazy("Mark the case explained")),
    "escalate": (gettext_lazy("Escalate to the regulator"), gettext_lazy("Escalate the case")),
    "resolve": (gettext_lazy("Resolve"), gettext_lazy("Resolve the case")),
}
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
        "cases": selectors.case_list(states=LIST_STATES[shown]), "shown": shown,
        "open_cases": selectors.open_case_count(), "thresholds": selectors.Thresholds.now()})


def _case_page(request: HttpRequest, case: Case, *, forms: dict | None = None, problems: list[str] | None = None,
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
        "pdf_languages": LANGUAGES, "open_cases": selectors.open_case_count(),
        "problems": problems or []}, status=status)


@require_GET
@login_required
@permission_required(VIEW_CASE, raise_exception=True)
def case(request: HttpRequest, pk: int) -> HttpResponse:
    return _case_page(request, get_object_or_404(Case, pk=pk))


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
    the_case = get_object_or_404(Case, pk=pk)
    form = NoteForm(request.POST, step=step)
    status, problems = 400, []
    if form.is_valid():
        try:
            write(case=the_case, by=request.user, note=form.cleaned_data["note"])
        except Refused as refused:
            for problem in refused.problems:
                if problem.field == "note":
                    form.add_error("note", localise(problem))
                else:  # the case's state: said above the page, since the step's form may be gone
                    problems.append(localise(problem))
            status = 409 if refused.conflict else 400
        else:
            messages.success(request, done())
            return redirect("count:case", pk=the_case.pk)
    the_case.refresh_from_db()
    return _case_page(request, the_case, forms={step: form}, problems=problems, status=status)


@require_GET
@login_required
@permission_required(VIEW_CASE, raise_exception=True)
def case_download(request: HttpRequest, pk: int, language: str) -> HttpResponse:
    """The case as a PDF for the regulator, in one of the three languages, once it was escalated."""
    if language not in LANGUAGES:
        raise Http404
    the_case = get_object_or_404(Case, pk=pk)
    file = selectors.case_file(the_case)
    if not file.escalated:
        raise Http404(_("Only a case escalated to the regulator is printed for it."))
    response = HttpResponse(case_pdf(file, language=language), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="variance-case-{the_case.pk}-{language}.pdf"'
    return response


# --- The rotation log ----------------------------------------------------------------------------

def _rotation_url(day: dt.date) -> str:
    return f"{reverse('count:rotation')}?day={day.isoformat()}"


def _rotation_page(request: HttpRequest, day: dt.date, *, form: RotationForm | None = None,
                   close_forms: dict | None = None, status: int = 200) -> HttpResponse:
    tables = visible_tables(request.user).select_related("casino").order_by("casino__name", "number")
    may_keep = request.user.has_perm(KEEP_ROTATION)
    entries = selectors.rotation_log(tables, day)
    close_forms = close_forms or {}
    rows = [(entry, close_forms.get(entry.pk) or CloseRotationForm(entry=entry)) for entry in entries]
    return render(request, "count/rotation.html", {
        "day": day, "day_form": DayForm(initial={"day": day}), "rows": rows, "may_keep": may_keep,
        "form": form or RotationForm(tables=tables), "previous": day - dt.timedelta(days=1),
        "next": day + dt.timedelta(days=1), "shifts": [shifts.shift_bounds(day, n) for n in range(1, shifts.count() + 1)]},
        status=status)


def _day_asked(request: HttpRequest) -> tuple[dt.date, str | None]:
    """The gaming day of ?day=, today's when none is asked; and what is wrong with the day asked,
    in the person's words, when it is not one the log shows (the day is then today's, to show)."""
    today = shifts.gaming_day(timezone.now())
    if not request.GET.get("day"):
        return today, None
    form = DayForm(request.GET)
    if form.is_valid():
        return form.cleaned_data["day"], None
    return today, pgettext("an error message naming its field", "{field}: {message}").format(
        field=form["day"].label, message=" ".join(form.errors["day"]))


@login_required
@permission_required(VIEW_ROTATION, raise_exception=True)
def rotation(request: HttpRequest) -> HttpResponse:
    """The rotation log of a gaming day (?day=, today's by default); a new entry is posted here.
    A day that is not one (?day=2026-99-99) or that the log does not keep is a 400 that says so,
    over today's log, and records nothing: never an entry on another day than the one asked."""
    day, wrong = _day_asked(request)
    if wrong:
        messages.error(request, wrong)
        return _rotation_page(request, day, status=400)
    if request.method != "POST":
        return _rotation_page(request, day)
    if not request.user.has_perm(KEEP_ROTATION):
        raise PermissionDenied(_("Your role does not allow this."))
    form = RotationForm(request.POST, tables=visible_tables(request.user))
    if not form.is_valid():
        return _rotation_page(request, day, form=form, status=400)
    table = form.cleaned_data["table"]
    require(request.user, KEEP_ROTATION, table)
    try:
        entry = services.rotation_start(table=table, person=form.cleaned_data["person"],
                                        duty=form.cleaned_data["duty"],
                                        starts_at=moment_of(day, form.cleaned_data["starts"]),
                                        recorded_by=request.user)
    except Refused as refused:
        for problem in refused.problems:
            form.add_error(problem.field if problem.field in form.fields else None, localise(problem))
        return _rotation_page(request, day, form=form, status=409 if refused.conflict else 400)
    messages.success(request, _("%(person)s is on the log at table %(table)s from %(from)s.") % {
        "person": entry.person.get_username(), "table": table.number,
        "from": timezone.localtime(entry.starts_at).strftime("%H:%M")})
    return redirect(_rotation_url(day))


@require_POST
@login_required
@permission_required(KEEP_ROTATION, raise_exception=True)
def rotation_close(request: HttpRequest, pk: int) -> HttpResponse:
    """Close an entry of the log with its end, on the clock of the entry's gaming day."""
    entry = get_object_or_404(Rotation.objects.select_related("table"), pk=pk)
    require(request.user, KEEP_ROTATION, entry.table)
    form = CloseRotationForm(request.POST, entry=entry)
    if not form.is_valid():
        return _rotation_page(request, entry.gaming_day, close_forms={entry.pk: form}, status=400)
    try:
        services.rotation_close(entry=entry, ends_at=moment_of(entry.gaming_day, form.cleaned_data["ends"]),
                                closed_by=request.user)
    except Refused as refused:
        for problem in refused.problems:
            form.add_error("ends" if problem.field == "ends_at" else None, localise(problem))
        return _rotation_page(request, entry.gaming_day, close_forms={entry.pk: form},
                              status=409 if refused.conflict else 400)
    messages.success(request, _("The entry of %(person)s at table %(table)s is closed.") % {
        "person": entry.person.get_username(), "table": entry.table.number})
    return redirect(_rotation_url(entry.gaming_day))
