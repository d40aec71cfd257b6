import json

from django.core.management.base import BaseCommand
from django.utils import timezone

from casino.pit.heads import snapshot


class Command(BaseCommand):
    help = ("Write each table's ledger head (last seq and its hash) as JSON, with the time, to anchor the "
            "hash chains outside the database. Save the file nightly to write-once storage; "
            "`verify_ledger --heads FILE` checks that every chain still passes through it.")

    def add_arguments(self, parser):
        parser.add_argument("--out", required=True, help="file to write, or - for standard output")

    def handle(self, *args, out: str, **options):
        text = json.dumps(snapshot(timezone.now()), indent=1, ensure_ascii=False) + "\n"
        if out == "-":
            self.stdout.write(text, ending="")
        else:
            with open(out, "x", encoding="utf-8") as file:  # never overwrite an anchor already saved
                file.write(text)
            self.stderr.write(f"ledger heads written to {out}")
