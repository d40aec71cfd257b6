"""The records the audit depends on are append-only in PostgreSQL itself, like
the ledger: only their allowed changes pass, whoever asks."""
import pytest
from django.db import DatabaseError, connection, transaction

from casino.pit import errors, services
from casino.pit.models import Amendment, DayEvent, Flag, FlagComment, GamingDay, Refusal
from tests.builders.pit import DRAW, NOON, next_record, seat, staff

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql",
                                reason="the database-level guarantees are PostgreSQL's; CI runs them there")


def refused(sql: str, params=()) -> bool:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no deferred check pending before a TRUNCATE
            cursor.execute(sql, params)
    except DatabaseError as error:
        assert "append-only" in str(error)
        return True
    return False


@pytest.fixture
def records(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    first, _ = services.record_jogo(table=t1, user=people["dealer"], record=next_record(game), at=NOON)
    with pytest.raises(errors.Refused):
        services.record_jogo(table=t1, user=people["dealer"], record={**next_record(game), "stake": 30}, at=NOON)
    amendment = services.propose_amendment(jogo=first, user=people["supervisor"], reason="it was a draw",
                                          record={**first.record, **DRAW}, at=NOON)
    flag = services.flag(jogo=first, user=people["inspector"], note="look at the discard", at=NOON)
    services.comment_on_flag(flag=flag, user=people["manager"], note="camera 3", at=NOON)
    return people, t1, first, amendment, flag


def test_refusals_and_comments_are_never_changed_or_deleted(records):
    for table in ("pit_refusal", "pit_flagcomment"):
        assert refused(f"UPDATE {table} SET id = id")
        assert refused(f"DELETE FROM {table}")
        assert refused(f"TRUNCATE {table} CASCADE")
    assert Refusal.objects.count() == 1 and FlagComment.objects.count() == 1


def test_an_amendment_is_decided_once_and_nothing_else_of_it_changes(records):
    people, t1, first, amendment, flag = records
    assert refused("UPDATE pit_amendment SET reason = 'another reason'")
    assert refused("UPDATE pit_amendment SET state = 'approved', reason = 'another reason'")
    assert refused("DELETE FROM pit_amendment")
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=False,
                              reason="the camera shows a win",
                             at=NOON)
    assert Amendment.objects.get().state == Amendment.REJECTED
    assert refused("UPDATE pit_amendment SET state = 'pending'")
    assert refused("UPDATE pit_amendment SET state = 'approved'")
    assert refused("UPDATE pit_amendment SET decision_reason = 'edited later'")


def test_a_flag_is_resolved_once_and_its_note_never_changes(records):
    people, t1, first, amendment, flag = records
    assert refused("UPDATE pit_flag SET note = 'something else'")
    assert refused("DELETE FROM pit_flag")
    services.resolve_flag(flag=flag, user=people["manager"], note="the discard was legal", at=NOON)
    assert Flag.objects.get().resolved_at is not None
    assert refused("UPDATE pit_flag SET resolution = 'rewritten'")
    assert refused("UPDATE pit_flag SET resolved_at = NULL, resolved_by_id = NULL, resolution = ''")


def test_a_gaming_days_log_is_never_changed_and_the_day_only_closes_and_reopens(records):
    people, t1, first, amendment, flag = records
    day = first.gaming_day
    services.close_day(casino=t1.casino, day=day, user=people["manager"], note="reviewed",
                       override_reason="box counted later")
    services.reopen_day(casino=t1.casino, day=day, user=people["manager"], reason="a late correction")
    assert list(DayEvent.objects.values_list("action", flat=True)) == ["closed", "reopened"]
    assert refused("UPDATE reports_dayevent SET reason = 'nothing happened'")
    assert refused("DELETE FROM reports_dayevent")
    assert refused("UPDATE reports_gamingday SET day = day + 1")
    assert refused("DELETE FROM reports_gamingday")
    assert not refused("UPDATE reports_gamingday SET closed = true")  # closing is its one change
    assert GamingDay.objects.get().closed
