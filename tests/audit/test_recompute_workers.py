"""`audit_recompute` with worker processes, each with its own connection (PostgreSQL: the data
must be committed for them to see it, so this test is transactional)."""
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from casino.audit import recompute as bulk
from tests.builders.audit import plant, record_next, varied_day


@pytest.mark.skipif(connection.vendor != "postgresql", reason="worker processes need a database they can share")
# flush_ledger_afterwards (conftest.py) makes the roles again first and lets the flush through after.
@pytest.mark.usefixtures("fresh_connection_afterwards", "flush_ledger_afterwards")
def test_two_worker_processes_find_the_same_difference():
    people, t1, game, rows = varied_day()
    for _ in range(3):
        record_next(game, people["dealer"])
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
def fresh_connection_afterwards():
    yield
    connection.close()
