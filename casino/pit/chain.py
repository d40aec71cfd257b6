"""The hash chain over each table's ledger rows (jogos and movements together).

    hash(row) = SHA-256(prev_hash + canonical JSON of the row's content)

The canonical JSON has sorted keys, no spaces, non-ASCII characters as themselves, dates in UTC
ISO 8601 and users by id, so that the same row read back from SQLite or PostgreSQL hashes the
same. It is what `json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`
writes; msgspec writes the same bytes faster (tests/test_pit_chain.py checks that they agree). Changing any recorded field,
removing a row or inserting one breaks the chain at that row; `verify_ledger` finds it.
"""
from __future__ import annotations

import datetime as dt
import hashlib

import msgspec

from .models import Jogo, LedgerRow, Movement

GENESIS = "0" * 64

COMMON = ("table_id", "seq", "recorded_at", "recorded_by_id", "gaming_day")
CONTENT = {
    Movement: COMMON + ("game_id", "chair", "kind", "amount", "after_jogos"),
    Jogo: COMMON + ("game_id", "number", "position", "revision", "kind", "reason", "approved_by_id",
                    "idempotency_key", "banker_chair", "round_wind", "record", "outcome", "result",
                    "winner_chair", "fan", "declared_fan", "fan_mismatch", "commission", "capped",
                    "pay_all", "capital_before", "capital_after", "rule_set_code", "rule_set_version"),
}
# Content added after rows were first hashed, with the value every earlier row has: such a field
# enters the hash only when it differs from that value, so that every earlier row keeps its hash
# and a later row's value is still covered (changing it either way changes the JSON).
ADDED = {Jogo: {"rule_set_code": "portaria-135-91-M", "rule_set_version": 1}, Movement: {}}


_encode = msgspec.json.Encoder(order="sorted").encode
_DATES = ("recorded_at", "gaming_day")


def _plain(value):
    if isinstance(value, dt.datetime):
        # Aware from the ORM; a raw SQLite cursor gives the stored UTC time without its zone.
        return (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def canonical(model: type[LedgerRow], values) -> bytes:
    """The canonical JSON of a row of `model` whose content fields are `values`, in CONTENT's order."""
    data = dict(zip(CONTENT[model], values))
    for name, earlier in ADDED[model].items():
        if data[name] == earlier:
            del data[name]
    data["type"] = model.__name__
    for name in _DATES:  # the only fields that are not JSON values already
        data[name] = _plain(data[name])
    return _encode(data)


def content(row: LedgerRow) -> bytes:
    return canonical(type(row), [getattr(row, name) for name in CONTENT[type(row)]])


def chained_hash(prev_hash: str, content: bytes) -> str:
    return hashlib.sha256(prev_hash.encode() + content).hexdigest()


def row_hash(row: LedgerRow) -> str:
    return chained_hash(row.prev_hash, content(row))
