"""An escalated case as a PDF for the financial intelligence office (GIF): its file rendered
into a standalone HTML page (its own print CSS, A4) in one language, laid out by WeasyPrint as
the count's case PDF is. The player's document number is read through
`casino.pit.privacy.read_document`, which logs the read."""
from __future__ import annotations

import datetime as dt

from django.contrib.auth.base_user import AbstractBaseUser as User
from django.template.loader import render_to_string
from django.utils import timezone, translation

from casino.pit.privacy import read_document, shown_name
from casino.printing import LANGUAGES, render_pdf, software_version

from .selectors import CaseFile

__all__ = ["LANGUAGES", "case_html", "case_pdf"]

PURPOSE = "suspicious-transaction case PDF"


def case_html(file: CaseFile, *, user: User, language: str, generated_at: dt.datetime | None = None) -> str:
    document_number = read_document(user, file.patron, PURPOSE)
    with translation.override(language):
        return render_to_string("aml/case_pdf.html", {
            "file": file, "case": file.case, "patron": file.patron, "name": shown_name(user, file.patron.name),
            "document_number": document_number,
            "language": language, "version": software_version(), "printed_by": user,
            "generated_at": timezone.localtime(generated_at or timezone.now())})


def case_pdf(file: CaseFile, *, user: User, language: str = "en") -> bytes:
    """The case in one of the site's languages (pt, zh-hant, en), printed for `user`."""
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
    return render_pdf(case_html(file, user=user, language=language))
