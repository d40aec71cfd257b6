"""Checking the suspicious-transaction cases for `verify_ledger`: each case's events are
re-hashed in order, `seq` without gaps, ending at the head the case carries; the case's state is
its last event's, its opening its first event's ("opened", at the case's time, by the person who
opened it). A changed, removed or inserted event breaks the chain there; the saved heads
(heads.py) catch what a rewound head hides."""
from __future__ import annotations

from collections import defaultdict

from casino.chain import first_break
from casino.pit.verify import Checked

from .chain import row_hash
from .models import SuspicionCase, SuspicionEvent


def _case_problem(case: SuspicionCase, events: list[SuspicionEvent]) -> str | None:
    problem = first_break(events, case.ledger_seq, case.ledger_head, row_hash=row_hash,
                          name=lambda row: f"event {row.kind}")
    if problem:
        return problem
    if not events:
        return "it has no events"
    first, last = events[0], events[-1]
    if case.state != last.state:
        return f"its state is {case.state!r}, but its last event left it {last.state!r}"
    if (first.kind, first.recorded_at, first.recorded_by_id) != (SuspicionEvent.OPENED, case.opened_at,
                                                                 case.opened_by_id):
        return "its opening is not its first event's"
    return None


def breaks() -> Checked:
    """The first break of each broken case, and how many cases were checked."""
    events = defaultdict(list)
    for event in SuspicionEvent.objects.order_by("case", "seq"):
        events[event.case_id].append(event)
    found: list[str] = []
    checked = 0
    for case in SuspicionCase.objects.order_by("pk"):
        checked += 1
        problem = _case_problem(case, events.pop(case.pk, []))
        if problem:
            found.append(f"suspicious-transaction case {case.pk}, {problem}")
    found.extend(f"events of suspicious-transaction case {case_id}, which does not exist" for case_id in events)
    return Checked(found, f"{checked} suspicious-transaction case(s)")
