"""Corrections (maker/checker) end to end in headless Chromium: a supervisor proposes a
correction from the receipt in the dealer's own form, sees the recorded and the corrected
outcome side by side with the later jogos carried; a second person finds it in the pending
corrections (counted in the top bar) and approves it, or rejects it with a reason; refusals
appear as plain messages in the page's language.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/correction.png and
pending-corrections.png.
"""
from __future__ import annotations

import datetime as dt

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from casino.pit import selectors, services
from casino.pit.models import Amendment, Jogo
from casino.pit.services import close_day
from tests.browser.screen import Screen
from tests.builders.pit import CAPITAL, DRAW, NOON, next_record, on_rotation, staff

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


@pytest.fixture
def played():
    """Three jogos at T1: Bruno (South) wins on Carla's (West) discard, a draw, then Bruno, now
    banker, self-draws a red dragon pong."""
    people, t1, t2 = staff()
    on_rotation(t1, people["dealer"])
    seated = zip(["Ana", "Bruno", "Carla", "Duarte"], CAPITAL)
    game = services.start_game(table=t1, user=people["dealer"], witness=people["supervisor"], first_banker=0, at=NOON,
                               players=[{"chair": chair, "name": name, "capital": amount}
                                        for chair, (name, amount) in enumerate(seated)])
    rows = [services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **fields), at=NOON)[0]
            for fields in ({}, DRAW, {"winner": "E", "discarder": None, "declared_fan": 1,
                                      "hand": {"concealed": "345m678p234s99m77z", "winning_tile": "7z"}})]
    return people, t1, game, rows


def switch_to(screen: Screen, username: str):
    screen.driver.delete_all_cookies()
    screen.log_in(username)


def texts(screen: Screen, css: str) -> list[str]:
    return [element.text for element in screen.driver.find_elements(By.CSS_SELECTOR, css)]


def test_a_supervisor_proposes_a_correction_and_another_approves_it(screen, played):
    people, t1, game, (first, draw, third) = played
    screen.log_in("supervisor")
    screen.open(f"/pit/jogos/{first.pk}/")
    screen.click(".correction-link a")
    screen.wait_for("h1", "Correct jogo 1, table T1")
    # The dealer's form, filled with the jogo as recorded.
    assert Select(screen.find('select[name="winner"]')).first_selected_option.get_attribute("value") == "S"
    assert screen.find('[name="concealed"]').get_attribute("value") == "345m678p234s99m11p"
    # It was Carla (West) who won, on Duarte's (North) discard.
    screen.choose("winner", "W")
    screen.choose("discarder", "N")
    screen.wait_for_preview("table.compare td.corrected", "West · Carla")
    assert "South · Bruno" in screen.text("table.compare td.recorded")
    assert "Duarte" in screen.text("table.compare tr.payments td.corrected")
    capital = {row.find_element(By.TAG_NAME, "th").text: [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
               for row in screen.driver.find_elements(By.CSS_SELECTOR, "table.capital tbody tr")}
    assert capital["South · Bruno"] == ["3090", "2975"] and capital["West · Carla"] == ["1975", "2090"]
    assert [row.get_attribute("data-jogo") for row in screen.driver.find_elements(
        By.CSS_SELECTOR, "table.carried tbody tr")] == ["2", "3"]
    screen.type("reason", "Winner keyed wrongly; camera review 12:05")
    screen.shot("correction")
    screen.click('button[value="propose"]')
    screen.wait_for(".messages", "Correction proposed")
    assert "a second person must approve or reject it" in screen.text(".own")
    assert "Corrections" in screen.text("header.top nav") and not texts(screen, "header.top .count")

    switch_to(screen, "supervisor2")
    assert screen.text("header.top .count") == "1"
    screen.click("header.top a.corrections-nav")
    screen.wait_for("h1", "Pending corrections")
    pending = screen.text("section.pending")
    assert "supervisor" in screen.text(".proposed-by") and "camera review 12:05" in pending
    assert "Winner: South · Bruno → West · Carla" in pending
    screen.shot("pending-corrections")
    screen.click("section.pending a[href$='/']")
    screen.wait_for("h1", "Correction of jogo 1")
    screen.type("reason", "The camera confirms it")
    screen.click('button[value="approve"]')
    screen.wait_for("h1", "Approve the correction of jogo 1")  # it asks first
    screen.click("form.confirm button")
    screen.wait_for(".messages", "Correction approved")
    assert texts(screen, ".answer li") == ["Jogo 1, revision 1 (amended)", "Jogo 2, revision 1 (capital carried)",
                                           "Jogo 3, revision 1 (capital carried)"]
    assert "The camera confirms it" in screen.text(".state")
    assert not texts(screen, "header.top .count")
    current = {row.number: row for row in selectors.current_jogos(game)}
    assert [current[n].kind for n in (1, 2, 3)] == [Jogo.AMENDED, Jogo.CARRIED, Jogo.CARRIED]
    # The new revision's receipt, from the answer.
    screen.click(".answer li.new-revision a")
    screen.wait_for(".receipt", "Jogo 1 recorded")
    assert "West · Carla" in screen.text(".receipt table.payments")


def test_a_manager_rejects_a_correction_with_a_reason(screen, played):
    people, t1, game, (first, *_) = played
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], reason="North discarded, not West",
                                          record={**first.record, "discarder": "N"})
    screen.log_in("manager")
    assert screen.text("header.top .count") == "1"
    screen.open(f"/pit/corrections/{amendment.pk}/")
    screen.click('button[value="reject"]')  # without a reason
    screen.wait_for(".problems", "A rejection states its reason.")
    assert Amendment.objects.get().state == Amendment.PENDING
    screen.type("reason", "The camera shows West discarding")
    screen.click('button[value="reject"]')
    screen.wait_for("h1", "Reject the correction of jogo 1")  # it asks first
    screen.click("form.confirm button")
    screen.wait_for(".messages", "Correction rejected")
    assert "Rejected" in screen.text(".state") and "The camera shows West discarding" in screen.text(".state")
    assert not texts(screen, ".answer") and not texts(screen, "header.top .count")
    assert Jogo.objects.filter(number=1).count() == 1


