"""The count's hash chains: a box's counts, signatures, expected changes and decisions form one
chain, in `seq` order; a case's events another; a casino's rotation entries and their ends a
third. Rows are hashed as the pit's ledger rows are (`casino.chain`). Appending happens only
here, under the row lock of the chain's owner (the box, the case or the casino's rotation log),
which also carries the chain's head.

The rows that hold an expected figure get a random salt here, which enters their hash: see
models.py.
"""
from __future__ import annotations

import datetime as dt
import secrets

from django.utils import timezone

from casino.chain import GENESIS, Chain

from .models import (
    Box,
    BoxRow,
    Case,
    CaseEvent,
    Count,
    Decision,
    ExpectedChange,
    Rotation,
    RotationEnd,
    RotationLog,
    Signature,
)

BOX_COMMON = ("box_id", "seq", "recorded_at", "recorded_by_id")
ROTATION_COMMON = ("log_id", "seq", "recorded_at", "recorded_by_id")
CONTENT = {
    Count: BOX_COMMON + ("attempt", "expected", "reason", "salt"),
    Signature: BOX_COMMON + ("count_id", "counted", "denominations", "idempotency_key"),
    ExpectedChange: BOX_COMMON + ("count_id", "expected", "amendment_id", "salt"),
    Decision: BOX_COMMON + ("count_id", "kind", "reason"),
    CaseEvent: ("case_id", "seq", "recorded_at", "recorded_by_id", "kind", "state", "note", "expected", "counted",
                "variance"),
    Rotation: ROTATION_COMMON + ("table_id", "person_id", "duty", "gaming_day", "starts_at"),
    RotationEnd: ROTATION_COMMON + ("entry_id", "ends_at"),
}
SALTED = (Count, ExpectedChange)
# The salt and a signature's idempotency key entered the hash after rows were first hashed.
COUNT_CHAINS = Chain(CONTENT, added={Count: {"salt": ""}, ExpectedChange: {"salt": ""},
                                     Signature: {"idempotency_key": ""}})

row_hash = COUNT_CHAINS.row_hash


def locked_box(box: Box) -> Box:
    return Box.objects.select_for_update().select_related("table").get(pk=box.pk)


def append_to_box(box: Box, row: BoxRow) -> BoxRow:
    """Add `row` to the chain of `box`, which the caller holds locked (`locked_box`): its seq,
    prev_hash and hash are set here, and the box's head moves."""
    row.box = box
    row.seq = box.ledger_seq + 1
    row.prev_hash = box.ledger_head or GENESIS
    row.recorded_at = row.recorded_at or timezone.now()
    if isinstance(row, SALTED):
        row.salt = secrets.token_hex(16)
    row.hash = row_hash(row)
    row.save()
    box.ledger_seq, box.ledger_head = row.seq, row.hash
    box.save(update_fields=["ledger_seq", "ledger_head"])
    return row


def append_case_event(*, case: Case, kind: str, state: str, recorded_by, note: str = "",
                      at: dt.datetime | None = None, expected: int | None = None, counted: int | None = None,
                      variance: int | None = None) -> CaseEvent:
    """Add an event to a case's chain, under the case's row lock, and leave the case in `state`.
    The caller's transaction holds the lock until it commits."""
    locked = Case.objects.select_for_update().get(pk=case.pk)
    event = CaseEvent(case=locked, seq=locked.ledger_seq + 1, prev_hash=locked.ledger_head or GENESIS,
                      recorded_at=at or timezone.now(), recorded_by=recorded_by, kind=kind, state=state,
                      note=note, expected=expected, counted=counted, variance=variance)
    event.hash = row_hash(event)
    event.save()
    locked.ledger_seq, locked.ledger_head, locked.state = event.seq, event.hash, state
    locked.save(update_fields=["ledger_seq", "ledger_head", "state"])
    case.ledger_seq, case.ledger_head, case.state = locked.ledger_seq, locked.ledger_head, locked.state
    return event


def append_to_rotation_log(casino, row: Rotation | RotationEnd) -> Rotation | RotationEnd:
    """Add an entry or an entry's end to the casino's rotation chain, under the log's row lock
    (made the first time): its seq, prev_hash and hash are set here, and the log's head moves."""
    RotationLog.objects.get_or_create(casino=casino)
    log = RotationLog.objects.select_for_update().get(casino=casino)
    row.log = log
    row.seq = log.ledger_seq + 1
    row.prev_hash = log.ledger_head or GENESIS
    row.recorded_at = row.recorded_at or timezone.now()
    row.hash = row_hash(row)
    row.save()
    log.ledger_seq, log.ledger_head = row.seq, row.hash
    log.save(update_fields=["ledger_seq", "ledger_head"])
    return row
