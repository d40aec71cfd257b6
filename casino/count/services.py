"""The count room's writes, each one transaction: the rotation log, opening a box's count (its
expected commission fixed then), the counters' signatures, recounts, the manager's decisions on
a recount, and the variance case a box opens, or reopens, when its variance of record is beyond
the thresholds.

Each function either does all it says or raises `Refused` (the pit's refusal, one shape for
every error) having written nothing. The rules it enforces:

- a box is counted after its table-shift has ended; the first signature opens its count;
- two different counters each enter the counted total and sign by confirming their password
  (wrong passwords count toward the login's lockout); neither worked at the box's table that
  gaming day (the rotation log, jogos recorded or approved, games started or ended, buy-ins and
  cash-outs recorded);
- each signature names the count it signs (its attempt): a count that has moved on is a
  conflict, and a signature retried with the same idempotency key is the first one;
- the box is counted when both totals agree. When they differ, the count stands as signed
  (both totals kept), the box is not counted, and the expected figure stays hidden: the box
  is counted again by a recount, which states its reason;
- no recount while the latest count waits for its second signature, unless its first signer
  abandons it, saying why;
- once a count agreed, its counters have seen the expected figure: a recount then needs a
  manager's approval with a reason, and is signed by counters who have not seen that box's
  expected figure. Every count keeps its own figures; the box's figure of record stays the
  first agreed count's unless a manager accepts a later recount, saying why;
- variance = counted − expected, per box, never netted; beyond COUNT_VARIANCE_ABSOLUTE units
  or COUNT_VARIANCE_PERCENT of the expected, the variance of record opens (or reopens) the
  box's case.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext_noop

from casino.pit import days
from casino.pit.errors import Refused, refuse
from casino.pit.models import Amendment, Casino, Game, Jogo, Movement, Table, superseded
from casino.pit.signals import happened
from casino.terms.vocabulary import person_name
from regulation.record import MAX_AMOUNT

from . import rotation, shifts
from .chain import append_case_event, append_to_box, append_to_rotation_log, locked_box
from .models import Box, BoxScan, Case, CaseEvent, Count, Decision, ExpectedChange, Rotation, RotationEnd, Signature
from .signing import confirm_password

__all__ = ["DraftLine", "Refused", "accept_recount", "approve_recount", "beyond_thresholds", "box_for",
           "expected_commission", "recount", "rotation_close", "rotation_confirm", "rotation_draft",
           "rotation_relieve", "rotation_start", "sign_count", "worked_at"]

DECIDE_RECOUNT = "count.decide_recount"


# --- The rotation log ----------------------------------------------------------------------------

@transaction.atomic
def rotation_start(*, table: Table, person: User, duty: str = Rotation.DEALER, starts_at: dt.datetime,
                   user: User, gaming_day: dt.date | None = None, at: dt.datetime | None = None) -> Rotation:
    """A supervisor records that `person` deals (or supervises) at `table` from `starts_at`, a
    moment already past, within the gaming day (`gaming_day`, when the request names one)."""
    at = at or timezone.now()
    if duty not in dict(Rotation.DUTIES):
        raise refuse(code="duty", field="duty",
                     template=gettext_noop("Duty: a person at a table either deals or supervises."))
    if starts_at > at:
        raise refuse(code="rotation_future", field="starts_at",
                     template=gettext_noop("From: a rotation entry records who worked from a time already past; "
                                           "{starts} has not come yet."), starts=days.minute(starts_at))
    day = days.gaming_day(starts_at)
    if gaming_day is not None and gaming_day != day:
        raise refuse(code="rotation_day", template=gettext_noop("From: {starts} is not within the gaming day {day}."),
                     field="starts_at", starts=days.minute(starts_at), day=gaming_day.isoformat())
    if not person.is_active:
        raise refuse(code="rotation_person", field="person",
                     template=gettext_noop("Person: {who} no longer works here."),
                     who=person_name(person))
    entry = append_to_rotation_log(table.casino, Rotation(table=table, person=person, duty=duty, gaming_day=day,
                                                          starts_at=starts_at, recorded_by=user, recorded_at=at))
    happened("rotation_changed", table=table, subject=entry, user=user, at=at)
    return entry


@transaction.atomic
def rotation_close(*, entry: Rotation, ends_at: dt.datetime, user: User, at: dt.datetime | None = None) -> Rotation:
    """Close a rotation entry with its end, once, within its gaming day."""
    at = at or timezone.now()
    entry = Rotation.objects.select_for_update().select_related("table__casino").get(pk=entry.pk)
    if entry.ends_at is not None:
        raise refuse(code="rotation_closed", field="ends_at", conflict=True,
                     template=gettext_noop("This rotation entry already ended at {ends}; record a new entry instead."),
                     ends=days.minute(entry.ends_at))
    if ends_at <= entry.starts_at:
        raise refuse(code="rotation_end", field="ends_at",
                     template=gettext_noop("End: a rotation entry ends after it starts."))
    day_ends = days.day_bounds(entry.gaming_day)[1]
    if ends_at > day_ends:
        raise refuse(code="rotation_day", template=gettext_noop("End: an entry ends within its gaming day, by {ends}."),
                     field="ends_at", ends=days.minute(day_ends))
    append_to_rotation_log(entry.table.casino, RotationEnd(entry=entry, ends_at=ends_at, recorded_by=user,
                                                           recorded_at=at))
    entry.ends_at, entry.ended_by = ends_at, user
    entry.save(update_fields=["ends_at", "ended_by"])
    happened("rotation_changed", table=entry.table, subject=entry, user=user, at=at)
    return entry


@transaction.atomic
def rotation_relieve(*, entry: Rotation, person: User, relieved_at: dt.datetime, user: User,
                     at: dt.datetime | None = None) -> Rotation:
    """A relief: `person` takes over `entry`'s table and duty at `relieved_at`, in one step. The
    entry ends then and the new one starts then, within the same gaming day and never in the
    future; both or neither are written. The new entry."""
    at = at or timezone.now()
    if person.pk == entry.person_id:
        raise refuse(code="relief_same_person", field="person",
                     template=gettext_noop("Person: a relief hands the table to somebody else; {who} is already on "
                                           "it."), who=person_name(person))
    if relieved_at > at:  # checked before the entry ends, so that nothing is written
        raise refuse(code="rotation_future", field="starts_at",
                     template=gettext_noop("From: a rotation entry records who worked from a time already past; "
                                           "{starts} has not come yet."), starts=days.minute(relieved_at))
    ended = rotation_close(entry=entry, ends_at=relieved_at, user=user, at=at)
    return rotation_start(table=ended.table, person=person, duty=ended.duty, starts_at=relieved_at, user=user,
                          gaming_day=ended.gaming_day, at=at)


@dataclass(frozen=True)
class DraftLine:
    """One line of a shift's draft rotation: who held `entry`'s table and duty as the previous
    shift ended, proposed for the shift."""

    entry: Rotation

    @property
    def table(self) -> Table:
        return self.entry.table

    @property
    def person(self) -> User:
        return self.entry.person

    @property
    def duty(self) -> str:
        return self.entry.duty


def previous_shift(gaming_day: dt.date, shift: int) -> tuple[dt.date, int]:
    """The shift before `shift` of `gaming_day`: the day before's last, before the first."""
    if shift > 1:
        return gaming_day, shift - 1
    return gaming_day - dt.timedelta(days=1), shifts.count()


