"""What the printed pages share (casino/printing.py): a printed table's columns of figures, each
a header and the figure it reads, so that the header and the rows cannot disagree on their order."""
from dataclasses import dataclass
from operator import attrgetter

from casino.printing import NOT_COUNTED, Column, figure_table


@dataclass(frozen=True)
class Box:
    expected: int
    counted: int | None
    rate: int = 0


COLUMNS = [Column("Rate", attrgetter("rate"), summed=False),
           Column("Expected", attrgetter("expected"), group="Shift 1"),
           Column("Counted", attrgetter("counted"), group="Shift 1")]


def test_each_row_and_the_total_read_their_figures_through_the_columns_in_their_order():
    printed = figure_table([("T1", Box(150, 150, 10)), ("T2", Box(40, None, 10))], COLUMNS,
                           figures_of=lambda row: row[1], total=Box(190, 150))

    assert [(row[0], figures) for row, figures in printed.rows] == [("T1", [10, 150, 150]),
                                                                    ("T2", [10, 40, NOT_COUNTED])]
    assert printed.total == ["", 190, 150]  # a rate is not summed: its total is left blank


def test_the_header_groups_neighbouring_columns_under_one_heading():
    printed = figure_table([], COLUMNS)

    assert [(group, [column.header for column in columns]) for group, columns in printed.groups] == [
        ("", ["Rate"]), ("Shift 1", ["Expected", "Counted"])]
    assert printed.grouped and printed.rows == [] and printed.total == []
    assert not figure_table([], COLUMNS[:1]).grouped
