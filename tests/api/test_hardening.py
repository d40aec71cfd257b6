"""No input makes the API answer 5xx: each request that once got a 500, or froze a table, now
gets a 4xx in the one error shape, writes nothing, and the table still records afterwards. The
NUL character and bigint cases only ever failed on PostgreSQL: run these on both databases."""
import json

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation
from rest_framework.test import APIClient

from casino.pit import selectors, services
from casino.pit.errors import Refused
from casino.pit.models import Flag, Game, Jogo, Movement, Player, Refusal, Table
from regulation.record import MAX_AMOUNT
from tests.builders.pit import DRAW, NOON, next_record, seat, staff, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    jogo, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    return {"people": people, "t1": t1, "t3": table("T3", staff=[people["dealer"]]), "game": game, "jogo": jogo}


def client(person=None) -> APIClient:
    """A client of `person`, whose jogo POSTs name T1's next jogo (Jogo-Number), as they must."""
    made = APIClient()
    if person is not None:
        made.force_authenticate(person)
    made.credentials(HTTP_JOGO_NUMBER=str(Table.objects.get(number="T1").jogos_recorded + 1))
    return made


def errors(response, status: int) -> list[dict]:
    """The response's errors, after checking its status and the one error shape:
    {"errors": [{"code", "article", "message"[, "field"]}]}."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert list(body) == ["errors"] and body["errors"], body
    for error in body["errors"]:
        assert {"code", "article", "message"} <= set(error) <= {"code", "article", "message", "field"}, error
        assert isinstance(error["code"], str) and error["code"]
        assert isinstance(error["message"], str) and error["message"]
        assert error["article"] is None or isinstance(error["article"], str)
    return body["errors"]


def ledger(world) -> tuple:
    return (Jogo.objects.count(), Movement.objects.count(), Game.objects.count(), Player.objects.count(),
            Flag.objects.count())


def still_records(world) -> None:
    """The table takes its next jogo, as if nothing had happened."""
    game = Game.objects.get(pk=world["game"].pk)
    response = client(world["people"]["dealer"]).post(f"/api/v1/tables/{world['t1'].pk}/jogos/",
                                                      next_record(game), format="json")
    assert response.status_code == 201, response.content


def post_json(person, path, text: str, **headers):
    return client(person).generic("POST", path, text, content_type="application/json", **headers)


# --- Each request that once got a 500 ------------------------------------------------------------

def test_an_idempotency_key_longer_than_its_column_is_a_400_naming_the_header(world):
    before = ledger(world)
    response = client(world["people"]["dealer"]).post(
        f"/api/v1/tables/{world['t1'].pk}/jogos/", next_record(world["game"]), format="json",
        HTTP_IDEMPOTENCY_KEY="k" * 101)
    error, = errors(response, 400)
    assert error["field"] == "Idempotency-Key" and "Idempotency-Key" in error["message"]
    assert ledger(world) == before
    still_records(world)


def test_json_nested_a_thousand_levels_deep_is_a_400(world):
    deep = "[" * 1000 + "]" * 1000
    for path in (f"/api/v1/tables/{world['t1'].pk}/jogos/", f"/api/v1/jogos/{world['jogo'].pk}/flag/"):
        person = world["people"]["dealer" if "tables" in path else "inspector"]
        error, = errors(post_json(person, path, deep), 400)
        assert error["code"] == "too_deep"
    shallow_but_deep_enough = json.dumps({"note": [[[[[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]]]]})
    errors(post_json(world["people"]["inspector"], f"/api/v1/jogos/{world['jogo'].pk}/flag/",
                     shallow_but_deep_enough), 400)
    still_records(world)


@pytest.mark.parametrize("fmt", ["multipart", None])
def test_a_form_body_for_a_jogo_is_a_415(world, fmt):
    dealer = world["people"]["dealer"]
    path = f"/api/v1/tables/{world['t1'].pk}/jogos/"
    if fmt:
        response = client(dealer).post(path, {"result": "draw", "variant": "conventional"}, format=fmt)
    else:
        response = client(dealer).generic("POST", path, "result=draw&variant=conventional",
                                          content_type="application/x-www-form-urlencoded")
    error, = errors(response, 415)
    assert error["code"] == "unsupported_media_type"
    still_records(world)


def _with_nul(world):
    record = next_record(world["game"])
    return {
        "a condition": ("dealer", f"/api/v1/tables/{world['t1'].pk}/jogos/",
                        {**record, "conditions": ["last\x00tile"]}),
        "a key of the record": ("dealer", f"/api/v1/tables/{world['t1'].pk}/jogos/", {**record, "\x00": 1}),
        "a tile": ("dealer", f"/api/v1/tables/{world['t1'].pk}/jogos/",
                   {**record, "hand": {"concealed": "345m678p\x00", "winning_tile": "1p"}}),
        "an amendment's reason": ("supervisor", "/api/v1/amendments/",
                                  {"jogo": world["jogo"].pk, "reason": "typo\x00", "record": world["jogo"].record}),
        "an amended record": ("supervisor", "/api/v1/amendments/",
                              {"jogo": world["jogo"].pk, "reason": "typo", "record": {**world["jogo"].record,
                                                                                       "winner": "S\x00"}}),
        "a flag's note": ("inspector", f"/api/v1/jogos/{world['jogo'].pk}/flag/", {"note": "odd\x00"}),
        "a player's name": ("dealer", f"/api/v1/tables/{world['t3'].pk}/games/",
                            {"first_banker": 0, "players": [{"chair": c, "name": f"P{c}\x00", "capital": 100}
                                                            for c in range(4)]}),
    }


@pytest.mark.parametrize("where", ["a condition", "a key of the record", "a tile", "an amendment's reason",
                                   "an amended record", "a flag's note", "a player's name"])
def test_a_nul_character_anywhere_is_a_400(world, where):
    role, path, body = _with_nul(world)[where]
    before = ledger(world)
    error, = errors(client(world["people"][role]).post(path, body, format="json"), 400)
    assert error["code"] == "nul_character" and "NUL" in error["message"]
    assert ledger(world) == before
    still_records(world)


def test_a_nul_character_in_a_query_filter_is_a_400(world):
    error, = errors(client(world["people"]["inspector"]).get("/api/v1/jogos/?result=dr%00aw"), 400)
    assert error["field"] == "result"


@pytest.mark.parametrize("amount", [10**30, 2**63, 2**62, MAX_AMOUNT + 1])
def test_a_movement_above_the_amount_limit_is_a_400_naming_the_amount(world, amount):
    before = ledger(world)
    response = client(world["people"]["supervisor"]).post(f"/api/v1/games/{world['game'].pk}/movements/",
                                                      {"chair": 1, "kind": "buy_in", "amount": amount}, format="json")
    error, = errors(response, 400)
    assert error["field"] == "amount" and error["code"] == "max_value"
    assert str(MAX_AMOUNT) in error["message"] and "Amount" in error["message"]
    assert ledger(world) == before
    still_records(world)


@pytest.mark.parametrize("amount", [10**30, 2**63, MAX_AMOUNT + 1])
def test_seating_with_a_capital_above_the_amount_limit_is_a_400_naming_the_player(world, amount):
    players = [{"chair": c, "name": f"P{c}", "capital": 1000} for c in range(4)]
    players[2]["capital"] = amount
    before = ledger(world)
    response = client(world["people"]["dealer"]).post(f"/api/v1/tables/{world['t3'].pk}/games/",
                                                      {"first_banker": 0, "players": players}, format="json")
    error, = errors(response, 400)
    assert error["field"] == "players.2.capital" and error["code"] == "max_value"
    assert error["message"].startswith("Players › 3 › Capital at stake:")
    assert ledger(world) == before


def test_the_buy_in_that_froze_a_table_is_refused_and_the_table_records(world):
    """A buy-in of 2^62 was accepted with a 201, and from then on the engine refused every record
    (capital above 10^12). Now the buy-ins that would take a capital past the limit are refused,
    at the limit itself the table still records."""
    dealer, game = world["people"]["supervisor"], world["game"]  # money is moved by the supervisor
    errors(client(dealer).post(f"/api/v1/games/{game.pk}/movements/",
                               {"chair": 0, "kind": "buy_in", "amount": 2**62}, format="json"), 400)
    room = MAX_AMOUNT - selectors.standing(game).capital[0]
    error, = errors(client(dealer).post(f"/api/v1/games/{game.pk}/movements/",
                                        {"chair": 0, "kind": "buy_in", "amount": room + 1}, format="json"), 400)
    assert error["field"] == "amount" and error["article"] == "9(a)(4)"
    response = client(dealer).post(f"/api/v1/games/{game.pk}/movements/",
                                   {"chair": 0, "kind": "buy_in", "amount": room}, format="json")
    assert response.status_code == 201, response.content
    assert selectors.standing(game).capital[0] == MAX_AMOUNT
    still_records(world)


def test_the_service_refuses_amounts_above_the_limit_whoever_calls_it(world):
    dealer, game = world["people"]["dealer"], world["game"]
    with pytest.raises(Refused) as refused:
        services.move_money(game=game, user=dealer, chair=1, kind="buy_in", amount=MAX_AMOUNT)
    assert refused.value.problems[0].field == "amount"
    players = [{"chair": c, "name": f"P{c}", "capital": MAX_AMOUNT + (c == 3)} for c in range(4)]
    with pytest.raises(Refused) as refused:
        services.start_game(table=world["t3"], user=dealer, players=players, first_banker=0)
    assert refused.value.problems[0].code == "capital"
    assert not world["t3"].games.exists()


def test_the_database_refuses_a_movement_above_the_amount_limit(world):
    """The last door: a row written past the service (a script, a bug) is refused by the check
    constraint movement_amount_within_limit."""
    game, dealer = world["game"], world["people"]["dealer"]
    row = Movement(table=world["t1"], game=game, chair=0, kind="buy_in", amount=MAX_AMOUNT + 1, after_jogos=1,
                   seq=999, prev_hash="0" * 64, hash="1" * 64, recorded_at=NOON, recorded_by=dealer,
                   gaming_day=NOON.date())
    with pytest.raises(IntegrityError), transaction.atomic():
        row.save()


@pytest.mark.parametrize("body", [{"note": {"text": "x"}}, {"note": ["x"]}, ["note"], {"note": ""}, {}, "note"])
def test_a_flag_with_a_note_that_is_not_text_is_a_400(world, body):
    before = ledger(world)
    response = client(world["people"]["inspector"]).post(f"/api/v1/jogos/{world['jogo'].pk}/flag/", body,
                                                         format="json")
    errors(response, 400)
    assert ledger(world) == before


def test_a_token_request_with_a_huge_username_is_a_400(world):
    response = APIClient().post("/api/v1/auth/token/", {"username": "u" * 100_000, "password": "x"}, format="json")
    error, = errors(response, 400)
    assert error["field"] == "username" and error["code"] == "max_length"
    response = APIClient().post("/api/v1/auth/token/", {"username": "dealer", "password": "correct horse battery"},
                                format="json")
    assert response.status_code == 200


def test_a_record_that_is_not_an_object_is_refused_and_kept(world):
    before = Refusal.objects.count()
    for body in ("[1, 2]", '"draw"', "12", "null"):
        errors(post_json(world["people"]["dealer"], f"/api/v1/tables/{world['t1'].pk}/jogos/", body), 400)
    assert Refusal.objects.count() == before + 4
    still_records(world)


# --- One error shape for every error (§2) -----------------------------------------------------------

def test_a_json_parse_error_is_in_the_error_shape(world):
    error, = errors(post_json(world["people"]["dealer"], f"/api/v1/tables/{world['t1'].pk}/jogos/", "{nope"), 400)
    assert error["code"] == "parse_error"


def test_not_found_is_in_the_error_shape(world):
    inspector = world["people"]["inspector"]
    assert errors(client(inspector).get("/api/v1/jogos/999999/"), 404)[0]["code"] == "not_found"
    assert errors(client(inspector).get("/api/v1/no-such-thing/"), 404)[0]["code"] == "not_found"
    # Another dealer's table is not found for a dealer, in the same shape.
    errors(client(world["people"]["other_dealer"]).get(f"/api/v1/tables/{world['t1'].pk}/"), 404)


@pytest.mark.parametrize("query,field", [("table=abc", "table"), ("gaming_day=2026-13-45", "gaming_day"),
                                         ("fan=many", "fan"), ("number=x", "number")])
def test_an_invalid_filter_is_in_the_error_shape_naming_it(world, query, field):
    error, = errors(client(world["people"]["inspector"]).get(f"/api/v1/jogos/?{query}"), 400)
    assert error["field"] == field and f"?{field}=" in error["message"]


def test_an_invalid_page_is_in_the_error_shape(world):
    for page in ("99", "zero", "-1"):
        error, = errors(client(world["people"]["inspector"]).get(f"/api/v1/jogos/?page={page}"), 404)
        assert error["field"] == "page"


def test_throttling_is_in_the_error_shape(world):
    anyone = APIClient()
    for _ in range(10):
        anyone.post("/api/v1/auth/token/", {"username": "dealer", "password": "wrong"}, format="json")
    response = anyone.post("/api/v1/auth/token/", {"username": "dealer", "password": "wrong"}, format="json")
    error, = errors(response, 429)
    assert error["code"] == "throttled" and int(response["Retry-After"]) > 0


def test_permission_denied_and_not_logged_in_are_in_the_error_shape(world):
    error, = errors(client(world["people"]["inspector"]).post(
        f"/api/v1/tables/{world['t1'].pk}/jogos/", next_record(world["game"]), format="json"), 403)
    assert error["code"] == "permission_denied"
    error, = errors(APIClient().get("/api/v1/jogos/"), 403)
    assert error["code"] == "not_authenticated" and "/api/v1/auth/token/" in error["message"]
    errors(APIClient().get("/api/v1/schema/"), 403)
    errors(client(world["people"]["inspector"]).delete(f"/api/v1/jogos/{world['jogo'].pk}/"), 405)


def test_an_oversize_body_is_a_413_in_the_error_shape(world, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    record = {**next_record(world["game"]), "padding": "x" * 20_000}
    error, = errors(client(world["people"]["dealer"]).post(f"/api/v1/tables/{world['t1'].pk}/jogos/", record,
                                                           format="json"), 413)
    assert error["code"] == "too_large"
    still_records(world)


def test_an_invalid_field_is_named_in_peoples_words(world):
    response = client(world["people"]["supervisor"]).post(f"/api/v1/games/{world['game'].pk}/movements/",
                                                      {"chair": 7, "kind": "gift"}, format="json")
    found = {error["field"]: error for error in errors(response, 400)}
    assert set(found) == {"chair", "kind", "amount"}
    assert found["amount"]["code"] == "required" and found["amount"]["message"].startswith("Amount:")
    assert found["kind"]["message"].startswith("Kind:")


def test_an_unexpected_error_is_a_500_in_the_error_shape_and_logged_with_its_traceback(world, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(services, "move_money", broken)
    response = client(world["people"]["supervisor"]).post(f"/api/v1/games/{world['game'].pk}/movements/",
                                                      {"chair": 1, "kind": "buy_in", "amount": 5}, format="json")
    error, = errors(response, 500)
    assert error["code"] == "server_error" and "a bug" not in error["message"]
    logged, = [r for r in caplog.records if r.name == "casino.api"]
    assert logged.exc_info[0] is ZeroDivisionError


@pytest.mark.parametrize("language,amount,nul", [("pt", "Montante:", "NUL"), ("zh-hant", "金額:", "NUL")])
def test_errors_are_in_the_requests_language(world, language, amount, nul):
    with translation.override("en"):  # the request's language stays active in this thread afterwards
        ask_in(world, language, amount, nul)


def ask_in(world, language, amount, nul):
    dealer = client(world["people"]["supervisor"])  # money is moved by the supervisor
    response = dealer.post(f"/api/v1/games/{world['game'].pk}/movements/", {"chair": 1, "kind": "buy_in"},
                           format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert errors(response, 400)[0]["message"].startswith(amount)
    response = dealer.post(f"/api/v1/games/{world['game'].pk}/movements/", {"chair": 1, "kind": "buy_in\x00"},
                           format="json", HTTP_ACCEPT_LANGUAGE=language)
    message = errors(response, 400)[0]["message"]
    assert nul in message and "Text may not" not in message


# --- No duplicate without a key (§4) --------------------------------------------------------------

def post_draw(world, number, **headers):
    game = Game.objects.get(pk=world["game"].pk)
    made = APIClient()
    made.force_authenticate(world["people"]["dealer"])
    if number is not None:
        headers["HTTP_JOGO_NUMBER"] = str(number)
    return made.post(f"/api/v1/tables/{world['t1'].pk}/jogos/", next_record(game, **DRAW), format="json",
                     **headers)


def test_a_jogo_post_must_say_which_jogo_it_records(world):
    error, = errors(post_draw(world, None), 400)
    assert error["field"] == "Jogo-Number" and error["code"] == "required"
    errors(post_draw(world, "two"), 400)
    assert Jogo.objects.count() == 1
    assert client(world["people"]["dealer"]).get(f"/api/v1/tables/{world['t1'].pk}/").json()["next"]["number"] == 2


def test_the_same_draw_sent_again_without_a_key_is_a_409_naming_the_current_number(world):
    assert post_draw(world, 2).status_code == 201
    for _ in range(4):  # the same draw, sent again by a dealer who did not see the answer
        error, = errors(post_draw(world, 2), 409)
        assert error["code"] == "stale_number" and "number 3, not 2" in error["message"]
    assert Jogo.objects.count() == 2
    assert post_draw(world, 3).status_code == 201
    errors(post_draw(world, 9), 409)  # a number ahead of the table's is refused as well


def test_a_retry_with_its_key_still_gets_the_jogo_it_recorded(world):
    first = post_draw(world, 2, HTTP_IDEMPOTENCY_KEY="draw-2")
    again = post_draw(world, 2, HTTP_IDEMPOTENCY_KEY="draw-2")
    assert (first.status_code, again.status_code) == (201, 200) and first.json()["id"] == again.json()["id"]


def test_the_dealers_form_sends_the_jogo_number_it_showed(world, client):
    """The table screen's form carries the number of the jogo it shows, with its key: two forms
    opened for the same jogo (two tabs, two dealers) record it once."""
    from django.urls import reverse

    client.force_login(world["people"]["dealer"])
    page = client.get(reverse("pit:table", args=[world["t1"].pk])).content.decode()
    assert 'name="number" value="2"' in page
    draw = {"result": "draw", "action": "save", "number": "2"}
    first = client.post(reverse("pit:jogo", args=[world["t1"].pk]), {**draw, "key": "tab-1"})
    second = client.post(reverse("pit:jogo", args=[world["t1"].pk]), {**draw, "key": "tab-2"})
    assert first.status_code == 302 and second.status_code == 409  # a clash with the ledger, as the API says it
    assert "number 3, not 2" in second.content.decode()
    assert Jogo.objects.filter(table=world["t1"]).count() == 2


@pytest.mark.parametrize("capital", [str(2**63), str(MAX_AMOUNT + 1)])
def test_the_seating_form_refuses_a_capital_above_the_amount_limit(world, client, capital):
    from django.urls import reverse

    client.force_login(world["people"]["dealer"])
    data = {"first_banker": "0", **{f"name_{c}": f"P{c}" for c in range(4)},
            **{f"capital_{c}": "1000" for c in range(4)}, "capital_2": capital}
    response = client.post(reverse("pit:seat", args=[world["t3"].pk]), data)
    assert response.status_code == 400 and str(MAX_AMOUNT) in response.content.decode()
    assert not world["t3"].games.exists()


def test_an_unknown_object_with_a_page_is_not_blamed_on_the_page(world):
    error, = errors(client(world["people"]["inspector"]).get("/api/v1/jogos/999999/?page=1"), 404)
    assert "field" not in error


def test_a_request_django_refuses_before_the_api_is_in_the_error_shape(world, settings):
    settings.ALLOWED_HOSTS = ["mahjong.example.mo"]
    error, = errors(APIClient().get("/api/v1/jogos/", HTTP_HOST="evil.example.com"), 400)
    assert error["code"] == "bad_request"


def test_a_refusal_is_in_the_requests_language_and_kept_in_english(world):
    record = next_record(world["game"], stake=50)  # T1 plays at 25/50 (Art. 8)
    with translation.override("en"):
        english = errors(client(world["people"]["dealer"]).post(
            f"/api/v1/tables/{world['t1'].pk}/jogos/", record, format="json"), 400)
        chinese = errors(client(world["people"]["dealer"]).post(
            f"/api/v1/tables/{world['t1'].pk}/jogos/", record, format="json", HTTP_ACCEPT_LANGUAGE="zh-hant"), 400)
    codes = [e["code"] for e in english]
    assert codes == [e["code"] for e in chinese] and "table_stake" in codes
    assert english[0]["message"].startswith("Art. 8") and english[0]["message"] != chinese[0]["message"]
    assert "第八條" in chinese[0]["message"] or "第8條" in chinese[0]["message"], chinese[0]["message"]
    assert Refusal.objects.order_by("-pk").first().errors[0]["message"] == english[0]["message"]
