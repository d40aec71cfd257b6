"""The daily report as a PDF: the summary rendered into a standalone HTML page (its own print
CSS, A4) in one language, then laid out by WeasyPrint."""
from __future__ import annotations

import datetime as dt

from django.template.loader import render_to_string
from django.utils import timezone, translation

from casino.pit.days import day_bounds
from casino.pit.models import Casino
from casino.printing import LANGUAGES, render_pdf, software_version

from .charts import bar_chart, column_chart
from .selectors import GRADES, DailySummary, daily_summary


def report_html(summary: DailySummary, *, language: str, generated_at: dt.datetime | None = None) -> str:
    with translation.override(language):
        return render_to_string("reports/daily_report.html", {
            "summary": summary,
            "version": software_version(),
            "generated_at": timezone.localtime(generated_at or timezone.now()),
            "language": language,
            "grades": list(GRADES),
            "day_start": timezone.localtime(day_bounds(summary.day)[0]),
            "hour_chart": column_chart([(f"{hour:02d}", amount) for hour, amount in summary.commission_by_hour]),
            "table_chart": bar_chart([(table.number, table.figures.commission) for table in summary.tables]),
        })


def daily_report_pdf(casino: Casino, day: dt.date, *, language: str = "en") -> bytes:
    """The daily report of a casino's gaming day, in one of the site's languages."""
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
    return render_pdf(report_html(daily_summary(casino, day), language=language))
