"""The counters' screens under /count/boxes/: the boxes ready to count, the blind count of one
box, its recount, and a manager's decision on a recount.

Who: counters (count.count_box) count and sign; inspectors and managers (count.view_box) read
the same pages with every figure. What a counter sees of a box follows blind.py. Views stay
thin: services.py writes.

Each reads and counts the boxes of the casinos he is given (`access.casinos_of`,
docs/casinos.md): another casino's box answers 404, as one that does not exist.
"""
from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.pit.access import casinos_of
from casino.pit.errors import Refused
from casino.refusals import refused_form

from . import blind, services
from .count_forms import CountForm, DecisionForm, RecountForm
from .models import Box, Case


def _allowed(request: HttpRequest, permission: str = "count.view_box") -> None:
    if not request.user.has_perm(permission):
        raise PermissionDenied(_("Your role does not allow this."))


def _his_box(request: HttpRequest, pk: int) -> Box:
    """A box of one of the person's casinos; 404 for any other."""
    return get_object_or_404(Box.objects.filter(casino__in=casinos_of(request.user)).select_related("table__casino"),
                             pk=pk)


@login_required
def boxes(request: HttpRequest) -> HttpResponse:
    """The boxes of the table-shifts that have ended: those with counting still to do, oldest
    first, however old; then those counted in the last two gaming days."""
    _allowed(request)
    ready = services.boxes_ready()
    shown = blind.with_latest_counts(Box.objects.filter(pk__in=[box.pk for box in ready],
                                                        casino__in=casinos_of(request.user)))
    views = blind.visible_to(request.user, [blind.view(box, request.user)
                                      for box in shown.order_by("gaming_day", "shift", "table__number")])
    return render(request, "count/counting/boxes.html", {
        "to_count": [v for v in views if v.to_count],
        "counted": sorted((v for v in views if not v.to_count),
                          key=lambda v: (v.box.gaming_day, v.box.shift), reverse=True)})


def _box_page(request, box: Box, *, form=None, recount=None, decision=None, problems=(), status=200) -> HttpResponse:
    shown = blind.view(blind.with_latest_counts(Box.objects.filter(pk=box.pk)).get(), request.user)
    user = request.user
    counter = user.has_perm("count.count_box")
    signing = shown.state in (blind.WAITING, blind.COUNTING, blind.RECOUNT_APPROVED)
    may_sign = counter and signing and user.pk not in shown.signers
    latest = shown.latest.count if shown.latest else None
    first_signer = latest is not None and shown.state == blind.COUNTING and (
        latest.signed[0].recorded_by_id if latest.signed else latest.recorded_by_id) == user.pk
    manager = user.has_perm(services.DECIDE_RECOUNT)
    record = next((v for v in shown.counts if v.of_record), None)
    acceptable = [v for v in shown.counts if record and v.count.agreed and v.count.attempt > record.count.attempt]
    of_record = shown.shown if shown.shown and shown.shown.of_record else None
    return render(request, "count/counting/box.html", {
        "view": shown, "box": box, "counter": counter, "may_sign": may_sign,
        "case": Case.objects.filter(box=box).first() if of_record else None,
        "beyond": of_record is not None and services.beyond_thresholds(expected=of_record.expected,
                                                                       variance=of_record.variance),
        "may_recount": counter and (shown.state in (blind.DISAGREED, blind.ABANDONED) or first_signer),
        "abandon": first_signer,
        "may_approve": manager and shown.state == blind.COUNTED, "acceptable": acceptable if manager else [],
        "form": form or CountForm(initial={"attempt": shown.attempt}), "recount": recount or RecountForm(),
        "decision": decision or DecisionForm(),
        "problems": problems}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def box(request: HttpRequest, pk: int) -> HttpResponse:
    """One box: the count form (amount, chips by value, password) for a counter who has not
    signed it; its figures once both counters agree."""
    _allowed(request)
    the_box = _his_box(request, pk)
    if request.method == "GET":
        return _box_page(request, the_box)
    _allowed(request, "count.count_box")
    form = CountForm(request.POST)
    if not form.is_valid():
        return _box_page(request, the_box, form=form, status=400)
    try:
        services.sign_count(box=the_box, user=request.user, password=form.cleaned_data["password"],
                            counted=form.cleaned_data["counted"], denominations=form.denominations(),
                            attempt=form.cleaned_data["attempt"], request=request)
    except Refused as refused:
        retyped = CountForm(request.POST)
        return refused_form(refused, partial(_box_page, request, the_box, form=retyped), retyped)
    messages.success(request, _("Your count of the box is signed."))
    return redirect("counting:box", pk=the_box.pk)


@login_required
@require_POST
def recount(request: HttpRequest, pk: int) -> HttpResponse:
    """Count the box again, with the reason; the earlier count stays. A count still waiting for
    its second signature is abandoned first, by its first signer."""
    _allowed(request, "count.count_box")
    the_box = _his_box(request, pk)
    form = RecountForm(request.POST)
    if not form.is_valid():
        return _box_page(request, the_box, recount=form, status=400)
    try:
        services.recount(box=the_box, user=request.user, reason=form.cleaned_data["reason"],
                         abandon=form.cleaned_data["abandon"])
    except Refused as refused:
        return refused_form(refused, partial(_box_page, request, the_box, recount=form), form)
    messages.success(request, _("The box is being counted again."))
    return redirect("counting:box", pk=the_box.pk)


@login_required
@require_POST
def decide(request: HttpRequest, pk: int, decision: str) -> HttpResponse:
    """A manager approves a recount of a box whose count agreed, or accepts a recount that agreed
    as the box's figure of record; each with its reason."""
    _allowed(request, services.DECIDE_RECOUNT)
    the_box = _his_box(request, pk)
    form = DecisionForm(request.POST)
    if not form.is_valid():
        return _box_page(request, the_box, decision=form, status=400)
    try:
        if decision == "approve":
            services.approve_recount(box=the_box, user=request.user, reason=form.cleaned_data["reason"])
        else:
            services.accept_recount(box=the_box, user=request.user, attempt=form.cleaned_data["attempt"] or 0,
                                    reason=form.cleaned_data["reason"])
    except Refused as refused:
        return refused_form(refused, partial(_box_page, request, the_box, decision=form), form)
    messages.success(request, _("The recount is approved: two counters who have not seen this box's figures count "
                                "it.") if decision == "approve"
                     else _("The recount is now the box's figure of record."))
    return redirect("counting:box", pk=the_box.pk)

