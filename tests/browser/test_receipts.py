"""Receipts on paper and the dealer's screen on an upright tablet, in a real headless Chromium
(issue 14 §3, §5): printed on an 80 mm roll or A4 the receipt has no navigation and no buttons
and nothing runs off the page; at 820 px wide the verdict, the grade and the total paid stay in
view while the dealer enters the jogo, and the tile fields call up no on-screen keyboard while
the tile pictures are the chosen input.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/receipt-80mm.png and tablet-portrait.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from casino.pit import selectors, services
from tests.browser.screen import SHOTS, Screen
from tests.builders.pit import BIG_THREE_DRAGONS_PAY_ALL, seat

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]

MM_80 = 302  # CSS pixels in 80 mm (96 per inch)
A4 = 794  # CSS pixels in 210 mm
TABLET = (820, 1180)  # an upright tablet (docs/screenshots/tablet-portrait.png is at this size)


@pytest.fixture
def screen(browser, live_server):  # noqa: F811 (the browser fixture, imported)
    screen = Screen(browser, live_server)
    yield screen
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    browser.set_window_size(1280, 1000)


def viewport(screen: Screen) -> tuple[int, int]:
    return tuple(screen.driver.execute_script("return [window.innerWidth, window.innerHeight]"))


def box(screen: Screen, css: str) -> dict:
    return screen.driver.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};", css)


def page_width(screen: Screen) -> tuple[int, int]:
    """(the page's width, the width its content takes): equal unless something runs off the page."""
    return tuple(screen.driver.execute_script(
        "const e = document.documentElement; return [e.clientWidth, e.scrollWidth]"))


def printed(screen: Screen, path: str, width: int):
    """Open `path` as the print preview lays it out on paper `width` CSS pixels wide."""
    screen.driver.set_window_size(width, 1000)
    screen.open(path)
    screen.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    assert screen.driver.execute_script("return matchMedia('print').matches")
    assert viewport(screen)[0] == width


def shot(screen: Screen, name: str, *, whole_page: bool):
    if not SHOTS:
        return
    if whole_page:
        width = viewport(screen)[0]
        height = screen.driver.execute_script("return document.documentElement.scrollHeight")
        screen.driver.set_window_size(width, min(height, 3000))
    screen.driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))


def a_pay_all_jogo(people):
    """A recorded jogo with long lines to print: a pay-all, a hand of tiles, the ledger hash."""
    staff_, t1, _ = people
    game = seat(t1, staff_["dealer"])
    jogo, _ = services.record_jogo(table=t1, user=staff_["dealer"],
                                   record={**selectors.record_header(game), **BIG_THREE_DRAGONS_PAY_ALL})
    return jogo


@pytest.mark.parametrize("paper, width", [("80mm", MM_80), ("a4", A4)])
def test_a_printed_receipt_has_no_navigation_or_buttons_and_nothing_runs_off_the_paper(screen, people, paper,
                                                                                       width):
    jogo = a_pay_all_jogo(people)
    screen.log_in("dealer")
    printed(screen, f"/pit/jogos/{jogo.pk}/?paper={paper}", width)
    screen.wait_for("h1", f"Jogo {jogo.number}, table T1")

    assert not screen.find("header.top").is_displayed() and not screen.find("header.top nav").is_displayed()
    buttons = screen.driver.find_elements(By.CSS_SELECTOR, "button, .print-actions, .receipt-links")
    assert buttons and not any(element.is_displayed() for element in buttons)
    # What the receipt is for is all there: the full ledger hash, the pay-all with its article.
    hash_ = screen.find("dl.figures code.hash")
    assert hash_.is_displayed() and hash_.text.replace("\n", "") == jogo.hash
    assert "Art. 10(a)(3)" in screen.text(".receipt .pay-all")
    # The hash and the tiles wrap within the paper's width.
    assert box(screen, "dl.figures code.hash")["right"] <= width
    assert box(screen, "dl.figures dd .tiles")["right"] <= width
    assert max(box(screen, "table.payments")["right"], box(screen, "table.after")["right"]) <= width
    client_width, content_width = page_width(screen)
    assert content_width <= client_width == width
    if paper == "80mm":  # the hash needs two lines on the roll
        assert box(screen, "dl.figures code.hash")["bottom"] - box(screen, "dl.figures code.hash")["top"] > 20
        shot(screen, "receipt-80mm", whole_page=True)


