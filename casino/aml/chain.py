"""The chain of each suspicious-transaction case: its events in `seq` order, hashed as every
chain of the casino is (`casino.chain`). Appending happens only here, under the case's row lock;
the case row carries the chain's head and the state its last event left it in."""
from __future__ import annotations

import datetime as dt

from django.utils import timezone

from casino.chain import GENESIS, Chain

from .models import SuspicionCase, SuspicionEvent

CONTENT = {SuspicionEvent: ("case_id", "seq", "recorded_at", "recorded_by_id", "kind", "state", "note", "movements")}
AML_CHAINS = Chain(CONTENT, added={})

row_hash = AML_CHAINS.row_hash


def append_event(*, case: SuspicionCase, kind: str, state: str, recorded_by, note: str,
                 movements: list[int] | None = None, at: dt.datetime | None = None) -> SuspicionEvent:
    """Add an event to the case's chain, under the case's row lock (held until the caller's
    transaction commits), and leave the case in `state`. `case` is updated in place."""
    locked = SuspicionCase.objects.select_for_update().get(pk=case.pk)
    event = SuspicionEvent(case=locked, seq=locked.ledger_seq + 1, prev_hash=locked.ledger_head or GENESIS,
                           recorded_at=at or timezone.now(), recorded_by=recorded_by, kind=kind, state=state,
                           note=note, movements=sorted(movements or []))
    event.hash = row_hash(event)
    event.save()
    locked.ledger_seq, locked.ledger_head, locked.state = event.seq, event.hash, state
    locked.save(update_fields=["ledger_seq", "ledger_head", "state"])
    case.ledger_seq, case.ledger_head, case.state = locked.ledger_seq, locked.ledger_head, locked.state
    return event
