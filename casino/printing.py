"""Printing a page as a PDF (WeasyPrint, A4): what the daily report (casino/reports) and a
variance case's file (casino/count) share. Their pages include the printed page's CSS,
`templates/printing/_page.css`. Both apps import this module; neither imports the other for it.
"""
from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from pathlib import Path
from typing import Any, Generic, TypeVar

import casino

LANGUAGES = ("pt", "zh-hant", "en")  # the languages a PDF is printed in
NOT_COUNTED = "\u2014"  # a figure not there yet, e.g. a box not counted

Figure = int | str | None  # None: not there yet (printed NOT_COUNTED); "": the figure's place left blank
Row = TypeVar("Row")


def render_pdf(html: str) -> bytes:
    """The page as a PDF."""
    from weasyprint import HTML  # loads Pango and fonts: only when a PDF is made

    return HTML(string=html).write_pdf()


@dataclass(frozen=True)
class Column:
    """A column of figures in a printed table: the header printed over it and the figure it takes
    from each row. A table's header and its rows both read its columns, so their order is written
    once. `group` is a header over this column and its neighbours of the same group ("Wins by
    grade" over 0, 1 and 2 fán); `summed` is false for a figure the total row leaves blank (a
    tier's rate)."""

    header: str
    figure: Callable[[Any], Figure]
    group: str = ""
    summed: bool = True


@dataclass(frozen=True)
class FigureTable(Generic[Row]):
    """A printed table's columns of figures, each row with its figures, and the figures of their
    total (empty when the table has no total row)."""

    columns: tuple[Column, ...]
    rows: list[tuple[Row, list[Figure]]]
    total: list[Figure]

    @property
    def groups(self) -> list[tuple[str, list[Column]]]:
        """The columns, neighbours of one group together: ("", [a column]) for a column in none."""
        return [(group, list(columns)) for group, columns in groupby(self.columns, key=lambda column: column.group)]

    @property
    def grouped(self) -> bool:
        """Whether the header takes two rows: the groups' headers above their columns'."""
        return any(column.group for column in self.columns)


def _printed(figure: Figure) -> Figure:
    return NOT_COUNTED if figure is None else figure


def figure_table(rows: Sequence[Row], columns: Sequence[Column], *, figures_of: Callable[[Row], Any] = lambda row: row,
                 total: Any = None) -> FigureTable[Row]:
    """Each row with its figures in `columns`, read from `figures_of(row)`; and, when `total` is
    given, the total row's figures read from it by the same columns."""
    return FigureTable(
        tuple(columns),
        [(row, [_printed(column.figure(figures_of(row))) for column in columns]) for row in rows],
        [_printed(column.figure(total)) if column.summed else "" for column in columns] if total is not None else [])


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
