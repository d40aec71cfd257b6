"""manage.py anonymise_patrons [--dry-run]: remove the personal data of the players whose
retention period (PATRON_RETENTION_DAYS after their last movement) is over, but those another
app keeps (casino/pit/patrons.py `anonymise_expired`). Run it daily, as cron or a scheduler does."""
from django.core.management.base import BaseCommand

from casino.pit.patrons import anonymise_expired


class Command(BaseCommand):
    help = "Remove the personal data of players whose retention period is over (PATRON_RETENTION_DAYS)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="count them, change nothing")

    def handle(self, *args, dry_run: bool = False, **options):
        count = anonymise_expired(dry_run=dry_run)
        if dry_run:
            self.stdout.write(f"{count} player(s) would be anonymised.")
        else:
            self.stdout.write(self.style.SUCCESS(f"{count} player(s) anonymised."))
