"""Alerts are kept like the other audit records: one hash chain per casino of alerts and their
acknowledgements, escalations and clearings, checked by verify_ledger and anchored by
ledger_heads; the models refuse to change them, and on PostgreSQL the database refuses too."""
from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from casino.chain import GENESIS
from casino.floor import alerts
from casino.floor.models import Alert, AlertEvent, AlertLog
from casino.floor.verify import breaks
from casino.pit.heads import departures, snapshot
from tests.builders.alerts import floor_at_noon
from tests.builders.ledger import behind_the_applications_back, on_postgresql
from tests.builders.pit import NOON, record_next, staff

pytestmark = pytest.mark.django_db

MINUTE = dt.timedelta(minutes=1)


@pytest.fixture
def lived(settings):
    """Two alerts at T1 (two jogos saved with no declared grade), both escalated, the first then
    acknowledged by a manager: seq 1–2 the alerts, 3–4 their escalations, 5 the acknowledgement."""
    settings.FLOOR_ALERTS = settings.FLOOR_ALERTS | {"ESCALATE_AFTER_MINUTES": 15, "IDLE_TABLE_MINUTES": 600}
    people, t1, t2, game = floor_at_noon()
    record_next(game, people["dealer"], declared_fan=None, at=NOON)
    record_next(game, people["dealer"], declared_fan=None, at=NOON)
    alerts.tick(now=NOON + 15 * MINUTE)
    first = Alert.objects.order_by("seq").first()
    alerts.acknowledge(alert=first, user=people["manager"], note="asked the dealer", at=NOON + 16 * MINUTE)
    return people, t1


def verify(*args) -> str:
    out = StringIO()
    call_command("verify_ledger", *args, stdout=out, stderr=out)
    return out.getvalue()


def test_alerts_and_their_events_form_one_chain_per_casino(lived):
    people, t1 = lived
    rows = sorted([*Alert.objects.all(), *AlertEvent.objects.all()], key=lambda row: row.seq)
    assert [row.seq for row in rows] == [1, 2, 3, 4, 5]
    assert [type(row).__name__ for row in rows] == ["Alert", "Alert", "AlertEvent", "AlertEvent", "AlertEvent"]
    assert rows[0].prev_hash == GENESIS and all(b.prev_hash == a.hash for a, b in zip(rows, rows[1:]))
    log = AlertLog.objects.get()
    assert (log.casino, log.ledger_seq, log.ledger_head) == (t1.casino, 5, rows[-1].hash)
    assert breaks().found == [] and breaks().summary == "2 alert(s)"
    assert "ledger intact" in verify()


@pytest.mark.parametrize("tampering, found", [
    ("UPDATE floor_alert SET params = '{}' WHERE seq = 1", "alert (seq 1, id {first}): its content does not match"),
    ("UPDATE floor_alertevent SET note = 'nothing' WHERE kind = 'acknowledged'", "its content does not match"),
    ("DELETE FROM floor_alertevent WHERE seq = 5", "the chain ends at seq 4, but its head says seq 5"),
    ("UPDATE floor_alert SET acknowledgement = 'other' WHERE seq = 1",
     "alert {first}: its acknowledgement is not the one recorded in the chain"),
    ("UPDATE floor_alert SET escalated_at = NULL WHERE seq = 2",
     "alert {second}: its escalated time is not the one recorded in the chain"),
])
def test_verify_ledger_finds_a_tampered_alert(lived, tampering, found):
    first, second = Alert.objects.order_by("seq")
    behind_the_applications_back(tampering)
    with pytest.raises(CommandError) as failed:
        verify()
    assert "alert log of Casino Lisboa" in str(failed.value)
    assert found.format(first=first.pk, second=second.pk) in str(failed.value)


def test_the_heads_file_holds_each_casinos_alert_chain_and_catches_a_rewind(lived, tmp_path):
    saved = snapshot(dt.datetime.now(dt.UTC))
    assert [(e["casino"], e["seq"]) for e in saved["alerts"]] == [("Casino Lisboa", 5)]
    assert departures(saved) == []
    path = tmp_path / "heads.json"
    call_command("ledger_heads", "--out", str(path), stderr=StringIO())
    # The last event removed and the head rewound with it: the chain alone still checks out.
    behind_the_applications_back("DELETE FROM floor_alertevent WHERE seq = 5")
    last = AlertEvent.objects.order_by("seq").last()
    behind_the_applications_back("UPDATE floor_alertlog SET ledger_seq = 4, ledger_head = %s", [last.hash])
    behind_the_applications_back("UPDATE floor_alert SET acknowledged_at = NULL, acknowledged_by_id = NULL, "
                                 "acknowledgement = '' WHERE seq = 1")
    assert breaks().found == []
    with pytest.raises(CommandError) as failed:
        verify("--heads", str(path))
    assert "alert log of Casino Lisboa, saved head at ledger seq 5: that row no longer exists" in str(failed.value)


