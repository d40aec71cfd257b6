import datetime as dt
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from casino.pit.models import Casino
from casino.reports.archive import stored_report
from casino.reports.pdf import LANGUAGES, daily_report_pdf
from casino.reports.selectors import default_casino


class Command(BaseCommand):
    help = ("Write the daily report of a casino's gaming day as a PDF: a closed day's as stored when it closed, "
            "an open day's printed now (provisional).")

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
        stored = stored_report(found, date, language=lang)
        pdf = bytes(stored.pdf) if stored else daily_report_pdf(found, date, language=lang)
        out.write_bytes(pdf)
        how = f"stored as the day closed, SHA-256 {stored.sha256}" if stored else "printed now"
        self.stdout.write(f"wrote {out} ({len(pdf)} bytes): daily report of {found} for {date}, language {lang}, {how}")
