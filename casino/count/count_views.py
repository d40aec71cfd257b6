"""The counter's screens: the boxes ready to count and the blind count of one box.

Who: counters (count.count_box) count and sign; inspectors and managers (count.view_box) read
the same pages with every figure. What a counter sees of a box follows blind.py. Views stay
thin: services.py writes.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.pit.errors import Refused
from casino.terms.vocabulary import localise

from . import blind, services
from .count_forms import CountForm, RecountForm
from .models import Box, Case


def _allowed(request: HttpRequest, permission: str = "count.view_box") -> None:
    if not request.user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))


@login_required
def boxes(request: HttpRequest) -> HttpResponse:
    """The boxes of the table-shifts that have ended, each with where its count stands."""
    _allowed(request)
    ready = services.boxes_ready()
    shown = blind.with_latest_counts(Box.objects.filter(pk__in=[box.pk for box in ready]))
    views = [blind.view(box, request.user) for box in shown.order_by("-gaming_day", "-shift", "table__number")]
    return render(request, "count/counting/boxes.html", {"boxes": views})


def _box_page(request, box: Box, *, form=None, recount=None, problems=(), status=200) -> HttpResponse:
    shown = blind.view(blind.with_latest_counts(Box.objects.filter(pk=box.pk)).get(), request.user)
    counter = request.user.has_perm("count.count_box")
    may_sign = counter and shown.state in (blind.WAITING, blind.COUNTING) \
        and request.user.get_username() not in shown.signed_by
    return render(request, "count/counting/box.html", {
        "view": shown, "box": box, "counter": counter, "may_sign": may_sign,
        "case": Case.objects.filter(box=box).first() if shown.figures_shown else None,
        "may_recount": counter and shown.state in (blind.COUNTED, blind.DISAGREED),
        "form": form or CountForm(), "recount": recount or RecountForm(),
        "problems": [localise(problem) for problem in problems]}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def box(request: HttpRequest, pk: int) -> HttpResponse:
    """One box: the count form (amount, chips by value, password) for a counter who has not
    signed it; its figures once both counters agree."""
    _allowed(request)
    the_box = get_object_or_404(Box.objects.select_related("table__casino"), pk=pk)
    if request.method == "GET":
        return _box_page(request, the_box)
    _allowed(request, "count.count_box")
    form = CountForm(request.POST)
    if not form.is_valid():
        return _box_page(request, the_box, form=form, status=400)
    try:
        services.sign_count(box=the_box, counter=request.user, password=form.cleaned_data["password"],
                            counted=form.cleaned_data["counted"], denominations=form.denominations())
    except Refused as refused:
        return _box_page(request, the_box, form=CountForm(request.POST), problems=refused.problems, status=400)
    messages.success(request, _("Your count of the box is signed."))
    return redirect("counting:box", pk=the_box.pk)


@login_required
@require_POST
def recount(request: HttpRequest, pk: int) -> HttpResponse:
    """Count the box again, with the reason; the earlier count stays."""
    _allowed(request, "count.count_box")
    the_box = get_object_or_404(Box.objects.select_related("table__casino"), pk=pk)
    form = RecountForm(request.POST)
    if not form.is_valid():
        return _box_page(request, the_box, recount=form, status=400)
    try:
        services.recount(box=the_box, opened_by=request.user, reason=form.cleaned_data["reason"])
    except Refused as refused:
        return _box_page(request, the_box, recount=form, problems=refused.problems, status=400)
    messages.success(request, _("The box is being counted again."))
    return redirect("counting:box", pk=the_box.pk)


app_name = "counting"
urlpatterns = [
    path("", boxes, name="boxes"),
    path("<int:pk>/", box, name="box"),
    path("<int:pk>/recount", recount, name="recount"),
]
