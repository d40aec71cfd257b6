"""The count's records are kept like the ledger: counts, signatures, expected changes and case
events hash-chained, checked by verify_ledger, and refused UPDATE/DELETE by PostgreSQL."""
from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from casino.count import services
from casino.count.models import Case, CaseEvent, Count, Signature
from tests.builders.count import box, cast, count_by_two, play
from tests.builders.ledger import behind_the_applications_back, on_postgresql
from tests.builders.pit import NOON

pytestmark = pytest.mark.django_db


@pytest.fixture
def counted(settings):
    """T1's box counted short (15 of 20): two signatures and an open case."""
    settings.COUNT_VARIANCE_ABSOLUTE, settings.COUNT_VARIANCE_PERCENT = 100, 2
    people, t1, t2 = cast()
    play(t1, people["dealer"])
    count_by_two(box(t1), people["counter1"], people["counter2"], 15)
    entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    services.rotation_close(entry=entry, ends_at=NOON + dt.timedelta(hours=1), user=people["supervisor"])
    return people, box(t1)


def verify() -> str:
    out = StringIO()
    call_command("verify_ledger", stdout=out, stderr=out)
    return out.getvalue()


def test_a_boxs_rows_form_one_chain_and_verify_ledger_passes_them(counted):
    people, the_box = counted
    count = Count.objects.get()
    signatures = list(Signature.objects.order_by("seq"))
    assert [count.seq] + [s.seq for s in signatures] == [1, 2, 3]
    assert signatures[0].prev_hash == count.hash and signatures[1].prev_hash == signatures[0].hash
    assert (the_box.ledger_seq, the_box.ledger_head) == (3, signatures[1].hash)
    assert Case.objects.get().ledger_seq == 1
    assert "ledger intact" in verify()


def test_verify_ledger_reports_a_tampered_count(counted):
    people, the_box = counted
    signature = Signature.objects.order_by("seq").last()
    behind_the_applications_back("UPDATE count_signature SET counted = 20 WHERE id = %s", [signature.pk])
    with pytest.raises(CommandError) as failed:
        verify()
    assert f"count box {the_box.pk} (table T1, 2026-11-21 shift 1)" in str(failed.value)
    assert f"signature (seq 3, id {signature.pk}): its content does not match its hash" in str(failed.value)


def test_verify_ledger_reports_a_tampered_expected_figure(counted):
    people, the_box = counted
    behind_the_applications_back("UPDATE count_count SET expected = 15")
    with pytest.raises(CommandError) as failed:
        verify()
    assert "count (seq 1" in str(failed.value)


def test_verify_ledger_reports_a_deleted_case_event(counted):
    case = Case.objects.get()
    behind_the_applications_back("DELETE FROM count_caseevent")
    with pytest.raises(CommandError) as failed:
        verify()
    assert f"variance case {case.pk}, the chain ends at seq 0, but its head says seq 1" in str(failed.value)


def test_the_models_refuse_to_change_or_delete_a_count(counted):
    count = Count.objects.get()
    count.expected = 15
    with pytest.raises(ValidationError):
        count.save()
    with pytest.raises(ValidationError):
        CaseEvent.objects.get().delete()


@on_postgresql
@pytest.mark.parametrize("statement", ["UPDATE count_count SET expected = 0", "DELETE FROM count_signature",
                                       "UPDATE count_caseevent SET note = 'x'", "TRUNCATE count_caseevent CASCADE",
                                       "UPDATE count_box SET shift = 2", "UPDATE count_case SET opened_at = now()",
                                       "UPDATE count_rotation SET ends_at = NULL", "DELETE FROM count_rotation"])
def test_postgresql_itself_refuses_to_change_the_counts(counted, statement):
    from django.db.utils import DatabaseError
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)
    assert Count.objects.get().expected == 20 and Signature.objects.count() == 2
