"""Checking the count's chains for `verify_ledger`: every box's counts, signatures and expected
changes, and every case's events, re-hashed in order, `seq` without gaps, each chain ending at
the head its box or case carries. A changed, removed or inserted row breaks its chain there."""
from __future__ import annotations

from collections import defaultdict

from casino.pit.chain import GENESIS

from .chain import row_hash
from .models import Box, Case, CaseEvent, Count, ExpectedChange, Signature

BOX_ROWS = (Count, Signature, ExpectedChange)


def _walk(rows: list, head_seq: int, head_hash: str) -> str | None:
    """The first problem of one chain, in words, or None."""
    prev = GENESIS
    for expected_seq, row in enumerate(rows, 1):
        name = f"{type(row).__name__.lower()} (seq {row.seq}, id {row.pk})"
        if row.seq != expected_seq:
            return f"{name}: seq {expected_seq} is missing"
        if row.prev_hash != prev:
            return f"{name}: its previous hash is not the hash of the row before it"
        if row_hash(row) != row.hash:
            return f"{name}: its content does not match its hash (changed after it was recorded)"
        prev = row.hash
    if (len(rows), prev if rows else "") != (head_seq, head_hash):
        return f"the chain ends at seq {len(rows)}, but its head says seq {head_seq}"
    return None


def breaks() -> list[str]:
    """The first break of each broken box or case chain."""
    found = []
    by_box = defaultdict(list)
    for model in BOX_ROWS:
        for row in model.objects.order_by():
            by_box[row.box_id].append(row)
    for box in Box.objects.select_related("table").order_by("pk"):
        problem = _walk(sorted(by_box.pop(box.pk, []), key=lambda r: r.seq), box.ledger_seq, box.ledger_head)
        if problem:
            found.append(f"count box {box.pk} (table {box.table.number}, {box.gaming_day} shift {box.shift}), "
                         f"{problem}")
    by_case = defaultdict(list)
    for event in CaseEvent.objects.order_by("case", "seq"):
        by_case[event.case_id].append(event)
    for case in Case.objects.order_by("pk"):
        problem = _walk(by_case.pop(case.pk, []), case.ledger_seq, case.ledger_head)
        if problem:
            found.append(f"variance case {case.pk}, {problem}")
    return found
