"""The hash chain over each table's ledger rows (jogos and movements together).

    hash(row) = SHA-256(prev_hash + canonical JSON of the row's content)

The canonical JSON has sorted keys, no spaces, dates in UTC ISO 8601 and users by id, so that
the same row read back from SQLite or PostgreSQL hashes the same. Changing any recorded field,
removing a row or inserting one breaks the chain at that row; `verify_ledger` finds it.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json

from .models import Jogo, LedgerRow, Movement

GENESIS = "0" * 64

COMMON = ("table_id", "seq", "recorded_at", "recorded_by_id", "gaming_day")
CONTENT = {
    Movement: COMMON + ("game_id", "chair", "kind", "amount", "after_jogos"),
    Jogo: COMMON + ("game_id", "number", "position", "revision", "kind", "reason", "approved_by_id",
                    "idempotency_key", "banker_chair", "round_wind", "record", "outcome", "result",
                    "winner_chair", "fan", "declared_fan", "fan_mismatch", "commission", "capped",
                    "pay_all", "capital_before", "capital_after"),
}


def _plain(value):
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def content(row: LedgerRow) -> bytes:
    fields = CONTENT[type(row)]
    data = {"type": type(row).__name__, **{name: _plain(getattr(row, name)) for name in fields}}
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def row_hash(row: LedgerRow) -> str:
    return hashlib.sha256(row.prev_hash.encode() + content(row)).hexdigest()
