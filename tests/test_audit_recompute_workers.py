"""`audit_recompute` with worker processes, each with its own connection (PostgreSQL: the data
must be committed for them to see it, so this test is transactional)."""
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from casino.audit import recompute as bulk
from tests.audit import plant, record, varied_day


@pytest.mark.skipif(connection.vendor != "postgresql", reason="worker processes need a database they can share")
@pytest.mark.usefixtures("groups_restored_afterwards", "fresh_connection_afterwards", "flush_ledger_afterwards")
def test_two_worker_processes_find_the_same_difference():
    people, t1, game, rows = varied_day()
    for _ in range(3):
        record(game, people["dealer"])
    planted = plant(game, people["dealer"], commission=20)
    out = StringIO()

    shards = bulk.plan(None, shard_rows=3)  # several shards, so both workers have some
    tally = bulk.run(None, workers=2, shards=shards)

    assert len(shards) > 2 and tally.rows == 9 and tally.current == 9
    assert [(d.number, d.field, d.recorded, d.recomputed) for d in tally.differences] == [
        (planted.number, "commission", 20, 10)]
    with pytest.raises(CommandError):
        call_command("audit_recompute", "--workers", "2", "--no-progress", stdout=out)
    assert out.getvalue().count("DIFFERENCE") == 1


@pytest.fixture
def flush_ledger_afterwards(transactional_db):
    """A transactional test ends with Django emptying every table (TRUNCATE), which the ledger's
    triggers refuse. Only here, the owner's session switches triggers off for that clean-up."""
    yield
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")


@pytest.fixture
def fresh_connection_afterwards():
    yield
    connection.close()


@pytest.fixture
def groups_restored_afterwards(django_db_blocker):
    """The flush that ends a transactional test also empties the roles' groups, which a data
    migration created; later tests need them."""
    yield
    from casino.pit.roles import sync_groups
    with django_db_blocker.unblock():
        sync_groups()

