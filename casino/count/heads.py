"""The ends of the count's chains, saved with the ledger's (casino/pit/heads.py): each box's
chain of counts, signatures, expected changes and decisions, each variance case's events, and
each casino's rotation log. Read from the rows themselves, not from the owners' head fields,
which a rewind would move too; later, the row at each saved `seq` must still exist and still
have the saved hash (`verify_ledger --heads FILE`).
"""
from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery

from casino.pit.heads import GONE, Anchor, Departure, rewritten

from .models import Box, Case, CaseEvent, Count, Decision, ExpectedChange, Rotation, RotationEnd, RotationLog, Signature

BOX_ROWS = (Count, Signature, ExpectedChange, Decision)
ROTATION_ROWS = (Rotation, RotationEnd)


def _last(owners: QuerySet, models, link: str) -> list:
    """`owners`, each annotated with the seq and hash of its last row among `models` (linked to
    it by `link`), in one query; an owner with no row has none."""
    last = {}
    for index, model in enumerate(models):
        rows = model.objects.filter(**{link: OuterRef("pk")}).order_by("-seq")
        last[f"seq_{index}"] = Subquery(rows.values("seq")[:1])
        last[f"hash_{index}"] = Subquery(rows.values("hash")[:1])
    found = []
    for owner in owners.annotate(**last):
        ends = [(getattr(owner, f"seq_{i}"), getattr(owner, f"hash_{i}")) for i in range(len(models))]
        ends = [end for end in ends if end[0] is not None]
        if ends:
            found.append((owner, *max(ends)))
    return found


def box_heads(boxes: QuerySet | None = None) -> list[dict]:
    boxes = boxes if boxes is not None else Box.objects.all()
    return [{"box_id": box.pk, "table": box.table.number, "gaming_day": box.gaming_day.isoformat(),
             "shift": box.shift, "seq": seq, "hash": hash_}
            for box, seq, hash_ in _last(boxes.select_related("table").order_by("pk"), BOX_ROWS, "box")]


def case_heads(cases: QuerySet | None = None) -> list[dict]:
    cases = cases if cases is not None else Case.objects.all()
    return [{"case_id": case.pk, "box_id": case.box_id, "seq": seq, "hash": hash_}
            for case, seq, hash_ in _last(cases.order_by("pk"), (CaseEvent,), "case")]


def rotation_heads() -> list[dict]:
    logs = RotationLog.objects.select_related("casino").order_by("pk")
    return [{"log_id": log.pk, "casino": log.casino.name, "seq": seq, "hash": hash_}
            for log, seq, hash_ in _last(logs, ROTATION_ROWS, "log")]


def _departures(entries: list[dict], *, key: str, models, link: str, name) -> list[Departure]:
    wanted = [(int(e[key]), int(e["seq"]), str(e["hash"]), e) for e in entries]
    found = {}
    for model in models:
        rows = model.objects.filter(**{f"{link}_id__in": {w[0] for w in wanted}, "seq__in": {w[1] for w in wanted}})
        for owner, seq, hash_ in rows.values_list(f"{link}_id", "seq", "hash"):
            found[(owner, seq)] = hash_
    out = []
    for owner, seq, hash_, entry in wanted:
        now = found.get((owner, seq))
        if now is None:
            out.append(Departure(name(entry), seq, GONE))
        elif now != hash_:
            out.append(Departure(name(entry), seq, rewritten(now, hash_)))
    return out


def _box_name(entry: dict) -> str:
    return f"count box {entry['box_id']} (table {entry['table']}, {entry['gaming_day']} shift {entry['shift']})"


ANCHORS = [
    Anchor("boxes", box_heads, lambda entries: _departures(entries, key="box_id", models=BOX_ROWS, link="box",
                                                          name=_box_name)),
    Anchor("cases", case_heads, lambda entries: _departures(entries, key="case_id", models=(CaseEvent,), link="case",
                                                           name=lambda e: f"variance case {e['case_id']}")),
    Anchor("rotation", rotation_heads,
           lambda entries: _departures(entries, key="log_id", models=ROTATION_ROWS, link="log",
                                       name=lambda e: f"rotation log of {e['casino']}")),
]
