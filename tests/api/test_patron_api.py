"""The players' API (/api/v1/players/, casino/pit/patron_api.py): every route against every role,
what each role reads of a player, the read of a document number logged, and a malformed document
refused in the API's one error shape, nothing written."""
import datetime as dt

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

from casino.pit import patrons, services
from casino.pit.models import Casino, DocumentRead, Patron, PatronChange
from tests.builders.pit import NOON, api_routes

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "dealer", "other_dealer", "supervisor", "inspector", "manager"]
IDENTITY = {"document_type": "hong_kong_id", "document_number": "A123456(3)", "document_country": "HK",
            "date_of_birth": dt.date(1980, 5, 17), "nationality": "CN"}
GOOD = {"document_type": "macau_id", "document_number": "1234567(8)", "document_country": "MO",
        "date_of_birth": "1970-01-02", "nationality": "MO"}


@pytest.fixture
def world(people):
    """Chan Tai Man, identified, and Wong, by name, seated at T1 in a game in progress with two more."""
    staff, t1, _t2 = people
    lisboa = Casino.objects.get(name="Casino Lisboa")
    chan = patrons.create_patron(casino=lisboa, user=staff["inspector"], name="Chan Tai Man", **IDENTITY)
    wong = patrons.create_patron(casino=lisboa, user=staff["supervisor"], name="Wong Siu Ming")
    services.start_game(table=t1, user=staff["supervisor"], first_banker=0, at=NOON, players=[
        {"chair": 0, "patron": chan.pk, "capital": 5000}, {"chair": 1, "patron": wong.pk, "capital": 5000},
        {"chair": 2, "name": "Lei Siu Ling", "capital": 5000}, {"chair": 3, "name": "Rui Lopes", "capital": 5000}])
    return {"people": staff, "chan": chan, "wong": wong, "casino": lisboa}


def client_for(role, world):
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(world["people"][role])
    return client


READERS = {"supervisor", "inspector", "manager"}
ENDPOINTS = [
    ("list", "get", "/api/v1/players/", None, READERS, 200),
    ("detail", "get", "/api/v1/players/{chan}/", None, READERS, 200),
    ("create", "post", "/api/v1/players/", "create", {"supervisor"}, 201),
    ("identify", "post", "/api/v1/players/{wong}/identify/", "identify", {"supervisor"}, 200),
]
BODIES = {"create": lambda w: {"casino": w["casino"].pk, "name": "Ho Ka Yan"}, "identify": lambda w: GOOD}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "method", "path", "body", "allowed", "ok"), ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_permission_matrix(world, role, name, method, path, body, allowed, ok):
    before = Patron.objects.count(), PatronChange.objects.count()
    ids = {"chan": world["chan"].pk, "wong": world["wong"].pk}
    data = BODIES[body](world) if body else None
    response = getattr(client_for(role, world), method)(path.format(**ids), data, format="json")
    if role in allowed:
        assert response.status_code == ok, response.content
    else:
        assert response.status_code == 403, response.content
        assert "errors" in response.json()
        assert (Patron.objects.count(), PatronChange.objects.count()) == before


def test_every_players_route_is_in_the_permission_matrix(world):
    ids = {"chan": world["chan"].pk, "wong": world["wong"].pk}
    covered = {resolve(path.format(**ids)).route for _, _, path, *_ in ENDPOINTS}
    assert covered == api_routes("api/v1/players/")


def test_an_inspector_reads_personal_data_each_document_read_logged(world):
    response = client_for("inspector", world).get("/api/v1/players/")
    found = {row["name"]: row for row in response.json()["results"]}
    chan = found["Chan Tai Man"]
    assert (chan["document_number"], chan["date_of_birth"], chan["identified"]) == ("A123456(3)", "1980-05-17", True)
    assert found["Wong Siu Ming"]["missing_identification"] == list(Patron.IDENTIFICATION)
    # One read per document returned (Wong has none to read).
    read = DocumentRead.objects.get()
    assert (read.patron, read.read_by, read.purpose) == (world["chan"], world["people"]["inspector"], "api:players")


