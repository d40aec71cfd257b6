"""The pit's writes: every write to the ledger goes through here, in one transaction, under the
table's row lock; so do closing and reopening a gaming day, opening and closing a table, the
inspectors' flags and the confirmations of refused attempts. Each takes keyword arguments only.

Each function either does all it says or raises `Refused` (errors.py) having written nothing
to the ledger (a refused jogo is kept in `Refusal` so inspectors see the attempt). The reads are
in `selectors.py`.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import msgspec

from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from casino.terms.vocabulary import CARRIED_REASON
from regulation import MalformedRecord, read_record, score
from regulation.jogo import SEAT_NAMES
from regulation.record import MAX_AMOUNT
from regulation.rotation import Progress
from regulation.rules import RuleSet, rule_set

from .chain import GENESIS, row_hash
from .days import gaming_day
from .errors import Problem, Refused, capital_article, chair_number, refuse, stored
from .models import (Amendment, Casino, DayEvent, Flag, FlagComment, Game, GamingDay, Jogo, LedgerRow, Movement,
                     Player, Refusal, RefusalConfirmation, Table)
from .recheck import capital_after
from .selectors import (current_jogos, last_jogo, open_game, projected, replayed_capital, replayed_progress,
                        with_movements)
from .signals import correction_approved, day_closing


# --- Gaming days ---------------------------------------------------------------------------------

CLOSE_GAMING_DAY = "pit.close_gaming_day"  # a manager's (roles.py)


def refuse_if_day_closed(table: Table, day: dt.date) -> None:
    """A gaming day its casino's manager has closed (`close_day`) takes no new jogo and no
    amendment until a manager reopens it, with a reason."""
    if GamingDay.objects.filter(casino_id=table.casino_id, day=day, closed=True).exists():
        raise _day_closed(day)


def _day_closed(day: dt.date) -> Refused:
    return refuse("day_closed", None, gettext_noop("The gaming day {day} is closed; a manager must reopen it, "
                                                   "with a reason, before its jogos change."), "gaming_day",
                  conflict=True, day=day.isoformat())


def _locked_day(casino: Casino, day: dt.date) -> GamingDay:
    """The day's state row, created open if need be, locked until the transaction ends. Every
    table of the casino is locked first (in one order, as the recording service locks one), so
    no jogo or amendment is half-way through its transaction when the day changes state."""
    list(Table.objects.select_for_update().filter(casino=casino).order_by("pk").values_list("pk", flat=True))
    GamingDay.objects.get_or_create(casino=casino, day=day)
    return GamingDay.objects.select_for_update().get(casino=casino, day=day)


def close_day(*, casino: Casino, day: dt.date, user: User, note: str = "", override_reason: str = "",
              at: dt.datetime | None = None) -> GamingDay:
    """A manager closes a gaming day after review: from then on the pit refuses new jogos of
    that day and amendments of its jogos, until the day is reopened with a reason.

    The other apps say what still holds the day (`signals.day_closing`; the count: each
    commission box not yet counted). A held day is refused, naming each problem, unless a
    manager states why he closes it all the same (`override_reason`, ignored when nothing holds
    the day): the close event keeps his reason and the problems it covers (`DayEvent`)."""
    at = at or timezone.now()
    if day >= gaming_day(at):
        raise refuse("day_not_over", None, gettext_noop("The gaming day {day} is not over yet; a day is closed "
                                                        "after it ends."), "gaming_day", day=day.isoformat())
    reason = (override_reason or "").strip()
    with transaction.atomic():
        state = _locked_day(casino, day)
        if state.closed:
            raise refuse("day_closed", None, gettext_noop("The gaming day {day} is already closed."), "gaming_day",
                         conflict=True, day=day.isoformat())
        held = [problem for _receiver, problems in day_closing.send(sender=GamingDay, casino=casino, day=day)
                for problem in problems or ()]
        if held and not reason:
            raise Refused(*held, Problem.of(
                "override_reason", None, gettext_noop("Reason for closing anyway: to close the gaming day {day} all "
                                                      "the same, a manager states the reason."),
                "override_reason", day=day.isoformat()), conflict=True)
        if held and not user.has_perm(CLOSE_GAMING_DAY):
            raise Refused(*held, Problem.of(
                "override_by_manager", None, gettext_noop("Reason for closing anyway: only a manager closes a gaming "
                                                          "day all the same."), "override_reason"), conflict=True)
        state.closed = True
        state.save(update_fields=["closed"])
        DayEvent.objects.create(gaming_day=state, action=DayEvent.CLOSED, by=user, at=at, reason=note.strip(),
                                override_reason=reason if held else "", overridden=[stored(p) for p in held])
        return state


def reopen_day(*, casino: Casino, day: dt.date, user: User, reason: str, at: dt.datetime | None = None) -> GamingDay:
    """Reopen a closed gaming day, so that its jogos may be amended; the reason is required."""
    at = at or timezone.now()
    if not reason or not reason.strip():
        raise refuse("reason", None, gettext_noop("Reopening a gaming day states its reason."), "reason")
    with transaction.atomic():
        state = _locked_day(casino, day)
        if not state.closed:
            raise refuse("day_open", None, gettext_noop("The gaming day {day} is open; only a closed day is "
                                                        "reopened."), "gaming_day", conflict=True, day=day.isoformat())
        state.closed = False
        state.save(update_fields=["closed"])
        DayEvent.objects.create(gaming_day=state, action=DayEvent.REOPENED, by=user, at=at, reason=reason.strip())
        return state


# --- Writing the ledger --------------------------------------------------------------------------

def _locked(table: Table) -> Table:
    """The table's row, with its game in progress, locked until the transaction ends: one writer
    per table at a time, so sequence numbers stay gapless and no balance update is lost."""
    return Table.objects.select_for_update(of=("self",)).select_related("game").get(pk=table.pk)


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


_JOGO_CHECKS = (f"SELECT (SELECT id FROM {Jogo._meta.db_table} WHERE table_id = %s AND idempotency_key = %s), "
                f"EXISTS (SELECT 1 FROM {GamingDay._meta.db_table} WHERE casino_id = %s AND day = %s AND closed)")


def _projection(game: Game | None, state: Progress | None = None, jogos: int = 0,
                amounts: list[int | None] | None = None) -> dict:
    """The table's fields that say where its game in progress stands; empty for no game (none
    seated, or the game just completed, I-2)."""
    if game is None or state.complete:
        return {"game": None, "game_jogos": 0, "game_banker": None, "game_round_wind": "", "game_capital": []}
    return {"game": game, "game_jogos": jogos, "game_banker": state.banker, "game_round_wind": state.round_wind,
            "game_capital": list(amounts)}


def _project(table: Table, moves: dict) -> None:
    for name, value in moves.items():
        setattr(table, name, value)
    Table.objects.filter(pk=table.pk).update(**moves)


def _append(table: Table, row: LedgerRow, *, jogo: bool = False, moves: dict | None = None) -> None:
    """Add a row at the end of the table's chain and move the table's head; `moves` are more of
    the table's fields (the projection) set in the same UPDATE."""
    row.table = table
    row.seq = table.ledger_seq + 1
    row.prev_hash = table.ledger_head or GENESIS
    row.hash = row_hash(row)
    row.save()
    table.ledger_seq, table.ledger_head = row.seq, row.hash
    if jogo and row.revision == 0:
        table.jogos_recorded += 1
    _project(table, {"ledger_seq": table.ledger_seq, "ledger_head": table.ledger_head,
                     "jogos_recorded": table.jogos_recorded, **(moves or {})})


