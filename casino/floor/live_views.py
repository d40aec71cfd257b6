"""The live floor, /floor/: one card per table (cards.py), kept up to date by the socket
(consumers.py) and, while the socket is down, by asking /floor/cards.json every few seconds
(static/floor.js)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from casino.terms.vocabulary import variant_name

from . import cards

POLL_SECONDS = 5  # how often the page asks for the cards while its socket is down


def _watched(request: HttpRequest):
    """The tables the person sees, narrowed by the page's filters (area, tier, variant), and the
    filters as read."""
    if not cards.may_watch(request.user):
        raise PermissionDenied(_("The floor is for supervisors, inspectors and managers."))
    shown = cards.shown_to(request.user)
    stake = request.GET.get("tier", "")
    chosen = {"area": request.GET.get("area", ""), "tier": int(stake) if stake.isdigit() else None,
              "variant": request.GET.get("variant", "")}
    return shown, cards.floor_tables(shown, area=chosen["area"], stake=chosen["tier"], variant=chosen["variant"]), \
        chosen


@login_required
@require_GET
def floor(request: HttpRequest) -> HttpResponse:
    shown, tables, chosen = _watched(request)
    everything = list(shown)
    return render(request, "floor/floor.html", {
        "cards": cards.for_person(cards.cards(tables), **cards.reader(request.user)), "labels": cards.labels(),
        "chosen": chosen,
        "areas": cards.areas(shown), "tiers": cards.tiers(everything),
        "variants": [(code, variant_name(code)) for code in sorted({table.variant for table in everything})],
        "poll_seconds": POLL_SECONDS,
    })


@login_required
@require_GET
def cards_json(request: HttpRequest) -> JsonResponse:
    """The cards of the page's tables as the socket would bring them: the page's fallback."""
    _shown, tables, _chosen = _watched(request)
    return JsonResponse({"cards": cards.for_person(cards.cards(tables), **cards.reader(request.user))})
