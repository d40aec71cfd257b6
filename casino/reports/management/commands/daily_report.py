import datetime as dt
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from casino.pit.models import Casino
from casino.reports.pdf import LANGUAGES, daily_report_pdf
from casino.reports.selectors import default_casino


class Command(BaseCommand):
    help = "Write the daily report of a casino's gaming day as a PDF."

    def add_arguments(self, parser):
        parser.add_argument("--date", required=True, type=dt.date.fromisoformat, help="the gaming day, YYYY-MM-DD")
        parser.add_argument("--out", required=True, type=Path, help="the PDF file to write")
        parser.add_argument("--lang", default="en", choices=LANGUAGES, help="the report's language (default en)")
        parser.add_argument("--casino", help="the casino's name; needed only when the database holds several")

    def handle(self, *args, date, out, lang, casino, **options):
        if casino:
            found = Casino.objects.filter(name=casino).first()
            if found is None:
                raise CommandError(f"no casino named {casino!r}")
        else:
            found = default_casino()
            if found is None:
                names = ", ".join(Casino.objects.order_by("name").values_list("name", flat=True)) or "none"
                raise CommandError(f"choose a casino with --casino (casinos: {names})")
        pdf = daily_report_pdf(found, date, language=lang)
        out.write_bytes(pdf)
        self.stdout.write(f"wrote {out} ({len(pdf)} bytes): daily report of {found} for {date}, language {lang}")