def shift_start(gaming_day: dt.date, shift: int) -> dt.datetime:
    """When shift `shift` of `gaming_day` starts; refused for a shift the day does not have."""
    try:
        return shifts.shift_bounds(gaming_day, shift)[0]
    except ValueError:
        raise refuse(code="shift", field="shift",
                     template=gettext_noop("Shift: a gaming day has shifts 1 to {shifts}; there is no shift {shift}."),
                     shifts=shifts.count(), shift=shift) from None


def rotation_draft(*, casino: Casino, gaming_day: dt.date, shift: int) -> list[DraftLine]:
    """The draft of a shift's rotation: the casino's entries holding as the previous shift ended
    (its last moment), by table and duty. Nothing is written: a supervisor confirms it
    (`rotation_confirm`), dropping lines or changing their person."""
    starts = shift_start(gaming_day, shift)
    last_moment = starts - dt.timedelta(microseconds=1)
    entries = (rotation.holding(last_moment).filter(table__casino=casino)
               .select_related("table", "person").order_by("table__number", "duty", "starts_at", "pk"))
    return [DraftLine(entry) for entry in entries]


@transaction.atomic
def rotation_confirm(*, casino: Casino, gaming_day: dt.date, shift: int, lines: list[dict], user: User,
                     at: dt.datetime | None = None) -> list[Rotation]:
    """A supervisor confirms a shift's draft (`rotation_draft`): each line kept is {"entry": a
    draft line's entry, "person": who works it, the same or another}. For each, the old entry
    ends at the shift's start when it still holds then, and the new one starts at the shift's
    start, for the same table and duty; lines left out are dropped. A shift is confirmed once it
    has started (no entry starts in the future). All or nothing; the new entries."""
    at = at or timezone.now()
    starts = shift_start(gaming_day, shift)
    draft = {line.entry.pk: line.entry for line in rotation_draft(casino=casino, gaming_day=gaming_day, shift=shift)}
    if not lines:
        raise refuse(code="draft_empty", field="lines",
                     template=gettext_noop("Lines: confirming a shift's draft keeps at least one of its lines."))
    if starts > at:
        raise refuse(code="rotation_future", field="shift",
                     template=gettext_noop("Shift: shift {shift} starts at {starts}; its draft is confirmed once it "
                                           "has started, as no rotation entry starts in the future."),
                     shift=shift, starts=days.minute(starts))
    made = []
    for line in lines:
        entry = draft.get(getattr(line["entry"], "pk", line["entry"]))
        if entry is None:
            raise refuse(code="draft_line", field="lines", conflict=True,
                         template=gettext_noop("Lines: an entry is not in the draft of shift {shift} of {day}; read "
                                               "the draft again."), shift=shift, day=gaming_day.isoformat())
        if Rotation.objects.filter(table=entry.table, duty=entry.duty, person=line["person"],
                                   starts_at=starts).exists():
            raise refuse(code="draft_confirmed", field="lines", conflict=True,
                         template=gettext_noop("Lines: {who} is already on table {table} from {starts}; this draft "
                                               "was confirmed."), who=person_name(line["person"]),
                         table=entry.table.number, starts=days.minute(starts))
        if not Rotation.objects.filter(pk=entry.pk, ends_at__isnull=False).exists():
            rotation_close(entry=entry, ends_at=starts, user=user, at=at)
        made.append(rotation_start(table=entry.table, person=line["person"], duty=entry.duty, starts_at=starts,
                                   user=user, gaming_day=gaming_day, at=at))
    return made


