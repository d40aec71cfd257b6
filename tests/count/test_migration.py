"""Migration count/0004 on a database that already has a rotation log: the entries recorded
before it are chained, in the order they were recorded, and the chain checks."""
from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.builders.pit import NOON

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("flush_ledger_afterwards")]

BEFORE = [("count", "0003_roles"), ("pit", "0013_gaming_days")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_the_rotation_log_recorded_before_the_migration_is_chained_by_it():
    apps = _migrate(BEFORE)
    User = apps.get_model("auth", "User")
    Casino, Table = apps.get_model("pit", "Casino"), apps.get_model("pit", "Table")
    Rotation = apps.get_model("count", "Rotation")
    supervisor = User.objects.create(username="old_supervisor")
    dealer = User.objects.create(username="old_dealer")
    casino = Casino.objects.create(name="Casino of old")
    table = Table.objects.create(casino=casino, number="OLD-1", variant="conventional", stake=50)
    first = Rotation.objects.create(table=table, person=dealer, gaming_day=dt.date(2026, 11, 21), starts_at=NOON,
                                    recorded_by=supervisor, recorded_at=NOON)
    Rotation.objects.create(table=table, person=supervisor, duty="supervisor", gaming_day=dt.date(2026, 11, 21),
                            starts_at=NOON, recorded_by=supervisor, recorded_at=NOON + dt.timedelta(minutes=1))
    Rotation.objects.filter(pk=first.pk).update(ends_at=NOON + dt.timedelta(hours=2), ended_by=supervisor)

    _migrate(_migrate_latest())

    from casino.count.models import Rotation as Entry, RotationEnd, RotationLog
    from casino.count.verify import breaks

    log = RotationLog.objects.get(casino__name="Casino of old")
    assert [(e.seq, e.person.username) for e in Entry.objects.order_by("seq")] == [(1, "old_dealer"),
                                                                                    (2, "old_supervisor")]
    assert [(end.seq, end.entry_id) for end in RotationEnd.objects.all()] == [(3, first.pk)]
    assert (log.ledger_seq, log.ledger_head) == (3, RotationEnd.objects.get().hash)
    assert [found for found in breaks().found if "rotation" in found] == []
    assert timezone.is_aware(RotationEnd.objects.get().recorded_at)


def _migrate_latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()
