"""The alerts on screen, under /floor/alerts/: the list (filtered by state, table and rule), each
alert citing its article or control and linking to the record behind it, with the form that
acknowledges it; for supervisors (their tables), inspectors and managers (floor.view_alert).
Thin views: `alerts` writes, `selectors` reads."""
from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from casino.pit.errors import Problem, Refused
from casino.refusals import refused_form

from . import alert_selectors as selectors, alerts

NOTE_MAX_LENGTH = 2000


class AcknowledgeForm(forms.Form):
    note = forms.CharField(label=gettext_lazy("What you saw or did"), max_length=NOTE_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 2}))
    back = forms.CharField(required=False, widget=forms.HiddenInput)


def _page(request: HttpRequest, *, failed: tuple[int, AcknowledgeForm] | None = None,
          problems: Sequence[Problem] = (), status: int = 200) -> HttpResponse:
    choice = selectors.AlertFilter.read(request.GET)
    listed = selectors.alert_list(request.user, choice)
    page = Paginator(listed, 50).get_page(request.GET.get("page"))
    assigned = alerts.assigned_tables(request.user)
    names = selectors.player_names(request.user, page.object_list)
    rows = []
    for alert in page.object_list:
        form = failed[1] if failed and failed[0] == alert.pk else AcknowledgeForm(
            initial={"back": request.get_full_path()}, auto_id=f"alert{alert.pk}_%s")
        may = alert.acknowledged_at is None and alerts.may_acknowledge(request.user, alert, assigned) is None
        rows.append(selectors.row(alert, request.user, form if may else None, names))
    return render(request, "floor/alerts.html", {
        "rows": rows, "page": page, "choice": choice, "problems": problems,
        "tables": selectors.tables_for(request.user), "rules": selectors.rule_choices(),
        "states": selectors.STATES}, status=status)


@require_GET
@login_required
@permission_required("floor.view_alert", raise_exception=True)
def alert_list(request: HttpRequest) -> HttpResponse:
    return _page(request)


@require_POST
@login_required
@permission_required("floor.view_alert", raise_exception=True)
def acknowledge(request: HttpRequest, pk: int) -> HttpResponse:
    """Acknowledge an alert with a note, through the service; back to the list as it was shown,
    or the list again with the form and the reason."""
    alert = get_object_or_404(alerts.visible_alerts(request.user), pk=pk)
    form = AcknowledgeForm(request.POST, auto_id=f"alert{alert.pk}_%s")
    if not form.is_valid():
        return _page(request, failed=(alert.pk, form), status=400)
    try:
        alerts.acknowledge(alert=alert, user=request.user, note=form.cleaned_data["note"])
    except Refused as refused:
        return refused_form(refused, partial(_page, request, failed=(alert.pk, form)), form)
    messages.success(request, _("Alert acknowledged."))
    back = form.cleaned_data.get("back") or ""
    if back.startswith("/") and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("floor:alerts")