# --- Boxes and what they should hold -------------------------------------------------------------

def box_for(*, table: Table, gaming_day: dt.date, shift: int) -> Box:
    """The box of a table-shift, made the first time it is asked for. Refused for a shift the
    gaming day does not have."""
    try:
        starts_at, ends_at = shifts.shift_bounds(gaming_day, shift)
    except ValueError:
        raise refuse(code="no_box", field="shift",
                     template=gettext_noop("Shift: a gaming day has shifts 1 to {shifts}; there is no box of shift "
                                           "{shift}."), shifts=shifts.count(), shift=shift) from None
    box, _ = Box.objects.get_or_create(table=table, gaming_day=gaming_day, shift=shift,
                                       defaults={"casino_id": table.casino_id, "starts_at": starts_at,
                                                 "ends_at": ends_at})
    return box


def make_boxes(*, now: dt.datetime | None = None) -> None:
    """Make the box of every table-shift that has ended and recorded a jogo, where it was not made
    yet. The jogos are read once each, in the order they were stored, from the last one read
    before (`BoxScan`); a jogo whose shift has not ended yet is read again next time."""
    now = now or timezone.now()
    with transaction.atomic():
        BoxScan.objects.get_or_create(pk=1)
        scan = BoxScan.objects.select_for_update().get(pk=1)
        wanted, through = set(), scan.last_jogo_id
        rows = (Jogo.objects.filter(pk__gt=scan.last_jogo_id, revision=0).order_by("pk")
                .values_list("pk", "table_id", "recorded_at"))
        waiting = False
        for pk, table_id, moment in rows.iterator(chunk_size=5000):
            day, shift = shifts.shift_of(moment)
            if shifts.shift_bounds(day, shift)[1] <= now:
                wanted.add((table_id, day, shift))
            else:
                waiting = True  # this jogo's shift is still running: read again from here
            if not waiting:
                through = pk
        if wanted:
            first = min(day for _, day, _ in wanted)
            existing = set(Box.objects.filter(gaming_day__gte=first).values_list("table_id", "gaming_day", "shift"))
            tables = {t.pk: t for t in Table.objects.filter(pk__in={w[0] for w in wanted - existing})}
            for table_id, day, shift in sorted(wanted - existing, key=lambda w: (w[1], w[2], w[0])):
                box_for(table=tables[table_id], gaming_day=day, shift=shift)
        if through != scan.last_jogo_id:
            scan.last_jogo_id = through
            scan.save(update_fields=["last_jogo_id"])


