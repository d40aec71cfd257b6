"""What the printed pages share (casino/printing.py): figures set as one line per row in columns
of a monospaced font, and the PDF made with the garbage collector paused."""
import gc
import io

import pytest
from django.template.loader import render_to_string
from pypdf import PdfReader

from casino.printing import FIGURE_CHARACTERS, FigureColumns, _collector_paused, listing, render_pdf


def test_each_figure_is_right_aligned_in_a_column_as_wide_as_the_widest_figure_after_two_spaces():
    rows = [(5, 150, None), (12, 9, "+600"), (1, 30000, "\u22127")]
    printed = listing(rows, lambda row: row, total=(18, 30159, ""), minimum=3)

    assert printed.columns.widths == (3, 5, 4)  # "30159" is five wide, "+600" four; none under three
    assert printed.columns.columns == (5, 7, 6)  # the <col>s, in characters, gap included
    assert [line for _, line in printed.rows] == [
        "    5    150     \u2014",  # a figure not there yet (None) prints as a dash
        "   12      9  +600",
        "    1  30000    \u22127",
    ]
    assert printed.total == "   18  30159      "  # a blank figure keeps its column


def test_a_character_the_font_might_not_set_as_wide_as_a_digit_is_refused():
    columns = FigureColumns((4,))
    with pytest.raises(ValueError, match="do not fit"):
        columns.line(["東"])
    with pytest.raises(ValueError, match="do not fit"):
        columns.line([1, 2])  # two figures for one column


def test_the_printed_figures_font_sets_every_figure_character_equally_wide():
    """The printed page's figures font (`_page.css`) draws every character a figure may use, each as wide as a digit:
    otherwise a column's figures would not end where its header does."""
    figures = "".join(sorted(FIGURE_CHARACTERS))
    page = f'<td class="figures">{figures}</td>'
    pdf = render_pdf(f'<style>{render_to_string("printing/_page.css")}</style><table><tr>{page}</tr></table>')

    fonts = {str(font["/BaseFont"]).split("+")[-1]: font for font in (
        font.get_object() for font in PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]["/Font"].values())}
    runs = fonts["DejaVu-Sans-Mono"]["/DescendantFonts"][0].get_object()["/W"][1::2]  # first glyph, [widths], ...
    widths = [width for run in runs for width in run]
    assert len(widths) == len(FIGURE_CHARACTERS)  # each character drawn in this font: none fell back to another
    assert set(widths) == {602}  # thousandths of the font size, the width of a digit


def test_the_garbage_collector_comes_back_when_the_last_of_several_pdfs_being_made_is_done():
    """Two threads making PDFs at once: the first to finish does not turn the collector back on
    under the other, nor leave it off for good."""
    with _collector_paused:
        with _collector_paused:
            assert not gc.isenabled()
        assert not gc.isenabled()  # the other one is still at work
    assert gc.isenabled()


def test_the_garbage_collector_is_paused_only_while_the_pdf_is_made():
    assert gc.isenabled()
    render_pdf("<p>1</p>")
    assert gc.isenabled()
    gc.disable()
    try:
        render_pdf("<p>1</p>")
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()

