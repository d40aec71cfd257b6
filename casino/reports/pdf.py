"""The daily report as a PDF: the summary rendered into a standalone HTML page (its own print
CSS, A4) in one language, then laid out by WeasyPrint.

A closed day's report is printed once, as the day closes, and stored (`archive.py`); what this
module prints on demand says so on every page (`PROVISIONAL`, `REPRINT`)."""
from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from operator import attrgetter

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from casino.charts import bar_chart, column_chart
from casino.count.selectors import BoxLine, TableShifts
from casino.count.templatetags.count_figures import signed
from casino.pit.days import day_bounds
from casino.pit.models import Casino
from casino.printing import LANGUAGES, Column, Figure, figure_table, render_pdf, software_version

from .selectors import GRADES, MTL_EVERY_PLAYER, MTL_SHARE, DailySummary, daily_summary

# What a report printed on demand, rather than stored as its day closed, says on every page.
PROVISIONAL = "provisional"  # the day is open: its figures may still change
REPRINT = "reprint"  # the day is closed: printed now from the ledger, not the report its close stored


def table_columns() -> list[Column]:
    """Art. 6 and 8: a table's day in the report's table of tables, one column per figure, read
    from its `DayFigures` (the casino total's too). Headers in the active language."""
    return [Column(gettext("Games"), attrgetter("games")),
            Column(gettext("Jogos"), attrgetter("jogos")),
            *(Column(ngettext("%(fan)s fán", "%(fan)s fán", grade) % {"fan": grade},
                     lambda figures, grade=grade: figures.wins_by_grade[grade], group=gettext("Wins by grade"))
              for grade in GRADES),
            Column(gettext("Draws"), attrgetter("draws")),
            Column(gettext("False wins"), attrgetter("false_wins")),
            Column(gettext("Pay-alls"), attrgetter("pay_alls")),
            Column(gettext("Capped wins"), attrgetter("capped")),
            Column(gettext("Commission"), attrgetter("commission"))]


def tier_columns() -> list[Column]:
    """Art. 8: a stake tier's commission, from its `TierLine`; the casino total adds up the wins
    and the commission only."""
    return [Column(gettext("Commission per won jogo"), attrgetter("rate"), summed=False),
            Column(gettext("Tables"), attrgetter("tables"), summed=False),
            Column(gettext("Wins"), attrgetter("wins")),
            Column(gettext("Commission"), attrgetter("commission"))]


def box_columns(shift_numbers: list[int]) -> list[Column]:
    """Each shift's commission box of a table, side by side (`TableShifts`): expected, counted
    (None before the count) and the signed variance; blank where the shift had no box."""
    figures = ((gettext("Expected"), attrgetter("expected")), (gettext("Counted"), attrgetter("counted")),
               (gettext("Variance"), lambda line: signed(line.variance)))

    def of_shift(index: int, figure: Callable[[BoxLine], Figure]) -> Callable[[TableShifts], Figure]:
        return lambda row: "" if row.shifts[index] is None else figure(row.shifts[index])

    return [Column(header, of_shift(index, figure), group=gettext("Shift %(shift)s") % {"shift": shift})
            for index, shift in enumerate(shift_numbers) for header, figure in figures]


def head_columns() -> list[Column]:
    """A chain's last entry (a table's, a box's or a case's); its hash is printed beside, as the
    ledger holds it, in a cell of its own."""
    return [Column(gettext("Ledger entry"), attrgetter("seq"))]


def report_html(summary: DailySummary, *, language: str, generated_at: dt.datetime | None = None,
                mark: str = "") -> str:
    """The report's page. `mark` (`PROVISIONAL` or `REPRINT`) is printed at the top of every page
    of a report not stored as its day closed."""
    totals = summary.totals
    with translation.override(language):
        return render_to_string("reports/daily_report.html", {
            "summary": summary,
            "version": software_version(),
            "generated_at": timezone.localtime(generated_at or timezone.now()),
            "language": language,
            "mark": mark,
            "day_start": timezone.localtime(day_bounds(summary.day)[0]),
            "hour_chart": column_chart([(f"{hour:02d}", amount) for hour, amount in summary.commission_by_hour]),
            "table_chart": bar_chart([(table.number, table.figures.commission) for table in summary.tables]),
            "tables": figure_table(summary.tables, table_columns(), figures_of=attrgetter("figures"), total=totals),
            "tiers": figure_table(summary.tiers, tier_columns(), total=totals),
            "boxes": figure_table(summary.reconciliation.by_table, box_columns(summary.reconciliation.shift_numbers)),
            "heads": figure_table(summary.heads, head_columns()),
            "count_heads": figure_table(summary.count_heads, head_columns()),
            "mtl_share": MTL_SHARE, "mtl_every_player": MTL_EVERY_PLAYER,
        })


def daily_report_pdf(casino: Casino, day: dt.date, *, language: str = "en") -> bytes:
    """The daily report of a casino's gaming day printed now from the ledger, in one of the
    site's languages: marked `PROVISIONAL` while the day is open, `REPRINT` once it is closed.
    The report a closed day's download serves is the one stored as it closed (`archive.py`)."""
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
    summary = daily_summary(casino, day)
    return render_pdf(report_html(summary, language=language, mark=REPRINT if summary.closed else PROVISIONAL))
