"""The dealer's table screen on every tablet and by keyboard (issue 23 §1, §3), in a real
headless Chromium: the page fits 768 to 1400 px in English, Portuguese and Chinese with every
part of the form shown; the language can change without losing what was entered; the tile pad
stays out of the Tab order and refuses a fifth copy of a tile (Art. 2); the README's first jogo
is recorded by keyboard alone; the history's "declared 2" stays in its column.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/tablet-portrait-pt.png and
tablet-landscape-zh-hant.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from casino.pit import selectors, services
from casino.pit.demo import MISDECLARED, PAY_ALL
from casino.pit.models import Jogo
from tests.browser.screen import SHOTS, Screen
from tests.builders.pit import seat

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]

TABLETS = [(768, 1024), (820, 1180), (1024, 768), (1180, 820)]  # portrait, then landscape
DESKTOP = (1400, 1000)


@pytest.fixture
def screen(browser, live_server):  # noqa: F811 (the browser fixture, imported)
    screen = Screen(browser, live_server)
    yield screen
    browser.set_window_size(1280, 1000)


def switch_language(screen: Screen, language: str):
    """Choose `language` in the header's menu and wait for the page it lands on to speak it."""
    Select(screen.find("#language")).select_by_value(language)
    WebDriverWait(screen.driver, 30).until(
        lambda driver: driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language)


def settled(screen: Screen):
    """Wait until the live preview has answered the form as it now stands."""
    WebDriverWait(screen.driver, 30).until(
        lambda driver: driver.find_element(By.ID, "preview").get_attribute("aria-busy") == "false")


def record(table, by, fields: dict) -> Jogo:
    game = selectors.open_game(table)
    jogo, _ = services.record_jogo(table=table, user=by, record={**selectors.record_header(game), "result": "win",
                                                                 **fields})
    return jogo


# Whatever runs past the page's right edge or its card's: the page's own width against the
# window's, then every shown element of every card against the card's right edge.
OVERFLOW = """
const page = document.documentElement, out = [];
if (page.scrollWidth > page.clientWidth || page.scrollWidth > window.innerWidth)
  out.push(`the page is ${page.scrollWidth} px wide in a window of ${page.clientWidth}`);
for (const card of document.querySelectorAll('.card')) {
  const edge = card.getBoundingClientRect().right;
  for (const element of card.querySelectorAll('*')) {
    const box = element.getBoundingClientRect();
    if (box.width && box.right > edge + 0.5) {
      out.push(`${element.tagName.toLowerCase()}.${element.className} "${element.textContent.trim().slice(0, 40)}"`
               + ` ends at ${Math.round(box.right)} px, its card at ${Math.round(edge)} px`);
      break;
    }
  }
}
return out;
"""


def every_part_of_the_form_shown(screen: Screen):
    """A win with every meld row, a pay-all under the article with the longest text, and the false
    win's fieldset shown too (the screen shows it only for a false win)."""
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.pick("concealed", "2m 3m 4m 6p 7p 8p 5s")
    screen.type("winning_tile", "5s")
    for row, (kind, tiles) in enumerate([("pong", "777z"), ("concealed_kong", "1111s"), ("chow", "123p"),
                                         ("kong", "9999m")]):
        screen.choose(f"meld_kind_{row}", kind)
        screen.type(f"meld_tiles_{row}", tiles)
    screen.choose("pay_all_seat", "W")
    longest = max(Select(screen.find('select[name="pay_all_article"]')).options, key=lambda o: len(o.text))
    screen.choose("pay_all_article", longest.get_attribute("value"))
    screen.driver.execute_script("document.querySelectorAll('#jogo-form fieldset[hidden]')"
                                 ".forEach((part) => { part.hidden = false; })")
    settled(screen)
    assert all(part.is_displayed() for part in screen.driver.find_elements(By.CSS_SELECTOR, "#jogo-form fieldset"))


@pytest.mark.parametrize("language", ["en", "pt", "zh-hant"])
def test_the_table_page_fits_each_tablet_and_the_desktop_with_every_part_of_the_form_shown(screen, people, language):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    shown = record(t1, staff_["dealer"], PAY_ALL)  # a receipt with a pay-all, and a jogo in the list
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/?receipt={shown.pk}")
    if language != "en":
        switch_language(screen, language)
        screen.open(f"/pit/tables/{t1.pk}/?receipt={shown.pk}")
    every_part_of_the_form_shown(screen)

    overflows = {}
    for width, height in [*TABLETS, DESKTOP]:
        screen.driver.set_window_size(width, height)
        assert screen.driver.execute_script("return window.innerWidth") == width
        found = screen.driver.execute_script(OVERFLOW)
        if found:
            overflows[f"{width}×{height}"] = found
    assert overflows == {}
    # The pay-all article is chosen by its number and a few words; its full text is shown beside it.
    chosen = Select(screen.find('select[name="pay_all_article"]')).first_selected_option.text
    assert len(chosen) < 60
    assert screen.find(".pay-all-article-text [data-article]:not([hidden])").is_displayed()

    if language != "en":
        a_pay_all_entered_on_a_tablet(screen, t1, language)


