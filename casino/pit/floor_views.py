"""The floor's screens around the dealer's table: buy-ins and cash-outs, opening and closing a
table, the end-of-game summary, the table's history and day summary, and the refused attempts.

Who: the supervisor of a table records the buy-ins and cash-outs he witnesses (pit.move_money)
and opens and closes his tables (pit.open_close_table); supervisors, inspectors and managers
read the refusals (pit.view_refusal), and a supervisor of the table confirms another person's
(pit.confirm_refusal); everyone who may see a table reads its history and summaries. Views stay
thin: `service` writes, `selectors` reads.
"""
from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from casino.refusals import refused_action, refused_form
from casino.terms.vocabulary import localise, result_name, rule_set_label, seat_name

from . import cash, confirmation, errors, selectors, services
from .access import casinos_of, require, visible_tables
from .day_forms import GamingDayPeriodForm
from .days import gaming_day, today
from .floor_forms import FindJogoForm, MoneyForm, RefusalsForm
from .models import Game, Movement, Refusal, Table
from .services.recording import IDENTIFICATION_NEEDED
from .views import _seats, _table, shown_names

REFUSALS_PER_PAGE = 50


# --- Buy-in and cash-out -------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def money(request: HttpRequest, pk: int) -> HttpResponse:
    """A buy-in or cash-out at the table's game in progress; after it, its receipt with each
    chair's capital before and after."""
    table = _table(request, pk, "pit.move_money")
    game = selectors.open_game(table)
    if game is None:
        messages.error(request, _("Table %(table)s has no game in progress.") % {"table": table.number})
        return redirect("pit:table", pk=table.pk)
    now = selectors.standing(game)
    seats = sorted(_seats(game, now.progress, now.capital, request.user), key=lambda seat: seat["chair"])
    # ?chair=&kind=&amount= fill the form again: the way back from identifying a player.
    asked = {name: request.GET[name] for name in ("chair", "kind", "amount") if name in request.GET}
    form = MoneyForm(request.POST if request.method == "POST" else None, seats=seats, initial=asked or None)
    if not form.is_bound:
        return _money_page(request, table, game, seats, form)
    if not form.is_valid():
        return _money_page(request, table, game, seats, form, status=400)
    try:
        movement = services.move_money(game=game, user=request.user, **form.cleaned_data)
    except errors.Refused as refused:
        identify = _identify_first(refused, game, table, form.cleaned_data)
        return refused_form(refused, partial(_money_page, request, table, game, seats, form, identify=identify), form)
    return redirect(f"{reverse('pit:money', args=[table.pk])}?movement={movement.pk}")


def _identify_first(refused: errors.Refused, game: Game, table: Table, entered: dict) -> str | None:
    """Where to identify the player a movement was refused for (DICJ Instruction n.º 1/2016: the
    threshold reached by a player not identified), coming back to this page with the movement
    typed again; None for any other refusal."""
    if not any(problem.code == IDENTIFICATION_NEEDED for problem in refused.problems):
        return None
    player = game.players.filter(chair=entered["chair"]).first()
    if player is None:
        return None
    again = f"{reverse('pit:money', args=[table.pk])}?{urlencode(entered)}"
    return f"{reverse('pit:patron_identify', args=[player.patron_id])}?{urlencode({'next': again})}"


def day_totals(game: Game, seats: list[dict]) -> list[dict]:
    """Each seated player's buy-ins and cash-outs over today's gaming day at every table, against
    the large-transaction threshold (casino/pit/cash.py), and whether he is identified."""
    day, limit = today(), cash.threshold()
    patrons = {player.chair: player.patron for player in game.players.select_related("patron")}
    rows = []
    for seat in seats:
        patron = patrons[seat["chair"]]
        bought, cashed = (cash.day_total(patron, day, kind) for kind in (Movement.BUY_IN, Movement.CASH_OUT))
        rows.append({**seat, "patron": patron, "buy_in": bought, "cash_out": cashed, "threshold": limit,
                     "buy_in_reached": bought >= limit, "cash_out_reached": cashed >= limit,
                     "identified": patron.identified})
    return rows


