"""The count's API (/api/v1/count/): every endpoint against every role (counters see only
counting), the blind count through the API, and its errors in the one shape."""
from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from casino.count import services
from casino.count.models import Case, CaseEvent, Count, Decision, Rotation, Signature
from casino.pit.roles import COUNTER
from tests.builders.count import PASSWORD, box_played_yesterday, cast
from tests.builders.pit import NOON, api_routes, user

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "dealer", "supervisor", "inspector", "manager", "counter1"]
COUNTERS = {"counter1"}
READERS = {"counter1", "inspector", "manager"}
OVERSIGHT = {"inspector", "manager"}
ROTATION_READERS = {"supervisor", "inspector", "manager"}


@pytest.fixture
def world(settings):
    """T1's and T2's boxes of yesterday at this hour, ready to count (commission 20 each); T2's
    counted short by counters 2 and 3, its case open."""
    settings.COUNT_VARIANCE_ABSOLUTE, settings.COUNT_VARIANCE_PERCENT = 100, 2
    people, t1, t2 = cast()
    box = box_played_yesterday(t1, people["dealer"])
    short = box_played_yesterday(t2, people["other_dealer"])
    for counter in (people["counter2"], people["counter3"]):
        services.sign_count(box=short, user=counter, password=PASSWORD, counted=5)
    entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON,
                                    user=people["supervisor"])
    return {"people": people, "box": box, "case": Case.objects.get(box=short), "t1": t1, "entry": entry}


def _two_sign(w, first, second, counted, second_counted=None):
    for counter, total in ((first, counted), (second, counted if second_counted is None else second_counted)):
        services.sign_count(box=w["box"], user=w["people"][counter], password=PASSWORD, counted=total)


def _agreed_recount(w):
    """The box counted alike by counters 2 and 3, a recount approved, and counted again alike by
    counter 1 and a fourth counter who had seen nothing."""
    _two_sign(w, "counter2", "counter3", 20)
    services.approve_recount(box=w["box"], user=w["people"]["manager"], reason="seal broken")
    w["people"]["counter4"] = user("counter4", COUNTER)
    _two_sign(w, "counter1", "counter4", 21)


# What each endpoint needs done first.
SETUP = {
    "recount": lambda w: _two_sign(w, "counter2", "counter3", 20, 21),  # a recount follows a disagreement
    "approve": lambda w: _two_sign(w, "counter2", "counter3", 20),  # an approval follows an agreement
    "accept": _agreed_recount,
}


def client_for(role, w):
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(w["people"][role])
    return client


