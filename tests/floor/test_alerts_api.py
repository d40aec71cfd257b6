"""The alerts' API: GET /api/v1/alerts/ (?state, ?table, ?rule), GET /api/v1/alerts/{id}/ and
POST /api/v1/alerts/{id}/acknowledge/ {"note": ...}, for every role; the one error shape."""
from __future__ import annotations

import datetime as dt

import pytest
from django.urls import resolve
from rest_framework.test import APIClient

from casino.floor import alerts
from casino.floor.models import Alert
from casino.pit import patrons, services
from casino.pit.roles import COUNTER, SUPERVISOR
from tests.builders.alerts import floor_at_noon
from tests.builders.pit import NOON, api_routes, record_next, seat, user

pytestmark = pytest.mark.django_db

MINUTE = dt.timedelta(minutes=1)
ROLES = ["anonymous", "dealer", "other_dealer", "counter", "supervisor", "stranger", "inspector", "manager"]


@pytest.fixture
def world(settings):
    """An alert at T1 (no declared grade) and one at T2 (a large buy-in), two supervisors of T1, a
    supervisor of no table (the stranger), the other people of the pit and a counter."""
    people, t1, t2, game = floor_at_noon()
    record_next(game, people["dealer"], declared_fan=None, at=NOON)
    t2.staff.add(people["supervisor2"])
    seat(t2, people["other_dealer"], capital=[1000, 1000, 1000, 1000], at=NOON)
    game2 = t2.games.get()
    patrons.identify(patron=game2.players.get(chair=0).patron, user=people["supervisor2"], document_type="passport",
                     document_number="K12345678", document_country="PT", date_of_birth=dt.date(1975, 3, 9),
                     nationality="PT")
    settings.LARGE_TRANSACTION_THRESHOLD = 3000  # his 1000 at the seating and 3000 more
    services.move_money(game=game2, user=people["supervisor2"], chair=0, kind="buy_in", amount=3000, at=NOON)
    people["stranger"] = user("stranger", SUPERVISOR)
    people["counter"] = user("counter", COUNTER)
    return {"people": people, "t1": t1, "t2": t2,
            "grade": Alert.objects.get(rule="grade_not_declared"),
            "t2_alert": Alert.objects.get(table=t2)}


def client_for(role, world) -> APIClient:
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(world["people"][role])
    return client


def error_of(response) -> dict:
    assert response["Content-Type"].startswith("application/json")
    error, = response.json()["errors"]
    return error


LIST_ALLOWED = {"supervisor", "stranger", "inspector", "manager"}


@pytest.mark.parametrize("role", ROLES)
def test_who_lists_which_alerts(world, role):
    response = client_for(role, world).get("/api/v1/alerts/")
    if role not in LIST_ALLOWED:
        assert response.status_code == 403 and error_of(response)["code"]
        return
    assert response.status_code == 200
    seen = {row["table"] for row in response.json()["results"]}
    assert seen == {"supervisor": {"T1"}, "stranger": set(), "inspector": {"T1", "T2"},
                    "manager": {"T1", "T2"}}[role]


@pytest.mark.parametrize("role, status", [("anonymous", 403), ("dealer", 403), ("counter", 403),
                                          ("other_dealer", 403), ("supervisor", 200), ("stranger", 404),
                                          ("inspector", 200), ("manager", 200)])
def test_who_reads_an_alert(world, role, status):
    response = client_for(role, world).get(f"/api/v1/alerts/{world['grade'].pk}/")
    assert response.status_code == status
    if status == 200:
        body = response.json()
        assert (body["rule"], body["article"], body["control"], body["subjects"], body["state"]) == (
            "grade_not_declared", "6", "declared_grade", {"jogo": world["grade"].jogo_id}, "open")
        assert body["message"] == "Table T1, jogo 1: a win saved with no declared grade."


@pytest.mark.parametrize("role, status", [("anonymous", 403), ("dealer", 403), ("counter", 403),
                                          ("other_dealer", 403), ("supervisor", 200), ("stranger", 404),
                                          ("inspector", 200), ("manager", 200)])
def test_who_acknowledges_an_alert(world, role, status):
    response = client_for(role, world).post(f"/api/v1/alerts/{world['grade'].pk}/acknowledge/",
                                            {"note": "asked the dealer"}, format="json")
    assert response.status_code == status
    alert = Alert.objects.get(pk=world["grade"].pk)
    if status == 200:
        assert response.json()["state"] == "acknowledged"
        assert response.json()["acknowledged_by"] == world["people"][role].get_username()
        assert (alert.acknowledged_by, alert.acknowledgement) == (world["people"][role], "asked the dealer")
    else:
        error_of(response)
        assert alert.acknowledged_at is None


