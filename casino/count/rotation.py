"""Who the rotation log has on which table at a moment: the readers the pit's recording check
(receivers.py, `may_record`), the floor's cards and the floor's alerts share.

An entry holds from its `starts_at` until its end, and never beyond its gaming day (an entry
ends within its day: `services.rotation_close`); an entry nobody ended holds until its day ends.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser as User
from django.db.models import Q, QuerySet

from casino.pit import days
from casino.pit.models import Table

from .models import Rotation


def holding(at: dt.datetime) -> QuerySet[Rotation]:
    """The entries that hold at `at`."""
    return Rotation.objects.filter(Q(ends_at__isnull=True) | Q(ends_at__gt=at), starts_at__lte=at,
                                   gaming_day=days.gaming_day(at))


def on_rotation(*, table: Table, person: User, at: dt.datetime, duty: str = Rotation.DEALER) -> bool:
    """Whether the rotation log has `person` on `table` for `duty` at `at`."""
    return holding(at).filter(table=table, person=person, duty=duty).exists()


def on_duty(tables: Iterable[Table | int], at: dt.datetime) -> dict[int, dict[str, list[Rotation]]]:
    """Each table's entries holding at `at`, by duty: {table id: {"dealer": [...], "supervisor": [...]}},
    the person of each entry read with it, earliest first; a table with nobody on it is absent."""
    ids = [table if isinstance(table, int) else table.pk for table in tables]
    found: dict[int, dict[str, list[Rotation]]] = {}
    for entry in holding(at).filter(table_id__in=ids).select_related("person").order_by("starts_at", "pk"):
        found.setdefault(entry.table_id, {Rotation.DEALER: [], Rotation.SUPERVISOR: []})[entry.duty].append(entry)
    return found
