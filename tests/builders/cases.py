"""Builders for the case tests: a box of table T1 (first shift of 21 November 2026) counted short
by two counters, so that its variance case is open; a correction that changes its expected
figure afterwards."""
from __future__ import annotations

from casino.count import services
from casino.count.models import Case
from casino.pit import services as pit_services
from tests.builders.count import AFTER, DRAGON, box, cast, count_by_two, play
from tests.builders.pit import next_record


def short_case(*, jogos: int = 2, short_by: int = 5):
    """The cast, table T1, and the open case of T1's first box, counted `short_by` under the
    expected commission."""
    people, t1, t2 = cast()
    play(t1, people["dealer"], jogos)
    the_box = box(t1)
    expected = services.expected_commission(the_box)
    count_by_two(the_box, people["counter1"], people["counter2"], expected - short_by)
    return people, t1, Case.objects.get(box=the_box)


def correct_to_a_draw(jogo, proposer, checker, at=AFTER):
    """An approved correction turning a won jogo into a draw: its commission leaves the box."""
    record = {**jogo.record, "result": "draw", "winner": None, "discarder": None, "hand": None, "declared_fan": None}
    amendment = pit_services.propose_amendment(jogo=jogo, user=proposer, record=record, reason="it was a draw", at=at)
    return pit_services.decide_amendment(amendment=amendment, user=checker, approve=True, at=at)


__all__ = ["DRAGON", "correct_to_a_draw", "next_record", "short_case"]