def test_refusals_appear_as_plain_messages_in_the_pages_language(screen, played):
    people, t1, game, (first, *_) = played
    screen.log_in("supervisor")
    screen.open(f"/pit/jogos/{first.pk}/correction")
    Select(screen.find("#language")).select_by_value("pt")
    screen.wait_for("h1", "Rectificar o jogo 1")
    # A change, then back to what was recorded: the preview says it is the same jogo.
    screen.choose("discarder", "N")
    screen.wait_for_preview("table.compare td.corrected", "Norte")
    screen.choose("discarder", "W")
    screen.wait_for_preview(".problems", "idêntica ao jogo 1")
    screen.type("reason", "nada")
    screen.click('button[value="propose"]')
    screen.wait_for("#preview .problems", "idêntica ao jogo 1 tal como foi registado")
    assert not Amendment.objects.exists()
    # His own correction, proposed through the service: he is told a second person decides.
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], reason="r", record={**first.record,
                                                                                          "discarder": "N"})
    Select(screen.find("#language")).select_by_value("zh-hant")
    screen.wait_for("header.top nav", "牌桌")
    screen.open(f"/pit/corrections/{amendment.pk}/")
    screen.wait_for(".own", "須由另一人批准或駁回")
    assert not texts(screen, ".decision")


def test_a_closed_gaming_day_is_refused_on_screen(screen, played):
    people, t1, game, (first, *_) = played
    close_day(casino=t1.casino, day=first.gaming_day, user=people["manager"], override_reason="box counted later",
              at=NOON + dt.timedelta(days=1))
    screen.log_in("supervisor")
    screen.open(f"/pit/jogos/{first.pk}/correction")
    screen.choose("discarder", "N")
    screen.wait_for_preview(".problems", "The gaming day 2026-11-21 is closed")
    assert "This correction cannot be proposed" in screen.text("#preview .verdict")


def test_negative_capital_is_refused_on_screen(screen):
    people, t1, t2 = staff()
    on_rotation(t1, people["dealer"])
    seated = zip(["Ana", "Bruno", "Carla", "Duarte"], [5000, 100, 2000, 4000])
    game = services.start_game(table=t1, user=people["dealer"], witness=people["supervisor"], first_banker=0, at=NOON,
                               players=[{"chair": chair, "name": name, "capital": amount}
                                        for chair, (name, amount) in enumerate(seated)])
    first, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game),
                                    at=NOON)  # Bruno: 100 → 190
    services.move_money(game=game, user=people["dealer"], chair=1, kind="cash_out", amount=190)
    services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, **DRAW), at=NOON)
    screen.log_in("supervisor")
    screen.open(f"/pit/jogos/{first.pk}/correction")
    Select(screen.find("#language")).select_by_value("zh-hant")
    screen.wait_for("header.top nav", "牌桌")
    screen.click('input[name="result"][value="draw"]')  # had it been a draw, Bruno cashed out 190 of 100
    screen.wait_for_preview(".problems", "第 2 局前之本錢將為負數")
    assert not Amendment.objects.exists()
