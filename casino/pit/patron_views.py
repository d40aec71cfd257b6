"""The players' screens under /pit/players/ (docs/patrons.md, docs/screens.md): the list and
search, a player's page, his identification, and the seating form's player picker.

Who sees what is casino/pit/privacy.py: inspectors and managers (pit.view_personal_data) see
every player's personal data, each document number read logged; a supervisor sees the players who
sat at his tables, by name, and identifies the ones seated there now; nobody else has these
pages, and the picker gives a dealer masked names. Views stay thin: `patrons` writes.
"""
from __future__ import annotations

from functools import partial
from itertools import groupby

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from casino.refusals import refused_form

from . import cash, patrons, privacy
from .access import casinos_of, require, visible_tables
from .countries import country_name
from .documents import normalise
from .errors import Refused
from .models import DocumentRead, Movement, Patron, Table
from .patron_forms import IdentifyForm, PatronSearchForm
from .templatetags.privacy import patron_label

PER_PAGE = 50
# A field of a player's record in people's words (the change log names fields, never values).
FIELD_NAMES = {"name": gettext_lazy("Name"), "document_type": gettext_lazy("Identity document"),
               "document_number": gettext_lazy("Document number"), "document_country": gettext_lazy("Issuing country"),
               "date_of_birth": gettext_lazy("Date of birth"), "nationality": gettext_lazy("Nationality")}
FOUND_AT_MOST = 20


def _patron(request: HttpRequest, pk: int) -> Patron:
    require(request.user, "pit.view_patron")
    readable = privacy.readable_patrons(request.user).select_related("casino", "created_by", "changed_by")
    return get_object_or_404(readable, pk=pk)


@login_required
@require_GET
def patron_list(request: HttpRequest) -> HttpResponse:
    """Every player one may look up, newest first; search by name, and by document number for
    inspectors and managers."""
    require(request.user, "pit.view_patron")
    by_document = privacy.sees_personal_data(request.user)
    form = PatronSearchForm(request.GET or None, by_document=by_document)
    found = privacy.readable_patrons(request.user).select_related("casino").order_by("-created_at", "-pk")
    query = form.cleaned_data["q"].strip() if form.is_valid() else ""
    if query:
        match = Q(name__icontains=query)
        if by_document:
            match |= Q(document_number=normalise(Patron.HONG_KONG_ID, query)) | Q(
                document_number=normalise(Patron.PASSPORT, query))
        found = found.filter(match)
    page = Paginator(found, PER_PAGE).get_page(request.GET.get("page"))
    rows = [{"patron": patron, "label": patron_label(request.user, patron, readable=True),
             "document": privacy.mask_number(patron.document_number)} for patron in page]
    return render(request, "pit/patrons/list.html", {"form": form, "page": page, "rows": rows, "query": query,
                                                     "by_document": by_document})


@login_required
@require_GET
def patron_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A player: his record (personal data for inspectors and managers, the document read
    logged), who created and changed it, who read his document, and his movements by gaming
    day at the tables one sees, with each day's running totals."""
    patron = _patron(request, pk)
    personal = privacy.sees_personal_data(request.user)
    document = (privacy.read_document(request.user, patron, "pit:patron") if personal
                else privacy.mask_number(patron.document_number))
    # The running totals count every table, as the threshold does; the rows are the tables one sees.
    movements = list(Movement.objects.filter(patron=patron).select_related("table", "recorded_by")
                     .order_by("recorded_at", "table_id", "seq"))
    running = cash.running_totals(movements)
    seen = set(visible_tables(request.user).values_list("pk", flat=True))
    movements = [movement for movement in movements if movement.table_id in seen]
    days = [(day, [(movement, running[movement.pk]) for movement in rows])
            for day, rows in groupby(sorted(movements, key=lambda m: m.gaming_day, reverse=True),
                                     key=lambda m: m.gaming_day)]
    reads = (DocumentRead.objects.filter(patron=patron).select_related("read_by")[:PER_PAGE]
             if request.user.has_perm("pit.view_documentread") else None)
    return render(request, "pit/patrons/detail.html", {
        "patron": patron, "label": patron_label(request.user, patron, readable=True), "personal": personal,
        "document": document,
        "document_country": country_name(patron.document_country), "nationality": country_name(patron.nationality),
        "changes": [(change, ", ".join(str(FIELD_NAMES.get(name, name)) for name in change.fields))
                    for change in patron.changes.select_related("by")],
        "reads": reads, "days": days,
        "may_identify": _may_identify(request.user, patron),
    })


