"""The count's services (casino/count/services.py): the blind count by two counters, recounts,
variance and the cases it opens, corrections approved after the count, and each bad input
refused with nothing written."""
from __future__ import annotations

import datetime as dt

import pytest

from casino.count import services
from casino.count.models import Box, Case, CaseEvent, Count, ExpectedChange, Rotation, Signature
from casino.pit import selectors, services as pit_services
from casino.pit.errors import Refused
from tests.builders.count import AFTER, DAY, PASSWORD, box, cast, count_by_two, play
from tests.builders.pit import NOON

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def thresholds(settings):
    settings.COUNT_VARIANCE_ABSOLUTE = 100
    settings.COUNT_VARIANCE_PERCENT = 2


@pytest.fixture
def counted_table():
    """T1 recorded two jogos (commission 10 each) in the first shift of 21 November."""
    people, t1, t2 = cast()
    play(t1, people["dealer"])
    return people, t1


def written() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Count, Signature, ExpectedChange, Case, CaseEvent))


def refused(code: str, call, **kwargs) -> Refused:
    before = written()
    with pytest.raises(Refused) as caught:
        call(**kwargs)
    assert [p.code for p in caught.value.problems] == [code]
    assert written() == before
    return caught.value


def test_the_expected_commission_is_that_of_the_shifts_jogos(counted_table):
    people, t1 = counted_table
    assert services.expected_commission(box(t1)) == 20
    assert services.expected_commission(box(t1, shift=2)) == 0


def test_two_counters_agreeing_count_the_box_and_its_variance_is_counted_minus_expected(counted_table):
    people, t1 = counted_table
    the_box = box(t1)
    count_by_two(the_box, people["counter1"], people["counter2"], 20)
    count = Count.objects.get(box=the_box)
    assert (count.attempt, count.expected, count.counted, count.variance, count.agreed) == (1, 20, 20, 0, True)
    assert not Case.objects.exists()


def test_a_count_given_by_chip_denomination_must_add_up(counted_table):
    people, t1 = counted_table
    signature = services.sign_count(box=box(t1), user=people["counter1"], password=PASSWORD, counted=20,
                                    denominations={"5": 2, 10: 1}, at=AFTER)
    assert signature.denominations == {"5": 2, "10": 1}
    error = refused("denominations", services.sign_count, box=box(t1), user=people["counter2"], password=PASSWORD,
                    counted=20, denominations={"5": 3}, at=AFTER)
    assert "add up to 15" in str(error)


def test_a_short_box_beyond_the_thresholds_opens_a_case(counted_table):
    people, t1 = counted_table
    count_by_two(box(t1), people["counter1"], people["counter2"], 15)
    case = Case.objects.get(box=box(t1))
    event = case.events.get()
    assert (case.state, event.kind, event.expected, event.counted, event.variance) == ("open", "opened", 20, 15, -5)
    assert event.recorded_by == people["counter2"]


def test_a_variance_within_both_thresholds_opens_no_case(counted_table, settings):
    people, t1 = counted_table
    settings.COUNT_VARIANCE_PERCENT = 10
    count_by_two(box(t1), people["counter1"], people["counter2"], 22)
    assert Count.objects.get().variance == 2 and not Case.objects.exists()


def test_beyond_the_absolute_threshold_alone_opens_a_case(settings):
    settings.COUNT_VARIANCE_PERCENT = 50
    assert services.beyond_thresholds(expected=1000, variance=101)
    assert not services.beyond_thresholds(expected=1000, variance=-100)
    assert services.beyond_thresholds(expected=0, variance=1)
    assert not services.beyond_thresholds(expected=0, variance=0)


def test_counters_who_disagree_leave_the_box_uncounted_until_a_recount(counted_table):
    people, t1 = counted_table
    the_box = box(t1)
    count_by_two(the_box, people["counter1"], people["counter2"], 20, second_counted=25)
    first = Count.objects.get(box=the_box)
    assert first.complete and not first.agreed and first.counted is None and first.variance is None
    assert not Case.objects.exists()
    services.recount(box=the_box, user=people["counter1"], reason="the counters disagreed", at=AFTER)
    count_by_two(the_box, people["counter1"], people["counter2"], 20)
    assert [c.counted for c in Count.objects.filter(box=the_box).order_by("attempt")] == [None, 20]
    assert Signature.objects.filter(box=the_box).count() == 4


def test_a_recount_after_counters_disagreed_keeps_both_counts(counted_table):
    people, t1 = counted_table
    the_box = box(t1)
    count_by_two(the_box, people["counter1"], people["counter2"], 15, second_counted=16)
    services.recount(box=the_box, user=people["counter3"], reason="a chip found under the tray", at=AFTER)
    count_by_two(the_box, people["counter3"], people["counter1"], 20)
    counts = list(Count.objects.filter(box=the_box).order_by("attempt"))
    assert [(c.attempt, c.counted, c.reason) for c in counts] == [(1, None, ""), (2, 20, "a chip found under the tray")]
    assert not Case.objects.exists()


def test_a_correction_approved_after_the_count_changes_the_expected_figure_and_opens_a_case(counted_table):
    people, t1 = counted_table
    the_box = box(t1)
    count_by_two(the_box, people["counter1"], people["counter2"], 20)
    case_free = not Case.objects.exists()
    first = selectors.current_jogos(t1.games.get())[0]
    draw = {**first.record, "result": "draw", "winner": None, "discarder": None, "hand": None, "declared_fan": None}
    amendment = pit_services.propose_amendment(jogo=first, user=people["supervisor"], record=draw,
                                               reason="it was a draw",
                                          at=AFTER)
    pit_services.decide_amendment(amendment=amendment, user=people["manager"], approve=True,
                                  at=AFTER + dt.timedelta(minutes=5))
    count = Count.objects.prefetch_related("signatures", "changes").get(box=the_box)
    assert case_free and (count.expected, count.expected_now, count.variance) == (20, 10, 10)
    change = ExpectedChange.objects.get()
    assert (change.amendment, change.recorded_by) == (amendment, people["manager"])
    case = Case.objects.get(box=the_box)
    assert (case.state, case.events.get().kind, case.events.get().variance) == ("open", "opened", 10)


