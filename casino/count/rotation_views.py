"""The rotation log on screen, under /count/rotation/: who dealt or supervised at which table,
from when to when, as the supervisors record it; a relief (one entry ends, the next starts, in
one step); and a shift's draft, from the previous shift's assignments, that a supervisor
confirms. Thin views: `services` writes, `selectors` reads.

Who: the log is read with count.view_rotation (a supervisor his assigned tables, inspectors and
managers every table of their casinos) and kept with count.add_rotation at one's assigned
tables. Another casino's entry answers 404, as one that does not exist, and its staff are no
choice of person (docs/casinos.md).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _, pgettext
from django.views.decorators.http import require_POST

from casino.pit.access import casinos_of, require, visible_tables
from casino.pit.day_forms import GamingDayForm
from casino.pit.days import moment_of
from casino.pit.errors import Problem, Refused
from casino.refusals import refused_form
from casino.terms.vocabulary import person_name

from . import selectors, services, shifts
from .forms import CloseRotationForm, DraftForm, ReliefForm, RotationForm
from .models import Rotation

VIEW_ROTATION, KEEP_ROTATION = "count.view_rotation", "count.add_rotation"


def _his_entry(request: HttpRequest, pk: int) -> Rotation:
    """An entry of the log at a table of one of the person's casinos; 404 for any other."""
    return get_object_or_404(Rotation.objects.filter(table__casino__in=casinos_of(request.user))
                             .select_related("table", "person"), pk=pk)


def _rotation_url(day: dt.date) -> str:
    return f"{reverse('count:rotation')}?day={day.isoformat()}"


def _rotation_page(request: HttpRequest, day: dt.date, *, form: RotationForm | None = None,
                   close_forms: dict | None = None, relief_forms: dict | None = None,
                   problems: Sequence[Problem] = (), status: int = 200) -> HttpResponse:
    tables = visible_tables(request.user).select_related("casino").order_by("casino__name", "number")
    may_keep = request.user.has_perm(KEEP_ROTATION)
    entries = selectors.rotation_log(tables, day)
    close_forms, relief_forms = close_forms or {}, relief_forms or {}
    rows = [(entry, close_forms.get(entry.pk) or CloseRotationForm(entry=entry),
             relief_forms.get(entry.pk) or ReliefForm(entry=entry)) for entry in entries]
    now_day, now_shift = shifts.shift_of(timezone.now())
    return render(request, "count/rotation.html", {
        "problems": problems, "day": day, "day_form": GamingDayForm(default=day), "rows": rows,
        "may_keep": may_keep, "form": form or RotationForm(tables=tables, casinos=casinos_of(request.user),
                                                           shift_count=shifts.count()),
        "previous": day - dt.timedelta(days=1), "next": day + dt.timedelta(days=1),
        "draft_url": _draft_url(now_day, now_shift),
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
    form = RotationForm(request.POST, tables=visible_tables(request.user), casinos=casinos_of(request.user),
                        shift_count=shifts.count())
    if not form.is_valid():
        return _rotation_page(request, day, form=form, status=400)
    table = form.cleaned_data["table"]
    require(request.user, KEEP_ROTATION, table)
    shift = form.cleaned_data["shift"]
    starts_at = (shifts.shift_bounds(day, shift)[0] if shift is not None
                 else moment_of(day, form.cleaned_data["starts"]))
    try:
        entry = services.rotation_start(table=table, person=form.cleaned_data["person"],
                                        duty=form.cleaned_data["duty"], starts_at=starts_at, user=request.user,
                                        gaming_day=day)
    except Refused as refused:
        return refused_form(refused, partial(_rotation_page, request, day, form=form), form, field=_start_field)
    messages.success(request, _("%(person)s is on the log at table %(table)s from %(from)s.") % {
        "person": person_name(entry.person), "table": table.number,
        "from": timezone.localtime(entry.starts_at).strftime("%H:%M")})
    return redirect(_rotation_url(day))


@require_POST
@login_required
@permission_required(KEEP_ROTATION, raise_exception=True)
def rotation_close(request: HttpRequest, pk: int) -> HttpResponse:
    """Close an entry of the log with its end, on the clock of the entry's gaming day."""
    entry = _his_entry(request, pk)
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
        "person": person_name(entry.person), "table": entry.table.number})
    return redirect(_rotation_url(entry.gaming_day))


@require_POST
@login_required
@permission_required(KEEP_ROTATION, raise_exception=True)
def rotation_relieve(request: HttpRequest, pk: int) -> HttpResponse:
    """Relieve the person of an open entry: the entry ends and the reliever's starts at the time
    given, on the clock of the entry's gaming day, in one step."""
    entry = _his_entry(request, pk)
    require(request.user, KEEP_ROTATION, entry.table)
    form = ReliefForm(request.POST, entry=entry)
    if not form.is_valid():
        return _rotation_page(request, entry.gaming_day, relief_forms={entry.pk: form}, status=400)
    try:
        made = services.rotation_relieve(entry=entry, person=form.cleaned_data["person"],
                                         relieved_at=moment_of(entry.gaming_day, form.cleaned_data["at"]),
                                         user=request.user)
    except Refused as refused:
        return refused_form(refused, partial(_rotation_page, request, entry.gaming_day,
                                             relief_forms={entry.pk: form}), form, field=_relief_field)
    messages.success(request, _("%(person)s relieved %(relieved)s at table %(table)s at %(at)s.") % {
        "person": person_name(made.person), "relieved": person_name(entry.person), "table": entry.table.number,
        "at": timezone.localtime(made.starts_at).strftime("%H:%M")})
    return redirect(_rotation_url(entry.gaming_day))


