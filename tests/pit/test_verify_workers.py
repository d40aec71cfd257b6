"""`verify_ledger` with worker processes, each with its own connection (PostgreSQL: the data
must be committed for them to see it, so this test is transactional)."""
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from casino.pit import services
from tests.builders.pit import DRAW, NOON, next_record, seat, staff


@pytest.mark.skipif(connection.vendor != "postgresql", reason="worker processes need a database they can share")
@pytest.mark.usefixtures("fresh_connection_afterwards", "flush_ledger_afterwards")
def test_two_worker_processes_check_every_table_and_name_the_broken_one():
    people, t1, t2 = staff()
    t2.staff.add(people["dealer"])
    rows = {}
    for table in (t1, t2):
        game = seat(table, people["dealer"])
        rows[table.number] = [services.record_jogo(table=table, user=people["dealer"],
                                                   record=next_record(game, **DRAW), at=NOON)[0]
                              for _ in range(3)]
    out = StringIO()
    call_command("verify_ledger", "--workers", "2", "--no-progress", stdout=out)
    assert "ledger intact: 2 table(s) checked; 14 rows" in out.getvalue() and "with 2 worker(s)" in out.getvalue()

    with connection.cursor() as cursor:  # as the database's owner could, triggers off
        cursor.execute("SET session_replication_role = replica")
        cursor.execute("UPDATE pit_jogo SET commission = 5 WHERE id = %s", [rows["T2"][1].pk])
        cursor.execute("SET session_replication_role = origin")
    with pytest.raises(CommandError) as failed:
        call_command("verify_ledger", "--workers", "2", "--no-progress", stdout=out, stderr=StringIO())
    assert "ledger broken at 1 place(s); first: table T2 (Casino Lisboa), jogo 2 (ledger seq 6" in str(failed.value)


@pytest.fixture
def fresh_connection_afterwards():
    yield
    connection.close()
