import os
import sys
import time

from django.core.management.base import BaseCommand, CommandError, no_translations
from django.db import connection
from tqdm import tqdm

from casino import distributed
from casino.audit import recompute
from casino.audit.forms import asked_days
from casino.audit.ledger import BadDays, Days
from casino.audit.tasks import recompute_on_workers


class Command(BaseCommand):
    help = ("Re-score every jogo of the ledger (every revision) with the engine and report every difference "
            "between a stored figure and the engine's: table, game, jogo number, field, recorded and recomputed. "
            "Exits 0 when there is none, 1 otherwise.")

    def add_arguments(self, parser):
        parser.add_argument("--from", dest="first", metavar="DATE", help="first gaming day (YYYY-MM-DD)")
        parser.add_argument("--to", dest="last", metavar="DATE", help="last gaming day (YYYY-MM-DD)")
        parser.add_argument("--workers", type=int, default=None,
                            help="worker processes (default: one per core, at most 2, on PostgreSQL; 1 on SQLite)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")
        distributed.add_arguments(parser)

    @no_translations  # the command's report is in English, whatever a request left active
    def handle(self, *args, first=None, last=None, workers=None, no_progress=False, celery=False,
               queue=distributed.QUEUE, timeout=distributed.TIMEOUT, **options):
        days = self._days(first, last)
        if celery:
            distributed.require_broker()
        elif workers is None:
            workers = min(2, os.cpu_count() or 1) if connection.vendor == "postgresql" else 1
        started = time.perf_counter()
        shards = recompute.plan(days)
        with tqdm(total=sum(s.rows for s in shards), unit=" jogos", unit_scale=True, file=sys.stderr,
                  disable=True if no_progress else None, desc="re-scoring") as bar:
            if celery:
                tally = recompute.combined(recompute_on_workers(shards, days, queue=queue, timeout=timeout,
                                                                            progress=bar.update))
            else:
                tally = recompute.run(days, workers=workers, progress=bar.update, shards=shards)
        elapsed = time.perf_counter() - started
        for difference in tally.differences:
            self.stdout.write(f"DIFFERENCE {difference}")
        rate = tally.rows / elapsed if elapsed else 0.0
        scope = f"gaming days {days}" if days else "all gaming days"
        self.stdout.write(
            f"{scope}: {tally.rows} ledger rows re-scored ({tally.current} current jogos, {tally.won} won); "
            f"commission recorded {tally.commission_recorded}, per the regulation (Art. 8) {tally.commission_due}; "
            f"{len(tally.differences)} difference(s); {elapsed:.1f} s, {rate:,.0f} jogos/s "
            + (f"through the Celery workers of the queue {queue}" if celery else f"with {workers} worker(s)"))
        if tally.differences:
            raise CommandError(f"{len(tally.differences)} difference(s) between the ledger and the engine",
                               returncode=1)

    def _days(self, first, last) -> Days | None:
        if not first and not last:
            return None
        try:
            return asked_days({"from": first, "to": last})
        except BadDays as error:
            raise CommandError(f"--{error}") from None
