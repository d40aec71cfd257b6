"""A suspicious-transaction case's life (casino/aml/cases.py): opened on a player with its
grounds, notes, a decision (report or no report), the escalation to the financial intelligence
office by a manager; each step one chained event, nothing of an earlier one changed."""
import pytest
from django.utils import translation

from casino.aml import cases
from casino.aml.chain import row_hash
from casino.aml.models import SuspicionCase, SuspicionEvent
from casino.chain import GENESIS
from casino.pit.errors import Refused
from casino.terms.vocabulary import localise
from tests.aml.builders import DAY, cast, escalated, opened, player

pytestmark = pytest.mark.django_db


def steps(case) -> list[tuple[str, str, str]]:
    return list(case.events.order_by("seq").values_list("kind", "state", "note"))


def test_an_inspector_opens_a_case_on_a_player_with_its_grounds():
    people, t1, _ = cast()
    who, case = opened(people, t1, note="  Five buy-ins of 99,000 within an hour.  ")
    case.refresh_from_db()
    assert (case.patron, case.casino, case.gaming_day, case.state, case.opened_by) == (
        who, t1.casino, DAY, SuspicionCase.OPEN, people["inspector"])
    assert steps(case) == [("opened", "open", "Five buy-ins of 99,000 within an hour.")]


def test_a_case_is_noted_decided_report_and_escalated_by_a_manager():
    people, t1, _ = cast()
    _, case = escalated(people, t1)
    case.refresh_from_db()
    assert case.state == SuspicionCase.ESCALATED and case.escalated
    assert [(kind, state) for kind, state, _ in steps(case)] == [
        ("opened", "open"), ("note", "open"), ("decided", "report"), ("escalated", "escalated")]


def test_a_case_decided_no_report_is_closed_and_takes_notes_still():
    people, t1, _ = cast()
    _, case = opened(people, t1)
    cases.decide(case=case, user=people["inspector"], report=False, note="A regular, winnings paid out by cheque.")
    cases.add_note(case=case, user=people["manager"], note="Agreed.")
    case.refresh_from_db()
    assert case.state == SuspicionCase.NO_REPORT
    assert [state for _, state, _ in steps(case)] == ["open", "no_report", "no_report"]


def test_every_step_is_a_new_row_of_the_case_s_hash_chain():
    people, t1, _ = cast()
    _, case = escalated(people, t1)
    rows = list(SuspicionEvent.objects.filter(case=case).order_by("seq"))
    assert [row.seq for row in rows] == [1, 2, 3, 4]
    assert rows[0].prev_hash == GENESIS
    assert all(later.prev_hash == earlier.hash for earlier, later in zip(rows, rows[1:]))
    assert all(row.hash == row_hash(row) for row in rows)
    case.refresh_from_db()
    assert (case.ledger_seq, case.ledger_head) == (4, rows[-1].hash)


def test_the_chain_names_the_player_by_id_only():
    people, t1, _ = cast()
    who, case = escalated(people, t1)
    from casino.aml.chain import AML_CHAINS

    for event in case.events.all():
        content = AML_CHAINS.content(event).decode()
        assert who.name not in content and who.document_number not in content


@pytest.mark.parametrize("report", [True, False])
def test_a_decided_case_is_not_decided_again_and_the_refusal_names_its_state(report):
    people, t1, _ = cast()
    _, case = opened(people, t1)
    cases.decide(case=case, user=people["inspector"], report=report, note="first decision")
    with pytest.raises(Refused) as refused:
        cases.decide(case=case, user=people["manager"], report=not report, note="second thoughts")
    problem, = refused.value.problems
    words = "decided: to be reported" if report else "decided: not reported (closed)"
    assert (problem.code, problem.field) == ("case_state", "state")
    assert problem.message == f"Only an open case is decided; this case is {words}."
    assert case.events.count() == 2


def test_only_a_case_decided_report_is_escalated():
    people, t1, _ = cast()
    _, case = opened(people, t1)
    with pytest.raises(Refused) as refused:
        cases.escalate(case=case, user=people["manager"], note="straight to the GIF")
    assert refused.value.problems[0].message == ('Only a case decided "to be reported" is escalated to the financial '
                                                 'intelligence office; this case is open.')
    cases.decide(case=case, user=people["inspector"], report=False, note="nothing odd")
    with pytest.raises(Refused) as refused:
        cases.escalate(case=case, user=people["manager"], note="after all")
    assert refused.value.problems[0].message.endswith("this case is decided: not reported (closed).")
    assert case.events.count() == 2


def test_an_escalated_case_is_not_escalated_twice():
    people, t1, _ = cast()
    _, case = escalated(people, t1)
    with pytest.raises(Refused) as refused:
        cases.escalate(case=case, user=people["manager"], note="again")
    assert refused.value.problems[0].message.endswith(
        "this case is escalated to the financial intelligence office.")


