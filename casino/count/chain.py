"""The count's hash chains, made as the pit's ledger chain is (casino/pit/chain.py):

    hash(row) = SHA-256(prev_hash + canonical JSON of the row's content)

A box's counts, signatures, expected changes and decisions form one chain, in `seq` order; a
case's events another; a casino's rotation entries and their ends a third. Appending happens only
here, under the row lock of the chain's owner (the box, the case or the casino's rotation log),
which also carries the chain's head.

The rows that hold an expected figure get a random salt here, which enters their hash: see
models.py.
"""
from __future__ import annotations

import datetime as dt
import secrets

import msgspec
from django.utils import timezone

from casino.pit.chain import GENESIS, chained_hash

from .models import (Box, BoxRow, Case, CaseEvent, Count, Decision, ExpectedChange, Rotation, RotationEnd,
                     RotationLog, Signature)

_encode = msgspec.json.Encoder(order="sorted").encode

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
# Content added after rows were first hashed, with the value every earlier row has: such a field
# enters the hash only when it differs from it (as in casino/pit/chain.py), so that earlier rows
# keep their hashes.
ADDED = {"salt": "", "idempotency_key": ""}
SALTED = (Count, ExpectedChange)


def _plain(value):
    if isinstance(value, dt.datetime):
        # Aware from the ORM; a raw SQLite cursor gives the stored UTC time without its zone.
        return (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def canonical(model, values) -> bytes:
    """The canonical JSON of a row of `model` whose content fields are `values`, in CONTENT's order."""
    data = dict(zip(CONTENT[model], values))
    for name, earlier in ADDED.items():
        if data.get(name, earlier) == earlier:
            data.pop(name, None)
    data["type"] = model.__name__
    for name in ("recorded_at", "starts_at", "ends_at", "gaming_day"):
        if name in data:
            data[name] = _plain(data[name])
    return _encode(data)


def content(row) -> bytes:
    return canonical(type(row), [getattr(row, name) for name in CONTENT[type(row)]])


def row_hash(row) -> str:
    return chained_hash(row.prev_hash, content(row))


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
