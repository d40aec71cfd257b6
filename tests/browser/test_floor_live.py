"""The live floor, /floor/, end to end in headless Chromium against the site served through ASGI
(conftest.py's `asgi_server`): forty tables on a wall screen without scrolling, a card that changes
by itself when a jogo is recorded, and the notice and the refreshing when the socket drops.

Set SCREENSHOTS=docs/screenshots to save floor-en.png, floor-pt.png and floor-zh-hant.png
(1920×1080) there.
"""
from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from casino.count import services as count_services
from casino.pit import services
from casino.pit.models import Table
from tests.browser.screen import Screen
from tests.builders.pit import on_rotation, record_next, seat, table, witness_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("flush_ledger_afterwards")]

MINUTE = dt.timedelta(minutes=1)
NAMES = ["Ana", "Bruno", "Carla", "Duarte", "Elisa", "Fong", "Guo", "Hélio"]


@pytest.fixture
def floor(browser, asgi_server) -> Screen:
    screen = Screen(browser, asgi_server)
    yield screen
    browser.set_window_size(1280, 1000)


def until(screen: Screen, check, timeout: float = 30):
    WebDriverWait(screen.driver, timeout, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda driver: check())


def card_text(screen: Screen, table_id: int, slot: str) -> str:
    return screen.find(f'.card[data-table="{table_id}"] [data-slot="{slot}"]').text


def live(screen: Screen) -> bool:
    return screen.find(".floor").get_attribute("data-live") == "yes"


def played(people, at) -> None:
    """T1 with a game of four seated and a jogo recorded, its dealer on the rotation."""
    staff, t1, _ = people
    record_next(seat(t1, staff["dealer"], at=at), staff["dealer"], at=at + MINUTE)


PLAYERS = ["Chan Tai Man", "Wong Siu Ming", "Ana Lopes", "Lei Ka Wai", "Rui Sousa", "Ho Mei Ling", "Carla Reis",
           "Leong Chi Kin", "Au Wing Sze", "Duarte Lima", "Cheang Hoi", "Sofia Pires"]


def a_full_floor(people) -> None:
    """Forty tables in five areas, as a wall screen shows a busy evening: a game at every third,
    its players named and its dealer on the rotation with a supervisor, four tables closed, and a
    flag and a pending correction at T3."""
    staff, t1, t2 = people
    now = timezone.now() - 40 * MINUTE
    Table.objects.filter(pk__in=[t1.pk, t2.pk]).update(area="Pit A")
    dealers = [User.objects.create_user(f"dealer{n}", first_name=NAMES[n % 8], last_name="Lei",
                                        password="correct horse battery") for n in range(8)]
    for person in dealers:
        person.groups.add(*staff["dealer"].groups.all())
    for n in range(3, 41):
        made = table(f"T{n}", stake=(25, 50, 100)[n % 3], staff=[dealers[n % 8]])
        Table.objects.filter(pk=made.pk).update(area=f"Pit {'ABCDE'[n % 5]}")
        if n % 3 == 0:
            on_rotation(made, dealers[n % 8], now)
            game = services.start_game(table=made, user=dealers[n % 8], first_banker=0, at=now, players=[
                {"chair": c, "name": PLAYERS[(n + c) % len(PLAYERS)], "capital": 2000 + 500 * c} for c in range(4)],
                witness=witness_of(made))
            jogo = record_next(game, dealers[n % 8], at=now + MINUTE)
            count_services.rotation_start(table=made, person=staff["supervisor"], duty="supervisor",
                                          starts_at=now, user=staff["supervisor"], at=now)
            if n == 3:
                services.flag(jogo=jogo, user=staff["inspector"], note="The discard", at=now + 2 * MINUTE)
                services.propose_amendment(jogo=jogo, user=staff["supervisor"], reason="The discard was North's",
                                           record={**jogo.record, "discarder": "N"}, at=now + 3 * MINUTE)
        elif n % 10 == 4:
            services.close_table(table=made, at=now)
    played(people, now)


def screen_of(screen: Screen, width: int, height: int) -> None:
    """Make the page's own area (the window less the browser's frame) `width`×`height`, as a wall
    screen or a tablet shows a page full screen."""
    screen.driver.set_window_size(width, height)
    inner = screen.driver.execute_script("return [window.innerWidth, window.innerHeight]")
    screen.driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def shot(screen: Screen, name: str):
    if folder := os.environ.get("SCREENSHOTS"):
        screen.driver.save_screenshot(str(Path(folder) / f"{name}.png"))


