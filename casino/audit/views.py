"""The inspector's pages: thin views over `selectors`, `trends` and `accounted` (reads) and the
pit's flag services (the writes). Reading the audit needs pit.view_all_tables; raising a flag,
pit.flag_jogo; commenting on one, pit.add_flagcomment; resolving one somebody else raised,
pit.resolve_flag. The multiple-transaction log names players: it needs pit.view_personal_data
(inspectors and managers).

Every page reads the tables of the casinos the person is given (`access.casinos_of`,
docs/casinos.md): a jogo, a flag or a table of another casino answers 404, as one that does not
exist; a list, an export or a log holds his casinos' objects only. The group's totals
(`group.py`) show each of his casinos and their sum."""
from __future__ import annotations

from functools import partial, wraps
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.charts import column_chart
from casino.pit import confirmation, errors, services
from casino.pit.access import casinos_of, visible_tables
from casino.pit.days import gaming_day
from casino.pit.models import Flag, Jogo
from casino.refusals import refused_action, refused_form

from . import exports
from .accounted import day_account
from .exceptions import KINDS, count_by_kind, exceptions, kind_choices
from .forms import CommentForm, LogForm, ResolveForm, asked_days
from .group import group_totals
from .ledger import BadDays, Days, check_page_range, latest_active_day
from .mtl import multiple_transaction_log
from .readings import book_register, register
from .selectors import commission_audit, explain, flag_list, flag_thread, flags_with_jogo, open_flag_count
from .trends import CENT, outside_band, table_trend