def to_count() -> QuerySet[Box]:
    """The boxes with counting still to do: never counted, or whose latest count is open,
    abandoned, disagreed, or agreed and since approved for a recount."""
    latest = Count.objects.filter(box=OuterRef("pk")).order_by("-attempt").values("pk")[:1]
    agreed = Signature.objects.filter(count=OuterRef("latest"), count__signatures__counted=F("counted"),
                                      count__signatures__seq__lt=F("seq"))
    approved = Decision.objects.filter(count=OuterRef("latest"), kind=Decision.RECOUNT_APPROVED)
    return Box.objects.annotate(latest=Subquery(latest)).filter(~Exists(agreed) | Exists(approved))


def boxes_ready(*, casino=None, now: dt.datetime | None = None, day: dt.date | None = None,
                recent_days: int = 2) -> list[Box]:
    """The boxes of ended table-shifts: with `day`, every box of that gaming day; otherwise every
    box with counting still to do, however old, and the boxes counted in the last `recent_days`
    gaming days. Oldest first. The boxes of table-shifts that ended since are made first."""
    now = now or timezone.now()
    make_boxes(now=now)
    ended = Box.objects.filter(ends_at__lte=now)
    if casino is not None:
        ended = ended.filter(casino=casino)
    if day is not None:
        boxes = ended.filter(gaming_day=day)
    else:
        since = days.gaming_day(now) - dt.timedelta(days=recent_days - 1)
        boxes = ended.filter(Q(pk__in=to_count().values("pk")) | Q(gaming_day__gte=since))
    return list(boxes.select_related("table__casino").order_by("gaming_day", "shift", "table__number"))


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

def worked_at(user: User, table: Table, day: dt.date) -> str | None:
    """How `user` worked at `table` on gaming day `day`, in English words to translate, or None:
    the rotation log, jogos he recorded or approved, games he started or ended, money he moved."""
    starts, ends = days.day_bounds(day)
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


def _refuse_if_worked_at(user: User, box: Box) -> None:
    how = worked_at(user, box.table, box.gaming_day)
    if how:
        raise refuse(code="not_independent", field="counter",
                     template=gettext_noop("Counter: {who} worked at table {table} on the gaming day {day} ({how}); "
                                           "nobody counts the box of a table where he dealt or supervised that day."),
                     who=person_name(user), table=box.table.number, day=box.gaming_day.isoformat(), how=how)


