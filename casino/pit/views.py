"""The dealer's table screen: the tables a user may see, seating a game, entering a jogo with
a live preview from the engine, and the receipt of a recorded jogo.

Views stay thin: the forms gather input, `service` checks, scores and writes, and every error
shown is the one saving would give, with its article.
"""
from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

import regulation.rules
from casino.refusals import put_beside_fields, refused_form
from casino.terms.vocabulary import fan_item_name, rule_set_label, seat_name

from . import entry, errors, selectors, services
from .access import casinos_of, require, visible_tables
from .capital import below_minimum
from .explain import explain
from .forms import JogoForm, SeatForm, palette, problem_field
from .models import Game, Jogo, Table, superseded
from .privacy import mask_name, sees_names

RECENT = 8  # jogos of the game listed under the form


@login_required
def tables(request: HttpRequest) -> HttpResponse:
    """The tables the user may see; a counter, who sees none, is sent to the boxes to count."""
    if request.user.has_perm("count.count_box") and not request.user.has_perm("pit.view_table"):
        return redirect("counting:boxes")
    rows = visible_tables(request.user).select_related("casino").order_by("casino__name", "number")
    games = {game.table_id: game for game in Game.objects.filter(table__in=rows, ended_at__isnull=True)
             .annotate(played=Count("jogos", filter=Q(jogos__revision=0)))}
    return render(request, "pit/tables.html", {
        "tables": [(table, games.get(table.pk)) for table in rows],
        "can_record": request.user.has_perm("pit.record_at_table"),
    })


def _table(request: HttpRequest, pk: int, permission: str = "pit.view_table") -> Table:
    """The table `pk`, where the person's role and assignment allow `permission`. A table of a
    casino he is not given is not found, as one that does not exist: a refusal would tell him it
    exists (docs/casinos.md)."""
    table = get_object_or_404(Table.objects.select_related("casino").filter(casino__in=casinos_of(request.user)),
                              pk=pk)
    require(request.user, permission, table)
    return table


def shown_names(user, table: Table | int) -> Callable[[str], str]:
    """A player's name as `user` may see it at `table`: plain for a supervisor of the table, an
    inspector or a manager; masked for everyone else (casino/pit/privacy.py). Asked once."""
    return str if sees_names(user, table) else mask_name


def player_names(game, user) -> dict[int, str]:
    """Each chair's player (chair → name) as `user` may see him at the game's table."""
    shown = shown_names(user, game.table_id)
    return {player.chair: shown(player.name) for player in game.players.select_related("patron")}


def _seats(game, state, amounts, user) -> list[dict]:
    """Each chair of the game: player (as `user` may see him), seat wind this jogo, banker or
    not, capital at stake."""
    names = player_names(game, user)
    return [{"chair": chair, "name": names[chair], "seat": state.seat_of(chair),
             "seat_name": seat_name(state.seat_of(chair)), "banker": chair == state.banker,
             "capital": amounts[chair]}
            for chair in sorted(names, key=lambda c: (c - state.banker) % 4)]


def _jogo_form(table: Table, game, state, user, data=None) -> JogoForm:
    names = player_names(game, user)
    seats = {seat: f"{seat_name(seat)} · {names[chair]}" for seat, chair in state.seats.items()}
    return JogoForm(data, seats=seats, variant=table.variant,
                    initial={"key": uuid.uuid4().hex, "number": table.jogos_recorded + 1})