def test_only_a_manager_escalates_and_an_inspector_s_try_writes_nothing():
    people, t1, _ = cast()
    _, case = opened(people, t1)
    cases.decide(case=case, user=people["inspector"], report=True, note="structuring")
    with pytest.raises(Refused) as refused:
        cases.escalate(case=case, user=people["inspector"], note="sent")
    assert refused.value.problems[0].code == "not_manager"
    case.refresh_from_db()
    assert (case.state, case.events.count()) == (SuspicionCase.REPORT, 2)


@pytest.mark.parametrize("role", ["dealer", "supervisor", "counter1"])
def test_pit_staff_and_counters_neither_open_nor_work_cases(role):
    people, t1, _ = cast()
    who, case = opened(people, t1)
    with pytest.raises(Refused) as refused:
        cases.open_case(patron=player(t1.casino, people["supervisor"], name="Other"), user=people[role], note="x")
    assert refused.value.problems[0].code == "not_inspector"
    for step in (cases.add_note, cases.escalate):
        with pytest.raises(Refused):
            step(case=case, user=people[role], note="mine")
    with pytest.raises(Refused):
        cases.decide(case=case, user=people[role], report=True, note="mine")
    assert (SuspicionCase.objects.count(), case.events.count()) == (1, 1)


@pytest.mark.parametrize("kind", ["open", "note", "decide", "escalate"])
def test_a_step_without_a_note_is_refused_naming_the_note(kind):
    people, t1, _ = cast()
    who, case = opened(people, t1)
    if kind == "escalate":
        cases.decide(case=case, user=people["inspector"], report=True, note="structuring")
    before = SuspicionEvent.objects.count()
    with pytest.raises(Refused) as refused:
        {"open": lambda: cases.open_case(patron=player(t1.casino, people["supervisor"]), user=people["manager"],
                                         note="  "),
         "note": lambda: cases.add_note(case=case, user=people["manager"], note=""),
         "decide": lambda: cases.decide(case=case, user=people["manager"], report=True, note=" "),
         "escalate": lambda: cases.escalate(case=case, user=people["manager"], note=None)}[kind]()
    assert refused.value.problems[0].field == "note"
    assert SuspicionEvent.objects.count() == before


def test_a_player_has_one_case_in_progress_and_a_new_one_once_it_is_escalated():
    people, t1, _ = cast()
    who, case = opened(people, t1)
    with pytest.raises(Refused) as refused:
        cases.open_case(patron=who, user=people["manager"], note="the same again")
    problem, = refused.value.problems
    assert (problem.code, problem.field, refused.value.conflict) == ("case_in_progress", "patron", True)
    assert problem.message == f"This player already has case {case.pk} in progress: add a note to it."
    cases.decide(case=case, user=people["inspector"], report=True, note="structuring")
    with pytest.raises(Refused):
        cases.open_case(patron=who, user=people["manager"], note="while it waits for the manager")
    cases.escalate(case=case, user=people["manager"], note="sent")
    again = cases.open_case(patron=who, user=people["inspector"], note="new buy-ins a week later")
    assert again.pk != case.pk and SuspicionCase.objects.filter(patron=who).count() == 2


def test_the_database_holds_one_case_in_progress_per_player():
    from django.db import IntegrityError, transaction

    people, t1, _ = cast()
    who, case = opened(people, t1)
    with pytest.raises(IntegrityError), transaction.atomic():
        SuspicionCase.objects.create(casino=t1.casino, patron=who, gaming_day=DAY, opened_at=case.opened_at,
                                     opened_by=people["manager"])


def test_an_anonymised_player_gets_no_case():
    from django.utils import timezone

    people, t1, _ = cast()
    who = player(t1.casino, people["supervisor"])
    type(who).objects.filter(pk=who.pk).update(anonymised_at=timezone.now(), name="")
    with pytest.raises(Refused) as refused:
        cases.open_case(patron=who, user=people["inspector"], note="old file")
    assert refused.value.problems[0].code == "anonymised"
    assert not SuspicionCase.objects.exists()


def test_a_case_names_only_movements_of_its_player_on_its_day():
    people, t1, _ = cast()
    who = player(t1.casino, people["supervisor"])
    with pytest.raises(Refused) as refused:
        cases.open_case(patron=who, user=people["inspector"], note="see movement", gaming_day=DAY,
                        movements=[987654])
    problem, = refused.value.problems
    assert problem.field == "movements"
    assert problem.message == "Movement 987654 is not a buy-in or cash-out of this player on gaming day 2026-11-21."
    assert not SuspicionCase.objects.exists()


def test_a_refusal_reads_in_the_reader_s_language_when_catalogues_are_compiled():
    people, t1, _ = cast()
    _, case = escalated(people, t1)
    with pytest.raises(Refused) as refused:
        cases.decide(case=case, user=people["manager"], report=True, note="again")
    with translation.override("pt"):
        text = localise(refused.value.problems[0])
    # Without compiled catalogues the English stays; with them, no English word of the state remains.
    assert text.endswith(".") and "{state}" not in text
