"""The dealer's screen in a real headless Chromium under the reading I-12 (docs/rules.md §9): a
10(a)(5) pay-all for a broken chow, chosen on the screen. The browser, the live server and the
`Screen` helper are those of tests/browser/test_pit.py."""
from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from casino.pit.models import Jogo
from tests.browser.screen import seat_players
from tests.builders.pit import staff

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def test_i12_a_dealer_records_a_10a5_pay_all_for_a_broken_chow(screen):
    _, t1, _ = staff()
    screen.log_in("dealer")
    seat_players(screen, t1.pk)  # East Ana 5000, South Bruno 3000, West Carla 2000, North Duarte 4000

    # South wins 444m 678p 234s 99s with 777p exposed, on West's 4m: a chicken hand.
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.type("concealed", "44m678p234s99s")
    screen.type("winning_tile", "4m")
    screen.choose("meld_kind_0", "pong")
    screen.type("meld_tiles_0", "777p")
    screen.choose("declared_fan", "0")
    screen.choose("pay_all_seat", "W")
    screen.choose("pay_all_article", "10(a)(5)")
    # A broken pong (the default) cannot be: West's three 4m and South's three make six.
    screen.wait_for_preview(".problems", "broke a concealed triplet of 4m")
    assert "Art. 10(a)(5)" in screen.text("#preview .problems")

    # West broke a concealed chow (I-12): he pays every due, 25 + 25 + 50 = 100 (I-9).
    screen.choose("pay_all_broken_set", "chow")
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")
    assert screen.text("#preview table.payments") == "West · C**** → South · B**** 100"  # names masked: a dealer
    screen.click('button[value="save"]')
    screen.wait_for(".receipt", "Jogo 1 recorded")

    assert [e.text for e in screen.driver.find_elements(By.CSS_SELECTOR, ".receipt .capital-after")] == \
        ["5000", "3090", "1900", "4000"]
    assert Jogo.objects.get(table=t1).record["pay_all"]["broken_set"] == "chow"
