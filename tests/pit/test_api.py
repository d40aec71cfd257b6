"""The REST API: every endpoint against every role (the permission matrix), the portable
record in and the engine's errors out, idempotent retries, filters, the schema and the docs."""
import os
import subprocess
import sys

import pytest
from rest_framework.test import APIClient

from casino.pit import errors, services
from casino.pit.models import Amendment, Flag, Game, Jogo, MovementRefusal, Refusal
from casino.pit.roles import COUNTER
from tests.builders.pit import DRAW, NOON, api_routes, next_record, seat, staff, table, user

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "dealer", "other_dealer", "supervisor", "inspector", "manager", "counter"]
ALL = {"dealer", "other_dealer", "supervisor", "inspector", "manager"}
EVERYONE = ALL | {"counter"}  # the API's root and docs; a counter sees nothing of the pit (tests/count/test_api.py)
AT_T1 = {"dealer", "supervisor", "inspector", "manager"}  # pit staff of T1, and those who read all
PIT = {"dealer", "supervisor"}
OVERSIGHT = {"supervisor", "inspector", "manager"}
# The endpoints that name one table's table, game, jogo or movement: T1's or T3's, which the dealer
# of T2 does not see.
AT_ANOTHER_TABLE = {"table", "start_game", "record_jogo", "open_table", "close_table", "game", "end_game", "movement",
                    "jogo", "flag", "movement_detail"}
PASSWORD = "correct horse battery"  # every builder's user's (tests/builders/pit.py)


@pytest.fixture
def world():
    people, t1, t2 = staff()
    people["counter"] = user("counter", COUNTER)
    t3 = table("T3", staff=[people["dealer"], people["supervisor"]])  # open, no game yet
    game = seat(t1, people["dealer"])
    jogo, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    amendment = services.propose_amendment(jogo=jogo, user=people["supervisor2"], record=next_record(game, **DRAW) | {
        "capital": jogo.record["capital"], "round_wind": "E"}, reason="it was a draw")
    try:
        services.record_jogo(table=t1, user=people["dealer"], record=next_record(game, stake=50))
    except errors.Refused:
        pass
    flag = services.flag(jogo=jogo, user=people["inspector"], note="declared grade looked wrong")
    # A buy-in refused at the large-transaction threshold, as move_money keeps one
    # (tests/pit/test_large_transactions.py makes them through the service).
    movement_refusal = MovementRefusal.objects.create(
        table=t1, game=game, chair=1, patron=game.players.get(chair=1).patron, kind="buy_in", amount=600_000,
        attempted_at=NOON, attempted_by=people["supervisor"], gaming_day=jogo.gaming_day,
        errors=[{"code": "identification_needed", "article": None, "message": "identify the player first"}])
    return {"people": people, "t1": t1, "t3": t3, "game": game, "jogo": jogo, "amendment": amendment,
            "refusal": Refusal.objects.get(), "flag": flag, "movement": game.movements.first(),
            "movement_refusal": movement_refusal}


def body_for(name, w):
    game = w["game"]
    return {
        "start_game": {"players": [{"chair": c, "name": f"P{c}", "capital": 1000} for c in range(4)],
                       "first_banker": 0, "witness_username": "supervisor", "witness_password": PASSWORD},
        "record_jogo": next_record(game, **DRAW),
        "movement": {"chair": 1, "kind": "buy_in", "amount": 500},
        "flag": {"note": "check the discarder"},
        "propose": {"jogo": w["jogo"].pk, "reason": "wrong discarder",
                    "record": {**w["jogo"].record, "discarder": "N"}},
        "decide": {"reason": "camera review"},
        # T1's box of the day is not counted: the manager closes the day all the same.
        "close_day": {"casino": w["t1"].casino_id, "day": w["jogo"].gaming_day.isoformat(),
                      "override_reason": "the box is counted tomorrow"},
    }.get(name)


