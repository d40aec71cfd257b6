"""The scheduled jobs through a real Celery worker and Redis broker, as production runs them
(`celery -A casino worker`): a worker process is started on Redis database 5 (the scheduler's
tests' own), listening to a queue of its own, so that no other worker takes its tasks (another
run's, or another xdist process's), and on this test's PostgreSQL database, by name; the test
commits its rows (a transactional test) so that the worker, another process, sees them.

Skipped without REDIS_URL, or on SQLite (whose test database lives in this process's memory):
CI's PostgreSQL leg runs it (.ci/run). The other scheduler tests run the same tasks eagerly."""
import os
import uuid
from functools import partial

import pytest
from celery import Celery
from django.db import connection, transaction

from casino.floor.models import Alert
from casino.floor.rules import LEDGER
from tests.builders.ledger import behind_the_applications_back
from tests.builders.pit import DRAW, record_next, seat
from tests.builders.workers import celery_worker

REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.skipif(not REDIS_URL, reason="needs Redis: set REDIS_URL (CI's PostgreSQL leg does)"),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="the worker is another process: it needs a test database it can open by name"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("flush_ledger_afterwards"),
]

WAIT = 120  # seconds a task may take to come back before the test gives up: a worker that never answers


def own_redis_database(url: str) -> str:
    """REDIS_URL's server, database 5: the scheduler's tests' own."""
    return url.rsplit("/", 1)[0] + "/5" if url.count("/") > 2 else url.rstrip("/") + "/5"


@pytest.fixture
def worker(transactional_db, tmp_path):
    """A Celery worker in a process of its own, on a queue of its own; yields (a function that runs
    a task there and returns its result, the worker's LEDGER_HEADS_DIR). Stopped (warm shutdown)
    before the test's database is emptied."""
    broker = own_redis_database(REDIS_URL)
    queue = f"scheduler-test-{uuid.uuid4().hex}"  # its own: no other run's worker takes its tasks
    heads = tmp_path / "heads"
    client = Celery("scheduler-test", broker=broker, backend=broker)
    try:
        with celery_worker(queue, broker=broker, heads=heads, log=tmp_path / "worker.log"):
            yield partial(run_in_worker, client, queue), heads
    finally:
        client.close()


def run_in_worker(client: Celery, queue: str, name: str):
    return client.send_task(name, queue=queue).get(timeout=WAIT)


@pytest.fixture
def played(people):
    staff, t1, t2 = people
    game = seat(t1, staff["dealer"])
    jogos = [record_next(game, staff["dealer"], **fields) for fields in ({}, DRAW, DRAW)]
    return staff, t1, game, jogos


def test_the_worker_saves_the_heads_of_the_ledger_it_reads(worker, played):
    run, heads = worker
    staff, t1, game, jogos = played

    name = run("casino.floor.tasks.save_ledger_heads")

    assert (heads / name).exists() and jogos[-1].hash in (heads / name).read_text()


def test_the_worker_verifies_the_ledger_and_raises_the_alert_for_a_changed_jogo(worker, played):
    run, heads = worker
    staff, t1, game, jogos = played
    assert run("casino.floor.tasks.verify_ledger") == []
    with transaction.atomic():  # SET LOCAL, in behind_the_applications_back, needs a transaction
        behind_the_applications_back("UPDATE pit_jogo SET declared_fan = 3 WHERE id = %s", [jogos[0].pk])

    found = run("casino.floor.tasks.verify_ledger")

    assert len(found) == 1 and "does not match its hash" in found[0]
    assert Alert.objects.standing().get(rule=LEDGER).params["first"] == found


def test_the_worker_runs_the_floors_tick(worker):
    run, heads = worker
    assert run("casino.floor.tasks.tick") == {"raised": 0, "cleared": 0, "escalated": 0}
