"""The shards of `audit_recompute --distributed` as Celery tasks on the queue `audit`, sent and
gathered by casino/distributed.py (which says how a shard is retried and never counted twice). A
worker runs them with `celery -A casino worker -Q audit --concurrency N`, on any host that reaches
the broker and a database: the shard is read from whichever database the worker's own settings name.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from celery import shared_task

from casino import distributed
from casino.distributed import QUEUE, RETRIED, TIMEOUT

from . import recompute
from .ledger import Days


@shared_task(name="casino.audit.tasks.recompute_shard", **RETRIED)
def recompute_shard(shard: dict, days: list[str] | None) -> dict:
    """One shard of the re-audit (recompute.Shard.as_dict()) over the gaming days [first, last]
    (all when None): {"shard": its key, "tally": recompute.Tally.as_dict()}."""
    shard = recompute.Shard(**shard)
    scope = Days(*(dt.date.fromisoformat(day) for day in days)) if days else None
    tally = distributed.on_a_sound_connection(lambda: recompute.audit_shard(shard, scope))
    return {"shard": shard.key, "tally": tally.as_dict()}


def recompute_on_workers(shards: list[recompute.Shard], days: Days | None, *, queue: str = QUEUE,
                         timeout: float = TIMEOUT, progress: Callable[[int], None] | None = None
                         ) -> list[recompute.Tally]:
    """The re-audit's shards (recompute.plan) re-scored by the workers: one tally a shard."""
    scope = [days.first.isoformat(), days.last.isoformat()] if days else None
    results = distributed.run(recompute_shard, {shard.key: (shard.as_dict(), scope) for shard in shards},
                              names={shard.key: str(shard) for shard in shards}, queue=queue, timeout=timeout,
                              taken=progress and (lambda result: progress(result["tally"]["rows"])))
    return [recompute.Tally.from_dict(result["tally"]) for result in results.values()]
