"""The count room's writes, each one transaction: the rotation log, opening a box's count (its
expected commission fixed then), the counters' signatures, recounts, and the variance case a
box opens, or reopens, when its variance is beyond the thresholds.

Each function either does all it says or raises `Refused` (the pit's refusal, one shape for
every error) having written nothing. The rules it enforces:

- a box is counted after its table-shift has ended, once; counting it again is a recount,
  which states its reason; every count is kept;
- two different counters each enter the counted total and sign by confirming their password;
  neither worked at the box's table that gaming day (the rotation log, jogos recorded or
  approved, games started or ended, buy-ins and cash-outs recorded);
- the box is counted when both totals agree. When they differ, the count stands as signed
  (both totals kept), the box is not counted, and the expected figure stays hidden: the box
  is counted again by a recount;
- variance = counted − expected, per box, never netted; beyond COUNT_VARIANCE_ABSOLUTE units
  or COUNT_VARIANCE_PERCENT of the expected, the box's case opens (or reopens).
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_noop

from casino.pit.models import Amendment, Game, Jogo, Movement, Table, superseded
from casino.pit.errors import Refused, refuse
from regulation.record import MAX_AMOUNT

from . import shifts
from .chain import append_case_event, append_to_box, locked_box
from .models import Box, Case, CaseEvent, Count, ExpectedChange, Rotation, Signature

__all__ = ["Refused", "beyond_thresholds", "box_for", "box_by_id", "expected_commission", "open_count", "recount",
           "rotation_close", "rotation_start", "sign_count", "worked_at"]


# --- The rotation log ----------------------------------------------------------------------------

@transaction.atomic
def rotation_start(*, table: Table, person, duty: str = Rotation.DEALER, starts_at: dt.datetime,
                   recorded_by, at: dt.datetime | None = None) -> Rotation:
    """A supervisor records that `person` deals (or supervises) at `table` from `starts_at`."""
    if duty not in dict(Rotation.DUTIES):
        raise refuse("duty", None, gettext_noop("Duty: a person at a table either deals or supervises."), "duty")
    return Rotation.objects.create(table=table, person=person, duty=duty, gaming_day=shifts.gaming_day(starts_at),
                                   starts_at=starts_at, recorded_by=recorded_by, recorded_at=at or timezone.now())


@transaction.atomic
def rotation_close(*, entry: Rotation, ends_at: dt.datetime, closed_by) -> Rotation:
    """Close a rotation entry with its end, once."""
    entry = Rotation.objects.select_for_update().get(pk=entry.pk)
    if entry.ends_at is not None:
        raise refuse("rotation_closed", None, gettext_noop("This rotation entry already ended at {ends}; record a "
                                                           "new entry instead."), "ends_at", conflict=True,
                     ends=timezone.localtime(entry.ends_at).strftime("%Y-%m-%d %H:%M"))
    if ends_at <= entry.starts_at:
        raise refuse("rotation_end", None, gettext_noop("End: a rotation entry ends after it starts."), "ends_at")
    entry.ends_at, entry.ended_by = ends_at, closed_by
    entry.save(update_fields=["ends_at", "ended_by"])
    return entry


# --- Boxes and what they should hold -------------------------------------------------------------

def box_for(*, table: Table, gaming_day: dt.date, shift: int) -> Box:
    """The box of a table-shift, made the first time it is asked for. Refused for a shift the
    gaming day does not have."""
    try:
        starts_at, ends_at = shifts.shift_bounds(gaming_day, shift)
    except ValueError:
        raise refuse("no_box", None, gettext_noop("Shift: a gaming day has shifts 1 to {shifts}; there is no box of "
                                                  "shift {shift}."), "shift", shifts=shifts.count(), shift=shift)
    box, _ = Box.objects.get_or_create(table=table, gaming_day=gaming_day, shift=shift,
                                       defaults={"casino_id": table.casino_id, "starts_at": starts_at,
                                                 "ends_at": ends_at})
    return box


def box_by_id(box_id) -> Box:
    """The box with this number, or a refusal naming it."""
    try:
        return Box.objects.select_related("table__casino").get(pk=int(box_id))
    except (Box.DoesNotExist, TypeError, ValueError):
        raise refuse("no_box", None, gettext_noop("Box: there is no commission box {box}; count a box from the list "
                                                  "of boxes ready to count."), "box", box=str(box_id)) from None


def boxes_ready(*, casino=None, now: dt.datetime | None = None, days: int = 2) -> list[Box]:
    """The boxes of the table-shifts that have ended, in the last `days` gaming days, of every
    table that recorded a jogo in them: each made if it was not yet."""
    now = now or timezone.now()
    today, _ = shifts.shift_of(now)
    first, _ = shifts.shift_bounds(today - dt.timedelta(days=days - 1), 1)
    originals = Jogo.objects.filter(revision=0, recorded_at__gte=first, recorded_at__lt=now)
    if casino is not None:
        originals = originals.filter(table__casino=casino)
    wanted = set()
    for table_id, moment in originals.values_list("table_id", "recorded_at").order_by():
        day, shift = shifts.shift_of(moment)
        if shifts.shift_bounds(day, shift)[1] <= now:
            wanted.add((table_id, day, shift))
    existing = {(b.table_id, b.gaming_day, b.shift) for b in Box.objects.filter(gaming_day__gte=first.date() - dt.timedelta(days=1))}
    tables = {t.pk: t for t in Table.objects.filter(pk__in={w[0] for w in wanted - existing})}
    with transaction.atomic():
        for table_id, day, shift in sorted(wanted - existing, key=lambda w: (w[1], w[2], w[0])):
            box_for(table=tables[table_id], gaming_day=day, shift=shift)
    boxes = Box.objects.filter(ends_at__lte=now, starts_at__gte=first).select_related("table__casino")
    if casino is not None:
        boxes = boxes.filter(casino=casino)
    return list(boxes.order_by("gaming_day", "shift", "table__number"))


def box_jogos(box: Box):
    """The jogos of a box as they stand: the current revision of each jogo whose first revision
    was recorded at the box's table during its shift."""
    numbers = Jogo.objects.filter(table=box.table_id, revision=0, recorded_at__gte=box.starts_at,
                                  recorded_at__lt=box.ends_at).values("number")
    return Jogo.objects.filter(table=box.table_id, number__in=numbers).filter(~superseded())


