"""The dealer's live preview in a real headless Chromium while a false win is half filled (issue 23
§2): it says what is still to enter, in the page's language, and no developer's message. The
browser, the live server and the `Screen` helper are those of tests/browser/test_pit.py."""
from __future__ import annotations

import pytest
from django.conf import settings

from tests.browser.screen import seat_players
from tests.builders.pit import staff

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def test_art_10a7_a_half_filled_false_win_says_choose_the_offender_then_its_verdict(screen):
    _, t1, _ = staff()
    screen.log_in("dealer")
    seat_players(screen, t1.pk)
    screen.click('input[name="result"][value="false_win"]')
    screen.wait_for_preview(".missing", "choose the offender")
    panel = screen.text("#preview")
    assert "expected" not in panel and "JOGO-FORMAT" not in panel and "cannot be saved" not in panel
    # The bar that repeats the verdict on a narrow screen (hidden on this wide one) says so too.
    assert screen.find("#verdict-bar .verdict").get_attribute("textContent").strip() == "Not complete"

    screen.choose("false_win_seat", "W")
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")
    assert "choose the offender" not in screen.text("#preview")


def test_art_10_a_half_filled_pay_all_in_portuguese_asks_for_the_article(screen):
    _, t1, _ = staff()
    screen.log_in("dealer")
    seat_players(screen, t1.pk)
    screen.driver.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": "pt"})
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.type("concealed", "345m678p234s99m1p")
    screen.type("winning_tile", "1p")
    screen.choose("pay_all_seat", "W")
    screen.wait_for_preview(".missing", "escolha o artigo da obrigação de suportar a perda (包輸)")
    panel = screen.text("#preview")
    assert "expected" not in panel and "Artigo do 包輸" not in panel