def _refuse_if_not_ended(box: Box, at: dt.datetime) -> None:
    if at < box.ends_at:
        raise refuse(code="shift_not_ended",
                     template=gettext_noop("Box: the shift {shift} of table {table} on {day} ends at {ends}; a box is "
                                           "counted after its table-shift has ended."), field="box", conflict=True,
                     shift=box.shift, table=box.table.number, day=box.gaming_day.isoformat(),
                     ends=timezone.localtime(box.ends_at).strftime("%H:%M"))


# --- Counting ------------------------------------------------------------------------------------

def counts_of(box: Box) -> list[Count]:
    """The box's counts, oldest first, with what their state reads (signatures, decisions and
    expected changes)."""
    counts = Count.objects.filter(box=box).prefetch_related("signatures", "decisions", "changes")
    return list(counts.order_by("attempt"))


def count_of_record(counts: list[Count]) -> Count | None:
    """The count whose figures are the box's: the latest recount a manager accepted, otherwise
    the first count both counters signed alike; None while no count agreed."""
    accepted = [c for c in counts if any(d.kind == Decision.RECOUNT_ACCEPTED for d in c.decisions.all())]
    return accepted[-1] if accepted else next((c for c in counts if c.agreed), None)


def is_open(count: Count) -> bool:
    """A count waiting for a signature: fewer than two, and not abandoned."""
    return not count.complete and not count.abandoned


def recount_approved(count: Count) -> Decision | None:
    return next((d for d in count.decisions.all() if d.kind == Decision.RECOUNT_APPROVED), None)


def seen_by(counts: list[Count]) -> set[int]:
    """The counters who have seen the box's expected figure: the signers of a count that agreed."""
    return {s.recorded_by_id for c in counts if c.agreed for s in c.signed}


def _open(box: Box, *, user: User, attempt: int, reason: str, at: dt.datetime) -> Count:
    _refuse_if_not_ended(box, at)
    return append_to_box(box, Count(attempt=attempt, expected=expected_commission(box), reason=reason,
                                    recorded_by=user, recorded_at=at))


def _refuse_if_seen(user: User, box: Box, counts: list[Count]) -> None:
    if user.pk in seen_by(counts):
        raise refuse(code="seen_expected", field="counter", conflict=True,
                     template=gettext_noop("Counter: {who} signed a count of this box that agreed and so has seen "
                                           "what it should hold; a recount is signed by counters who have not."),
                     who=person_name(user))


def _refuse_if_open(latest: Count, user: User, abandon: bool) -> None:
    first = latest.signed[0].recorded_by_id if latest.signed else latest.recorded_by_id
    if abandon and user.pk == first:
        return
    if abandon:
        raise refuse(code="not_first_signer", field="abandon", conflict=True,
                     template=gettext_noop("Box: only the counter who signed count {attempt} first may abandon it."),
                     attempt=latest.attempt)
    raise refuse(code="count_open", field="box", conflict=True,
                 template=gettext_noop("Box: count {attempt} waits for its second signature; the box is counted "
                                       "again only after it, unless its first signer abandons it."),
                 attempt=latest.attempt)


@transaction.atomic
def recount(*, box: Box, user: User, reason: str, abandon: bool = False, at: dt.datetime | None = None) -> Count:
    """Count a box again, for a stated reason: a new count (attempt 2, 3, ...) with the expected
    commission fixed anew; every earlier count and its signatures are kept. Allowed after a count
    whose totals differ or that was abandoned; a count still waiting for its second signature is
    first abandoned by its first signer (`abandon`), with the same reason. After a count that
    agreed, only a manager's approval starts a recount (`approve_recount`)."""
    at = at or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise refuse(code="reason", field="reason",
                     template=gettext_noop("Reason: a recount states why the box is counted again."))
    box = locked_box(box)
    counts = counts_of(box)
    if not counts:
        raise refuse(code="not_counted", field="box", conflict=True,
                     template=gettext_noop("Box: this box has not been counted yet; its first count needs no reason."))
    latest = counts[-1]
    if latest.agreed:
        raise refuse(code="recount_needs_approval", field="box", conflict=True,
                     template=gettext_noop("Box: both counters agreed on this box and saw what it should hold; a "
                                           "recount now needs a manager's approval, with its reason."))
    _refuse_if_worked_at(user, box)
    _refuse_if_seen(user, box, counts)
    if is_open(latest):
        _refuse_if_open(latest, user, abandon)
        append_to_box(box, Decision(count=latest, kind=Decision.ABANDONED, reason=reason, recorded_by=user,
                                    recorded_at=at))
    return _open(box, user=user, attempt=latest.attempt + 1, reason=reason, at=at)


