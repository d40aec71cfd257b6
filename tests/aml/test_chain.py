"""The cases are kept like the ledger: each case's events hash-chained and checked by
verify_ledger, their heads saved with the ledger's, the events refused any change by the models
and, on PostgreSQL, by the database."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from casino.aml.heads import case_heads, departures
from casino.aml.models import SuspicionCase, SuspicionEvent
from tests.aml.builders import cast, escalated, opened
from tests.builders.ledger import behind_the_applications_back, on_postgresql

pytestmark = pytest.mark.django_db


def verify(*args) -> str:
    out = StringIO()
    call_command("verify_ledger", *args, stdout=out, stderr=out)
    return out.getvalue()


def test_verify_ledger_passes_the_cases_chains():
    people, t1, _ = cast()
    escalated(people, t1)
    out = verify()
    assert "ledger intact" in out and "1 suspicious-transaction case(s)" in out


def test_verify_ledger_finds_a_note_changed_behind_the_application_s_back():
    people, t1, _ = cast()
    _, case = escalated(people, t1)
    note = case.events.get(seq=2)
    behind_the_applications_back("UPDATE aml_suspicionevent SET note = %s WHERE id = %s",
                                 ["Nothing odd about this player.", note.pk])
    with pytest.raises(CommandError) as failed:
        verify()
    assert (f"suspicious-transaction case {case.pk}, event note (seq 2, id {note.pk}): its content does not match "
            "its hash (changed after it was recorded)") in str(failed.value)


def test_verify_ledger_finds_a_state_moved_without_an_event():
    people, t1, _ = cast()
    _, case = opened(people, t1)
    behind_the_applications_back("UPDATE aml_suspicioncase SET state = 'no_report' WHERE id = %s", [case.pk])
    with pytest.raises(CommandError) as failed:
        verify()
    assert f"suspicious-transaction case {case.pk}, its state is 'no_report', but its last event left it 'open'" in (
        str(failed.value))


def test_verify_ledger_finds_a_removed_last_event():
    people, t1, _ = cast()
    _, case = escalated(people, t1)
    last = case.events.get(seq=4)
    behind_the_applications_back("DELETE FROM aml_suspicionevent WHERE id = %s", [last.pk])
    with pytest.raises(CommandError) as failed:
        verify()
    assert "the chain ends at seq 3, but its head says seq 4" in str(failed.value)


def test_a_saved_head_finds_the_chain_rewound_and_rewritten():
    people, t1, _ = cast()
    _, case = escalated(people, t1)
    saved = case_heads()
    assert saved == [{"case_id": case.pk, "seq": 4, "hash": case.events.get(seq=4).hash}]
    assert departures(saved) == []
    last = case.events.get(seq=4)
    behind_the_applications_back("UPDATE aml_suspicionevent SET hash = %s WHERE id = %s", ["f" * 64, last.pk])
    found, = departures(saved)
    assert (found.chain, found.seq) == (f"suspicious-transaction case {case.pk}", 4)
    assert "the chain was rewritten up to it" in found.problem
    behind_the_applications_back("DELETE FROM aml_suspicionevent WHERE id = %s", [last.pk])
    assert "no longer exists" in departures(saved)[0].problem


def test_ledger_heads_saves_the_cases_heads(tmp_path):
    people, t1, _ = cast()
    _, case = escalated(people, t1)
    path = tmp_path / "heads.json"
    call_command("ledger_heads", "--out", str(path), stdout=StringIO())
    assert json.loads(path.read_text())["suspicion_cases"] == case_heads()
    assert "ledger intact" in verify("--heads", str(path))


def test_the_models_refuse_to_change_or_delete_an_event():
    people, t1, _ = cast()
    _, case = opened(people, t1)
    event = case.events.get()
    event.note = "rewritten"
    with pytest.raises(ValidationError, match="append-only: it is never changed"):
        event.save()
    with pytest.raises(ValidationError, match="never deleted"):
        event.delete()


@on_postgresql
def test_postgresql_refuses_to_change_or_delete_an_event():
    from django.db.utils import DatabaseError

    people, t1, _ = cast()
    _, case = opened(people, t1)
    event = case.events.get()
    for sql in ("UPDATE aml_suspicionevent SET note = 'rewritten' WHERE id = %s",
                "DELETE FROM aml_suspicionevent WHERE id = %s"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [event.pk])
    assert SuspicionEvent.objects.get(pk=event.pk).note == event.note


@on_postgresql
def test_postgresql_moves_a_case_only_with_the_event_just_added():
    from django.db.utils import DatabaseError

    people, t1, _ = cast()
    _, case = opened(people, t1)
    for sql in ("UPDATE aml_suspicioncase SET state = 'no_report' WHERE id = %s",
                "UPDATE aml_suspicioncase SET ledger_seq = 2, ledger_head = 'x' WHERE id = %s",
                "DELETE FROM aml_suspicioncase WHERE id = %s"):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [case.pk])
    assert SuspicionCase.objects.get(pk=case.pk).state == SuspicionCase.OPEN
