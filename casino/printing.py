"""Printing a page as a PDF (WeasyPrint, A4): what the daily report (casino/reports) and a
variance case's file (casino/count) share. Their pages include the printed page's CSS,
`templates/printing/_page.css`. Both apps import this module; neither imports the other for it.
"""
from __future__ import annotations

import gc
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Generic, TypeVar

import casino

LANGUAGES = ("pt", "zh-hant", "en")  # the languages a PDF is printed in


class _CollectorPause:
    """Pauses Python's cyclic garbage collector while any thread of the process makes a PDF; the
    last one to finish restores it as it was."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inside = 0
        self._restore = False

    def __enter__(self) -> None:
        with self._lock:
            if not self._inside:
                self._restore = gc.isenabled()
                gc.disable()
            self._inside += 1

    def __exit__(self, *exception: object) -> None:
        with self._lock:
            self._inside -= 1
            if not self._inside and self._restore:
                gc.enable()


_collector_paused = _CollectorPause()


def render_pdf(html: str) -> bytes:
    """The page as a PDF. The garbage collector is paused while WeasyPrint works: its passes over
    the boxes WeasyPrint builds, all still in use, took a sixth of the daily report's time
    (benchmarks/daily_report.py); it runs again as soon as the PDF is made."""
    from weasyprint import HTML  # loads Pango and fonts: only when a PDF is made

    with _collector_paused:
        return HTML(string=html).write_pdf()


# Figures: a printed table's numbers, set as one line of text per row in a monospaced font
# (`_page.css`, `td.figures`) under header cells as wide as their columns (`ch`, the width of one
# of the font's characters). WeasyPrint's time goes mostly to table cells, about 0.7 ms each here:
# a line of ten figures takes a fifth of the time of ten cells. DejaVu Sans Mono sets every one of
# these characters equally wide (tests/test_printing.py reads the font to check it).
FIGURE_CHARACTERS = frozenset("0123456789+-\u2212\u2014,. ")
FIGURE_GAP = 2  # the spaces before each figure
NOT_COUNTED = "\u2014"  # a figure not there yet, e.g. a box not counted

Figure = int | str | None  # "" leaves the figure's place blank
Row = TypeVar("Row")


def figure_text(figure: Figure) -> str:
    return NOT_COUNTED if figure is None else str(figure)


@dataclass(frozen=True)
class FigureColumns:
    """The widths of a printed table's columns of figures, in characters: each its widest figure
    (at least `minimum`), after a gap of `FIGURE_GAP` spaces."""

    widths: tuple[int, ...]

    @classmethod
    def fitting(cls, rows: Sequence[Sequence[Figure]], *, minimum: int) -> FigureColumns:
        widths = [minimum] * len(rows[0]) if rows else []
        for row in rows:
            for index, figure in enumerate(row):
                widths[index] = max(widths[index], len(figure_text(figure)))
        return cls(tuple(widths))

    @property
    def columns(self) -> tuple[int, ...]:
        """Each column's width with its gap: the `ch` of its <col>."""
        return tuple(FIGURE_GAP + width for width in self.widths)

    def line(self, figures: Sequence[Figure]) -> str:
        """The figures, each right-aligned in its column: the text of the row's one figures cell."""
        texts = [figure_text(figure) for figure in figures]
        if len(texts) != len(self.widths) or not FIGURE_CHARACTERS.issuperset("".join(texts)):
            raise ValueError(f"figures {texts!r} do not fit columns of {self.widths} characters")
        return "".join(text.rjust(FIGURE_GAP + width) for text, width in zip(texts, self.widths, strict=True))


@dataclass(frozen=True)
class Listing(Generic[Row]):
    """A printed table's rows, each with the line of its figures, and the line of their total."""

    columns: FigureColumns
    rows: list[tuple[Row, str]]
    total: str = ""


def listing(rows: Sequence[Row], figures: Callable[[Row], Sequence[Figure]], *, total: Sequence[Figure] = (),
            minimum: int = 6) -> Listing[Row]:
    """The rows with the lines of their `figures`, in columns wide enough for every figure and the
    total's."""
    lines = [figures(row) for row in rows]
    columns = FigureColumns.fitting([*lines, *([total] if total else [])], minimum=minimum)
    return Listing(columns, [(row, columns.line(line)) for row, line in zip(rows, lines, strict=True)],
                   columns.line(total) if total else "")


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
