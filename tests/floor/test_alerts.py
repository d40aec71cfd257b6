"""The floor's alerts (issue 24 §3): every rule at its threshold, just below and just above; a
condition that ends clears its alert; acknowledgement, escalation; a jogo's rules cost a fixed
number of queries. The chain and the guards are in test_alerts_chain.py."""
from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied

from casino.count import services as count_services
from casino.floor import alerts, rules
from casino.floor.models import Alert, AlertEvent
from casino.floor.rules import RULES
from casino.pit import services
from casino.pit.errors import Refused
from casino.pit.models import Refusal
from tests.builders.alerts import floor_at_noon, rules_raised
from tests.builders.count import DAY, box, count_by_two
from tests.builders.pit import BIG_THREE_DRAGONS_PAY_ALL, DRAW, NOON, next_record, record_next, seat, staff, user

pytestmark = pytest.mark.django_db

MINUTE = dt.timedelta(minutes=1)
FALSE_WIN = {"result": "false_win", "winner": None, "discarder": None, "hand": None, "declared_fan": None,
             "false_win": {"seat": "N"}}


@pytest.fixture
def floor():
    return floor_at_noon()


# --- The jogo's own rules ------------------------------------------------------------------------

def test_a_plain_jogo_by_the_dealer_on_the_rotation_raises_nothing(floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"])
    assert rules_raised() == []


def test_a_won_jogo_saved_with_no_declared_grade_raises_an_alert(floor):
    people, t1, t2, game = floor
    jogo = record_next(game, people["dealer"], declared_fan=None)
    alert = Alert.objects.get()
    assert (alert.rule, alert.severity, alert.jogo, alert.table) == ("grade_not_declared", "warning", jogo, t1)
    assert rules.article_of(alert) == "6"


def test_a_declared_grade_that_differs_from_the_computed_one_raises_an_alert(floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], declared_fan=2)  # a chicken hand is 0 fán
    alert = Alert.objects.get()
    assert alert.rule == "grade_differs" and alert.params | {} == {"table": "T1", "number": 1, "declared": 2,
                                                                     "computed": 0}


def test_a_grade_declared_on_a_draw_differs_too(floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], **(DRAW | {"declared_fan": 1}))
    assert rules_raised() == ["grade_differs"]


def test_a_pay_all_raises_an_alert_citing_its_article(floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], **(BIG_THREE_DRAGONS_PAY_ALL | {"declared_fan": 0}))
    alert = Alert.objects.get(rule="pay_all")
    assert rules.article_of(alert) == "10(a)(3)" and alert.severity == "info"


def test_a_false_win_raises_an_alert_citing_art_10(floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], **FALSE_WIN)
    alert = Alert.objects.get()
    assert alert.rule == "false_win" and rules.article_of(alert) == "10(a)(7)"


def test_a_jogo_recorded_by_someone_off_the_dealer_rotation_raises_one_alert_for_the_day(floor):
    people, t1, t2, game = floor
    record_next(game, people["supervisor"])  # covering the table: he is not on its dealer rotation
    record_next(game, people["supervisor"])
    alert = Alert.objects.get()
    assert alert.rule == "off_rotation" and alert.params["person"] == "supervisor" and alert.params["number"] == 1


def test_putting_the_person_on_the_rotation_clears_the_off_rotation_alert(floor):
    people, t1, t2, game = floor
    record_next(game, people["supervisor"])
    count_services.rotation_start(table=t1, person=people["supervisor"], starts_at=NOON, user=people["supervisor"],
                                  at=NOON + MINUTE)
    alert = Alert.objects.get()
    assert alert.cleared_at is not None and rules_raised() == []


# --- Capital and money ---------------------------------------------------------------------------
# South wins a chicken hand on West's discard: West (chair 3) pays 25 (tests/builders/pit.py).

@pytest.mark.parametrize("west, raised", [(26, []), (25, []), (24, ["capital_below_zero"])])
def test_c1_a_seats_capital_below_zero_raises_a_critical_alert(west, raised):
    """With no minimum (tests/conftest.py: a casino's lower minimum), West can still owe more
    than he holds: the jogo records it, and the alert says so."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 3000, west, 4000])
    record_next(game, people["dealer"])
    assert rules_raised() == raised
    if raised:
        alert = Alert.objects.get()
        assert (alert.severity, alert.params["chair"], alert.params["capital"]) == ("critical", 3, west - 25)
        assert RULES[alert.rule].control == "minimum_capital" and rules.article_of(alert) == ""


@pytest.mark.money_rules
@pytest.mark.parametrize("west, raised", [(626, []), (625, []), (624, ["capital_below_minimum"])])
def test_c1_a_seats_capital_below_the_tables_minimum_raises_an_alert(west, raised):
    """C-1's default at 25/50 with four players is 600 (docs/rules.md §11): West pays 25."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 3000, west, 4000])
    record_next(game, people["dealer"])
    assert rules_raised() == raised
    if raised:
        assert Alert.objects.get().params == {"table": "T1", "chair": 3, "capital": 599, "minimum": 600,
                                              "missing": 1}


