"""Writing alerts: raising what the rules saw, clearing what ended, escalating what nobody
acknowledged in time, and a person's acknowledgement. Every write appends to the casino's
alert chain under its log's row lock (`AlertLog`), hashed as the other chains are
(`casino.chain`), and tells the open floor views once it commits (`live.publish`).

`write` is the one place that raises and clears: it reads which of the conditions already stand
and writes the new alerts, the clearings and the log's head in bulk, so that a jogo costs the
same few queries however many rules it fires (rules.py says which).
"""
from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from functools import partial

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser as User
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop

from casino.chain import GENESIS, Chain, chained_hash, plain
from casino.pit import days
from casino.pit.access import at_casino, casinos_of
from casino.pit.errors import refuse
from casino.pit.models import Casino
from casino.terms.vocabulary import person_name

from . import live
from .models import Alert, AlertEvent, AlertLog
from .rules import LEDGER, RULES, End, Raise, timed

ROW = ("log_id", "seq")
SUBJECTS = ("jogo_id", "movement_id", "refusal_id", "amendment_id", "flag_id", "box_id", "case_id", "rotation_id")
CONTENT = {
    Alert: ROW + ("rule", "severity", "casino_id", "table_id", "gaming_day", "raised_at", "key", "params") + SUBJECTS,
    AlertEvent: ROW + ("alert_id", "kind", "note", "recorded_at", "recorded_by_id"),
}
ALERT_CHAIN = Chain(CONTENT, added={})


def row_hash(row: Alert | AlertEvent) -> str:
    """SHA-256 of the previous hash and the row's canonical JSON; every time in UTC ISO 8601
    (`raised_at` too, which `casino.chain.DATES` does not name)."""
    values = [plain(getattr(row, name)) for name in CONTENT[type(row)]]
    return chained_hash(row.prev_hash, ALERT_CHAIN.canonical(type(row), values))


def _locked_log(casino_id: int) -> AlertLog:
    log = AlertLog.objects.select_for_update().filter(casino_id=casino_id).first()
    if log is None:  # the casino's first alert
        AlertLog.objects.get_or_create(casino_id=casino_id)
        log = AlertLog.objects.select_for_update().get(casino_id=casino_id)
    return log


def _append(log: AlertLog, rows: list[Alert | AlertEvent]) -> None:
    for row in rows:
        row.log = log
        row.seq = log.ledger_seq + 1
        row.prev_hash = log.ledger_head or GENESIS
        row.hash = row_hash(row)
        log.ledger_seq, log.ledger_head = row.seq, row.hash


def _publish_after_commit(event: str, table_ids: Iterable[int | None]) -> None:
    for table_id in dict.fromkeys(table_ids):
        transaction.on_commit(partial(live.publish, event, table_id))


def _standing(casino_id: int, wanted: set[tuple[str, str]]) -> dict[tuple[str, str], tuple[int, int | None]]:
    """{(rule, key): (alert id, table id)} of the standing alerts among `wanted`: one query."""
    return {(rule, key): (pk, table_id) for pk, rule, key, table_id in Alert.objects.standing().filter(
        casino_id=casino_id, rule__in={rule for rule, _key in wanted}, key__in={key for _rule, key in wanted},
    ).values_list("pk", "rule", "key", "table_id")}


def _plan(casino_id: int, raised: list[Raise], ended: list[End], standing: dict, at: dt.datetime):
    """The alerts to add and the standing alerts to clear, given what stands."""
    ending = {(e.rule, e.key) for e in ended}
    new, seen = [], set()
    for want in raised:
        if (want.rule, want.key) in standing or (want.rule, want.key) in ending or (want.rule, want.key) in seen:
            continue
        seen.add((want.rule, want.key))
        new.append(Alert(rule=want.rule, severity=RULES[want.rule].severity, casino_id=casino_id,
                         table_id=want.table_id, gaming_day=want.gaming_day or days.gaming_day(at), raised_at=at,
                         key=want.key, params=want.params, **{f"{name}_id": getattr(row, "pk", row)
                                                             for name, row in want.subject.items()}))
    clearing = [standing[end] for end in dict.fromkeys((e.rule, e.key) for e in ended) if end in standing]
    return new, clearing


