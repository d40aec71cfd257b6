"""The defects of the first tour (issue 14 §5) in a real headless Chromium: after a refused save
the invalid field is marked and focused and switching the language lands on the table's page;
the dealer's table and the explained jogo read in Chinese and Portuguese.

Set SCREENSHOTS=docs/screenshots to save docs/screenshots/table-zh-hant.png and audit-jogo-pt.png.
"""
from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.ui import WebDriverWait

from casino.pit import services
from casino.pit.demo import FALSE_WIN, PAY_ALL
from tests.browser.screen import Screen
from tests.builders.audit import record_next
from tests.builders.pit import DRAW, NOON, on_rotation, seat, staff

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("flush_ledger_afterwards")]


def switch_language(screen: Screen, language: str):
    """Choose `language` in the header's menu and wait for the page it lands on to speak it."""
    Select(screen.find("#language")).select_by_value(language)
    WebDriverWait(screen.driver, 30).until(
        lambda driver: driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language)


def test_a_refused_save_marks_and_focuses_the_field_and_the_language_switch_lands_on_the_table(screen):
    people, t1, _ = staff()
    seat(t1, people["dealer"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.type("concealed", "345m678p234s99m11x")
    screen.type("winning_tile", "1p")
    screen.click('button[value="save"]')
    screen.wait_for("#id_concealed_error", "is not part of the tile notation")

    assert screen.driver.current_url.endswith(f"/pit/tables/{t1.pk}/jogo")
    focused = screen.driver.switch_to.active_element
    assert focused.get_attribute("name") == "concealed" and focused.get_attribute("aria-invalid") == "true"
    assert screen.find('[name="winning_tile"]').get_attribute("aria-invalid") is None
    assert "Concealed tiles: 'x' is not part of the tile notation" in screen.text("#preview .problems")
    assert "hand.concealed" not in screen.driver.page_source

    switch_language(screen, "pt")
    screen.wait_for(".jogo-form h2", "Registar o jogo")
    assert screen.driver.current_url.endswith(f"/pit/tables/{t1.pk}/")
    assert "405" not in screen.driver.title


def test_the_live_preview_marks_the_field_in_question_and_unmarks_it_once_put_right(screen):
    people, t1, _ = staff()
    seat(t1, people["dealer"])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.type("winning_tile", "1p")
    screen.type("concealed", "345m678p234s99m11x")
    screen.wait_for_preview(".problems", "Concealed tiles: 'x' is not part of the tile notation")
    assert screen.find('[name="concealed"]').get_attribute("aria-invalid") == "true"
    assert screen.find('[name="winning_tile"]').get_attribute("aria-invalid") is None

    screen.type("concealed", "345m678p234s99m11p")
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")
    assert screen.find('[name="concealed"]').get_attribute("aria-invalid") is None


def test_the_dealers_table_in_chinese_with_a_jogo_entered(screen):
    people, t1, _ = staff()
    on_rotation(t1, people["dealer"], NOON)
    seated = [("陳大文", 5000), ("李小玲", 3000), ("黃志明", 2000), ("何美儀", 4000)]
    services.start_game(table=t1, user=people["dealer"], witness=people["supervisor"], first_banker=0, at=NOON,
                        players=[{"chair": chair, "name": name, "capital": amount}
                                 for chair, (name, amount) in enumerate(seated)])
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    switch_language(screen, "zh-hant")
    screen.wait_for(".jogo-form h2", "記錄此局")
    # South wins on West's discard with an exposed pong of red dragons: one dragon set, 1 fán.
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.pick("concealed", "2m 3m 4m 6p 7p 8p 9p 9p 9p 5s")
    screen.type("winning_tile", "5s")
    screen.choose("meld_kind_0", "pong")
    screen.pick("meld_tiles_0", "7z 7z 7z")
    screen.choose("declared_fan", "1")
    screen.wait_for_preview(".verdict.good", "符合第135/91/M號訓令")
    preview = screen.text("#preview")
    assert "第六條(甲)(2)" in preview and "Art." not in preview
    assert "限紅 25/50 （第八條）" in screen.text(".table-head")
    screen.shot("table-zh-hant")


def test_the_explained_jogo_in_portuguese(screen):
    people, t1, _ = staff()
    on_rotation(t1, people["dealer"], NOON)
    seated = zip(["Ana Sousa", "Bruno Lei", "Carla Ho", "Duarte Chan"], [5000, 3000, 2000, 4000])
    game = services.start_game(table=t1, user=people["dealer"], witness=people["supervisor"], first_banker=0, at=NOON,
                               players=[{"chair": chair, "name": name, "capital": amount}
                                        for chair, (name, amount) in enumerate(seated)])
    # tests/builders/audit.py's varied day: a win, a draw, a false win, then South's win with West paying for all.
    rows = [record_next(game, people["dealer"], **fields)
            for fields in ({}, DRAW, {**FALSE_WIN, "winner": None, "discarder": None, "hand": None}, PAY_ALL)]
    screen.log_in("inspector")
    screen.open(f"/audit/jogos/{rows[3].pk}/")
    screen.wait_for("h1", "Jogo 4 at table T1")
    switch_language(screen, "pt")
    screen.wait_for("h1", "Jogo 4 na mesa T1")
    assert screen.driver.current_url.endswith(f"/audit/jogos/{rows[3].pk}/")
    facts = screen.text("#facts + dl")
    assert "Mah-Jong convencional" in facts and "jogo ganho" in facts and "roda Este" in facts
    # Jogo 4: South won jogo 1, so the bank had passed to the second chair, now East.
    assert "Cadeira do banqueiro, vento da roda\n2, roda Este" in facts
    chairs = [row.text.split()[:2] for row in screen.driver.find_elements(By.CSS_SELECTOR, "#money ~ table tbody tr")]
    assert chairs == [["Este", "2"], ["Sul", "3"], ["Oeste", "4"], ["Norte", "1"]]
    assert "Art. 10.º(a)(1)" not in screen.text("#grade ~ table")  # the grade cites Art. 6.º
    screen.shot("audit-jogo-pt")