@pytest.mark.money_rules
def test_c1_the_minimum_is_the_casinos_lower_one_when_it_set_one(settings):
    settings.TABLE_MINIMUM_CAPITAL = {"conventional": {25: 100}, "simplified": {25: 5000}}
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 3000, 124, 4000])
    record_next(game, people["dealer"])
    assert Alert.objects.get().params["minimum"] == 100 and rules_raised() == ["capital_below_minimum"]


@pytest.mark.money_rules
def test_c1_a_buy_in_that_tops_the_capital_up_clears_the_alert():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 3000, 600, 4000])
    record_next(game, people["dealer"])
    assert rules_raised() == ["capital_below_minimum"]
    services.move_money(game=game, user=people["supervisor"], chair=2, kind="buy_in", amount=25, at=NOON + MINUTE)
    alert = Alert.objects.get()
    assert alert.cleared_at == NOON + MINUTE and rules_raised() == []
    assert AlertEvent.objects.get().kind == AlertEvent.CLEARED


def test_the_end_of_the_game_clears_its_capital_alerts():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 3000, 10, 4000])
    record_next(game, people["dealer"])
    services.end_game(game=game, user=people["supervisor"], at=NOON + MINUTE)
    assert Alert.objects.get().cleared_at is not None


# --- Refusals, flags, corrections, cases ---------------------------------------------------------

def refuse_at(game, by, at):
    with pytest.raises(Refused):
        services.record_jogo(table=game.table, user=by, at=at,
                             record=next_record(game, hand={"concealed": "345m678p234s99m11p", "winning_tile": "9p"}))


@pytest.mark.parametrize("refusals, raised", [(2, []), (3, ["refusals"]), (4, ["refusals"])])
def test_n_refused_records_within_m_minutes_raise_one_alert(settings, floor, refusals, raised):
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"REFUSALS": 3, "REFUSALS_MINUTES": 10}
    people, t1, t2, game = floor
    for n in range(refusals):
        refuse_at(game, people["dealer"], NOON + n * MINUTE)
    assert rules_raised() == raised


def test_refusals_spread_wider_than_the_window_raise_nothing(settings, floor):
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"REFUSALS": 3, "REFUSALS_MINUTES": 10}
    people, t1, t2, game = floor
    for n in range(3):
        refuse_at(game, people["dealer"], NOON + n * 5 * MINUTE)  # 0, 5, 10 minutes: the first is out
    assert rules_raised() == []
    assert Refusal.objects.count() == 3


def test_a_refusal_burst_clears_once_the_window_holds_fewer(settings, floor):
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"REFUSALS": 3, "REFUSALS_MINUTES": 10}
    people, t1, t2, game = floor
    for n in range(3):  # 12:00, 12:01, 12:02
        refuse_at(game, people["dealer"], NOON + n * MINUTE)
    alerts.tick(now=NOON + 9 * MINUTE)  # (11:59, 12:09] holds three
    assert rules_raised() == ["refusals"]
    alerts.tick(now=NOON + 10 * MINUTE)  # (12:00, 12:10] holds two
    assert rules_raised() == [] and Alert.objects.get().cleared_at == NOON + 10 * MINUTE


def test_an_inspectors_flag_raises_an_alert_that_its_resolution_clears(floor):
    people, t1, t2, game = floor
    jogo = record_next(game, people["dealer"])
    flag = services.flag(jogo=jogo, user=people["inspector"], note="look at the discard", at=NOON)
    alert = Alert.objects.get()
    assert (alert.rule, alert.flag, alert.table) == ("flag_open", flag, t1)
    services.resolve_flag(flag=flag, user=people["manager"], note="fine", at=NOON + MINUTE)
    assert Alert.objects.get().cleared_at == NOON + MINUTE


