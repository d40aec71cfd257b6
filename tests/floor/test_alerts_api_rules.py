"""Every rule through the API: the condition just short of the rule's threshold lists nothing
under `?rule=CODE`; at the threshold the API lists one alert with the rule's severity, article
or control, and the record behind it."""
from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from casino.floor import alerts, rules
from casino.pit import patrons, services
from casino.pit.errors import Refused
from tests.builders.alerts import floor_at_noon
from tests.builders.count import cast, count_by_two, play
from tests.builders.pit import BIG_THREE_DRAGONS_PAY_ALL, DRAW, NOON, next_record, record_next, seat, staff

pytestmark = pytest.mark.django_db

MINUTE = dt.timedelta(minutes=1)
HOUR = dt.timedelta(hours=1)


def _capital(west):
    def make(settings, short: bool):
        people, t1, t2 = staff()
        record_next(seat(t1, people["dealer"], capital=[5000, 3000, west + (1 if short else 0), 4000]),
                    people["dealer"])  # West pays 25
        return people
    return make


def below_zero(settings, short):
    return _capital(24)(settings, short)  # 24 − 25 = −1; short of it: 25 − 25 = 0


def below_minimum(settings, short):
    settings.TABLE_MINIMUM_CAPITAL = {}  # C-1's default: 600 at 25/50
    return _capital(624)(settings, short)  # 599; short of it: 600


def _cash(settings, short: bool):
    """South (3000 at the seating), identified, buys in up to the threshold of 500,000 or one short
    of it: a large transaction, made of two buy-ins each below it (structuring)."""
    settings.LARGE_TRANSACTION_THRESHOLD = 500_000
    people, t1, t2, game = floor_at_noon()
    patrons.identify(patron=game.players.get(chair=1).patron, user=people["supervisor"], document_type="macau_id",
                     document_number="1234567(8)", document_country="MO", date_of_birth=dt.date(1980, 1, 2),
                     nationality="MO")
    services.move_money(game=game, user=people["supervisor"], chair=1, kind="buy_in",
                        amount=497_000 - (1 if short else 0), at=NOON)
    return people


large = structuring = _cash


def no_grade(settings, short):
    people, t1, t2, game = floor_at_noon()
    record_next(game, people["dealer"], declared_fan=0 if short else None)
    return people


def grade_differs(settings, short):
    people, t1, t2, game = floor_at_noon()
    record_next(game, people["dealer"], declared_fan=0 if short else 1)
    return people


def pay_all(settings, short):
    people, t1, t2, game = floor_at_noon()
    record_next(game, people["dealer"], **({} if short else BIG_THREE_DRAGONS_PAY_ALL | {"declared_fan": 0}))
    return people


def false_win(settings, short):
    people, t1, t2, game = floor_at_noon()
    record_next(game, people["dealer"], **(DRAW if short else {
        "result": "false_win", "winner": None, "discarder": None, "hand": None, "declared_fan": None,
        "false_win": {"seat": "N"}}))
    return people


def refusals(settings, short):
    people, t1, t2, game = floor_at_noon()
    least = settings.FLOOR_ALERTS["REFUSALS"]
    for n in range(least - (1 if short else 0)):
        with pytest.raises(Refused):
            services.record_jogo(table=t1, user=people["dealer"], at=NOON + n * MINUTE, record=next_record(
                game, hand={"concealed": "345m678p234s99m11p", "winning_tile": "9p"}))
    return people


def off_rotation(settings, short):
    people, t1, t2, game = floor_at_noon()
    record_next(game, people["dealer" if short else "supervisor"])
    return people


def game_open(settings, short):
    people, t1, t2, game = floor_at_noon()
    alerts.tick(now=NOON + settings.FLOOR_ALERTS["GAME_OPEN_HOURS"] * HOUR - (MINUTE if short else dt.timedelta()))
    return people