def start_game(*, table: Table, user: User, players: list[dict], first_banker: int,
               at: dt.datetime | None = None) -> Game:
    """Seat the players (chair, name, capital) and choose the first banker (Art. 3)."""
    at = at or timezone.now()
    with transaction.atomic():
        table = _locked(table)
        if not table.is_open:
            raise refuse("table_closed", None, gettext_noop("Table {table} is closed."), "table",
                         table=table.number)
        if open_game(table):
            raise refuse("game_in_progress", "3", gettext_noop("table {table} already has a game in progress; "
                                                               "end it before seating a new one."),
                         conflict=True, cite=True, table=table.number)
        _refuse_off_tier(table, table.rule_set_code, table.rule_set_version)
        chairs = [p["chair"] for p in players]
        allowed = (4,) if table.variant == "conventional" else (2, 3, 4)
        if len(players) not in allowed or len(set(chairs)) != len(chairs) or not set(chairs) <= {0, 1, 2, 3}:
            need = (gettext_noop("exactly 4 players") if table.variant == "conventional"
                    else gettext_noop("2 to 4 players"))
            raise refuse("seats", "3", gettext_noop("the {variant} game is played by {need}, one per chair 1–4."),
                         "players", cite=True, variant=table.variant, need=need)
        if first_banker not in chairs:
            raise refuse("banker_absent", "3", gettext_noop("the first banker's chair {chair} is empty."),
                         "first_banker", cite=True, chair=chair_number(first_banker))
        for index, player in enumerate(players):
            if not isinstance(player.get("capital"), int) or player["capital"] <= 0:
                article = capital_article(table.variant)
                raise refuse("capital", article, gettext_noop("each player's capital at stake is a positive "
                                                              "whole number of currency units."),
                             f"players[{index}].capital", cite=True)
            if player["capital"] > MAX_AMOUNT:  # the engine reads no capital above it: the table would freeze
                raise refuse("capital", capital_article(table.variant),
                             gettext_noop("a player's capital at stake is at most {most} currency units."),
                             f"players[{index}].capital", cite=True, most=MAX_AMOUNT)
        game = Game.objects.create(table=table, first_banker=first_banker, started_at=at, started_by=user)
        amounts = [None] * 4
        for player in players:
            amounts[player["chair"]] = player["capital"]
        seated = sorted(players, key=lambda p: p["chair"])
        for player in seated:
            Player.objects.create(game=game, chair=player["chair"], name=player["name"])
            last = player is seated[-1]
            _append(table, Movement(game=game, chair=player["chair"], kind=Movement.BUY_IN, amount=player["capital"],
                                    after_jogos=0, recorded_at=at, recorded_by=user, gaming_day=gaming_day(at)),
                    moves=_projection(game, Progress.start(chairs=chairs, banker=first_banker), 0, amounts)
                    if last else None)
        return game


