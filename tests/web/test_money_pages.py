"""Money at the table on the pit's pages (docs/rules.md §11, casino rules C-1 and C-2; DICJ
Instruction n.º 1/2016), through Django's test client: the seating form's limits, its refusals
beside their fields and the witnessing supervisor; the table screen's notice of a seat below the
minimum and of a capital below zero; the money page's whole patacas, its refusal for want of
identification and the way back from identifying the player; and names masked for a dealer.

Figures, worked by hand. A conventional 25/50 table (tests/builders/pit.py): C-1's default
minimum with four players is 600 (regulation/capital.py). A chicken hand (0 fán) is one share of
25 from each loser, double to or from the banker (Art. 7): seated at exactly 600 each, chair 1
the banker, South (chair 2) winning on West's (chair 3) discard, chair 1 pays 50 and holds 550,
50 short of 600; chairs 3 and 4 pay 25 each and hold 575, 25 short; chair 2 receives 100 less
the commission of 10 (Art. 8) and holds 690. The large-transaction threshold is 500,000
(LARGE_TRANSACTION_THRESHOLD).
"""
from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from casino.pit import selectors, services
from casino.pit.models import Game, Movement, MovementRefusal, Patron
from tests.builders.pit import NOON, next_record, on_rotation, seat, table

pytestmark = pytest.mark.django_db

MINIMUM = 600  # C-1's default at a conventional 25/50 table, four players
PASSWORD = "correct horse battery"  # every builder's user's (tests/builders/pit.py)


def as_(client, person):
    client.force_login(person)
    return client


def seating(capital=(MINIMUM,) * 4, names=("Ana", "Bruno", "Carla", "Duarte"), **more) -> dict:
    """The seating form as posted: a name and a capital per chair, chair 1 the first banker."""
    data = {"first_banker": "0"}
    for chair, (name, amount) in enumerate(zip(names, capital, strict=True)):
        data.update({f"name_{chair}": name, f"capital_{chair}": str(amount)})
    data.update(more)
    return data


def errors_of(page: str, field: str) -> str:
    """The error shown beside the seating form's `field`."""
    found = re.search(rf'id="id_{field}_error">([^<]*)<', page)
    return found.group(1) if found else ""


def short_after_a_chicken_hand(people):
    """T1 seated at exactly the minimum (600 each, chair 1 the banker) and a chicken hand by South
    on West's discard: chair 1 holds 550, chairs 3 and 4 575 each."""
    staff_, t1, _ = people
    game = seat(t1, staff_["supervisor"], capital=[MINIMUM] * 4)
    on_rotation(t1, staff_["dealer"])
    services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(game), at=NOON)
    assert selectors.standing(game).capital == [550, 690, 575, 575]
    return game


# --- Seating -------------------------------------------------------------------------------------

@pytest.mark.money_rules
def test_the_seating_form_shows_the_minimum_and_maximum_capital_of_the_table(client, people):
    staff_, t1, _ = people
    page = as_(client, staff_["supervisor"]).get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert "Casino rule C-1: each seat holds at least 600 and at most 10000000." in page


@pytest.mark.money_rules
def test_a_simplified_table_shows_its_minimum_for_two_three_and_four_players(client, people):
    """Simplified 100/200: 1200 with four players (regulation/capital.py); fewer losers, less."""
    staff_, _, _ = people
    small = table("S1", variant="simplified", stake=100, staff=[staff_["supervisor"]])
    page = as_(client, staff_["supervisor"]).get(reverse("pit:table", args=[small.pk])).content.decode()
    from casino.pit.capital import minimum_capital

    two, three = minimum_capital(small, 2), minimum_capital(small, 3)
    assert minimum_capital(small, 4) == 1200
    assert f"at least 1200 with 4 players, {three} with 3, {two} with 2." in page


@pytest.mark.money_rules
def test_a_capital_below_the_minimum_is_refused_beside_its_chair_and_nothing_is_written(client, people):
    staff_, t1, _ = people
    response = as_(client, staff_["supervisor"]).post(reverse("pit:seat", args=[t1.pk]),
                                                      seating(capital=(600, 600, 599, 600)))
    page = response.content.decode()
    assert response.status_code == 400
    assert "Casino rule C-1" in errors_of(page, "capital_2") and "600" in errors_of(page, "capital_2")
    assert errors_of(page, "capital_0") == "" and 'value="Carla"' in page
    assert not Game.objects.exists() and not Patron.objects.exists()


