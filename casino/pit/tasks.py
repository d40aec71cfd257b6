"""The pit's scheduled work (casino/celery.py; beat's time in casino/settings.py).

- `make_partitions`, nightly: on PostgreSQL, the ledger's monthly partitions made
  LEDGER_PARTITION_MONTHS_AHEAD months ahead (casino.partitions), and any row found in a default
  partition reported: none should be there while the job keeps ahead (docs/ledger.md). The same as
  `manage.py ledger_partitions make`; running it twice makes nothing the second time. On SQLite it
  does nothing;
- `verify_table`, a shard of `verify_ledger --distributed`: one table's chain checked
  (casino.pit.verify.check_table) by a worker of the queue `audit`, sent and gathered by
  casino/distributed.py.
"""
from __future__ import annotations

import logging
from collections.abc import Callable

from celery import shared_task

from casino import distributed, partitions
from casino.distributed import QUEUE, RETRIED, TIMEOUT

from .models import Table
from .verify import TableCheck, check_table

log = logging.getLogger(__name__)


@shared_task(name="casino.pit.tasks.make_partitions", acks_late=True)
def make_partitions() -> dict[str, list[str] | dict[str, int]]:
    """Nightly: the partitions made, the months refused and the rows in each default partition."""
    try:
        made = partitions.make_months_ahead()
        waiting = {table: rows for table, rows in partitions.default_rows().items() if rows}
    except partitions.NotPartitioned:
        return {"made": [], "refused": [], "default_rows": {}}
    for refusal in made.refused:
        log.error("ledger partition not made: %s", refusal)
    for table, rows in waiting.items():
        log.error("%s row(s) of %s are in its default partition: make their month (docs/ledger.md)", rows, table)
    return {"made": made.made, "refused": made.refused, "default_rows": waiting}


@shared_task(name="casino.pit.tasks.verify_table", **RETRIED)
def verify_table(table_id: int) -> dict:
    """One table's chain checked (casino.pit.verify.check_table): {"shard": the table's id as
    text, "check": TableCheck.as_dict()}."""
    check = distributed.on_a_sound_connection(lambda: check_table(table_id))
    return {"shard": str(table_id), "check": check.as_dict()}


def verify_on_workers(tables: list[Table], *, queue: str = QUEUE, timeout: float = TIMEOUT,
                      progress: Callable[[int], None] | None = None) -> list[TableCheck]:
    """Each table's chain checked by the workers of `queue`, one task a table."""
    results = distributed.run(verify_table, {str(table.pk): (table.pk,) for table in tables},
                              names={str(table.pk): f"table {table.number} ({table.casino})" for table in tables},
                              queue=queue, timeout=timeout,
                              taken=progress and (lambda result: progress(result["check"]["rows"])))
    return [TableCheck.from_dict(result["check"]) for result in results.values()]
