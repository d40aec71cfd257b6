"""The cases' API under /api/v1/aml/ (casino/aml/api.py): who reaches each route, the steps of a
case, and refusals in the one error shape, nothing written."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from casino.aml import cases
from casino.aml.models import SuspicionCase, SuspicionEvent
from tests.aml.builders import cast, escalated, opened, player
from tests.builders.pit import api_routes

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "dealer", "supervisor", "counter1", "inspector", "manager"]
READERS = {"inspector", "manager"}


@pytest.fixture
def world():
    people, t1, _ = cast()
    who, case = escalated(people, t1)
    _, in_progress = opened(people, t1)
    _, report = opened(people, t1)
    cases.decide(case=report, user=people["inspector"], report=True, note="structuring")
    fresh = player(t1.casino, people["supervisor"], name="Lee Siu Lung")
    return {"people": people, "case": case, "open": in_progress, "report": report, "fresh": fresh}


def client_for(role, world) -> APIClient:
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(world["people"][role])
    return client


# (name, method, path, body, roles allowed, status when allowed)
ENDPOINTS = [
    ("list", "get", "/api/v1/aml/cases/", None, READERS, 200),
    ("retrieve", "get", "/api/v1/aml/cases/{case}/", None, READERS, 200),
    ("create", "post", "/api/v1/aml/cases/", {"patron": "{fresh}", "note": "Large cash, no play."}, READERS, 201),
    ("note", "post", "/api/v1/aml/cases/{open}/note/", {"note": "Video asked for."}, READERS, 201),
    ("decide", "post", "/api/v1/aml/cases/{open}/decide/", {"report": False, "note": "Nothing odd."}, READERS, 201),
    ("escalate", "post", "/api/v1/aml/cases/{report}/escalate/", {"note": "Sent."}, {"manager"}, 201),
]


def _ids(world) -> dict:
    return {key: value.pk for key, value in world.items() if hasattr(value, "pk")}


def _written() -> tuple[int, int]:
    return SuspicionCase.objects.count(), SuspicionEvent.objects.count()


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name,method,path,body,allowed,ok", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_permission_matrix(world, role, name, method, path, body, allowed, ok):
    ids = _ids(world)
    if body and body.get("patron"):
        body = body | {"patron": ids["fresh"]}
    before = _written()
    response = getattr(client_for(role, world), method)(path.format(**ids), body, format="json")
    if role in allowed:
        assert response.status_code == ok, response.content
    else:
        assert response.status_code == 403, response.content
        assert response.json()["errors"][0]["code"] in ("permission_denied", "not_authenticated")
        assert _written() == before


def test_every_aml_api_route_is_in_the_permission_matrix(world):
    from django.urls import resolve

    every = api_routes("api/v1/aml/")
    covered = {resolve(path.format(**_ids(world))).route for _, _, path, *_ in ENDPOINTS}
    assert covered == every


def test_the_api_root_lists_the_cases(world):
    assert client_for("inspector", world).get("/api/v1/").json()["aml/cases"].endswith("/api/v1/aml/cases/")


def test_a_case_through_the_api_names_its_player_by_id_only(world):
    client = client_for("inspector", world)
    created = client.post("/api/v1/aml/cases/", {"patron": world["fresh"].pk, "gaming_day": "2026-11-21",
                                                 "note": "Cash in, no play."}, format="json")
    assert created.status_code == 201
    data = created.json()
    assert (data["patron"], data["gaming_day"], data["state"]) == (world["fresh"].pk, "2026-11-21", "open")
    assert "Lee Siu Lung" not in created.content.decode()
    url = f"/api/v1/aml/cases/{data['id']}/"
    decided = client.post(url + "decide/", {"report": True, "note": "structuring"}, format="json").json()
    assert (decided["kind"], decided["state"], decided["seq"]) == ("decided", "report", 2)
    escalated_ = client_for("manager", world).post(url + "escalate/", {"note": "sent"}, format="json").json()
    assert escalated_["state"] == "escalated"
    shown = client.get(url).json()
    assert [event["kind"] for event in shown["events"]] == ["opened", "decided", "escalated"]
    assert [case["id"] for case in client.get("/api/v1/aml/cases/?state=escalated").json()["results"]] == sorted(
        [world["case"].pk, data["id"]])


def test_refusals_come_in_the_one_error_shape_and_write_nothing(world):
    client = client_for("manager", world)
    before = _written()
    response = client.post(f"/api/v1/aml/cases/{world['case'].pk}/decide/", {"report": True, "note": "again"},
                           format="json")
    assert response.status_code == 409
    error, = response.json()["errors"]
    assert (error["code"], error["field"]) == ("case_state", "state")
    assert error["message"] == ("Only an open case is decided; this case is escalated to the financial intelligence "
                                "office.")
    response = client.post("/api/v1/aml/cases/", {"patron": world["open"].patron_id, "note": "again"}, format="json")
    assert response.status_code == 409 and response.json()["errors"][0]["field"] == "patron"
    response = client.post("/api/v1/aml/cases/", {"patron": 999999, "note": "who?"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "patron"
    response = client.post(f"/api/v1/aml/cases/{world['open'].pk}/note/", {"note": ""}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "note"
    response = client.post(f"/api/v1/aml/cases/{world['open'].pk}/note/", {"note": "x", "state": "escalated"},
                           format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "state"
    response = client.post("/api/v1/aml/cases/", {"patron": world["fresh"].pk, "note": "see", "movements": [424242]},
                           format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "movements"
    assert _written() == before