def open_table(*, table: Table) -> Table:
    """Open a table, so that games are seated at it."""
    with transaction.atomic():
        table = _locked(table)
        table.is_open = True
        table.save(update_fields=["is_open"])
        return table


def close_table(*, table: Table) -> Table:
    """Close a table; refused while a game is in progress there (end it first)."""
    with transaction.atomic():
        table = _locked(table)
        if open_game(table):
            raise refuse("game_in_progress", "3", gettext_noop("Table {table} has a game in progress; end it "
                                                               "before closing the table."),
                         conflict=True, table=table.number)
        table.is_open = False
        table.save(update_fields=["is_open"])
        return table


def _refuse_off_tier(table: Table, code: str, version: int) -> None:
    """Art. 8: the table's tier X/2X must be one of its variant's under the rule set."""
    try:
        rules = rule_set(code, version)
    except LookupError:
        raise refuse("rule_set", None, gettext_noop("There is no rule set {rule_set} version {version}."), "rule_set",
                     rule_set=code, version=version) from None
    if table.stake not in rules.tiers(table.variant):
        raise refuse("table_stake", "8", gettext_noop("table {table} plays at {stake}/{double}, which is not a tier "
                                                      "of the {variant} variant under the rule set {rule_set} "
                                                      "version {version}."), "stake", cite=True, table=table.number,
                     stake=table.stake, double=2 * table.stake, variant=table.variant, rule_set=code, version=version)


@transaction.atomic
def change_rule_set(*, table: Table, code: str, version: int) -> Table:
    """The rule set the table's next jogos are scored under. The jogos already recorded keep the
    one that scored them, and the audit judges them by it. Refused while a game is in progress
    (a game is played under one rule set), for an unknown rule set, and when the table's tier is
    not one of the rule set's (Art. 8)."""
    table = _locked(table)
    if open_game(table):
        raise refuse("game_in_progress", "3", gettext_noop("Table {table} has a game in progress; end it before "
                                                           "changing the rule set."), "rule_set", conflict=True,
                     table=table.number)
    _refuse_off_tier(table, code, version)
    table.rule_set_code, table.rule_set_version = code, version
    table.save(update_fields=["rule_set_code", "rule_set_version"])
    return table


def end_game(*, game: Game, user: User, at: dt.datetime | None = None) -> Game:
    at = at or timezone.now()
    with transaction.atomic():
        table = _locked(game.table)
        game.refresh_from_db()
        if game.ended_at is None:
            game.ended_at, game.ended_by = at, user
            game.save(update_fields=["ended_at", "ended_by"])
        if table.game_id == game.pk:
            _project(table, _projection(None))
        return game