def table_idle(settings, short):
    people, t1, t2, game = floor_at_noon()
    record_next(game, people["dealer"], at=NOON)
    alerts.tick(now=NOON + settings.FLOOR_ALERTS["IDLE_TABLE_MINUTES"] * MINUTE - (MINUTE if short else dt.timedelta()))
    return people


def box_not_counted(settings, short):
    people, t1, t2 = cast()
    play(t1, people["dealer"], at=NOON)  # shift 1 of the day ends at 14:00
    alerts.tick(now=NOON + 2 * HOUR + settings.FLOOR_ALERTS["BOX_UNCOUNTED_HOURS"] * HOUR
                - (MINUTE if short else dt.timedelta()))
    return people


def variance_case(settings, short):
    from tests.builders.count import box

    people, t1, t2 = cast()
    play(t1, people["dealer"])  # 20 expected
    count_by_two(box(t1), people["counter1"], people["counter2"], 20 if short else 15)
    return people


def correction_pending(settings, short):
    people, t1, t2, game = floor_at_noon()
    jogo = record_next(game, people["dealer"])
    services.propose_amendment(jogo=jogo, user=people["supervisor"], reason="it was a draw", at=NOON,
                               record=next_record(game, **DRAW) | {"capital": jogo.record["capital"],
                                                                   "round_wind": "E"})
    alerts.tick(now=NOON + settings.FLOOR_ALERTS["CORRECTION_PENDING_MINUTES"] * MINUTE
                - (MINUTE if short else dt.timedelta()))
    return people


def flag_open(settings, short):
    people, t1, t2, game = floor_at_noon()
    jogo = record_next(game, people["dealer"])
    if not short:
        services.flag(jogo=jogo, user=people["inspector"], note="look", at=NOON)
    return people


def ledger(settings, short):
    people, t1, t2, game = floor_at_noon()
    alerts.ledger_findings([] if short else ["table T1 (Casino Lisboa), jogo 1: its content does not match its hash"],
                           at=NOON)
    return people


# rule: (how to make it, the article it cites, the subject it names)
SCENARIOS = {
    "capital_below_zero": (below_zero, "", "jogo"),
    "capital_below_minimum": (below_minimum, "", "jogo"),
    "large_transaction": (large, "", "movement"),
    "structuring": (structuring, "", "movement"),
    "grade_not_declared": (no_grade, "6", "jogo"),
    "grade_differs": (grade_differs, "6", "jogo"),
    "pay_all": (pay_all, "10(a)(3)", "jogo"),
    "false_win": (false_win, "10(a)(7)", "jogo"),
    "refusals": (refusals, "", "refusal"),
    "off_rotation": (off_rotation, "", "jogo"),
    "game_open": (game_open, "3", None),
    "table_idle": (table_idle, "", None),
    "box_not_counted": (box_not_counted, "", None),
    "variance_case": (variance_case, "", "case"),
    "correction_pending": (correction_pending, "", "amendment"),
    "flag_open": (flag_open, "", "flag"),
    "ledger": (ledger, "", None),
}


def test_every_rule_has_its_scenario():
    assert set(SCENARIOS) == set(rules.RULES)


@pytest.mark.parametrize("short", [True, False], ids=["just short of it", "at it"])
@pytest.mark.parametrize("code", list(SCENARIOS))
def test_each_rule_through_the_api(settings, code, short):
    make, article, subject = SCENARIOS[code]
    people = make(settings, short)
    client = APIClient()
    client.force_authenticate(people["manager"])
    response = client.get(f"/api/v1/alerts/?state=all&rule={code}")
    assert response.status_code == 200
    listed = response.json()["results"]
    if short:
        assert listed == []
        return
    alert, = listed
    rule = rules.RULES[code]
    assert (alert["rule"], alert["severity"], alert["article"], alert["control"]) == (
        code, rule.severity, article, rule.control)
    assert alert["message"] and alert["name"] != code
    if subject:
        assert subject in alert["subjects"]
