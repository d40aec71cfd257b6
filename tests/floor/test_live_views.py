"""The live floor's page, /floor/, and its cards as JSON for when the socket is down
(casino/floor/live_views.py): who sees it, which tables, the filters, and the words it gives the
page's script in the reader's language."""
from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from casino.floor import cards
from casino.pit.models import Table
from tests.builders.pit import record_next, seat, table, user

pytestmark = pytest.mark.django_db


def as_(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def page_cards(response) -> list[dict]:
    text = response.content.decode()
    start = text.index('<script id="floor-cards" type="application/json">') + len(
        '<script id="floor-cards" type="application/json">')
    return json.loads(text[start:text.index("</script>", start)])


@pytest.mark.parametrize("role", ["inspector", "manager"])
def test_inspectors_and_managers_see_every_tables_card(people, role):
    response = as_(people[0][role]).get("/floor/")
    assert response.status_code == 200
    assert [card["number"] for card in page_cards(response)] == ["T1", "T2"]


def test_a_supervisor_sees_the_cards_of_his_tables(people):
    response = as_(people[0]["supervisor"]).get("/floor/")
    assert [card["number"] for card in page_cards(response)] == ["T1"]


@pytest.mark.parametrize("role", ["dealer", "other_dealer"])
def test_a_dealer_may_not_see_the_floor_and_is_told_why(people, role):
    response = as_(people[0][role]).get("/floor/")
    assert response.status_code == 403
    assert "The floor is for supervisors, inspectors and managers." in response.content.decode()
    assert as_(people[0][role]).get("/floor/cards.json").status_code == 403


def test_somebody_not_signed_in_is_sent_to_sign_in(people):
    assert Client().get("/floor/")["Location"].startswith("/accounts/login/")


def test_the_cards_as_json_are_those_the_socket_brings(people):
    staff, t1, _ = people
    record_next(seat(t1, staff["dealer"]), staff["dealer"])
    answer = as_(staff["manager"]).get("/floor/cards.json").json()
    assert answer == {"cards": cards.cards(cards.floor_tables(Table.objects.all()))}


def test_the_page_filters_by_area_tier_and_variant_and_offers_only_what_the_floor_has(people):
    manager = people[0]["manager"]
    Table.objects.filter(number="T1").update(area="Pit A")
    Table.objects.filter(number="T2").update(area="Pit B")
    table("S1", variant="simplified", stake=10)
    client = as_(manager)

    def numbers(query: str) -> list[str]:
        return [card["number"] for card in page_cards(client.get("/floor/" + query))]

    assert numbers("") == ["S1", "T1", "T2"]  # the tables without an area first, then by area
    assert numbers("?area=Pit+A") == ["T1"]
    assert numbers("?tier=10") == ["S1"]
    assert numbers("?variant=conventional") == ["T1", "T2"]
    assert [card["number"] for card in client.get("/floor/cards.json?area=Pit+B").json()["cards"]] == ["T2"]
    text = client.get("/floor/").content.decode()
    assert '<option value="Pit A">Pit A</option>' in text and '<option value="10">' in text


def test_the_page_gives_its_script_the_words_in_the_readers_language(people):
    client = as_(people[0]["manager"])
    client.cookies["django_language"] = "pt"
    text = client.get("/floor/", HTTP_ACCEPT_LANGUAGE="pt").content.decode()
    start = text.index('<script id="floor-labels" type="application/json">') + len(
        '<script id="floor-labels" type="application/json">')
    labels = json.loads(text[start:text.index("</script>", start)])
    assert labels["round"]["E"] == "roda Este"
    assert labels["words"]["closed"] == "Fechada"


def test_the_floor_link_is_in_the_menu_of_those_who_may_see_it(people):
    staff = people[0]
    assert 'href="/floor/"' in as_(staff["supervisor"]).get(reverse("pit:tables")).content.decode()
    assert 'href="/floor/"' not in as_(staff["dealer"]).get(reverse("pit:tables")).content.decode()
    assert 'href="/floor/"' not in as_(user("counter", "counter")).get(reverse("counting:boxes")).content.decode()