def test_a_correction_reopens_a_resolved_case(counted_table):
    people, t1 = counted_table
    from casino.count.chain import append_case_event

    the_box = box(t1)
    count_by_two(the_box, people["counter1"], people["counter2"], 15)
    case = Case.objects.get()
    append_case_event(case=case, kind=CaseEvent.RESOLVED, state=Case.RESOLVED, recorded_by=people["manager"],
                      note="a chip was found")
    first = selectors.current_jogos(t1.games.get())[0]
    draw = {**first.record, "result": "draw", "winner": None, "discarder": None, "hand": None, "declared_fan": None}
    amendment = pit_services.propose_amendment(jogo=first, user=people["supervisor"], record=draw,
                                               reason="it was a draw",
                                          at=AFTER)
    pit_services.decide_amendment(amendment=amendment, user=people["manager"], approve=True, at=AFTER)
    case.refresh_from_db()
    last = case.events.order_by("-seq").first()
    assert case.state == "open" and last.kind == "reopened" and last.recorded_by == people["manager"]
    assert (last.expected, last.counted, last.variance) == (10, 15, 5)


def test_a_box_of_a_shift_that_does_not_exist_is_refused(counted_table):
    people, t1 = counted_table
    error = refused("no_box", services.box_for, table=t1, gaming_day=DAY, shift=4)
    assert error.problems[0].field == "shift" and "shifts 1 to 3" in str(error)
    assert not Box.objects.filter(shift=4).exists()


def test_a_second_count_without_the_recount_procedure_is_refused(counted_table):
    people, t1 = counted_table
    count_by_two(box(t1), people["counter1"], people["counter2"], 20)
    refused("count_complete", services.sign_count, box=box(t1), user=people["counter3"], password=PASSWORD,
            counted=20, at=AFTER)
    refused("reason", services.recount, box=box(t1), user=people["counter3"], reason="  ", at=AFTER)


def test_a_negative_amount_is_refused(counted_table):
    people, t1 = counted_table
    error = refused("negative", services.sign_count, box=box(t1), user=people["counter1"], password=PASSWORD,
                    counted=-5, at=AFTER)
    assert error.problems[0].field == "counted" and "never negative" in str(error)


def test_a_counter_who_worked_at_the_table_that_day_is_refused(counted_table):
    people, t1 = counted_table
    services.rotation_start(table=t1, person=people["counter1"], starts_at=NOON - dt.timedelta(hours=4),
                            user=people["supervisor"])
    error = refused("not_independent", services.sign_count, box=box(t1), user=people["counter1"],
                    password=PASSWORD, counted=20, at=AFTER)
    assert "counter1 worked at table T1" in str(error) and "rotation log" in str(error)
    # the dealer who dealt there and recorded the jogos may not count them either, even if made a counter
    error = refused("not_independent", services.sign_count, box=box(t1), user=people["dealer"], password=PASSWORD,
                    counted=20, at=AFTER)
    assert "dealer worked at table T1" in str(error) and "on the rotation log" in str(error)


def test_one_person_signing_twice_is_refused(counted_table):
    people, t1 = counted_table
    services.sign_count(box=box(t1), user=people["counter1"], password=PASSWORD, counted=20, at=AFTER)
    error = refused("signed_twice", services.sign_count, box=box(t1), user=people["counter1"], password=PASSWORD,
                    counted=20, at=AFTER)
    assert error.conflict


def test_a_wrong_password_signs_nothing(counted_table):
    people, t1 = counted_table
    refused("password", services.sign_count, box=box(t1), user=people["counter1"], password="guess", counted=20,
            at=AFTER)


def test_a_count_for_a_table_shift_that_has_not_ended_is_refused(counted_table):
    people, t1 = counted_table
    error = refused("shift_not_ended", services.sign_count, box=box(t1), user=people["counter1"],
                    password=PASSWORD, counted=20, at=NOON + dt.timedelta(hours=1))
    assert "ends at 14:00" in str(error)


def test_boxes_ready_are_those_of_ended_table_shifts_with_jogos(counted_table):
    people, t1 = counted_table
    ready = services.boxes_ready(now=AFTER)
    assert [(b.table, b.gaming_day, b.shift) for b in ready] == [(t1, DAY, 1)]
    assert services.boxes_ready(now=NOON + dt.timedelta(hours=1)) == []


def test_the_rotation_log_closes_an_entry_once(counted_table):
    people, t1 = counted_table
    entry = services.rotation_start(table=t1, person=people["dealer"], starts_at=NOON, user=people["supervisor"])
    assert entry.gaming_day == DAY
    services.rotation_close(entry=entry, ends_at=NOON + dt.timedelta(hours=1), user=people["supervisor"])
    with pytest.raises(Refused):
        services.rotation_close(entry=entry, ends_at=NOON + dt.timedelta(hours=2), user=people["supervisor"])
    with pytest.raises(Refused):
        services.rotation_start(table=t1, person=people["dealer"], duty="cook", starts_at=NOON,
                                user=people["supervisor"])
    assert Rotation.objects.get(pk=entry.pk).ends_at == NOON + dt.timedelta(hours=1)
