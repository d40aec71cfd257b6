"""The ends of the ledger's chains, saved outside the database.

A hash chain proves that nothing inside it changed, but nothing about its own end: whoever may
delete a table's last rows and rewind the table's head, or change a row and re-hash every row
after it, leaves a chain that checks. Saving each table's head (last `seq` and its `hash`)
somewhere the database's owner cannot write, every night, anchors the chain: later, the row
at that `seq` must still exist and still have that hash (`verify_ledger --heads FILE`).

Other apps' chains are anchored in the same file: an app registers an `Anchor` (a section of
the file, its heads, and the check of saved heads) from its AppConfig.ready, so that the pit
imports none of them. The count registers its boxes, cases and rotation logs.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery

from .models import Jogo, Movement, Table

FORMAT = "ledger-heads/2"
FORMATS = ("ledger-heads/1", FORMAT)  # version 1 saved the tables only


@dataclass(frozen=True)
class Head:
    table: Table
    seq: int
    hash: str

    def short(self) -> str:
        """The head as printed on the signed daily report: seq and the hash's first 16 hex digits."""
        return f"{self.seq} · {self.hash[:16]}"


def heads(tables=None, *, before: dt.datetime | None = None) -> list[Head]:
    """Every table's head, or its head as it stood at `before`: its last ledger row, read from
    the rows themselves, not from the table's own head fields, which the service moves and a
    rewind would move too. A table with no ledger row (by then) has none. One query."""
    tables = tables if tables is not None else Table.objects.select_related("casino").order_by("pk")
    last = {}
    for model, name in ((Jogo, "jogo"), (Movement, "movement")):
        rows = model.objects.filter(table=OuterRef("pk"))
        if before is not None:
            rows = rows.filter(recorded_at__lt=before)
        rows = rows.order_by("-seq")
        last[f"{name}_seq"] = Subquery(rows.values("seq")[:1])
        last[f"{name}_hash"] = Subquery(rows.values("hash")[:1])
    found = []
    for table in tables.annotate(**last):
        ends = [(table.jogo_seq, table.jogo_hash), (table.movement_seq, table.movement_hash)]
        ends = [end for end in ends if end[0] is not None]
        if ends:
            found.append(Head(table, *max(ends)))
    return found


@dataclass(frozen=True)
class Departure:
    """A saved head the chain no longer passes through."""
    chain: str  # the chain in words: "table C-01 (Casino Lisboa)", "count box 12 (...)"
    seq: int
    problem: str

    def __str__(self) -> str:
        return f"{self.chain}, saved head at ledger seq {self.seq}: {self.problem}"


GONE = "that row no longer exists: rows were removed from the end of the chain"


def rewritten(now: str, saved: str) -> str:
    return f"that row's hash is now {now[:16]}…, not the saved {saved[:16]}…: the chain was rewritten up to it"


@dataclass(frozen=True)
class Anchor:
    """Another app's chains in the heads file: `section` names its list; `heads()` gives the
    entries to save (each with "seq" and "hash"); `departures(entries)` checks saved entries."""
    section: str
    heads: Callable[[], list[dict]]
    departures: Callable[[list[dict]], list[Departure]]


OTHER_ANCHORS: list[Anchor] = []


def snapshot(at: dt.datetime) -> dict:
    """The heads as the JSON that `ledger_heads --out` writes."""
    saved = {"format": FORMAT, "taken_at": at.astimezone(dt.UTC).isoformat(),
             "tables": [{"table_id": head.table.pk, "casino": head.table.casino.name, "table": head.table.number,
                         "seq": head.seq, "hash": head.hash} for head in heads()]}
    for anchor in OTHER_ANCHORS:
        saved[anchor.section] = anchor.heads()
    return saved


class UnreadableHeads(ValueError):
    pass


def departures(saved: dict) -> list[Departure]:
    """Every saved head the ledger no longer passes through: the row at the saved `seq` is gone
    (rows were removed from the end) or has another hash (a row at or before it was changed and
    the chain re-hashed). A table recorded after the heads were saved simply has no saved head.
    Then the other apps' chains saved in the same file (`OTHER_ANCHORS`)."""
    try:
        if saved.get("format") not in FORMATS:
            raise UnreadableHeads(f"not a file written by ledger_heads (format {FORMAT!r} expected)")
        wanted = [(int(e["table_id"]), str(e["casino"]), str(e["table"]), int(e["seq"]), str(e["hash"]))
                  for e in saved["tables"]]
        others = [(anchor, list(saved.get(anchor.section, []))) for anchor in OTHER_ANCHORS]
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        raise UnreadableHeads(f"the heads file cannot be read: {error}") from error
    found: dict[tuple[int, int], str] = {}
    for model in (Jogo, Movement):
        rows = model.objects.filter(table_id__in={w[0] for w in wanted}, seq__in={w[3] for w in wanted})
        for table_id, seq, hash_ in rows.values_list("table_id", "seq", "hash"):
            found[(table_id, seq)] = hash_
    out = []
    for table_id, casino, table, seq, hash_ in wanted:
        now = found.get((table_id, seq))
        if now is None:
            out.append(Departure(f"table {table} ({casino})", seq, GONE))
        elif now != hash_:
            out.append(Departure(f"table {table} ({casino})", seq, rewritten(now, hash_)))
    for anchor, entries in others:
        try:
            out += anchor.departures(entries)
        except (AttributeError, KeyError, TypeError, ValueError) as error:
            raise UnreadableHeads(f"the heads file cannot be read ({anchor.section}): {error}") from error
    return out
