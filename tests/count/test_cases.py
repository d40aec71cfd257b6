"""A variance case's life after the count opened it (casino/count/cases.py): notes, explained,
escalated, resolved by a manager; each step one chained event, nothing of an earlier one changed."""
import pytest

from casino.chain import GENESIS
from casino.count import cases
from casino.count.chain import row_hash
from casino.count.models import Case, CaseEvent
from casino.pit.errors import Refused
from tests.builders.cases import short_case

pytestmark = pytest.mark.django_db


def events(case) -> list[tuple[str, str, str]]:
    return list(case.events.order_by("seq").values_list("kind", "state", "note"))


def test_a_short_box_opens_a_case_that_an_inspector_notes_without_changing_its_state():
    people, _, case = short_case()
    cases.add_note(case=case, user=people["inspector"], note="  Video of the count room asked for.  ")
    case.refresh_from_db()
    assert case.state == Case.OPEN
    assert events(case)[-1] == ("note", "open", "Video of the count room asked for.")


def test_a_case_is_explained_then_escalated_then_resolved_by_a_manager():
    people, _, case = short_case()
    cases.mark_explained(case=case, user=people["inspector"], note="Chips found under the box.")
    cases.escalate(case=case, user=people["manager"], note="The chips do not cover the shortage.")
    cases.add_note(case=case, user=people["inspector"], note="The DICJ was told by phone.")
    cases.resolve(case=case, user=people["manager"], note="Dealer dismissed; shortage recovered.")
    case.refresh_from_db()
    assert case.state == Case.RESOLVED
    assert [kind for kind, _, _ in events(case)] == ["opened", "explained", "escalated", "note", "resolved"]
    assert [state for _, state, _ in events(case)] == ["open", "explained", "escalated", "escalated", "resolved"]


def test_every_step_is_a_new_row_of_the_case_s_hash_chain():
    people, _, case = short_case()
    cases.add_note(case=case, user=people["inspector"], note="first look")
    cases.escalate(case=case, user=people["inspector"], note="too large")
    rows = list(CaseEvent.objects.filter(case=case).order_by("seq"))
    assert [row.seq for row in rows] == [1, 2, 3]
    assert rows[0].prev_hash == GENESIS
    for earlier, later in zip(rows, rows[1:]):
        assert later.prev_hash == earlier.hash
    assert all(row.hash == row_hash(row) for row in rows)
    case.refresh_from_db()
    assert (case.ledger_seq, case.ledger_head) == (3, rows[-1].hash)


def test_only_a_manager_resolves_a_case_and_an_inspector_s_try_writes_nothing():
    people, _, case = short_case()
    with pytest.raises(Refused) as refused:
        cases.resolve(case=case, user=people["inspector"], note="all good")
    assert refused.value.problems[0].code == "not_manager"
    assert refused.value.problems[0].message == "Only a manager resolves a variance case."
    case.refresh_from_db()
    assert (case.state, case.events.count()) == (Case.OPEN, 1)


@pytest.mark.parametrize("role", ["dealer", "supervisor", "counter1"])
def test_pit_staff_and_counters_do_not_work_on_cases(role):
    people, _, case = short_case()
    for step in (cases.add_note, cases.mark_explained, cases.escalate, cases.resolve):
        with pytest.raises(Refused):
            step(case=case, user=people[role], note="mine")
    assert case.events.count() == 1


@pytest.mark.parametrize("step", [cases.add_note, cases.mark_explained, cases.escalate, cases.resolve])
def test_a_step_without_a_note_is_refused_naming_the_note(step):
    people, _, case = short_case()
    with pytest.raises(Refused) as refused:
        step(case=case, user=people["manager"], note="   ")
    assert refused.value.problems[0].field == "note"
    assert case.events.count() == 1


def test_a_resolved_case_is_neither_explained_nor_escalated_nor_resolved_again_but_takes_notes():
    people, _, case = short_case()
    cases.resolve(case=case, user=people["manager"], note="miscount by the dealer, recovered")
    for step in (cases.mark_explained, cases.escalate, cases.resolve):
        with pytest.raises(Refused) as refused:
            step(case=case, user=people["manager"], note="again")
        assert refused.value.conflict
    cases.add_note(case=case, user=people["inspector"], note="filed")
    assert [kind for kind, _, _ in events(case)] == ["opened", "resolved", "note"]


def test_an_escalated_case_is_not_marked_explained_and_the_refusal_names_its_state():
    people, _, case = short_case()
    cases.escalate(case=case, user=people["inspector"], note="large")
    with pytest.raises(Refused) as refused:
        cases.mark_explained(case=case, user=people["inspector"], note="found it")
    assert refused.value.problems[0].message == ("Only an open case is marked explained; this case is "
                                                 "escalated to the regulator.")


def test_a_step_works_on_the_case_as_stored_not_on_a_stale_copy():
    people, _, case = short_case()
    stale = Case.objects.get(pk=case.pk)
    cases.resolve(case=case, user=people["manager"], note="done")
    with pytest.raises(Refused):
        cases.escalate(case=stale, user=people["inspector"], note="late")
    assert case.events.count() == 2