def a_pay_all_entered_on_a_tablet(screen: Screen, table, language: str):
    """The demo's pay-all (Art. 10(a)(1)) entered by touch on an upright tablet in Portuguese, or
    on one held sideways in Chinese: valid, and the page still fits (docs/ screenshots)."""
    name, size, valid = {"pt": ("tablet-portrait-pt", (820, 1180), "Válido"),
                         "zh-hant": ("tablet-landscape-zh-hant", (1180, 820), "符合第135/91/M號訓令")}[language]
    screen.driver.set_window_size(*size)
    screen.driver.execute_script("sessionStorage.clear()")  # a fresh form, not the one entered above
    screen.open(f"/pit/tables/{table.pk}/")
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.pick("concealed", "2p 3p 4p 9p")
    screen.pick("winning_tile", "9p")
    for row, (kind, tiles) in enumerate([("chow", "1p 2p 3p"), ("pong", "5p 5p 5p"), ("chow", "7p 8p 9p")]):
        screen.choose(f"meld_kind_{row}", kind)
        screen.pick(f"meld_tiles_{row}", tiles)
    screen.choose("pay_all_seat", "W")
    screen.choose("pay_all_article", "10(a)(1)")
    screen.choose("declared_fan", "2")
    screen.wait_for_preview(".verdict.good", valid)
    assert screen.driver.execute_script(OVERFLOW) == []
    if SHOTS:  # the whole page at the tablet's width
        height = screen.driver.execute_script("return document.documentElement.scrollHeight")
        screen.driver.set_window_size(size[0], min(height, 3000))
        screen.driver.execute_script("window.scrollTo(0, 0)")
        screen.driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))


def fill_the_first_jogo_of_the_readme(screen: Screen):
    """README, "Your first jogo": South wins a chicken hand on West's discard, declared 0 fán."""
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.type("concealed", "345m678p234s99m11p")
    screen.type("winning_tile", "1p")
    screen.choose("declared_fan", "0")


