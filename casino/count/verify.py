"""Checking the count's records for `verify_ledger`:

- every box's counts, signatures, expected changes and decisions, every case's events and every
  casino's rotation log are re-hashed in order, `seq` without gaps, each chain ending at the
  head its owner carries. A changed, removed or inserted row breaks its chain there;
- each case's state is its last event's, its opening its first event's ("opened", at the case's
  time), and the count that opened it is a count of its box with the figures of that event;
- every box whose variance of record is beyond the thresholds has a case (with the thresholds
  in force when the check runs);
- each rotation entry's end is the end recorded in the chain.

The saved heads of these chains (heads.py) catch what a rewound head hides.
"""
from __future__ import annotations

from collections import defaultdict

from casino.chain import first_break
from casino.pit.verify import Checked

from .chain import row_hash
from .models import Box, Case, CaseEvent, Count, Decision, ExpectedChange, Rotation, RotationEnd, RotationLog, Signature
from .services import beyond_thresholds, count_of_record

BOX_ROWS = (Count, Signature, ExpectedChange, Decision)


def _walk(rows: list, head_seq: int, head_hash: str) -> str | None:
    """The first problem of one chain, in words, or None."""
    return first_break(rows, head_seq, head_hash, row_hash=row_hash, name=lambda row: type(row).__name__.lower())


def _box_name(box: Box) -> str:
    return f"count box {box.pk} (table {box.table.number}, {box.gaming_day} shift {box.shift})"


def _boxes(found: list[str]) -> int:
    rows = defaultdict(list)
    for model in BOX_ROWS:
        for row in model.objects.order_by():
            rows[row.box_id].append(row)
    cases = {case.box_id: case for case in Case.objects.all()}
    boxes = Box.objects.select_related("table").prefetch_related("count_set__signatures", "count_set__decisions",
                                                                 "count_set__changes").order_by("pk")
    checked = 0
    for box in boxes:
        checked += 1
        problem = _walk(sorted(rows.pop(box.pk, []), key=lambda r: r.seq), box.ledger_seq, box.ledger_head)
        if problem:
            found.append(f"{_box_name(box)}, {problem}")
            continue
        record = count_of_record(sorted(box.count_set.all(), key=lambda c: c.attempt))
        if record is not None and box.pk not in cases and beyond_thresholds(expected=record.expected_now,
                                                                            variance=record.variance):
            found.append(f"{_box_name(box)}: its variance of record, {record.variance}, is beyond the thresholds, "
                         "but the box has no case")
    found.extend(f"count rows of box {box_id}, which does not exist" for box_id in rows)
    return checked


def _case_problem(case: Case, events: list[CaseEvent]) -> str | None:
    problem = _walk(events, case.ledger_seq, case.ledger_head)
    if problem:
        return problem
    if not events:
        return "it has no events"
    first, last = events[0], events[-1]
    if case.state != last.state:
        return f"its state is {case.state!r}, but its last event left it {last.state!r}"
    if first.kind != CaseEvent.OPENED or first.recorded_at != case.opened_at:
        return "its opening is not its first event's"
    if case.count.box_id != case.box_id or case.count.counted != first.counted:
        return "the count that opened it is not a count of its box with its first event's total"
    return None


def _cases(found: list[str]) -> int:
    events = defaultdict(list)
    for event in CaseEvent.objects.order_by("case", "seq"):
        events[event.case_id].append(event)
    checked = 0
    cases = Case.objects.select_related("count").prefetch_related("count__signatures")
    for case in cases.order_by("pk"):
        checked += 1
        problem = _case_problem(case, events.pop(case.pk, []))
        if problem:
            found.append(f"variance case {case.pk}, {problem}")
    found.extend(f"case events of case {case_id}, which does not exist" for case_id in events)
    return checked


def _rotation(found: list[str]) -> int:
    rows = defaultdict(list)
    for model in (Rotation, RotationEnd):
        for row in model.objects.order_by():
            rows[row.log_id].append(row)
    ends = {end.entry_id: end for log in rows.values() for end in log if isinstance(end, RotationEnd)}
    checked = 0
    for log in RotationLog.objects.select_related("casino").order_by("pk"):
        chain = sorted(rows.pop(log.pk, []), key=lambda r: r.seq)
        checked += sum(isinstance(row, Rotation) for row in chain)
        problem = _walk(chain, log.ledger_seq, log.ledger_head)
        if problem:
            found.append(f"rotation log of {log.casino.name}, {problem}")
            continue
        for entry in (row for row in chain if isinstance(row, Rotation)):
            end = ends.get(entry.pk)
            recorded = (end.ends_at, end.recorded_by_id) if end else (None, None)
            if (entry.ends_at, entry.ended_by_id) != recorded:
                found.append(f"rotation log of {log.casino.name}, entry {entry.pk}: its end is not the end recorded "
                             "in the chain")
    found.extend(f"rotation rows of log {log_id}, which does not exist" for log_id in rows)
    return checked


def breaks() -> Checked:
    """The first break of each broken box, case or rotation log, and what was checked."""
    found: list[str] = []
    boxes, cases, entries = _boxes(found), _cases(found), _rotation(found)
    return Checked(found, f"{boxes} count box(es), {cases} variance case(s), {entries} rotation entry(ies)")
