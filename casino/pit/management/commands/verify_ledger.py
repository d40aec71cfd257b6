import json

from django.core.management.base import BaseCommand, CommandError

from casino.pit.heads import UnreadableHeads, departures
from casino.pit.models import Table
from casino.pit.verify import breaks


class Command(BaseCommand):
    help = ("Recompute every table's ledger hash chain and every jogo's settlement with the engine. "
            "With --heads FILE (written earlier by ledger_heads), also check that each table's chain still "
            "passes through its saved head. Exits 0 when all is intact; otherwise names the first broken row "
            "of each table and exits 1.")

    def add_arguments(self, parser):
        parser.add_argument("--heads", metavar="FILE", help="heads saved by `ledger_heads --out FILE`")

    def handle(self, *args, heads: str | None = None, **options):
        saved = None
        if heads:
            try:
                with open(heads, encoding="utf-8") as file:
                    saved = json.load(file)
            except (OSError, ValueError) as error:
                raise CommandError(f"the heads file {heads} cannot be read: {error}") from error
        tables = Table.objects.select_related("casino").order_by("pk")
        found = list(breaks(tables))
        if saved is not None:
            try:
                found += departures(saved)
            except UnreadableHeads as error:
                raise CommandError(f"{heads}: {error}") from error
        for item in found:
            self.stderr.write(f"BROKEN {item}")
        if found:
            raise CommandError(f"ledger broken at {len(found)} place(s); first: {found[0]}")
        anchored = f", each through its head saved at {saved['taken_at']}" if saved is not None else ""
        self.stdout.write(f"ledger intact: {tables.count()} table(s) checked{anchored}")
