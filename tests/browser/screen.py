"""The browser as people use it, for the tests under tests/browser/: Debian's headless Chromium
(chromium and chromium-driver, installed by scripts/bootstrap) driven by Selenium against a live
server. The fixtures that hand these out are in conftest.py beside this module.

Set SCREENSHOTS=docs/screenshots to save the main screens there as PNG files for the docs.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as when
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SHOTS = os.environ.get("SCREENSHOTS")


class Screen:
    """The browser as the dealer uses it."""

    def __init__(self, driver, live_server):
        self.driver, self.base = driver, live_server.url
        driver.delete_all_cookies()

    def open(self, path: str):
        self.driver.get(self.base + path)

    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def text(self, css: str) -> str:
        return self.find(css).text

    def wait_for(self, css: str, text: str, timeout: float = 30):
        """Wait until `css` holds `text`. Asked while the old page is being taken down after a
        click, the driver may fail on an element of that page ("Node with given id does not
        belong to the document"): the wait asks again, and fails only by its timeout."""
        WebDriverWait(self.driver, timeout, ignored_exceptions=(StaleElementReferenceException, WebDriverException)) \
            .until(when.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))

    def wait_for_preview(self, css: str, text: str, timeout: float = 30):
        """Wait until the preview shows the verdict on the form as it now stands (the panel is no
        longer aria-busy) and `css` within it holds `text`: never a verdict an earlier state of
        the form also gave."""
        def settled(driver):
            panel = driver.find_element(By.ID, "preview")
            if panel.get_attribute("aria-busy") != "false":
                return False
            return any(text in element.text for element in panel.find_elements(By.CSS_SELECTOR, css))
        WebDriverWait(self.driver, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(settled)

    def log_in(self, username: str):
        self.open("/accounts/login/")
        self.find("#id_username").send_keys(username)
        self.find("#id_password").send_keys("correct horse battery")
        self.find("form.login button").click()
        self.wait_for("header.top .who", username)

    def type(self, name: str, text: str):
        field = self.find(f'[name="{name}"]')
        field.clear()
        field.send_keys(text)

    def choose(self, name: str, value: str):
        Select(self.find(f'select[name="{name}"]')).select_by_value(value)

    def click(self, css: str):
        self.find(css).click()

    def pick(self, field: str, codes: str):
        """Put tiles into a field by touching the tile pictures, as on a tablet."""
        self.click(f'[name="{field}"]')
        for code in codes.split():
            self.click(f'button[data-tile="{code}"]')

    def shot(self, name: str):
        if SHOTS:  # the whole page, not only the window
            height = self.driver.execute_script("return document.documentElement.scrollHeight")
            self.driver.set_window_size(1280, min(height, 3000))
            self.driver.execute_script("window.scrollTo(0, 0)")
            self.driver.save_screenshot(str(Path(SHOTS) / f"{name}.png"))
            self.driver.set_window_size(1280, 1000)


def seat_players(screen: Screen, table_pk: int, witness: str = "supervisor"):
    """Seat Ana, Bruno, Carla and Duarte (5000, 3000, 2000, 4000; Ana the first banker). A dealer
    seating has the table's supervisor (`witness`) confirm it with his password."""
    screen.open(f"/pit/tables/{table_pk}/")
    for chair, (name, amount) in enumerate([("Ana", 5000), ("Bruno", 3000), ("Carla", 2000), ("Duarte", 4000)]):
        screen.type(f"name_{chair}", name)
        screen.type(f"capital_{chair}", str(amount))
    screen.choose("first_banker", "0")
    if screen.driver.find_elements(By.CSS_SELECTOR, '[name="witness"]'):
        screen.type("witness", witness)
        screen.type("witness_password", "correct horse battery")
    names_looked_up(screen)
    screen.shot("seat-a-game")
    screen.click(".seat-form button[type=submit]")
    screen.wait_for("#state-title", "East round")


def names_looked_up(screen: Screen):
    """Wait until the seating form has looked up every name typed (static/pit/players.js keeps it
    aria-busy meanwhile): no request of the player picker still runs when the form is sent."""
    WebDriverWait(screen.driver, 30, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda driver: driver.find_element(By.CSS_SELECTOR, ".seat-form").get_attribute("aria-busy") == "false")


def shot(screen: Screen, name: str):
    """The whole page as SCREENSHOTS/<name>.png when SCREENSHOTS is set: the window is made as tall as
    the page plus the browser's own frame, so that nothing is cut at the bottom."""
    if folder := os.environ.get("SCREENSHOTS"):
        driver = screen.driver
        frame = driver.get_window_size()["height"] - driver.execute_script("return window.innerHeight")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1280, min(height + frame, 3000))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))
        driver.set_window_size(1280, 1000)


def submit(screen: Screen, css: str):
    """Click the button or link `css` and wait until the browser has left the page: what is read
    next is the new page, never the old one nor one being taken down."""
    screen.driver.execute_script("window.leaving = true")  # a new page has no such mark
    screen.click(css)

    def arrived(driver) -> bool:
        try:
            return driver.execute_script("return window.leaving === undefined && document.readyState === 'complete'")
        except WebDriverException:  # asked while the old page was being taken down
            return False
    WebDriverWait(screen.driver, 30).until(arrived)


def as_user(screen: Screen, username: str):
    screen.driver.delete_all_cookies()
    screen.log_in(username)
