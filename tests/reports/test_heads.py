"""The daily report's sign-off block prints each table's ledger head at the end of the gaming
day, so that the signed paper anchors the hash chains outside the database."""
import pytest

from casino.pit.models import Jogo, Movement
from casino.reports.pdf import daily_report_pdf, report_html
from casino.reports.selectors import daily_summary
from tests.builders.reports import DAY, at, draws, known_day, pdf_text

pytestmark = pytest.mark.django_db


def last_row_of(table, before):
    rows = [*Jogo.objects.filter(table=table, recorded_at__lt=before), *Movement.objects.filter(
        table=table, recorded_at__lt=before)]
    return max(rows, key=lambda row: row.seq)


def test_the_sign_off_prints_each_tables_last_entry_of_the_day_and_its_hash():
    day = known_day()
    end_of_day = at(18)  # 06:00 of the 22nd, Macau time
    expected = {table.number: last_row_of(table, end_of_day) for table in (day.r1, day.r2)}
    draws(day.r1, 2, day.people["dealer"], at(20))  # the next day's jogos do not move the day's heads

    summary = daily_summary(day.casino, DAY)
    assert [(h.table.number, h.seq, h.hash) for h in summary.heads] == [
        (number, row.seq, row.hash) for number, row in sorted(expected.items())]
    html = report_html(summary, language="en")
    for number, row in expected.items():  # the ledger entry a figure, the hash as the ledger holds it
        assert (f'<td>{number}</td><td class="n">{row.seq}</td>'
                f'<td class="cases"><code>{row.hash[:16]}</code></td>') in html

    text = pdf_text(daily_report_pdf(day.casino, DAY, language="zh-hant"))
    assert all(row.hash[:16] in text for row in expected.values())