def expected_commission(box: Box) -> int:
    """The commission the box should hold: that of the current revisions of its jogos."""
    return box_jogos(box).aggregate(total=Sum("commission"))["total"] or 0


def beyond_thresholds(*, expected: int, variance: int) -> bool:
    """Whether a variance opens a case: more than COUNT_VARIANCE_ABSOLUTE whole units either
    way, or more than COUNT_VARIANCE_PERCENT of the expected commission (any variance of a box
    expected to be empty)."""
    size = abs(variance)
    if size > settings.COUNT_VARIANCE_ABSOLUTE:
        return True
    if expected == 0:
        return size > 0
    return Decimal(size) * 100 > Decimal(settings.COUNT_VARIANCE_PERCENT) * expected


# --- Independence --------------------------------------------------------------------------------

def worked_at(user, table: Table, day: dt.date) -> str | None:
    """How `user` worked at `table` on gaming day `day`, in English words to translate, or None:
    the rotation log, jogos he recorded or approved, games he started or ended, money he moved."""
    starts, _ = shifts.shift_bounds(day, 1)
    ends = starts + shifts.DAY
    checks = [
        (gettext_noop("on the rotation log"), Rotation.objects.filter(table=table, person=user, gaming_day=day)),
        (gettext_noop("recorded or approved jogos"),
         Jogo.objects.filter(Q(recorded_by=user) | Q(approved_by=user), table=table, gaming_day=day)),
        (gettext_noop("started or ended a game"),
         Game.objects.filter(Q(started_by=user) | Q(ended_by=user), table=table, started_at__gte=starts,
                             started_at__lt=ends)),
        (gettext_noop("recorded buy-ins or cash-outs"),
         Movement.objects.filter(table=table, gaming_day=day, recorded_by=user)),
    ]
    return next((how for how, rows in checks if rows.exists()), None)


def _refuse_if_worked_at(user, box: Box) -> None:
    how = worked_at(user, box.table, box.gaming_day)
    if how:
        raise refuse("not_independent", None,
                     gettext_noop("Counter: {who} worked at table {table} on the gaming day {day} ({how}); nobody "
                                  "counts the box of a table where he dealt or supervised that day."),
                     "counter", who=user.get_username(), table=box.table.number, day=box.gaming_day.isoformat(),
                     how=how)


