"""What the count tells the floor (casino.pit.signals.table_event): a box counted, a case
opened, reopened and closed, each with its table and its row."""
from __future__ import annotations

import pytest

from casino.count import cases
from casino.count.models import Box
from casino.pit.models import Jogo
from casino.pit.signals import table_event
from tests.builders.cases import correct_to_a_draw, short_case

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    found = []

    def listen(sender, event, table, subject=None, user=None, **kwargs):
        found.append((event, table.number, subject, user))

    table_event.connect(listen, weak=False, dispatch_uid="test-count-events")
    yield found
    table_event.disconnect(dispatch_uid="test-count-events")


def test_a_box_counted_short_sends_box_counted_then_case_opened(heard):
    people, t1, case = short_case()
    the_box = Box.objects.get(table=t1)
    count_events = [(event, number, subject) for event, number, subject, _user in heard
                    if event in ("box_counted", "case_opened")]
    assert count_events == [("box_counted", "T1", the_box), ("case_opened", "T1", case)]


def test_a_case_reopened_by_a_correction_and_then_resolved_says_so(heard):
    people, t1, case = short_case()
    cases.mark_explained(case=case, user=people["inspector"], note="Tips mixed with commission.")
    correct_to_a_draw(Jogo.objects.get(table=t1, number=1, revision=0), people["supervisor"], people["manager"])
    cases.resolve(case=case, user=people["manager"], note="Counted again; the correction explains it.")
    events = [(event, subject, user) for event, _number, subject, user in heard if event.startswith("case_")]
    assert events == [("case_opened", case, people["counter2"]), ("case_reopened", case, people["manager"]),
                      ("case_closed", case, people["manager"])]
