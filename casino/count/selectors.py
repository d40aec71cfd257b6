"""What the case screens, the rotation log and the daily report read of the count room, each in
a fixed number of queries whatever the number of tables, shifts, counts or events.

A box's figures (French Arrêté of 14 May 2007, art. 70: each table on its own, never netted):
expected = the expected commission of the count of record (the first count both counters signed
alike, or a recount a manager accepted in its place), as fixed when it opened or as a correction
approved later changed it; before any count agreed, the latest count's; before any count, the sum
of the commission of the current revisions of the table-shift's jogos. counted = what the
counters of the count of record signed; variance = counted − expected.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.conf import settings
from django.db import models
from django.db.models import Count as Tally, OuterRef, Prefetch, QuerySet, Subquery, Sum, Value, When
from django.utils import timezone

from casino.pit.models import Casino, Jogo, Table, superseded

from . import shifts
from .models import Box, Case, CaseEvent, Count, Decision, ExpectedChange, Rotation, Signature
from .services import count_of_record


@dataclass(frozen=True)
class Thresholds:
    """Beyond either, a box's variance opens a case (settings COUNT_VARIANCE_ABSOLUTE, _PERCENT)."""

    absolute: int
    percent: object  # Decimal

    @classmethod
    def now(cls) -> Thresholds:
        return cls(settings.COUNT_VARIANCE_ABSOLUTE, settings.COUNT_VARIANCE_PERCENT)


@dataclass(frozen=True)
class BoxLine:
    """One table-shift of a gaming day in the reconciliation."""

    table: str
    shift: int
    jogos: int
    expected: int
    box: Box | None = None
    latest: Count | None = None  # the latest count (a recount when attempt > 1)
    case: Case | None = None
    record: Count | None = None  # the count of record (services.count_of_record), once a count agreed

    @property
    def counted(self) -> int | None:
        return self.record.counted if self.record else None

    @property
    def variance(self) -> int | None:
        return self.record.variance if self.record else None

    @property
    def recounts(self) -> int:
        return self.latest.attempt - 1 if self.latest else 0

    @property
    def open_case(self) -> Case | None:
        return self.case if self.case and self.case.state != Case.RESOLVED else None


@dataclass(frozen=True)
class TableShifts:
    """A table's boxes of the day, one place per shift (None where the shift had neither jogos nor
    a box): a row of the printed reconciliation."""

    table: str
    shifts: list[BoxLine | None]

    @property
    def open_cases(self) -> list[BoxLine]:
        return [line for line in self.shifts if line and line.open_case]


@dataclass(frozen=True)
class Reconciliation:
    lines: list[BoxLine] = field(default_factory=list)

    @property
    def shift_numbers(self) -> list[int]:
        return list(range(1, shifts.count() + 1))

    @property
    def by_table(self) -> list[TableShifts]:
        """One row per table, its shifts side by side: the printed report lays out a third as many
        rows (WeasyPrint's time grows with them)."""
        rows: dict[str, list[BoxLine | None]] = {}
        for line in self.lines:
            places = rows.setdefault(line.table, [None] * shifts.count())
            places[line.shift - 1] = line
        return [TableShifts(table, places) for table, places in rows.items()]

    @property
    def expected(self) -> int:
        return sum(line.expected for line in self.lines)

    @property
    def counted(self) -> int:
        return sum(line.counted or 0 for line in self.lines)

    @property
    def over(self) -> int:
        """The overages, summed apart from the shortages: never netted (art. 70)."""
        return sum(line.variance for line in self.lines if line.variance and line.variance > 0)

    @property
    def short(self) -> int:
        return sum(line.variance for line in self.lines if line.variance and line.variance < 0)

    @property
    def open_cases(self) -> int:
        return sum(line.open_case is not None for line in self.lines)

    @property
    def uncounted(self) -> int:
        return sum(line.counted is None for line in self.lines)