def test_a_correction_pending_longer_than_the_threshold_raises_an_alert_its_decision_clears(settings, floor):
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"CORRECTION_PENDING_MINUTES": 30}
    people, t1, t2, game = floor
    jogo = record_next(game, people["dealer"])
    amendment = services.propose_amendment(jogo=jogo, user=people["supervisor"], reason="it was a draw",
                                           record=next_record(game, **DRAW) | {"capital": jogo.record["capital"],
                                                                               "round_wind": "E"}, at=NOON)
    alerts.tick(now=NOON + 29 * MINUTE)
    assert rules_raised(rule="correction_pending") == []
    alerts.tick(now=NOON + 30 * MINUTE)
    assert rules_raised(rule="correction_pending") == ["correction_pending"]
    assert Alert.objects.get(rule="correction_pending").amendment == amendment
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=False, reason="no",
                              at=NOON + 31 * MINUTE)
    assert rules_raised(rule="correction_pending") == []


def test_a_variance_case_opened_raises_a_critical_alert_and_its_resolution_clears_it(settings):
    from casino.count import cases
    from tests.builders.count import cast, play

    settings.COUNT_VARIANCE_ABSOLUTE, settings.COUNT_VARIANCE_PERCENT = 100, 2
    people, t1, t2 = cast()
    play(t1, people["dealer"])
    count_by_two(box(t1), people["counter1"], people["counter2"], 15)  # 20 expected
    alert = Alert.objects.get(rule="variance_case")
    assert alert.severity == "critical" and alert.case is not None and alert.box == box(t1)
    cases.resolve(case=alert.case, user=people["manager"], note="found the chips")
    alert.refresh_from_db()
    assert alert.cleared_at is not None


# --- The time rules ------------------------------------------------------------------------------

def test_a_game_open_longer_than_the_threshold_raises_an_alert_and_its_end_clears_it(settings, floor):
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"GAME_OPEN_HOURS": 4}
    people, t1, t2, game = floor
    alerts.tick(now=NOON + dt.timedelta(hours=4) - MINUTE)
    assert "game_open" not in rules_raised()
    alerts.tick(now=NOON + dt.timedelta(hours=4))
    assert "game_open" in rules_raised()
    services.end_game(game=game, user=people["supervisor"], at=NOON + dt.timedelta(hours=4, minutes=1))
    assert "game_open" not in rules_raised()


@pytest.mark.parametrize("idle, raised", [(29, []), (30, ["table_idle"]), (31, ["table_idle"])])
def test_an_open_table_with_no_jogo_for_n_minutes_raises_an_alert(settings, floor, idle, raised):
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"IDLE_TABLE_MINUTES": 30}
    people, t1, t2, game = floor
    record_next(game, people["dealer"], at=NOON)
    alerts.tick(now=NOON + idle * MINUTE)
    assert rules_raised(rule="table_idle") == raised


def test_a_jogo_at_an_idle_table_clears_its_alert(settings, floor):
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"IDLE_TABLE_MINUTES": 30}
    people, t1, t2, game = floor
    record_next(game, people["dealer"], at=NOON)
    alerts.tick(now=NOON + 40 * MINUTE)
    record_next(game, people["dealer"], at=NOON + 41 * MINUTE)
    assert rules_raised() == [] and Alert.objects.get().cleared_at == NOON + 41 * MINUTE


def test_a_table_that_never_played_is_not_idle(settings):
    people, t1, t2 = staff()
    alerts.tick(now=NOON)
    assert rules_raised() == []


@pytest.mark.parametrize("after, raised", [(dt.timedelta(hours=4, seconds=-1), []),
                                           (dt.timedelta(hours=4), ["box_not_counted"])])
def test_a_box_not_counted_n_hours_after_its_shift_ended_raises_an_alert(settings, after, raised):
    from tests.builders.count import cast, play

    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"BOX_UNCOUNTED_HOURS": 4}
    people, t1, t2 = cast()
    play(t1, people["dealer"], at=NOON)  # shift 1 of DAY, 06:00–14:00
    alerts.tick(now=NOON + dt.timedelta(hours=2) + after)
    assert rules_raised(rule="box_not_counted") == raised


def test_counting_the_box_clears_its_alert(settings):
    from tests.builders.count import cast, play

    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"BOX_UNCOUNTED_HOURS": 1}
    people, t1, t2 = cast()
    play(t1, people["dealer"], at=NOON)
    later = NOON + dt.timedelta(hours=3)
    alerts.tick(now=later)
    assert rules_raised(rule="box_not_counted") == ["box_not_counted"]
    assert Alert.objects.get(rule="box_not_counted").params["day"] == DAY.isoformat()
    count_by_two(box(t1), people["counter1"], people["counter2"], 20, at=later)
    alerts.tick(now=later + MINUTE)
    assert rules_raised(rule="box_not_counted") == []


