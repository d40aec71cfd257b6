from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError

from casino.floor.tasks import save_heads


class Command(BaseCommand):
    help = ("Save every chain's head (last seq and hash: the tables' ledgers and the other chains) to a new "
            "read-only file in LEDGER_HEADS_DIR, named by the time; never over another file. The nightly job "
            "Celery beat runs (docs/operations.md); `ledger_heads --out FILE` writes the same to a file of your "
            "choice.")

    def handle(self, *args, **options):
        try:
            path = save_heads()
        except ImproperlyConfigured as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"ledger heads saved to {path}")
