import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, no_translations
from django.utils import timezone

from casino import partitions
from casino.partitions import NotPartitioned, PartitionError, month_of


class Command(BaseCommand):
    help = ("The ledger's monthly partitions on PostgreSQL (docs/ledger.md): make the months ahead, list them, "
            "detach a month to archive it (its chain heads saved first), verify an archived month on its own, "
            "attach it again, or move a month to another tablespace. On SQLite it says so and does nothing.")

    def add_arguments(self, parser):
        commands = parser.add_subparsers(dest="action", required=True)
        make = commands.add_parser("make", help="make the partitions of this month and the months ahead")
        make.add_argument("--months", type=int, default=None,
                          help="months ahead (default: the setting LEDGER_PARTITION_MONTHS_AHEAD)")
        commands.add_parser("list", help="every partition: table, month, rows, tablespace, attached")
        detach = commands.add_parser("detach", help="save a month's heads, then detach its partitions")
        detach.add_argument("--month", required=True, help="YYYY-MM")
        detach.add_argument("--heads-file", help="where to save the month's heads (a new file; default "
                                                 "ledger-heads-YYYY-MM.json here)")
        verify = commands.add_parser("verify", help="check a detached month on its own against its heads file")
        verify.add_argument("--heads-file", required=True)
        attach = commands.add_parser("attach", help="attach a detached month again")
        attach.add_argument("--month", required=True, help="YYYY-MM")
        attach.add_argument("--tablespace", help="move its partitions to this tablespace first")
        move = commands.add_parser("move", help="move an attached month's partitions to a tablespace")
        move.add_argument("--month", required=True, help="YYYY-MM")
        move.add_argument("--tablespace", required=True)

    @no_translations  # an operator's report, in English like the other ledger commands
    def handle(self, *args, action: str, **options):
        try:
            getattr(self, action)(**options)
        except NotPartitioned as error:
            self.stdout.write(str(error))
        except PartitionError as error:
            raise CommandError(str(error)) from error

    def make(self, *, months=None, **options):
        made = partitions.make_months_ahead(months)
        for name in made.made:
            self.stdout.write(f"made {name}")
        for refusal in made.refused:
            self.stderr.write(f"not made: {refusal} (docs/ledger.md: rows in a default partition)")
        if not made.made and not made.refused:
            self.stdout.write("every partition ahead exists already")
        if made.refused:
            raise CommandError(f"{len(made.refused)} month(s) not made")

    def list(self, **options):
        self.stdout.write(f"{'table':<22}{'month':<9}{'rows':>10}  {'tablespace':<16}attached")
        for part in partitions.partitions():
            month = f"{part.month:%Y-%m}" if part.month else "default"
            self.stdout.write(f"{part.table:<22}{month:<9}{part.rows:>10}  {part.tablespace:<16}"
                              f"{'yes' if part.attached else 'no'}")

    def detach(self, *, month: str, heads_file=None, **options):
        heads_file = Path(heads_file or f"ledger-heads-{month}.json")
        for name in partitions.detach(month_of(month), heads_file=heads_file):
            self.stdout.write(f"detached {name}")
        self.stdout.write(f"the month's heads are in {heads_file}: keep them with the archive")

    def verify(self, *, heads_file: str, **options):
        try:
            heads = json.loads(Path(heads_file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise CommandError(f"{heads_file} cannot be read as a month's heads: {error}") from error
        problems = partitions.verify_archived(heads)
        for problem in problems:
            self.stdout.write(problem)
        if problems:
            raise CommandError(f"the archived month {heads.get('month')} does not match its heads")
        self.stdout.write(f"the archived month {heads['month']} is intact ({len(heads['tables'])} table(s), "
                          f"checked {timezone.now():%Y-%m-%d %H:%M})")

    def attach(self, *, month: str, tablespace=None, **options):
        names = partitions.attach(month_of(month), tablespace=tablespace)
        for name in names:
            self.stdout.write(f"attached {name}")
        if not names:
            self.stdout.write(f"{month} is attached already")

    def move(self, *, month: str, tablespace: str, **options):
        for name in partitions.move(month_of(month), tablespace=tablespace):
            self.stdout.write(f"moved {name} to {tablespace}")
