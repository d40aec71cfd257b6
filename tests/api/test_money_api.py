"""Money at the table through the API (issue 25): seating by a player's id or a new name with the
witness's credentials, the casino's rules C-1 (a seat's capital) and C-2 (large transactions), the
refused movements kept and read back, and names masked for those who may not see them. Every
error in the API's one shape, and nothing written on a refusal. Under the shipped money settings."""
import pytest
from rest_framework.test import APIClient

from casino.pit.models import Game, Movement, MovementRefusal, Patron, Player, Table
from casino.pit.roles import SUPERVISOR
from tests.builders.pit import next_record, patron, record_next, seat, staff, table, user

pytestmark = [pytest.mark.django_db, pytest.mark.money_rules]

PASSWORD = "correct horse battery"  # every builder's user's (tests/builders/pit.py)
WITNESS = {"witness_username": "supervisor", "witness_password": PASSWORD}


@pytest.fixture
def world():
    """T1 (conventional 25/50, minimum 600) with its game; T3 free to seat, its dealer and
    supervisor the same as T1's; Chan, a player of the casino known by name."""
    people, t1, t2 = staff()
    t3 = table("T3", staff=[people["dealer"], people["supervisor"]])
    game = seat(t1, people["dealer"], capital=[5000, 3000, 2000, 4000])
    return {"people": people, "t1": t1, "t2": t2, "t3": t3, "game": game, "chan": patron(t1.casino, "Chan Tai Man")}


def client(person) -> APIClient:
    made = APIClient()
    made.force_authenticate(person)
    return made


def errors(response, status: int) -> list[dict]:
    assert response.status_code == status, (response.status_code, response.content[:800])
    body = response.json()
    assert list(body) == ["errors"] and body["errors"], body
    for error in body["errors"]:
        assert {"code", "article", "message"} <= set(error) <= {"code", "article", "message", "field"}, error
    return body["errors"]


def written() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Game, Player, Patron, Movement, MovementRefusal))


def seating(capital=(600, 600, 600, 600), **more) -> dict:
    return {"first_banker": 0, "players": [{"chair": c, "name": f"P{c}", "capital": amount}
                                           for c, amount in enumerate(capital)], **WITNESS, **more}


def seat_at_t3(world, body, person="dealer"):
    return client(world["people"][person]).post(f"/api/v1/tables/{world['t3'].pk}/games/", body, format="json")


# --- Seating ------------------------------------------------------------------------------------------

def test_a_dealer_seats_by_id_and_by_name_with_the_witness_who_records_the_buy_ins(world):
    body = seating()
    body["players"][0] = {"chair": 0, "patron": world["chan"].pk, "capital": 600}
    response = seat_at_t3(world, body)

    assert response.status_code == 201, response.content
    data = response.json()
    assert [(p["chair"], p["patron"]) for p in data["players"]][0] == (0, world["chan"].pk)
    assert [p["name"] for p in data["players"]] == ["C*** T** M**", "P*", "P*", "P*"]  # a dealer sees them masked
    game = Game.objects.get(pk=data["id"])
    assert game.started_by == world["people"]["dealer"]
    assert {m.recorded_by for m in game.movements.all()} == {world["people"]["supervisor"]}
    assert "witness_password" not in data and PASSWORD not in response.content.decode()


def test_a_supervisor_of_the_table_sees_the_names(world):
    data = client(world["people"]["supervisor"]).get(f"/api/v1/games/{world['game'].pk}/").json()
    assert [p["name"] for p in data["players"]] == ["Player 0", "Player 1", "Player 2", "Player 3"]
    assert [p["name"] for p in client(world["people"]["inspector"]).get(
        f"/api/v1/games/{world['game'].pk}/").json()["players"]][:1] == ["Player 0"]
    assert client(world["people"]["dealer"]).get(
        f"/api/v1/games/{world['game'].pk}/").json()["players"][0]["name"] == "P***** 0"


