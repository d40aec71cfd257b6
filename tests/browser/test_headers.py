"""The pages whose scripts matter (the API's docs, the language menu, the end of a game) work
under the Content-Security-Policy, with no violation reported (tests/web/test_headers.py has the
headers themselves)."""
from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from casino.pit.models import Game
from tests.browser.screen import Screen
from tests.builders.pit import seat, staff


def violations(driver) -> list[str]:
    """The policy's violations the browser reported, but for Redoc's "powered by" logo, which it
    loads from its vendor's site: the policy blocks it, as it should, and the page is whole."""
    return [entry["message"] for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"] and "cdn.redoc.ly/redoc/logo-mini.svg" not in
            entry["message"]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("groups_restored_afterwards", "flush_ledger_afterwards")
def test_the_api_docs_the_language_menu_and_ending_a_game_work_under_the_policy(browser, live_server):
    people, t1, _ = staff()
    seat(t1, people["dealer"])
    screen = Screen(browser, live_server)
    screen.log_in("dealer")
    browser.get_log("browser")  # forget what came before

    screen.open("/api/v1/docs/")
    screen.wait_for(".swagger-ui .info .title", "Mah-Jong table audit API")
    screen.wait_for(".swagger-ui", "/api/v1/tables/{id}/jogos/")  # the operations, read from the schema
    screen.open("/api/v1/redoc/")
    screen.wait_for("body", "Record the table's next jogo")  # Redoc's page, read from the schema
    assert violations(browser) == []

    screen.open(f"/pit/tables/{t1.pk}/")
    from selenium.webdriver.support.select import Select
    Select(screen.find("#language")).select_by_value("pt")  # casino.js sends the form
    screen.wait_for("html[lang=pt] header.top nav", "Mesas")

    screen.click("form.end-game button")  # casino.js asks first
    WebDriverWait(browser, 10).until(lambda driver: driver.switch_to.alert)
    browser.switch_to.alert.dismiss()
    assert Game.objects.get(table=t1).ended_at is None  # dismissed: the game goes on
    screen.click("form.end-game button")
    WebDriverWait(browser, 10).until(lambda driver: driver.switch_to.alert)
    browser.switch_to.alert.accept()
    WebDriverWait(browser, 10).until(lambda driver: Game.objects.get(table=t1).ended_at is not None)
    assert violations(browser) == []
    browser.find_element(By.TAG_NAME, "body")
