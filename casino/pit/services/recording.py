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

from casino.limits import NAME_MAX_LENGTH
from casino.terms.vocabulary import person_name
from regulation.record import MAX_AMOUNT
from regulation.rotation import Progress
from regulation.rules import rule_set

from .. import cash
from ..capital import below_minimum, maximum_capital, minimum_capital
from ..days import gaming_day
from ..errors import Problem, Refused, capital_article, chair_number, refuse, stored
from ..models import (
    Game,
    GamingDay,
    Jogo,
    Movement,
    MovementRefusal,
    Patron,
    PatronChange,
    Player,
    Refusal,
    Table,
)
from ..privacy import WITNESS
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


# What a player gives to be identified (Patron.IDENTIFICATION), as a refusal names it missing.
IDENTIFICATION_WORDS = {
    "document_type": gettext_noop("identity document type"), "document_number": gettext_noop("document number"),
    "document_country": gettext_noop("issuing country"), "date_of_birth": gettext_noop("date of birth"),
    "nationality": gettext_noop("nationality"),
}
IDENTIFICATION_NEEDED = "identification_needed"
# DICJ Instruction n.º 1/2016 (C-2): a player's buy-ins, and apart his cash-outs, over a gaming day.
_THRESHOLD_REACHED = {
    Movement.BUY_IN: gettext_noop(
        "DICJ Instruction n.º 1/2016: with this buy-in of {amount}, the player in chair {chair} brings {total} to "
        "the tables this gaming day, at or above the large-transaction threshold of {threshold}; identify the "
        "player first (missing: {missing})."),
    Movement.CASH_OUT: gettext_noop(
        "DICJ Instruction n.º 1/2016: with this cash-out of {amount}, the player in chair {chair} takes {total} "
        "from the tables this gaming day, at or above the large-transaction threshold of {threshold}; identify "
        "the player first (missing: {missing})."),
}
# What the seating screen and the API say when the witness's own login fails (casino/pit/witness.py).
WITNESS_CREDENTIALS = gettext_noop("The witness's username or password is not right.")
WITNESS_LOCKED_OUT = gettext_noop("Too many wrong passwords for this witness: his confirmations and his login are "
                                  "locked for a while. Ask another supervisor of the table to witness.")


def start_game(*, table: Table, user: User, players: list[dict], first_banker: int, witness: User | None = None,
               at: dt.datetime | None = None) -> Game:
    """Seat the players and choose the first banker (Art. 3).

    Each of `players` is {"chair": 0–3, "capital": int, and "patron": a Patron id of the table's
    casino, or "name": a new player's name, made a Patron here}. Refused, with every problem of
    the players at once and nothing written, for a capital below the table's minimum or above the
    seat maximum (C-1), one player in two chairs, an unknown player or an empty name. The seating
    buy-ins are cash: the supervisor who witnesses them records them, `user` when he is one
    (pit.move_money), else `witness`, a supervisor assigned to the table (the screen and the API
    check his password). A seating buy-in that brings an unidentified player's buy-ins of the
    gaming day to the large-transaction threshold (C-2) is refused, and kept (`MovementRefusal`)."""
    at = at or timezone.now()
    day = gaming_day(at)
    kept: list[MovementRefusal] = []
    try:
        with transaction.atomic():
            table = locked_table(table)
            if not table.is_open:
                raise refuse(code="table_closed", template=gettext_noop("Table {table} is closed."), field="table",
                             table=table.number)
            refuse_off_duty(table, user, at)
            if open_game(table):
                raise refuse(code="game_in_progress", article="3", conflict=True, cite=True,
                             template=gettext_noop("table {table} already has a game in progress; end it before "
                                                   "seating a new one."), table=table.number)
            _refuse_off_tier(table, table.rule_set_code, table.rule_set_version)
            chairs = [p.get("chair") for p in players]
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
            who = _who_sits(table, players)
            recorder = _witness(table, user, witness)
            large = _large_seating_buy_ins(table, players, who, user, at, day)
            if large:
                kept = [refusal for _problem, refusal in large]
                raise Refused(*(problem for problem, _refusal in large))
            game = Game.objects.create(table=table, first_banker=first_banker, started_at=at, started_by=user)
            amounts = [None] * 4
            for player in players:
                amounts[player["chair"]] = player["capital"]
            seated = sorted(players, key=lambda p: p["chair"])
            for player in seated:
                patron = who[player["chair"]]
                if not isinstance(patron, Patron):
                    patron = _new_patron(table, patron, user, at)
                Player.objects.create(game=game, chair=player["chair"], patron=patron)
                last = player is seated[-1]
                append_row(table, Movement(game=game, chair=player["chair"], kind=Movement.BUY_IN,
                                           amount=player["capital"], patron=patron, after_jogos=0, recorded_at=at,
                                           recorded_by=recorder, gaming_day=day),
                           moves=projection(game, Progress.start(chairs=chairs, banker=first_banker), 0, amounts)
                           if last else None)
            happened("game_started", table=table, subject=game, user=user, at=at)
            return game
    except Refused:
        _keep(kept)
        raise


