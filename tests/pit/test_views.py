"""The dealer's screens through Django's test client: who sees what, the preview and the save
give the service's verdict with articles, and a double-submitted form records one jogo."""
from __future__ import annotations

import pytest
from django.urls import reverse

from casino.pit import selectors
from casino.pit.forms import form_field
from casino.pit.models import Game, Jogo, Refusal
from casino.pit.roles import COUNTER
from tests.builders.pit import seat, table, user

pytestmark = pytest.mark.django_db

CHICKEN = {"result": "win", "winner": "S", "discarder": "W", "concealed": "345m678p234s99m11p", "winning_tile": "1p",
           "declared_fan": "0"}


def posted_win(**fields) -> dict:
    """A chicken hand by South on West's discard (0 fán), as the form posts it."""
    data = dict(CHICKEN)
    data.update(fields)
    return data


def test_a_dealer_sees_only_his_tables(dealer, people):
    _, t1, t2 = people
    page = dealer.get(reverse("pit:tables")).content.decode()
    assert f'href="/pit/tables/{t1.pk}/"' in page and f"/pit/tables/{t2.pk}/" not in page
    assert dealer.get(reverse("pit:table", args=[t2.pk])).status_code == 403
    assert dealer.post(reverse("pit:jogo", args=[t2.pk]), posted_win()).status_code == 403


def test_an_anonymous_visitor_is_sent_to_log_in(client, people):
    _, t1, _ = people
    response = client.get(reverse("pit:table", args=[t1.pk]))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_an_inspector_sees_every_table_but_cannot_record(client, people):
    staff_, t1, t2 = people
    client.force_login(staff_["inspector"])
    page = client.get(reverse("pit:tables")).content.decode()
    assert f"/pit/tables/{t1.pk}/" in page and f"/pit/tables/{t2.pk}/" in page
    seat(t1, staff_["dealer"])
    assert 'id="jogo-form"' not in client.get(reverse("pit:table", args=[t1.pk])).content.decode()
    assert client.post(reverse("pit:jogo", args=[t1.pk]), posted_win(action="save")).status_code == 403
    assert not Jogo.objects.exists()


def test_seating_a_game_from_the_form(dealer, people):
    _, t1, _ = people
    form = {"first_banker": "2", "witness": "supervisor", "witness_password": "correct horse battery"}
    for chair, (name, amount) in enumerate([("Ana", 5000), ("Bruno", 3000), ("Carla", 2000), ("Duarte", 4000)]):
        form.update({f"name_{chair}": name, f"capital_{chair}": amount})
    response = dealer.post(reverse("pit:seat", args=[t1.pk]), form)
    assert response.status_code == 302
    game = Game.objects.get(table=t1)
    assert game.first_banker == 2
    assert selectors.standing(game).capital == [5000, 3000, 2000, 4000]


def test_seating_three_players_at_a_conventional_table_is_refused_with_the_article(dealer, people):
    _, t1, _ = people
    form = {"first_banker": "0", "name_0": "Ana", "capital_0": 100, "name_1": "Bruno", "capital_1": 100,
            "name_2": "Carla", "capital_2": 100}
    response = dealer.post(reverse("pit:seat", args=[t1.pk]), form)
    assert response.status_code == 400
    assert "Art. 3" in response.content.decode()
    assert not Game.objects.exists()


