"""Money at the table in a real browser (docs/rules.md §11, casino rules C-1 and C-2): a seat
topped up after it fell below the minimum capital, and a player identified at the
large-transaction threshold of DICJ Instruction n.º 1/2016. Both under the money rules the
project ships (a conventional 25/50 table: minimum 600 with four players; threshold 500,000).

Each wait waits for the exact state it asserts, never for text an earlier state also shows.
"""
from __future__ import annotations

import pytest
from django.utils import timezone
from selenium.webdriver.common.by import By

from casino.pit.models import Jogo, Movement, MovementRefusal
from tests.browser.screen import Screen, as_user, names_looked_up, submit
from tests.builders.pit import seat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("flush_ledger_afterwards"),
              pytest.mark.money_rules]

PASSWORD = "correct horse battery"


def chicken_hand(screen: Screen):
    """South wins a chicken hand (0 fán) on West's discard: East, the banker, pays 50 (Art. 7)."""
    screen.choose("winner", "S")
    screen.choose("discarder", "W")
    screen.type("concealed", "345m678p234s99m11p")
    screen.type("winning_tile", "1p")
    screen.choose("declared_fan", "0")


def test_a_seat_below_the_minimum_is_topped_up_before_the_next_jogo(screen, people):
    """The dealer seats chair 1 at exactly the minimum of 600 (the supervisor confirming with his
    password) and the others at 10,000; chair 1, the banker, pays 50 for a chicken hand and holds
    550, 50 short. The next jogo is refused until the supervisor records a buy-in of 50."""
    _, t1, _ = people
    screen.log_in("dealer")
    screen.open(f"/pit/tables/{t1.pk}/")
    assert "at least 600 and at most 10000000" in screen.text("#capital-limits")
    for chair, (name, amount) in enumerate([("Ana", 600), ("Bruno", 10000), ("Carla", 10000), ("Duarte", 10000)]):
        screen.type(f"name_{chair}", name)
        screen.type(f"capital_{chair}", str(amount))
    screen.choose("first_banker", "0")
    screen.type("witness", "supervisor")
    screen.type("witness_password", PASSWORD)
    names_looked_up(screen)
    screen.shot("seat-with-a-witness")
    submit(screen, ".seat-form button[type=submit]")
    screen.wait_for("#state-title", "Next jogo: East round")

    chicken_hand(screen)
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")
    submit(screen, 'button[value="save"]')
    screen.wait_for(".receipt h2", "Jogo 1 recorded")
    assert screen.text(".short-seats li") == "Chair 1 holds 550: 50 short of the minimum of 600."
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".short-seats a.top-up")  # a dealer moves no money
    screen.shot("seat-below-the-minimum")

    # The next jogo is refused, naming the chair and what it lacks: in the preview, then on saving.
    chicken_hand(screen)
    screen.wait_for_preview('.problems li[data-code="capital_below_minimum"]', "chair 1 holds 550, 50 short")
    submit(screen, 'button[value="save"]')
    screen.wait_for('#preview .problems li[data-code="capital_below_minimum"]', "chair 1 holds 550, 50 short")
    assert Jogo.objects.filter(table=t1).count() == 1

    # The supervisor records the buy-in from the table's notice.
    as_user(screen, "supervisor")
    screen.open(f"/pit/tables/{t1.pk}/")
    submit(screen, ".short-seats a.top-up")
    screen.wait_for("h1", "Buy-in and cash-out")
    screen.choose("chair", "0")
    screen.type("amount", "50")
    submit(screen, ".money-form button[type=submit]")
    screen.wait_for(".movement-receipt h2", "Buy-in of 50 recorded for chair 1")

    screen.open(f"/pit/tables/{t1.pk}/")
    screen.wait_for("#state-title", "Next jogo: East round")
    assert not screen.driver.find_elements(By.CSS_SELECTOR, ".short-seats")
    chicken_hand(screen)
    screen.wait_for_preview(".verdict.good", "Valid under Portaria 135/91/M")
    submit(screen, 'button[value="save"]')
    screen.wait_for(".receipt h2", "Jogo 2 recorded")
    assert Jogo.objects.filter(table=t1).count() == 2