def _refuse_if_not_ended(box: Box, at: dt.datetime) -> None:
    if at < box.ends_at:
        raise refuse("shift_not_ended", None,
                     gettext_noop("Box: the shift {shift} of table {table} on {day} ends at {ends}; a box is "
                                  "counted after its table-shift has ended."), "box", conflict=True,
                     shift=box.shift, table=box.table.number, day=box.gaming_day.isoformat(),
                     ends=timezone.localtime(box.ends_at).strftime("%H:%M"))


# --- Counting ------------------------------------------------------------------------------------

def _open(box: Box, *, opened_by, attempt: int, reason: str, at: dt.datetime) -> Count:
    _refuse_if_not_ended(box, at)
    _refuse_if_worked_at(opened_by, box)
    return append_to_box(box, Count(attempt=attempt, expected=expected_commission(box), reason=reason,
                                    recorded_by=opened_by, recorded_at=at))


@transaction.atomic
def open_count(*, box: Box, opened_by, at: dt.datetime | None = None) -> Count:
    """Open the count of a box whose table-shift has ended: its expected commission is fixed now.
    A box has one count; counting it again is a recount (`recount`)."""
    box = locked_box(box)
    latest = Count.objects.filter(box=box).order_by("-attempt").first()
    if latest is not None:
        raise refuse("already_counted", None,
                     gettext_noop("Box: the box of table {table}, shift {shift} of {day} already has its count; it is "
                                  "counted again only by a recount, which states its reason."), "box", conflict=True,
                     table=box.table.number, shift=box.shift, day=box.gaming_day.isoformat())
    return _open(box, opened_by=opened_by, attempt=1, reason="", at=at or timezone.now())


@transaction.atomic
def recount(*, box: Box, opened_by, reason: str, at: dt.datetime | None = None) -> Count:
    """Count a box again, for a stated reason: a new count (attempt 2, 3, ...) with the expected
    commission fixed anew; every earlier count and its signatures are kept."""
    reason = (reason or "").strip()
    if not reason:
        raise refuse("reason", None, gettext_noop("Reason: a recount states why the box is counted again."), "reason")
    box = locked_box(box)
    latest = Count.objects.filter(box=box).order_by("-attempt").first()
    if latest is None:
        raise refuse("not_counted", None, gettext_noop("Box: this box has not been counted yet; its first count "
                                                       "needs no reason."), "box", conflict=True)
    return _open(box, opened_by=opened_by, attempt=latest.attempt + 1, reason=reason, at=at or timezone.now())


def _denominations(denominations, counted: int) -> dict[str, int]:
    """The chips by value as stored ({"1000": 3}), checked to add up to the counted total."""
    if not denominations:
        return {}
    chips: dict[int, int] = {}
    try:
        items = denominations.items()
        for value, quantity in items:
            value, quantity = int(value), int(quantity)
            if value <= 0 or quantity < 0:
                raise ValueError
            chips[value] = chips.get(value, 0) + quantity
    except (AttributeError, TypeError, ValueError):
        raise refuse("denominations", None, gettext_noop("Chips by value: each chip value is a positive whole "
                                                         "number and each quantity a whole number, zero or more."),
                     "denominations") from None
    total = sum(value * quantity for value, quantity in chips.items())
    if total != counted:
        raise refuse("denominations", None, gettext_noop("Chips by value: the chips listed add up to {total}, not to "
                                                         "the amount counted, {counted}."), "denominations",
                     total=total, counted=counted)
    return {str(value): quantity for value, quantity in sorted(chips.items()) if quantity}