def move_money(*, game: Game, user: User, chair: int, kind: str, amount: int,
               at: dt.datetime | None = None) -> Movement:
    """A buy-in or cash-out between jogos: recorded as a movement, never an edit of a balance."""
    at = at or timezone.now()
    with transaction.atomic():
        table = _locked(game.table)
        game.refresh_from_db()
        if game.ended_at is not None or table.game_id != game.pk:
            raise refuse("game_ended", "3", gettext_noop("Game {game} has ended; money moves only during a game."),
                         conflict=True, game=game.pk)
        if not isinstance(amount, int) or amount <= 0:
            raise refuse("amount", None, gettext_noop("The amount is a positive whole number of currency units."),
                         "amount")
        if kind not in (Movement.BUY_IN, Movement.CASH_OUT):
            raise refuse("kind", None, gettext_noop("The kind is buy_in or cash_out."), "kind")
        amounts = list(table.game_capital)
        if chair not in range(4) or amounts[chair] is None:
            raise refuse("chair", "3", gettext_noop("Chair {chair} has no player in game {game}."), "chair",
                         chair=chair_number(chair), game=game.pk)
        if kind == Movement.CASH_OUT and amount > amounts[chair]:
            raise refuse("amount", capital_article(table.variant),
                         gettext_noop("Chair {chair} has {capital} at stake; a cash-out of {amount} is more than "
                                      "that."), "amount", chair=chair_number(chair), capital=amounts[chair],
                         amount=amount)
        if kind == Movement.BUY_IN and amounts[chair] + amount > MAX_AMOUNT:  # the engine's limit (record.py)
            raise refuse("amount", capital_article(table.variant),
                         gettext_noop("A buy-in of {amount} would bring the player's capital at stake from "
                                      "{capital} to more than {most}, the most it can be."), "amount",
                         capital=amounts[chair], amount=amount, most=MAX_AMOUNT)
        movement = Movement(game=game, chair=chair, kind=kind, amount=amount, after_jogos=table.game_jogos,
                            recorded_at=at, recorded_by=user, gaming_day=gaming_day(at))
        amounts[chair] += movement.signed_amount
        _append(table, movement, moves={"game_capital": amounts})
        return movement


def _check_against_table(table: Table, state: Progress, amounts: list[int | None], jogo) -> list[Problem]:
    """The record must describe this table's next jogo: variant, tier, round wind, seats and
    each seat's capital as the ledger has them (Art. 2, 3, 8, 9(a)(4) or 9(b)(3))."""
    problems = []
    article = capital_article(table.variant)
    if jogo.variant != table.variant:
        problems.append(Problem.of("table_variant", "2",
                                   gettext_noop("table {table} plays the {variant} variant; the record says "
                                                "{recorded}."), "variant", cite=True,
                                   table=table.number, variant=table.variant, recorded=jogo.variant))
    if jogo.stake != table.stake:
        problems.append(Problem.of("table_stake", "8",
                                   gettext_noop("table {table} plays at {stake}/{double}; the record says "
                                                "{recorded}/{recorded_double}."), "stake", cite=True,
                                   table=table.number, stake=table.stake, double=2 * table.stake,
                                   recorded=jogo.stake, recorded_double=2 * jogo.stake))
    if jogo.round_wind != state.round_wind:
        problems.append(Problem.of("round_wind", "3",
                                   gettext_noop("Art. 3 (I-2): this jogo is played in the {round} round; the record "
                                                "says {recorded}."), "round_wind",
                                   round=state.round_wind, recorded=jogo.round_wind))
    seats = state.seats
    if set(jogo.capital) != set(seats):
        problems.append(Problem.of("seats", "3",
                                   gettext_noop("the seated seat winds are {seats}; the record has capital for "
                                                "{recorded}."), "capital", cite=True,
                                   seats=", ".join(seats), recorded=", ".join(jogo.capital)))
    else:
        for seat, chair in seats.items():
            if jogo.capital[seat] != amounts[chair]:
                problems.append(Problem.of("capital", article,
                                           gettext_noop("{seat} (chair {chair}) has {capital} at stake; the record "
                                                        "says {recorded}."), f"capital.{seat}", cite=True,
                                           seat=SEAT_NAMES[seat], chair=chair_number(chair), capital=amounts[chair],
                                           recorded=jogo.capital[seat]))
    return problems


def _score(table: Table, state: Progress, amounts: list[int | None], record: dict, rules: RuleSet | None = None):
    """Read, check against the table and score a record under `rules` (the corrected jogo's own
    for an amendment; by default the table's, for a new jogo): (jogo, result) or Refused."""
    try:
        jogo = read_record(record)
    except MalformedRecord as error:
        raise Refused(Problem("malformed_record", None, f"{error.field}: {error.message}" if error.field else
                              error.message, error.template, error.params, error.field or None))
    problems = _check_against_table(table, state, amounts, jogo)
    result = score(jogo, rules or table.rules)
    problems += result.breaches  # the engine's breaches are refusals as they are
    if problems:
        raise Refused(*problems)
    return jogo, result


def _jogo_row(state: Progress, amounts: list[int | None], record: dict, jogo, result, **fields) -> Jogo:
    outcome = result.as_dict()
    after = capital_after(state.banker, jogo.capital, result.settlement.net)
    return Jogo(banker_chair=state.banker, round_wind=state.round_wind, record=record, outcome=outcome,
                result=jogo.result, winner_chair=state.chair_of(jogo.winner) if jogo.result == "win" else None,
                fan=result.fan, declared_fan=jogo.declared_fan, fan_mismatch=result.fan_mismatch,
                commission=result.settlement.commission, capped=result.settlement.capped,
                pay_all=jogo.pay_all is not None, capital_before=list(amounts), capital_after=after,
                rule_set_code=result.rules.code, rule_set_version=result.rules.version, **fields)