# --- Escalation and acknowledgement --------------------------------------------------------------

def test_an_alert_nobody_acknowledged_for_n_minutes_escalates_once(settings, floor):
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"ESCALATE_AFTER_MINUTES": 15}
    people, t1, t2, game = floor
    record_next(game, people["dealer"], declared_fan=None, at=NOON)
    assert alerts.tick(now=NOON + 14 * MINUTE)["escalated"] == 0
    assert alerts.tick(now=NOON + 15 * MINUTE)["escalated"] == 1
    assert alerts.tick(now=NOON + 16 * MINUTE)["escalated"] == 0
    alert = Alert.objects.get()
    assert alert.escalated_at == NOON + 15 * MINUTE
    assert list(AlertEvent.objects.values_list("kind", flat=True)) == ["escalated"]


def test_an_acknowledged_alert_does_not_escalate(settings, floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], declared_fan=None, at=NOON)
    alerts.acknowledge(alert=Alert.objects.get(), user=people["supervisor"], note="asked the dealer", at=NOON)
    assert alerts.tick(now=NOON + dt.timedelta(hours=1))["escalated"] == 0


def test_acknowledging_keeps_who_when_and_the_note(floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], declared_fan=None, at=NOON)
    alert = alerts.acknowledge(alert=Alert.objects.get(), user=people["supervisor"], note=" asked the dealer ",
                               at=NOON + MINUTE)
    alert.refresh_from_db()
    assert (alert.acknowledged_by, alert.acknowledged_at, alert.acknowledgement) == (
        people["supervisor"], NOON + MINUTE, "asked the dealer")
    assert alert.state == "acknowledged" and not Alert.objects.open().exists()


@pytest.mark.parametrize("note", ["", "   "])
def test_an_acknowledgement_needs_a_note(floor, note):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], declared_fan=None)
    with pytest.raises(Refused) as refused:
        alerts.acknowledge(alert=Alert.objects.get(), user=people["supervisor"], note=note)
    assert refused.value.problems[0].field == "note"


def test_an_alert_is_acknowledged_once(floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], declared_fan=None)
    alerts.acknowledge(alert=Alert.objects.get(), user=people["supervisor"], note="seen")
    with pytest.raises(Refused) as refused:
        alerts.acknowledge(alert=Alert.objects.get(), user=people["inspector"], note="seen too")
    assert refused.value.conflict and "supervisor" in refused.value.problems[0].message


@pytest.mark.parametrize("role, allowed", [("dealer", False), ("other_dealer", False), ("supervisor", True),
                                           ("inspector", True), ("manager", True)])
def test_who_may_acknowledge_an_alert_at_a_table(floor, role, allowed):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], declared_fan=None)
    if allowed:
        alerts.acknowledge(alert=Alert.objects.get(), user=people[role], note="seen")
    else:
        with pytest.raises(PermissionDenied):
            alerts.acknowledge(alert=Alert.objects.get(), user=people[role], note="seen")


def test_a_supervisor_acknowledges_only_the_alerts_of_his_tables(floor):
    people, t1, t2, game = floor
    stranger = user("stranger", "supervisor")
    record_next(game, people["dealer"], declared_fan=None)
    with pytest.raises(PermissionDenied, match="not assigned"):
        alerts.acknowledge(alert=Alert.objects.get(), user=stranger, note="seen")
    assert alerts.visible_alerts(stranger).count() == 0 and alerts.visible_alerts(people["supervisor"]).count() == 1


def test_an_escalated_alert_is_acknowledged_by_a_manager_only(floor):
    people, t1, t2, game = floor
    record_next(game, people["dealer"], declared_fan=None, at=NOON)
    alerts.tick(now=NOON + dt.timedelta(hours=1))
    alert = Alert.objects.get(rule="grade_not_declared", escalated_at__isnull=False)
    for role in ("supervisor", "inspector"):
        with pytest.raises(PermissionDenied, match="managers"):
            alerts.acknowledge(alert=alert, user=people[role], note="seen")
    alerts.acknowledge(alert=alert, user=people["manager"], note="seen")


@pytest.mark.money_rules
def test_a_cleared_alert_may_still_be_acknowledged_and_both_are_kept():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 3000, 600, 4000])
    record_next(game, people["dealer"])
    services.move_money(game=game, user=people["supervisor"], chair=2, kind="buy_in", amount=100, at=NOON + MINUTE)
    alert = alerts.acknowledge(alert=Alert.objects.get(), user=people["supervisor"], note="topped up",
                               at=NOON + 2 * MINUTE)
    alert.refresh_from_db()
    assert alert.cleared_at and alert.acknowledged_at and alert.state == "cleared"
    assert list(AlertEvent.objects.order_by("seq").values_list("kind", flat=True)) == ["cleared", "acknowledged"]


