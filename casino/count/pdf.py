"""A variance case as a PDF for the regulator: its page's facts rendered into a standalone HTML
page (its own print CSS, A4) in one language, laid out by WeasyPrint as the daily report is."""
from __future__ import annotations

import datetime as dt

from django.template.loader import render_to_string
from django.utils import timezone, translation

from casino.printing import LANGUAGES, render_pdf, software_version

from .selectors import CaseFile

__all__ = ["LANGUAGES", "case_html", "case_pdf"]


def case_html(file: CaseFile, *, language: str, generated_at: dt.datetime | None = None) -> str:
    with translation.override(language):
        return render_to_string("count/case_pdf.html", {
            "file": file, "case": file.case, "box": file.box, "language": language, "version": software_version(),
            "generated_at": timezone.localtime(generated_at or timezone.now())})


def case_pdf(file: CaseFile, *, language: str = "en") -> bytes:
    """The case in one of the site's languages (pt, zh-hant, en)."""
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
    return render_pdf(case_html(file, language=language))