def _may_identify(user, patron: Patron) -> bool:
    return (patron.anonymised_at is None and user.has_perm("pit.identify_patron")
            and (privacy.sees_personal_data(user) or privacy.witnesses(user, patron)))


def _next(request: HttpRequest, patron: Patron) -> str:
    """Where to go after identifying: ?next= when it is a page of this site, else the player's page."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                                  require_https=request.is_secure()):
        return target
    return reverse("pit:patron", args=[patron.pk])


@login_required
@require_http_methods(["GET", "POST"])
def patron_identify(request: HttpRequest, pk: int) -> HttpResponse:
    """Record what identifies a player (DICJ Instruction n.º 1/2016): a supervisor for a player at
    his table in a game in progress, or an inspector or manager. The document on record is shown
    to him, the read logged."""
    require(request.user, "pit.identify_patron")
    # Another casino's player is not found, as one that does not exist (docs/casinos.md).
    patron = get_object_or_404(Patron.objects.select_related("casino").filter(casino__in=casinos_of(request.user)),
                               pk=pk)
    if not _may_identify(request.user, patron):
        raise PermissionDenied(_("You identify only a player seated at your table in a game in progress."))
    if request.method == "GET":
        form = IdentifyForm(initial={
            "document_type": patron.document_type, "document_country": patron.document_country,
            "document_number": privacy.read_document_as_witness(request.user, patron, "pit:patron_identify"),
            "date_of_birth": patron.date_of_birth, "nationality": patron.nationality})
        return _identify_page(request, patron, form)
    form = IdentifyForm(request.POST)
    if not form.is_valid():
        return _identify_page(request, patron, form, status=400)
    try:
        patrons.identify(patron=patron, user=request.user, **form.cleaned_data)
    except Refused as refused:
        return refused_form(refused, partial(_identify_page, request, patron, form), form)
    messages.success(request, _("%(player)s is identified.") % {"player": patron_label(request.user, patron)})
    return redirect(_next(request, patron))


def _identify_page(request, patron: Patron, form: IdentifyForm, *, problems=(), status: int = 200) -> HttpResponse:
    return render(request, "pit/patrons/identify.html", {
        "patron": patron, "label": patron_label(request.user, patron), "form": form, "problems": problems,
        "next": request.POST.get("next") or request.GET.get("next") or "",
        "missing": patron.missing_identification}, status=status)


@login_required
@require_GET
def patron_find(request: HttpRequest) -> JsonResponse:
    """The seating form's player picker: ?q= part of a name, ?table= the table being seated.
    Up to 20 players of the table's casino, [{"id", "label"}], each label the name as the reader
    sees it at that table (masked for a dealer) and the player's number. Inspectors, managers and
    supervisors find any player of the casino by part of his name; a dealer only by the whole
    name, so that masked answers to many questions never spell a name out."""
    user = request.user
    if not (user.has_perm("pit.view_patron") or user.has_perm("pit.view_table")):
        raise PermissionDenied(_("Your role does not allow this."))
    query = " ".join(request.GET.get("q", "").split())[:100]
    table_id = request.GET.get("table", "")
    table = (get_object_or_404(visible_tables(user), pk=int(table_id)) if table_id.isdecimal()
             else None)
    if len(query) < 2 or (table is None and not privacy.sees_personal_data(user)):
        return JsonResponse([], safe=False)
    found = Patron.objects.filter(anonymised_at__isnull=True, casino__in=casinos_of(user))
    if privacy.sees_personal_data(user) or user.has_perm(privacy.WITNESS):
        # The supervisor seating a player who played at another table picks his record, so that his
        # cash adds up over the day (C-2): he finds any player of the casino by part of the name.
        found = found.filter(name__icontains=query)
    else:  # a dealer finds a player only by his whole name: masked labels must not spell out others' names
        found = found.filter(name__iexact=query)
    if table is not None:
        found = found.filter(casino_id=table.casino_id)
    found = found.order_by("name", "pk")[:FOUND_AT_MOST]
    return JsonResponse([{"id": patron.pk, "label": _label_at(user, patron, table)} for patron in found], safe=False)


def _label_at(user, patron: Patron, table: Table | None) -> str:
    return _("%(name)s · player %(id)s") % {"name": privacy.shown_name(user, patron.name, table), "id": patron.pk}