def test_a_buy_in_at_the_threshold_waits_for_the_player_to_be_identified(screen, people):
    """Chair 2 was seated with 3,000 today; a buy-in of 497,000 brings his day to 500,000, the
    threshold: refused, saying what is missing, until the supervisor identifies him."""
    staff_, t1, _ = people
    game = seat(t1, staff_["supervisor"], capital=[5000, 3000, 2000, 4000], at=timezone.now())
    screen.log_in("supervisor")
    screen.open(f"/pit/tables/{t1.pk}/money")
    screen.choose("chair", "1")
    screen.type("amount", "497000")
    submit(screen, ".money-form button[type=submit]")
    screen.wait_for('.problems li[data-code="identification_needed"]', "identify the player first")
    problem = screen.text('.problems li[data-code="identification_needed"]')
    assert "500000" in problem and "document number" in problem and "date of birth" in problem
    screen.shot("buy-in-identification-needed")
    assert MovementRefusal.objects.count() == 1 and Movement.objects.filter(amount=497000).count() == 0

    submit(screen, "a.identify-player")
    screen.wait_for("h1", "Identify a player")
    screen.choose("document_type", "passport")
    screen.type("document_number", "K1234567")
    screen.choose("document_country", "PT")
    screen.choose("nationality", "PT")
    born = screen.find('[name="date_of_birth"]')
    screen.driver.execute_script("arguments[0].value = '1970-05-04'", born)
    submit(screen, ".identify-form button[type=submit]")

    # Back on the money page, the buy-in typed again in the form: the supervisor records it.
    screen.wait_for("h1", "Buy-in and cash-out")
    assert screen.find('[name="amount"]').get_attribute("value") == "497000"
    assert screen.text('.day-totals tr[data-chair="2"] .identification') == "identified"
    submit(screen, ".money-form button[type=submit]")
    screen.wait_for(".movement-receipt h2", "Buy-in of 497000 recorded for chair 2")
    assert "500000 / 500000" in screen.text('.day-totals tr[data-chair="2"] .buy-in')
    assert game.movements.filter(amount=497000, patron__document_number="K1234567").count() == 1


def test_the_seating_form_picks_a_player_of_the_casino_by_his_name(screen, people):
    """The supervisor types "Lei" in chair 1: the casino's players whose name holds it are listed,
    he picks Ana Lei, and she is seated as that player, not as a new one; the other names make
    new players."""
    staff_, t1, _ = people
    from casino.pit.models import Game, Patron

    known = Patron.objects.create(casino=t1.casino, name="Ana Lei", created_at=timezone.now(),
                                  created_by=staff_["supervisor"], changed_at=timezone.now(),
                                  changed_by=staff_["supervisor"])
    screen.log_in("supervisor")
    screen.open(f"/pit/tables/{t1.pk}/")
    screen.type("name_0", "Lei")
    screen.wait_for('[data-player-matches="0"] button', "Ana Lei")
    screen.click(f'[data-player-matches="0"] button[data-patron="{known.pk}"]')
    assert screen.find('[name="patron_0"]').get_attribute("value") == str(known.pk)
    assert screen.find('[data-player-known="0"]').is_displayed()
    for chair, name in ((1, "Bruno"), (2, "Carla"), (3, "Duarte")):
        screen.type(f"name_{chair}", name)
    for chair in range(4):
        screen.type(f"capital_{chair}", "5000")
    names_looked_up(screen)
    submit(screen, ".seat-form button[type=submit]")
    screen.wait_for("#state-title", "Next jogo: East round")
    seated = {player.chair: player.patron_id for player in Game.objects.get(table=t1).players.all()}
    assert seated[0] == known.pk and Patron.objects.count() == 4