@pytest.mark.parametrize("witness,code", [
    ({}, "witness_needed"),
    ({"witness_username": "supervisor", "witness_password": "wrong"}, "witness"),
    ({"witness_username": "nobody", "witness_password": PASSWORD}, "witness"),
    ({"witness_username": "supervisor"}, "witness"),
    ({"witness_username": "dealer", "witness_password": PASSWORD}, "witness"),  # himself: not a supervisor
    ({"witness_username": "supervisor3", "witness_password": PASSWORD}, "witness"),  # not of the table
], ids=["none", "wrong password", "unknown", "no password", "a dealer", "another table's"])
def test_a_seating_without_a_supervisor_of_the_table_as_witness_is_a_400_naming_the_witness(world, witness, code):
    user("supervisor3", SUPERVISOR)
    before = written()
    body = {key: value for key, value in seating().items() if not key.startswith("witness_")} | witness
    error, = errors(seat_at_t3(world, body), 400)
    assert (error["code"], error["field"]) == (code, "witness")
    assert "wrong" not in error["message"] and PASSWORD not in error["message"]
    assert written() == before


def test_wrong_witness_passwords_lock_the_witness_out_as_a_failed_login_does(world):
    wrong = seating(witness_password="guess")
    for _ in range(4):
        assert errors(seat_at_t3(world, wrong), 400)[0]["code"] == "witness"
    assert errors(seat_at_t3(world, wrong), 400)[0]["code"] == "locked_out"  # the fifth locks (AXES_FAILURE_LIMIT)
    error, = errors(seat_at_t3(world, seating()), 400)  # the right password, now locked out
    assert (error["code"], error["field"]) == ("locked_out", "witness")
    assert not world["t3"].games.exists()


def test_c1_seating_below_the_minimum_or_above_the_maximum_is_a_400_naming_the_chair(world, settings):
    settings.SEAT_MAXIMUM_CAPITAL = 10_000
    before = written()
    found = errors(seat_at_t3(world, seating((600, 599, 10_001, 600))), 400)
    assert [(e["code"], e["field"], e["article"]) for e in found] == [
        ("capital_below_minimum", "players[1].capital", None), ("capital_above_maximum", "players[2].capital", None)]
    assert found[0]["message"] == ("Casino rule C-1 (minimum capital): chair 2 sits down with 599, 1 short of the "
                                   "table's minimum of 600.")
    assert written() == before


def test_the_same_player_twice_is_a_400(world):
    body = seating()
    body["players"][1] = {"chair": 1, "patron": world["chan"].pk, "capital": 600}
    body["players"][3] = {"chair": 3, "patron": world["chan"].pk, "capital": 600}
    error, = errors(seat_at_t3(world, body), 400)
    assert (error["code"], error["field"]) == ("duplicate_player", "players")
    assert error["message"] == "Chairs 2 and 4 seat the same player; a player sits in one chair of a game."


@pytest.mark.parametrize("player", [{"chair": 2, "capital": 600},
                                    {"chair": 2, "capital": 600, "name": "Ana", "patron": 1}], ids=["neither", "both"])
def test_a_player_is_an_id_or_a_name_not_both_nor_neither(world, player):
    body = seating()
    body["players"][2] = player
    error, = errors(seat_at_t3(world, body), 400)
    assert error["field"] == "players.2" and error["message"].startswith("Players › 3: ")


def test_another_casinos_player_is_a_400_naming_him(world):
    from casino.pit.models import Casino

    body = seating()
    body["players"][2] = {"chair": 2, "patron": patron(Casino.objects.create(name="Oceanus"), "Dee").pk,
                          "capital": 600}
    error, = errors(seat_at_t3(world, body), 400)
    assert (error["code"], error["field"]) == ("patron", "players[2].patron")


# --- Jogos and movements -----------------------------------------------------------------------------

def test_c1_a_jogo_while_a_seat_is_short_is_a_409_with_one_error_per_chair(world):
    t1, people = world["t1"], world["people"]
    game = seat(world["t3"], people["dealer"], capital=[600, 600, 600, 600])
    record_next(game, people["dealer"])  # chair 1 pays 50, chairs 3 and 4 pay 25
    response = client(people["dealer"]).post(f"/api/v1/tables/{game.table_id}/jogos/", next_record(game),
                                             format="json", HTTP_JOGO_NUMBER="2")
    found = errors(response, 409)
    assert [(e["code"], e["field"]) for e in found] == [("capital_below_minimum", "capital")] * 3
    assert found[0]["message"].startswith("Casino rule C-1 (minimum capital): chair 1 holds 550, 50 short")
    assert t1.pk != game.table_id and Table.objects.get(pk=game.table_id).jogos_recorded == 1