def _manager_decides(box: Box, user: User, reason: str, reason_needed: str) -> tuple[Box, list[Count], str]:
    """What a manager's decision on a recount starts with: his permission and his reason checked,
    then the box locked and its counts read."""
    if not user.has_perm(DECIDE_RECOUNT):
        raise refuse(code="not_manager", conflict=True,
                     template=gettext_noop("Only a manager decides on a recount of a box whose count agreed."))
    reason = (reason or "").strip()
    if not reason:
        raise refuse(code="reason", template=reason_needed, field="reason")
    box = locked_box(box)
    return box, counts_of(box), reason


@transaction.atomic
def approve_recount(*, box: Box, user: User, reason: str, at: dt.datetime | None = None) -> Decision:
    """A manager approves counting again a box whose latest count agreed, saying why. Two
    counters who have not seen the box's expected figure then count it; the first signature
    opens the recount, with this reason."""
    box, counts, reason = _manager_decides(box, user, reason, gettext_noop("Reason: approving a recount says why the "
                                                                         "box is counted again."))
    latest = counts[-1] if counts else None
    if latest is None or not latest.agreed:
        raise refuse(code="recount_not_needed",
                     template=gettext_noop("Box: only a box whose latest count agreed needs a manager's approval to be "
                                           "counted again."), field="box", conflict=True)
    if recount_approved(latest):
        raise refuse(code="recount_approved", template=gettext_noop("Box: a recount of count {attempt} is already "
                                                                    "approved."), field="box", conflict=True,
                     attempt=latest.attempt)
    return append_to_box(box, Decision(count=latest, kind=Decision.RECOUNT_APPROVED, reason=reason, recorded_by=user,
                                       recorded_at=at or timezone.now()))


@transaction.atomic
def accept_recount(*, box: Box, user: User, attempt: int, reason: str, at: dt.datetime | None = None) -> Decision:
    """A manager accepts a recount that agreed as the box's figure of record, saying why: the
    box's variance, and its case, follow that count from now on."""
    at = at or timezone.now()
    box, counts, reason = _manager_decides(box, user, reason, gettext_noop("Reason: accepting a recount says why its "
                                                                         "figure is the box's."))
    record = count_of_record(counts)
    count = next((c for c in counts if c.attempt == attempt), None)
    if count is None or not count.agreed or record is None or count.attempt <= record.attempt:
        raise refuse(code="not_acceptable", field="count", conflict=True,
                     template=gettext_noop("Count: only a recount that agreed, later than the count of record, is "
                                           "accepted in its place; count {attempt} is not one."), attempt=attempt)
    decision = append_to_box(box, Decision(count=count, kind=Decision.RECOUNT_ACCEPTED, reason=reason,
                                           recorded_by=user, recorded_at=at))
    reconcile(box=box, count=Count.objects.prefetch_related("signatures", "changes").get(pk=count.pk), user=user, at=at)
    return decision


