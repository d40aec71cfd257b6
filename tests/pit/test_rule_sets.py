"""Each table runs under a named, versioned rule set and each jogo keeps the one that scored it:
verify_ledger, the audit, audit_recompute, the exports and the daily report judge
every jogo under its own rule set, so that moving a table to a new rule set never changes how
yesterday's jogos are judged.

The new rule set here is defined in the test and registered for the test only: an amendment of
Art. 8 that doubles the commission of every tier."""
from __future__ import annotations

import csv
import dataclasses
import io
from io import StringIO
from types import MappingProxyType

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from casino.audit.exceptions import exceptions
from casino.audit.exports import csv_lines
from casino.audit.ledger import Days
from casino.audit.selectors import commission_audit, explain
from casino.pit import errors, services, verify
from casino.pit.models import Casino, Table
from casino.reports.selectors import daily_summary
from regulation.rules import DEFAULT, rule_set
from tests.builders.audit import DAY, NEXT_DAY, record_next
from tests.builders.jogos import registered
from tests.builders.pit import DRAW, NOON, seat, staff

pytestmark = pytest.mark.django_db

TOMORROW_NOON = NOON.replace(day=NOON.day + 1)

DOUBLED = dataclasses.replace(
    DEFAULT, code="test-art-8-doubled", version=1, title="Art. 8 amended for the test: the commission doubles",
    commission=MappingProxyType({variant: MappingProxyType({stake: 2 * rate for stake, rate in tiers.items()})
                                 for variant, tiers in DEFAULT.commission.items()}))


@pytest.fixture
def doubled():
    with registered(DOUBLED):
        yield DOUBLED


def audit_figures(days: Days) -> list[tuple]:
    audit = commission_audit(days)
    return [(line.label, line.rule_set, line.rate, line.jogos, line.won_recorded, line.commission_recorded,
             line.won_due, line.commission_due) for line in audit.tables + audit.tiers + [audit.total]] + [
        [str(d) for d in audit.differences]]


def recompute(*args) -> str:
    out = StringIO()
    call_command("audit_recompute", "--workers", "1", "--no-progress", *args, stdout=out, stderr=out)
    return out.getvalue()


def test_a_jogo_stores_the_code_and_version_of_the_rule_set_that_scored_it():
    people, t1, t2 = staff()
    jogo = record_next(seat(t1, people["dealer"]), people["dealer"])

    jogo.refresh_from_db()
    assert (jogo.rule_set_code, jogo.rule_set_version) == ("portaria-135-91-M", 1)
    assert (t1.rule_set_code, t1.rule_set_version) == ("portaria-135-91-M", 1)
    assert jogo.rules == DEFAULT == rule_set("portaria-135-91-M", 1)


def test_moving_a_table_to_a_new_rule_set_leaves_yesterdays_jogos_judged_as_before(doubled):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    yesterday = [record_next(game, people["dealer"], **fields) for fields in ({}, DRAW, {})]
    services.end_game(game=game, user=people["supervisor"], at=NOON)
    yesterdays_audit = audit_figures(Days(DAY, DAY))
    assert "ledger intact" in _verify()
    assert [row.commission for row in yesterday] == [10, 0, 10]  # Art. 8: 10 at the tier 25/50

    services.change_rule_set(table=t1, code=doubled.code, version=doubled.version)
    today = record_next(seat(t1, people["dealer"], at=TOMORROW_NOON), people["dealer"], at=TOMORROW_NOON)

    # Yesterday's jogos: judged under the rule set that scored them, figure for figure.
    assert audit_figures(Days(DAY, DAY)) == yesterdays_audit
    assert "ledger intact: 2 table(s) checked" in _verify()
    assert verify.breaks() == []
    # Today's jogo: scored, stored and audited under the new rule set.
    assert (today.rule_set_code, today.rule_set_version, today.commission) == (doubled.code, 1, 20)
    both = commission_audit(Days(DAY, NEXT_DAY))
    assert both.differences == []
    assert [(line.label, line.rule_set, line.rate, line.commission_recorded, line.commission_due)
            for line in both.tables] == [("T1", "portaria-135-91-M, version 1", 10, 20, 20),
                                         ("T1", "test-art-8-doubled, version 1", 20, 20, 20)]
    assert "0 difference(s)" in recompute()
    rows = list(csv.reader(io.StringIO("".join(csv_lines(Days(DAY, NEXT_DAY))))))
    assert [(row[5], row[15], row[16], row[-2], row[-1]) for row in rows[1:]] == [
        ("1", "10", "10", DEFAULT.code, "1"), ("2", "0", "0", DEFAULT.code, "1"), ("3", "10", "10", DEFAULT.code, "1"),
        ("4", "20", "20", doubled.code, "1")]
    # The daily reports: each day's tier at the rate of the rule set its jogos were scored under.
    casino = Casino.objects.get()
    assert [(line.rate, line.commission) for line in daily_summary(casino, DAY).tiers] == [(10, 20)]
    assert [(line.rate, line.commission) for line in daily_summary(casino, NEXT_DAY).tiers] == [(20, 20)]
    assert explain(yesterday[0]).rules == DEFAULT and explain(today).rules == doubled


