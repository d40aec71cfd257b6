"""The ends of the alert chains, saved with the ledger's (casino/pit/heads.py): each casino's
alerts and their events. Read from the rows themselves, not from the log's head fields, which a
rewind would move too; later, the row at each saved `seq` must still exist and still have the
saved hash (`verify_ledger --heads FILE`)."""
from __future__ import annotations

from django.db.models import OuterRef, Subquery

from casino.pit.heads import GONE, Anchor, Departure, rewritten

from .models import Alert, AlertEvent, AlertLog

ROWS = (Alert, AlertEvent)


def alert_heads() -> list[dict]:
    last = {}
    for index, model in enumerate(ROWS):
        rows = model.objects.filter(log=OuterRef("pk")).order_by("-seq")
        last[f"seq_{index}"] = Subquery(rows.values("seq")[:1])
        last[f"hash_{index}"] = Subquery(rows.values("hash")[:1])
    heads = []
    for log in AlertLog.objects.select_related("casino").order_by("pk").annotate(**last):
        ends = [(getattr(log, f"seq_{i}"), getattr(log, f"hash_{i}")) for i in range(len(ROWS))]
        ends = [end for end in ends if end[0] is not None]
        if ends:
            seq, hash_ = max(ends)
            heads.append({"log_id": log.pk, "casino": log.casino.name, "seq": seq, "hash": hash_})
    return heads


def departures(entries: list[dict]) -> list[Departure]:
    wanted = [(int(e["log_id"]), int(e["seq"]), str(e["hash"]), str(e["casino"])) for e in entries]
    found = {}
    for model in ROWS:
        rows = model.objects.filter(log_id__in={w[0] for w in wanted}, seq__in={w[1] for w in wanted})
        for log_id, seq, hash_ in rows.values_list("log_id", "seq", "hash"):
            found[(log_id, seq)] = hash_
    out = []
    for log_id, seq, hash_, casino in wanted:
        now = found.get((log_id, seq))
        if now is None:
            out.append(Departure(f"alert log of {casino}", seq, GONE))
        elif now != hash_:
            out.append(Departure(f"alert log of {casino}", seq, rewritten(now, hash_)))
    return out


ANCHOR = Anchor("alerts", alert_heads, departures)
