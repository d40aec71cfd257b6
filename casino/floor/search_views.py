"""The search page: /floor/search/?q= (search.py does the finding)."""
from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from . import search as finding

MAX_QUERY = 100


@require_GET
@login_required
def search(request: HttpRequest) -> HttpResponse:
    if not finding.may_search(request.user):
        raise PermissionDenied(_("Your role does not allow this."))
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    hits = finding.find(request.user, query) if query else []
    return render(request, "floor/search.html", {"query": query, "hits": hits, "limit": finding.LIMIT})
