from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError, no_translations

from casino.floor.tasks import verify_and_alert


class Command(BaseCommand):
    help = ("The nightly verification: verify_ledger's checks against the heads saved last in LEDGER_HEADS_DIR "
            "(by save_ledger_heads), and an alert on the floor for anything found. Exits 0 when all is intact; "
            "otherwise prints each finding and exits 1. `verify_ledger --heads FILE` checks against a file of "
            "your choice and raises no alert.")

    def add_arguments(self, parser):
        parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1, as the nightly job)")

    @no_translations  # the command's report is in English, whatever a request left active
    def handle(self, *args, workers: int = 1, **options):
        try:
            done = verify_and_alert(workers=workers)
        except ImproperlyConfigured as error:
            raise CommandError(str(error)) from error
        for item in done.found:
            self.stderr.write(f"BROKEN {item}")
        if done.found:
            raise CommandError(f"ledger broken at {len(done.found)} place(s), raised as an alert; "
                               f"first: {done.found[0]}")
        against = f"through the heads saved in {done.heads}" if done.heads else "no heads saved yet to check against"
        also = "".join(f"; {summary}" for summary in done.summaries)
        self.stdout.write(f"ledger intact: {done.tables} table(s) checked, {against}{also}")
