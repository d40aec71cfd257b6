"""The rules that raise alerts (issue 24 §3): each has a code, a severity, the article of the
Portaria or the control it comes from (the casino's own rules C-1 and C-2 too, docs/rules.md §11),
and its thresholds as settings (settings.py: FLOOR_ALERTS, LARGE_TRANSACTION_THRESHOLD,
TABLE_MINIMUM_CAPITAL; docs/alerts.md lists them all).

Two kinds of rule:
- event rules see what the pit and the count tell (`table_event`): `of_event` answers, from the
  rows in hand, which alerts to raise (`Raise`) and which conditions ended (`End`); a jogo's rules
  read nothing but the jogo and one rotation lookup, so recording costs the same whatever fires;
- time rules fire because time passes: `timed(now)` answers, for every casino, which conditions
  hold now; every standing alert of a time rule whose condition no longer holds ends.

Each condition has a `key` (the table, the jogo, the box...): a rule raises no second alert for
a condition that already stands. Chairs in `params` are numbered 1–4, as people number them.

`params` are hashed into the casino's alert chain, which outlives a player's personal data
(PATRON_RETENTION_DAYS): they name a player by his id only (`patron`), never by his name or his
document; the screens say his name to those who may see it (alert_selectors.player_names).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, Max, OuterRef, Subquery

from casino.count import rotation as rotations, shifts
from casino.count.models import Rotation
from casino.count.selectors import uncounted_boxes
from casino.pit import cash, days
from casino.pit.capital import minimum_capital
from casino.pit.models import Amendment, Casino, Game, Jogo, Movement, MovementRefusal, Refusal, Table
from casino.terms.vocabulary import person_name

from .models import Alert


@dataclass
class Raise:
    """An alert a rule wants: its rule, where, the key of its condition, the figures of its
    words and the record behind it (`subject`: {"jogo": jogo, ...})."""

    rule: str
    table_id: int | None
    key: str
    params: dict = field(default_factory=dict)
    subject: dict = field(default_factory=dict)
    gaming_day: dt.date | None = None


@dataclass(frozen=True)
class End:
    """A condition that ended: the standing alert of `rule` with `key`, if any, clears."""

    rule: str
    key: str


INFO, WARNING, CRITICAL = Alert.INFO, Alert.WARNING, Alert.CRITICAL


@dataclass(frozen=True)
class Rule:
    """A rule: `article` is the Portaria's (e.g. "9(a)(4)"; a rule whose article depends on the
    table's variant puts it in each alert's params), `control` the control it comes from (a
    code casino.terms.vocabulary words), `settings` the names of its thresholds."""

    code: str
    severity: str
    article: str = ""
    control: str = ""
    settings: tuple[str, ...] = ()
    timed: bool = False


CAPITAL_BELOW_ZERO = "capital_below_zero"
CAPITAL_BELOW_MINIMUM = "capital_below_minimum"
LARGE_TRANSACTION = "large_transaction"
STRUCTURING = "structuring"
GRADE_NOT_DECLARED = "grade_not_declared"
GRADE_DIFFERS = "grade_differs"
PAY_ALL = "pay_all"
FALSE_WIN = "false_win"
REFUSALS = "refusals"
OFF_ROTATION = "off_rotation"
GAME_OPEN = "game_open"
TABLE_IDLE = "table_idle"
BOX_NOT_COUNTED = "box_not_counted"
VARIANCE_CASE = "variance_case"
CORRECTION_PENDING = "correction_pending"
FLAG_OPEN = "flag_open"
LEDGER = "ledger"

RULES = {rule.code: rule for rule in [
    Rule(CAPITAL_BELOW_ZERO, CRITICAL, control="minimum_capital"),
    Rule(CAPITAL_BELOW_MINIMUM, WARNING, control="minimum_capital",
         settings=('TABLE_MINIMUM_CAPITAL[variant][stake]',)),
    Rule(LARGE_TRANSACTION, WARNING, control="large_transactions", settings=("LARGE_TRANSACTION_THRESHOLD",)),
    Rule(STRUCTURING, WARNING, control="large_transactions", settings=("LARGE_TRANSACTION_THRESHOLD",)),
    Rule(GRADE_NOT_DECLARED, WARNING, article="6", control="declared_grade"),
    Rule(GRADE_DIFFERS, WARNING, article="6", control="declared_grade"),
    Rule(PAY_ALL, INFO, article="10"),
    Rule(FALSE_WIN, WARNING, article="10"),
    Rule(REFUSALS, WARNING, control="refusals", settings=('FLOOR_ALERTS["REFUSALS"]',
                                                          'FLOOR_ALERTS["REFUSALS_MINUTES"]'), timed=True),
    Rule(OFF_ROTATION, WARNING, control="rotation"),
    Rule(GAME_OPEN, WARNING, article="3", control="game_length", settings=('FLOOR_ALERTS["GAME_OPEN_HOURS"]',),
         timed=True),
    Rule(TABLE_IDLE, INFO, control="idle_table", settings=('FLOOR_ALERTS["IDLE_TABLE_MINUTES"]',), timed=True),
    Rule(BOX_NOT_COUNTED, WARNING, control="count", settings=('FLOOR_ALERTS["BOX_UNCOUNTED_HOURS"]',), timed=True),
    Rule(VARIANCE_CASE, CRITICAL, control="variance", settings=("COUNT_VARIANCE_ABSOLUTE", "COUNT_VARIANCE_PERCENT")),
    Rule(CORRECTION_PENDING, WARNING, control="maker_checker",
         settings=('FLOOR_ALERTS["CORRECTION_PENDING_MINUTES"]',), timed=True),
    Rule(FLAG_OPEN, WARNING, control="inspection"),
    Rule(LEDGER, CRITICAL, control="ledger"),
]}


def article_of(alert: Alert) -> str:
    """The article an alert cites: its own (a variant's paragraph), else its rule's."""
    rule = RULES.get(alert.rule)
    return (alert.params or {}).get("article") or (rule.article if rule else "")


def threshold(name: str) -> int:
    return settings.FLOOR_ALERTS[name]


# --- Keys: what makes two alerts of a rule the same condition ----------------------------------

def seat_key(table_id: int, chair: int) -> str:
    return f"table:{table_id}:chair:{chair}"


def table_key(table_id: int) -> str:
    return f"table:{table_id}"


def jogo_key(jogo: Jogo) -> str:
    return f"jogo:{jogo.table_id}:{jogo.number}"


def box_key(table_id: int, day: dt.date, shift: int) -> str:
    return f"box:{table_id}:{day.isoformat()}:{shift}"


def rotation_key(table_id: int, person_id: int, day: dt.date) -> str:
    return f"table:{table_id}:person:{person_id}:day:{day.isoformat()}"


def cash_key(patron_id: int, day: dt.date, kind: str) -> str:
    """A player's buy-ins, or his cash-outs, over a gaming day, at every table (C-2)."""
    return f"patron:{patron_id}:day:{day.isoformat()}:{kind}"


# --- Event rules ---------------------------------------------------------------------------------

def _capital(table: Table, capital: list, *, subject: dict) -> tuple[list[Raise], list[End]]:
    """Casino rule C-1: each seat's capital at stake, below zero, or below the table's minimum for
    as many players as are seated (casino.pit.capital.minimum_capital); a seat back at or above it
    ends its alert. No query: the minimum is the engine's figure or a setting."""
    capital = capital or []
    seated = sum(amount is not None for amount in capital)
    minimum = minimum_capital(table, seated) if seated in (2, 3, 4) else None
    raised, ended = [], []
    for chair, amount in enumerate(capital):
        key = seat_key(table.pk, chair)
        params = {"table": table.number, "chair": chair + 1, "capital": amount}
        if amount is not None and amount < 0:
            raised.append(Raise(CAPITAL_BELOW_ZERO, table.pk, key, params, subject))
        else:
            ended.append(End(CAPITAL_BELOW_ZERO, key))
        if amount is not None and minimum is not None and 0 <= amount < minimum:
            raised.append(Raise(CAPITAL_BELOW_MINIMUM, table.pk, key,
                                {**params, "minimum": minimum, "missing": minimum - amount}, subject))
        else:
            ended.append(End(CAPITAL_BELOW_MINIMUM, key))
    return raised, ended


def _cash(table: Table, movement: Movement) -> list[Raise]:
    """Casino rule C-2 (DICJ Instruction n.º 1/2016) for the player of `movement`: his buy-ins, or
    his cash-outs, over the gaming day at every table reaching LARGE_TRANSACTION_THRESHOLD (one
    query); and then, when two or more of them each below it make up the sum, structuring (one
    query more). One alert of each per player, day and direction. A movement of no player (one
    recorded before players were people) counts for nobody."""
    if movement.patron_id is None:
        return []
    limit = cash.threshold()
    total = cash.day_total(movement.patron_id, movement.gaming_day, movement.kind)
    if total < limit:
        return []
    key = cash_key(movement.patron_id, movement.gaming_day, movement.kind)
    params = {"table": table.number, "chair": movement.chair + 1, "kind": movement.kind, "amount": movement.amount,
              "total": total, "threshold": limit, "patron": movement.patron_id}
    raised = [Raise(LARGE_TRANSACTION, table.pk, key, params, {"movement": movement}, movement.gaming_day)]
    day = (movement.gaming_day, movement.gaming_day)
    for pattern in cash.structuring(day, table.casino_id):
        if (pattern.patron_id, pattern.kind) == (movement.patron_id, movement.kind):
            raised.append(Raise(STRUCTURING, table.pk, key,
                                {**params, "count": pattern.count, "total": pattern.total,
                                 "largest": pattern.largest},
                                {"movement": movement}, movement.gaming_day))
    return raised


def _refused_cash(table: Table, refusal: MovementRefusal) -> list[Raise]:
    """A buy-in or cash-out refused because it would bring the player's day total to the
    threshold while he is not identified (C-2): the large transaction was attempted, and it is
    the same condition (key) as the movement that follows his identification. A new player,
    seated by name with that much, has no record yet: the refusal is its own condition."""
    if not any(error.get("code") == "identification_needed" for error in refusal.errors or []):
        return []
    limit = cash.threshold()
    if refusal.patron_id is None:
        total, key = refusal.amount or 0, f"movement_refusal:{refusal.pk}"
    else:
        total = cash.day_total(refusal.patron_id, refusal.gaming_day, refusal.kind) + (refusal.amount or 0)
        key = cash_key(refusal.patron_id, refusal.gaming_day, refusal.kind)
    return [Raise(LARGE_TRANSACTION, table.pk, key,
                  {"table": table.number, "chair": None if refusal.chair is None else refusal.chair + 1,
                   "kind": refusal.kind, "amount": refusal.amount, "total": total, "threshold": limit,
                   "patron": refusal.patron_id, "refused": refusal.pk}, {}, refusal.gaming_day)]


def of_jogo(table: Table, jogo: Jogo) -> list[Raise]:
    """The rules a jogo fires by itself, read from its row: no query."""
    params = {"table": table.number, "number": jogo.number}
    found = []

    def add(rule: str, **more) -> None:
        found.append(Raise(rule, table.pk, jogo_key(jogo), {**params, **more}, {"jogo": jogo}, jogo.gaming_day))

    if jogo.result == "win" and jogo.declared_fan is None:
        add(GRADE_NOT_DECLARED, chair=None if jogo.winner_chair is None else jogo.winner_chair + 1)
    if jogo.fan_mismatch:
        add(GRADE_DIFFERS, declared=jogo.declared_fan, computed=jogo.fan)
    if jogo.pay_all:
        article = ((jogo.record or {}).get("pay_all") or {}).get("article") or "10"
        add(PAY_ALL, article=article)
    if jogo.result == "false_win":
        add(FALSE_WIN, article="10(a)(7)" if table.variant == "conventional" else "10(b)(3)")
    return found


def _off_rotation(table: Table, user, at: dt.datetime) -> bool:
    """Whether `user`, who just recorded at `table`, is off its dealer rotation. Only a supervisor
    can be: the count refuses anyone else the rotation does not have dealing there
    (casino/count/receivers.py, `may_record`), so only a supervisor's rotation is read (one query)."""
    return user.has_perm("pit.open_close_table") and not rotations.on_rotation(table=table, person=user, at=at)


def of_event(event: str, *, table: Table, subject, user, at: dt.datetime) -> tuple[list[Raise], list[End]]:
    """What `event` at `table` (casino/pit/signals.py) raises and ends."""
    raised: list[Raise] = []
    ended: list[End] = []
    if event == "jogo_recorded":
        jogo = subject
        raised += of_jogo(table, jogo)
        more, ends = _capital(table, jogo.capital_after, subject={"jogo": jogo})
        raised, ended = raised + more, ended + ends
        ended.append(End(TABLE_IDLE, table_key(table.pk)))
        if user is not None and _off_rotation(table, user, at):
            raised.append(Raise(OFF_ROTATION, table.pk, rotation_key(table.pk, user.pk, jogo.gaming_day),
                                {"table": table.number, "number": jogo.number, "person": person_name(user),
                                 "person_id": user.pk},
                                {"jogo": jogo}, jogo.gaming_day))
    elif event == "jogo_refused":
        window = threshold("REFUSALS_MINUTES")
        count = Refusal.objects.filter(table=table, attempted_at__gt=at - dt.timedelta(minutes=window),
                                       attempted_at__lte=at).count()
        if count >= threshold("REFUSALS"):
            raised.append(Raise(REFUSALS, table.pk, table_key(table.pk),
                                {"table": table.number, "count": count, "minutes": window}, {"refusal": subject}))
    elif event == "money_moved":
        raised += _cash(table, subject)
        more, ends = _capital(table, table.game_capital, subject={"movement": subject})
        raised, ended = raised + more, ended + ends
    elif event == "movement_refused":
        raised += _refused_cash(table, subject)
    elif event == "game_started":
        for movement in Movement.objects.filter(game=subject, patron__isnull=False).order_by("seq"):
            raised += _cash(table, movement)
        more, ends = _capital(table, table.game_capital, subject={})
        raised, ended = raised + more, ended + ends
        ended.append(End(TABLE_IDLE, table_key(table.pk)))
    elif event == "game_ended":
        ended += [End(rule, seat_key(table.pk, chair)) for rule in (CAPITAL_BELOW_ZERO, CAPITAL_BELOW_MINIMUM)
                  for chair in range(4)]
        ended.append(End(GAME_OPEN, f"game:{subject.pk}"))
    elif event == "table_closed":
        ended.append(End(TABLE_IDLE, table_key(table.pk)))
    elif event == "correction_decided":
        ended.append(End(CORRECTION_PENDING, f"amendment:{subject.pk}"))
        if subject.state == subject.APPROVED and table.game_id:  # it may have moved the game's capitals (C-1)
            table.refresh_from_db(fields=["game", "game_capital"])
            more, ends = _capital(table, table.game_capital, subject={"amendment": subject})
            raised, ended = raised + more, ended + ends
    elif event == "flag_raised":
        raised.append(Raise(FLAG_OPEN, table.pk, f"flag:{subject.pk}",
                            {"table": table.number, "number": subject.number}, {"flag": subject}))
    elif event == "flag_resolved":
        ended.append(End(FLAG_OPEN, f"flag:{subject.pk}"))
    elif event in ("case_opened", "case_reopened"):
        box = subject.box
        raised.append(Raise(VARIANCE_CASE, table.pk, f"case:{subject.pk}",
                            {"table": table.number, "case": subject.pk, "day": box.gaming_day.isoformat(),
                             "shift": box.shift, "reopened": event == "case_reopened"},
                            {"case": subject, "box": box}))
    elif event == "case_closed":
        ended.append(End(VARIANCE_CASE, f"case:{subject.pk}"))
    elif event == "box_counted":
        ended.append(End(BOX_NOT_COUNTED, box_key(table.pk, subject.gaming_day, subject.shift)))
    elif event == "rotation_changed" and isinstance(subject, Rotation) and subject.duty == Rotation.DEALER:
        if subject.ends_at is None or subject.ends_at > at:
            ended.append(End(OFF_ROTATION, rotation_key(table.pk, subject.person_id, subject.gaming_day)))
    return raised, ended


# --- Time rules ----------------------------------------------------------------------------------

def _games_open(now: dt.datetime) -> list[Raise]:
    hours = threshold("GAME_OPEN_HOURS")
    games = Game.objects.filter(ended_at__isnull=True, started_at__lte=now - dt.timedelta(hours=hours))
    return [Raise(GAME_OPEN, game.table_id, f"game:{game.pk}",
                  {"table": game.table.number, "hours": hours, "started": game.started_at.isoformat()})
            for game in games.select_related("table")]


def _idle_tables(now: dt.datetime) -> list[Raise]:
    """Open tables whose last jogo (or, when later, the start of their last game) is at least
    IDLE_TABLE_MINUTES old; a table that never played is not idle."""
    minutes = threshold("IDLE_TABLE_MINUTES")
    last_jogo = Jogo.objects.filter(table=OuterRef("pk"), revision=0).order_by("-seq").values("recorded_at")[:1]
    last_game = Game.objects.filter(table=OuterRef("pk")).order_by("-started_at").values("started_at")[:1]
    tables = (Table.objects.filter(is_open=True)
              .annotate(last_jogo=Subquery(last_jogo), last_game=Subquery(last_game)))
    found = []
    for table in tables:
        last = max((m for m in (table.last_jogo, table.last_game) if m is not None), default=None)
        if last is not None and last <= now - dt.timedelta(minutes=minutes):
            found.append(Raise(TABLE_IDLE, table.pk, table_key(table.pk),
                               {"table": table.number, "minutes": minutes, "since": last.isoformat()}))
    return found


def _uncounted(now: dt.datetime, casino: Casino, standing_days: set[dt.date]) -> list[Raise]:
    hours = threshold("BOX_UNCOUNTED_HOURS")
    today = days.gaming_day(now)
    found = []
    for day in sorted(standing_days | {today, today - dt.timedelta(days=1)}):
        for box in uncounted_boxes(casino, day):
            ended_at = shifts.shift_bounds(day, box.shift)[1]
            if ended_at <= now - dt.timedelta(hours=hours):
                found.append(Raise(BOX_NOT_COUNTED, box.table_id, box_key(box.table_id, day, box.shift),
                                   {"table": box.table, "day": day.isoformat(), "shift": box.shift,
                                    "starts": box.starts, "ends": box.ends, "hours": hours},
                                   {"box": box.box} if box.box is not None else {}, day))
    return found


def _pending_corrections(now: dt.datetime) -> list[Raise]:
    minutes = threshold("CORRECTION_PENDING_MINUTES")
    pending = Amendment.objects.filter(state=Amendment.PENDING, proposed_at__lte=now - dt.timedelta(minutes=minutes))
    return [Raise(CORRECTION_PENDING, a.jogo.table_id, f"amendment:{a.pk}",
                  {"table": a.jogo.table.number, "number": a.jogo.number, "minutes": minutes},
                  {"amendment": a, "jogo": a.jogo})
            for a in pending.select_related("jogo__table")]


def _refusal_bursts(now: dt.datetime) -> list[Raise]:
    window, least = threshold("REFUSALS_MINUTES"), threshold("REFUSALS")
    bursts = (Refusal.objects.filter(attempted_at__gt=now - dt.timedelta(minutes=window), attempted_at__lte=now)
              .values("table_id", "table__number").annotate(count=Count("pk"), last=Max("pk"))
              .filter(count__gte=least).order_by())
    return [Raise(REFUSALS, row["table_id"], table_key(row["table_id"]),
                  {"table": row["table__number"], "count": row["count"], "minutes": window},
                  {"refusal": row["last"]}) for row in bursts]


TIMED = tuple(code for code, rule in RULES.items() if rule.timed)


def timed(now: dt.datetime) -> dict[int, tuple[list[Raise], list[End]]]:
    """{casino id: (what the time rules raise, what they end)}: every standing alert of a time
    rule whose condition does not hold at `now` ends."""
    standing = list(Alert.objects.standing().filter(rule__in=TIMED).values_list("casino_id", "rule", "key",
                                                                               "gaming_day"))
    casino_of = dict(Table.objects.values_list("pk", "casino_id"))
    holding = _games_open(now) + _idle_tables(now) + _pending_corrections(now) + _refusal_bursts(now)
    for casino in Casino.objects.order_by("pk"):
        days_standing = {day for casino_id, rule, _key, day in standing
                         if casino_id == casino.pk and rule == BOX_NOT_COUNTED}
        holding += _uncounted(now, casino, days_standing)
    found: dict[int, tuple[list[Raise], list[End]]] = {}
    for want in holding:
        found.setdefault(casino_of[want.table_id], ([], []))[0].append(want)
    holds = {(casino_of[want.table_id], want.rule, want.key) for want in holding}
    for casino_id, rule, key, _day in standing:
        if (casino_id, rule, key) not in holds:
            found.setdefault(casino_id, ([], []))[1].append(End(rule, key))
    return found

