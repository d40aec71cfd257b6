"""Recording at a table: seating a game, recording its jogos (and previewing one), buy-ins and
cash-outs, ending a game; opening and closing a table and changing its rule set. Each writes
under the table's lock, in one transaction (`ledger.py`).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from regulation.record import MAX_AMOUNT
from regulation.rotation import Progress
from regulation.rules import rule_set

from ..days import gaming_day
from ..errors import Refused, capital_article, chair_number, refuse, stored
from ..models import Game, GamingDay, Jogo, Movement, Player, Refusal, Table
from ..scoring import jogo_row, scored
from ..selectors import open_game, standing
from ..signals import happened, may_record
from .closing import day_closed_refusal, refuse_if_day_closed
from .ledger import append_row, locked_table, move_projection, projection

_JOGO_CHECKS = (f"SELECT (SELECT id FROM {Jogo._meta.db_table} WHERE table_id = %s AND idempotency_key = %s), "
                f"EXISTS (SELECT 1 FROM {GamingDay._meta.db_table} WHERE casino_id = %s AND day = %s AND closed)")


def _jogo_checks(table: Table, idempotency_key: str | None, day: dt.date) -> tuple[int | None, bool]:
    """What `record_jogo` checks once it holds the table's lock, in one query: the id of the
    jogo already recorded with `idempotency_key` (None if none, or no key), and whether the
    gaming day `day` is closed. Read after the lock, so a jogo or a closing committed while
    this request waited for it is seen. Plain SQL: the ORM took longer to write this query
    (about 2 ms) than the database to answer it."""
    with connection.cursor() as cursor:
        cursor.execute(_JOGO_CHECKS, [table.pk, idempotency_key, table.casino_id, day])
        earlier, closed = cursor.fetchone()
    return earlier, bool(closed)


def start_game(*, table: Table, user: User, players: list[dict], first_banker: int,
               at: dt.datetime | None = None) -> Game:
    """Seat the players (chair, name, capital) and choose the first banker (Art. 3)."""
    at = at or timezone.now()
    with transaction.atomic():
        table = locked_table(table)
        if not table.is_open:
            raise refuse(code="table_closed", template=gettext_noop("Table {table} is closed."), field="table",
                         table=table.number)
        refuse_off_duty(table, user, at)
        if open_game(table):
            raise refuse(code="game_in_progress", article="3", conflict=True, cite=True,
                         template=gettext_noop("table {table} already has a game in progress; end it before seating "
                                               "a new one."), table=table.number)
        _refuse_off_tier(table, table.rule_set_code, table.rule_set_version)
        chairs = [p["chair"] for p in players]
        allowed = (4,) if table.variant == "conventional" else (2, 3, 4)
        if len(players) not in allowed or len(set(chairs)) != len(chairs) or not set(chairs) <= {0, 1, 2, 3}:
            need = (gettext_noop("exactly 4 players") if table.variant == "conventional"
                    else gettext_noop("2 to 4 players"))
            raise refuse(code="seats", article="3", field="players", cite=True,
                         template=gettext_noop("the {variant} game is played by {need}, one per chair 1–4."),
                         variant=table.variant, need=need)
        if first_banker not in chairs:
            raise refuse(code="banker_absent", article="3", field="first_banker", cite=True,
                         template=gettext_noop("the first banker's chair {chair} is empty."),
                         chair=chair_number(first_banker))
        for index, player in enumerate(players):
            if not isinstance(player.get("capital"), int) or player["capital"] <= 0:
                article = capital_article(table.variant)
                raise refuse(code="capital", article=article, field=f"players[{index}].capital", cite=True,
                             template=gettext_noop("each player's capital at stake is a positive whole number of "
                                                   "currency units."))
            if player["capital"] > MAX_AMOUNT:  # the engine reads no capital above it: the table would freeze
                raise refuse(code="capital", article=capital_article(table.variant),
                             template=gettext_noop("a player's capital at stake is at most {most} currency units."),
                             field=f"players[{index}].capital", cite=True, most=MAX_AMOUNT)
        game = Game.objects.create(table=table, first_banker=first_banker, started_at=at, started_by=user)
        amounts = [None] * 4
        for player in players:
            amounts[player["chair"]] = player["capital"]
        seated = sorted(players, key=lambda p: p["chair"])
        for player in seated:
            Player.objects.create(game=game, chair=player["chair"], name=player["name"])
            last = player is seated[-1]
            append_row(table, Movement(game=game, chair=player["chair"], kind=Movement.BUY_IN, amount=player["capital"],
                                    after_jogos=0, recorded_at=at, recorded_by=user, gaming_day=gaming_day(at)),
                    moves=projection(game, Progress.start(chairs=chairs, banker=first_banker), 0, amounts)
                    if last else None)
        happened("game_started", table=table, subject=game, user=user, at=at)
        return game


def end_game(*, game: Game, user: User, at: dt.datetime | None = None) -> Game:
    """End a game whose players leave before its North round is over (I-2 ends a game by
    itself); the table then projects no game. Ending an ended game changes nothing."""
    at = at or timezone.now()
    with transaction.atomic():
        table = locked_table(game.table)
        game.refresh_from_db()
        if game.ended_at is None:
            game.ended_at, game.ended_by = at, user
            game.save(update_fields=["ended_at", "ended_by"])
        if table.game_id == game.pk:
            move_projection(table, projection(None))
            happened("game_ended", table=table, subject=game, user=user, at=at)
        return game


def move_money(*, game: Game, user: User, chair: int, kind: str, amount: int,
               at: dt.datetime | None = None) -> Movement:
    """A buy-in or cash-out between jogos: recorded as a movement, never an edit of a balance."""
    at = at or timezone.now()
    with transaction.atomic():
        table = locked_table(game.table)
        game.refresh_from_db()
        if game.ended_at is not None or table.game_id != game.pk:
            raise refuse(code="game_ended", article="3", conflict=True,
                         template=gettext_noop("Game {game} has ended; money moves only during a game."), game=game.pk)
        if not isinstance(amount, int) or amount <= 0:
            raise refuse(code="amount", field="amount",
                         template=gettext_noop("The amount is a positive whole number of currency units."))
        if kind not in (Movement.BUY_IN, Movement.CASH_OUT):
            raise refuse(code="kind", template=gettext_noop("The kind is buy_in or cash_out."), field="kind")
        amounts = list(table.game_capital)
        if chair not in range(4) or amounts[chair] is None:
            raise refuse(code="chair", article="3", field="chair",
                         template=gettext_noop("Chair {chair} has no player in game {game}."),
                         chair=chair_number(chair), game=game.pk)
        if kind == Movement.CASH_OUT and amount > amounts[chair]:
            raise refuse(code="amount", article=capital_article(table.variant), field="amount",
                         template=gettext_noop("Chair {chair} has {capital} at stake; a cash-out of {amount} is more "
                                               "than that."), chair=chair_number(chair), capital=amounts[chair],
                         amount=amount)
        if kind == Movement.BUY_IN and amounts[chair] + amount > MAX_AMOUNT:  # the engine's limit (record.py)
            raise refuse(code="amount", article=capital_article(table.variant),
                         template=gettext_noop("A buy-in of {amount} would bring the player's capital at stake from "
                                               "{capital} to more than {most}, the most it can be."), field="amount",
                         capital=amounts[chair], amount=amount, most=MAX_AMOUNT)
        movement = Movement(game=game, chair=chair, kind=kind, amount=amount, after_jogos=table.game_jogos,
                            recorded_at=at, recorded_by=user, gaming_day=gaming_day(at))
        amounts[chair] += movement.signed_amount
        append_row(table, movement, moves={"game_capital": amounts})
        happened("money_moved", table=table, subject=movement, user=user, at=at)
        return movement


def open_table(*, table: Table, user: User | None = None, at: dt.datetime | None = None) -> Table:
    """Open a table, so that games are seated at it."""
    with transaction.atomic():
        table = locked_table(table)
        table.is_open = True
        table.save(update_fields=["is_open"])
        happened("table_opened", table=table, user=user, at=at or timezone.now())
        return table


def close_table(*, table: Table, user: User | None = None, at: dt.datetime | None = None) -> Table:
    """Close a table; refused while a game is in progress there (end it first)."""
    with transaction.atomic():
        table = locked_table(table)
        if open_game(table):
            raise refuse(code="game_in_progress", article="3", conflict=True,
                         template=gettext_noop("Table {table} has a game in progress; end it before closing the "
                                               "table."), table=table.number)
        table.is_open = False
        table.save(update_fields=["is_open"])
        happened("table_closed", table=table, user=user, at=at or timezone.now())
        return table


def _refuse_off_tier(table: Table, code: str, version: int) -> None:
    """Art. 8: the table's tier X/2X must be one of its variant's under the rule set."""
    try:
        rules = rule_set(code, version)
    except LookupError:
        raise refuse(code="rule_set", field="rule_set",
                     template=gettext_noop("There is no rule set {rule_set} version {version}."), rule_set=code,
                     version=version) from None
    if table.stake not in rules.tiers(table.variant):
        raise refuse(code="table_stake", article="8", field="stake", cite=True,
                     template=gettext_noop("table {table} plays at {stake}/{double}, which is not a tier of the "
                                           "{variant} variant under the rule set {rule_set} version {version}."),
                     table=table.number, stake=table.stake, double=2 * table.stake, variant=table.variant,
                     rule_set=code, version=version)


@transaction.atomic
def change_rule_set(*, table: Table, code: str, version: int, user: User | None = None) -> Table:
    """The rule set the table's next jogos are scored under. The jogos already recorded keep the
    one that scored them, and the audit judges them by it. Refused while a game is in progress
    (a game is played under one rule set), for an unknown rule set, and when the table's tier is
    not one of the rule set's (Art. 8)."""
    table = locked_table(table)
    if open_game(table):
        raise refuse(code="game_in_progress", article="3", field="rule_set", conflict=True,
                     template=gettext_noop("Table {table} has a game in progress; end it before changing the rule "
                                           "set."), table=table.number)
    _refuse_off_tier(table, code, version)
    table.rule_set_code, table.rule_set_version = code, version
    table.save(update_fields=["rule_set_code", "rule_set_version"])
    happened("rule_set_changed", table=table, user=user, at=timezone.now())
    return table