def test_on_an_upright_tablet_the_verdict_grade_and_total_paid_stay_in_view_while_the_jogo_is_entered(screen,
                                                                                                       people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    screen.log_in("dealer")
    screen.driver.set_window_size(*TABLET)
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.driver.execute_script("localStorage.removeItem('pit.tileInput')")
    screen.open(f"/pit/tables/{t1.pk}/")
    width, height = viewport(screen)
    assert width == TABLET[0]
    assert screen.text("#verdict-bar").startswith("No verdict yet")

    # The jogo of the dealer's screen test: South wins on West's discard with a pong of red
    # dragons; 1 fán (Art. 6(a)(2)). East pays 100, West and North 50 each: 200 paid.
    screen.choose("declared_fan", "1")
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.choose("meld_kind_0", "pong")
    screen.pick("meld_tiles_0", "7z 7z 7z")
    screen.choose("meld_kind_1", "concealed_kong")
    screen.pick("meld_tiles_1", "1s 1s 1s 1s")
    screen.pick("winning_tile", "5s")
    screen.pick("concealed", "2m 3m 4m 6p 7p 8p 5s")
    screen.driver.execute_script("document.querySelector('[name=concealed]').scrollIntoView({block: 'center'})")
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")

    # The dealer is at the tiles; the preview is far down, out of sight ...
    assert box(screen, "#preview")["top"] > height
    # ... but the bar at the top of the screen shows its verdict, grade and total paid.
    bar = box(screen, "#verdict-bar")
    assert 0 <= bar["top"] and bar["bottom"] <= height
    assert screen.find("#verdict-bar").get_attribute("aria-busy") == "false"
    text = screen.text("#verdict-bar")
    assert "Valid" in text and "Grade 1 fán" in text and "Total paid 200" in text
    assert box(screen, "[name=concealed]")["top"] > bar["bottom"]  # the bar hides not what is entered
    shot(screen, "tablet-portrait", whole_page=False)

    # A change that breaks the jogo shows in the bar once the preview has its verdict: 9p does
    # not complete the hand (Art. 4).
    screen.pick("winning_tile", "9p")
    screen.wait_for_preview(".verdict.bad", "cannot be saved")
    assert screen.text("#verdict-bar .verdict") == "Cannot be saved"
    assert 0 <= box(screen, "#verdict-bar")["top"] and box(screen, "#verdict-bar")["bottom"] <= height


def test_a_wide_screen_shows_the_preview_beside_the_form_and_no_bar(screen, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    assert viewport(screen)[0] >= 1200
    assert not screen.find("#verdict-bar").is_displayed()


def test_the_tile_fields_call_up_no_keyboard_while_the_pictures_are_used_and_type_brings_it_back(screen, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    screen.log_in("dealer")
    screen.driver.set_window_size(*TABLET)
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.driver.execute_script("localStorage.removeItem('pit.tileInput')")
    screen.open(f"/pit/tables/{t1.pk}/")

    fields = screen.driver.find_elements(By.CSS_SELECTOR, "[data-tiles]")
    assert len(fields) == 6  # concealed, winning tile, four melds
    assert {field.get_attribute("inputmode") for field in fields} == {"none"}
    toggle = screen.find("[data-tile-typing]")
    assert toggle.is_displayed() and toggle.get_attribute("aria-pressed") == "false"

    screen.click('[name="winning_tile"]')
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert {field.get_attribute("inputmode") for field in fields} == {"text"}
    # The field the dealer was filling has the focus again, so the keyboard comes up there.
    assert screen.driver.switch_to.active_element.get_attribute("name") == "winning_tile"

    # The choice is kept on this tablet for the next jogo.
    screen.open(f"/pit/tables/{t1.pk}/")
    assert screen.find("[data-tile-typing]").get_attribute("aria-pressed") == "true"
    assert screen.find('[name="concealed"]').get_attribute("inputmode") == "text"
    screen.click("[data-tile-typing]")
    assert screen.find('[name="concealed"]').get_attribute("inputmode") == "none"
    # The pictures still fill the field in either mode.
    screen.pick("concealed", "1m 2m")
    assert screen.find('[name="concealed"]').get_attribute("value") == "12m"
