"""The hand calculator end to end in headless Chromium (issue 15): a dealer enters Serralheiro's
§10(c) hand with the tile picker, scores it, and reads it under the Portaria and the books, in
English, Portuguese and Chinese.

Set SCREENSHOTS=docs/screenshots to save calculator-en.png, calculator-pt.png and
calculator-zh-hant.png there.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from casino.pit.roles import DEALER
from tests.browser.screen import Screen, submit
from tests.builders.pit import user

# The live server reads what the test writes (its users), so the writes are committed; on
# PostgreSQL the clean-up afterwards needs the ledger's triggers off (conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def shot(screen: Screen, name: str):
    """The form's head and the results as SCREENSHOTS/<name>.png when SCREENSHOTS is set: the window is
    as tall as the page (at most 3000 pixels), scrolled to the results."""
    if folder := os.environ.get("SCREENSHOTS"):
        driver = screen.driver
        frame = driver.get_window_size()["height"] - driver.execute_script("return window.innerHeight")
        top = driver.execute_script("return document.getElementById('results').getBoundingClientRect().top"
                                    " + window.scrollY")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1280, min(height - top + 40 + frame, 3000))
        driver.execute_script("window.scrollTo(0, arguments[0])", top - 20)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))
        driver.set_window_size(1280, 1000)


def strip(screen: Screen, field: str) -> list[str]:
    """The tiles drawn under a tile field, by their class t-<code>."""
    tiles = screen.driver.find_elements(By.CSS_SELECTOR, f'[data-strip-for="id_{field}"] .tile')
    return [next(c[2:] for c in tile.get_attribute("class").split() if c.startswith("t-")) for tile in tiles]


def cells(screen: Screen, css: str) -> list[str]:
    return [cell.text for cell in screen.driver.find_elements(By.CSS_SELECTOR, css)]


def test_a_dealer_enters_serralheiros_hand_with_the_picker_and_reads_it_under_every_rule_set(screen):
    user("dealer", DEALER)
    screen.log_in("dealer")
    screen.find("header.top nav").find_element(By.LINK_TEXT, "Hand calculator").click()
    screen.wait_for("h1", "Hand calculator")

    screen.choose("winner", "N")
    screen.choose("opener", "S")
    screen.choose("winning_from", "self_drawn")
    assert not screen.find("label.discarder").is_displayed()  # a self-drawn tile has no discarder
    screen.choose("winning_from", "discard")
    assert screen.find("label.discarder").is_displayed()
    screen.choose("discarder", "W")
    assert "winner" in screen.find("#hand-N").get_attribute("class")

    screen.pick("N_concealed", "1m 2m 5s 5s")
    assert screen.find('[name="N_concealed"]').get_attribute("value") == "12m55s"
    assert strip(screen, "N_concealed") == ["1m", "2m", "5s", "5s"]
    screen.pick("winning_tile", "3m")
    screen.choose("N_meld_kind_0", "concealed_kong")
    screen.pick("N_meld_tiles_0", "1z 1z 1z 1z")
    screen.choose("N_meld_kind_1", "pong")
    screen.pick("N_meld_tiles_1", "1s 1s 1s")
    screen.choose("N_meld_kind_2", "pong")
    screen.pick("N_meld_tiles_2", "4s 4s 4s 4s")
    screen.click("[data-tile-back]")  # one 4s too many: the picker takes the last one back
    assert screen.find('[name="N_meld_tiles_2"]').get_attribute("value") == "444s"
    for bonus in ("f3", "g1"):
        screen.click(f'#hand-N input[name="N_flowers"][value="{bonus}"]')
    submit(screen, "#hand-form button[type=submit]")

    screen.wait_for("#results-title", "The hand under every rule set")
    portaria = "#rules-portaria-135-91-M-conventional"
    assert cells(screen, f"{portaria} .items td:first-child") == ["Round wind set\nArt. 6(a)(2)"]
    assert cells(screen, f"{portaria} .payments td.num") == ["100", "50", "50"]
    assert "Art. 4(b)" in screen.text("#rules-portaria-135-91-M-simplified .problems")
    serralheiro = "#rules-serralheiro-2003"
    assert screen.text(f"{serralheiro} .player.winner h4").startswith("North")
    assert sorted(cells(screen, f"{serralheiro} .payments td.num")) == ["1056", "528", "528"]
    assert "528" in cells(screen, f"{serralheiro} .player.winner tfoot td")
    shot(screen, "calculator-en")

    Select(screen.find("#language")).select_by_value("pt")
    screen.wait_for("#results-title", "O jogo segundo cada regulamento")
    assert sorted(cells(screen, f"{serralheiro} .payments td.num")) == ["1056", "528", "528"]
    shot(screen, "calculator-pt")

    Select(screen.find("#language")).select_by_value("zh-hant")
    screen.wait_for("#results-title", "此副牌按各規則計算之結果")
    assert cells(screen, f"{portaria} .payments td.num") == ["100", "50", "50"]
    shot(screen, "calculator-zh-hant")


def test_a_mistake_is_marked_beside_its_field_in_the_browser(screen):
    user("inspector", None)
    screen.log_in("inspector")
    screen.open("/calculator/")
    screen.type("E_concealed", "123m 456x")
    screen.type("winning_tile", "5p")
    submit(screen, "#hand-form button[type=submit]")
    screen.wait_for("#id_E_concealed_error", "'x' is not part of the tile notation")
    assert screen.find("#id_discarder_error").text == "Choose who discarded the winning tile."
    assert not screen.driver.find_elements(By.ID, "results")