@transaction.atomic
def sign_count(*, box: Box, counter, password: str, counted, denominations: dict | None = None,
               at: dt.datetime | None = None) -> Signature:
    """A counter's counted total of the box, signed by confirming his password. The box's first
    signature opens its count when nobody has. With the second counter's signature the count is
    complete: when both totals agree, the box is counted and its variance may open its case."""
    at = at or timezone.now()
    if isinstance(counted, bool) or not isinstance(counted, int):
        try:
            counted = int(str(counted).strip())
        except ValueError:
            raise refuse("counted", None, gettext_noop("Amount counted: a whole number of currency units."),
                         "counted") from None
    if counted < 0:
        raise refuse("negative", None, gettext_noop("Amount counted: an amount counted is never negative ({amount})."),
                     "counted", amount=counted)
    if counted > MAX_AMOUNT:
        raise refuse("counted", None, gettext_noop("Amount counted: at most {limit} units."), "counted",
                     limit=MAX_AMOUNT)
    chips = _denominations(denominations, counted)
    if not password or not counter.check_password(password):
        raise refuse("password", None, gettext_noop("Password: it does not match; a counter signs a count by "
                                                    "confirming his own password."), "password")
    box = locked_box(box)
    count = Count.objects.filter(box=box).order_by("-attempt").first()
    if count is None:
        count = _open(box, opened_by=counter, attempt=1, reason="", at=at)
    _refuse_if_not_ended(box, at)
    _refuse_if_worked_at(counter, box)
    signed = list(count.signatures.all())
    if any(s.recorded_by_id == counter.pk for s in signed):
        raise refuse("signed_twice", None, gettext_noop("Counter: {who} has already signed this count; the second "
                                                        "signature is another counter's."), "counter",
                     conflict=True, who=counter.get_username())
    if len(signed) >= 2:
        raise refuse("count_complete", None, gettext_noop("Box: this count has both its signatures; counting the box "
                                                          "again is a recount, which states its reason."), "box",
                     conflict=True)
    signature = append_to_box(box, Signature(count=count, counted=counted, denominations=chips,
                                             recorded_by=counter, recorded_at=at))
    count = Count.objects.prefetch_related("signatures", "changes").get(pk=count.pk)
    if count.agreed:
        reconcile(box=box, count=count, by=counter, at=at)
    return signature


# --- Cases ---------------------------------------------------------------------------------------

def reconcile(*, box: Box, count: Count, by, at: dt.datetime) -> CaseEvent | None:
    """After a count agrees, or its expected figure changes: a variance beyond the thresholds
    opens the box's case, or reopens it when it was explained or resolved; a case still being
    worked gets an event with the new figures. Nothing happens to a box without a case whose
    variance is within the thresholds."""
    expected, counted, variance = count.expected_now, count.counted, count.variance
    if variance is None:
        return None
    beyond = beyond_thresholds(expected=expected, variance=variance)
    case = Case.objects.filter(box=box).first()
    figures = {"expected": expected, "counted": counted, "variance": variance, "recorded_by": by, "at": at}
    if case is None:
        if not beyond:
            return None
        case = Case.objects.create(box=box, count=count, opened_at=at)
        return append_case_event(case=case, kind=CaseEvent.OPENED, state=Case.OPEN, **figures)
    if beyond and case.state in (Case.EXPLAINED, Case.RESOLVED):
        return append_case_event(case=case, kind=CaseEvent.REOPENED, state=Case.OPEN, **figures)
    last = case.events.exclude(variance=None).order_by("-seq").first()
    if last is not None and (last.expected, last.counted) == (expected, counted):
        return None
    return append_case_event(case=case, kind=CaseEvent.RECOUNTED, state=case.state, **figures)


@transaction.atomic
def correction_approved(*, amendment: Amendment) -> list[ExpectedChange]:
    """A correction approved after a box's count opened changes what the box should hold: the
    box's latest count gets its new expected figure, and a counted box is reconciled again (its
    case opens or reopens, visibly, when the new variance is beyond the thresholds)."""
    revision = amendment.revision
    if revision is None:
        return []
    changed = Jogo.objects.filter(table=revision.table_id, game=revision.game_id, recorded_at=revision.recorded_at,
                                  seq__gte=revision.seq).values("number")
    moments = Jogo.objects.filter(table=revision.table_id, revision=0, number__in=changed).values_list(
        "recorded_at", flat=True)
    table_shifts = {shifts.shift_of(moment) for moment in moments}
    made = []
    for day, shift in sorted(table_shifts):
        box = Box.objects.filter(table=revision.table_id, gaming_day=day, shift=shift).first()
        if box is None:
            continue
        box = locked_box(box)
        count = Count.objects.filter(box=box).order_by("-attempt").first()
        if count is None:
            continue
        expected = expected_commission(box)
        if expected == count.expected_now:
            continue
        made.append(append_to_box(box, ExpectedChange(count=count, expected=expected, amendment=amendment,
                                                      recorded_by=amendment.decided_by,
                                                      recorded_at=amendment.decided_at)))
        count = Count.objects.prefetch_related("signatures", "changes").get(pk=count.pk)
        reconcile(box=box, count=count, by=amendment.decided_by, at=amendment.decided_at)
    return made