def counts_with_figures() -> QuerySet[Count]:
    """Counts with what their figures read (signatures and expected changes) prefetched."""
    return Count.objects.select_related("recorded_by").prefetch_related(
        Prefetch("signatures", queryset=Signature.objects.select_related("recorded_by")),
        Prefetch("decisions", queryset=Decision.objects.select_related("recorded_by")),
        Prefetch("changes", queryset=ExpectedChange.objects.select_related("amendment__proposed_by",
                                                                           "amendment__decided_by")))


def _shift_of_first_revision(day: dt.date) -> Subquery:
    """The shift in which a jogo's first revision was recorded: its box, even when a later
    correction is recorded in another shift. Worked out inside the one lookup of that revision
    (by its index, unordered), so that the database looks it up once per jogo, not once per shift."""
    ends = [shifts.shift_bounds(day, number)[1] for number in range(1, shifts.count() + 1)]
    shift = models.Case(*[When(recorded_at__lt=end, then=Value(number)) for number, end in enumerate(ends, 1)],
                        default=Value(len(ends)), output_field=models.IntegerField())
    return Subquery(Jogo.objects.filter(table=OuterRef("table"), number=OuterRef("number"), revision=0)
                    .order_by().annotate(shift=shift).values("shift")[:1])


def live_expected(casino: Casino, day: dt.date) -> dict[tuple[int, int], tuple[str, int, int]]:
    """{(table id, shift): (table number, jogos, expected commission)} of the casino's day as the
    ledger stands now, in one query."""
    rows = (Jogo.objects.filter(table__casino=casino, gaming_day=day).filter(~superseded())
            .annotate(shift=_shift_of_first_revision(day))
            .values("table_id", "table__number", "shift").annotate(jogos=Tally("pk"), expected=Sum("commission"))
            .order_by())
    return {(row["table_id"], row["shift"]): (row["table__number"], row["jogos"], row["expected"] or 0)
            for row in rows}


def reconciliation(casino: Casino, day: dt.date) -> Reconciliation:
    """Every table-shift of the casino's gaming day that has jogos or a box, by table and shift:
    at most six queries (the jogos' sums, the boxes with their cases, and when there are boxes
    their counts, the counts' signatures, decisions and expected changes)."""
    live = live_expected(casino, day)
    boxes = {(box.table_id, box.shift): box for box in
             Box.objects.filter(casino=casino, gaming_day=day).select_related("table", "case")
             .prefetch_related(Prefetch("count_set", queryset=counts_with_figures()))}
    lines = []
    for key in set(live) | set(boxes):
        box = boxes.get(key)
        number, jogos, expected = live.get(key) or (box.table.number, 0, 0)
        counts = sorted(box.count_set.all(), key=lambda c: c.attempt) if box else []
        latest = counts[-1] if counts else None
        case = getattr(box, "case", None) if box else None
        record = count_of_record(counts)
        shown = record or latest
        lines.append(BoxLine(number, key[1], jogos, shown.expected_now if shown else expected, box, latest, case,
                             record))
    lines.sort(key=lambda line: (line.table, line.shift))
    return Reconciliation(lines)


# --- Cases ---------------------------------------------------------------------------------------

def _last_figure(name: str) -> Subquery:
    figures = CaseEvent.objects.filter(case=OuterRef("pk"), variance__isnull=False).order_by("-seq")
    return Subquery(figures.values(name)[:1])


def case_list(*, states: list[str] | None = None, casinos: QuerySet[Casino] | None = None) -> QuerySet[Case]:
    """Cases of the boxes of `casinos` (a person's; every casino's when None), newest first, each
    with its box and the figures of its last opening (`expected`, `counted`, `variance`, from the
    last event that carried them), in one query."""
    cases = Case.objects.all() if casinos is None else Case.objects.filter(box__casino__in=casinos)
    cases = cases.select_related("box__table", "box__casino").annotate(
        expected=_last_figure("expected"), counted=_last_figure("counted"), variance=_last_figure("variance"),
        reopened=models.Exists(CaseEvent.objects.filter(case=OuterRef("pk"), kind=CaseEvent.REOPENED)))
    if states:
        cases = cases.filter(state__in=states)
    return cases.order_by("-opened_at", "-pk")


