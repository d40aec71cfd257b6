"""The whole API, driven by its own OpenAPI schema: for every operation,
schemathesis generates requests that fit the schema and requests that do not (wrong types,
missing fields, out-of-range numbers, odd text), and Hypothesis sends them through the full
site, as each role. Whatever comes in: no 5xx; every error in the one error shape; every status
one the schema documents for that operation.

The example counts are bounded (EXAMPLES per operation and mode), so that CI stays fast; the
"ci" Hypothesis profile makes the run reproducible.
"""
from __future__ import annotations

import json

import pytest
import schemathesis
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings, strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.generation.modes import GenerationMode

from casino.pit import services
from tests.builders.pit import DRAW, NOON, next_record, seat, staff, table

EXAMPLES = 6


def api_schema() -> dict:
    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))


SCHEMA = api_schema()
API = schemathesis.openapi.from_dict(SCHEMA)
OPERATIONS = sorted((method.upper(), path) for path, methods in SCHEMA["paths"].items() for method in methods)


@pytest.fixture
def world(db):
    """Tables with a game, jogos, an amendment, a refusal and a flag, so that generated ids find
    real objects now and then; and a token for each role."""
    people, t1, t2 = staff()
    t3 = table("T3", staff=[people["dealer"], people["supervisor"]])
    game = seat(t1, people["dealer"])
    jogo, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    services.propose_amendment(jogo=jogo, user=people["supervisor2"], reason="a draw",
                               record=next_record(game, **DRAW) | {
        "capital": jogo.record["capital"], "round_wind": "E"})
    services.flag(jogo=jogo, user=people["inspector"], note="look")
    tokens = {role: Token.objects.create(user=people[role]).key
              for role in ("dealer", "supervisor", "inspector", "manager")}
    return {"tokens": tokens, "ids": sorted({t1.pk, t2.pk, t3.pk, game.pk, jogo.pk, 1, 2})}


def check(response, method: str, path: str) -> None:
    status = response.status_code
    assert status < 500, (method, path, status, response.content[:500])
    documented = SCHEMA["paths"][path][method.lower()]["responses"]
    assert str(status) in documented, (method, path, status, sorted(documented), response.content[:300])
    if status >= 400:
        assert response["Content-Type"].startswith("application/json"), (method, path, status)
        body = response.json()
        assert list(body) == ["errors"] and body["errors"], body
        for error in body["errors"]:
            assert {"code", "article", "message"} <= set(error) <= {"code", "article", "message", "field"}, error
            assert error["message"] and isinstance(error["message"], str)


def send(case, token: str | None, real_id: int | None):
    path_parameters = dict(case.path_parameters or {})
    if real_id is not None and "id" in path_parameters:
        path_parameters["id"] = real_id
    path = case.path
    for name, value in path_parameters.items():
        path = path.replace("{" + name + "}", str(value))
    headers = {f"HTTP_{name.upper().replace('-', '_')}": str(value) for name, value in (case.headers or {}).items()
               if name.lower() not in ("authorization", "content-type", "content-length", "host")}
    if token:
        headers["HTTP_AUTHORIZATION"] = f"Token {token}"
    query = {name: value for name, value in (case.query or {}).items()}
    client = Client(raise_request_exception=False)
    method = case.method.upper()
    if method == "GET":
        return client.get(path, query, **headers)
    body = case.body
    if isinstance(body, (bytes, str)):  # a body that is not JSON at all
        text = body
    else:
        text = "" if body is None or body.__class__.__name__ == "NotSet" else json.dumps(body)
    if query:
        from urllib.parse import urlencode
        path = f"{path}?{urlencode(query, doseq=True)}"
    return client.generic(method, path, text, content_type="application/json", **headers)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
@pytest.mark.parametrize("method,path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                         HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_no_request_the_schema_describes_gets_a_5xx_or_another_error_shape(world, method, path, mode, data):
    operation = API[path][method]
    case = data.draw(operation.as_strategy(generation_mode=mode), label="case")
    role = data.draw(st.sampled_from([None, "dealer", "supervisor", "inspector", "manager"]), label="role")
    # Mostly an object that exists (None: the id schemathesis generated, rarely one that exists).
    real_id = data.draw(st.sampled_from([*world["ids"], None]), label="id")
    response = send(case, world["tokens"].get(role), real_id)
    check(response, method, path)


def test_the_schema_covers_every_api_route_and_the_record():
    assert len(OPERATIONS) >= 25
    assert SCHEMA["components"]["schemas"]["Record"]["additionalProperties"] is False
    post_jogo = SCHEMA["paths"]["/api/v1/tables/{id}/jogos/"]["post"]
    assert post_jogo["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Record"}
    for path, methods in SCHEMA["paths"].items():
        for method, operation in methods.items():
            documented = set(operation["responses"])
            assert {"403", "404"} <= documented, (method, path)
            if method == "post":
                assert {"400", "409"} <= documented, (method, path)
