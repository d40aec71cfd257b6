"""Who sees a player's personal data (issue 25 §2, casino/pit/privacy.py): names masked but for
inspectors, managers and the supervisors of the player's table; every read of a document number
logged; the `privacy` template tags."""
import datetime as dt

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from casino.pit import patrons, privacy, services
from casino.pit.models import Casino, DocumentRead
from tests.builders.pit import NOON, table, user

IDENTITY = {"document_type": "macau_id", "document_number": "1234567(8)", "document_country": "MO",
            "date_of_birth": dt.date(1970, 1, 2), "nationality": "MO"}


@pytest.fixture
def seated(people):
    """Chan Tai Man, identified, seated at T1 in a game in progress."""
    staff, t1, _t2 = people
    patron = patrons.create_patron(casino=Casino.objects.get(name="Casino Lisboa"), user=staff["inspector"],
                                   name="Chan Tai Man", **IDENTITY)
    services.start_game(table=t1, user=staff["supervisor"], first_banker=0, at=NOON, players=[
        {"chair": 0, "patron": patron.pk, "capital": 5000},
        *({"chair": c, "name": f"Player {c}", "capital": 5000} for c in (1, 2, 3))])
    return staff, t1, patron


def test_masks():
    assert privacy.mask_name("Chan Tai Man") == "C*** T** M**"
    assert privacy.mask_name("陳大文") == "陳**"
    assert privacy.mask_name("") == ""
    assert privacy.mask_number("1234567(8)") == "*******(8)"
    assert privacy.mask_number("") == ""


@pytest.mark.parametrize(("who", "at_t1", "at_t2", "everywhere"), [
    ("dealer", False, False, False),
    ("other_dealer", False, False, False),
    ("supervisor", True, False, False),
    ("inspector", True, True, True),
    ("manager", True, True, True),
])
def test_who_sees_names_where(people, who, at_t1, at_t2, everywhere):
    staff, t1, t2 = people
    person = staff[who]
    assert privacy.shown_name(person, "Chan Tai Man", t1) == ("Chan Tai Man" if at_t1 else "C*** T** M**")
    assert privacy.shown_name(person, "Chan Tai Man", t2.pk) == ("Chan Tai Man" if at_t2 else "C*** T** M**")
    assert privacy.shown_name(person, "Chan Tai Man") == ("Chan Tai Man" if everywhere else "C*** T** M**")


def test_a_supervisor_of_another_table_sees_names_masked(people):
    staff, t1, _t2 = people
    elsewhere = user("supervisor_t3", "supervisor")
    table("T3", staff=[elsewhere])
    assert privacy.shown_name(elsewhere, "Chan Tai Man", t1) == "C*** T** M**"


def test_an_inspector_reads_the_document_and_the_read_is_logged(seated):
    staff, _t1, patron = seated
    assert privacy.read_document(staff["inspector"], patron, "test:page") == "1234567(8)"
    [read] = DocumentRead.objects.all()
    assert (read.patron, read.read_by, read.purpose) == (patron, staff["inspector"], "test:page")


@pytest.mark.parametrize("who", ["dealer", "supervisor"])
def test_others_read_the_document_masked_and_nothing_is_logged(seated, who):
    staff, _t1, patron = seated
    assert privacy.read_document(staff[who], patron, "test:page") == "*******(8)"
    assert not DocumentRead.objects.exists()


def test_the_supervisor_of_the_players_table_reads_it_as_witness_logged(seated):
    staff, _t1, patron = seated
    assert privacy.read_document_as_witness(staff["supervisor"], patron, "pit:patron_identify") == "1234567(8)"
    assert DocumentRead.objects.get().read_by == staff["supervisor"]


def test_a_supervisor_elsewhere_or_after_the_game_reads_it_masked(seated):
    staff, t1, patron = seated
    elsewhere = user("supervisor_t3", "supervisor")
    table("T3", staff=[elsewhere])
    assert privacy.read_document_as_witness(elsewhere, patron, "pit:patron_identify") == "*******(8)"
    assert privacy.read_document_as_witness(staff["dealer"], patron, "pit:patron_identify") == "*******(8)"
    services.end_game(game=t1.games.get(), user=staff["supervisor"], at=NOON + dt.timedelta(minutes=1))
    assert privacy.read_document_as_witness(staff["supervisor"], patron, "pit:patron_identify") == "*******(8)"
    assert not DocumentRead.objects.exists()


def test_readable_patrons_per_role(seated):
    staff, _t1, patron = seated
    assert patron in privacy.readable_patrons(staff["inspector"])
    assert patron in privacy.readable_patrons(staff["supervisor"])
    assert not privacy.readable_patrons(staff["dealer"]).exists()
    elsewhere = user("supervisor_t3", "supervisor")
    table("T3", staff=[elsewhere])
    assert not privacy.readable_patrons(elsewhere).exists()


@pytest.mark.parametrize(("who", "shown"), [("dealer", "C*** T** M**"), ("supervisor", "Chan Tai Man"),
                                            ("inspector", "Chan Tai Man")])
def test_the_shown_name_tag_reads_the_requests_user(seated, who, shown):
    staff, t1, patron = seated
    request = RequestFactory().get("/")
    request.user = staff[who]
    page = Template("{% load privacy %}[{% shown_name name table %}][{% patron_name patron %}]")
    assert page.render(Context({"request": request, "name": "Chan Tai Man", "table": t1, "patron": patron})) == \
        f"[{shown}][{shown}]"


def test_without_a_table_only_inspectors_and_managers_see_the_name(seated):
    staff, _t1, _patron = seated
    request = RequestFactory().get("/")
    request.user = staff["supervisor"]
    page = Template("{% load privacy %}{% shown_name name %}")
    assert page.render(Context({"request": request, "name": "Chan Tai Man"})) == "C*** T** M**"
