"""The daily reports stored as their days close: printed once, inside the close's transaction, in
every language the download offers, and read back byte for byte ever after. What the manager
signed is what the regulator downloads; its SHA-256 is shown beside the download to check it by.

A day reopened and closed again stores a report for each close: the download serves the latest
close's, and each earlier one stays downloadable by its number (1 for the day's first close, in
the order of the day's log of closes and reopenings). A day closed before reports were stored
has none: its download is printed on demand and says so (`pdf.REPRINT`)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Subquery
from django.utils import timezone

from casino.pit.models import Casino, DayEvent
from casino.printing import LANGUAGES, render_pdf

from .models import StoredReport
from .pdf import report_html
from .selectors import daily_summary


def store(*, event: DayEvent) -> list[StoredReport]:
    """Print the report of the day `event` closes, in each language, and store it with its
    SHA-256. Called as the day closes (`receivers.py`), inside the close's transaction: the
    report reads the day as it closes, its close in the sign-off log included."""
    state = event.gaming_day
    summary = daily_summary(state.casino, state.day)
    created_at = timezone.now()
    stored = []
    for language in LANGUAGES:
        pdf = render_pdf(report_html(summary, language=language, generated_at=created_at))
        stored.append(StoredReport.objects.create(event=event, language=language, pdf=pdf,
                                                  sha256=StoredReport.digest(pdf), created_at=created_at))
    return stored


@dataclass(frozen=True)
class Close:
    """A close of a gaming day and its stored report in one language (None for a close made
    before reports were stored). `report` holds no PDF: `stored_report` reads it."""

    number: int  # 1 for the day's first close
    event: DayEvent
    report: StoredReport | None


def closes(casino: Casino, day: dt.date, *, language: str) -> list[Close]:
    """Each close of the day, the first first, with its report in `language` (two queries)."""
    events = list(DayEvent.objects.filter(gaming_day__casino=casino, gaming_day__day=day, action=DayEvent.CLOSED)
                  .select_related("by").order_by("at", "pk"))
    reports = {report.event_id: report
               for report in StoredReport.objects.filter(event__in=events, language=language).defer("pdf")}
    return [Close(number, event, reports.get(event.pk)) for number, event in enumerate(events, start=1)]


def stored_report(casino: Casino, day: dt.date, *, language: str, number: int | None = None) -> StoredReport | None:
    """The report stored by the day's close `number`, in `language`; without a number, the
    report of the day's latest close, while the day stays closed. None when there is no such
    close, or when it stored no report (it was made before reports were stored). One query."""
    days_closes = DayEvent.objects.filter(gaming_day__casino=casino, gaming_day__day=day, action=DayEvent.CLOSED)
    if number is None:
        close = days_closes.filter(gaming_day__closed=True).order_by("-at", "-pk")[:1]
    elif number >= 1:
        close = days_closes.order_by("at", "pk")[number - 1:number]
    else:
        return None
    return StoredReport.objects.filter(event=Subquery(close.values("pk")), language=language).first()
