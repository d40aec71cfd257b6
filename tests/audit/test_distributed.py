"""`audit_recompute --distributed` and `verify_ledger --distributed`: the shards sent to Celery
workers through the Redis broker, their results gathered one a shard, and the same report as the
local run's.

The gatherer and the shards' way there and back as JSON are checked everywhere. The runs through
a worker need Redis (REDIS_URL) and PostgreSQL: the worker is a process of its own (`celery -A
casino worker`, as production starts it), on this test's database by name and on a queue of its
own, so that no other worker takes its tasks; the test commits its rows (a transactional test) so
that the worker sees them. CI's PostgreSQL leg runs them.
"""
from __future__ import annotations

import json
import os
import re
import threading
import uuid
from io import StringIO

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from casino import distributed
from casino.audit import recompute
from casino.audit.tasks import recompute_on_workers
from casino.pit.recheck import Difference
from casino.pit.verify import TableCheck
from tests.builders.audit import plant, varied_day
from tests.builders.workers import celery_worker, database_url_of_this_test

REDIS_URL = os.environ.get("REDIS_URL", "")
WAIT = 120  # seconds without a shard's result before a run gives up: a worker that never answers

THROUGH_A_WORKER = (
    pytest.mark.skipif(not REDIS_URL, reason="needs Redis: set REDIS_URL (CI's PostgreSQL leg does)"),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="the worker is another process: it needs a test database it can open by name"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("flush_ledger_afterwards"),
)


def through_a_worker(test):
    for mark in THROUGH_A_WORKER:
        test = mark(test)
    return test


# --- The gatherer and the shards as JSON: everywhere ---------------------------------------------

def tally_result(key: str, rows: int, commission: int) -> dict:
    return {"shard": key, "tally": recompute.Tally(rows=rows, current=rows, commission_recorded=commission).as_dict()}


def test_a_shard_whose_result_comes_twice_is_counted_once():
    results = [tally_result("1:1-10", 10, 100), tally_result("2:1-5", 5, 50), tally_result("1:1-10", 10, 100)]
    taken = []

    gathered = distributed.gather(results, ["1:1-10", "2:1-5"], taken=taken.append)
    total = recompute.combined(recompute.Tally.from_dict(result["tally"]) for result in gathered.values())

    assert sorted(gathered) == ["1:1-10", "2:1-5"] and len(taken) == 2
    assert (total.rows, total.commission_recorded) == (15, 150)


def test_a_result_of_no_shard_asked_for_is_ignored():
    gathered = distributed.gather([tally_result("9:1-3", 3, 30), tally_result("1:1-10", 10, 100)], ["1:1-10"])

    assert list(gathered) == ["1:1-10"]


def test_a_tally_and_a_table_check_come_back_from_json_as_they_went():
    tally = recompute.Tally(rows=3, current=2, won=1, commission_recorded=20, commission_due=10, differences=[
        Difference("T1", 7, 3, 0, 41, "commission", 20, 10),
        Difference("T1", 7, 4, 1, 42, "capital_after", [5000, 3000, None, 4000], [5010, 2990, None, 4000])])
    check = TableCheck(5, rows=12, found=("jogo 3 (ledger seq 9, id 41)", "prev_hash does not match"))

    assert recompute.Tally.from_dict(json.loads(json.dumps(tally.as_dict()))) == tally
    assert TableCheck.from_dict(json.loads(json.dumps(check.as_dict()))) == check
    assert TableCheck.from_dict(json.loads(json.dumps(TableCheck(6, rows=4).as_dict()))) == TableCheck(6, rows=4)


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["audit_recompute", "verify_ledger"])
def test_distributed_without_a_broker_says_so_and_does_not_run_here(command, settings):
    settings.REDIS_URL = ""
    varied_day()

    with pytest.raises(CommandError, match="--distributed needs a broker: set REDIS_URL") as refused:
        call_command(command, "--distributed", "--no-progress", stdout=StringIO())

    assert refused.value.returncode == 2


@pytest.mark.skipif(not REDIS_URL, reason="needs Redis: set REDIS_URL (CI's PostgreSQL leg does)")
@pytest.mark.django_db
def test_days_without_a_jogo_send_nothing_and_report_nothing_found():
    varied_day()

    lines = report("audit_recompute", "--distributed", "--from", "2026-12-01", "--to", "2026-12-31")

    assert lines == ["gaming days 2026-12-01 – 2026-12-31: 0 ledger rows re-scored (0 current jogos, 0 won); "
                     "commission recorded 0, per the regulation (Art. 8) 0; 0 difference(s)", "exit 0"]


# --- Through a real worker and Redis -------------------------------------------------------------

