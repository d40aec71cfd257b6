"""An idle browser on a pit terminal, in a real headless Chromium: static/idle.js sends it to the
login page, which says the session ended for inactivity (tests/web/test_sessions.py has the rest)."""
from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.builders.pit import staff

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def test_an_idle_browser_is_sent_to_the_login_page_which_says_why(screen, settings):
    staff()
    settings.SESSION_IDLE_SECONDS = 5  # short, yet longer than logging in takes on a loaded machine
    screen.log_in("dealer")  # lands on the tables, /pit/

    # Nobody touches the browser: the script alone leaves the page.
    screen.wait_for(".messages", "You were logged out after a period of inactivity. Log in again to continue.")

    assert screen.driver.current_url == f"{screen.base}/accounts/login/?next=%2Fpit%2F"
    assert screen.driver.find_elements(By.CSS_SELECTOR, "header.top .who") == []