def _counted_amount(counted) -> int:
    """The counted amount as the record format writes amounts: a whole number, or a string of
    plain digits."""
    if isinstance(counted, str) and counted.isascii() and counted.isdigit():
        counted = int(counted)
    if isinstance(counted, bool) or not isinstance(counted, int):
        raise refuse(code="counted", field="counted",
                     template=gettext_noop("Amount counted: a whole number of currency units."))
    if counted < 0:
        raise refuse(code="negative", field="counted",
                     template=gettext_noop("Amount counted: an amount counted is never negative ({amount})."),
                     amount=counted)
    if counted > MAX_AMOUNT:
        raise refuse(code="counted", template=gettext_noop("Amount counted: at most {limit} units."), field="counted",
                     limit=MAX_AMOUNT)
    return counted


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
        raise refuse(code="denominations", field="denominations",
                     template=gettext_noop("Chips by value: each chip value is a positive whole number and each "
                                           "quantity a whole number, zero or more.")) from None
    total = sum(value * quantity for value, quantity in chips.items())
    if total != counted:
        raise refuse(code="denominations", field="denominations",
                     template=gettext_noop("Chips by value: the chips listed add up to {total}, not to the amount "
                                           "counted, {counted}."), total=total, counted=counted)
    return {str(value): quantity for value, quantity in sorted(chips.items()) if quantity}


def _count_to_sign(box: Box, counts: list[Count], user: User, at: dt.datetime) -> Count:
    """The count a signature now goes to: the open count, or a new one when the box has none (its
    first count) or a manager approved a recount of its latest count."""
    latest = counts[-1] if counts else None
    if latest is None:
        return _open(box, user=user, attempt=1, reason="", at=at)
    if is_open(latest):
        return latest
    approval = recount_approved(latest) if latest.agreed else None
    if approval is not None:
        return _open(box, user=user, attempt=latest.attempt + 1, reason=approval.reason, at=at)
    if latest.agreed:
        raise refuse(code="count_complete", field="box", conflict=True,
                     template=gettext_noop("Box: this count has both its signatures; counting the box again is a "
                                           "recount, which a manager approves."))
    raise refuse(code="count_complete", field="box", conflict=True,
                 template=gettext_noop("Box: count {attempt} is over; counting the box again is a recount, which "
                                       "states its reason."), attempt=latest.attempt)


def _next_attempt(counts: list[Count]) -> int:
    """The attempt a signature now signs: the open count's, or the next."""
    latest = counts[-1] if counts else None
    return latest.attempt if latest is not None and is_open(latest) else (latest.attempt + 1 if latest else 1)


def sign_count(*, box: Box, user: User, password: str, counted, denominations: dict | None = None,
               attempt: int | None = None, idempotency_key: str = "", request=None,
               at: dt.datetime | None = None) -> Signature:
    """A counter's counted total of the box, signed by confirming his password (through the
    login's lockout when `request` is given). `attempt` names the count it signs (None: whatever
    count is open); a count that has moved on is a conflict. The box's first signature opens its
    count, and the first after a manager's approval the recount. With the second counter's
    signature the count is complete: when both totals agree and it is the count of record, its
    variance may open the box's case.

    A signature already recorded with `idempotency_key` by the same counter is returned as it is
    (`signature.replayed` is True), so that a retried request signs once."""
    at = at or timezone.now()
    counted = _counted_amount(counted)
    chips = _denominations(denominations, counted)
    # Before the transaction: a wrong password is counted toward the lockout even though the
    # signature is refused (the refusal rolls its transaction back).
    confirm_password(user, password, request)
    with transaction.atomic():
        return _sign(box=box, user=user, counted=counted, chips=chips, attempt=attempt,
                     idempotency_key=idempotency_key, at=at)


