"""The inspector's pages: thin views over `selectors` (reads) and the pit's `service.flag` (the
one write). Reading the audit needs pit.view_all_tables; raising a flag, pit.flag_jogo."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from casino.pit import service
from casino.pit.models import Jogo

from . import exports
from .selectors import KINDS, BadDays, Days, commission_audit, exceptions, explain, parse_days

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


def _days_or_index(request: HttpRequest) -> Days | HttpResponse:
    try:
        return parse_days(request.GET)
    except BadDays as error:
        return render(request, "audit/index.html", {"error": error, "params": request.GET}, status=400)


@inspector
def index(request: HttpRequest) -> HttpResponse:
    days = None
    if any(request.GET.get(name) for name in ("day", "from", "to")):
        days = _days_or_index(request)
        if isinstance(days, HttpResponse):
            return days
    return render(request, "audit/index.html", {"days": days, "params": request.GET, "kinds": KINDS.items()})


@inspector
def commission(request: HttpRequest) -> HttpResponse:
    days = _days_or_index(request)
    if isinstance(days, HttpResponse):
        return days
    return render(request, "audit/commission.html", {"days": days, "audit": commission_audit(days)})


@inspector
def exception_queue(request: HttpRequest) -> HttpResponse:
    days = _days_or_index(request)
    if isinstance(days, HttpResponse):
        return days
    kind = request.GET.get("kind") or None
    if kind is not None and kind not in KINDS:
        return render(request, "audit/index.html", {"error": BadDays("kind", _("no such kind of exception: "
                                                                               "%(kind)s") % {"kind": kind}),
                                                    "params": request.GET}, status=400)
    return render(request, "audit/exceptions.html", {"days": days, "kind": kind, "kinds": KINDS.items(),
                                                     "entries": exceptions(days, kind)})


@inspector
@require_http_methods(["GET", "POST"])
def jogo(request: HttpRequest, pk: int) -> HttpResponse:
    row = get_object_or_404(Jogo.objects.select_related("table__casino", "game", "recorded_by", "approved_by"), pk=pk)
    if request.method == "POST":
        if not request.user.has_perm("pit.flag_jogo"):
            raise PermissionDenied
        try:
            service.flag(row, request.user, note=request.POST.get("note", ""))
        except service.Refused as refused:
            messages.error(request, str(refused))
        else:
            messages.success(request, _("Flag raised on jogo %(number)s.") % {"number": row.number})
        return redirect("audit:jogo", pk=row.pk)
    return render(request, "audit/jogo.html", {"x": explain(row), "jogo": row})


@inspector
def export(request: HttpRequest) -> HttpResponse:
    days = _days_or_index(request)
    if isinstance(days, HttpResponse):
        return days
    kind = request.GET.get("format", "csv")
    if kind not in FORMATS:
        return render(request, "audit/index.html", {"error": BadDays("format", _("csv, xlsx or jsonl")),
                                                    "params": request.GET}, status=400)
    name = f"jogos-{days.first.isoformat()}_{days.last.isoformat()}.{kind}"
    if kind == "xlsx":
        response = HttpResponse(exports.xlsx_bytes(days), content_type=FORMATS[kind])
    else:
        lines = exports.csv_lines(days) if kind == "csv" else exports.jsonl_lines(days)
        response = StreamingHttpResponse(lines, content_type=FORMATS[kind])
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