@pytest.mark.parametrize("amount", ["12.5", 12.5, 12.0, "1_000", True, "", None], ids=repr)
def test_a_movement_amount_that_is_not_a_whole_number_is_a_400_naming_the_amount(world, amount):
    before = written()
    error, = errors(client(world["people"]["supervisor"]).post(
        f"/api/v1/games/{world['game'].pk}/movements/", {"chair": 1, "kind": "buy_in", "amount": amount},
        format="json"), 400)
    assert error["field"] == "amount" and error["message"].startswith("Amount:")
    assert written() == before


def test_a_cash_out_above_the_seats_capital_is_a_400(world):
    before = written()
    error, = errors(client(world["people"]["supervisor"]).post(
        f"/api/v1/games/{world['game'].pk}/movements/", {"chair": 2, "kind": "cash_out", "amount": 2001},
        format="json"), 400)
    assert (error["code"], error["field"], error["article"]) == ("amount", "amount", "9(a)(4)")
    assert written() == before


def test_c2_a_movement_at_the_threshold_for_an_unidentified_player_is_a_400_and_kept(world):
    people, game = world["people"], world["game"]
    before = Movement.objects.count()
    # The game was seated on the builders' day (NOON); the API records now, another gaming day.
    response = client(people["supervisor"]).post(f"/api/v1/games/{game.pk}/movements/",
                                                 {"chair": 1, "kind": "buy_in", "amount": 500_000}, format="json")
    error, = errors(response, 400)
    assert (error["code"], error["field"], error["article"]) == ("identification_needed", "patron", None)
    assert error["message"].startswith("DICJ Instruction n.º 1/2016: with this buy-in of 500000, the player in "
                                       "chair 2 brings 500000")
    assert error["message"].endswith("(missing: identity document type, document number, issuing country, date of "
                                     "birth, nationality).")
    assert Movement.objects.count() == before

    kept = MovementRefusal.objects.get()
    listed = client(people["inspector"]).get("/api/v1/movement-refusals/").json()["results"]
    assert [(r["id"], r["chair"], r["kind"], r["amount"], r["patron"]) for r in listed] == [
        (kept.pk, 1, "buy_in", 500_000, game.players.get(chair=1).patron_id)]
    assert listed[0]["errors"][0]["code"] == "identification_needed"
    assert client(people["supervisor"]).get("/api/v1/movement-refusals/").json()["count"] == 1
    assert client(people["supervisor"]).get(f"/api/v1/movement-refusals/?table={world['t2'].pk}").json()["count"] == 0
    assert client(people["dealer"]).get("/api/v1/movement-refusals/").status_code == 403


def test_a_supervisor_reads_only_the_refused_movements_of_his_tables(world):
    people = world["people"]
    elsewhere = user("supervisor3", SUPERVISOR)
    world["t2"].staff.add(elsewhere)
    client(people["supervisor"]).post(f"/api/v1/games/{world['game'].pk}/movements/",
                                      {"chair": 1, "kind": "buy_in", "amount": 500_000}, format="json")
    assert MovementRefusal.objects.count() == 1
    assert client(elsewhere).get("/api/v1/movement-refusals/").json()["count"] == 0
    assert client(elsewhere).get(f"/api/v1/movement-refusals/{MovementRefusal.objects.get().pk}/").status_code == 404


def test_the_seating_and_the_refused_movements_are_in_the_schema(world):
    schema = client(world["people"]["inspector"]).get("/api/v1/schema/?format=json").json()
    seating_fields = schema["components"]["schemas"]["StartGame"]["properties"]
    assert {"witness_username", "witness_password"} <= set(seating_fields)
    assert seating_fields["witness_password"]["writeOnly"] is True
    assert "/api/v1/movement-refusals/" in schema["paths"]