def test_a_supervisor_reads_names_and_a_masked_document(world):
    response = client_for("supervisor", world).get(f"/api/v1/players/{world['chan'].pk}/")
    data = response.json()
    assert (data["name"], data["document_number"], data["date_of_birth"]) == ("Chan Tai Man", "*******(3)", None)
    assert not DocumentRead.objects.exists()


def test_a_supervisor_does_not_see_a_player_of_another_table(world, people):
    from tests.builders.pit import table, user

    elsewhere = user("supervisor_t3", "supervisor")
    table("T3", staff=[elsewhere])
    client = APIClient()
    client.force_authenticate(elsewhere)
    assert client.get(f"/api/v1/players/{world['chan'].pk}/").status_code == 404
    assert client.get("/api/v1/players/").json()["results"] == []
    assert client.post(f"/api/v1/players/{world['wong'].pk}/identify/", GOOD, format="json").status_code == 404


def test_search_by_name_and_by_document_number(world):
    inspector = client_for("inspector", world)
    assert [row["id"] for row in inspector.get("/api/v1/players/", {"q": "a 123456 3"}).json()["results"]] == [
        world["chan"].pk]
    assert [row["id"] for row in inspector.get("/api/v1/players/", {"q": "wong"}).json()["results"]] == [
        world["wong"].pk]
    supervisor = client_for("supervisor", world)
    assert supervisor.get("/api/v1/players/", {"q": "A123456(3)"}).json()["results"] == []


def test_create_with_identity_normalises_the_document(world):
    response = client_for("supervisor", world).post("/api/v1/players/", {
        "casino": world["casino"].pk, "name": "Ho Ka Yan", **GOOD, "document_number": "1 234567 (8)"}, format="json")
    assert response.status_code == 201, response.content
    patron = Patron.objects.get(pk=response.json()["id"])
    assert patron.document_number == "1234567(8)" and patron.identified


def test_a_malformed_document_is_refused_field_by_field_and_nothing_is_written(world):
    before = Patron.objects.count(), PatronChange.objects.count()
    response = client_for("supervisor", world).post("/api/v1/players/", {
        "casino": world["casino"].pk, "name": "Ho Ka Yan", "document_type": "hong_kong_id",
        "document_number": "A123456(4)", "document_country": "MO"}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(error["field"], error["code"]) for error in errors] == [
        ("document_number", "document_check_digit"), ("document_country", "document_country_wrong")]
    assert all(error["message"] and error["article"] is None for error in errors)
    assert (Patron.objects.count(), PatronChange.objects.count()) == before


def test_the_refusal_speaks_the_requests_language(world):
    response = client_for("supervisor", world).post(
        f"/api/v1/players/{world['wong'].pk}/identify/", {**GOOD, "document_number": "123"}, format="json",
        HTTP_ACCEPT_LANGUAGE="pt")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert error["field"] == "document_number"
    assert "bilhete de identidade de residente de Macau" in error["message"]  # needs the compiled catalogue


def test_identify_names_each_missing_field(world):
    response = client_for("supervisor", world).post(f"/api/v1/players/{world['wong'].pk}/identify/",
                                                    {"document_type": "passport", "document_number": "K1234567",
                                                     "document_country": "PT"}, format="json")
    assert response.status_code == 400
    assert [(error["field"], error["code"]) for error in response.json()["errors"]] == [
        ("date_of_birth", "identification_needed"), ("nationality", "identification_needed")]


def test_a_document_held_by_another_player_is_a_conflict(world):
    response = client_for("supervisor", world).post(f"/api/v1/players/{world['wong'].pk}/identify/",
                                                    {**GOOD, **{k: str(v) for k, v in IDENTITY.items()}},
                                                    format="json")
    assert response.status_code == 409
    assert [error["code"] for error in response.json()["errors"]] == ["document_held"]


def test_an_unknown_field_is_refused(world):
    response = client_for("supervisor", world).post("/api/v1/players/", {
        "casino": world["casino"].pk, "name": "Ho", "passport": "K1234567"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "passport"
