"""The managers' pages: choose a gaming day, see its figures and state, download the daily
report, close or reopen the day. Reads go through `selectors`, writes through the pit's services.

Reports are per casino, and a person reads and closes those of the casinos he is given
(`access.casinos_of`, docs/casinos.md): another casino's report, close or reopen answers 404, as
a casino that does not exist, and changes nothing."""
from __future__ import annotations

import datetime as dt
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.views.decorators.http import require_GET, require_POST

from casino.audit.ledger import latest_active_day
from casino.pit import services
from casino.pit.access import casinos_of
from casino.pit.days import gaming_day
from casino.pit.errors import Refused
from casino.pit.models import Casino
from casino.refusals import refused_action

from .archive import closes, stored_report
from .forms import CasinoDayForm, CloseForm, ReopenForm
from .pdf import LANGUAGES, daily_report_pdf
from .selectors import daily_summary

VIEW, CLOSE = "pit.view_daily_report", "pit.close_gaming_day"


def _index_url(casino: Casino, day: dt.date) -> str:
    return f"{reverse('reports:index')}?{urlencode({'casino': casino.pk, 'day': day.isoformat()})}"


def _report_language() -> str:
    """The language a report is printed in: the page's, or English for one the PDF lacks."""
    language = translation.get_language()
    return language if language in LANGUAGES else "en"


@require_GET
@login_required
@permission_required(VIEW, raise_exception=True)
def index(request: HttpRequest) -> HttpResponse:
    """Opens on the person's first casino's latest gaming day with activity (yesterday when it
    has none). A casino asked for that he is not given answers 404."""
    today = gaming_day(timezone.now())
    casinos = casinos_of(request.user)
    first = casinos.order_by("name").first()
    latest = (latest_active_day(first) if first else None) or today - dt.timedelta(days=1)
    form = CasinoDayForm(request.GET if "day" in request.GET else None, casinos=casinos,
                         initial={"casino": first, "day": latest})
    casino, day = first, latest
    if form.is_bound and form.is_valid():
        casino, day = form.cleaned_data["casino"], form.cleaned_data["day"]
    elif form.is_bound and request.GET.get("casino") and "casino" in form.errors:
        raise Http404  # not one of his casinos: as if it did not exist
    summary = daily_summary(casino, day) if casino else None
    day_closes = closes(casino, day, language=_report_language()) if casino else []
    return render(request, "reports/index.html", {
        "form": form, "casino": casino, "day": day, "summary": summary, "closes": day_closes,
        "latest_close": day_closes[-1] if day_closes and summary.closed else None,
        "close_form": CloseForm(), "reopen_form": ReopenForm(),
        "may_close": request.user.has_perm(CLOSE), "day_ended": day < today,
        "group": request.user.has_perm("pit.view_all_tables") and casinos.count() > 1})


@require_GET
@login_required
@permission_required(VIEW, raise_exception=True)
def download(request: HttpRequest, casino_id: int, day: dt.date) -> HttpResponse:
    """The daily report as a PDF, in the user's current language. A closed day's is the report
    stored as it closed, byte for byte, its SHA-256 as its ETag; `?version=N`, the report stored
    by the day's Nth close. An open day's, or one closed before reports were stored, is printed
    now and says so on every page."""
    casino = get_object_or_404(casinos_of(request.user), pk=casino_id)
    language = translation.get_language()
    version = request.GET.get("version")
    if version is None:
        stored = stored_report(casino, day, language=_report_language())
        name = f"daily-report-{day.isoformat()}-{language}"
    else:
        number = int(version) if version.isdecimal() else 0
        stored = stored_report(casino, day, language=_report_language(), number=number)
        if stored is None:
            raise Http404("no report was stored by that close of the day")
        name = f"daily-report-{day.isoformat()}-{language}-close-{number}"
    pdf = bytes(stored.pdf) if stored else daily_report_pdf(casino, day, language=_report_language())
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}.pdf"'
    if stored:
        response["ETag"] = f'"{stored.sha256}"'
    return response


@require_POST
@login_required
@permission_required(CLOSE, raise_exception=True)
def close(request: HttpRequest, casino_id: int, day: dt.date) -> HttpResponse:
    casino = get_object_or_404(casinos_of(request.user), pk=casino_id)
    form = CloseForm(request.POST)
    if form.is_valid():
        try:
            services.close_day(casino=casino, day=day, user=request.user, note=form.cleaned_data["note"],
                               override_reason=form.cleaned_data["override_reason"])
            messages.success(request, translation.gettext("The gaming day %(day)s is closed.") % {"day": day})
        except Refused as refused:
            return refused_action(request, refused, _index_url(casino, day))
    else:
        messages.error(request, " ".join(" ".join(errors) for errors in form.errors.values()))
    return redirect(_index_url(casino, day))


@require_POST
@login_required
@permission_required(CLOSE, raise_exception=True)
def reopen(request: HttpRequest, casino_id: int, day: dt.date) -> HttpResponse:
    casino = get_object_or_404(casinos_of(request.user), pk=casino_id)
    form = ReopenForm(request.POST)
    if form.is_valid():
        try:
            services.reopen_day(casino=casino, day=day, user=request.user, reason=form.cleaned_data["reason"])
            messages.success(request, translation.gettext("The gaming day %(day)s is open again.") % {"day": day})
        except Refused as refused:
            return refused_action(request, refused, _index_url(casino, day))
    else:
        messages.error(request, translation.gettext("Reopening a gaming day states its reason."))
    return redirect(_index_url(casino, day))