@pytest.mark.money_rules
def test_a_capital_above_the_seat_maximum_is_refused_beside_its_chair(client, people):
    staff_, t1, _ = people
    response = as_(client, staff_["supervisor"]).post(reverse("pit:seat", args=[t1.pk]),
                                                      seating(capital=(600, 10_000_001, 600, 600)))
    assert response.status_code == 400
    assert "10000000" in errors_of(response.content.decode(), "capital_1")
    assert not Game.objects.exists()


def test_a_capital_that_is_not_a_whole_number_of_patacas_is_refused_by_the_form(client, people):
    staff_, t1, _ = people
    response = as_(client, staff_["supervisor"]).post(reverse("pit:seat", args=[t1.pk]),
                                                      seating(capital=(600, "12.5", 600, 600)))
    assert response.status_code == 400
    assert "Enter a whole number of patacas." in errors_of(response.content.decode(), "capital_1")
    assert not Game.objects.exists()


def test_the_same_player_in_two_chairs_is_refused(client, people):
    staff_, t1, _ = people
    known = Patron.objects.create(casino=t1.casino, name="Ana", created_at=NOON, created_by=staff_["supervisor"],
                                  changed_at=NOON, changed_by=staff_["supervisor"])
    response = as_(client, staff_["supervisor"]).post(reverse("pit:seat", args=[t1.pk]),
                                                      seating(patron_0=known.pk, patron_2=known.pk))
    page = response.content.decode()
    assert response.status_code == 400
    assert 'data-code="duplicate_player"' in page and "Chairs 1 and 3 seat the same player" in page
    assert not Game.objects.exists()


def test_a_seat_with_a_capital_and_no_player_is_refused_beside_the_players_name(client, people):
    staff_, t1, _ = people
    response = as_(client, staff_["supervisor"]).post(reverse("pit:seat", args=[t1.pk]),
                                                      seating(names=("Ana", "", "Carla", "Duarte")))
    assert response.status_code == 400
    assert "write the player&#x27;s name" in errors_of(response.content.decode(), "name_1")
    assert not Game.objects.exists() and not Patron.objects.exists()


def test_a_player_picked_is_seated_and_a_name_not_picked_makes_a_new_player(client, people):
    staff_, t1, _ = people
    known = Patron.objects.create(casino=t1.casino, name="Ana Lei", created_at=NOON, created_by=staff_["supervisor"],
                                  changed_at=NOON, changed_by=staff_["supervisor"])
    response = as_(client, staff_["supervisor"]).post(reverse("pit:seat", args=[t1.pk]),
                                                      seating(capital=(5000, 3000, 2000, 4000), patron_0=known.pk))
    assert response.status_code == 302
    players = {player.chair: player.patron for player in Game.objects.get().players.select_related("patron")}
    assert players[0] == known
    assert [players[chair].name for chair in (1, 2, 3)] == ["Bruno", "Carla", "Duarte"]
    assert Patron.objects.count() == 4


def test_a_supervisor_seats_without_a_witness_and_records_the_seating_buy_ins(client, people):
    staff_, t1, _ = people
    page = as_(client, staff_["supervisor"]).get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert 'name="witness"' not in page
    assert client.post(reverse("pit:seat", args=[t1.pk]), seating()).status_code == 302
    assert {movement.recorded_by for movement in Movement.objects.all()} == {staff_["supervisor"]}


def test_a_dealers_seating_is_confirmed_by_the_witnessing_supervisors_password(client, people):
    staff_, t1, _ = people
    dealer = as_(client, staff_["dealer"])
    page = dealer.get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert "The supervisor who witnesses the cash confirms the seating" in page
    assert 'name="witness"' in page and 'type="password"' in page
    response = dealer.post(reverse("pit:seat", args=[t1.pk]),
                           seating(witness="supervisor", witness_password=PASSWORD))
    assert response.status_code == 302
    # The seating buy-ins are the witness's: the ledger names him, not the dealer.
    assert {movement.recorded_by for movement in Movement.objects.all()} == {staff_["supervisor"]}
    assert Game.objects.get().started_by == staff_["dealer"]


def test_a_wrong_witness_password_is_refused_beside_the_witness_and_nothing_is_written(client, people):
    staff_, t1, _ = people
    response = as_(client, staff_["dealer"]).post(reverse("pit:seat", args=[t1.pk]),
                                                  seating(witness="supervisor", witness_password="wrong"))
    page = response.content.decode()
    assert response.status_code == 400
    assert "The witness&#x27;s username or password is not right." in page
    assert 'value="wrong"' not in page  # a password is never sent back
    assert not Game.objects.exists() and not Patron.objects.exists()