def test_the_models_refuse_to_change_an_alert_or_an_event(lived):
    alert = Alert.objects.order_by("seq").first()
    alert.params = {}
    with pytest.raises(ValidationError):
        alert.save()
    alert = Alert.objects.order_by("seq").first()
    alert.acknowledgement = "another note"  # set once, never again
    with pytest.raises(ValidationError):
        alert.save()
    with pytest.raises(ValidationError):
        Alert.objects.first().delete()
    with pytest.raises(ValidationError):
        AlertEvent.objects.first().delete()
    event = AlertEvent.objects.first()
    event.note = "x"
    with pytest.raises(ValidationError):
        event.save()


@on_postgresql
@pytest.mark.parametrize("statement", [
    "UPDATE floor_alert SET params = '{}'", "UPDATE floor_alert SET rule = 'pay_all'", "DELETE FROM floor_alert",
    "UPDATE floor_alert SET acknowledgement = 'other' WHERE acknowledged_at IS NOT NULL",
    "UPDATE floor_alert SET cleared_at = now()",  # no clearing event says so
    "UPDATE floor_alertevent SET note = 'x'", "DELETE FROM floor_alertevent", "TRUNCATE floor_alertevent CASCADE",
    "UPDATE floor_alertlog SET ledger_seq = 0, ledger_head = ''", "DELETE FROM floor_alertlog",
])
def test_postgresql_itself_refuses_to_change_the_alerts(lived, statement):
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending deferred checks in the way of a TRUNCATE
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)
    assert AlertEvent.objects.count() == 3 and Alert.objects.filter(params={}).count() == 0


@on_postgresql
def test_postgresql_lets_the_service_acknowledge_escalate_and_clear(lived):
    people, t1 = lived
    second = Alert.objects.order_by("seq").last()
    alerts.acknowledge(alert=second, user=people["manager"], note="seen too", at=NOON + 20 * MINUTE)
    assert Alert.objects.acknowledged().count() == 2 and breaks().found == []


@on_postgresql  # row locks and the append-only trigger are PostgreSQL's; SQLite writes one at a time
@pytest.mark.usefixtures("flush_ledger_afterwards")
def test_two_writers_of_the_same_alert_at_once_write_it_once_and_neither_fails():
    """Regression (CI, PostgreSQL): two refusals at one table at once both want the `refusals`
    alert. The second writer, waiting for the casino's alert log while the first raises it, finds
    nothing left to write under the lock, and leaves the log's head where the first moved it
    (moving it onto no new row is what the database refuses)."""
    import threading

    from django.db import connections

    from casino.floor.rules import Raise

    people, t1, _t2 = staff()
    wanted = [Raise("refusals", t1.pk, f"table:{t1.pk}", {"count": 3, "minutes": 10}, gaming_day=NOON.date())]
    holding, outcome = threading.Event(), []

    def second_writer():
        try:
            holding.wait()
            with transaction.atomic():
                outcome.append(alerts.write(t1.casino_id, wanted, [], at=NOON))
        except Exception as error:  # noqa: BLE001 (the test reports it)
            outcome.append(error)
        finally:
            connections.close_all()

    waiting = threading.Thread(target=second_writer)
    waiting.start()
    with transaction.atomic():
        alerts._locked_log(t1.casino_id)  # the first writer holds the lock while the second asks
        holding.set()
        waiting.join(timeout=1)  # the second writer waits for the lock: still alive
        assert waiting.is_alive()
        first, _cleared = alerts.write(t1.casino_id, wanted, [], at=NOON)
    waiting.join(timeout=30)

    assert len(first) == 1 and outcome == [([], 0)]
    assert Alert.objects.filter(rule="refusals").count() == 1
    assert AlertLog.objects.get(casino_id=t1.casino_id).ledger_seq == 1
