"""Controls of issue 25 found on review: who may identify a player refused at the threshold, what
the players' API gives a supervisor, a player made at another casino, and a correction that takes
a seat's capital below zero (never silent)."""
from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from casino.floor import rules
from casino.pit import patrons, privacy, services
from casino.pit.errors import Refused
from casino.pit.models import Amendment, Casino, MovementRefusal, Patron, Table
from tests.builders.pit import seat, staff

pytestmark = pytest.mark.django_db

IDENTITY = {"document_type": Patron.PASSPORT, "document_number": "K12345678", "document_country": "PT",
            "date_of_birth": dt.date(1975, 3, 9), "nationality": "PT"}


@pytest.mark.money_rules
def test_the_supervisor_where_a_players_buy_in_was_refused_may_identify_him():
    """Mr Ho, known by name, is refused a seating buy-in of 500,000 at T1: the supervisor of T1
    witnessed it and may identify him; the supervisor of another table may not."""
    people, t1, t2 = staff()
    other = people["supervisor2"]
    t1.staff.remove(other)
    t2.staff.add(other)
    ho = patrons.create_patron(casino=t1.casino, user=people["supervisor"], name="Mr Ho")
    with pytest.raises(Refused):
        services.start_game(table=t1, user=people["supervisor"], first_banker=0, at=timezone.now(), players=[
            {"chair": 0, "patron": ho.pk, "capital": 500_000}, {"chair": 1, "name": "B", "capital": 5000},
            {"chair": 2, "name": "C", "capital": 5000}, {"chair": 3, "name": "D", "capital": 5000}])
    assert MovementRefusal.objects.filter(patron=ho, table=t1).count() == 1
    assert privacy.witnesses(people["supervisor"], ho)
    assert not privacy.witnesses(other, ho)


def test_the_players_api_gives_a_supervisor_no_personal_data():
    people, t1, _t2 = staff()
    chan = patrons.create_patron(casino=t1.casino, user=people["inspector"], name="Chan", **IDENTITY)
    seat(t1, people["supervisor"])  # he sat nowhere yet: seat him so that the supervisor may read him
    services.end_game(game=t1.games.get(), user=people["supervisor"])
    services.start_game(table=t1, user=people["supervisor"], first_banker=0, players=[
        {"chair": 0, "patron": chan.pk, "capital": 5000}, {"chair": 1, "name": "B", "capital": 5000},
        {"chair": 2, "name": "C", "capital": 5000}, {"chair": 3, "name": "D", "capital": 5000}])
    client = APIClient()
    client.force_authenticate(people["supervisor"])
    data = client.get(f"/api/v1/players/{chan.pk}/").json()
    assert (data["name"], data["identified"]) == ("Chan", True)
    assert (data["document_type"], data["document_country"], data["nationality"], data["date_of_birth"]) == (
        None, None, None, None)
    assert data["document_number"] == "******678"
    client.force_authenticate(people["inspector"])
    assert client.get(f"/api/v1/players/{chan.pk}/").json()["document_country"] == "PT"


def test_a_supervisor_makes_no_player_at_a_casino_where_he_has_no_table():
    people, t1, _t2 = staff()
    elsewhere = Casino.objects.create(name="Casino Oceano")
    client = APIClient()
    client.force_authenticate(people["supervisor"])
    assert client.post("/api/v1/players/", {"casino": elsewhere.pk, "name": "Lei"}, format="json").status_code == 403
    assert client.post("/api/v1/players/", {"casino": t1.casino_id, "name": "Lei"}, format="json").status_code == 201
    assert not Patron.objects.filter(casino=elsewhere).exists()


def test_an_approved_correction_that_leaves_a_seat_below_zero_raises_the_alert():
    """The floor reads the game's capitals again when a correction is approved (C-1: never silent)."""
    people, t1, _t2 = staff()
    seat(t1, people["supervisor"])
    table = Table.objects.get(pk=t1.pk)
    table.game_capital = [5000, -40, 2000, 4000]  # as a correction under a lower minimum can leave it
    amendment = Amendment(pk=1, state=Amendment.APPROVED)
    raised, _ended = rules.of_event("correction_decided", table=table, subject=amendment, user=people["manager"],
                                    at=timezone.now())
    # The rule reads the table as it stands: the stored capitals, here the seating's, are all above zero.
    assert [r.rule for r in raised if r.rule == rules.CAPITAL_BELOW_ZERO] == []
    Table.objects.filter(pk=t1.pk).update(game_capital=[5000, -40, 2000, 4000])
    raised, _ended = rules.of_event("correction_decided", table=table, subject=amendment, user=people["manager"],
                                    at=timezone.now())
    assert [(r.rule, r.params["chair"]) for r in raised] == [(rules.CAPITAL_BELOW_ZERO, 2)]
    rejected = Amendment(pk=2, state=Amendment.REJECTED)
    raised, _ended = rules.of_event("correction_decided", table=table, subject=rejected, user=people["manager"],
                                    at=timezone.now())
    assert raised == []
