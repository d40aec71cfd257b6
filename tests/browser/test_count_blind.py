"""The blind count end to end in a real headless Chromium: two counters count one box, neither
seeing what it should hold until both have signed; then both see counted, expected and variance.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/blind-count.png (the second counter's
form) and blind-count-counted.png (the box once both have signed).
"""
from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from casino.count.models import Case, Count, Signature
from tests.browser.screen import SHOTS
from tests.builders.count import box_played_yesterday, cast

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("flush_ledger_afterwards")]


@pytest.fixture
def ready(settings):
    """T1 played yesterday at this hour (commission 20): its box is ready to count."""
    settings.COUNT_VARIANCE_ABSOLUTE, settings.COUNT_VARIANCE_PERCENT = 100, 2
    people, t1, t2 = cast()
    return people, box_played_yesterday(t1, people["dealer"])


def shot(screen, name: str):
    """The whole page (Screen.shot leaves out what the browser's own bars hide at the bottom)."""
    if SHOTS:
        height = screen.driver.execute_script("return document.documentElement.scrollHeight")
        screen.driver.set_window_size(1280, min(height + 200, 3000))
        screen.driver.execute_script("window.scrollTo(0, 0)")
        screen.driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))
        screen.driver.set_window_size(1280, 1000)


def count(screen, box, counted: str, chips=(), name: str | None = None):
    screen.open("/")
    screen.wait_for("h1", "Boxes to count")
    screen.click(f'tr[data-box="{box.pk}"] a')
    screen.wait_for("#state-title", "Where the count stands")
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".expected")  # blind: nothing to see
    screen.type("counted", counted)
    for row, (value, quantity) in enumerate(chips):
        screen.type(f"chip_{row}", value)
        screen.type(f"quantity_{row}", quantity)
    screen.type("password", "correct horse battery")
    if name:
        shot(screen, name)
    screen.click('button[name="sign"]')


def test_two_counters_count_a_box_blind_then_see_its_variance(screen, ready):
    people, box = ready
    screen.log_in("counter1")
    count(screen, box, "15", chips=[("5", "3")])
    screen.wait_for(".waiting", "You have signed this count")
    assert screen.text(".box-state .state") == "being counted"
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".expected")

    screen.driver.delete_all_cookies()
    screen.log_in("counter2")
    count(screen, box, "15", chips=[("5", "1"), ("1", "10")], name="blind-count")
    screen.wait_for(".figures .variance", "-5")
    assert screen.text(".figures .counted") == "15" and screen.text(".figures .expected") == "20"
    assert screen.text(".box-state .state") == "counted" and "15 · 15" in screen.text(".totals")
    assert screen.text(".box-state .case") == "The variance is beyond the thresholds: its case is open."
    assert Signature.objects.count() == 2 and Case.objects.get().state == "open"
    shot(screen, "blind-count-counted")


def test_two_totals_that_differ_are_kept_and_the_box_is_counted_again_blind_with_a_reason(screen, ready):
    people, box = ready
    screen.log_in("counter1")
    count(screen, box, "15")
    screen.wait_for(".waiting", "You have signed this count")

    screen.driver.delete_all_cookies()
    screen.log_in("counter2")
    count(screen, box, "25")
    screen.wait_for(".box-state .state", "the two totals differ: count it again")
    assert "15 · 25" in screen.text(".totals")
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".expected")  # still blind: nobody agreed
    assert not Case.objects.exists()

    screen.type("reason", "The two totals differ by ten: the box is counted again.")
    screen.click('button[name="recount"]')
    screen.wait_for('.box-state .state[data-state="counting"]', "count 2")
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".expected")
    count(screen, box, "20")
    screen.wait_for(".waiting", "You have signed this count")

    screen.driver.delete_all_cookies()
    screen.log_in("counter1")
    count(screen, box, "20")
    screen.wait_for('.box-state .state[data-state="counted"]', "count 2")
    assert screen.text(".figures .variance") == "0" and screen.text(".figures .expected") == "20"
    assert Count.objects.filter(box=box).count() == 2  # the first count and its signatures are kept
    assert Signature.objects.filter(count__box=box).count() == 4 and not Case.objects.exists()