FORMATS = {"csv": "text/csv; charset=utf-8", "jsonl": "application/x-ndjson",
           "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


def inspector(view):
    """Logged in (else the login page) and allowed to read every table (else 403)."""
    @login_required
    @permission_required("pit.view_all_tables", raise_exception=True)
    @wraps(view)
    def checked(request, *args, **kwargs):
        return view(request, *args, **kwargs)
    return checked


def _days_or_index(request: HttpRequest, *, rechecked: bool = False) -> Days | HttpResponse:
    """The days asked for; with `rechecked`, no more than a page re-scores at once."""
    try:
        days = asked_days(request.GET)
        if rechecked:
            check_page_range(days, casinos_of(request.user))
        return days
    except BadDays as error:
        return _index_page(request, error=error, params=request.GET, status=400)


def _index_page(request: HttpRequest, *, days: Days | None = None, params=None, error: BadDays | None = None,
                status: int = 200) -> HttpResponse:
    casinos = casinos_of(request.user)
    return render(request, "audit/index.html", {
        "days": days, "params": params, "error": error, "kinds": kind_choices(),
        "open_flags": open_flag_count(casinos), "group": casinos.count() > 1,
        "outside": outside_band(days.last, visible_tables(request.user)) if days else []}, status=status)


@inspector
def index(request: HttpRequest) -> HttpResponse:
    """Opens on the latest gaming day with activity, unless a day or range is asked for."""
    params = request.GET
    if any(request.GET.get(name) for name in ("day", "from", "to")):
        days = _days_or_index(request)
        if isinstance(days, HttpResponse):
            return days
    else:
        latest = latest_active_day(casinos=casinos_of(request.user))
        days = Days(latest, latest) if latest else None
        params = {"day": latest.isoformat()} if latest else {}
    return _index_page(request, days=days, params=params)


@inspector
def commission(request: HttpRequest) -> HttpResponse:
    days = _days_or_index(request, rechecked=True)
    if isinstance(days, HttpResponse):
        return days
    return render(request, "audit/commission.html", {"days": days,
                                                     "audit": commission_audit(days, casinos=casinos_of(request.user))})


@inspector
def group(request: HttpRequest) -> HttpResponse:
    """The group's totals (group.py): each of the person's casinos over a gaming day or a range
    (the latest day with activity at his casinos when none is asked), and their sum."""
    casinos = casinos_of(request.user)
    if any(request.GET.get(name) for name in ("day", "from", "to")):
        days = _days_or_index(request, rechecked=True)
        if isinstance(days, HttpResponse):
            return days
    else:
        latest = latest_active_day(casinos=casinos) or gaming_day(timezone.now())
        days = Days(latest, latest)
        try:
            check_page_range(days, casinos)
        except BadDays as error:
            return _index_page(request, error=error, params={"day": latest.isoformat()}, status=400)
    return render(request, "audit/group.html", {"days": days, "group": group_totals(days, casinos)})


@inspector
def exception_queue(request: HttpRequest) -> HttpResponse:
    days = _days_or_index(request, rechecked=True)
    if isinstance(days, HttpResponse):
        return days
    kind = request.GET.get("kind") or None
    if kind is not None and kind not in KINDS:
        return _index_page(request, error=BadDays("kind", _("no such kind of exception: %(kind)s") % {"kind": kind}),
                           params=request.GET, status=400)
    casinos = casinos_of(request.user)
    everything = exceptions(days, casinos=casinos)
    entries = [entry for entry in everything if entry.kind == kind] if kind else everything
    return render(request, "audit/exceptions.html", {
        "days": days, "kind": kind, "kinds": kind_choices(), "entries": entries, "counts": count_by_kind(everything),
        "open_flags_here": sum(entry.open for entry in everything), "open_flags": open_flag_count(casinos)})


@inspector
@require_http_methods(["GET", "POST"])
def jogo(request: HttpRequest, pk: int) -> HttpResponse:
    row = get_object_or_404(Jogo.objects.filter(table__casino__in=casinos_of(request.user))
                            .select_related("table__casino", "game", "recorded_by", "approved_by"), pk=pk)
    if request.method == "POST":
        if not request.user.has_perm("pit.flag_jogo"):
            raise PermissionDenied
        try:
            services.flag(jogo=row, user=request.user, note=request.POST.get("note", ""))
        except errors.Refused as refused:
            return refused_action(request, refused, "audit:jogo", pk=row.pk)
        messages.success(request, _("Flag raised on jogo %(number)s.") % {"number": row.number})
        return redirect("audit:jogo", pk=row.pk)
    return render(request, "audit/jogo.html", {"x": explain(row), "jogo": row})


@inspector
def readings(request: HttpRequest) -> HttpResponse:
    """The register of readings; with a period (`from`, `to`, or `day`), how many of its jogos
    each point decided, bounded as every page that re-scores jogos is."""
    days, error = None, None
    if any(request.GET.get(name) for name in ("day", "from", "to")):
        try:
            days = asked_days(request.GET)
            check_page_range(days, casinos_of(request.user))
        except BadDays as refused:
            days, error = None, refused
    return render(request, "audit/readings.html", {"days": days, "params": request.GET, "error": error,
                                                   "points": register(days, casinos=casinos_of(request.user)),
                                                   "books": book_register()},
                  status=400 if error else 200)


@inspector
def export(request: HttpRequest) -> HttpResponse:
    days = _days_or_index(request)
    if isinstance(days, HttpResponse):
        return days
    kind = request.GET.get("format", "csv")
    if kind not in FORMATS:
        return _index_page(request, error=BadDays("format", _("csv, xlsx or jsonl")), params=request.GET, status=400)
    name = f"jogos-{days.first.isoformat()}_{days.last.isoformat()}.{kind}"
    casinos = casinos_of(request.user)
    if kind == "xlsx":
        response = HttpResponse(exports.xlsx_bytes(days, casinos=casinos), content_type=FORMATS[kind])
    else:
        lines = (exports.csv_lines(days, casinos=casinos) if kind == "csv"
                 else exports.jsonl_lines(days, casinos=casinos))
        response = StreamingHttpResponse(lines, content_type=FORMATS[kind])
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@inspector
def flags(request: HttpRequest) -> HttpResponse:
    """The open flags of every day, oldest first; `?state=resolved` for the resolved ones."""
    resolved = request.GET.get("state") == "resolved"
    casinos = casinos_of(request.user)
    return render(request, "audit/flags.html", {"flags": flag_list(resolved=resolved, casinos=casinos),
                                                "resolved": resolved, "open_flags": open_flag_count(casinos)})


def _flag_page(request: HttpRequest, flag: Flag, *, comment_form: CommentForm | None = None,
               resolve_form: ResolveForm | None = None, problems=(), status: int = 200) -> HttpResponse:
    may_resolve = flag.is_open and request.user.has_perm("pit.resolve_flag") and flag.raised_by_id != request.user.pk
    return render(request, "audit/flag.html", {
        "thread": flag_thread(flag), "flag": flag, "open_flags": open_flag_count(casinos_of(request.user)),
        "problems": problems,
        "comment_form": comment_form or CommentForm(), "resolve_form": resolve_form or ResolveForm(),
        "may_comment": request.user.has_perm("pit.add_flagcomment"), "may_resolve": may_resolve}, status=status)


@inspector
def flag(request: HttpRequest, pk: int) -> HttpResponse:
    return _flag_page(request, get_object_or_404(flags_with_jogo(casinos_of(request.user)), pk=pk))


def _flag_action(request: HttpRequest, pk: int, form_class, write, done: str, form_name: str, *,
                 asks: bool = False) -> HttpResponse:
    """Post a comment or a resolution on a flag through the service (`write`); on success back to
    the flag's page with `done`, otherwise the page again with the form and its errors. With
    `asks` (a resolution, which is not taken back) the first post asks for confirmation."""
    flag = get_object_or_404(flags_with_jogo(casinos_of(request.user)), pk=pk)
    form = form_class(request.POST)
    if not form.is_valid():
        return _flag_page(request, flag, status=400, **{form_name: form})
    if asks and flag.is_open and flag.raised_by_id != request.user.pk and not confirmation.confirmed(request):
        return confirmation.ask(
            request, question=_("Resolve the flag on jogo %(number)s, table %(table)s?") % {
                "number": flag.number, "table": flag.table.number},
            consequence=_("A resolved flag is closed for good: its thread keeps your note, and a new question "
                          "about the jogo is a new flag."),
            button=_("Yes, resolve the flag"), back=reverse("audit:flag", args=[flag.pk]),
            note=form.cleaned_data["note"])
    try:
        write(flag=flag, user=request.user, note=form.cleaned_data["note"])
    except errors.Refused as refused:
        return refused_form(refused, partial(_flag_page, request, flag, **{form_name: form}), form)
    messages.success(request, done)
    return redirect("audit:flag", pk=flag.pk)


@inspector
@permission_required("pit.add_flagcomment", raise_exception=True)
@require_POST
def comment(request: HttpRequest, pk: int) -> HttpResponse:
    return _flag_action(request, pk, CommentForm, services.comment_on_flag, _("Comment added."), "comment_form")


@inspector
@permission_required("pit.resolve_flag", raise_exception=True)
@require_POST
def resolve(request: HttpRequest, pk: int) -> HttpResponse:
    return _flag_action(request, pk, ResolveForm, services.resolve_flag, _("Flag resolved."), "resolve_form",
                        asks=True)


def _one_day(request: HttpRequest) -> Days | HttpResponse:
    """`?day=`, or the latest gaming day with activity at the person's casinos (today's when
    there is none)."""
    if request.GET.get("day"):
        return _days_or_index(request)
    latest = latest_active_day(casinos=casinos_of(request.user)) or gaming_day(timezone.now())
    return Days(latest, latest)


@inspector
def trend(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's figures on a gaming day, month and year to date, against its expected band, with
    the chart of its last days of play."""
    table = get_object_or_404(visible_tables(request.user).select_related("casino"), pk=pk)
    days = _one_day(request)
    if isinstance(days, HttpResponse):
        return days
    figures = table_trend(table, days.last)
    expected = figures.band
    shown = figures.chart_days
    bars = [(day.strftime("%m-%d"), played.per_jogo.quantize(CENT)) for day, played in shown]
    judged = {index for index, (day, __) in enumerate(shown) if day == days.last and figures.outside}
    chart = column_chart(bars, band=(expected.low.quantize(CENT), expected.mean.quantize(CENT),
                                     expected.high.quantize(CENT)) if expected else None, marked=frozenset(judged))
    periods = [(_("Gaming day"), figures.today), (_("Month to date"), figures.month_to_date),
               (_("Year to date"), figures.year_to_date)]
    return render(request, "audit/trend.html", {"days": days, "table": table, "trend": figures, "band": expected,
                                                "periods": periods, "chart": chart,
                                                "history": list(reversed(figures.chart_days))})


@inspector
def accounted(request: HttpRequest) -> HttpResponse:
    """Every number of a gaming day accounted for: each table's jogo numbers and ledger positions
    with any gap, and every refused, rejected or abandoned attempt with who, why and who confirmed
    it (accounted.py)."""
    days = _one_day(request)
    if isinstance(days, HttpResponse):
        return days
    return render(request, "audit/accounted.html", {"days": days, "account": day_account(
        days.last, casinos=casinos_of(request.user))})


def personal_data(view):
    """Logged in (else the login page) and allowed to see players' personal data (else 403)."""
    @login_required
    @permission_required("pit.view_personal_data", raise_exception=True)
    @wraps(view)
    def checked(request, *args, **kwargs):
        return view(request, *args, **kwargs)
    return checked


def _log_form(request: HttpRequest) -> LogForm:
    """The day and casino asked for, one of the person's; the latest gaming day with activity at
    his casinos when no day is."""
    casinos = casinos_of(request.user)
    form = LogForm(request.GET, casinos=casinos,
                   default=latest_active_day(casinos=casinos) or gaming_day(timezone.now()))
    if not form.is_valid() and "casino" in form.errors:  # not one of his casinos: as if it did not exist
        raise Http404
    return form


def _log(request: HttpRequest, form: LogForm):
    """The log of the day asked for, at the casino asked for or at all of the person's."""
    day, casino = form.cleaned_data["day"], form.cleaned_data["casino"]
    return multiple_transaction_log(day, casino, casinos=casinos_of(request.user))


@personal_data
def mtl(request: HttpRequest) -> HttpResponse:
    """Casino rule C-2: a gaming day's multiple-transaction log (mtl.py), its players by their
    larger total, the largest first."""
    form = _log_form(request)
    if not form.is_valid():
        return render(request, "audit/mtl.html", {"form": form, "log": None}, status=400)
    day, casino = form.cleaned_data["day"], form.cleaned_data["casino"]
    query = urlencode({"day": day.isoformat(), **({"casino": casino.pk} if casino else {})})
    return render(request, "audit/mtl.html", {"form": form, "log": _log(request, form),
                                              "query": query, "days": Days(day, day)})


@personal_data
def mtl_export(request: HttpRequest) -> HttpResponse:
    """The log as CSV (`?format=csv`, the default) or XLSX, headers in the reader's language."""
    form = _log_form(request)
    kind = request.GET.get("format", "csv")
    if kind not in ("csv", "xlsx"):
        form.add_error(None, _("format: csv or xlsx"))
    if not form.is_valid():
        return render(request, "audit/mtl.html", {"form": form, "log": None}, status=400)
    day, casino = form.cleaned_data["day"], form.cleaned_data["casino"]
    log = _log(request, form)
    body = exports.mtl_xlsx(log) if kind == "xlsx" else exports.mtl_csv(log)
    response = HttpResponse(body, content_type=FORMATS[kind])
    name = f"multiple-transaction-log-{day.isoformat()}{f'-{casino.pk}' if casino else ''}.{kind}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