@pytest.mark.money_rules
def test_a_condition_that_comes_back_after_clearing_raises_a_new_alert():
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], capital=[5000, 3000, 600, 4000])
    record_next(game, people["dealer"])
    services.move_money(game=game, user=people["supervisor"], chair=2, kind="buy_in", amount=25, at=NOON + MINUTE)
    services.move_money(game=game, user=people["supervisor"], chair=2, kind="cash_out", amount=1,
                        at=NOON + 2 * MINUTE)
    assert Alert.objects.filter(rule="capital_below_minimum").count() == 2
    assert rules_raised() == ["capital_below_minimum"]


# --- The ledger's check --------------------------------------------------------------------------

def test_ledger_findings_raise_one_alert_per_casino_and_a_clean_check_clears_it(floor):
    alerts.ledger_findings(["table T1 (Casino Lisboa), jogo 3: its content does not match its hash"], at=NOON)
    alerts.ledger_findings(["table T1 (Casino Lisboa), jogo 3: its content does not match its hash"],
                           at=NOON + MINUTE)
    alert = Alert.objects.get()
    assert (alert.rule, alert.severity, alert.table, alert.params["problems"]) == ("ledger", "critical", None, 1)
    alerts.ledger_findings([], at=NOON + 2 * MINUTE)
    assert rules_raised() == []


def test_other_findings_replace_the_standing_ledger_alert(floor):
    alerts.ledger_findings(["one"], at=NOON)
    alerts.ledger_findings(["one", "two"], at=NOON + MINUTE)
    assert rules_raised() == ["ledger"] and Alert.objects.count() == 2
    assert Alert.objects.standing().get().params["first"] == ["one", "two"]


# --- Queries -------------------------------------------------------------------------------------

def test_recording_a_jogo_takes_the_same_queries_whether_one_rule_or_all_fire(settings):
    """Two supervisors covering T1, off its dealer rotation (so that the pit checks both alike):
    the first records a plain jogo, which fires one rule (off the rotation); the second a jogo
    that fires every rule a won jogo can fire at once (off the rotation, no declared grade, a
    pay-all, and the liable seat's capital below the minimum, C-1). Both cost the same queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from casino.pit.roles import SUPERVISOR

    people, t1, t2 = staff()
    covering = [user("covering1", SUPERVISOR), user("covering2", SUPERVISOR)]
    t1.staff.add(*covering)
    game = seat(t1, people["dealer"], capital=[5000, 700, 2000, 4000])  # chair 2: liable for the pay-all below
    record_next(game, people["supervisor"], at=NOON)  # the casino's alert log is made

    def recorded(by, **fields) -> tuple[int, int]:
        by.has_perm("pit.record_at_table")  # each person's permissions read before, as for any request
        before = Alert.objects.count()
        with CaptureQueriesContext(connection) as queries:
            services.record_jogo(table=t1, user=by, record=next_record(game, **fields), at=NOON)
        return Alert.objects.count() - before, len([q for q in queries.captured_queries if not q["sql"].startswith(
            ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))])

    one, one_queries = recorded(covering[0])
    settings.TABLE_MINIMUM_CAPITAL = {}  # C-1's default, 600: chair 2 (740), liable for the pay-all, goes below it
    every, every_queries = recorded(covering[1], **(BIG_THREE_DRAGONS_PAY_ALL | {"declared_fan": None}))
    assert (one, every) == (1, 4)
    assert every_queries == one_queries


def test_the_floor_views_are_told_once_the_alerts_commit(floor, django_capture_on_commit_callbacks):
    from casino.floor import live

    people, t1, t2, game = floor
    with django_capture_on_commit_callbacks() as told:
        record_next(game, people["dealer"], declared_fan=None)
    def alerts_said(callbacks) -> list[tuple]:  # the live floor's own receivers tell of the jogo itself
        return [c.args for c in callbacks if getattr(c, "func", None) is live.publish and c.args[0].startswith("alert")]

    assert alerts_said(told) == [("alert_raised", t1.pk)]
    with django_capture_on_commit_callbacks() as told:
        alerts.acknowledge(alert=Alert.objects.get(), user=people["supervisor"], note="seen")
    assert alerts_said(told) == [("alert_acknowledged", t1.pk)]
