"""Checking the alert chains for `verify_ledger`: every casino's alerts and their events are
re-hashed in `seq` order without gaps, each chain ending at the head its log carries; each
alert's acknowledgement, escalation and clearing are the ones its events in the chain record.
The saved heads (alert_heads.py) catch what a rewound head hides."""
from __future__ import annotations

from collections import defaultdict

from casino.chain import first_break
from casino.pit.verify import Checked

from .alerts import row_hash
from .models import Alert, AlertEvent, AlertLog


def _walk(rows: list, head_seq: int, head_hash: str) -> str | None:
    """The first problem of one chain, in words, or None."""
    return first_break(rows, head_seq, head_hash, row_hash=row_hash,
                       name=lambda row: "alert" if isinstance(row, Alert) else "alert event")


def _as_recorded(alert: Alert, events: dict[str, AlertEvent]) -> str | None:
    """What of the alert's set-once fields differs from its events, or None."""
    ack = events.get(AlertEvent.ACKNOWLEDGED)
    recorded = (ack.recorded_at, ack.recorded_by_id, ack.note) if ack else (None, None, "")
    if (alert.acknowledged_at, alert.acknowledged_by_id, alert.acknowledgement) != recorded:
        return "its acknowledgement is not the one recorded in the chain"
    for kind, value in ((AlertEvent.ESCALATED, alert.escalated_at), (AlertEvent.CLEARED, alert.cleared_at)):
        event = events.get(kind)
        if value != (event.recorded_at if event else None):
            return f"its {kind} time is not the one recorded in the chain"
    return None


def breaks() -> Checked:
    """The first break of each casino's alert chain, and how many alerts were checked."""
    found: list[str] = []
    rows = defaultdict(list)
    events = defaultdict(dict)
    for model in (Alert, AlertEvent):
        for row in model.objects.order_by():
            rows[row.log_id].append(row)
            if isinstance(row, AlertEvent):
                events[row.alert_id][row.kind] = row
    checked = 0
    for log in AlertLog.objects.select_related("casino").order_by("pk"):
        chain = sorted(rows.pop(log.pk, []), key=lambda r: r.seq)
        checked += sum(isinstance(row, Alert) for row in chain)
        problem = _walk(chain, log.ledger_seq, log.ledger_head)
        if problem:
            found.append(f"alert log of {log.casino.name}, {problem}")
            continue
        for alert in (row for row in chain if isinstance(row, Alert)):
            problem = _as_recorded(alert, events.get(alert.pk, {}))
            if problem:
                found.append(f"alert log of {log.casino.name}, alert {alert.pk}: {problem}")
    found.extend(f"alert rows of log {log_id}, which does not exist" for log_id in rows)
    return Checked(found, f"{checked} alert(s)")
