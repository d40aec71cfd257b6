"""The floor's screens end to end in headless Chromium (see tests/browser/test_pit.py): a
supervisor's buy-in and cash-out, closing and opening a table, ending a game on its printable
summary, the table's history and finding a jogo, the refusals list, and the day summary in
print.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/buy-in.png and end-of-game-summary.png.
"""
from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as when
from selenium.webdriver.support.ui import WebDriverWait

from casino.pit import days, errors, selectors, services
from casino.pit.models import Game, Movement
from casino.terms.vocabulary import localise
from tests.browser.screen import Screen
from tests.builders.pit import DRAW, next_record, on_rotation

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]

MINUTE = dt.timedelta(minutes=1)
NAMES = ["Ana", "Bruno", "Carla", "Duarte"]


def a_game(people, *, minutes_ago: int = 95) -> Game:
    """Ana, Bruno, Carla and Duarte (5000, 3000, 2000, 4000; Ana the first banker) seated
    `minutes_ago`; Bruno wins a chicken hand on Carla's discard (Ana pays 50 as banker, Carla
    and Duarte 25 each, Bruno nets 100 − 10 commission), then a draw."""
    staff_, t1, _ = people
    now = timezone.now()
    # Within today's gaming day, which the screens show by default: shortly after the day starts,
    # the game starts with the day (and its jogos are recorded a few minutes ahead of the clock).
    start = max(now - minutes_ago * MINUTE, days.day_bounds(days.gaming_day(now))[0])
    players = [{"chair": c, "name": name, "capital": amount}
               for c, (name, amount) in enumerate(zip(NAMES, [5000, 3000, 2000, 4000]))]
    for moment in (start, start + 20 * MINUTE):  # the dealer on the rotation, on whichever gaming day it is
        on_rotation(t1, staff_["dealer"], moment)
    game = services.start_game(table=t1, user=staff_["dealer"], players=players, first_banker=0, at=start,
                               witness=staff_["supervisor"])
    services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(game), at=start + 10 * MINUTE)
    services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(game, **DRAW), at=start + 20 * MINUTE)
    return game


def capitals(screen: Screen, css: str) -> list[str]:
    return [element.text for element in screen.driver.find_elements(By.CSS_SELECTOR, css)]


def test_a_supervisor_records_a_buy_in_and_a_cash_out_with_each_chairs_capital_before_and_after(screen, people):
    staff_, t1, _ = people
    game = a_game(people)  # capital now 4950, 3090, 1975, 3975
    screen.log_in("supervisor")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.click("a.money-link")
    screen.wait_for("h1", "Buy-in and cash-out · table T1")
    screen.choose("chair", "2")
    screen.click('input[name="kind"][value="buy_in"]')
    screen.type("amount", "500")
    screen.click(".money-form button[type=submit]")
    screen.wait_for(".movement-receipt h2", "Buy-in of 500 recorded for chair 3")
    assert capitals(screen, ".movement-receipt td.before") == ["4950", "3090", "1975", "3975"]
    assert capitals(screen, ".movement-receipt td.after") == ["4950", "3090", "2475", "3975"]
    assert "Carla" in screen.text(".movement-receipt tr.moved")
    assert "supervisor" in screen.text(".movement-receipt")
    screen.shot("buy-in")

    # A cash-out of more than Duarte has is refused, naming chair 4 and the article.
    screen.choose("chair", "3")
    screen.click('input[name="kind"][value="cash_out"]')
    screen.type("amount", "5000")
    screen.click(".money-form button[type=submit]")
    screen.wait_for(".problems", "Chair 4 has 3975 at stake; a cash-out of 5000 is more than that.")
    screen.type("amount", "975")
    screen.click(".money-form button[type=submit]")
    screen.wait_for(".movement-receipt h2", "Cash-out of 975 recorded for chair 4")
    assert capitals(screen, ".movement-receipt td.after") == ["4950", "3090", "2475", "3000"]
    assert capitals(screen, "table.seats td.capital") == ["4950", "3090", "2475", "3000"]
    assert selectors.standing(game).capital == [4950, 3090, 2475, 3000]
    # The ledger names the supervisor on these two and on the four seating buy-ins he witnessed.
    assert Movement.objects.filter(game=game, recorded_by=staff_["supervisor"]).count() == 6


def test_a_dealer_is_not_offered_the_buy_in(screen, people):
    _, t1, _ = people
    a_game(people)
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.wait_for("nav.floor-nav", "History")
    assert not screen.driver.find_elements(By.CSS_SELECTOR, "a.money-link")
    screen.open(f"/pit/tables/{t1.pk}/money")
    assert screen.text(".reason") == "Your role does not allow this."
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".money-form")