def _draft_url(day: dt.date, shift: int) -> str:
    return f"{reverse('count:rotation_draft')}?day={day.isoformat()}&shift={shift}"


def _draft_page(request: HttpRequest, day: dt.date, shift: int, *, form: DraftForm | None = None,
                problems: Sequence[Problem] = (), status: int = 200) -> HttpResponse:
    tables = visible_tables(request.user)
    casinos = {table.casino for table in tables.select_related("casino")}
    lines = [line for casino in sorted(casinos, key=lambda c: c.name)
             for line in services.rotation_draft(casino=casino, gaming_day=day, shift=shift)
             if line.entry.table_id in {t.pk for t in tables}]
    starts, ends = shifts.shift_bounds(day, shift)
    before, after = services.previous_shift(day, shift), _next_shift(day, shift)
    return render(request, "count/rotation_draft.html", {
        "problems": problems, "day": day, "shift": shift, "starts": starts, "ends": ends,
        "form": form or DraftForm(lines=lines), "may_keep": request.user.has_perm(KEEP_ROTATION),
        "started": starts <= timezone.now(), "previous_url": _draft_url(*before), "next_url": _draft_url(*after),
        "log_url": _rotation_url(day)}, status=status)


def _next_shift(day: dt.date, shift: int) -> tuple[dt.date, int]:
    return (day, shift + 1) if shift < shifts.count() else (day + dt.timedelta(days=1), 1)


@login_required
@permission_required(VIEW_ROTATION, raise_exception=True)
def rotation_draft(request: HttpRequest) -> HttpResponse:
    """A shift's draft rotation (?day=&shift=, the shift now running by default): the entries
    holding as the previous shift ended. A supervisor confirms it (POST), once the shift has
    started, keeping, dropping or changing the person of each line."""
    day, shift = shifts.shift_of(timezone.now())
    if request.GET.get("day") or request.GET.get("shift"):
        asked, wrong = _day_asked(request)
        try:
            number = int(request.GET.get("shift", ""))
        except ValueError:
            number = 0
        if wrong or not 1 <= number <= shifts.count():
            messages.error(request, wrong or _("Shift: a gaming day has shifts 1 to %(shifts)s.") % {
                "shifts": shifts.count()})
            return _draft_page(request, day, shift, status=400)
        day, shift = asked, number
    if request.method != "POST":
        return _draft_page(request, day, shift)
    if not request.user.has_perm(KEEP_ROTATION):
        raise PermissionDenied(_("Your role does not allow this."))
    tables = visible_tables(request.user)
    lines = [line for casino in {t.casino for t in tables.select_related("casino")}
             for line in services.rotation_draft(casino=casino, gaming_day=day, shift=shift)
             if line.entry.table_id in {t.pk for t in tables}]
    form = DraftForm(request.POST, lines=lines)
    if not form.is_valid():
        return _draft_page(request, day, shift, form=form, status=400)
    kept = form.kept()
    for line in kept:
        require(request.user, KEEP_ROTATION, line["entry"].table)
    casinos = {line["entry"].table.casino for line in kept} or {None}
    try:
        with transaction.atomic():  # every casino's lines, or none
            made = [entry for casino in casinos
                    for entry in services.rotation_confirm(
                        casino=casino, gaming_day=day, shift=shift, user=request.user,
                        lines=[line for line in kept if line["entry"].table.casino == casino])]
    except Refused as refused:
        return refused_form(refused, partial(_draft_page, request, day, shift, form=form), form,
                            field=lambda problem: None)
    messages.success(request, _("Shift %(shift)s's rotation is confirmed: %(count)s entries from %(from)s.") % {
        "shift": shift, "count": len(made), "from": timezone.localtime(shifts.shift_bounds(day, shift)[0])
        .strftime("%H:%M")})
    return redirect(_rotation_url(day))


def _close_field(problem: Problem) -> str | None:
    """The closing form's field a problem is about: the service's `ends_at` is the form's `ends`."""
    return "ends" if problem.field == "ends_at" else problem.field


def _start_field(problem: Problem) -> str | None:
    """The new entry's form field a problem is about: the service's `starts_at` is the form's `starts`."""
    return "starts" if problem.field == "starts_at" else problem.field


def _relief_field(problem: Problem) -> str | None:
    """The relief form's field a problem is about: its time is `at`; an end refused is the relief's time too."""
    return "at" if problem.field in ("starts_at", "ends_at") else problem.field