def next_jogo(table: Table) -> tuple[Game, Progress, list[int | None]]:
    """The game in progress at the table, who plays its next jogo as what, and each chair's
    capital at stake; Refused when the table cannot take a jogo now."""
    if not table.is_open:
        raise refuse("table_closed", None, gettext_noop("Table {table} is closed."), conflict=True,
                     table=table.number)
    game = table.game  # the projection's game in progress
    if game is None:
        raise refuse("no_game", "3", gettext_noop("table {table} has no game in progress; seat the "
                                                  "players first."),
                     conflict=True, cite=True, table=table.number)
    return game, projected(table, game), list(table.game_capital)


@dataclass(frozen=True)
class Preview:
    """What recording a record now would do: the engine's result and each chair's capital
    before and after."""

    game: Game
    state: Progress
    result: object  # regulation.jogo.Result
    capital_before: list[int | None]
    capital_after: list[int | None]


def still_to_enter(*, record: dict) -> tuple[Problem, ...]:
    """What the dealer has not yet entered in the jogo `record` his form builds (pit/forms.py):
    a half-filled form is not an error, and the preview says what is missing in people's words
    rather than what the engine cannot read. Empty when nothing is missing (a value of the wrong
    kind is not missing: the engine says what is wrong with it); `field` names the record's field
    (forms.problem_field finds the form's)."""
    missing = []

    def lacks(field: str, template: str, **params) -> None:
        missing.append(Problem.of("missing", None, template, field, **params))

    def blank(value) -> bool:
        return value is None or (isinstance(value, str) and not value.strip())

    def part(value) -> dict:
        return value if isinstance(value, dict) else {}

    result = record.get("result")
    if result == "win":
        hand = part(record.get("hand"))
        if blank(record.get("winner")):
            lacks("winner", gettext_noop("choose the winner"))
        if blank(hand.get("concealed")):
            lacks("hand.concealed", gettext_noop("enter the concealed tiles"))
        if blank(hand.get("winning_tile")):
            lacks("hand.winning_tile", gettext_noop("enter the winning tile"))
        melds = hand.get("melds")
        for index, meld in enumerate(melds if isinstance(melds, list) else ()):
            if blank(part(meld).get("kind", "")):
                lacks(f"hand.melds[{index}].kind", gettext_noop("choose the kind of meld {n}"), n=index + 1)
            if blank(part(meld).get("tiles", "")):
                lacks(f"hand.melds[{index}].tiles", gettext_noop("enter the tiles of meld {n}"), n=index + 1)
        if isinstance(record.get("pay_all"), dict):  # Art. 10: the liable player and the article together
            if blank(record["pay_all"].get("seat")):
                lacks("pay_all.seat", gettext_noop("choose the liable player of the pay-all (包輸)"))
            if blank(record["pay_all"].get("article")):
                lacks("pay_all.article", gettext_noop("choose the article of the pay-all (包輸)"))
    elif result == "false_win" and "false_win" in record and blank(part(record["false_win"]).get("seat")):
        lacks("false_win.seat", gettext_noop("choose the offender"))  # Art. 10(a)(7)–(8), 10(b)(3)
    return tuple(missing)


def preview_jogo(*, table: Table, record: dict) -> Preview:
    """Check and score `record` as the table's next jogo exactly as `record_jogo` would, and
    write nothing: the dealer's preview before saving. Refused with every problem."""
    refuse_if_day_closed(table, gaming_day(timezone.now()))
    game, state, amounts = next_jogo(table)
    jogo, result = _score(table, state, amounts, record, table.rules)
    row = _jogo_row(state, amounts, record, jogo, result)
    return Preview(game, state, result, row.capital_before, row.capital_after)