def _sign(*, box: Box, user: User, counted: int, chips: dict, attempt: int | None, idempotency_key: str,
          at: dt.datetime) -> Signature:
    box = locked_box(box)
    if idempotency_key:
        earlier = Signature.objects.filter(box=box, idempotency_key=idempotency_key).first()
        if earlier is not None:
            if earlier.recorded_by_id != user.pk:
                raise refuse(code="idempotency_key", field="idempotency_key", conflict=True,
                             template=gettext_noop("Idempotency key: already used for another counter's signature."))
            earlier.replayed = True
            return earlier
    counts = counts_of(box)
    now_at = _next_attempt(counts)
    if attempt is not None and attempt != now_at:
        raise refuse(code="count_moved_on", field="count", conflict=True,
                     template=gettext_noop("Count: you are signing count {asked}, but the box is at count {now}; "
                                           "read the box again and count it as it stands."), asked=attempt, now=now_at)
    _refuse_if_not_ended(box, at)
    _refuse_if_worked_at(user, box)
    _refuse_if_seen(user, box, counts)
    count = _count_to_sign(box, counts, user, at)
    if any(s.recorded_by_id == user.pk for s in count.signatures.all()):
        raise refuse(code="signed_twice", field="counter", conflict=True,
                     template=gettext_noop("Counter: {who} has already signed this count; the second signature is "
                                           "another counter's."), who=person_name(user))
    signature = append_to_box(box, Signature(count=count, counted=counted, denominations=chips,
                                             idempotency_key=idempotency_key, recorded_by=user, recorded_at=at))
    signature.replayed = False
    counts = counts_of(box)
    count = next(c for c in counts if c.pk == count.pk)
    if count.agreed:
        happened("box_counted", table=box.table, subject=box, user=user, at=at)
        if count_of_record(counts) == count:
            reconcile(box=box, count=count, user=user, at=at)
    return signature


# --- Cases ---------------------------------------------------------------------------------------

def reconcile(*, box: Box, count: Count, user: User, at: dt.datetime) -> CaseEvent | None:
    """After the count of record agrees, or its expected figure changes, or a manager accepts a
    recount in its place: a variance beyond the thresholds opens the box's case, or reopens it
    when it was explained or resolved; a case still being worked gets an event with the new
    figures. Nothing happens to a box without a case whose
    variance is within the thresholds."""
    expected, counted, variance = count.expected_now, count.counted, count.variance
    if variance is None:
        return None
    beyond = beyond_thresholds(expected=expected, variance=variance)
    case = Case.objects.filter(box=box).first()
    figures = {"expected": expected, "counted": counted, "variance": variance, "recorded_by": user, "at": at}
    if case is None:
        if not beyond:
            return None
        case = Case.objects.create(box=box, count=count, opened_at=at)
        event = append_case_event(case=case, kind=CaseEvent.OPENED, state=Case.OPEN, **figures)
        happened("case_opened", table=box.table, subject=case, user=user, at=at)
        return event
    if beyond and case.state in (Case.EXPLAINED, Case.RESOLVED):
        event = append_case_event(case=case, kind=CaseEvent.REOPENED, state=Case.OPEN, **figures)
        happened("case_reopened", table=box.table, subject=case, user=user, at=at)
        return event
    last = case.events.exclude(variance=None).order_by("-seq").first()
    if last is not None and (last.expected, last.counted) == (expected, counted):
        return None
    return append_case_event(case=case, kind=CaseEvent.RECOUNTED, state=case.state, **figures)


@transaction.atomic
def correction_approved(*, amendment: Amendment) -> list[ExpectedChange]:
    """A correction approved after a box's count opened changes what the box should hold: the
    box's latest count and its count of record get their new expected figure, and a counted box
    is reconciled again (its
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
        counts = counts_of(box)
        if not counts:
            continue
        expected = expected_commission(box)
        record = count_of_record(counts)
        moved = [count for count in {counts[-1], record} - {None} if count.expected_now != expected]
        for count in sorted(moved, key=lambda c: c.attempt):
            made.append(append_to_box(box, ExpectedChange(count=count, expected=expected, amendment=amendment,
                                                          recorded_by=amendment.decided_by,
                                                          recorded_at=amendment.decided_at)))
        if record in moved:
            record = Count.objects.prefetch_related("signatures", "changes").get(pk=record.pk)
            reconcile(box=box, count=record, user=amendment.decided_by, at=amendment.decided_at)
    return made