# (name, method, path, body, roles allowed, status when allowed)
ENDPOINTS = [
    ("boxes", "get", "/api/v1/count/boxes/", None, READERS, 200),
    ("box", "get", "/api/v1/count/boxes/{box}/", None, READERS, 200),
    ("count", "post", "/api/v1/count/boxes/{box}/count/", {"count": 1, "counted": 20, "password": PASSWORD},
     COUNTERS, 201),
    ("recount", "post", "/api/v1/count/boxes/{box}/recount/", {"reason": "a chip on the floor"}, COUNTERS, 201),
    ("approve", "post", "/api/v1/count/boxes/{box}/approve-recount/", {"reason": "the seal was broken"},
     {"manager"}, 201),
    ("accept", "post", "/api/v1/count/boxes/{box}/accept-recount/", {"count": 2, "reason": "the seal was broken"},
     {"manager"}, 201),
    ("cases", "get", "/api/v1/count/cases/", None, OVERSIGHT, 200),
    ("case", "get", "/api/v1/count/cases/{case}/", None, OVERSIGHT, 200),
    ("note", "post", "/api/v1/count/cases/{case}/notes/", {"note": "camera 3 reviewed"}, OVERSIGHT, 201),
    ("explain", "post", "/api/v1/count/cases/{case}/state/", {"state": "explained", "note": "a chip under the tray"},
     OVERSIGHT, 201),
    ("resolve", "post", "/api/v1/count/cases/{case}/state/", {"state": "resolved", "note": "found and returned"},
     {"manager"}, 201),
    ("rotation", "get", "/api/v1/count/rotation/?day=2026-11-21", None, ROTATION_READERS, 200),
    ("rotation entry", "get", "/api/v1/count/rotation/{entry}/", None, ROTATION_READERS, 200),
    ("rotation start", "post", "/api/v1/count/rotation/",
     {"table": "{t1}", "person": "{counter1}", "starts_at": "2026-11-21T13:00:00+08:00"}, {"supervisor"}, 201),
    ("rotation close", "post", "/api/v1/count/rotation/{entry}/close/", {"ends_at": "2026-11-21T14:00:00+08:00"},
     {"supervisor"}, 200),
    ("rotation relieve", "post", "/api/v1/count/rotation/{entry}/relieve/",
     {"person": "{counter1}", "at": "2026-11-21T13:00:00+08:00"}, {"supervisor"}, 201),
    ("rotation draft", "get", "/api/v1/count/rotation/draft/?day=2026-11-21&shift=2", None, ROTATION_READERS, 200),
    ("rotation confirm", "post", "/api/v1/count/rotation/confirm/",
     {"day": "2026-11-21", "shift": 2, "lines": [{"entry": "{entry}", "person": "{counter1}"}]}, {"supervisor"}, 201),
]


def _ids(w) -> dict:
    return {"box": w["box"].pk, "case": w["case"].pk, "entry": w["entry"].pk, "t1": w["t1"].pk,
            "counter1": w["people"]["counter1"].pk}


def _body(body, w):
    def filled(value):
        if isinstance(value, list):
            return [_body(item, w) for item in value]
        return int(value.format(**_ids(w))) if isinstance(value, str) and value.startswith("{") else value

    return {key: filled(value) for key, value in body.items()} if body else body


def _written():
    return (Count.objects.count(), Signature.objects.count(), CaseEvent.objects.count(), Decision.objects.count(),
            Rotation.objects.count(), Rotation.objects.exclude(ends_at=None).count())


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name,method,path,body,allowed,ok", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_permission_matrix(world, role, name, method, path, body, allowed, ok):
    SETUP.get(name, lambda w: None)(world)
    before = _written()
    response = getattr(client_for(role, world), method)(path.format(**_ids(world)), _body(body, world), format="json")
    if role in allowed:
        assert response.status_code == ok, response.content
    else:
        # 403: the role lacks the permission, checked before any box, case or rotation entry is
        # looked up; anonymous too (the session, asked first, names no scheme for a 401).
        assert response.status_code == 403, response.content
        assert _written() == before


def test_every_count_api_route_is_in_the_permission_matrix(world):
    from django.urls import resolve

    every = api_routes("api/v1/count/")
    covered = {resolve(path.format(**_ids(world)).partition("?")[0]).route for _, _, path, *_ in ENDPOINTS}
    assert covered == every


def test_a_blind_count_through_the_api(world):
    first, second = client_for("counter1", world), client_for("counter2", world)
    url = f"/api/v1/count/boxes/{world['box'].pk}/"
    listed = first.get("/api/v1/count/boxes/").json()
    # T2's box, counted by two other counters, is not counter 1's to see.
    assert [(b["table"], b["state"], b["expected"]) for b in listed] == [("T1", "waiting", None)]
    assert [b["table"] for b in client_for("inspector", world).get("/api/v1/count/boxes/").json()] == ["T1", "T2"]
    assert first.post(url + "count/", {"count": 1, "counted": 15, "password": PASSWORD, "denominations": {"5": 3}},
                      format="json").status_code == 201
    shown = second.get(url).json()
    assert (shown["state"], shown["signed_by"], shown["totals"], shown["expected"]) == (
        "counting", ["counter1"], None, None)
    assert client_for("inspector", world).get(url).json()["expected"] == 20  # who does not count sees it
    assert second.post(url + "count/", {"count": 1, "counted": 15, "password": PASSWORD},
                       format="json").status_code == 201
    shown = first.get(url).json()
    assert (shown["state"], shown["totals"], shown["counted"], shown["expected"], shown["variance"]) == (
        "counted", [15, 15], 15, 20, -5)