# (name, method, path, body, roles allowed, status when allowed)
ENDPOINTS = [
    ("api_root", "get", "/api/v1/", None, EVERYONE, 200),
    ("tables", "get", "/api/v1/tables/", None, ALL, 200),
    ("table", "get", "/api/v1/tables/{t1}/", None, AT_T1, 200),
    ("start_game", "post", "/api/v1/tables/{t3}/games/", "start_game", PIT, 201),
    ("record_jogo", "post", "/api/v1/tables/{t1}/jogos/", "record_jogo", PIT, 201),
    ("open_table", "post", "/api/v1/tables/{t3}/open/", None, {"supervisor"}, 200),
    ("close_table", "post", "/api/v1/tables/{t3}/close/", None, {"supervisor"}, 200),
    ("games", "get", "/api/v1/games/", None, ALL, 200),
    ("game", "get", "/api/v1/games/{game}/", None, AT_T1, 200),
    ("end_game", "post", "/api/v1/games/{game}/end/", None, PIT, 200),
    ("movement", "post", "/api/v1/games/{game}/movements/", "movement", {"supervisor"}, 201),
    ("jogos", "get", "/api/v1/jogos/", None, ALL, 200),
    ("jogo", "get", "/api/v1/jogos/{jogo}/", None, AT_T1, 200),
    ("flag", "post", "/api/v1/jogos/{jogo}/flag/", "flag", {"inspector"}, 201),
    ("movements", "get", "/api/v1/movements/", None, ALL, 200),
    ("movement_detail", "get", "/api/v1/movements/{movement}/", None, AT_T1, 200),
    ("amendments", "get", "/api/v1/amendments/", None, OVERSIGHT, 200),
    ("amendment", "get", "/api/v1/amendments/{amendment}/", None, OVERSIGHT, 200),
    ("propose", "post", "/api/v1/amendments/", "propose", {"supervisor"}, 201),
    ("approve", "post", "/api/v1/amendments/{amendment}/approve/", "decide", {"supervisor", "manager"}, 200),
    ("reject", "post", "/api/v1/amendments/{amendment}/reject/", "decide", {"supervisor", "manager"}, 200),
    ("refusals", "get", "/api/v1/refusals/", None, OVERSIGHT, 200),
    ("refusal", "get", "/api/v1/refusals/{refusal}/", None, OVERSIGHT, 200),
    # Refused buy-ins and cash-outs: inspectors and managers, and the supervisors of the table.
    ("movement_refusals", "get", "/api/v1/movement-refusals/", None, OVERSIGHT, 200),
    ("movement_refusal", "get", "/api/v1/movement-refusals/{movement_refusal}/", None, OVERSIGHT, 200),
    # Supervisors read the inspectors' flags on their tables (issue 24; roles.py).
    ("flags", "get", "/api/v1/flags/", None, {"supervisor", "inspector", "manager"}, 200),
    ("flag_detail", "get", "/api/v1/flags/{flag}/", None, {"supervisor", "inspector", "manager"}, 200),
    ("close_day", "post", "/api/v1/gaming-days/close/", "close_day", {"manager"}, 200),
    ("schema", "get", "/api/v1/schema/", None, EVERYONE, 200),
    ("docs", "get", "/api/v1/docs/", None, EVERYONE, 200),
    ("redoc", "get", "/api/v1/redoc/", None, EVERYONE, 200),
]


def next_number(at_table) -> int:
    """The table's next jogo number, which a jogo's POST names (Jogo-Number)."""
    at_table.refresh_from_db()
    return at_table.jogos_recorded + 1


def client_for(role, w):
    client = APIClient()
    if role != "anonymous":
        client.force_authenticate(w["people"][role])
    return client


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name,method,path,body,allowed,ok", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_permission_matrix(world, role, name, method, path, body, allowed, ok):
    ids = {key: getattr(value, "pk", None) for key, value in world.items()}
    before = Jogo.objects.count(), Amendment.objects.filter(state="pending").count(), Flag.objects.count()
    response = getattr(client_for(role, world), method)(path.format(**ids), body_for(body, world), format="json",
                                                        HTTP_JOGO_NUMBER=str(next_number(world["t1"])))

    if role in allowed:
        assert response.status_code == ok, response.content
    else:
        # 404: the object is at a table the user does not see (pit staff of another table,
        # casino/pit/access.py), looked up before the permission is asked; otherwise 403, the role
        # lacks the permission, anonymous too (the session, asked first, names no scheme for a 401).
        unseen = role == "other_dealer" and name in AT_ANOTHER_TABLE
        assert response.status_code == (404 if unseen else 403), response.content
        assert (Jogo.objects.count(), Amendment.objects.filter(state="pending").count(),
                Flag.objects.count()) == before  # a refused request wrote nothing


def test_every_api_route_is_in_the_permission_matrix(world):
    from django.urls import resolve

    # The count's routes are in tests/count/test_api.py, the alerts' in tests/floor/test_alerts_api.py; the
    # players' (/api/v1/players/) and the suspicious-transaction cases' (/api/v1/aml/) in their own matrices.
    every = (api_routes("api/v1/", but="api/v1/count/") - api_routes("api/v1/alerts/") - api_routes("api/v1/players/")
             - api_routes("api/v1/aml/"))
    ids = {key: getattr(value, "pk", None) for key, value in world.items()}
    covered = {resolve(path.format(**ids)).route for _, _, path, *_ in ENDPOINTS}
    covered.add(resolve("/api/v1/auth/token/").route)  # the login itself: test_token_authentication
    assert covered == every