def test_forty_tables_fit_a_wall_screen_without_scrolling_in_each_language(floor, people):
    a_full_floor(people)
    screen_of(floor, 1920, 1080)
    floor.log_in("manager")
    floor.open("/floor/")
    until(floor, lambda: live(floor))
    t1 = people[1]
    floor.wait_for(f'.card[data-table="{t1.pk}"] [data-slot="game"]', "next jogo 2")

    assert len(floor.driver.find_elements(By.CSS_SELECTOR, ".card")) == 40
    height, room = floor.driver.execute_script(
        "return [document.scrollingElement.scrollHeight, window.innerHeight]")
    assert height <= room, f"the floor is {height}px tall in a window of {room}px"
    shot(floor, "floor-en")

    for language, name, words in (("pt", "floor-pt", "próximo jogo 2"), ("zh-hant", "floor-zh-hant", "第 2 局")):
        Select(floor.find("#language")).select_by_value(language)
        floor.wait_for(f'.card[data-table="{t1.pk}"] [data-slot="game"]', words)
        until(floor, lambda: live(floor))
        height, room = floor.driver.execute_script(
            "return [document.scrollingElement.scrollHeight, window.innerHeight]")
        assert height <= room, f"in {language} the floor is {height}px tall in a window of {room}px"
        shot(floor, name)


def test_a_tablet_shows_the_cards_three_across(floor, people):
    screen_of(floor, 768, 1024)
    floor.log_in("manager")
    floor.open("/floor/")
    until(floor, lambda: live(floor))
    width = floor.driver.execute_script("return [document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
    columns = floor.driver.execute_script(
        "return getComputedStyle(document.querySelector('ol.cards')).gridTemplateColumns.split(' ').length")
    assert columns == 3


def test_the_floor_changes_by_itself_when_a_jogo_is_recorded(floor, asgi_server, people):
    staff, t1, _ = people
    now = timezone.now() - 10 * MINUTE
    game = seat(t1, staff["dealer"], at=now)
    floor.log_in("supervisor")
    floor.open("/floor/")
    until(floor, lambda: live(floor))
    floor.wait_for(f'.card[data-table="{t1.pk}"] [data-slot="game"]', "next jogo 1")
    floor.driver.execute_script("window.notReloaded = true")

    asgi_server.call(lambda: record_next(game, staff["dealer"], at=now + MINUTE))

    floor.wait_for(f'.card[data-table="{t1.pk}"] [data-slot="game"]', "next jogo 2")
    t1.refresh_from_db()
    capitals = [element.text for element in
                floor.driver.find_elements(By.CSS_SELECTOR, f'.card[data-table="{t1.pk}"] .seats .capital')]
    assert capitals == [f"{amount:,}" for amount in t1.game_capital]
    assert "jogos 1" in card_text(floor, t1.pk, "when")
    assert floor.driver.execute_script("return window.notReloaded === true")


@pytest.mark.money_rules
def test_a_seat_below_the_minimum_says_by_how_much_on_its_card(floor, people):
    """C-1's default at 25/50 is 600: West (chair 3) pays 25 of his 600 and lacks 25."""
    staff, t1, _ = people
    now = timezone.now() - 10 * MINUTE
    record_next(seat(t1, staff["dealer"], capital=[5000, 3000, 600, 4000], at=now), staff["dealer"],
                at=now + MINUTE)
    floor.log_in("manager")
    floor.open("/floor/")
    seat_css = f'.card[data-table="{t1.pk}"] .seats li.short'

    def says_it() -> bool:  # the card is drawn again as the socket's messages come: read one drawing whole
        short = floor.find(seat_css)
        return ("25 below the minimum" in short.text and "575" in short.text
                and "600" in (short.get_attribute("title") or ""))

    until(floor, says_it)


def test_when_the_socket_drops_the_floor_says_so_and_refreshes_from_the_server_until_it_is_back(
        floor, asgi_server, people):
    staff, t1, _ = people
    now = timezone.now() - 10 * MINUTE
    game = seat(t1, staff["dealer"], at=now)
    floor.log_in("manager")
    floor.open("/floor/")
    until(floor, lambda: live(floor))
    assert not floor.find(".floor-state .live-mark").get_attribute("hidden")

    asgi_server.drop_sockets()
    floor.wait_for(".floor-state .dropped", "The live connection dropped")
    assert floor.find(".floor-state .live-mark").get_attribute("hidden")

    # Nobody's socket hears this: the page finds it by asking for the cards.
    asgi_server.call(lambda: record_next(game, staff["dealer"], at=now + MINUTE))
    floor.wait_for(f'.card[data-table="{t1.pk}"] [data-slot="game"]', "next jogo 2")
    assert not live(floor)

    asgi_server.let_sockets_in()
    until(floor, lambda: live(floor))
    assert floor.find(".floor-state .dropped").get_attribute("hidden")