def test_the_api_refuses_bad_counts_in_the_one_error_shape(world):
    counter = client_for("counter1", world)
    url = f"/api/v1/count/boxes/{world['box'].pk}/count/"
    response = counter.post(url, {"count": 1, "counted": -1, "password": PASSWORD}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "counted"
    response = counter.post("/api/v1/count/boxes/99999/count/", {"count": 1, "counted": 1, "password": PASSWORD},
                            format="json")
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"
    response = counter.post(url, {"count": 1, "counted": 20, "password": "wrong"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "password"
    response = counter.post(url, {"count": 1, "password": PASSWORD}, format="json")
    assert response.status_code == 400 and "Amount counted" in response.json()["errors"][0]["message"]
    assert not Signature.objects.filter(box=world["box"]).exists()


def test_a_counter_sees_no_pit_endpoint(world):
    counter = client_for("counter1", world)
    for path in ("/api/v1/tables/", "/api/v1/jogos/", "/api/v1/games/", "/api/v1/movements/", "/api/v1/flags/"):
        assert counter.get(path).status_code == 403, path


def test_the_apis_root_lists_the_counts_collections_beside_the_pits(world):
    root = client_for("counter1", world).get("/api/v1/").json()
    assert root["count/boxes"] == "http://testserver/api/v1/count/boxes/"
    assert {"count/cases", "count/rotation", "tables", "jogos"} <= set(root)


def test_a_case_is_read_and_worked_through_the_api(world):
    inspector, manager = client_for("inspector", world), client_for("manager", world)
    url = f"/api/v1/count/cases/{world['case'].pk}/"
    case = inspector.get(url).json()
    assert (case["table"], case["state"]) == ("T2", "open")
    assert [(e["kind"], e["expected"], e["counted"], e["variance"], e["by"]) for e in case["events"]] == [
        ("opened", 20, 5, -15, "counter3")]
    assert inspector.post(url + "notes/", {"note": "camera 3 reviewed"}, format="json").status_code == 201
    assert inspector.post(url + "state/", {"state": "escalated", "note": "chips missing"},
                          format="json").status_code == 201
    response = inspector.post(url + "state/", {"state": "resolved", "note": "done"}, format="json")
    assert response.status_code == 403 and response.json()["errors"][0]["code"]
    response = manager.post(url + "state/", {"state": "explained", "note": "x"}, format="json")
    assert response.status_code == 409  # only an open case is explained; this one is escalated
    response = manager.post(url + "state/", {"state": "closed", "note": "x"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "state"
    assert manager.post(url + "state/", {"state": "resolved", "note": "dealer dismissed"},
                        format="json").status_code == 201
    assert [e["kind"] for e in inspector.get(url).json()["events"]] == ["opened", "note", "escalated", "resolved"]
    assert inspector.get("/api/v1/count/cases/?state=resolved").json()["count"] == 1


def test_boxes_are_listed_by_gaming_day(world):
    counter, inspector = client_for("counter1", world), client_for("inspector", world)
    day = world["box"].gaming_day
    assert len(inspector.get(f"/api/v1/count/boxes/?gaming_day={day}").json()) == 2
    assert len(counter.get(f"/api/v1/count/boxes/?gaming_day={day}").json()) == 1  # not T2's, counted by others
    assert counter.get(f"/api/v1/count/boxes/?gaming_day={day - dt.timedelta(days=1)}").json() == []
    response = counter.get("/api/v1/count/boxes/?gaming_day=yesterday")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "gaming_day"