@dataclass(frozen=True)
class CaseFile:
    """Everything a case's page and its PDF show."""

    case: Case
    box: Box
    counts: list[Count]
    events: list[CaseEvent]
    thresholds: Thresholds

    @property
    def latest(self) -> Count | None:
        return self.counts[-1] if self.counts else None

    @property
    def reopened(self) -> list[CaseEvent]:
        """The reopenings, each after an approved correction moved the expected figure."""
        return [event for event in self.events if event.kind == CaseEvent.REOPENED]

    @property
    def escalated(self) -> bool:
        return any(event.kind == CaseEvent.ESCALATED for event in self.events)


def case_file(case: Case) -> CaseFile:
    """The case with its box, every count and recount with its signatures and expected changes,
    and every event: six queries."""
    box = Box.objects.select_related("table", "casino").get(pk=case.box_id)
    counts = list(counts_with_figures().filter(box=box).order_by("attempt"))
    events = list(case.events.select_related("recorded_by").order_by("seq"))
    return CaseFile(case, box, counts, events, Thresholds.now())


def open_case_count(casinos: QuerySet[Casino] | None = None) -> int:
    """The cases not resolved yet, of the boxes of `casinos` (every casino's when None)."""
    cases = Case.objects.all() if casinos is None else Case.objects.filter(box__casino__in=casinos)
    return cases.exclude(state=Case.RESOLVED).count()


# --- The rotation log ----------------------------------------------------------------------------

def rotation_log(tables: QuerySet[Table], day: dt.date) -> list[Rotation]:
    """Who dealt or supervised at these tables during the gaming day, by table and start."""
    return list(Rotation.objects.filter(table__in=tables, gaming_day=day)
                .select_related("table", "person", "recorded_by", "ended_by")
                .order_by("table__number", "starts_at", "pk"))


# --- Boxes not yet counted -----------------------------------------------------------------------

BOX_NOT_COUNTED = "box_not_counted"  # the code of the problem by which each holds its day's closing


@dataclass(frozen=True)
class UncountedBox:
    """A table-shift of a gaming day that recorded a jogo and whose box is not counted."""

    table: str  # the table's number
    table_id: int
    shift: int
    starts: str  # the shift's start and end on the Macau clock, "14:00"
    ends: str
    box: Box | None = None  # None while nobody has asked for it (services.box_for makes it)


def uncounted_boxes(casino: Casino, day: dt.date) -> list[UncountedBox]:
    """Every table-shift of the casino's gaming day that recorded a jogo and has no agreed count,
    by table and shift. A jogo is in the box of the shift in which its first revision (revision
    0) was recorded, however later corrections were recorded (services.box_jogos). A box is
    counted once one of its counts has two signatures with the same total (`Count.agreed`), a
    recount opened since included; a table-shift whose `Box` row was never made is not counted.
    At most four queries: the table-shifts, the day's boxes, their counts and their signatures."""
    bounds = [shifts.shift_bounds(day, number) for number in range(1, shifts.count() + 1)]
    shift = models.Case(*[When(recorded_at__lt=end, then=Value(number)) for number, (_, end) in enumerate(bounds, 1)],
                        default=Value(len(bounds)), output_field=models.IntegerField())
    played = set(Jogo.objects.filter(table__casino=casino, revision=0, recorded_at__gte=bounds[0][0],
                                     recorded_at__lt=bounds[-1][1])
                 .annotate(shift=shift).values_list("table_id", "table__number", "shift").distinct().order_by())
    if not played:
        return []
    boxes = {(box.table_id, box.shift): box for box in Box.objects.filter(casino=casino, gaming_day=day)
             .prefetch_related(Prefetch("count_set", queryset=Count.objects.prefetch_related("signatures")))}
    found = []
    for table_id, number, shift in sorted(played, key=lambda row: (row[1], row[2])):
        box = boxes.get((table_id, shift))
        if box is not None and any(count.agreed for count in box.count_set.all()):
            continue
        starts, ends = (timezone.localtime(moment).strftime("%H:%M") for moment in bounds[shift - 1])
        found.append(UncountedBox(number, table_id, shift, starts, ends, box))
    return found
