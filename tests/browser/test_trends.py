"""Each table against expectation, in headless Chromium: the inspector's dashboard lists the table
whose day falls outside its expected band, and its trend page draws the chart with the band.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/table-trend.png.
"""
from __future__ import annotations

import datetime as dt

import pytest
from selenium.webdriver.common.by import By

from tests.browser.screen import Screen, as_user, shot, submit
from tests.builders.pit import staff
from tests.builders.trends import history, play

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]

# Three weeks at 25/50 (10 per won jogo), then a day of one win in six jogos.
WEEKS = ["WWWD", "WWWDD", "WWWW", "WWDD", "WWWD", "WWWWD", "WWD"] * 3


@pytest.fixture
def floor():
    people, t1, t2 = staff()
    day = history(t1, people["dealer"], first=dt.date(2026, 11, 1), days=WEEKS)
    play(t1, people["dealer"], day, "WDDDDD")
    history(t2, people["other_dealer"], first=dt.date(2026, 11, 1), days=WEEKS + ["WWWD"])  # an ordinary day
    return people, t1, day


def test_the_dashboard_lists_the_table_below_its_band_and_its_trend_page_draws_the_band(screen: Screen, floor):
    people, t1, day = floor
    as_user(screen, "inspector")
    screen.open(f"/audit/?day={day}")
    screen.wait_for(".outside-band h2", f"Tables outside their expected band on {day}")
    rows = screen.driver.find_elements(By.CSS_SELECTOR, ".outside-band tbody tr")
    assert [row.text.split()[0] for row in rows] == ["T1"]  # T2's ordinary day is not listed
    assert "below" in rows[0].text

    submit(screen, ".outside-band tbody tr a")
    screen.wait_for("h1", f"Table T1 against expectation, gaming day {day}")
    assert screen.text(".place") == "Below the expected band"
    assert screen.driver.find_elements(By.CSS_SELECTOR, "figure.trend-chart svg rect.band")
    assert len(screen.driver.find_elements(By.CSS_SELECTOR, "table.days-of-play tbody tr")) == 22
    assert "Month to date" in screen.text("table.periods")
    shot(screen, "table-trend")