def write(casino_id: int, raised: list[Raise], ended: list[End], *, at: dt.datetime) -> tuple[list[Alert], int]:
    """Raise the alerts of `raised` whose condition does not stand already, and clear the
    standing alerts of `ended`, in the casino's alert chain; inside the caller's transaction.
    Returns the new alerts and how many cleared.

    What stands is read first without a lock (one query: most events change nothing); when
    something changes, again under the log's lock, which another writer of the casino's alerts
    (the tick, another table) waits for. Then the new alerts, the clearings and the head are
    written in bulk: four queries more, two more when something clears, whatever the number of
    rules."""
    wanted = {(r.rule, r.key) for r in raised} | {(e.rule, e.key) for e in ended}
    if not wanted:
        return [], 0
    new, clearing = _plan(casino_id, raised, ended, _standing(casino_id, wanted), at)
    if not new and not clearing:
        return [], 0
    log = _locked_log(casino_id)
    new, clearing = _plan(casino_id, raised, ended, _standing(casino_id, wanted), at)
    if not new and not clearing:  # another writer raised or cleared them while this one waited
        return [], 0
    events = [AlertEvent(alert_id=pk, kind=AlertEvent.CLEARED, recorded_at=at) for pk, _table in clearing]
    _append(log, [*new, *events])
    Alert.objects.bulk_create(new)
    AlertEvent.objects.bulk_create(events)
    Alert.objects.filter(pk__in=[pk for pk, _table in clearing]).update(cleared_at=at)
    log.save(update_fields=["ledger_seq", "ledger_head"])
    _publish_after_commit("alert_raised", (alert.table_id for alert in new))
    _publish_after_commit("alert_cleared", (table_id for _pk, table_id in clearing))
    return new, len(clearing)


def escalate(alerts: list[Alert], *, at: dt.datetime) -> int:
    """Mark `alerts` (of one casino, open, not yet escalated) escalated to the managers."""
    if not alerts:
        return 0
    log = _locked_log(alerts[0].casino_id)
    alerts = list(Alert.objects.open().filter(pk__in=[alert.pk for alert in alerts], escalated_at__isnull=True)
                  .order_by("pk"))  # as they stand under the lock
    if not alerts:  # another tick escalated them, or a person acknowledged them, while this one waited
        return 0
    events = [AlertEvent(alert_id=alert.pk, kind=AlertEvent.ESCALATED, recorded_at=at) for alert in alerts]
    _append(log, events)
    AlertEvent.objects.bulk_create(events)
    Alert.objects.filter(pk__in=[alert.pk for alert in alerts], escalated_at__isnull=True).update(escalated_at=at)
    log.save(update_fields=["ledger_seq", "ledger_head"])
    _publish_after_commit("alert_raised", (alert.table_id for alert in alerts))
    return len(alerts)


# --- Who sees and acknowledges which alert ------------------------------------------------------

def visible_alerts(user):
    """The alerts `user` sees, of his casinos only (docs/casinos.md): every alert of them for
    inspectors and managers (who see every table there), the alerts of his tables for a
    supervisor, none without `floor.view_alert`."""
    if not user.has_perm("floor.view_alert"):
        return Alert.objects.none()
    of_his_casinos = Alert.objects.filter(casino__in=casinos_of(user))
    if user.has_perm("pit.view_all_tables"):
        return of_his_casinos
    return of_his_casinos.filter(table__staff=user)


def assigned_tables(user) -> set[int] | None:
    """The ids of the tables `user` is assigned to at his casinos, or None when he sees every
    table of them (`visible_alerts` keeps him to his casinos)."""
    if user.has_perm("pit.view_all_tables"):
        return None
    return set(user.tables.filter(casino__in=casinos_of(user)).values_list("pk", flat=True))


def may_acknowledge(user, alert: Alert, assigned: set[int] | None = ...) -> str | None:
    """Why `user` may not acknowledge `alert`, in words, or None when he may. The role's
    permission, at a casino he is given, and: a supervisor (no `pit.view_all_tables`) only at the tables he is assigned
    to (`assigned`, read once for a page of alerts), never an alert of no table (a finding of
    the ledger's check); an escalated alert only a manager (`floor.acknowledge_escalated_alert`),
    since escalation hands it to them."""
    if not user.has_perm("floor.acknowledge_alert"):
        return _("Your role does not allow this.")
    if not at_casino(user, alert.casino_id):
        return _("This alert is at a casino you are not given.")
    if assigned is ...:
        assigned = assigned_tables(user)
    if assigned is not None and alert.table_id not in assigned:
        return _("You are not assigned to the table of this alert.")
    if alert.escalated_at is not None and not user.has_perm("floor.acknowledge_escalated_alert"):
        return _("This alert was escalated to the managers: a manager acknowledges it.")
    return None


