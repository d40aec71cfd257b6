"""How far the streaming replica is behind the primary, and the banner of a page that read it
(docs/deployment.md, "PostgreSQL primary and replica").

A replica replays the primary's write-ahead log a moment after the primary wrote it; while it
is busy or cut off, the figures it serves are older than the ledger. The audit's and the
reports' pages read it (casino/db_router.py), so a page that did says how far behind they are,
once that is more than settings.REPLICA_LAG_WARN_SECONDS.
"""
from __future__ import annotations

import math
import threading
import time
from decimal import Decimal

from django.conf import settings
from django.db import connections

from casino.db_router import REPLICA, replica_reads

# Caught up when it is streaming from the primary and has replayed all it received (an idle
# primary sends nothing new, and the last replayed transaction may be hours old); else, behind or
# cut off from the primary (whose last record it soon replays, and then waits), the age of the
# last transaction it replayed.
LAG_SQL = """
    SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_stat_wal_receiver WHERE status = 'streaming')
                     AND pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) END
"""
# One measure serves every page of a few seconds: a replica's lag does not change faster than
# anyone reads a banner, and each page need not ask it again.
CACHE_SECONDS = 5

_lock = threading.Lock()
_measured: tuple[float, Decimal | None] | None = None  # (time.monotonic() of the measure, lag)


def lag_seconds() -> Decimal | None:
    """The replica's lag in seconds (0 when it has replayed all it received), measured on the
    replica at most CACHE_SECONDS ago; None when there is no replica, or it is not replaying a
    primary's log (the query gives no answer on a server that is not a standby)."""
    global _measured
    if REPLICA not in settings.DATABASES:
        return None
    with _lock:
        if _measured is not None and time.monotonic() - _measured[0] < CACHE_SECONDS:
            return _measured[1]
        with connections[REPLICA].cursor() as cursor:
            cursor.execute(LAG_SQL)
            (lag,) = cursor.fetchone()
        lag = None if lag is None else Decimal(lag)
        _measured = (time.monotonic(), lag)
        return lag


def forget_lag() -> None:
    """Drops the cached measure: the next call measures again."""
    global _measured
    with _lock:
        _measured = None


def lag_banner(request) -> dict:
    """Context processor: `replica_lag_seconds`, in whole seconds rounded up, on a page that read
    the replica while the replica is more than settings.REPLICA_LAG_WARN_SECONDS behind; nothing
    otherwise."""
    reads = replica_reads()
    if reads is None or not reads.used:
        return {}
    lag = lag_seconds()
    if lag is None or lag <= settings.REPLICA_LAG_WARN_SECONDS:
        return {}
    return {"replica_lag_seconds": math.ceil(lag)}