def record_jogo(*, table: Table, user: User, record: dict, idempotency_key: str | None = None,
                number: int | None = None, at: dt.datetime | None = None) -> tuple[Jogo, bool]:
    """Validate a portable record (JOGO-FORMAT.md) as the table's next jogo and add it to the
    ledger. Returns (jogo, created); a retry with the same idempotency key returns the jogo
    first recorded with it, created False. `number`, when given, is the jogo number the caller
    means to record: refused (a conflict) unless it is the table's next, so that a record sent
    twice without a key, such as two identical draws, is not recorded twice."""
    at = at or timezone.now()
    try:
        with transaction.atomic():
            table = _locked(table)
            day = gaming_day(at)
            earlier, day_closed = _jogo_checks(table, idempotency_key, day)
            if earlier is not None:
                earlier = Jogo.objects.get(pk=earlier)
                if earlier.record != record:
                    raise refuse("idempotency_key", None,
                                 gettext_noop("The idempotency key {key} was used for jogo {jogo}, with "
                                              "another record."), "idempotency_key", conflict=True,
                                 key=repr(idempotency_key), jogo=earlier.number)
                return earlier, False
            if number is not None and number != table.jogos_recorded + 1:
                raise refuse("stale_number", None,
                             gettext_noop("The table's next jogo is number {current}, not {number}: jogo {number} "
                                          "may be recorded already. Check the table before recording again."),
                             "jogo_number", conflict=True, current=table.jogos_recorded + 1, number=number)
            if day_closed:
                raise _day_closed(day)
            game, state, amounts = next_jogo(table)
            jogo, result = _score(table, state, amounts, record, table.rules)
            position = table.game_jogos + 1
            row = _jogo_row(state, amounts, record, jogo, result, game=game, number=table.jogos_recorded + 1,
                            position=position, idempotency_key=idempotency_key or None,
                            recorded_at=at, recorded_by=user, gaming_day=day)
            after = state.after(banker_moves=result.banker_moves)
            _append(table, row, jogo=True, moves=_projection(game, after, position, row.capital_after))
            if after.complete:
                game.ended_at = at  # I-2: the North round is over
                game.save(update_fields=["ended_at"])
            return row, True
    except Refused as refused:
        Refusal.objects.create(table=table, attempted_at=at, attempted_by=user, record=_storable(record),
                               errors=[stored(problem) for problem in refused.problems])
        raise


def _storable(record):
    """What of a refused request can be kept: JSON values as they came, anything else as text."""
    return record if isinstance(record, (dict, list)) else {"unreadable": repr(record)[:1000]}


# --- Amendments (maker/checker) ------------------------------------------------------------------

def _current(row: Jogo) -> Jogo:
    return Jogo.objects.filter(table=row.table_id, number=row.number).order_by("-revision").first()


@dataclass(frozen=True)
class Correction:
    """What approving a correction adds to the ledger, not yet written: the amended revision,
    and for each later jogo of the game whose capital changes, its current revision and the
    carried revision that would follow it."""

    original: Jogo
    amended: Jogo
    carried: list[tuple[Jogo, Jogo]]


def _same_jogo(recorded: dict, corrected: dict) -> bool:
    """True when both records say the same jogo, however written (the order of tiles, melds,
    conduct and claimants; amounts as text): such a correction corrects nothing."""
    try:
        first, second = read_record(recorded), read_record(corrected)
    except MalformedRecord:
        return False

    def canonical(jogo) -> tuple:
        hand = jogo.hand
        if hand is not None:
            hand = (sorted(hand.concealed), hand.winning_tile,
                    sorted((meld.kind, sorted(meld.tiles), meld.exposed) for meld in hand.melds))
        return (msgspec.structs.replace(jogo, hand=None, conduct=(), claimants=()), hand,
                sorted((c.seat, c.kind) for c in jogo.conduct), sorted(jogo.claimants))

    return canonical(first) == canonical(second)


def _check_correction(row: Jogo, record: dict) -> Correction:
    """The checks a correction of `row` meets when proposed and previewed: `row` is the current
    revision, its gaming day is open, the record changes the jogo, the engine accepts it played
    with the same seats and capital, and no player's capital goes negative after it."""
    current = _current(row)
    if current.pk != row.pk:
        raise refuse("superseded", None, gettext_noop("Jogo {jogo} revision {revision} is superseded by revision "
                                                      "{current}; amend the current revision."), conflict=True,
                     jogo=row.number, revision=row.revision, current=current.revision)
    refuse_if_day_closed(row.table, current.gaming_day)
    if _same_jogo(current.record, record):
        raise refuse("identical", None, gettext_noop("The correction is identical to the recorded jogo {jogo}: "
                                                     "change what was recorded wrongly."), jogo=row.number)
    return _correction(row.table, current, record)


def preview_amendment(*, jogo: Jogo, record: dict) -> Correction:
    """What approving a correction of `row` to `record` would add to the ledger, checked as
    `propose_amendment` checks it; writes nothing. Refused with every problem."""
    return _check_correction(jogo, record)


def propose_amendment(*, jogo: Jogo, user: User, record: dict, reason: str,
                      at: dt.datetime | None = None) -> Amendment:
    """A supervisor's correction of a jogo: checked now like a new jogo played with the same
    seats and capital, applied only when a second person approves it."""
    at = at or timezone.now()
    if not reason or not reason.strip():
        raise refuse("reason", None, gettext_noop("An amendment states its reason."), "reason")
    with transaction.atomic():
        _locked(jogo.table)
        correction = _check_correction(jogo, record)
        return Amendment.objects.create(jogo=correction.original, record=record, reason=reason.strip(),
                                        proposed_by=user, proposed_at=at)