@pytest.fixture
def worker_queue(transactional_db, tmp_path):
    """A Celery worker in a process of its own (`celery -A casino worker`), on this test's
    database and on a queue of its own; yields the queue's name. Stopped (warm shutdown) before
    the test's database is emptied."""
    queue = f"audit-test-{uuid.uuid4().hex}"
    with celery_worker(queue, broker=REDIS_URL, heads=tmp_path / "heads", log=tmp_path / "worker.log"):
        yield queue


# The one part of a report that says how and how fast it ran.
TIMING = re.compile(r"(; [\d.]+ s, [\d,]+ jogos/s|; in [\d.]+ s) "
                    r"(with \d+ worker\(s\)|through the Celery workers of the queue \S+)$")


def report(command: str, *args: str) -> list[str]:
    """The command's report, every line, and how it exited; its timing left out."""
    out, err = StringIO(), StringIO()
    try:
        call_command(command, "--no-progress", *args, stdout=out, stderr=err)
        err.write("exit 0\n")
    except CommandError as error:
        err.write(f"exit {error.returncode}: {error}\n")
    return [TIMING.sub("", line) for line in (out.getvalue() + err.getvalue()).splitlines()]


def a_day_with_a_planted_difference():
    people, t1, game, rows = varied_day()
    return plant(game, people["dealer"], commission=20)


@pytest.mark.parametrize("command, found", [
    ("audit_recompute", "DIFFERENCE table T1, game {game}, jogo 6 (id {id}): commission recorded 20, recomputed 10"),
    ("verify_ledger", "BROKEN table T1 ({casino}), jogo 6 (ledger seq {seq}, id {id}): the row's content does not "
                      "match its hash: it was changed after recording"),
])
@through_a_worker
def test_the_distributed_run_prints_the_local_runs_report(command, found, worker_queue):
    planted = a_day_with_a_planted_difference()

    local = report(command, "--workers", "1")
    spread = report(command, "--distributed", "--queue", worker_queue, "--timeout", str(WAIT))

    assert spread == local
    assert found.format(game=planted.game_id, id=planted.pk, seq=planted.seq, casino=planted.table.casino) in local
    assert local[-1].startswith("exit 1")


@through_a_worker
def test_a_shard_whose_connection_is_lost_is_retried_and_counted_once(worker_queue):
    """The worker's connection is cut while its shard waits to read (as in a failover): the task
    fails with OperationalError, is retried on a new connection, and its rows count once."""
    a_day_with_a_planted_difference()
    shards = recompute.plan(None)
    expected = recompute.run(None, workers=1, shards=shards)
    cut: list[int] = []
    locked = threading.Event()
    cutter = threading.Thread(target=cut_the_first_reader, args=(database_url_of_this_test(), locked, cut))
    cutter.start()
    assert locked.wait(WAIT)

    tally = recompute.combined(recompute_on_workers(shards, None, queue=worker_queue, timeout=WAIT))

    cutter.join()
    assert len(cut) == 1  # the first attempt was cut: what came back is the retry's
    assert tally == expected and tally.rows == 6 and len(tally.differences) == 1


def cut_the_first_reader(url: str, locked: threading.Event, cut: list[int]) -> None:
    """Hold the ledger locked until a worker's shard waits for it, end that worker's session
    (pg_terminate_backend, as a failover or a network cut would), then let the ledger go."""
    with psycopg.connect(url) as locker:
        locker.execute("LOCK TABLE pit_jogo IN ACCESS EXCLUSIVE MODE")
        locked.set()
        for _ in range(WAIT * 10):
            # Its own look each time: within a transaction the activity is otherwise read once.
            locker.execute("SELECT pg_stat_clear_snapshot()")
            waiting = locker.execute("SELECT pid FROM pg_stat_activity "
                                     "WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))").fetchall()
            if waiting:
                locker.execute("SELECT pg_terminate_backend(%s)", waiting[0])
                cut.append(waiting[0][0])
                break
            locker.execute("SELECT pg_sleep(0.1)")
        locker.rollback()


@through_a_worker
def test_a_shard_no_worker_takes_fails_the_run_by_name():
    varied_day()
    queue = f"audit-test-nobody-{uuid.uuid4().hex}"  # no worker listens to it
    try:
        with pytest.raises(CommandError, match=r"1 shard\(s\) never came back: table T1, jogos 1–5") as failed:
            call_command("audit_recompute", "--distributed", "--queue", queue, "--timeout", "1", "--no-progress",
                         stdout=StringIO())
    finally:
        from casino.celery import app
        with app.connection_for_write() as broker:
            broker.default_channel.queue_purge(queue)  # the shard's message, which nobody will take
    assert failed.value.returncode == 1
