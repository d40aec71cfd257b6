"""What the API takes in (the blind count's holes): text that is not text (a lone
surrogate), amounts written any way but the record's, keys no endpoint knows, texts of any
length; and the rotation log's day, on its web page. Each is refused with a 400 that names the
field in people's words, and nothing is written."""
import json

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from casino.count import services
from casino.count.models import Case, CaseEvent, Count, Rotation, Signature
from casino.pit import services as pit_services
from casino.pit.models import Amendment, Flag, Game, Jogo, Movement, Player, Refusal, Table
from tests.builders.count import PASSWORD, box, box_played_yesterday, cast, count_by_two, play
from tests.builders.pit import next_record, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """The count's cast with T1's game (two jogos recorded), T3 free to seat a game, and T2's box
    of yesterday, ready to count."""
    people, t1, t2 = cast()
    jogo = play(t1, people["dealer"])[0]
    return {"people": people, "t1": t1, "t3": table("T3", staff=[people["dealer"], people["supervisor"]]),
            "game": jogo.game,
            "jogo": jogo, "box": box_played_yesterday(t2, people["other_dealer"])}


@pytest.fixture
def case(world):
    """T1's first box counted five short by two counters: its variance case, open."""
    the_box = box(world["t1"])
    count_by_two(the_box, world["people"]["counter1"], world["people"]["counter2"],
                 services.expected_commission(the_box) - 5)
    return Case.objects.get(box=the_box)


def client(person) -> APIClient:
    made = APIClient()
    made.force_authenticate(person)
    made.credentials(HTTP_JOGO_NUMBER=str(Table.objects.get(number="T1").jogos_recorded + 1))
    return made


def post_json(person, path: str, body) -> object:
    """`body` as JSON text with every non-ASCII character escaped, as a program may send it: a
    lone surrogate travels as the six characters \\ud800."""
    return client(person).generic("POST", path, json.dumps(body), content_type="application/json")


def errors(response, status: int) -> list[dict]:
    assert response.status_code == status, (response.status_code, response.content[:500])
    body = response.json()
    assert list(body) == ["errors"] and body["errors"], body
    for error in body["errors"]:
        assert {"code", "article", "message"} <= set(error) <= {"code", "article", "message", "field"}, error
    return body["errors"]


def written() -> tuple:
    return (Jogo.objects.count(), Movement.objects.count(), Game.objects.count(), Player.objects.count(),
            Flag.objects.count(), Amendment.objects.count(), Refusal.objects.count(), CaseEvent.objects.count(),
            Count.objects.count(), Signature.objects.count(), Rotation.objects.count())


def a_draw(jogo) -> dict:
    """The correction of `jogo` into a draw, for an amendment the service takes."""
    return {**jogo.record, "result": "draw", "winner": None, "discarder": None, "hand": None, "declared_fan": None}


def still_records(world) -> None:
    game = Game.objects.get(pk=world["game"].pk)
    response = client(world["people"]["dealer"]).post(f"/api/v1/tables/{world['t1'].pk}/jogos/",
                                                      next_record(game), format="json")
    assert response.status_code == 201, response.content


# --- 1. A lone surrogate is not text ---------------------------------------------------------------

def _with_surrogate(world, text: str, case=None):
    record = next_record(world["game"])
    return {
        "a jogo's record": ("dealer", f"/api/v1/tables/{world['t1'].pk}/jogos/", {**record, "winner": text}),
        "a key of a jogo's record": ("dealer", f"/api/v1/tables/{world['t1'].pk}/jogos/", {**record, text: 1}),
        "an amendment's record": ("supervisor", "/api/v1/amendments/",
                                  {"jogo": world["jogo"].pk, "reason": "typo",
                                   "record": {**world["jogo"].record, "conditions": [text]}}),
        "a movement's kind": ("supervisor", f"/api/v1/games/{world['game'].pk}/movements/",
                              {"chair": 1, "kind": text, "amount": 5}),
        "a case step's state": ("inspector", f"/api/v1/count/cases/{case.pk if case else 0}/state/",
                                {"state": text, "note": "seen"}),
    }


