"""How every hash chain of the casino hashes its rows: the pit's ledger (each table's jogos and
movements) and the count's chains (each box's counts, each case's events, each casino's rotation
log) are made the same way.

    hash(row) = SHA-256(prev_hash + canonical JSON of the row's content)

The canonical JSON has sorted keys, no spaces, non-ASCII characters as themselves, dates in UTC
ISO 8601 and users by id, so that the same row read back from SQLite or PostgreSQL hashes the
same. It is what `json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`
writes; msgspec writes the same bytes faster (tests/test_chain.py checks that they agree).
Changing any recorded field, removing a row or inserting one breaks the chain at that row;
`verify_ledger` finds it.

Each app says which fields of each of its models a row's hash covers (`Chain`); the first row
of a chain follows GENESIS.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec
from django.db import models

GENESIS = "0" * 64

# The only content fields that are not JSON values already: written as ISO 8601 text.
DATES = ("recorded_at", "gaming_day", "starts_at", "ends_at")

_encode = msgspec.json.Encoder(order="sorted").encode


def plain(value: Any) -> Any:
    """A date as the chain writes it: a time in UTC ISO 8601, a day as YYYY-MM-DD; anything
    else (a time already written so, as verify reads it from PostgreSQL) as it is."""
    if isinstance(value, dt.datetime):
        # Aware from the ORM; a raw SQLite cursor gives the stored UTC time without its zone.
        return (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def chained_hash(prev_hash: str, content: bytes) -> str:
    return hashlib.sha256(prev_hash.encode() + content).hexdigest()


class Chain:
    """The rows of one app's chains: for each model, the fields its hash covers, in the order
    its values are given (`content`); and the fields added after rows were first hashed, with
    the value every earlier row has (`added`). Such a field enters the hash only when it
    differs from that value, so that every earlier row keeps its hash and a later row's value
    is still covered (changing it either way changes the JSON)."""

    def __init__(self, content: Mapping[type[models.Model], tuple[str, ...]], *,
                 added: Mapping[type[models.Model], Mapping[str, Any]]) -> None:
        self.content_fields = dict(content)
        self.added = {model: dict(added.get(model, {})) for model in content}
        self.dates = {model: tuple(name for name in DATES if name in fields) for model, fields in content.items()}

    def canonical(self, model: type[models.Model], values: Iterable[Any]) -> bytes:
        """The canonical JSON of a row of `model` whose content fields are `values`, in the
        order `content` names them."""
        data = dict(zip(self.content_fields[model], values))
        for name, earlier in self.added[model].items():
            if data[name] == earlier:
                del data[name]
        data["type"] = model.__name__
        for name in self.dates[model]:
            data[name] = plain(data[name])
        return _encode(data)

    def content(self, row: models.Model) -> bytes:
        return self.canonical(type(row), [getattr(row, name) for name in self.content_fields[type(row)]])

    def row_hash(self, row: models.Model) -> str:
        return chained_hash(row.prev_hash, self.content(row))


def first_break(rows: list, head_seq: int, head_hash: str, *, row_hash: Callable[[Any], str],
                name: Callable[[Any], str]) -> str | None:
    """The first problem of one chain, in words, or None: `rows` in `seq` order are re-hashed
    with `row_hash` from GENESIS, without gaps, ending at the head its log carries. `name` says
    which row a problem is at."""
    prev = GENESIS
    for expected_seq, row in enumerate(rows, 1):
        at = f"{name(row)} (seq {row.seq}, id {row.pk})"
        if row.seq != expected_seq:
            return f"{at}: seq {expected_seq} is missing"
        if row.prev_hash != prev:
            return f"{at}: its previous hash is not the hash of the row before it"
        if row_hash(row) != row.hash:
            return f"{at}: its content does not match its hash (changed after it was recorded)"
        prev = row.hash
    if (len(rows), prev if rows else "") != (head_seq, head_hash):
        return f"the chain ends at seq {len(rows)}, but its head says seq {head_seq}"
    return None
