"""The daily report as a PDF: its figures read back from the PDF's text, in each language, with
the Chinese drawn in an embedded Noto CJK font; the command line writes it."""
import datetime as dt
import io
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from pypdf import PdfReader

from casino.pit.models import Casino
from casino.pit.services import close_day
from casino.reports.pdf import daily_report_pdf, report_html, table_columns
from casino.reports.selectors import DayFigures, daily_summary
from tests.builders.reports import DAY, at, known_day, pdf_text

pytestmark = pytest.mark.django_db


def embedded_fonts(pdf: bytes) -> set[str]:
    """The names of the fonts whose glyphs the PDF carries (a font file in the descriptor)."""
    names = set()
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for font in page["/Resources"]["/Font"].values():
            for part in font.get_object().get("/DescendantFonts", [font]):
                descriptor = part.get_object()["/FontDescriptor"].get_object()
                if any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")):
                    names.add(str(part.get_object()["/BaseFont"]))
    return names


def test_the_report_prints_each_tables_figures_and_the_casino_totals_as_worked_out_by_hand():
    day = known_day()  # the figures are worked out in tests/builders/reports.py

    text = pdf_text(daily_report_pdf(day.casino, DAY, language="en"))

    # Table, tier, games, jogos, wins at 0/1/2 fán, draws, false wins, pay-alls, capped, commission.
    assert "R1 25/50 conv. 1 7 1 2 2 1 1 1 0 50" in text
    assert "R2 100/200 conv. 1 2 1 0 0 1 0 0 1 40" in text  # the amended jogo counts as the draw it became
    assert "Casino total 2 9 2 2 2 2 1 1 1 90" in text
    assert "R3" not in text  # it played on the next gaming day only
    # Art. 8 by tier: variant, tier, commission per won jogo, tables, wins, commission.
    assert "conventional 25/50 10 1 5 50" in text
    assert "conventional 100/200 40 1 1 40" in text
    assert "Casino total 6 90" in text


def test_each_column_of_the_table_of_tables_pairs_its_header_with_its_figure_and_prints_in_that_order():
    """One definition of the columns (header and figure) that the header and every row read."""
    figures = DayFigures(games=1, jogos=2, wins_by_grade=(3, 4, 5), draws=6, false_wins=7, pay_alls=8, capped=9,
                      commission=10)
    with translation.override("en"):
        columns = table_columns()
    assert {column.header: column.figure(figures) for column in columns} == {
        "Games": 1, "Jogos": 2, "0 fán": 3, "1 fán": 4, "2 fán": 5, "Draws": 6, "False wins": 7, "Pay-alls": 8,
        "Capped wins": 9, "Commission": 10}
    day = known_day()

    html = report_html(daily_summary(day.casino, DAY), language="en")

    header = html.split('<table class="tables">')[1].split("</thead>")[0]
    assert re.findall(r'<th[^>]*class="n">([^<]+)</th>', header) == [
        "Games", "Jogos", "Draws", "False wins", "Pay-alls", "Capped wins", "Commission",  # two rows high
        "0 fán", "1 fán", "2 fán"]  # under "Wins by grade", in the header's second row
    assert '<th colspan="3">Wins by grade</th>' in header
    assert header.index("Jogos") < header.index("Wins by grade") < header.index("Draws")


def test_the_report_header_names_casino_day_rule_set_version_and_generation_time():
    day = known_day()

    text = pdf_text(daily_report_pdf(day.casino, DAY, language="en"))

    assert "Casino Casino Lisboa" in text
    assert "Gaming day 2026-11-21 (06:00 – 06:00 next day, Macau time)" in text
    assert "Portaria No. 135/91/M (Official Rules of the Game of Mah-Jong) [portaria-135-91-M, version 1]" in text
    assert re.search(r"Software version 0\.1\.0", text)
    assert re.search(r"Generated at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(Macau time\)", text)


def test_the_exceptions_summary_counts_each_kind_of_exception_of_the_day():
    day = known_day()

    text = pdf_text(daily_report_pdf(day.casino, DAY, language="en"))

    assert "Fán mismatches (declared grade differs from the computed grade) 1" in text
    assert "Amendments (0 pending) 1" in text
    assert "Pay-alls (Art. 10) 1" in text
    assert "False wins (Art. 10(a)(7)–(8), 10(b)(3)) 1" in text
    assert "Capped wins (Art. 9(a)(4), 9(b)(3)) 1" in text
    assert "Inspectors' flags 1" in text
    assert "Refused records 1" in text


def test_the_chinese_report_uses_the_regulations_terms_in_an_embedded_noto_cjk_font():
    day = known_day()

    pdf = daily_report_pdf(day.casino, DAY, language="zh-hant")
    text = pdf_text(pdf)

    assert any("Noto-Sans-CJK-TC" in name for name in embedded_fonts(pdf))  # e.g. QTDUJF+Noto-Sans-CJK-TC
    for term in ("每日報表", "限紅", "流局", "詐糊", "包輸", "以本錢為限", "抽水", "0番", "1番", "2番",
                 "公司抽水（按限紅，第八條）", "娛樂場合計", "簽署"):
        assert term in text, term
    assert "R1 25/50 傳統 1 7 1 2 2 1 1 1 0 50" in text
    assert "娛樂場合計 2 9 2 2 2 2 1 1 1 90" in text
    assert "\ufffd" not in text and "□" not in text  # no missing glyphs


def test_the_portuguese_report_uses_the_regulations_terms():
    day = known_day()

    text = pdf_text(daily_report_pdf(day.casino, DAY, language="pt"))

    for term in ("Relatório diário", "Modalidade de aposta", "Jogos nulos", "Suportar a perda", "Comissão",
                 "Total do casino 2 9 2 2 2 2 1 1 1 90"):
        assert term in text, term


def test_a_day_without_jogos_says_no_activity():
    casino = Casino.objects.create(name="Casino Vazio")

    text = pdf_text(daily_report_pdf(casino, dt.date(2026, 11, 20), language="en"))

    assert "No activity" in text
    assert "Casino total" not in text


def test_the_sign_off_shows_who_closed_the_day_and_why():
    day = known_day()
    close_day(casino=day.casino, day=DAY, user=day.people["manager"], note="Reviewed with the inspector",
              override_reason="Boxes counted tomorrow", at=at(24))  # its boxes are not counted

    text = pdf_text(daily_report_pdf(day.casino, DAY, language="en"))

    assert "State of the day closed" in text
    assert "closed manager Reviewed with the inspector" in text


def test_the_command_writes_the_report_to_a_file(tmp_path):
    known_day()
    out, path = StringIO(), tmp_path / "day.pdf"

    call_command("daily_report", "--date", "2026-11-21", "--out", str(path), "--lang", "zh-hant", stdout=out)

    assert path.read_bytes().startswith(b"%PDF")
    assert "娛樂場合計 2 9 2 2 2 2 1 1 1 90" in pdf_text(path.read_bytes())
    assert f"wrote {path}" in out.getvalue()


def test_the_command_asks_for_a_casino_when_there_are_several(tmp_path):
    Casino.objects.create(name="A")
    Casino.objects.create(name="B")

    with pytest.raises(CommandError, match="--casino"):
        call_command("daily_report", "--date", "2026-11-21", "--out", str(tmp_path / "x.pdf"))
    call_command("daily_report", "--date", "2026-11-21", "--out", str(tmp_path / "x.pdf"), "--casino", "B",
                 stdout=StringIO())
    assert "No activity" in pdf_text((tmp_path / "x.pdf").read_bytes())