@pytest.mark.parametrize("text", ["\ud800", "\udfff", "buy\udc00in"])
@pytest.mark.parametrize("where", ["a jogo's record", "a key of a jogo's record", "an amendment's record",
                                   "a movement's kind", "a case step's state"])
def test_a_lone_surrogate_anywhere_in_a_body_is_a_400_and_nothing_is_written(world, request, where, text):
    role, path, body = _with_surrogate(world, text, request.getfixturevalue("case") if "case" in where else None)[where]
    before = written()
    error, = errors(post_json(world["people"][role], path, body), 400)
    assert error["code"] == "lone_surrogate" and "surrogate" in error["message"]
    assert written() == before
    still_records(world)


def test_a_lone_surrogate_is_refused_in_the_requests_language(world):
    role, path, body = _with_surrogate(world, "\ud800")["a movement's kind"]
    with translation.override("en"):
        response = client(world["people"][role]).generic("POST", path, json.dumps(body),
                                                         content_type="application/json",
                                                         HTTP_ACCEPT_LANGUAGE="pt")
    assert "substituto" in errors(response, 400)[0]["message"]


def test_a_pair_of_surrogates_is_one_character_and_is_taken(world):
    """"\\ud83c\\udc04" is JSON's way of writing 🀄 (U+1F004): a character, not a lone surrogate."""
    response = post_json(world["people"]["inspector"], f"/api/v1/jogos/{world['jogo'].pk}/flag/",
                         {"note": "\ud83c\udc04 red dragon on the floor"})
    assert response.status_code == 201, response.content
    assert Flag.objects.get().note.startswith("\U0001F004")


# --- 2. The rotation log's day -----------------------------------------------------------------------

def _entry(world) -> dict:
    return {"table": world["t1"].pk, "person": world["people"]["dealer"].pk, "duty": "dealer", "starts": "14:00"}


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31", "1990-12-31", "2100-01-01"])
def test_a_day_the_log_cannot_show_is_a_400_saying_which_days_it_shows(client_web, world, day):
    client_web.force_login(world["people"]["supervisor"])
    response = client_web.get(f"/count/rotation/?day={day}")
    assert response.status_code == 400
    assert "Gaming day: choose a day from 1991-01-01 to 2099-12-31." in response.content.decode()
    response = client_web.post(f"/count/rotation/?day={day}", _entry(world))
    assert response.status_code == 400
    assert not Rotation.objects.filter(recorded_by=world["people"]["supervisor"]).exists()
    assert "Gaming day: choose a day from 1991-01-01 to 2099-12-31." in response.content.decode()


@pytest.mark.parametrize("day", ["2026-99-99", "yesterday", "2026-11-21T00:00"])
def test_a_day_that_is_not_a_date_is_a_400_and_no_entry_lands_on_today(client_web, world, day):
    client_web.force_login(world["people"]["supervisor"])
    response = client_web.post(f"/count/rotation/?day={day}", _entry(world))
    assert response.status_code == 400
    assert not Rotation.objects.filter(recorded_by=world["people"]["supervisor"]).exists()
    assert "Gaming day: not a date; write it as YYYY-MM-DD." in response.content.decode()
    assert client_web.get(f"/count/rotation/?day={day}").status_code == 400


@pytest.mark.parametrize("language,said", [("pt", "Dia de jogo: escolha um dia de 1991-01-01 a 2099-12-31."),
                                           ("zh-hant", "博彩日：請選擇 1991-01-01 至 2099-12-31 之間的日子。")])
