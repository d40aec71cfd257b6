"""Work spread over Celery workers (`audit_recompute --distributed`, `verify_ledger
--distributed`): one task per shard (a run of one table's jogos, or one table's whole chain) on the
queue `audit`, taken by any number of workers on any number of hosts (`celery -A casino worker -Q
audit`), each reading whichever database its own settings name. The tasks are the apps' own
(casino/pit/tasks.py `verify_table`, casino/audit/tasks.py `recompute_shard`); this module sends
and gathers them, beside the apps, so that the pit's command needs nothing of the audit.

The command sends the shards as one group and gathers their results from the result backend
(Redis). Each result carries the key of its shard, and exactly one result is taken for each
shard: a task delivered twice (acknowledged late, so a worker lost half-way gives its task to
another) or a stray result is never counted twice. A shard whose task failed for good, or from
which nothing has come back for `timeout` seconds, fails the run by name: a report that left a
shard out would say the ledger is intact where nobody looked.

Each task reads and returns; it writes nothing, so it may run twice without harm. Acknowledged
only when done (acks_late), and given back to the queue when its worker process dies
(reject_on_worker_lost), so that a lost worker leaves its shard to another; a database that fails
(a connection lost, a failover) is retried a bounded number of times, on a new connection
(`RETRIED`, `on_a_sound_connection`).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator

from celery import group
from django.conf import settings
from django.core.management.base import CommandError
from django.db import InterfaceError, OperationalError, connection

# The queue the shards go to (CELERY_TASK_ROUTES in casino/settings.py; a command's --queue names
# another), which the workers take: celery -A casino worker -Q audit.
QUEUE = "audit"
RETRIED = {"acks_late": True, "reject_on_worker_lost": True,
           "autoretry_for": (OperationalError, InterfaceError), "max_retries": 3,
           "retry_backoff": 1, "retry_backoff_max": 30}

TIMEOUT = 600  # seconds without any shard's result before the run gives up on the others
POLL = 0.2  # seconds between two looks at the result backend


class Unfinished(CommandError):
    """Shards that never came back (lost) or failed after their retries (failed), by name: the
    command names them and exits 1, printing no report."""

    def __init__(self, *, lost: list[str], failed: list[str]):
        self.lost, self.failed = lost, failed
        parts = [f"{len(failed)} shard(s) failed: " + "; ".join(failed)] if failed else []
        parts += [f"{len(lost)} shard(s) never came back: " + "; ".join(lost)] if lost else []
        super().__init__("incomplete, no report: " + ". ".join(parts), returncode=1)


def require_broker() -> None:
    """--distributed needs the broker of REDIS_URL: without it the command says so and exits 2,
    never falling back to a local run unasked."""
    if not settings.REDIS_URL:
        raise CommandError("--distributed needs a broker: set REDIS_URL (e.g. redis://127.0.0.1:6379/0), the one "
                           "the workers of the queue 'audit' listen to", returncode=2)


def add_arguments(parser) -> None:
    """--distributed and its options, the same for audit_recompute and verify_ledger."""
    parser.add_argument("--distributed", dest="celery", action="store_true",
                        help="send the work to Celery workers (celery -A casino worker -Q audit) through the broker "
                             "of REDIS_URL, one task a shard, and gather their results")
    parser.add_argument("--queue", default=QUEUE, help=f"the workers' queue, with --distributed (default: {QUEUE})")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, metavar="SECONDS",
                        help="with --distributed, give up when no shard has come back for this long, naming the "
                             f"shards still out (default: {TIMEOUT})")


def gather(results: Iterable[dict], keys: Iterable[str], *,
           taken: Callable[[dict], None] | None = None) -> dict[str, dict]:
    """One result for each of the shards `keys`, the first to arrive (`taken(result)` as each
    is): a second result of a shard (its task run twice) and a result of no shard asked for are
    ignored."""
    expected = set(keys)
    gathered: dict[str, dict] = {}
    for result in results:
        if result["shard"] in expected and result["shard"] not in gathered:
            gathered[result["shard"]] = result
            if taken:
                taken(result)
    return gathered


def run(task, shards: dict[str, tuple], *, names: dict[str, str], queue: str = QUEUE, timeout: float = TIMEOUT,
        taken: Callable[[dict], None] | None = None) -> dict[str, dict]:
    """Run `task(*arguments)` for each shard of `shards` (key -> arguments) on the workers of
    `queue` and return each shard's result, keyed by shard; `taken(result)` as each comes back.
    Raises `Unfinished`, naming the shards (`names`: key -> words), if any failed or went quiet."""
    require_broker()
    if not shards:  # an empty ledger, or days without a jogo: nothing to send
        return {}
    sent = group(task.s(*arguments) for arguments in shards.values()).apply_async(queue=queue)
    failed: dict[str, str] = {}
    try:
        gathered = gather(_results(sent, dict(zip((r.id for r in sent.results), shards)), timeout, failed),
                          shards, taken=taken)
    finally:
        sent.forget()  # read, or given up: nothing is left in Redis for a day
    lost = [names[key] for key in shards if key not in gathered and key not in failed]
    if lost or failed:
        raise Unfinished(lost=lost, failed=[f"{names[key]} ({error})" for key, error in failed.items()])
    return gathered


def _results(sent, of_task: dict[str, str], timeout: float, failed: dict[str, str]) -> Iterator[dict]:
    """Each task's result as it is stored, until every task has ended or none has for `timeout`
    seconds; a task that failed for good (its retries spent) is put in `failed`, by shard."""
    waiting = set(of_task)
    quiet_since = time.monotonic()
    while waiting and time.monotonic() - quiet_since < timeout:
        # One look at every waiting task's state (a single MGET), then a pause of POLL.
        for task_id, meta in sent.app.backend.get_many(set(waiting), interval=POLL, max_iterations=1):
            waiting.discard(task_id)
            quiet_since = time.monotonic()
            if meta["status"] == "SUCCESS":
                yield meta["result"]
            else:  # FAILURE (the result is the exception) or REVOKED
                error = meta["result"]
                failed[of_task[task_id]] = (f"{type(error).__name__}: {error}" if isinstance(error, BaseException)
                                            else meta["status"])


def on_a_sound_connection(read: Callable):
    """`read()`; a connection that failed is closed before the error goes on to the retry, which
    then opens its own."""
    try:
        return read()
    except (OperationalError, InterfaceError):
        connection.close()
        raise