def test_a_dealer_without_a_witness_is_refused_naming_the_witness(client, people):
    staff_, t1, _ = people
    response = as_(client, staff_["dealer"]).post(reverse("pit:seat", args=[t1.pk]), seating())
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_a_witness_who_is_no_supervisor_of_the_table_is_refused(client, people):
    """The other dealer knows his own password; he witnesses no cash, and not at T1."""
    staff_, t1, _ = people
    response = as_(client, staff_["dealer"]).post(reverse("pit:seat", args=[t1.pk]),
                                                  seating(witness="other_dealer", witness_password=PASSWORD))
    page = response.content.decode()
    assert response.status_code == 400
    assert "is not a supervisor assigned to table T1" in page
    assert not Game.objects.exists()


# --- The table screen ----------------------------------------------------------------------------

@pytest.mark.money_rules
def test_the_table_screen_says_which_seat_is_short_and_by_how_much(client, people):
    staff_, t1, _ = people
    short_after_a_chicken_hand(people)
    page = as_(client, staff_["supervisor"]).get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert "Chair 1 holds 550: 50 short of the minimum of 600." in page
    assert "Chair 3 holds 575: 25 short of the minimum of 600." in page
    assert "Chair 4 holds 575: 25 short of the minimum of 600." in page and "Chair 2 holds" not in page
    assert "A supervisor records a buy-in, or the game ends, before the next jogo" in page
    assert f'href="{reverse("pit:money", args=[t1.pk])}" class="top-up"' in page
    # The dealer reads the notice too, without the supervisor's link.
    page = as_(client, staff_["dealer"]).get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert "Chair 1 holds 550: 50 short of the minimum of 600." in page and 'class="top-up"' not in page


@pytest.mark.money_rules
def test_the_next_jogo_is_refused_naming_the_chair_until_the_buy_in_then_recorded(client, people):
    staff_, t1, _ = people
    game = short_after_a_chicken_hand(people)
    dealer = as_(client, staff_["dealer"])
    chicken = {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11p",
               "winning_tile": "1p", "declared_fan": "0"}
    preview = dealer.post(reverse("pit:preview", args=[t1.pk]), chicken).content.decode()
    assert 'data-code="capital_below_minimum"' in preview and "50" in preview
    response = dealer.post(reverse("pit:jogo", args=[t1.pk]), {**chicken, "action": "save", "key": "k1"})
    assert response.status_code in (400, 409)
    assert 'data-code="capital_below_minimum"' in response.content.decode()
    assert game.jogos.count() == 1
    for chair, amount in ((0, 50), (2, 25)):
        services.move_money(game=game, user=staff_["supervisor"], chair=chair, kind=Movement.BUY_IN, amount=amount)
    page = dealer.get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert "Chair 4 holds 575: 25 short of the minimum of 600." in page and "Chair 1 holds" not in page
    services.move_money(game=game, user=staff_["supervisor"], chair=3, kind=Movement.BUY_IN, amount=25)
    page = dealer.get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert "short of the minimum" not in page
    response = dealer.post(reverse("pit:jogo", args=[t1.pk]), {**chicken, "action": "save", "key": "k2"})
    assert response.status_code == 302 and game.jogos.count() == 2


def test_a_capital_below_zero_is_shown_red_on_the_table_and_said_on_the_receipt(client, people):
    """Under tests/conftest.py's minimum of 1: chair 1 (banker) seated with 10 pays 50 for a
    chicken hand and holds −40."""
    staff_, t1, _ = people
    game = seat(t1, staff_["supervisor"], capital=[10, 3000, 2000, 4000])
    on_rotation(t1, staff_["dealer"])
    jogo, _created = services.record_jogo(table=t1, user=staff_["dealer"], record=next_record(game), at=NOON)
    dealer = as_(client, staff_["dealer"])
    page = dealer.get(f"{reverse('pit:table', args=[t1.pk])}?receipt={jogo.pk}").content.decode()
    assert re.search(r'class="num capital below-zero">-40 <span class="badge bad">below zero</span>', page)
    assert "went below zero: -40" in page
    assert "went below zero: -40" in dealer.get(reverse("pit:receipt", args=[jogo.pk])).content.decode()


# --- The money page ------------------------------------------------------------------------------

