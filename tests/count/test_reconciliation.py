"""The daily report's reconciliation of each table-shift's commission box (casino/count/
selectors.py): expected, counted, variance and case, worked by hand, and read in a fixed number
of queries whether the day has one table-shift or 40 tables × 3 shifts."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.count import cases, services
from casino.count.models import Case
from casino.count.selectors import reconciliation
from casino.pit.models import Jogo
from casino.reports.pdf import report_html
from casino.reports.selectors import daily_summary
from tests.builders.cases import correct_to_a_draw
from tests.builders.count import DAY, NEXT_MORNING, PASSWORD, cast, play_shifts
from tests.builders.pit import table

pytestmark = pytest.mark.django_db

def count_all(people, tables, *, counted=lambda table, shift, expected: expected):
    for each in tables:
        for shift in range(1, 4):
            box = services.box_for(table=each, gaming_day=DAY, shift=shift)
            amount = counted(each, shift, services.expected_commission(box))
            for counter in (people["counter1"], people["counter2"]):
                services.sign_count(box=box, user=counter, password=PASSWORD, counted=amount, at=NEXT_MORNING)


def test_each_table_shift_shows_expected_counted_variance_and_its_case_never_netted():
    people, t1, t2 = cast()
    play_shifts(t1, people["dealer"])
    play_shifts(t2, people["other_dealer"], hours=(8,))
    # T1: shift 1 exact (10), shift 2 over by 5, shift 3 short by 5; T2 shift 1 not counted.
    count_all(people, [t1], counted=lambda table, shift, expected: expected + {1: 0, 2: 5, 3: -5}[shift])
    lines = reconciliation(t1.casino, DAY).lines
    assert [(line.table, line.shift, line.jogos, line.expected, line.counted, line.variance) for line in lines] == [
        ("T1", 1, 1, 10, 10, 0), ("T1", 2, 1, 10, 15, 5), ("T1", 3, 1, 10, 5, -5), ("T2", 1, 1, 10, None, None)]
    assert [line.open_case.state if line.open_case else None for line in lines] == [None, "open", "open", None]
    day = reconciliation(t1.casino, DAY)
    assert (day.expected, day.counted, day.over, day.short, day.open_cases, day.uncounted) == (40, 30, 5, -5, 2, 1)
    # On paper a row per table, its shifts side by side.
    assert [(row.table, [line.shift if line else None for line in row.shifts], len(row.open_cases))
            for row in day.by_table] == [("T1", [1, 2, 3], 2), ("T2", [1, None, None], 0)]


def test_a_resolved_case_is_shown_but_not_as_open_and_a_correction_moves_the_counted_box():
    people, t1, _ = cast()
    jogos = play_shifts(t1, people["dealer"])
    count_all(people, [t1], counted=lambda table, shift, expected: expected - 5 if shift == 2 else expected)
    case = Case.objects.get(box__shift=2)
    cases.resolve(case=case, user=people["manager"], note="found in the drop")
    correct_to_a_draw(jogos[0], people["supervisor"], people["manager"])  # shift 1's jogo: 0 expected now
    lines = reconciliation(t1.casino, DAY).lines
    assert (lines[1].case.state, lines[1].open_case) == ("resolved", None)
    assert (lines[0].expected, lines[0].counted, lines[0].variance) == (0, 10, 10)
    assert lines[0].open_case is not None  # 10 counted in a box expected empty: its case opened


def test_the_daily_report_shows_the_reconciliation_on_screen_and_in_its_pdf_page(client):
    people, t1, _ = cast()
    play_shifts(t1, people["dealer"])
    count_all(people, [t1], counted=lambda table, shift, expected: expected - 5 if shift == 3 else expected)
    html = report_html(daily_summary(t1.casino, DAY), language="en")
    assert "Commission boxes: expected and counted" in html and "\u22125" in html and "1 open case" in html
    assert "Shift 3" in html and "3: open" in html
    client.force_login(people["manager"])
    page = client.get(f"/reports/?casino={t1.casino.pk}&day={DAY}").content.decode()
    case = Case.objects.get()
    assert f'href="/count/cases/{case.pk}/"' in page and "+5 over" not in page and "0 over, \u22125 short" in page


def queries(casino) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as alone:
        reconciliation(casino, DAY)
    with CaptureQueriesContext(connection) as report:
        report_html(daily_summary(casino, DAY), language="en")
    return len(alone), len(report)


def test_a_day_of_40_tables_by_3_shifts_takes_as_many_queries_as_a_day_of_one_table_shift():
    people, t1, _ = cast()
    play_shifts(t1, people["dealer"], hours=(7,))
    box = services.box_for(table=t1, gaming_day=DAY, shift=1)
    for counter in (people["counter1"], people["counter2"]):
        services.sign_count(box=box, user=counter, password=PASSWORD, counted=5, at=NEXT_MORNING)
    small = queries(t1.casino)

    tables = [table(f"Q{n:02d}") for n in range(40)]
    for each in tables:
        play_shifts(each, people["dealer"])
    # Counted boxes, variances either way, cases in every state, recounts and a later correction.
    count_all(people, tables, counted=lambda table, shift, expected: expected + (shift - 2) * 5)
    for case in Case.objects.filter(box__shift=1)[:10]:
        cases.escalate(case=case, user=people["inspector"], note="large")
    recounted = services.box_for(table=tables[0], gaming_day=DAY, shift=2)
    services.approve_recount(box=recounted, user=people["manager"], reason="seal broken", at=NEXT_MORNING)
    correct_to_a_draw(Jogo.objects.get(table=tables[1], number=2, revision=0), people["supervisor"], people["manager"])
    large_casino = tables[0].casino
    assert len(reconciliation(large_casino, DAY).lines) == 121
    assert queries(large_casino) == small
    assert small[0] <= 6
