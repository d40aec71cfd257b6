from django.core.management.base import BaseCommand, CommandError

from casino.pit.models import Table
from casino.pit.verify import breaks


class Command(BaseCommand):
    help = ("Recompute every table's ledger hash chain and every jogo's settlement with the engine. "
            "Exits 0 when all is intact; otherwise names the first broken row of each table and exits 1.")

    def handle(self, *args, **options):
        tables = Table.objects.select_related("casino").order_by("pk")
        found = list(breaks(tables))
        for item in found:
            self.stderr.write(f"BROKEN {item}")
        if found:
            raise CommandError(f"ledger broken at {len(found)} table(s); first: {found[0]}")
        self.stdout.write(f"ledger intact: {tables.count()} table(s) checked")
