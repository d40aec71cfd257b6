import json
import os
import sys
import time

from django.core.management.base import BaseCommand, CommandError, no_translations
from django.db import connection
from tqdm import tqdm

from casino import distributed
from casino.pit.heads import UnreadableHeads, departures
from casino.pit.models import Table
from casino.pit.tasks import verify_on_workers
from casino.pit.verify import OTHER_CHECKS, breaks


class Command(BaseCommand):
    help = ("Walk every table's ledger hash chain, re-score every jogo with the engine and replay every game's "
            "money. With --heads FILE (written earlier by ledger_heads), also check that each table's chain still "
            "passes through its saved head. Exits 0 when all is intact; otherwise names the first broken row "
            "of each table and exits 1.")

    def add_arguments(self, parser):
        parser.add_argument("--heads", metavar="FILE", help="heads saved by `ledger_heads --out FILE`")
        parser.add_argument("--workers", type=int, default=None,
                            help="worker processes (default: one per core, at most 2, on PostgreSQL; 1 on SQLite)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")
        distributed.add_arguments(parser)

    @no_translations  # the command's report is in English, whatever a request left active
    def handle(self, *args, heads=None, workers=None, no_progress=False, celery=False,
               queue=distributed.QUEUE, timeout=distributed.TIMEOUT, **options):
        saved = self._saved(heads) if heads else None
        if celery:
            distributed.require_broker()
        elif workers is None:
            workers = min(2, os.cpu_count() or 1) if connection.vendor == "postgresql" else 1
        started = time.perf_counter()
        tables = list(Table.objects.select_related("casino").order_by("pk"))
        with tqdm(total=sum(t.ledger_seq for t in tables), unit=" rows", unit_scale=True, file=sys.stderr,
                  disable=True if no_progress else None, desc="verifying") as bar:
            checks = verify_on_workers(tables, queue=queue, timeout=timeout,
                                                    progress=bar.update) if celery else None
            found = breaks(tables, workers=workers, progress=bar.update, checks=checks)
        rows = sum(t.ledger_seq for t in tables)
        if saved is not None:
            try:
                found += departures(saved)
            except UnreadableHeads as error:
                raise CommandError(f"{heads}: {error}") from error
        others = []
        for check in OTHER_CHECKS:
            checked = check()
            found += checked.found
            others.append(checked.summary)
        for item in found:
            self.stderr.write(f"BROKEN {item}")
        if found:
            raise CommandError(f"ledger broken at {len(found)} place(s); first: {found[0]}")
        elapsed = time.perf_counter() - started
        anchored = f", each through its head saved at {saved['taken_at']}" if saved is not None else ""
        also = "".join(f"; {summary}" for summary in others)
        self.stdout.write(f"ledger intact: {len(tables)} table(s) checked{anchored}; {rows} rows{also}; in "
                          f"{elapsed:.1f} s " + (f"through the Celery workers of the queue {queue}" if celery
                                                   else f"with {workers} worker(s)"))

    def _saved(self, path: str) -> dict:
        try:
            with open(path, encoding="utf-8") as file:
                return json.load(file)
        except (OSError, ValueError) as error:
            raise CommandError(f"the heads file {path} cannot be read: {error}") from error