def decide_amendment(*, amendment: Amendment, user: User, approve: bool, reason: str = "",
                     at: dt.datetime | None = None) -> Amendment:
    """Approve (adding the revision to the ledger) or reject a pending amendment. Nobody decides
    on his own amendment; a rejection states its reason (an approval may)."""
    at = at or timezone.now()
    reason = (reason or "").strip()
    with transaction.atomic():
        table = _locked(amendment.jogo.table)
        amendment = Amendment.objects.select_for_update().select_related("jogo__game").get(pk=amendment.pk)
        if amendment.state != Amendment.PENDING:
            raise refuse("decided", None, gettext_noop("Amendment {amendment} was already {state}."),
                         conflict=True, amendment=amendment.pk, state=amendment.state)
        if amendment.proposed_by_id == user.pk:
            raise refuse("own_amendment", None, gettext_noop("Nobody approves or rejects his own amendment "
                                                             "(maker/checker): a second person must decide."))
        if not approve and not reason:
            raise refuse("reason", None, gettext_noop("A rejection states its reason."), "reason")
        if approve:
            refuse_if_day_closed(table, amendment.jogo.gaming_day)
            amendment.revision = _apply(table, amendment, user, at)
        amendment.state = Amendment.APPROVED if approve else Amendment.REJECTED
        amendment.decided_by, amendment.decided_at, amendment.decision_reason = user, at, reason
        amendment.save()
        if approve:
            correction_approved.send(sender=Amendment, amendment=amendment)
        return amendment


def _correction(table: Table, original: Jogo, record: dict, *, reason: str = "", **ledger) -> Correction:
    """The amended revision of `original`, then the changed capital carried through every later
    jogo of the game: each whose capital changes gets a new revision re-scored by the engine (its
    cap may bind differently). Later jogos keep the seats they were played with. `ledger` holds
    the new rows' ledger fields (who, when); nothing is written."""
    game = original.game
    jogo, result = _score(table, original.progress, original.capital_before, record, original.rules)
    amended = _jogo_row(original.progress, original.capital_before, record, jogo, result, game=game,
                        number=original.number, position=original.position, revision=original.revision + 1,
                        kind=Jogo.AMENDED, reason=reason, gaming_day=original.gaming_day, **ledger)
    moved: dict[int, list[tuple[int, int]]] = {}
    for movement in Movement.objects.filter(game=game).order_by("seq"):
        moved.setdefault(movement.after_jogos, []).append((movement.chair, movement.signed_amount))
    jogos = current_jogos(game)
    after = {row.position: row.capital_after for row in jogos}
    after[original.position] = amended.capital_after

    def capital_at(position: int) -> list[int | None]:  # as `capital(game, position)` would be
        return with_movements(after[position], moved.get(position, ()))

    carried = []
    for later in jogos[original.position:]:
        amounts = capital_at(later.position - 1)
        if amounts == later.capital_before:
            continue
        if any(amount is not None and amount < 0 for amount in amounts):
            raise refuse("capital", capital_article(table.variant),
                         gettext_noop("With this amendment a player's capital before jogo {jogo} would be negative "
                                      "(a cash-out larger than his capital)."), jogo=later.number)
        if later.gaming_day != original.gaming_day:  # a game that ran past the start of the next day
            refuse_if_day_closed(table, later.gaming_day)
        later_record = {**later.record,
                        "capital": {seat: amounts[chair] for seat, chair in later.progress.seats.items()}}
        jogo, result = _score(table, later.progress, amounts, later_record, later.rules)
        row = _jogo_row(later.progress, amounts, later_record, jogo, result, game=game, number=later.number,
                        position=later.position, revision=later.revision + 1, kind=Jogo.CARRIED,
                        reason=CARRIED_REASON.format(number=original.number),
                        gaming_day=later.gaming_day, **ledger)
        after[later.position] = row.capital_after
        carried.append((later, row))
    if any(amount is not None and amount < 0 for amount in capital_at(max(after))):
        raise refuse("capital", capital_article(table.variant),
                     gettext_noop("With this amendment a player's capital now would be negative (he has cashed out "
                                  "more than the corrected jogos leave him)."))
    return Correction(original, amended, carried)