def test_the_rotation_logs_day_is_refused_in_the_persons_language(client_web, world, language, said):
    client_web.force_login(world["people"]["supervisor"])
    with translation.override("en"):
        response = client_web.get("/count/rotation/?day=9999-12-31", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400 and said in response.content.decode()


def test_the_rotation_log_without_a_day_shows_today_and_the_last_days_it_may_show_work(client_web, world):
    from casino.pit.days import today

    client_web.force_login(world["people"]["supervisor"])
    response = client_web.get("/count/rotation/")
    assert response.status_code == 200
    assert f'<span class="log-day">{today():%Y-%m-%d}</span>' in response.content.decode()
    for day in ("1991-01-01", "2099-12-31"):
        assert client_web.get(f"/count/rotation/?day={day}").status_code == 200
    assert client_web.post("/count/rotation/?day=1991-01-01", _entry(world)).status_code == 302
    assert Rotation.objects.get(recorded_by=world["people"]["supervisor"]).gaming_day.isoformat() == "1991-01-01"


@pytest.fixture
def client_web(client):
    return client


# --- 3. Amounts are whole units, written as the record writes them -------------------------------

NOT_AN_AMOUNT = ["1_000", "١٠٠٠", "۵", "+5", "-5", " 5", "5 ", "5\n", 1.0, 5.5, "5.5", "5.50", "1e3", "0x10", True,
                 "", [5], {"units": 5}, "５"]


@pytest.mark.parametrize("amount", NOT_AN_AMOUNT, ids=repr)
def test_a_movement_amount_not_written_in_whole_units_is_a_400_naming_the_amount(world, amount):
    before = written()
    error, = errors(client(world["people"]["supervisor"]).post(
        f"/api/v1/games/{world['game'].pk}/movements/", {"chair": 1, "kind": "buy_in", "amount": amount},
        format="json"), 400)
    assert error["field"] == "amount" and error["message"].startswith("Amount:"), error
    assert "0–9" in error["message"]
    assert written() == before


@pytest.mark.parametrize("amount", NOT_AN_AMOUNT[:6], ids=repr)
def test_a_capital_not_written_in_whole_units_is_a_400_naming_the_player(world, amount):
    players = [{"chair": c, "name": f"P{c}", "capital": 1000} for c in range(4)]
    players[2]["capital"] = amount
    before = written()
    error, = errors(client(world["people"]["dealer"]).post(f"/api/v1/tables/{world['t3'].pk}/games/",
                                                           {"first_banker": 0, "players": players}, format="json"), 400)
    assert error["field"] == "players.2.capital"
    assert error["message"].startswith("Players › 3 › Capital at stake:")
    assert written() == before


@pytest.mark.parametrize("amount,units", [(5, 5), ("5", 5), ("5.00", 5), ("5.0", 5), ("0005", 5)], ids=repr)
def test_an_amount_is_taken_as_the_record_takes_it(world, amount, units):
    response = client(world["people"]["supervisor"]).post(
        f"/api/v1/games/{world['game'].pk}/movements/", {"chair": 1, "kind": "buy_in", "amount": amount}, format="json")
    assert response.status_code == 201, response.content
    assert Movement.objects.get(pk=response.json()["id"]).amount == units


def test_the_whole_units_field_reads_amounts_as_the_record_does():
    """The one field for every amount the API takes: the same amounts the portable record takes
    (docs/record-format.md, "Amounts"), within the bounds it is given."""
    from rest_framework.exceptions import ValidationError

    from casino.api_fields import WholeUnitsField
    from regulation.record import MAX_AMOUNT

    field = WholeUnitsField(min_value=0)
    assert [field.run_validation(v) for v in (0, "0", "12", "12.00", MAX_AMOUNT, str(MAX_AMOUNT))] == [
        0, 0, 12, 12, MAX_AMOUNT, MAX_AMOUNT]
    for wrong, code in [("1_000", "invalid"), ("+5", "invalid"), (1.0, "invalid"), (False, "invalid"),
                        ("12.01", "invalid"), (-1, "min_value"), (MAX_AMOUNT + 1, "max_value"),
                        (str(MAX_AMOUNT + 1), "max_value"), ("1" * 14, "invalid")]:
        with pytest.raises(ValidationError) as refused:
            field.run_validation(wrong)
        assert refused.value.get_codes() == [code], wrong


@pytest.mark.parametrize("counted", ["1_000", "١٠", "+5", 1.0])
def test_a_counted_amount_not_written_in_whole_units_is_a_400_naming_it(world, counted):
    before = written()
    error, = errors(client(world["people"]["counter1"]).post(
        f"/api/v1/count/boxes/{world['box'].pk}/count/", {"count": 1, "counted": counted, "password": PASSWORD},
        format="json"), 400)
    assert error["field"] == "counted" and "0–9" in error["message"]
    assert written() == before


# --- 4. Keys no endpoint knows ---------------------------------------------------------------------

def _with_unknown(world, case=None):
    players = [{"chair": c, "name": f"P{c}", "capital": 1000} for c in range(4)]
    players[1]["age"] = 40
    return {
        "a movement": ("supervisor", f"/api/v1/games/{world['game'].pk}/movements/",
                       {"chair": 1, "kind": "buy_in", "amount": 5, "currency": "MOP"}, "currency", "currency"),
        "a seated player": ("dealer", f"/api/v1/tables/{world['t3'].pk}/games/",
                            {"first_banker": 0, "players": players}, "players.1.age", "Players › 2 › age"),
        "a flag": ("inspector", f"/api/v1/jogos/{world['jogo'].pk}/flag/", {"note": "odd", "severity": 3},
                   "severity", "severity"),
        "an amendment's answer field": ("supervisor", "/api/v1/amendments/",
                                        {"jogo": world["jogo"].pk, "reason": "a draw", "record": a_draw(world["jogo"]),
                                         "state": "approved"}, "state", "state"),
        "a decision": ("supervisor2", "/api/v1/amendments/0/approve/", {"reason": "ok", "approve": True},
                       "approve", "approve"),
        "a case's note": ("inspector", f"/api/v1/count/cases/{case.pk if case else 0}/notes/",
                          {"note": "seen", "by": "someone else"}, "by", "by"),
        "a count": ("counter1", f"/api/v1/count/boxes/{world['box'].pk}/count/",
                    {"count": 1, "counted": 20, "password": PASSWORD, "counted_by": "counter2"},
                    "counted_by", "counted_by"),
    }


@pytest.mark.parametrize("what", ["a movement", "a seated player", "a flag", "an amendment's answer field",
                                  "a decision", "a case's note", "a count"])
def test_a_body_with_a_key_the_endpoint_does_not_know_is_a_400_naming_the_key(world, request, what):
    case = request.getfixturevalue("case") if "case" in what else None
    role, path, body, field, named = _with_unknown(world, case)[what]
    if "/0/approve/" in path:
        amendment = pit_services.propose_amendment(jogo=world["jogo"], user=world["people"]["supervisor"],
                                               record=a_draw(world["jogo"]), reason="a draw")
        path = path.replace("/0/", f"/{amendment.pk}/")
    before = written()
    error, = errors(client(world["people"][role]).post(path, body, format="json"), 400)
    assert (error["code"], error["field"]) == ("unknown_field", field)
    assert error["message"] == f"{named}: this request has no such field.", error
    assert written() == before


def test_a_query_string_may_still_hold_parameters_the_endpoint_does_not_read(world):
    response = client(world["people"]["counter1"]).get(
        f"/api/v1/count/boxes/?gaming_day={world['box'].gaming_day}&format=json&utm_source=mail")
    assert response.status_code == 200, response.content


def test_an_unknown_key_is_named_in_the_requests_language(world):
    role, path, body, *_ = _with_unknown(world)["a flag"]
    with translation.override("en"):
        response = client(world["people"][role]).post(path, body, format="json", HTTP_ACCEPT_LANGUAGE="zh-hant")
    assert errors(response, 400)[0]["message"] == "severity: 此請求沒有這個欄位。"


# --- 5. Texts as long as the web forms take them -----------------------------------------------

def test_the_api_and_the_forms_read_one_limit_for_each_text():
    from casino import limits
    from casino.pit import serializers
    from casino.pit.correction_views import DecisionForm, ReasonForm
    from casino.pit.forms import SeatForm

    assert ReasonForm.base_fields["reason"].max_length == limits.REASON_MAX_LENGTH
    assert DecisionForm.base_fields["reason"].max_length == limits.REASON_MAX_LENGTH
    assert serializers.AmendmentSerializer().fields["reason"].max_length == limits.REASON_MAX_LENGTH
    assert serializers.DecisionSerializer().fields["reason"].max_length == limits.REASON_MAX_LENGTH
    assert serializers.FlagInputSerializer().fields["note"].max_length == limits.REASON_MAX_LENGTH
    assert SeatForm().fields["name_0"].max_length == limits.NAME_MAX_LENGTH
    assert serializers.StartGameSerializer().fields["players"].child.fields["name"].max_length == limits.NAME_MAX_LENGTH
    assert limits.NOTE_MAX_LENGTH == 4000  # the case screens' note (casino/count/forms.py NoteForm)


def test_a_players_name_longer_than_the_seating_form_takes_is_a_400(world):
    from casino.limits import NAME_MAX_LENGTH

    players = [{"chair": c, "name": f"P{c}", "capital": 1000} for c in range(4)]
    players[3]["name"] = "n" * (NAME_MAX_LENGTH + 1)
    before = written()
    error, = errors(client(world["people"]["dealer"]).post(f"/api/v1/tables/{world['t3'].pk}/games/",
                                                           {"first_banker": 0, "players": players}, format="json"), 400)
    assert error["field"] == "players.3.name" and str(NAME_MAX_LENGTH) in error["message"]
    assert written() == before
    players[3]["name"] = "n" * NAME_MAX_LENGTH
    witness = {"witness_username": "supervisor", "witness_password": PASSWORD}  # the seating buy-ins' witness
    assert client(world["people"]["dealer"]).post(f"/api/v1/tables/{world['t3'].pk}/games/",
                                                  {"first_banker": 0, "players": players, **witness},
                                                  format="json").status_code == 201


@pytest.mark.parametrize("what", ["an amendment's reason", "a decision's reason", "a flag's note"])
def test_a_pit_text_one_character_over_its_limit_is_a_400_naming_it(world, what):
    from casino.limits import REASON_MAX_LENGTH
    long = "x" * (REASON_MAX_LENGTH + 1)
    amendment = pit_services.propose_amendment(jogo=world["jogo"], user=world["people"]["supervisor"],
                                           record=a_draw(world["jogo"]), reason="a draw")
    role, path, body, field = {
        "an amendment's reason": ("supervisor", "/api/v1/amendments/",
                                  {"jogo": world["jogo"].pk, "reason": long, "record": a_draw(world["jogo"])},
                                  "reason"),
        "a decision's reason": ("supervisor2", f"/api/v1/amendments/{amendment.pk}/reject/", {"reason": long},
                                "reason"),
        "a flag's note": ("inspector", f"/api/v1/jogos/{world['jogo'].pk}/flag/", {"note": long}, "note"),
    }[what]
    before = written()
    error, = errors(client(world["people"][role]).post(path, body, format="json"), 400)
    assert (error["field"], error["code"]) == (field, "max_length") and str(REASON_MAX_LENGTH) in error["message"]
    assert written() == before


@pytest.mark.parametrize("what", ["a recount's reason", "a case's note", "a case step's note"])
def test_a_count_text_of_a_megabyte_is_a_400_naming_it(world, case, what):
    services.sign_count(box=world["box"], user=world["people"]["counter2"], password=PASSWORD, counted=20)
    huge = "x" * 1_000_000
    role, path, body, field = {
        "a recount's reason": ("counter1", f"/api/v1/count/boxes/{world['box'].pk}/recount/", {"reason": huge},
                               "reason"),
        "a case's note": ("inspector", f"/api/v1/count/cases/{case.pk}/notes/", {"note": huge}, "note"),
        "a case step's note": ("inspector", f"/api/v1/count/cases/{case.pk}/state/",
                               {"state": "explained", "note": huge}, "note"),
    }[what]
    before = written()
    error, = errors(client(world["people"][role]).post(path, body, format="json"), 400)
    assert (error["field"], error["code"]) == (field, "max_length")
    assert written() == before
