"""The rotation log on screen, under /count/rotation/: who dealt or supervised at which table,
from when to when, as the supervisors record it. Thin views: `services` writes, `selectors` reads.

Who: the log is read with count.view_rotation (a supervisor his assigned tables, inspectors and
managers every table) and kept with count.add_rotation at one's assigned tables.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, pgettext
from django.views.decorators.http import require_POST

from casino.pit.access import require, visible_tables
from casino.pit.day_forms import GamingDayForm
from casino.pit.days import moment_of
from casino.pit.errors import Problem, Refused
from casino.refusals import refused_form

from . import selectors, services, shifts
from .forms import CloseRotationForm, RotationForm
from .models import Rotation

VIEW_ROTATION, KEEP_ROTATION = "count.view_rotation", "count.add_rotation"


def _rotation_url(day: dt.date) -> str:
    return f"{reverse('count:rotation')}?day={day.isoformat()}"


def _rotation_page(request: HttpRequest, day: dt.date, *, form: RotationForm | None = None,
                   close_forms: dict | None = None, problems: Sequence[Problem] = (),
                   status: int = 200) -> HttpResponse:
    tables = visible_tables(request.user).select_related("casino").order_by("casino__name", "number")
    may_keep = request.user.has_perm(KEEP_ROTATION)
    entries = selectors.rotation_log(tables, day)
    close_forms = close_forms or {}
    rows = [(entry, close_forms.get(entry.pk) or CloseRotationForm(entry=entry)) for entry in entries]
    return render(request, "count/rotation.html", {
        "problems": problems, "day": day, "day_form": GamingDayForm(default=day), "rows": rows,
        "may_keep": may_keep, "form": form or RotationForm(tables=tables), "previous": day - dt.timedelta(days=1),
        "next": day + dt.timedelta(days=1),
        "shifts": [shifts.shift_bounds(day, n) for n in range(1, shifts.count() + 1)]}, status=status)


def _day_asked(request: HttpRequest) -> tuple[dt.date, str | None]:
    """The gaming day of ?day=, today's when none is asked; and what is wrong with the day asked,
    in the person's words, when it is not one the log shows (the day is then today's, to show)."""
    today = shifts.gaming_day(timezone.now())
    if not request.GET.get("day"):
        return today, None
    form = GamingDayForm(request.GET, default=today)
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
                                        user=request.user)
    except Refused as refused:
        return refused_form(refused, partial(_rotation_page, request, day, form=form), form)
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
                                user=request.user)
    except Refused as refused:
        return refused_form(refused, partial(_rotation_page, request, entry.gaming_day, close_forms={entry.pk: form}),
                            form, field=_close_field)
    messages.success(request, _("The entry of %(person)s at table %(table)s is closed.") % {
        "person": entry.person.get_username(), "table": entry.table.number})
    return redirect(_rotation_url(entry.gaming_day))


def _close_field(problem: Problem) -> str | None:
    """The closing form's field a problem is about: the service's `ends_at` is the form's `ends`."""
    return "ends" if problem.field == "ends_at" else problem.field