def test_a_supervisor_closes_and_opens_his_table(screen, people):
    _, t1, _ = people
    screen.log_in("supervisor")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.click("form.open-close button")
    screen.wait_for("main h1", "Close table T1?")
    screen.click("form.confirm button")
    screen.wait_for(".messages", "Table T1 is closed.")
    assert "This table is closed." in screen.text("main")
    assert screen.text("form.open-close button") == "Open the table"
    screen.click("form.open-close button")
    screen.wait_for(".messages", "Table T1 is open.")
    assert screen.text("form.open-close button") == "Close the table"
    assert screen.driver.find_elements(By.CSS_SELECTOR, ".seat-form")


def test_ending_a_game_shows_its_end_of_game_summary_which_prints_without_the_frame(screen, people):
    _, t1, _ = people
    game = a_game(people)
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.click(".end-game button")
    WebDriverWait(screen.driver, 10).until(when.alert_is_present()).accept()
    screen.wait_for("h1", "End of game · table T1")
    # Bruno won the one won jogo; Ana paid 50 as banker; 10 commission (Art. 8).
    assert capitals(screen, "table.players td.won") == ["0", "1", "0", "0"]
    assert capitals(screen, "table.players td.net") == ["-50", "+90", "-25", "-25"]
    assert capitals(screen, "table.players td.end") == ["4950", "3090", "1975", "3975"]
    assert screen.text("dd.commission") == "10"
    assert screen.text("dd.jogos").startswith("2 (1 won, 1 drawn")
    game.refresh_from_db()
    assert game.ended_at is not None
    duration = int((game.ended_at - game.started_at).total_seconds()) // 60
    assert screen.text("dd.duration") == f"{duration // 60}:{duration % 60:02d}"
    screen.shot("end-of-game-summary")
    in_print(screen)
    assert not screen.find("header.top").is_displayed()
    assert not screen.find(".no-print").is_displayed() and not screen.find("nav.floor-nav").is_displayed()
    assert screen.find("table.players").is_displayed()


def in_print(screen: Screen):
    """Show the page as it prints (CSS @media print)."""
    screen.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})


@pytest.fixture(autouse=True)
def _back_to_screen(browser):  # noqa: F811
    yield
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})


def test_the_history_of_the_day_and_finding_a_jogo_by_its_number(screen, people):
    staff_, t1, _ = people
    game = a_game(people)
    first = game.jogos.get(number=1)
    amendment = services.propose_amendment(jogo=first, user=staff_["supervisor"],
                                           record={**first.record, "discarder": "N"},
                                          reason="the discard was Duarte's")
    services.decide_amendment(amendment=amendment, user=staff_["supervisor2"], approve=True)
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.click('nav.floor-nav a[href$="/history"]')
    screen.wait_for("#history-title", "Gaming day")
    rows = screen.driver.find_elements(By.CSS_SELECTOR, "table.history tbody tr")
    assert [row.get_attribute("data-number") for row in rows] == ["1", "2"]
    # The dealer reads the players' names masked (casino/pit/privacy.py).
    assert "South · B****" in rows[0].text and "East · A** → South · B**** 50" in rows[0].text
    assert "1 · amended" in rows[0].text
    screen.type("number", "1")
    screen.click(".find-jogo button")
    screen.wait_for("#history-title", "Jogo 1: every revision")
    revisions = capitals(screen, "table.history td.revision")
    assert revisions == ["0", "1 · amended"]


def test_the_refusals_list_shows_a_refused_attempt_with_its_errors(screen, people):
    staff_, t1, _ = people
    game = a_game(people)
    bad = next_record(game, hand={"concealed": "345m678p234s99m12p", "winning_tile": "1p"})
    with pytest.raises(errors.Refused) as refused:
        services.record_jogo(table=t1, user=staff_["dealer"], record=bad)
    screen.log_in("supervisor")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.click('nav.floor-nav a[href*="/refusals/"]')
    screen.wait_for("h1", "Refused attempts")
    with translation.override("en"):
        said = localise(refused.value.problems[0])  # the engine's message in people's words ("0 melds")
    assert said in screen.text("table.refusals")
    assert "dealer" in screen.text("table.refusals") and "Won · South" in screen.text("table.refusals")


def test_the_day_summary_of_a_time_range_prints(screen, people):
    _, t1, _ = people
    game = a_game(people, minutes_ago=30)
    first = game.jogos.get(number=1)
    day = first.gaming_day.isoformat()
    recorded = timezone.localtime(first.recorded_at)
    start, end = (recorded - MINUTE).strftime("%H:%M"), (recorded + MINUTE).strftime("%H:%M")
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/day?day={day}&start={start}&end={end}")
    screen.wait_for("h1", "Day summary · table T1")
    assert screen.text("dd.commission") == "10" and screen.text("dd.jogos").startswith("1 (1 won")
    assert capitals(screen, "table.players td.net") == ["-50", "+90", "-25", "-25"]
    in_print(screen)
    assert not screen.find("header.top").is_displayed() and not screen.find("form.filters").is_displayed()
    assert screen.find("dd.commission").is_displayed()