def acknowledge(*, alert: Alert, user: User, note: str, at: dt.datetime | None = None) -> Alert:
    """A person saw the alert and says what he did: a note is required. Once only; a cleared
    alert may be acknowledged still (its condition ended, the note says what was seen)."""
    if not note or not note.strip():
        raise refuse(code="note", field="note",
                     template=gettext_noop("Note: say what you saw or did about the alert; an alert is "
                                           "acknowledged with a note."))
    at = at or timezone.now()
    with transaction.atomic():
        log = _locked_log(alert.casino_id)
        locked = Alert.objects.select_related("acknowledged_by").get(pk=alert.pk)
        why_not = may_acknowledge(user, locked)
        if why_not:
            raise PermissionDenied(why_not)
        if locked.acknowledged_at is not None:
            raise refuse(code="acknowledged", conflict=True, template=gettext_noop(
                "This alert was acknowledged already, by {person} at {moment}."),
                person=person_name(locked.acknowledged_by),
                moment=days.minute(locked.acknowledged_at))
        event = AlertEvent(alert=locked, kind=AlertEvent.ACKNOWLEDGED, note=note.strip(), recorded_at=at,
                           recorded_by=user)
        _append(log, [event])
        event.save()
        locked.acknowledged_at, locked.acknowledged_by, locked.acknowledgement = at, user, event.note
        locked.save(update_fields=["acknowledged_at", "acknowledged_by", "acknowledgement"])
        log.save(update_fields=["ledger_seq", "ledger_head"])
        _publish_after_commit("alert_acknowledged", [locked.table_id])
    return locked


# --- What the scheduler and verify_ledger call ---------------------------------------------------

def ledger_findings(problems: list[str], *, at: dt.datetime | None = None) -> list[Alert]:
    """What `verify_ledger` found, as one alert in each casino (the check covers them all):
    raised when it finds anything, with the first problems in its words; a later check that
    finds something else clears it and raises a new one, a check that finds nothing clears it."""
    at = at or timezone.now()
    key = "ledger:" + hashlib.sha256("\n".join(problems).encode()).hexdigest()[:16] if problems else ""
    raised = []
    with transaction.atomic():
        for casino_id in Casino.objects.order_by("pk").values_list("pk", flat=True):
            standing = Alert.objects.standing().filter(casino_id=casino_id, rule=LEDGER).values_list("key", flat=True)
            ended = [End(LEDGER, old) for old in standing if old != key]
            wanted = [Raise(LEDGER, None, key, {"problems": len(problems), "first": problems[:5]})] if problems else []
            raised += write(casino_id, wanted, ended, at=at)[0]
    return raised


def tick(now: dt.datetime | None = None) -> dict[str, int]:
    """Evaluate the rules that fire because time passes, clear what ended, and escalate what
    nobody acknowledged for FLOOR_ALERTS["ESCALATE_AFTER_MINUTES"]: the scheduler's job (every
    minute). Returns how many alerts it raised, cleared and escalated."""
    now = now or timezone.now()
    raised = cleared = escalated = 0
    with transaction.atomic():
        for casino_id, (wanted, ended) in timed(now).items():
            new, ended_now = write(casino_id, wanted, ended, at=now)
            raised, cleared = raised + len(new), cleared + ended_now
        late = now - dt.timedelta(minutes=settings.FLOOR_ALERTS["ESCALATE_AFTER_MINUTES"])
        waiting: dict[int, list[Alert]] = {}
        for alert in Alert.objects.open().filter(escalated_at__isnull=True, raised_at__lte=late).order_by("pk"):
            waiting.setdefault(alert.casino_id, []).append(alert)
        for alerts in waiting.values():
            escalated += escalate(alerts, at=now)
    return {"raised": raised, "cleared": cleared, "escalated": escalated}