def _who_sits(table: Table, players: list[dict]) -> dict[int, Patron | str]:
    """Who sits in each chair: the patron picked, locked until the seating ends (his day total is
    read under his lock, C-2), or the name of a new player, its spaces tidied. Refused with every
    problem of the players: a capital out of bounds (C-1), an unknown player or an empty name, one
    player in two chairs."""
    problems = []
    minimum = minimum_capital(table, len(players))
    most = maximum_capital()
    ids = [p["patron"] for p in players if _is_id(p.get("patron"))]
    known = Patron.objects.select_for_update().filter(casino=table.casino_id, pk__in=ids,
                                                       anonymised_at__isnull=True).order_by("pk").in_bulk()
    who: dict[int, Patron | str] = {}
    for index, player in enumerate(players):
        chair, capital = player["chair"], player.get("capital")
        problems += _capital_problems(table, index, chair, capital, minimum, most)
        if player.get("patron") is not None:
            patron = known.get(player["patron"]) if _is_id(player["patron"]) else None
            if patron is None:
                problems.append(Problem.of("patron", None, gettext_noop("Chair {chair}: there is no player {patron} "
                                                                        "at this casino."),
                                           f"players[{index}].patron", chair=chair_number(chair),
                                           patron=str(player["patron"])[:20]))
            else:
                who[chair] = patron
        else:
            name = " ".join(str(player.get("name") or "").split())
            if not name or len(name) > NAME_MAX_LENGTH:
                problems.append(Problem.of("name", None, gettext_noop("Chair {chair}: write the player's name (at "
                                                                      "most {most} characters), or pick a player "
                                                                      "already known."),
                                           f"players[{index}].name", chair=chair_number(chair), most=NAME_MAX_LENGTH))
            else:
                who[chair] = name
    problems += _same_player(who)
    if problems:
        raise Refused(*problems)
    return who


