"""The report's selectors: figures of current revisions, by the gaming day and the hour played."""
import datetime as dt

import pytest

from casino.pit import demo, services
from casino.pit.days import day_bounds, hours_of_the_day
from casino.pit.models import Jogo
from casino.reports.selectors import daily_summary
from tests.builders.pit import table, user
from tests.builders.reports import DAY, at, draws, known_day

pytestmark = pytest.mark.django_db


def test_the_gaming_day_runs_from_six_to_six_macau_time(settings):
    start, end = day_bounds(DAY)

    assert (start.isoformat(), end.isoformat()) == ("2026-11-21T06:00:00+08:00", "2026-11-22T06:00:00+08:00")
    assert hours_of_the_day()[:2] == [6, 7] and hours_of_the_day()[-1] == 5
    settings.GAMING_DAY_STARTS = "08:30"
    assert day_bounds(DAY)[0].isoformat() == "2026-11-21T08:30:00+08:00" and hours_of_the_day()[0] == 8


def test_commission_per_hour_counts_each_won_jogo_at_the_macau_hour_it_was_played():
    day = known_day()

    hours = dict(daily_summary(day.casino, DAY).commission_by_hour)

    # R1: five wins at 12:06–12:42, 10 each; R2: the capped win at 14:00, 40.
    assert hours[12] == 50 and hours[14] == 40
    assert sum(hours.values()) == 90 and list(hours) == hours_of_the_day()


def test_an_amended_jogo_counts_once_at_the_hour_of_its_first_revision():
    dealer, manager = user("dealer", "dealer"), user("manager", "manager")
    r1 = table("R1", stake=100)
    draws(r1, 3, dealer, at(3))  # 15:00, 15:01, 15:02
    second = Jogo.objects.get(number=2)
    amendment = services.propose_amendment(jogo=second, user=dealer,
                                           record={**second.record, **demo.CHICKEN, "result": "win"},
                                          reason="South won", at=at(9))
    services.decide_amendment(amendment=amendment, user=manager, approve=True, at=at(9))  # 21:00

    summary = daily_summary(r1.casino, DAY)

    assert Jogo.objects.count() == 5  # 3 recorded, 1 amended, 1 carried
    assert summary.totals.jogos == 3 and summary.totals.wins == 1 and summary.totals.draws == 2
    assert dict(summary.commission_by_hour)[15] == 40 and dict(summary.commission_by_hour)[21] == 0


def test_a_jogo_after_midnight_belongs_to_the_gaming_day_before():
    dealer = user("dealer", "dealer")
    r1 = table("R1", stake=25)
    draws(r1, 1, dealer, at(15))  # 03:00 on the 22nd

    assert daily_summary(r1.casino, DAY).totals.jogos == 1
    assert daily_summary(r1.casino, DAY + dt.timedelta(days=1)).empty


def test_the_days_figures_are_counted_and_added_by_name():
    """Each figure of `DayFigures` is counted by the one query under its own name and added field by
    field: a new figure is a field and a count, never a position to thread through."""
    from dataclasses import fields

    from casino.reports.selectors import COUNTED, GRADES, DayFigures

    assert {figure.name for figure in fields(DayFigures)} == set(COUNTED) | {"wins_by_grade"}
    one = DayFigures(games=1, jogos=3, wins_by_grade=tuple(range(len(GRADES))), draws=1, commission=20)
    other = DayFigures(jogos=2, wins_by_grade=(1,) * len(GRADES), false_wins=1, capped=1, commission=10)
    total = one + other
    figures = (total.games, total.jogos, total.draws, total.false_wins, total.capped, total.commission)
    assert figures == (1, 5, 1, 1, 1, 30)
    assert total.wins_by_grade == tuple(grade + 1 for grade in range(len(GRADES)))
    assert total.wins == one.wins + other.wins