def _money_page(request, table, game, seats: list[dict], form: MoneyForm, *, problems=(),
                identify: str | None = None, status: int = 200) -> HttpResponse:
    """The money page: the form, each chair's capital now and its player's day against the
    threshold, the game's movements, and the receipt of the movement named by ?movement= (the one
    just recorded); after a refusal for want of identification, the way to identify the player."""
    moved = request.GET.get("movement", "")
    done = (Movement.objects.filter(game=game, pk=moved).select_related("recorded_by").first()
            if moved.isdigit() else None)
    around = None
    if done is not None:
        before, after = selectors.capital_around(done)
        around = [{**seat, "before": before[seat["chair"]], "after": after[seat["chair"]]} for seat in seats]
    names = {seat["chair"]: seat["name"] for seat in seats}
    movements = game.movements.select_related("recorded_by").order_by("seq")
    back = reverse("pit:money", args=[table.pk])
    return render(request, "pit/floor/money.html", {
        "table": table, "game": game, "seats": seats, "form": form, "problems": problems, "done": done,
        "around": around, "movements": [(movement, names.get(movement.chair, "")) for movement in movements],
        "identify": identify, "totals": day_totals(game, seats), "back": urlencode({"next": back}),
    }, status=status)


# --- Opening and closing a table -----------------------------------------------------------------

@login_required
@require_POST
def open_close(request: HttpRequest, pk: int, is_open: bool) -> HttpResponse:
    table = _table(request, pk, "pit.open_close_table")
    # Closing stops the table's play: ask first, unless the service refuses it anyway (a game in progress).
    if not is_open and not confirmation.confirmed(request) and selectors.open_game(table) is None:
        return confirmation.ask(
            request, question=_("Close table %(table)s?") % {"table": table.number},
            consequence=_("No game can start and no jogo can be recorded at the table until it is opened again."),
            button=_("Yes, close the table"), back=reverse("pit:table", args=[table.pk]))
    try:
        (services.open_table if is_open else services.close_table)(table=table, user=request.user)
    except errors.Refused as refused:
        return refused_action(request, refused, "pit:table", pk=table.pk)
    done = _("Table %(table)s is open.") if is_open else _("Table %(table)s is closed.")
    messages.success(request, done % {"table": table.number})
    return redirect("pit:table", pk=table.pk)


# --- The rule set a table runs under ------------------------------------------------------------

@login_required
@require_POST
def change_rule_set(request: HttpRequest, pk: int) -> HttpResponse:
    """Between games, the supervisor chooses the rule set the table's next jogos are scored
    under (`rule_set` is "code@version"); the jogos recorded keep theirs."""
    table = _table(request, pk, "pit.change_rule_set")
    code, _at, version = request.POST.get("rule_set", "").rpartition("@")
    try:
        services.change_rule_set(table=table, code=code, version=int(version) if version.isdigit() else 0,
                                 user=request.user)
    except errors.Refused as refused:
        return refused_action(request, refused, "pit:table", pk=table.pk)
    messages.success(request, _("Table %(table)s now runs under %(rule_set)s; the jogos recorded keep the rule "
                                "set that scored them.") % {
        "table": table.number, "rule_set": rule_set_label(code, int(version))})
    return redirect("pit:table", pk=table.pk)


# --- The end of a game ---------------------------------------------------------------------------

@login_required
def game_summary(request: HttpRequest, pk: int) -> HttpResponse:
    """The end-of-game summary, printable."""
    game = get_object_or_404(Game.objects.select_related("table__casino", "started_by", "ended_by")
                             .filter(table__casino__in=casinos_of(request.user)), pk=pk)
    require(request.user, "pit.view_game", game.table)
    summary = selectors.game_summary(game, seat_name=seat_name)
    return render(request, "pit/floor/game_summary.html", {"summary": summary, "table": game.table, "game": game})


# --- A table's history and day -------------------------------------------------------------------