def test_an_amendment_of_yesterdays_jogo_is_scored_under_its_own_rule_set(doubled):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    first = record_next(game, people["dealer"])
    services.end_game(game=game, user=people["supervisor"], at=NOON)
    services.change_rule_set(table=t1, code=doubled.code, version=doubled.version)

    corrected = {**first.record, "winner": "N", "discarder": "W"}
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], record=corrected, reason="camera",
                                           at=NOON)
    amended = services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True, at=NOON).revision

    assert (amended.rule_set_code, amended.commission) == ("portaria-135-91-M", 10)
    assert "ledger intact" in _verify()


def test_the_rule_set_of_a_jogo_is_covered_by_its_hash(doubled):
    people, t1, t2 = staff()
    jogo = record_next(seat(t1, people["dealer"]), people["dealer"])
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")  # the append-only triggers off
        cursor.execute("UPDATE pit_jogo SET rule_set_code = %s WHERE id = %s", [doubled.code, jogo.pk])
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = origin")

    with pytest.raises(CommandError) as failed:
        _verify()
    assert "changed after recording" in str(failed.value)


def test_a_jogo_scored_under_a_rule_set_the_engine_does_not_know_is_a_break():
    people, t1, t2 = staff()
    with registered(DOUBLED):
        services.change_rule_set(table=t1, code=DOUBLED.code, version=DOUBLED.version)
        jogo = record_next(seat(t1, people["dealer"]), people["dealer"])

    # The rule set is gone, as after its removal from the code: its jogo cannot be judged.
    found = verify.breaks()
    assert [(b.table, b.problem) for b in found] == [
        (t1, "it was scored under the rule set test-art-8-doubled v1, which the engine does not know")]
    assert explain(jogo).rules is None


def _verify() -> str:
    out = StringIO()
    call_command("verify_ledger", stdout=out, stderr=out)
    return out.getvalue()


# --- Choosing a table's rule set -----------------------------------------------------------------


def test_a_table_changes_rule_set_only_between_games(doubled):
    people, t1, t2 = staff()
    seat(t1, people["dealer"])

    with pytest.raises(errors.Refused) as refused:
        services.change_rule_set(table=t1, code=doubled.code, version=doubled.version)

    assert refused.value.conflict and refused.value.problems[0].field == "rule_set"
    t1.refresh_from_db()
    assert t1.rule_set_code == DEFAULT.code


def test_an_unknown_rule_set_is_refused_naming_the_field():
    people, t1, t2 = staff()
    with pytest.raises(errors.Refused) as refused:
        services.change_rule_set(table=t1, code="portaria-0-00-M", version=1)
    problem = refused.value.problems[0]
    assert (problem.code, problem.field) == ("rule_set", "rule_set")
    assert "portaria-0-00-M" in problem.message


def test_art_8_a_rule_set_without_the_tables_tier_is_refused(doubled):
    people, t1, t2 = staff()
    narrow = dataclasses.replace(doubled, code="test-no-25", commission=MappingProxyType({
        variant: MappingProxyType({stake: rate for stake, rate in tiers.items() if stake != 25})
        for variant, tiers in doubled.commission.items()}))
    with registered(narrow), pytest.raises(errors.Refused) as refused:
        services.change_rule_set(table=t1, code=narrow.code, version=narrow.version)
    problem = refused.value.problems[0]
    assert (problem.code, problem.article, problem.field) == ("table_stake", "8", "stake")
    assert problem.message.startswith("Art. 8: table T1 plays at 25/50, which is not a tier")


@pytest.mark.parametrize("variant,stake,valid", [("conventional", 25, True), ("conventional", 30, False),
                                                 ("simplified", 100, True), ("simplified", 25, False)])
def test_art_8_a_table_runs_only_at_a_tier_of_its_variant_under_its_rule_set(variant, stake, valid):
    made = Table(casino=Casino.objects.create(name="C"), number="X", variant=variant, stake=stake)
    if valid:
        made.full_clean()
        return
    with pytest.raises(ValidationError, match="Art. 8") as invalid:
        made.full_clean()
    assert "stake" in invalid.value.message_dict
    made.save()  # past the validation, as a script might: the service refuses to seat a game
    people, _t1, _t2 = staff()
    made.staff.add(people["supervisor"])  # he covers the table: the rotation lets him seat
    with pytest.raises(errors.Refused) as refused:
        seat(made, people["supervisor"], capital=[5000, 3000, 2000, 4000])
    assert refused.value.problems[0].article == "8"


def test_the_admin_validation_refuses_a_rule_set_change_during_a_game(doubled):
    people, t1, t2 = staff()
    seat(t1, people["dealer"])
    t1.refresh_from_db()
    t1.rule_set_code = doubled.code
    with pytest.raises(ValidationError) as invalid:
        t1.full_clean()
    assert "game in progress" in str(invalid.value.message_dict["rule_set_code"])


