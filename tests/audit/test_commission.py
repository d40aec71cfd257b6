"""The commission audit (Art. 8): per table and per tier, won jogos and commission as recorded and
as the engine re-computes them from the ledger, and every difference."""
import datetime as dt

import pytest
from django.db import connection

from casino.audit.forms import asked_days
from casino.audit.ledger import BadDays, Days
from casino.audit.selectors import commission_audit
from casino.pit import services
from casino.pit.recheck import Difference
from tests.builders.audit import DAY, NEXT_DAY, next_values, plant, record_next, varied_day
from tests.builders.pit import NOON, next_record, seat, table

pytestmark = pytest.mark.django_db


def test_art_8_a_clean_day_has_the_commission_the_regulation_gives_and_no_difference():
    people, t1, game, rows = varied_day()

    audit = commission_audit(Days(DAY, DAY))

    # Three won jogos at 25/50 (chicken, pay-all, misdeclared chicken): 10 each (Art. 8); the draw
    # and the false win carry none (I-8).
    line, = audit.tables
    assert (line.label, line.tier, line.rate, line.jogos) == ("T1", "25/50", 10, 5)
    assert (line.won_recorded, line.commission_recorded, line.won_due, line.commission_due) == (3, 30, 3, 30)
    assert line.difference == 0 and audit.differences == []
    assert [(t.variant, t.stake, t.commission_due) for t in audit.tiers] == [("conventional", 25, 30)]


def test_art_8_the_audit_finds_exactly_the_planted_commission_difference():
    people, t1, game, rows = varied_day()
    # A row reaches the ledger saying the house took 20 on a 25/50 chicken win; Art. 8 gives 10.
    planted = plant(game, people["dealer"], commission=20)

    audit = commission_audit(Days(DAY, DAY))

    assert audit.differences == [Difference("T1", game.pk, planted.number, 0, planted.pk, "commission", 20, 10)]
    line, = audit.tables
    assert (line.won_recorded, line.commission_recorded, line.won_due, line.commission_due) == (4, 50, 4, 40)
    assert line.difference == audit.total.difference == 10


def test_art_8_a_stored_outcome_that_is_not_the_engines_is_a_difference_too():
    people, t1, game, rows = varied_day()
    outcome = next_values(game, people["dealer"])["outcome"]
    planted = plant(game, people["dealer"], outcome={**outcome, "commission": 0}, commission=0)

    audit = commission_audit(Days(DAY, DAY))

    assert {(d.jogo_id, d.field, d.recorded, d.recomputed) for d in audit.differences} == {
        (planted.pk, "outcome.commission", 0, 10), (planted.pk, "commission", 0, 10)}


@pytest.mark.skipif(connection.vendor == "postgresql", reason="PostgreSQL refuses any UPDATE of the ledger")
def test_art_8_a_commission_changed_behind_the_applications_back_is_found():
    people, t1, game, rows = varied_day()
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pit_jogo SET commission = 15 WHERE id = %s", [rows[3].pk])

    audit = commission_audit(Days(DAY, DAY))

    assert [(d.number, d.field, d.recorded, d.recomputed) for d in audit.differences] == [(4, "commission", 15, 10)]


def test_only_the_current_revision_of_an_amended_jogo_counts():
    people, t1, game, rows = varied_day()
    # The draw (jogo 2) was really a chicken win for South: one more won jogo, 10 more commission.
    amendment = services.propose_amendment(jogo=rows[1], user=people["supervisor"], reason="camera review",
                                          record={**next_record(game), **{k: rows[1].record[k] for k in
                                                  ("round_wind", "capital")}})
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True)

    audit = commission_audit(Days(DAY, DAY))

    line, = audit.tables
    assert (line.jogos, line.won_recorded, line.commission_recorded, line.commission_due) == (5, 4, 40, 40)
    assert audit.differences == []


def test_a_range_of_days_adds_them_up_per_table_and_per_tier():
    people, t1, game, rows = varied_day()
    t3 = table("T3", stake=100)
    other = seat(t3, people["dealer"], capital=[50000, 50000, 50000, 50000])
    record_next(other, people["dealer"], at=NOON + dt.timedelta(days=1))

    one_day = commission_audit(Days(DAY, DAY))
    both = commission_audit(Days(DAY, NEXT_DAY))

    assert [line.label for line in one_day.tables] == ["T1"]
    assert [(line.label, line.tier, line.commission_due) for line in both.tables] == [("T1", "25/50", 30),
                                                                                      ("T3", "100/200", 40)]
    assert [(t.tier, t.commission_due) for t in both.tiers] == [("25/50", 30), ("100/200", 40)]
    assert both.total.commission_due == 70


def test_days_are_read_from_day_or_from_and_to_and_errors_name_the_field():
    assert asked_days({"day": "2026-11-21"}) == Days(DAY, DAY)
    assert asked_days({"from": "2026-11-21", "to": "2026-11-22"}) == Days(DAY, NEXT_DAY)
    assert asked_days({"to": "2026-11-22"}) == Days(NEXT_DAY, NEXT_DAY)
    for params, field in (({"day": "21/11/2026"}, "day"), ({}, "day"),
                          ({"from": "2026-11-22", "to": "2026-11-21"}, "to")):
        with pytest.raises(BadDays) as bad:
            asked_days(params)
        assert bad.value.field == field