def test_posting_a_jogo_takes_the_portable_record_and_returns_the_engines_errors(world):
    client = client_for("dealer", world)
    bad = next_record(world["game"], hand={"concealed": "345m678p234s99m11p", "winning_tile": "9p"})
    response = client.post(f"/api/v1/tables/{world['t1'].pk}/jogos/", bad, format="json", HTTP_JOGO_NUMBER="2")

    assert response.status_code == 400
    error, = response.json()["errors"]
    assert error["code"] == "not_a_winning_hand" and error["article"] and error["message"].startswith("Art. ")

    good = next_record(world["game"])
    response = client.post(f"/api/v1/tables/{world['t1'].pk}/jogos/", good, format="json", HTTP_IDEMPOTENCY_KEY="k7",
                           HTTP_JOGO_NUMBER="2")
    assert response.status_code == 201
    data = response.json()
    assert (data["number"], data["fan"], data["commission"]) == (2, 0, 10)
    assert data["outcome"]["net"] == {"E": -50, "S": 90, "W": -25, "N": -25}  # Art. 7: the banker pays double
    again = client.post(f"/api/v1/tables/{world['t1'].pk}/jogos/", good, format="json", HTTP_IDEMPOTENCY_KEY="k7",
                        HTTP_JOGO_NUMBER="2")
    assert again.status_code == 200 and again.json()["id"] == data["id"]


def test_a_malformed_record_is_a_400_naming_the_field(world):
    response = client_for("dealer", world).post(f"/api/v1/tables/{world['t1'].pk}/jogos/",
                                                next_record(world["game"], stake=1.5), format="json",
                                                HTTP_JOGO_NUMBER="2")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "stake"


def test_a_dealer_sees_only_his_tables_and_the_table_shows_the_next_jogo(world):
    response = client_for("dealer", world).get("/api/v1/tables/")
    numbers = [t["number"] for t in response.json()["results"]]
    assert numbers == ["T1", "T3"]
    t1 = response.json()["results"][0]
    # After South's win the bank passed to chair 1 (Art. 3).
    assert t1["next"]["banker_chair"] == 1 and t1["next"]["round_wind"] == "E"
    # A dealer sees the players' names masked (casino/pit/privacy.py); the supervisor of the table in full.
    patron = world["game"].players.get(chair=1).patron_id
    assert t1["next"]["seats"]["E"] == {"chair": 1, "player": "P***** 1", "patron": patron, "capital": 3090}
    seen = client_for("supervisor", world).get("/api/v1/tables/").json()["results"][0]
    assert seen["next"]["seats"]["E"]["player"] == "Player 1"
    assert t1["commission"] == 10
    assert [t["number"] for t in client_for("inspector", world).get("/api/v1/tables/").json()["results"]] == \
        ["T1", "T2", "T3"]


def test_nobody_approves_his_own_amendment_through_the_api(world):
    client = APIClient()
    client.force_authenticate(world["people"]["supervisor2"])
    response = client.post(f"/api/v1/amendments/{world['amendment'].pk}/approve/")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "own_amendment"


def test_jogo_filters(world):
    client = client_for("inspector", world)
    assert client.get("/api/v1/jogos/?flagged=true").json()["count"] == 1
    assert client.get("/api/v1/jogos/?flagged=false").json()["count"] == 0
    assert client.get("/api/v1/jogos/?result=draw").json()["count"] == 0
    assert client.get(f"/api/v1/jogos/?table={world['t1'].pk}&gaming_day=2026-11-21").json()["count"] == 1
    assert client.get("/api/v1/jogos/?gaming_day=2026-11-20").json()["count"] == 0
    assert client.get("/api/v1/jogos/?current=true").json()["count"] == 1


