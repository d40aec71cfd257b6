"""A real Celery worker for the tests that need one (tests/floor/test_scheduler_celery.py,
tests/audit/test_distributed.py): a process of its own (`celery -A casino worker`), on the test's
own PostgreSQL database, on a queue of its own so that no other run's worker takes its tasks."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from django.db import connection

REPO = Path(__file__).resolve().parents[2]


def database_url_of_this_test() -> str:
    """The test database's address, for a process of its own to reach it."""
    db = connection.settings_dict
    who = quote(db["USER"] or "") + (":" + quote(db["PASSWORD"]) if db["PASSWORD"] else "")
    return f"postgres://{who}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@contextlib.contextmanager
def celery_worker(queue: str, *, broker: str, heads: Path, log: Path) -> Iterator[None]:
    """A worker of `queue` through `broker`, its LEDGER_HEADS_DIR `heads`, its output in the file
    `log` (not a pipe: a pipe nobody reads would stop a talkative worker). Stopped (warm shutdown,
    else killed after 30 s) when the block ends, its log then shown with any failure."""
    env = {**os.environ, "DJANGO_DEBUG": "1", "DJANGO_SETTINGS_MODULE": "casino.settings",
           "DATABASE_URL": database_url_of_this_test(), "REDIS_URL": broker, "LEDGER_HEADS_DIR": str(heads)}
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "casino", "worker", "--pool", "solo", "--without-heartbeat",
             "--without-gossip", "--without-mingle", "--loglevel", "INFO", "--queues", queue,
             "--hostname", f"{queue}@%h"], cwd=REPO, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        sys.stderr.write(log.read_text())
