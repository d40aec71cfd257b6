"""Reads on the streaming replica (docs/deployment.md, "PostgreSQL primary and replica").

Installed only when DATABASE_REPLICA_URL is set (casino/settings.py). A read goes to the
"replica" database only when all of these hold:

- it runs inside `reading_replica()`: casino.middleware.ReplicaReadsMiddleware enters it for the
  audit's, the reports' and the exports' pages (casino/middleware.py lists them), and nothing
  else does: the pit, the dealer, the API, the nightly jobs and the daily report read the primary;
- it reads a model of the project's own apps (casino.*): the users, their permissions and
  sessions, the cache that counts the API's requests and the login lockouts are read where they
  are written, so that a change to them counts at once;
- the primary's connection is not inside a transaction (`atomic`): a read inside a write sees
  what the write has done so far, so it stays on the primary.

Every write goes to the primary, and migrations run only there (the replica copies them).
"""
from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"


@dataclass
class ReplicaReads:
    """One `reading_replica()` block: `used` becomes True once a read was sent to the replica,
    so that the page can say how far behind the replica is (casino/replica.py)."""

    used: bool = False


_reads: contextvars.ContextVar[ReplicaReads | None] = contextvars.ContextVar("replica_reads", default=None)


@contextlib.contextmanager
def reading_replica() -> Iterator[ReplicaReads]:
    """Lets the reads made inside the block go to the replica (see the module's docstring)."""
    reads = ReplicaReads()
    token = _reads.set(reads)
    try:
        yield reads
    finally:
        _reads.reset(token)


def replica_reads() -> ReplicaReads | None:
    """The current `reading_replica()` block, or None outside any."""
    return _reads.get()


class ReplicaRouter:
    """Sends the reads of `reading_replica()` blocks to the replica, everything else to the primary."""

    def db_for_read(self, model, **hints) -> str:
        reads = _reads.get()
        app = getattr(model._meta, "app_config", None)  # none for the database cache's table
        if reads is None or app is None or not app.name.startswith("casino.") or connections[
                DEFAULT_DB_ALIAS].in_atomic_block:
            return DEFAULT_DB_ALIAS
        reads.used = True
        return REPLICA

    def db_for_write(self, model, **hints) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints) -> bool:
        # The replica is a copy of the primary: an object read on either may refer to the other's.
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints) -> bool:
        return db == DEFAULT_DB_ALIAS
