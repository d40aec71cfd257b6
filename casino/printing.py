"""Printing a page as a PDF (WeasyPrint, A4): what the daily report (casino/reports) and a
variance case's file (casino/count) share. Their pages include the printed page's CSS,
`templates/printing/_page.css`. Both apps import this module; neither imports the other for it.
"""
from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

import casino

LANGUAGES = ("pt", "zh-hant", "en")  # the languages a PDF is printed in


def render_pdf(html: str) -> bytes:
    from weasyprint import HTML  # loads Pango and fonts: only when a PDF is made

    return HTML(string=html).write_pdf()


@lru_cache(maxsize=1)
def software_version() -> str:
    """The software version a printed page names: `casino.__version__`, with the git commit when
    the code runs from a git checkout (e.g. "0.1.0 (f4e893b)")."""
    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=Path(casino.__file__).parent,
                                capture_output=True, text=True, timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{casino.__version__} ({commit})" if commit else casino.__version__