def test_an_amount_that_is_not_a_whole_number_of_patacas_is_refused_beside_it(client, people):
    staff_, t1, _ = people
    seat(t1, staff_["supervisor"])
    response = as_(client, staff_["supervisor"]).post(reverse("pit:money", args=[t1.pk]),
                                                      {"chair": "0", "kind": "buy_in", "amount": "12.5"})
    assert response.status_code == 400
    assert "Enter a whole number of patacas." in response.content.decode()
    assert Movement.objects.count() == 4  # the seating buy-ins only


@pytest.mark.money_rules
def test_a_buy_in_reaching_the_threshold_unidentified_is_refused_kept_and_leads_to_identifying(client, people):
    """Chair 2 seated with 3000 buys in 497,000: 500,000 today, the threshold."""
    staff_, t1, _ = people
    game = seat(t1, staff_["supervisor"], capital=[5000, 3000, 2000, 4000], at=timezone.now())
    supervisor = as_(client, staff_["supervisor"])
    response = supervisor.post(reverse("pit:money", args=[t1.pk]),
                               {"chair": "1", "kind": "buy_in", "amount": "497000"})
    page = response.content.decode()
    assert response.status_code == 400
    assert 'data-code="identification_needed"' in page and "500000" in page
    assert "document number" in page  # what is missing, in words
    assert MovementRefusal.objects.count() == 1 and Movement.objects.count() == 4
    patron = game.players.get(chair=1).patron
    found = re.search(r'href="([^"]*)" class="button identify-player"', page)
    assert found, "the refusal leads to identifying the player"
    link = found.group(1).replace("&amp;", "&")
    assert link.startswith(reverse("pit:patron_identify", args=[patron.pk]) + "?next=")
    # Coming back, the form holds the movement typed.
    from urllib.parse import parse_qs, urlsplit

    back = parse_qs(urlsplit(link).query)["next"][0]
    assert back.startswith(reverse("pit:money", args=[t1.pk]))
    again = supervisor.get(back).content.decode()
    assert 'value="497000"' in again
    assert re.search(r'<option value="1" selected>', again)


@pytest.mark.money_rules
def test_the_money_page_shows_each_players_day_against_the_threshold_and_his_identification(client, people):
    staff_, t1, _ = people
    game = seat(t1, staff_["supervisor"], capital=[5000, 3000, 2000, 4000], at=timezone.now())
    services.move_money(game=game, user=staff_["supervisor"], chair=3, kind=Movement.CASH_OUT, amount=1000)
    page = as_(client, staff_["supervisor"]).get(reverse("pit:money", args=[t1.pk])).content.decode()
    row = re.search(r'<tr data-chair="4">(.*?)</tr>', page, re.S).group(1)
    assert "4000 / 500000" in row and "1000 / 500000" in row and "not identified" in row
    patron = game.players.get(chair=3).patron
    assert reverse("pit:patron_identify", args=[patron.pk]) in row


# --- Names as each reader may see them -----------------------------------------------------------

def test_a_dealer_sees_the_players_names_masked_and_the_tables_supervisor_sees_them(client, people):
    staff_, t1, _ = people
    as_(client, staff_["supervisor"]).post(reverse("pit:seat", args=[t1.pk]),
                                           seating(capital=(5000, 3000, 2000, 4000),
                                                   names=("Chan Tai Man", "Bruno", "Carla", "Duarte")))
    supervisor_page = client.get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert "Chan Tai Man" in supervisor_page
    dealer_page = as_(client, staff_["dealer"]).get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert "Chan Tai Man" not in dealer_page and "C*** T** M**" in dealer_page


# --- In the reader's language --------------------------------------------------------------------

@pytest.mark.money_rules
@pytest.mark.parametrize("language, short, whole", [
    ("en", "Chair 1 holds 550: 50 short of the minimum of 600.", "Enter a whole number of patacas."),
    ("pt", "A cadeira 1 tem 550: faltam 50 para o mínimo de 600.", "Escreva um número inteiro de patacas."),
    ("zh-hant", "第1座本錢 550：距最低額 600 尚欠 50。", "請輸入整數澳門元。"),
])
def test_the_short_seat_notice_and_the_whole_patacas_refusal_read_in_each_language(client, people, language, short,
                                                                                    whole):
    """pt and zh-hant need the compiled catalogues (casino/terms/locale)."""
    staff_, t1, _ = people
    short_after_a_chicken_hand(people)
    supervisor = as_(client, staff_["supervisor"])
    page = supervisor.get(reverse("pit:table", args=[t1.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert short in page
    response = supervisor.post(reverse("pit:money", args=[t1.pk]), {"chair": "0", "kind": "buy_in", "amount": "12.5"},
                               HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400 and whole in response.content.decode()