# --- The supervisor's screen and the API ---------------------------------------------------------


@pytest.mark.parametrize("role,status,changed", [("supervisor", 302, True), ("dealer", 403, False),
                                                 ("other_dealer", 403, False), ("inspector", 403, False),
                                                 ("manager", 403, False)])
def test_the_supervisor_of_a_table_changes_its_rule_set_between_games(client, doubled, role, status, changed):
    people, t1, t2 = staff()
    client.force_login(people[role])

    response = client.post(f"/pit/tables/{t1.pk}/rule-set", {"rule_set": f"{doubled.code}@{doubled.version}"})

    assert response.status_code == status
    t1.refresh_from_db()
    assert (t1.rule_set_code == doubled.code) is changed


def test_a_supervisor_of_another_table_cannot_change_its_rule_set(client, doubled):
    people, t1, t2 = staff()
    client.force_login(people["supervisor"])
    assert client.post(f"/pit/tables/{t2.pk}/rule-set", {"rule_set": f"{doubled.code}@1"}).status_code == 403


def test_the_table_page_offers_the_rule_sets_between_games_and_says_why_a_change_is_refused(client):
    people, t1, t2 = staff()
    client.force_login(people["supervisor"])
    page = client.get(f"/pit/tables/{t1.pk}/").content.decode()
    assert '<option value="portaria-135-91-M@1" selected>' in page
    assert '<option value="portaria-135-91-M-zh@1">' in page
    assert "rule set <code>portaria-135-91-M</code>, version 1" in page

    seat(t1, people["dealer"])
    assert 'action="/pit/tables/%d/rule-set"' % t1.pk not in client.get(f"/pit/tables/{t1.pk}/").content.decode()
    page = client.post(f"/pit/tables/{t1.pk}/rule-set", {"rule_set": "portaria-135-91-M-zh@1"}, follow=True)
    assert "Table T1 has a game in progress; end it before changing the rule set." in page.content.decode()


def test_the_api_names_the_rule_set_of_a_table_and_of_each_jogo(client):
    people, t1, t2 = staff()
    jogo = record_next(seat(t1, people["dealer"]), people["dealer"])
    client.force_login(people["inspector"])

    table = client.get(f"/api/v1/tables/{t1.pk}/").json()
    assert (table["rule_set_code"], table["rule_set_version"], table["commission"]) == ("portaria-135-91-M", 1, 10)
    row = client.get(f"/api/v1/jogos/{jogo.pk}/").json()
    assert (row["rule_set_code"], row["rule_set_version"]) == ("portaria-135-91-M", 1)


def test_the_daily_report_names_each_rule_set_its_day_was_scored_under(doubled):
    from casino.reports.pdf import report_html

    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    record_next(game, people["dealer"])
    services.end_game(game=game, user=people["supervisor"], at=NOON)
    services.change_rule_set(table=t1, code=doubled.code, version=doubled.version)
    record_next(seat(t1, people["dealer"]), people["dealer"])

    summary = daily_summary(Casino.objects.get(), DAY)
    html = report_html(summary, language="en")

    assert [(table.number, table.rate, table.figures.commission) for table in summary.tables] == [
        ("T1", 10, 10), ("T1", 20, 20)]
    assert [(line.rate, line.commission, line.rules.code) for line in summary.tiers] == [
        (10, 10, DEFAULT.code), (20, 20, doubled.code)]
    assert "[<code>portaria-135-91-M</code>, version 1]" in html
    assert f"{doubled.title} [<code>test-art-8-doubled</code>, version 1]" in html


BANK_PASSES = dataclasses.replace(
    DEFAULT, code="test-i1-bank-passes", version=1, title="I-1 read the other way for the test: a draw passes the bank",
    readings=MappingProxyType({**DEFAULT.readings, "I-1": "bank_passes"}))


def test_the_audits_rotation_check_follows_the_engine_on_whether_the_bank_moved():
    """Art. 3, I-1: whether the bank moves after a jogo is the engine's answer under the jogo's
    own rule set (its outcome's `next`), which the pit replays too; the audit reads it there
    rather than working it out again, so a rule set that passes the bank on a draw is no anomaly."""
    people, t1, _t2 = staff()
    with registered(BANK_PASSES):
        services.change_rule_set(table=t1, code=BANK_PASSES.code, version=BANK_PASSES.version)
        game = seat(t1, people["dealer"])
        draw = record_next(game, people["dealer"], **DRAW)
        after_draw = record_next(game, people["dealer"], **DRAW)
        assert draw.outcome["next"]["banker_moves"] is True
        assert (draw.banker_chair, after_draw.banker_chair) == (0, 1)  # the pit passed the bank on the draw
        assert exceptions(Days(DAY, DAY), "rotation") == []
