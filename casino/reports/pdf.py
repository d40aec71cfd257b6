"""The daily report as a PDF: the summary rendered into a standalone HTML page (its own print
CSS, A4) in one language, then laid out by WeasyPrint."""
from __future__ import annotations

import datetime as dt

from django.template.loader import render_to_string
from django.utils import timezone, translation

from casino.count.selectors import TableShifts
from casino.count.templatetags.count_figures import signed
from casino.pit.days import day_bounds
from casino.pit.heads import Head
from casino.pit.models import Casino
from casino.printing import LANGUAGES, listing, render_pdf, software_version

from .charts import bar_chart, column_chart
from .selectors import GRADES, CountHead, DailySummary, Exceptions, Figures, TierLine, daily_summary


def _figures(figures: Figures) -> tuple[int, ...]:
    """A table's figures in the columns of the report's table of tables."""
    return (figures.games, figures.jogos, *figures.wins_by_grade, figures.draws, figures.false_wins,
            figures.pay_alls, figures.capped, figures.commission)


def _tier(line: TierLine) -> tuple[int, ...]:
    return line.rate, line.tables, line.wins, line.commission


def _shifts(row: TableShifts) -> list[int | str | None]:
    """Expected, counted (None before the count) and the signed variance of each of a table's
    shifts; blank where the shift had no box."""
    return [figure for line in row.shifts
            for figure in ((line.expected, line.counted, signed(line.variance)) if line else ("", "", ""))]


def _head(head: Head | CountHead) -> tuple[int]:
    """A chain's last entry (a table's, a box's or a case's); its hash is printed beside, in a
    cell of its own, as the ledger holds it."""
    return (head.seq,)


def report_html(summary: DailySummary, *, language: str, generated_at: dt.datetime | None = None) -> str:
    """The report's page. Its long tables print their figures as one line per row (`listing`)."""
    totals = summary.totals
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
            "tables": listing(summary.tables, lambda table: _figures(table.figures), total=_figures(totals)),
            "tiers": listing(summary.tiers, _tier, total=("", "", totals.wins, totals.commission), minimum=10),
            "boxes": listing(summary.reconciliation.by_table, _shifts),
            "heads": listing(summary.heads, _head),
            "count_heads": listing(summary.count_heads, _head),
        })


def daily_report_pdf(casino: Casino, day: dt.date, *, language: str = "en") -> bytes:
    """The daily report of a casino's gaming day, in one of the site's languages."""
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
    return render_pdf(report_html(daily_summary(casino, day), language=language))


def warm_up() -> None:
    """Do, as a web worker starts, what its first daily report would otherwise wait for, about a
    second (benchmarks/daily_report.py): load WeasyPrint with Pango, fontconfig and the printed
    page's fonts, compile the report's templates, read each language's catalogue. A report of a
    day without jogos, made in every language and printed once, does all of it. `casino/wsgi.py`
    calls it."""
    empty = DailySummary(Casino(name="Casino"), timezone.localdate(), [], Figures(), [],
                         Exceptions(0, 0, 0, 0, 0, 0, 0, 0), [], None)
    for language in LANGUAGES:
        html = report_html(empty, language=language)
    render_pdf(html)
