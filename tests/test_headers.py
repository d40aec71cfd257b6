"""Security headers on every response (issue 13 §10): a Content-Security-Policy that allows no
inline script, Referrer-Policy, X-Content-Type-Options and frame denial; and no page or template
with an inline script or an on* handler, which that policy would silently break. The browser
test opens the pages whose scripts matter (the API's docs, the language menu, the end of a game)
and checks that they work under the policy, with no violation reported."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from casino.pit.models import Game
from tests.pit import seat, staff
from tests.test_pit_browser import Screen, browser  # noqa: F401  (the module's browser fixture)

ROOT = Path(__file__).resolve().parent.parent
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
ON_HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)


def policy(response) -> dict[str, list[str]]:
    directives = [part.split() for part in response["Content-Security-Policy"].split(";") if part.strip()]
    return {words[0]: words[1:] for words in directives}


def check_headers(response) -> None:
    csp = policy(response)
    assert csp["script-src"] == ["'self'"], csp  # no 'unsafe-inline', no 'unsafe-eval', no other site
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["base-uri"] == ["'self'"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


@pytest.fixture
def world(db):
    people, t1, _ = staff()
    game = seat(t1, people["dealer"])
    return {"people": people, "t1": t1, "game": game}


PAGES = ["/", "/accounts/login/", "/pit/", "/pit/tables/{t1}/", "/audit/", "/reports/", "/api/v1/",
         "/api/v1/tables/", "/api/v1/docs/", "/api/v1/docs/?script=", "/api/v1/redoc/", "/api/v1/schema/",
         "/admin/login/", "/no-such-page/", "/api/v1/no-such-thing/", "/healthz"]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("who", ["anonymous", "dealer", "manager"])
def test_every_response_has_the_security_headers_and_no_inline_script(world, path, who):
    client = Client()
    if who != "anonymous":
        client.force_login(world["people"][who])
    response = client.get(path.format(t1=world["t1"].pk), HTTP_ACCEPT="text/html")
    check_headers(response)
    assert response["X-Request-ID"]
    if response["Content-Type"].startswith("text/html"):
        page = response.content.decode()
        assert not INLINE_SCRIPT.search(page), INLINE_SCRIPT.search(page).group(0)
        assert not ON_HANDLER.search(page), ON_HANDLER.search(page).group(0)


def test_no_template_has_an_inline_script_or_an_on_handler():
    templates = [path for folder in [ROOT / "templates", *ROOT.glob("casino/*/templates")]
                 for path in folder.rglob("*.html")]
    assert len(templates) > 10
    for path in templates:
        text = path.read_text()
        assert not INLINE_SCRIPT.search(text), (path, INLINE_SCRIPT.search(text).group(0))
        assert not ON_HANDLER.search(text), (path, ON_HANDLER.search(text).group(0))


def test_the_policy_is_the_setting():
    assert settings.CONTENT_SECURITY_POLICY["script-src"] == ["'self'"]


# --- In a browser: the pages still work under the policy ------------------------------------------

def violations(driver) -> list[str]:
    """The policy's violations the browser reported, but for Redoc's "powered by" logo, which it
    loads from its vendor's site: the policy blocks it, as it should, and the page is whole."""
    return [entry["message"] for entry in driver.get_log("browser")
            if "Content Security Policy" in entry["message"] and "cdn.redoc.ly/redoc/logo-mini.svg" not in
            entry["message"]]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("groups_restored_afterwards", "flush_ledger_afterwards")
def test_the_api_docs_the_language_menu_and_ending_a_game_work_under_the_policy(browser, live_server):  # noqa: F811
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


@pytest.fixture
def groups_restored_afterwards(django_db_blocker):
    """The flush that ends a transactional test also empties the roles' groups, which a data
    migration made; later transactional tests expect them. Set up before the database, so torn
    down after its flush."""
    yield
    from casino.pit.roles import sync_groups
    with django_db_blocker.unblock():
        sync_groups()