def next_jogo(table: Table) -> tuple[Game, Progress, list[int | None]]:
    """The game in progress at the table, who plays its next jogo as what, and each chair's
    capital at stake; Refused when the table cannot take a jogo now."""
    if not table.is_open:
        raise refuse(code="table_closed", template=gettext_noop("Table {table} is closed."), conflict=True,
                     table=table.number)
    game = table.game  # the projection's game in progress
    if game is None:
        raise refuse(code="no_game", article="3", conflict=True, cite=True,
                     template=gettext_noop("table {table} has no game in progress; seat the players first."),
                     table=table.number)
    now = standing(game, table=table)
    return game, now.progress, now.capital


@dataclass(frozen=True)
class Preview:
    """What recording a record now would do: the engine's result and each chair's capital
    before and after."""

    game: Game
    state: Progress
    result: object  # regulation.jogo.Result
    capital_before: list[int | None]
    capital_after: list[int | None]


def preview_jogo(*, table: Table, record: dict) -> Preview:
    """Check and score `record` as the table's next jogo exactly as `record_jogo` would, and
    write nothing: the dealer's preview before saving. Refused with every problem."""
    refuse_if_day_closed(table, gaming_day(timezone.now()))
    game, state, amounts = next_jogo(table)
    parsed, result = scored(table, state, amounts, record, table.rules)
    row = jogo_row(state, amounts, record, parsed, result)
    return Preview(game, state, result, row.capital_before, row.capital_after)