@login_required
def table(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(request, pk)
    return _table_page(request, table)


def _rule_sets() -> list[dict]:
    """The rule sets a supervisor may choose for a table, as the floor names them."""
    return [{"code": rules.code, "version": rules.version, "label": rule_set_label(rules.code, rules.version)}
            for rules in regulation.rules.RULE_SETS]


def needs_witness(user) -> bool:
    """Whether seating by `user` needs a supervisor to confirm it: the seating buy-ins are cash
    that the supervisor who witnesses it records (pit.move_money); a dealer has him confirm."""
    return not user.has_perm("pit.move_money")


def _seat_form(request, table: Table, data=None) -> SeatForm:
    return SeatForm(data, table=table, request=request, witness_needed=needs_witness(request.user))


def short_seats(table: Table, capital: list[int | None]) -> list[dict]:
    """The seats below the table's minimum capital (casino rule C-1), chair numbered 1–4 as
    people number them: each must top up, or the game end, before the next jogo."""
    return [{"chair": short.chair + 1, "capital": short.capital, "minimum": short.minimum,
             "missing": short.missing} for short in below_minimum(table, capital)]


def _table_page(request, table: Table, *, form: JogoForm | None = None, seat_form: SeatForm | None = None,
                problems=(), status: int = 200, **preview) -> HttpResponse:
    game = selectors.open_game(table)
    # A refused save is shown at the POST-only address: changing the language from there
    # lands on the table's own page (templates/base.html).
    context = {"table": table, "game": game, "problems": problems, "palette": palette(table.variant),
               "can_record": request.user.has_perm("pit.record_at_table"),
               "page_url": reverse("pit:table", args=[table.pk]), "rule_sets": _rule_sets(), **preview}
    if game is None:
        context["seat_form"] = seat_form or _seat_form(request, table)
    else:
        now = selectors.standing(game)
        state, amounts = now.progress, now.capital
        form = form or _jogo_form(table, game, state, request.user)
        form.mark_invalid()
        context.update(state=state, seats=_seats(game, state, amounts, request.user), form=form,
                       recent=_recent(game), short=short_seats(table, amounts))
    receipt = request.GET.get("receipt")
    if receipt and receipt.isdigit():
        context["receipt"] = Jogo.objects.filter(table=table, pk=receipt).select_related("game").first()
        context["receipt_items"] = grade_items(context["receipt"]) if context["receipt"] else []
    return render(request, "pit/table.html", context, status=status)


def grade_items(row: Jogo) -> list[dict]:
    """The fán items of a recorded jogo's grade, as its receipt lists them: each named in the
    user's language with its article (Art. 6) and fán; none for a chicken hand or a jogo not won."""
    return [{"name": fan_item_name(item["code"]), "article": item["article"], "fan": item["fan"]}
            for item in row.outcome.get("items", [])]


def _recent(game) -> list[Jogo]:
    """The game's last jogos, newest first, each at its current revision."""
    return list(Jogo.objects.filter(game=game).filter(~superseded()).order_by("-position")[:RECENT])


@login_required
@require_POST
def seat(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(request, pk, "pit.record_at_table")
    form = _seat_form(request, table, request.POST)
    if form.is_valid():
        try:
            services.start_game(table=table, user=request.user, players=form.players(),
                                first_banker=form.cleaned_data["first_banker"], witness=form.witness_user)
        except errors.Refused as refused:
            return refused_form(refused, partial(_table_page, request, table, seat_form=form), form,
                                field=form.field_of)
        messages.success(request, _("Game seated. The first jogo can be recorded."))
        return redirect("pit:table", pk=table.pk)
    return _table_page(request, table, seat_form=form, status=400)


@login_required
@require_POST
def end(request: HttpRequest, pk: int) -> HttpResponse:
    table = _table(request, pk, "pit.record_at_table")
    game = selectors.open_game(table)
    if game is not None:
        services.end_game(game=game, user=request.user)
        messages.success(request, _("Game ended."))
        return redirect("pit:game_summary", pk=game.pk)
    return redirect("pit:table", pk=table.pk)


def _entered(request, table: Table):
    """(form, record) of the jogo entered, on the ledger's header; record None when the form
    itself is incomplete; Refused when the table cannot take a jogo."""
    game, state, _amounts = services.next_jogo(table)
    form = _jogo_form(table, game, state, request.user, request.POST)
    if not form.is_valid():
        return form, None
    return form, form.record(selectors.record_header(game))


@login_required
@require_http_methods(["GET", "POST"])
def jogo(request: HttpRequest, pk: int) -> HttpResponse:
    """Preview (action=preview) or save (action=save) the jogo entered; this address read
    (a reload, a bookmark, a language change) is the table's page."""
    if request.method == "GET":
        return redirect("pit:table", pk=pk)
    table = _table(request, pk, "pit.record_at_table")
    saving = request.POST.get("action") == "save"
    if saving and (earlier := _saved_with(table, request.POST.get("key"))):
        return _receipt_redirect(earlier)  # the form was sent twice: the first send recorded it
    try:
        form, record = _entered(request, table)
    except errors.Refused as refused:  # the table cannot take a jogo now
        return refused_form(refused, partial(_table_page, request, table))
    if record is None:
        return _table_page(request, table, form=form, status=400)
    if not saving:
        return _preview_page(request, table, form, record)
    key = form.cleaned_data.get("key") or None
    try:
        row, _created = services.record_jogo(table=table, user=request.user, record=record, idempotency_key=key,
                                            number=form.cleaned_data.get("number"))
    except errors.Refused as refused:
        if (earlier := _saved_with(table, key)):
            return _receipt_redirect(earlier)  # a second send raced the first one and lost
        return refused_form(refused, partial(_table_page, request, table, form=form), form, field=problem_field)
    return _receipt_redirect(row)


def _saved_with(table: Table, key: str | None) -> Jogo | None:
    """The jogo this form already recorded: each form carries its own idempotency key."""
    return Jogo.objects.filter(table=table, idempotency_key=key).first() if key else None


def _receipt_redirect(row: Jogo) -> HttpResponse:
    return redirect(f"{reverse('pit:table', args=[row.table_id])}?receipt={row.pk}")


def _preview_context(table: Table, record: dict, user) -> dict:
    """What the preview shows: what the dealer has still to enter; else every problem saving
    would meet, or the engine's explained result with each chair's capital before and after."""
    missing = entry.still_to_enter(record=record) if isinstance(record, dict) else ()
    if missing:
        return {"missing": missing}
    try:
        preview = services.preview_jogo(table=table, record=record)
    except errors.Refused as refused:
        return {"problems": refused.problems}
    seats = _seats(preview.game, preview.state, preview.capital_before, user)
    for row in seats:
        row["after"] = preview.capital_after[row["chair"]]
    players = {row["seat"]: row["name"] for row in seats}
    return {"preview": preview, "explained": explain(preview.result, players), "preview_seats": seats}


def _preview_page(request, table, form, record) -> HttpResponse:
    context = _preview_context(table, record, request.user)
    put_beside_fields(form, context.get("problems", ()), field=problem_field)
    return _table_page(request, table, form=form, **context)


@login_required
@require_POST
def preview(request: HttpRequest, pk: int) -> HttpResponse:
    """The live preview's fragment, fetched by the screen's script as the dealer types."""
    table = _table(request, pk, "pit.record_at_table")
    try:
        form, record = _entered(request, table)
    except errors.Refused as refused:
        return render(request, "pit/_preview.html", {"problems": refused.problems})
    if record is None:
        return render(request, "pit/_preview.html", {"form": form})
    return render(request, "pit/_preview.html", {"form": form, **_preview_context(table, record, request.user)})


@login_required
def receipt(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable receipt of one revision of a jogo; a superseded revision's links to the
    jogo's current revision."""
    row = get_object_or_404(Jogo.objects.select_related("game", "table__casino", "recorded_by")
                            .filter(table__casino__in=casinos_of(request.user)), pk=pk)
    require(request.user, "pit.view_jogo", row.table)
    current = Jogo.objects.filter(table=row.table, number=row.number).order_by("-revision").first()
    return render(request, "pit/receipt.html", {"jogo": row, "superseded": current.pk != row.pk, "current": current,
                                                "receipt_items": grade_items(row)})
