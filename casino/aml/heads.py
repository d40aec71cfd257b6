"""The ends of the suspicious-transaction cases' chains, saved with the ledger's heads
(casino/pit/heads.py): read from the events themselves, not from the cases' head fields, which a
rewind would move too; later, the event at each saved `seq` must still exist with the saved hash
(`verify_ledger --heads FILE`)."""
from __future__ import annotations

from django.db.models import Max

from casino.pit.heads import GONE, Anchor, Departure, rewritten

from .models import SuspicionEvent


def case_heads() -> list[dict]:
    last = SuspicionEvent.objects.values("case_id").annotate(seq=Max("seq")).order_by("case_id")
    ends = {(row["case_id"], row["seq"]) for row in last}
    rows = SuspicionEvent.objects.filter(seq__in={seq for _, seq in ends}).values_list("case_id", "seq", "hash")
    return sorted(({"case_id": case_id, "seq": seq, "hash": hash_} for case_id, seq, hash_ in rows
                   if (case_id, seq) in ends), key=lambda entry: entry["case_id"])


def departures(entries: list[dict]) -> list[Departure]:
    wanted = [(int(e["case_id"]), int(e["seq"]), str(e["hash"])) for e in entries]
    rows = SuspicionEvent.objects.filter(case_id__in={w[0] for w in wanted}, seq__in={w[1] for w in wanted})
    found = {(case_id, seq): hash_ for case_id, seq, hash_ in rows.values_list("case_id", "seq", "hash")}
    out = []
    for case_id, seq, hash_ in wanted:
        now = found.get((case_id, seq))
        if now is None:
            out.append(Departure(f"suspicious-transaction case {case_id}", seq, GONE))
        elif now != hash_:
            out.append(Departure(f"suspicious-transaction case {case_id}", seq, rewritten(now, hash_)))
    return out


ANCHOR = Anchor("suspicion_cases", case_heads, departures)