def test_changing_the_language_keeps_what_the_dealer_has_entered(screen, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    fill_the_first_jogo_of_the_readme(screen)
    screen.click('input[name="claimants"][value="N"]')  # a box ticked is kept too
    screen.click('input[name="claimants"][value="N"]')
    screen.click('input[name="saw_tiles"][value="E"]')
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")

    switch_language(screen, "pt")
    screen.wait_for_preview(".verdict.good", "Válido")
    value = lambda name: screen.find(f'[name="{name}"]').get_attribute("value")  # noqa: E731
    assert [value(name) for name in ("winner", "discarder", "concealed", "winning_tile", "declared_fan")] == \
        ["S", "W", "345m678p234s99m11p", "1p", "0"]
    assert screen.find('input[name="saw_tiles"][value="E"]').is_selected()
    assert not screen.find('input[name="claimants"][value="N"]').is_selected()
    assert len(screen.driver.find_elements(By.CSS_SELECTOR, '[data-strip-for="id_concealed"] .tile')) == 13

    # Once saved, the next jogo starts from an empty form, whatever the language.
    screen.click('button[value="save"]')
    screen.wait_for(".receipt", "Jogo 1")
    switch_language(screen, "en")
    screen.wait_for(".jogo-form h2", "Record the jogo")
    assert value("winner") == "" and value("concealed") == "" and value("declared_fan") == ""
    assert not screen.find('input[name="saw_tiles"][value="E"]').is_selected()


def test_the_tile_pad_is_out_of_the_tab_order_and_the_typed_field_follows_the_discarder(screen, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    pad = screen.driver.find_elements(By.CSS_SELECTOR, ".palette button")
    assert len(pad) == 36 and {button.get_attribute("tabindex") for button in pad} == {"-1"}
    screen.driver.execute_script("document.querySelector('[name=discarder]').focus()")
    ActionChains(screen.driver).send_keys(Keys.TAB).perform()
    assert screen.driver.switch_to.active_element.get_attribute("name") == "concealed"


def test_art_2_the_tile_pad_refuses_a_fifth_copy_of_a_tile_in_the_pages_language(screen, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    switch_language(screen, "pt")
    screen.pick("concealed", "1m 1m 1m")
    screen.pick("meld_tiles_0", "2m 1m")
    note = screen.find(".palette-note")
    assert not note.is_displayed()
    screen.pick("concealed", "1m")  # the fifth 1m: three here and one in the meld are four
    assert screen.find('[name="concealed"]').get_attribute("value") == "111m"
    assert note.is_displayed() and "4" in note.text and "Art. 2.º" in note.text
    screen.pick("winning_tile", "1m")
    assert screen.find('[name="winning_tile"]').get_attribute("value") == ""
    screen.pick("winning_tile", "2m")  # another tile is taken, and the note goes
    assert screen.find('[name="winning_tile"]').get_attribute("value") == "2m"
    assert not note.is_displayed()


class Keyboard:
    """The dealer's keyboard: each key pressed, with or without Alt, counts once; the tiles'
    own characters (digits and m p s z) are counted apart."""

    def __init__(self, driver):
        self.driver, self.keys, self.tiles = driver, 0, 0

    def press(self, key: str, *, alt: bool = False):
        actions = ActionChains(self.driver)
        if alt:
            actions.key_down(Keys.ALT).send_keys(key).key_up(Keys.ALT)
        else:
            actions.send_keys(key)
        actions.perform()
        self.keys += 1

    def tiles_typed(self, notation: str):
        ActionChains(self.driver).send_keys(notation).perform()
        self.tiles += len(notation)

    def focused(self) -> str:
        return self.driver.switch_to.active_element.get_attribute("name")


def test_the_readmes_first_jogo_is_recorded_by_keyboard_alone_in_nine_keys_besides_the_tiles(screen, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    keyboard = Keyboard(screen.driver)
    keyboard.press("w", alt=True)  # the winner
    assert keyboard.focused() == "winner"
    keyboard.press("s")  # South
    keyboard.press(Keys.TAB)  # the discarder
    keyboard.press("w")  # West
    keyboard.press(Keys.TAB)  # the concealed tiles, past the tile pad
    assert keyboard.focused() == "concealed"
    keyboard.tiles_typed("345m678p234s99m11p")
    keyboard.press(Keys.TAB)  # the winning tile
    keyboard.tiles_typed("1p")
    keyboard.press("g", alt=True)  # the declared grade
    assert keyboard.focused() == "declared_fan"
    keyboard.press("0")
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")
    keyboard.press("s", alt=True)  # save
    screen.wait_for(".receipt", "Jogo 1 recorded")

    jogo = Jogo.objects.get(table=t1)
    assert (jogo.record["winner"], jogo.record["discarder"], jogo.declared_fan, jogo.fan) == ("S", "W", 0, 0)
    assert jogo.record["hand"] == {"concealed": "345m678p234s99m11p", "winning_tile": "1p", "melds": []}
    assert (keyboard.keys, keyboard.tiles) == (9, 20)


def test_the_keys_change_the_result_and_choose_a_seat_in_every_language(screen, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    switch_language(screen, "zh-hant")
    keyboard = Keyboard(screen.driver)
    keyboard.press("r", alt=True)  # win → draw
    assert screen.find('input[name="result"][value="draw"]').is_selected()
    keyboard.press("r", alt=True)  # draw → false win: the offender is chosen by the seat's key
    assert screen.find('input[name="result"][value="false_win"]').is_selected()
    assert screen.find('[name="false_win_seat"]').is_displayed()
    screen.driver.execute_script("document.querySelector('[name=false_win_seat]').focus()")
    keyboard.press("n")
    assert screen.find('[name="false_win_seat"]').get_attribute("value") == "N"
    keyboard.press("r", alt=True)  # back to a win
    keyboard.press("d", alt=True)
    assert keyboard.focused() == "discarder"
    keyboard.press("e")
    assert screen.find('[name="discarder"]').get_attribute("value") == "E"
    keyboard.press(Keys.BACKSPACE)  # self-drawn
    assert screen.find('[name="discarder"]').get_attribute("value") == ""
    # The keys are shown beside what they reach, and the seats' keys under the winner.
    shown = {kbd.text for kbd in screen.driver.find_elements(By.TAG_NAME, "kbd") if kbd.is_displayed()}
    assert {"Alt+R", "Alt+W", "Alt+D", "Alt+G", "Alt+S", "E", "S", "W", "N"} <= shown
    assert "E 東位" in screen.text("#seat-keys")


def test_the_historys_declared_grade_stays_in_its_column(screen, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    record(t1, staff_["dealer"], MISDECLARED)  # declared 2 fán, the regulation gives 1
    screen.log_in("supervisor")
    for width, height in [*TABLETS, DESKTOP]:
        screen.driver.set_window_size(width, height)
        screen.open(f"/pit/tables/{t1.pk}/history")
        badge = screen.find("table.history td .mismatch")
        assert "2" in badge.text
        # One box, not broken over two lines, and within the cell's borders.
        boxes, inside = screen.driver.execute_script(
            "const badge = arguments[0].getBoundingClientRect();"
            "const cell = arguments[0].closest('td').getBoundingClientRect();"
            "return [arguments[0].getClientRects().length, [badge.left >= cell.left, badge.right <= cell.right,"
            " badge.top >= cell.top, badge.bottom <= cell.bottom]];", badge)
        assert (boxes, inside) == (1, [True, True, True, True]), f"at {width}×{height}"