def _is_id(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _capital_problems(table: Table, index: int, chair: int, capital, minimum: int, most: int) -> list[Problem]:
    """What is wrong with a seat's opening capital: not a positive whole number, above the
    engine's limit (Art. 9's capital at stake), below the table's minimum or above the seat
    maximum (C-1)."""
    field, article = f"players[{index}].capital", capital_article(table.variant)
    if not _is_id(capital) or capital <= 0:
        return [Problem.of("capital", article, gettext_noop("each player's capital at stake is a positive whole "
                                                            "number of currency units."), field, cite=True)]
    if capital > MAX_AMOUNT:  # the engine reads no capital above it: the table would freeze
        return [Problem.of("capital", article, gettext_noop("a player's capital at stake is at most {most} currency "
                                                            "units."), field, cite=True, most=MAX_AMOUNT)]
    if capital < minimum:
        return [Problem.of("capital_below_minimum", None, gettext_noop(
            "Casino rule C-1 (minimum capital): chair {chair} sits down with {capital}, {missing} short of the "
            "table's minimum of {minimum}."), field, chair=chair_number(chair), capital=capital,
            missing=minimum - capital, minimum=minimum)]
    if capital > most:
        return [Problem.of("capital_above_maximum", None, gettext_noop(
            "Casino rule C-1 (maximum capital): chair {chair} sits down with {capital}; a seat holds at most "
            "{most}."), field, chair=chair_number(chair), capital=capital, most=most)]
    return []


def _same_player(who: dict[int, Patron | str]) -> list[Problem]:
    """One player in two chairs of the game: the same patron picked twice, or the same new name
    written twice (case aside). One problem for each chair that repeats an earlier one."""
    problems, first = [], {}
    for chair in sorted(who):
        key = who[chair].pk if isinstance(who[chair], Patron) else who[chair].casefold()
        if key in first:
            problems.append(Problem.of("duplicate_player", None, gettext_noop(
                "Chairs {first} and {second} seat the same player; a player sits in one chair of a game."),
                "players", first=chair_number(first[key]), second=chair_number(chair)))
        else:
            first[key] = chair
    return problems


def _witness(table: Table, user: User, witness: User | None) -> User:
    """The supervisor who witnesses the seating buy-ins and records them: `user` when he is one
    and names no other, else `witness`, who must be a supervisor assigned to the table and given its
    casino."""
    if witness is None:
        if user.has_perm(WITNESS):
            return user
        raise refuse(code="witness_needed", field="witness", table=table.number, template=gettext_noop(
            "A supervisor of table {table} witnesses the seating buy-ins and records them: he confirms the seating "
            "with his username and password."))
    if (witness.is_active and witness.has_perm(WITNESS)
            and table.staff.filter(pk=witness.pk, casinos=table.casino_id).exists()):
        return witness
    raise refuse(code="witness", field="witness", who=person_name(witness), table=table.number,
                 template=gettext_noop("{who} is not a supervisor assigned to table {table}; a supervisor of the "
                                       "table witnesses the seating buy-ins."))


def _large_seating_buy_ins(table: Table, players: list[dict], who: dict[int, Patron | str], user: User,
                           at: dt.datetime, day: dt.date) -> list[tuple[Problem, MovementRefusal]]:
    """The seating buy-ins refused under C-2, each with the `MovementRefusal` that keeps it (not
    saved yet): those that bring an unidentified player's buy-ins of the day to the threshold. A
    new player is never identified; a known one's earlier buy-ins of the day count, at every table."""
    refused = []
    for index, player in enumerate(players):
        patron = who[player["chair"]] if isinstance(who[player["chair"]], Patron) else None
        earlier = cash.day_total(patron, day, Movement.BUY_IN) if patron else 0
        missing = patron.missing_identification if patron else list(Patron.IDENTIFICATION)
        problem = _threshold_problem(Movement.BUY_IN, player["chair"], player["capital"], earlier, missing,
                                     field=f"players[{index}].patron")
        if problem:
            refused.append((problem, MovementRefusal(
                table=table, chair=player["chair"], patron=patron, kind=Movement.BUY_IN, amount=player["capital"],
                attempted_at=at, attempted_by=user, gaming_day=day, errors=[stored(problem)])))
    return refused


def _threshold_problem(kind: str, chair: int, amount: int, earlier: int, missing: list[str],
                       field: str) -> Problem | None:
    """C-2: the problem of a movement of `amount` after `earlier` of its kind today, by a player
    missing `missing` of his identification; None when it stays below the threshold or he is
    identified."""
    limit = cash.threshold()
    if not missing or earlier + amount < limit:
        return None
    return Problem.of(IDENTIFICATION_NEEDED, None, _THRESHOLD_REACHED[kind], field, amount=amount,
                      chair=chair_number(chair), total=earlier + amount, threshold=limit,
                      missing=", ".join(IDENTIFICATION_WORDS[name] for name in missing))


def _keep(refusals: list[MovementRefusal]) -> None:
    """Keep refused movements, once the refused write has rolled back, and tell the floor."""
    if not refusals:
        return
    with transaction.atomic():
        for refusal in refusals:
            refusal.save()
            happened("movement_refused", table=refusal.table, subject=refusal, user=refusal.attempted_by,
                     at=refusal.attempted_at)


def _new_patron(table: Table, name: str, user: User, at: dt.datetime) -> Patron:
    """A player known by his name alone, seated for the first time at the table's casino."""
    patron = Patron.objects.create(casino_id=table.casino_id, name=name, created_at=at, created_by=user,
                                   changed_at=at, changed_by=user)
    PatronChange.objects.create(patron=patron, action=PatronChange.CREATED, fields=["name"], at=at, by=user)
    return patron


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
    """A buy-in or cash-out between jogos, recorded by the supervisor who witnesses it: a movement
    of the chair's player, never an edit of a balance. Refused for a cash-out above the seat's
    capital and a buy-in that takes it above the seat maximum (C-1). Refused and kept
    (`MovementRefusal`) when it brings the player's buy-ins, or his cash-outs, of the gaming day at
    every table to the large-transaction threshold while he is not identified (C-2)."""
    at = at or timezone.now()
    day = gaming_day(at)
    kept: list[MovementRefusal] = []
    try:
        with transaction.atomic():
            table = locked_table(game.table)
            game.refresh_from_db()
            if game.ended_at is not None or table.game_id != game.pk:
                raise refuse(code="game_ended", article="3", conflict=True, game=game.pk,
                             template=gettext_noop("Game {game} has ended; money moves only during a game."))
            if not _is_id(amount) or amount <= 0:
                raise refuse(code="amount", field="amount",
                             template=gettext_noop("The amount is a positive whole number of currency units."))
            if kind not in (Movement.BUY_IN, Movement.CASH_OUT):
                raise refuse(code="kind", template=gettext_noop("The kind is buy_in or cash_out."), field="kind")
            amounts = list(table.game_capital)
            if not _is_id(chair) or chair not in range(4) or amounts[chair] is None:
                raise refuse(code="chair", article="3", field="chair",
                             template=gettext_noop("Chair {chair} has no player in game {game}."),
                             chair=chair_number(chair), game=game.pk)
            _refuse_beyond_capital(table, chair, kind, amount, amounts[chair])
            patron = Patron.objects.select_for_update(of=("self",)).get(seats__game=game, seats__chair=chair)
            problem = _threshold_problem(kind, chair, amount, cash.day_total(patron, day, kind),
                                         patron.missing_identification, field="patron")
            if problem:
                kept = [MovementRefusal(table=table, game=game, chair=chair, patron=patron, kind=kind, amount=amount,
                                        attempted_at=at, attempted_by=user, gaming_day=day,
                                        errors=[stored(problem)])]
                raise Refused(problem)
            movement = Movement(game=game, chair=chair, kind=kind, amount=amount, patron=patron,
                                after_jogos=table.game_jogos, recorded_at=at, recorded_by=user, gaming_day=day)
            amounts[chair] += movement.signed_amount
            append_row(table, movement, moves={"game_capital": amounts})
            happened("money_moved", table=table, subject=movement, user=user, at=at)
            return movement
    except Refused:
        _keep(kept)
        raise


def _refuse_beyond_capital(table: Table, chair: int, kind: str, amount: int, capital: int) -> None:
    """A cash-out takes no more than the seat holds; a buy-in takes it neither above the engine's
    limit (regulation/record.py) nor above the seat maximum (C-1)."""
    if kind == Movement.CASH_OUT and amount > capital:
        raise refuse(code="amount", article=capital_article(table.variant), field="amount",
                     template=gettext_noop("Chair {chair} has {capital} at stake; a cash-out of {amount} is more "
                                           "than that."), chair=chair_number(chair), capital=capital, amount=amount)
    if kind == Movement.BUY_IN and capital + amount > MAX_AMOUNT:
        raise refuse(code="amount", article=capital_article(table.variant),
                     template=gettext_noop("A buy-in of {amount} would bring the player's capital at stake from "
                                           "{capital} to more than {most}, the most it can be."), field="amount",
                     capital=capital, amount=amount, most=MAX_AMOUNT)
    if kind == Movement.BUY_IN and capital + amount > maximum_capital():
        raise refuse(code="capital_above_maximum", field="amount", template=gettext_noop(
            "Casino rule C-1 (maximum capital): a buy-in of {amount} would bring chair {chair} from {capital} to "
            "{after}; a seat holds at most {most}."), amount=amount, chair=chair_number(chair), capital=capital,
            after=capital + amount, most=maximum_capital())


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
    capital at stake; Refused when the table cannot take a jogo now: closed, no game, or a seat
    below the table's minimum capital (C-1, one problem per short chair: it tops up or the game
    ends first)."""
    if not table.is_open:
        raise refuse(code="table_closed", template=gettext_noop("Table {table} is closed."), conflict=True,
                     table=table.number)
    game = table.game  # the projection's game in progress
    if game is None:
        raise refuse(code="no_game", article="3", conflict=True, cite=True,
                     template=gettext_noop("table {table} has no game in progress; seat the players first."),
                     table=table.number)
    now = standing(game, table=table)
    short = below_minimum(table, now.capital)
    if short:  # C-1: each seat holds the table's minimum before a jogo starts
        raise Refused(*(Problem.of("capital_below_minimum", None, gettext_noop(
            "Casino rule C-1 (minimum capital): chair {chair} holds {capital}, {missing} short of the table's minimum "
            "of {minimum}; a supervisor records a buy-in, or the game ends, before the next jogo."), "capital",
            chair=chair_number(seat.chair), capital=seat.capital, missing=seat.missing, minimum=seat.minimum)
            for seat in short), conflict=True)
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