@login_required
def history(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's jogos of a gaming day; or every revision of the jogo with the number asked."""
    table = _table(request, pk, "pit.view_jogo")
    days, find = GamingDayPeriodForm(request.GET or None, default=today()), FindJogoForm(request.GET or None)
    number = find.cleaned_data.get("number") if find.is_valid() else None
    day = days.cleaned_data["day"] if days.is_valid() else today()
    rows = selectors.table_history(table, day=day, number=number, shown=shown_names(request.user, table))
    bad = bool(request.GET) and not (days.is_valid() and find.is_valid())
    return render(request, "pit/floor/history.html", {"table": table, "days": days, "find": find, "day": day,
                                                      "number": number, "rows": rows}, status=400 if bad else 200)


@login_required
def day_summary(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's gaming day, or a time range of it (a shift): jogos, commission, each player's
    net. Printable."""
    table = _table(request, pk, "pit.view_jogo")
    days = GamingDayPeriodForm(request.GET or None, default=today())
    if days.is_bound and not days.is_valid():
        return render(request, "pit/floor/day.html", {"table": table, "days": days}, status=400)
    data = days.cleaned_data if days.is_bound else {"day": today()}
    figures = selectors.table_day(table, data["day"], start=data.get("start"), end=data.get("end"))
    return render(request, "pit/floor/day.html", {"table": table, "days": days, "figures": figures})


# --- Refused attempts ----------------------------------------------------------------------------

@login_required
@permission_required("pit.view_refusal", raise_exception=True)
def refusals(request: HttpRequest) -> HttpResponse:
    """Every refused attempt at the tables the reader may see, with its errors, newest first."""
    tables = visible_tables(request.user).select_related("casino").order_by("casino__name", "number")
    form = RefusalsForm(request.GET or None, default=today(), tables=tables)
    if form.is_bound and not form.is_valid():
        return render(request, "pit/floor/refusals.html", {"form": form}, status=400)
    day, table = (form.cleaned_data["day"], form.cleaned_data["table"]) if form.is_bound else (today(), None)
    page = Paginator(selectors.refusals(tables, day=day, table=table), REFUSALS_PER_PAGE).get_page(
        request.GET.get("page"))
    rows = [(refusal, _attempt(refusal.record),
             [localise(problem) for problem in selectors.refusal_problems(refusal)]) for refusal in page]
    return render(request, "pit/floor/refusals.html", {"form": form, "table": table, "day": day, "page": page,
                                                       "rows": rows, "may_confirm": _may_confirm(request.user)})


def _may_confirm(user) -> set[int]:
    """The tables at which the user may confirm refused attempts (his assigned ones, at his casinos)."""
    if not user.has_perm("pit.confirm_refusal"):
        return set()
    return set(Table.objects.filter(staff=user, casino__in=casinos_of(user)).values_list("pk", flat=True))


@login_required
@require_POST
def confirm_refusal(request: HttpRequest, pk: int) -> HttpResponse:
    """A supervisor of the table confirms another person's refused attempt, with a note."""
    refusal = get_object_or_404(Refusal.objects.select_related("table")
                                .filter(table__casino__in=casinos_of(request.user)), pk=pk)
    require(request.user, "pit.confirm_refusal", refusal.table)
    back = f"{reverse('pit:refusals')}?day={gaming_day(refusal.attempted_at).isoformat()}"
    try:
        services.confirm_refusal(refusal=refusal, user=request.user, note=request.POST.get("note", ""))
    except errors.Refused as refused:
        return refused_action(request, refused, back)
    messages.success(request, _("Refused attempt confirmed."))
    return redirect(back)


def _attempt(record) -> str:
    """What a refused record tried to record ("Won · South": the result and the winner's seat),
    as far as it can be read."""
    if not isinstance(record, dict):
        return ""
    words = []
    if record.get("result") in ("win", "draw", "false_win"):
        words.append(result_name(record["result"]))
    if record.get("winner") in ("E", "S", "W", "N"):
        words.append(seat_name(record["winner"]))
    return " · ".join(words)