def record_jogo(*, table: Table, user: User, record: dict, idempotency_key: str | None = None,
                number: int | None = None, at: dt.datetime | None = None) -> tuple[Jogo, bool]:
    """Validate a portable record (docs/record-format.md) as the table's next jogo and add it to the
    ledger. Returns (jogo, created); a retry with the same idempotency key returns the jogo
    first recorded with it, created False. `number`, when given, is the jogo number the caller
    means to record: refused (a conflict) unless it is the table's next, so that a record sent
    twice without a key, such as two identical draws, is not recorded twice."""
    at = at or timezone.now()
    try:
        with transaction.atomic():
            table = locked_table(table)
            day = gaming_day(at)
            earlier, day_closed = _jogo_checks(table, idempotency_key, day)
            if earlier is not None:
                earlier = Jogo.objects.get(pk=earlier)
                if earlier.record != record:
                    raise refuse(code="idempotency_key",
                                 template=gettext_noop("The idempotency key {key} was used for jogo {jogo}, with "
                                                       "another record."), field="idempotency_key", conflict=True,
                                 key=repr(idempotency_key), jogo=earlier.number)
                return earlier, False
            if number is not None and number != table.jogos_recorded + 1:
                raise refuse(code="stale_number", field="jogo_number", conflict=True,
                             template=gettext_noop("The table's next jogo is number {current}, not {number}: jogo "
                                                   "{number} may be recorded already. Check the table before "
                                                   "recording again."), current=table.jogos_recorded + 1, number=number)
            if day_closed:
                raise day_closed_refusal(day)
            refuse_off_duty(table, user, at)
            game, state, amounts = next_jogo(table)
            parsed, result = scored(table, state, amounts, record, table.rules)
            position = table.game_jogos + 1
            row = jogo_row(state, amounts, record, parsed, result, game=game, number=table.jogos_recorded + 1,
                            position=position, idempotency_key=idempotency_key or None,
                            recorded_at=at, recorded_by=user, gaming_day=day)
            after = state.after(banker_moves=result.banker_moves)
            append_row(table, row, jogo=True, moves=projection(game, after, position, row.capital_after))
            if after.complete:
                game.ended_at = at  # I-2: the North round is over
                game.save(update_fields=["ended_at"])
            happened("jogo_recorded", table=table, subject=row, user=user, at=at)
            return row, True
    except Refused as refused:
        with transaction.atomic():
            kept = Refusal.objects.create(table=table, attempted_at=at, attempted_by=user, record=_storable(record),
                                          errors=[stored(problem) for problem in refused.problems])
            happened("jogo_refused", table=table, subject=kept, user=user, at=at)
        raise


def refuse_off_duty(table: Table, user: User, at: dt.datetime) -> None:
    """Refuse a person who may not record at `table` at `at`: what the receivers of `may_record`
    answer (the count: the rotation log decides who deals where)."""
    problems = [problem for _receiver, answer in may_record.send(sender=Table, table=table, user=user, at=at)
                for problem in answer or ()]
    if problems:
        raise Refused(*problems)


def _storable(record):
    """What of a refused request can be kept: JSON values as they came, anything else as text."""
    return record if isinstance(record, (dict, list)) else {"unreadable": repr(record)[:1000]}