def test_table_filters_choose_among_tables_read_not_the_table_recorded_at(world):
    client = client_for("dealer", world)
    t1 = world["t1"]
    open_tables = client.get("/api/v1/tables/?is_open=true").json()["results"]
    assert [row["id"] for row in open_tables] == [t1.pk, world["t3"].pk]
    assert client.get("/api/v1/tables/?stake=50").json()["count"] == 0
    assert client.get(f"/api/v1/tables/{t1.pk}/?stake=50").status_code == 404
    # Recording a jogo is not a search: a query string does not hide the table written to.
    t1.refresh_from_db()
    response = client.post(f"/api/v1/tables/{t1.pk}/jogos/?stake=50", next_record(world["game"], **DRAW),
                           format="json", HTTP_JOGO_NUMBER=str(t1.jogos_recorded + 1))
    assert response.status_code == 201, response.json()


def test_each_worker_imports_the_urlconf_as_it_starts():
    """gunicorn imports casino.wsgi in each worker before its first request: the URLconf (every
    view) is then loaded, and the first request does not wait for it."""
    code = ("import casino.wsgi; from django.urls import get_resolver; "
            "print('url_patterns' in vars(get_resolver()))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings"})
    assert done.stdout.strip() == "True"


def test_token_authentication(world):
    person = world["people"]["dealer"]
    client = APIClient()
    response = client.post("/api/v1/auth/token/", {"username": "dealer", "password": "correct horse battery"})
    assert response.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert client.get("/api/v1/tables/").status_code == 200
    assert person.auth_token.key == response.json()["token"]


def test_the_schema_is_valid_openapi():
    from django.core.management import call_command
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


def test_the_docs_are_served_from_this_site(world):
    page = client_for("inspector", world).get("/api/v1/docs/").content.decode()
    assert "cdn" not in page.lower() and "/static/drf_spectacular_sidecar/" in page


@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_the_docs_ask_a_visitor_to_log_in_and_come_back(client, path):
    response = client.get(path)
    page = response.content.decode()
    assert response.status_code == 403 and "Log in to read the API's documentation" in page
    assert f'href="/accounts/login/?next={path}"' in page


def test_the_admin_shows_ledger_tables_read_only(world, admin_client):
    jogo = world["jogo"]
    assert admin_client.get(f"/admin/pit/jogo/{jogo.pk}/change/").status_code == 200
    assert admin_client.post(f"/admin/pit/jogo/{jogo.pk}/delete/", {"post": "yes"}).status_code == 403
    assert admin_client.get("/admin/pit/jogo/add/").status_code == 403
    assert Jogo.objects.filter(pk=jogo.pk).exists()


def test_the_list_of_tables_reads_each_tables_next_jogo_in_a_fixed_number_of_queries(django_assert_max_num_queries):
    people, t1, _t2 = staff()
    manager = people["manager"]
    seat(t1, people["dealer"])
    client = APIClient()
    client.force_authenticate(manager)
    with django_assert_max_num_queries(12) as few:
        first = client.get("/api/v1/tables/").json()
    for number in range(3, 9):
        seat(table(f"T{number}", staff=[people["dealer"]]), people["dealer"])
    with django_assert_max_num_queries(len(few.captured_queries)):
        many = client.get("/api/v1/tables/").json()
    rows = many["results"] if isinstance(many, dict) else many
    assert len(rows) == 8 and all(row["next"]["number"] == 1 for row in rows if row["number"] != "T2")
    assert [row for row in rows if row["number"] == "T1"] == [
        row for row in (first["results"] if isinstance(first, dict) else first) if row["number"] == "T1"]


def test_the_list_of_games_reads_each_games_capital_in_a_fixed_number_of_queries(django_assert_max_num_queries):
    from casino.pit import selectors

    people, t1, _t2 = staff()
    client = APIClient()
    client.force_authenticate(people["manager"])

    def play_a_game(at_table, *, end: bool):
        game = seat(at_table, people["dealer"])
        services.record_jogo(table=at_table, user=people["dealer"], record=next_record(game), at=NOON)
        services.move_money(game=game, user=people["supervisor"], chair=0, kind="cash_out", amount=100, at=NOON)
        if end:
            services.end_game(game=game, user=people["dealer"], at=NOON)
        return game

    play_a_game(t1, end=True)
    seat(t1, people["dealer"])  # a game in progress with no jogo yet
    with django_assert_max_num_queries(20) as few:
        client.get("/api/v1/games/")
    for number in range(3, 7):
        at_table = table(f"T{number}", staff=[people["dealer"], people["supervisor"]])
        play_a_game(at_table, end=True)
        play_a_game(at_table, end=False)
    with django_assert_max_num_queries(len(few.captured_queries)):
        rows = client.get("/api/v1/games/").json()["results"]
    assert len(rows) == 10
    assert {row["id"]: row["capital"] for row in rows} == {
        game.pk: selectors.standing(game).capital for game in Game.objects.all()}
