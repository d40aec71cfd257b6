"""The dealer's table screen end to end, in a real headless Chromium (Debian's chromium and
chromium-driver, installed by scripts/bootstrap) driven by Selenium against a live server.

Set SCREENSHOTS=docs/screenshots to save the main screens there as PNG files for the docs.
"""
from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from casino.pit.models import Jogo
from tests.browser.screen import seat_players

# The live server reads what the test writes, so the test's writes are committed; on PostgreSQL
# the clean-up afterwards needs the ledger's triggers off (conftest.py).
pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def test_a_dealer_seats_a_game_and_records_a_win_with_melds_a_draw_and_a_false_win(screen, people):
    _, t1, _ = people
    screen.log_in("dealer")
    assert "T1" in screen.text("table.tables") and "T2" not in screen.text("table.tables")
    seat_players(screen, t1.pk)
    # The dealer reads the players' names masked (casino/pit/privacy.py): Ana is "A**".
    assert "A**" in screen.text("tr.banker") and "4000" in screen.text("table.seats")

    # South (Bruno) wins on West's (Carla's) discard: 234m 678p 55s with an exposed pong of red
    # dragons and a concealed kong of 1s. One dragon set: 1 fán (Art. 6(a)(2)); share 2 × 25 = 50.
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.pick("concealed", "2m 3m 4m 6p 7p 8p 5s")
    screen.type("winning_tile", "5s")
    screen.choose("meld_kind_0", "pong")
    screen.pick("meld_tiles_0", "7z 7z 7z")
    screen.choose("meld_kind_1", "concealed_kong")
    screen.type("meld_tiles_1", "1111s")
    screen.choose("declared_fan", "1")
    assert screen.find('[name="concealed"]').get_attribute("value") == "234m678p5s"
    # The live preview, before saving: the reading, the item with its article, who pays whom.
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")
    preview = screen.text("#preview")
    assert "Art. 6(a)(2)" in preview and "1 fán" in preview
    # East (banker) pays double, 100; West and North 50 each; commission 10 at 25/50 (Art. 8).
    payments = screen.text("#preview table.payments")
    assert "East · A**" in payments and "100" in payments and payments.count("50") >= 2
    assert screen.text("#preview .commission") == "10"
    screen.shot("record-a-jogo-preview")
    screen.click('button[value="save"]')
    screen.wait_for(".receipt", "Jogo 1 recorded")
    receipt = screen.text(".receipt")
    # Capital after: Ana 5000-100, Bruno 3000+200-10, Carla 2000-50, Duarte 4000-50.
    assert [e.text for e in screen.driver.find_elements(By.CSS_SELECTOR, ".receipt .capital-after")] == \
        ["4900", "3190", "1950", "3950"]
    assert "commission 10" in receipt
    screen.shot("receipt")
    # Art. 3: South won, so the bank passed to Bruno; still the East round.
    assert "B****" in screen.text("tr.banker")

    # A draw: nobody pays, the bank stays (I-1).
    screen.click('input[name="result"][value="draw"]')
    screen.wait_for_preview(".verdict.good", "Draw")
    screen.click('button[value="save"]')
    screen.wait_for(".receipt", "Jogo 2 recorded")
    assert "B****" in screen.text("tr.banker")

    # A false win by Duarte (now West, a non-banker): 4X = 100 to the banker, 2X = 50 to each
    # other player (Art. 10(a)(7)-(8), I-10); no commission, the bank stays.
    screen.click('input[name="result"][value="false_win"]')
    screen.choose("false_win_seat", "W")
    screen.wait_for_preview("table.payments", "West · D*****")
    screen.click('button[value="save"]')
    screen.wait_for(".receipt", "Jogo 3 recorded")
    assert [e.text for e in screen.driver.find_elements(By.CSS_SELECTOR, ".receipt .capital-after")] == \
        ["3290", "2000", "3750", "4950"]
    assert "West · D***** → East · B**** 100" in screen.text(".receipt table.payments")
    assert "B****" in screen.text("tr.banker")
    assert Jogo.objects.filter(table=t1).count() == 3
    screen.shot("table")


def test_the_preview_shows_every_error_with_its_article_and_a_misdeclared_grade(screen, people):
    _, t1, _ = people
    screen.log_in("dealer")
    seat_players(screen, t1.pk)
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.type("concealed", "2345m678p55s99p")
    screen.type("winning_tile", "1p")
    # The earlier states (no winning tile yet) cannot be saved either: wait for this one's error.
    screen.wait_for_preview(".problems", "Art. 4(a)")
    assert "cannot be saved" in screen.text("#preview .verdict")
    # Now a chicken hand declared as 1 fán: valid, settled on 0 fán, the mismatch shown plainly.
    screen.type("concealed", "345m678p234s99m11p")
    screen.choose("declared_fan", "1")
    screen.wait_for_preview(".mismatch", "Declared grade differs")
    screen.click('button[value="save"]')
    screen.wait_for(".receipt", "flagged for inspection")
    assert Jogo.objects.get(table=t1).fan_mismatch


def test_a_dealer_cannot_open_another_dealers_table(screen, people):
    _, t1, t2 = people
    screen.log_in("other_dealer")
    assert "T1" not in screen.text("table.tables")
    screen.open(f"/pit/tables/{t1.pk}/")
    assert screen.text(".reason") == f"You are not assigned to table {t1.number}."
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".seat-form")


def test_switching_language_changes_the_labels(screen, people):
    _, t1, _ = people
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    assert screen.text(".seat-form h2") == "Seat a new game"
    Select(screen.find("#language")).select_by_value("pt")
    screen.wait_for(".seat-form h2", "Sentar")
    assert screen.find("html").get_attribute("lang") == "pt"
    Select(screen.find("#language")).select_by_value("zh-hant")
    screen.wait_for("header.top nav", "牌桌")
    screen.shot("seat-a-game-zh-hant")
    seat_players_zh = screen.text(".seat-form h2")
    assert seat_players_zh and all(ord(ch) > 0x2E80 for ch in seat_players_zh.replace(" ", ""))