def _apply(table: Table, amendment: Amendment, checker, at: dt.datetime) -> Jogo:
    """Add the amendment's correction to the ledger (see `_correction`), and end or reopen the
    game when the correction completes or un-completes its North round (I-2)."""
    original = amendment.jogo
    if _current(original).pk != original.pk:
        raise refuse("superseded", None, gettext_noop("Jogo {jogo} changed since the amendment was proposed; "
                                                      "propose it again."), conflict=True, jogo=original.number)
    game = original.game
    correction = _correction(table, original, amendment.record, reason=amendment.reason, approved_by=checker,
                             recorded_at=at, recorded_by=amendment.proposed_by)
    amended = correction.amended
    _append(table, amended, jogo=True)
    for _later, row in correction.carried:
        _append(table, row, jogo=True)
    state = replayed_progress(game)
    if game.ended_by_id is None:  # not ended by hand: I-2 alone says whether the game is over
        later_game = table.games.filter(started_at__gt=game.started_at).exists()
        if state.complete and game.ended_at is None:
            game.ended_at = amended.recorded_at
            game.save(update_fields=["ended_at"])
        elif not state.complete and game.ended_at is not None and not later_game:
            game.ended_at = None  # the corrected last jogo no longer ends the North round
            game.save(update_fields=["ended_at"])
    if game.ended_at is None:
        last = last_jogo(game)
        _project(table, _projection(game, state, last.position if last else 0, replayed_capital(game)))
    elif table.game_id == game.pk:
        _project(table, _projection(None))
    return amended


# --- Inspectors' flags ---------------------------------------------------------------------------

def flag(*, jogo: Jogo, user: User, note: str, at: dt.datetime | None = None) -> Flag:
    """An inspector flags a jogo for the exception queue, saying what he saw. The flag is open
    until someone else resolves it (`resolve_flag`)."""
    if not note or not note.strip():
        raise refuse("note", None, gettext_noop("A flag says what the inspector saw."), "note")
    with transaction.atomic():
        return Flag.objects.create(table=jogo.table, number=jogo.number, note=note.strip(), raised_by=user,
                                   raised_at=at or timezone.now())


def comment_on_flag(*, flag: Flag, user: User, note: str, at: dt.datetime | None = None) -> FlagComment:
    """A comment on a flag, open or resolved: always a new row, never an edit of an earlier one."""
    if not note or not note.strip():
        raise refuse("note", None, gettext_noop("A comment says something: write it first."), "note")
    with transaction.atomic():
        return FlagComment.objects.create(flag=flag, note=note.strip(), written_by=user,
                                          written_at=at or timezone.now())


def resolve_flag(*, flag: Flag, user: User, note: str, at: dt.datetime | None = None) -> Flag:
    """Resolve a flag with a note of what was found: once, and by a person other than the one
    who raised it (four eyes, as for amendments). Refused when it is already resolved."""
    at = at or timezone.now()
    if not note or not note.strip():
        raise refuse("note", None, gettext_noop("A resolution says what was found."), "note")
    with transaction.atomic():
        flag = Flag.objects.select_for_update().get(pk=flag.pk)
        if not flag.is_open:
            raise refuse("flag_resolved", None, gettext_noop("This flag was already resolved by {who} on {when}."),
                         conflict=True, who=flag.resolved_by.get_username(),
                         when=timezone.localtime(flag.resolved_at).strftime("%Y-%m-%d %H:%M"))
        if flag.raised_by_id == user.pk:
            raise refuse("own_flag", None, gettext_noop("Nobody resolves a flag he raised himself: another "
                                                        "inspector or a manager must."), conflict=True)
        flag.resolved_by, flag.resolved_at, flag.resolution = user, at, note.strip()
        flag.save(update_fields=["resolved_by", "resolved_at", "resolution"])
        return flag


# --- Refused attempts: a second person's confirmation ------------------------------------------

def confirm_refusal(*, refusal: Refusal, user: User, note: str, at: dt.datetime | None = None) -> RefusalConfirmation:
    """A supervisor confirms a refused attempt with a note of why it was abandoned: once, and
    not the person who attempted it (four eyes, as for amendments). The caller checks that the
    supervisor holds pit.confirm_refusal at the refusal's table (access.require)."""
    if not note or not note.strip():
        raise refuse("note", None, gettext_noop("A confirmation says why the attempt was abandoned."), "note")
    with transaction.atomic():
        refusal = Refusal.objects.select_for_update().get(pk=refusal.pk)
        earlier = RefusalConfirmation.objects.filter(refusal=refusal).select_related("confirmed_by").first()
        if earlier is not None:
            raise refuse("refusal_confirmed", None, gettext_noop("This refused attempt was already confirmed by "
                                                                 "{who} on {when}."), conflict=True,
                         who=earlier.confirmed_by.get_username(),
                         when=timezone.localtime(earlier.confirmed_at).strftime("%Y-%m-%d %H:%M"))
        if refusal.attempted_by_id == user.pk:
            raise refuse("own_refusal", None, gettext_noop("Nobody confirms his own refused attempt: another "
                                                           "supervisor of the table must."), conflict=True)
        return RefusalConfirmation.objects.create(refusal=refusal, confirmed_by=user, confirmed_at=at or timezone.now(),
                                                  note=note.strip())
