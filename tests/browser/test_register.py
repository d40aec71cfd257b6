"""The register of readings and "a jogo explained" under the other reading, in a real headless
Chromium (issue 10 §2): an inspector goes from a gaming day's audit to the register, sees how
many jogos each point decided, follows a link to a jogo and reads its outcome under the other
reading beside the recorded one.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/register-of-readings.png and
other-reading.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from tests.browser.screen import SHOTS, Screen
from tests.builders.audit import varied_day

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def cells(screen: Screen, css: str) -> list[str]:
    return [cell.text for cell in screen.driver.find_elements(By.CSS_SELECTOR, css)]


def test_an_inspector_follows_the_register_to_a_jogo_and_reads_it_under_the_other_reading(screen):
    people, t1, game, (chicken, draw, false_win, pay_all, misdeclared) = varied_day()
    screen.log_in("inspector")
    screen.open("/audit/?day=2026-11-21")
    screen.find(".chosen-days").find_element(By.LINK_TEXT, "Register of readings").click()

    screen.wait_for("h2.period", "Jogos decided on the gaming days 2026-11-21")
    assert screen.text("#I-1 .decided") == "2 jogos decided by this point."
    assert screen.text("#I-6 .decided") == "2 jogos decided by this point."
    assert screen.text("#I-4 .decided") == "0 jogos decided by this point."
    assert "«" in screen.text("#I-4 .words-pt") and "「" in screen.text("#I-4 .words-zh")
    adopted = {row.get_attribute("data-alternative"): row.find_element(By.CSS_SELECTOR, "td:last-child").text
               for row in screen.driver.find_elements(By.CSS_SELECTOR, "#I-4 .alternatives tbody tr")}
    assert adopted == {"portuguese": "portaria-135-91-M, version 1", "chinese": "portaria-135-91-M-zh, version 1"}
    # Each alternative by its description, not its code.
    assert "portuguese" not in screen.text("#I-4 .alternatives") and "chinese" not in screen.text("#I-4 .alternatives")
    screen.shot("register-of-readings")

    screen.find("#I-6 .decided-jogos").find_element(By.PARTIAL_LINK_TEXT, "jogo 4 at table T1").click()
    screen.wait_for("#decided-I-6 h3", "What is the share a loser pays at the tier X/2X?")
    assert screen.driver.current_url.endswith(f"/audit/jogos/{pay_all.pk}/")
    side = "#decided-I-6 table.side-by-side"
    assert [cell.get_attribute("data-alternative") for cell in screen.driver.find_elements(
        By.CSS_SELECTOR, f"{side} thead th[data-alternative]")] == ["doubling", "tier_bounds"]
    assert "doubling" not in screen.text(f"{side} thead") and "X × 2^grade" in screen.text(f"{side} thead")
    grade, payments, commission = (cells(screen, f"{side} tr.{row} td") for row in ("grade", "payments", "commission"))
    assert grade == ["2", "2"]
    assert commission == [str(pay_all.commission)] * 2
    assert payments[0] != payments[1] and "→" in payments[0] and "→" in payments[1]
    if SHOTS:
        section = screen.find("#readings").find_element(By.XPATH, "..")
        screen.driver.execute_script("arguments[0].scrollIntoView()", section)
        section.screenshot(str(Path(SHOTS) / "other-reading.png"))