def test_the_preview_shows_the_grade_payments_and_capital_after_and_writes_nothing(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    response = dealer.post(reverse("pit:preview", args=[t1.pk]), posted_win())
    page = response.content.decode()
    assert response.status_code == 200 and "Valid under Portaria 135/91/M" in page
    # 0 fán at 25/50: East pays 2 × 25 = 50, West and North 25 each; commission 10 (Art. 8).
    assert '<dd class="commission">10</dd>' in page
    assert "Chicken hand" in page
    assert not Jogo.objects.exists()


def test_the_preview_lists_every_error_with_its_article(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    page = dealer.post(reverse("pit:preview", args=[t1.pk]), posted_win(discarder="S")).content.decode()
    assert "cannot be saved" in page and "Art. 4(a)" in page  # the winner's own discard
    page = dealer.post(reverse("pit:preview", args=[t1.pk]),
                       posted_win(concealed="345m678p234s99m1x1p")).content.decode()
    assert "hand.concealed" in page or "Art. 2" in page


def test_a_misdeclared_grade_is_shown_plainly(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    page = dealer.post(reverse("pit:preview", args=[t1.pk]), posted_win(declared_fan="2")).content.decode()
    assert "Declared grade differs" in page and "declared 2 fán; the regulation gives 0" in page


def test_saving_records_the_jogo_and_shows_its_receipt(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    response = dealer.post(reverse("pit:jogo", args=[t1.pk]), posted_win(action="save", key="k1"))
    row = Jogo.objects.get(table=t1)
    assert response.status_code == 302 and response["Location"].endswith(f"?receipt={row.pk}")
    page = dealer.get(response["Location"]).content.decode()
    assert "Jogo 1 recorded" in page
    # Capital after: E 5000-50, S 3000+100-10, W 2000-25, N 4000-25.
    assert row.capital_after == [4950, 3090, 1975, 3975]
    for amount in (4950, 3090, 1975, 3975):
        assert f'<td class="num capital-after">{amount}</td>' in page


def test_a_double_submitted_form_records_one_jogo(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    first = dealer.post(reverse("pit:jogo", args=[t1.pk]), posted_win(action="save", key="same"))
    second = dealer.post(reverse("pit:jogo", args=[t1.pk]), posted_win(action="save", key="same"))
    assert first["Location"] == second["Location"]
    assert Jogo.objects.filter(table=t1).count() == 1


def test_a_refused_save_keeps_what_was_entered_and_marks_the_field(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    response = dealer.post(reverse("pit:jogo", args=[t1.pk]), posted_win(action="save", winning_tile="1p1p"))
    page = response.content.decode()
    assert response.status_code == 400
    assert 'value="345m678p234s99m11p"' in page  # nothing typed is lost
    assert 'name="winning_tile"' in page and 'aria-invalid="true"' in page
    assert not Jogo.objects.exists() and Refusal.objects.count() == 1


def test_the_next_jogo_has_the_right_banker_and_round_wind(dealer, people):
    staff_, t1, _ = people
    seat(t1, staff_["dealer"])
    dealer.post(reverse("pit:jogo", args=[t1.pk]), posted_win(action="save", key="a"))
    page = dealer.get(reverse("pit:table", args=[t1.pk])).content.decode()
    # South (chair 1) won: the bank passes to chair 1 (Art. 3); still the East round (I-2).
    banker_row = page[page.index('<tr class="banker"'):].split("</tr>")[0]
    assert "P***** 1" in banker_row  # the dealer reads "Player 1" masked (casino/pit/privacy.py)
    assert "Next jogo: East" in page


def test_a_simplified_table_takes_two_players_and_offers_no_pong(dealer, people):
    staff_, _, _ = people
    small = table("S1", variant="simplified", stake=100, staff=[staff_["dealer"], staff_["supervisor"]])
    response = dealer.post(reverse("pit:seat", args=[small.pk]),
                           {"first_banker": "0", "name_0": "Ana", "capital_0": 2000, "name_2": "Carla",
                            "capital_2": 2000, "witness": "supervisor", "witness_password": "correct horse battery"})
    assert response.status_code == 302
    page = dealer.get(reverse("pit:table", args=[small.pk])).content.decode()
    assert 'name="declined_pong"' not in page and 'name="meld_kind_1"' not in page
    assert 'data-tile="6z"' in page and 'data-tile="7z"' not in page  # Art. 2(b): only the green dragon
    # The simplified 5-tile hand: 123s + 66z pair, self-drawn by the banker: green winning tile, 1 fán.
    response = dealer.post(reverse("pit:jogo", args=[small.pk]),
                           {"result": "win", "winner": "E", "discarder": "", "concealed": "123s6z",
                            "winning_tile": "6z", "declared_fan": "1", "action": "save", "key": "s"})
    assert response.status_code == 302
    assert Jogo.objects.get(table=small).fan == 1


@pytest.mark.parametrize("record_field, form_name", [
    ("hand.concealed", "concealed"), ("hand.winning_tile", "winning_tile"), ("hand.melds[2].tiles", "meld_tiles_2"),
    ("hand.melds[0].kind", "meld_kind_0"), ("pay_all.article", "pay_all_article"), ("stake", None), (None, None)])
def test_errors_are_attached_to_the_field_the_dealer_typed(record_field, form_name):
    assert form_field(record_field) == form_name


def test_a_counter_is_sent_from_the_pit_to_the_count_room(client):
    client.force_login(user("counter", COUNTER))
    response = client.get(reverse("pit:tables"))

    assert response.status_code == 302 and response["Location"] == reverse("counting:boxes")