@pytest.mark.parametrize("role, status", [("supervisor", 403), ("inspector", 403), ("manager", 200)])
def test_an_escalated_alert_is_acknowledged_by_a_manager(world, role, status):
    alerts.tick(now=NOON + dt.timedelta(hours=1))
    response = client_for(role, world).post(f"/api/v1/alerts/{world['grade'].pk}/acknowledge/", {"note": "seen"},
                                            format="json")
    assert response.status_code == status
    if status == 403:
        assert "managers" in error_of(response)["message"]


@pytest.mark.parametrize("body, field", [({}, "note"), ({"note": ""}, "note"), ({"note": "   "}, "note"),
                                         ({"note": "x" * 5000}, "note"), ({"note": "ok", "state": "cleared"}, "state")])
def test_an_acknowledgement_without_a_proper_note_is_refused_in_the_one_shape(world, body, field):
    response = client_for("manager", world).post(f"/api/v1/alerts/{world['grade'].pk}/acknowledge/", body,
                                                 format="json")
    assert response.status_code == 400
    assert error_of(response)["field"] == field
    assert Alert.objects.get(pk=world["grade"].pk).acknowledged_at is None


def test_acknowledging_twice_is_a_conflict(world):
    client = client_for("manager", world)
    path = f"/api/v1/alerts/{world['grade'].pk}/acknowledge/"
    assert client.post(path, {"note": "seen"}, format="json").status_code == 200
    response = client.post(path, {"note": "seen again"}, format="json")
    assert response.status_code == 409 and error_of(response)["code"] == "acknowledged"


def test_the_list_filters_by_state_table_and_rule(world):
    client = client_for("manager", world)
    grade, t2_alert = world["grade"], world["t2_alert"]
    alerts.acknowledge(alert=grade, user=world["people"]["manager"], note="seen")

    def ids(query: str) -> set[int]:
        response = client.get(f"/api/v1/alerts/{query}")
        assert response.status_code == 200, response.content
        return {row["id"] for row in response.json()["results"]}

    everything = set(Alert.objects.values_list("pk", flat=True))
    assert grade.pk not in ids("") and t2_alert.pk in ids("?state=open")
    assert ids("?state=acknowledged") == {grade.pk}
    assert ids("?state=cleared") == set()
    assert ids("?state=all") == everything
    assert ids(f"?state=all&table={world['t2'].pk}") == set(Alert.objects.filter(table=world["t2"]).values_list(
        "pk", flat=True))
    assert ids("?state=all&rule=grade_not_declared") == {grade.pk}


@pytest.mark.parametrize("query, field", [("?state=closed", "state"), ("?rule=nothing", "rule"),
                                          ("?table=T1", "table"), ("?table=0", "table")])
def test_a_filter_that_is_not_one_is_refused_in_the_one_shape(world, query, field):
    response = client_for("manager", world).get(f"/api/v1/alerts/{query}")
    assert response.status_code == 400 and error_of(response)["field"] == field


def test_a_cleared_alert_is_listed_as_cleared_with_its_acknowledgement_kept(world):
    people = world["people"]
    flag = services.flag(jogo=world["grade"].jogo, user=people["inspector"], note="look", at=NOON)
    alerts.acknowledge(alert=Alert.objects.get(flag=flag), user=people["supervisor"], note="told the inspector")
    services.resolve_flag(flag=flag, user=people["manager"], note="fine", at=NOON + MINUTE)
    row, = client_for("supervisor", world).get("/api/v1/alerts/?state=cleared").json()["results"]
    assert (row["rule"], row["state"], row["acknowledgement"], row["subjects"]) == (
        "flag_open", "cleared", "told the inspector", {"flag": flag.pk})


def test_the_words_follow_the_requests_language(world):
    response = client_for("manager", world).get(f"/api/v1/alerts/{world['grade'].pk}/", HTTP_ACCEPT_LANGUAGE="zh-hant")
    assert response.json()["message"] == "第 T1 號枱，第 1 局：胡牌記錄未宣佈番數。"


def test_every_alerts_route_is_covered_here(world):
    every = api_routes("api/v1/alerts/")
    covered = {resolve(path).route for path in ("/api/v1/alerts/", f"/api/v1/alerts/{world['grade'].pk}/",
                                                f"/api/v1/alerts/{world['grade'].pk}/acknowledge/")}
    assert covered == every


def test_the_schema_documents_the_alerts_operations(client, world):
    client.force_login(world["people"]["manager"])
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    assert {"/api/v1/alerts/", "/api/v1/alerts/{id}/", "/api/v1/alerts/{id}/acknowledge/"} <= set(schema["paths"])
    parameters = {p["name"] for p in schema["paths"]["/api/v1/alerts/"]["get"]["parameters"]}
    assert {"state", "table", "rule"} <= parameters
