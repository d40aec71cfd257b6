"""Each table against expectation: figures by day, month and year to date, and the
expected band of the daily commission per jogo."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given, strategies as st

from casino.audit.trends import (
    ABOVE,
    BAND_MIN_DAYS,
    BELOW,
    WITHIN,
    TrendFigures,
    band,
    outside_band,
    table_trend,
    table_trends,
)
from casino.pit.models import Table
from tests.builders.pit import staff, table
from tests.builders.trends import HISTORY, history, play

# --- The band: pure ------------------------------------------------------------------------------


def test_the_band_is_the_mean_plus_or_minus_two_sample_standard_deviations():
    expected = band([Decimal(value) for value in (11, 12, 13, 14, 15, 16, 17)])

    assert expected.mean == 14 and expected.days == 7
    assert expected.sigma == (Decimal(28) / 6).sqrt()  # Σ(x − 14)² = 28, over n − 1 = 6
    assert expected.low == 14 - 2 * expected.sigma and expected.high == 14 + 2 * expected.sigma
    assert all(isinstance(edge, Decimal) for edge in (expected.low, expected.mean, expected.high))


def test_there_is_no_band_before_seven_days_of_play():
    assert band([Decimal(5)] * (BAND_MIN_DAYS - 1)) is None
    assert band([Decimal(5)] * BAND_MIN_DAYS) is not None


def test_the_lower_edge_of_the_band_is_never_below_zero():
    assert band([Decimal(value) for value in (0, 0, 0, 0, 0, 0, 10)]).low == 0


def test_a_figure_on_an_edge_of_the_band_is_within_it_and_beyond_it_is_outside():
    steady = band([Decimal(10)] * 7)  # σ = 0: the band is the mean alone

    assert (steady.low, steady.high) == (10, 10)
    assert steady.place(Decimal(10)) == WITHIN
    assert steady.place(Decimal("9.99")) == BELOW and steady.place(Decimal("10.01")) == ABOVE


def test_figures_per_jogo_and_per_hour_are_decimal_and_none_without_jogos_or_time():
    figures = TrendFigures(commission=30, jogos=4, hours=2)

    assert figures.per_jogo == Decimal("7.5") and figures.per_hour == Decimal(15)
    assert TrendFigures().per_jogo is None and TrendFigures(commission=10, jogos=1).per_hour is None


@given(st.lists(st.decimals(min_value=0, max_value=1000, places=2), min_size=BAND_MIN_DAYS, max_size=40))
def test_the_band_holds_its_mean_and_at_least_the_history_within_two_sigma_of_it(history):
    expected = band(history)

    assert expected.low <= expected.mean <= expected.high and expected.low >= 0
    assert expected.place(expected.mean) == WITHIN
    # Chebyshev: at most a quarter of any history lies beyond 2σ of its own mean
    outside = sum(expected.place(value) != WITHIN for value in history)
    assert outside <= len(history) / 4


# --- A table's trend, from the ledger --------------------------------------------------------------

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """T1 (25/50) played HISTORY from 2026-11-01 to 11-07, and then the 8th as given by each test."""
    people, t1, t2 = staff()
    day = history(t1, people["dealer"])
    return people, t1, t2, day


def test_a_day_of_draws_after_a_week_of_wins_falls_below_the_band(played):
    people, t1, t2, day = played
    play(t1, people["dealer"], day, "DDDD")

    trend = table_trend(t1, day)

    assert trend.today == TrendFigures(commission=0, jogos=4, hours=1)  # 12:10 to 12:40: one hour with jogos
    assert trend.band.days == 7 and trend.band.mean == Decimal(55) / 7
    assert trend.place == BELOW and trend.outside
    assert [t.table.number for t in outside_band(day)] == ["T1"]


def test_an_ordinary_day_lies_within_the_band_and_is_not_on_the_dashboard(played):
    people, t1, t2, day = played
    play(t1, people["dealer"], day, "WWWD")

    trend = table_trend(t1, day)

    assert trend.place == WITHIN and not trend.outside
    assert outside_band(day) == []


def test_day_month_and_year_to_date_add_up_the_days_of_play(played):
    people, t1, t2, day = played
    play(t1, people["dealer"], day, "WD")  # 2026-11-08: 10 in 2 jogos over 20 minutes

    trend = table_trend(t1, day)

    assert trend.today == TrendFigures(10, 2, 1)
    assert trend.today.per_hour == 10
    history_jogos = sum(len(results) for results in HISTORY)
    history_commission = 10 * sum(results.count("W") for results in HISTORY)
    assert trend.month_to_date == TrendFigures(history_commission + 10, history_jogos + 2,
                                               len(HISTORY) + 1)  # each day's jogos fall in its 12:00 hour
    assert trend.year_to_date == trend.month_to_date  # nothing before November


def test_month_to_date_starts_on_the_first_of_the_month_and_year_to_date_on_the_first_of_january():
    people, t1, t2 = staff()
    play(t1, people["dealer"], dt.date(2026, 10, 31), "WWWW")
    play(t1, people["dealer"], dt.date(2026, 11, 2), "WD")

    trend = table_trend(t1, dt.date(2026, 11, 2))

    assert trend.month_to_date == TrendFigures(10, 2, 1)
    assert trend.year_to_date == TrendFigures(50, 6, 2)


def test_the_dashboards_list_reads_only_the_bands_history_and_agrees_with_the_full_trend(played):
    people, t1, t2, day = played
    play(t1, people["dealer"], dt.date(2026, 1, 5), "WWWW")  # long before the band's 90 days
    play(t1, people["dealer"], day, "DDDD")

    full, = [t for t in table_trends(day) if t.table == t1]
    short, = outside_band(day)

    assert short.band == full.band and short.place == full.place == BELOW
    assert dt.date(2026, 1, 5) in full.days and dt.date(2026, 1, 5) not in short.days


def test_a_table_with_fewer_than_seven_days_of_play_has_no_band_and_is_never_outside():
    people, t1, t2 = staff()
    day = history(t1, people["dealer"], days=HISTORY[:6])
    play(t1, people["dealer"], day, "DDDD")

    trend = table_trend(t1, day)

    assert trend.band is None and trend.place is None and not trend.outside


def test_a_table_is_judged_against_its_own_history_not_another_tables(played):
    people, t1, t2, day = played
    history(t2, people["other_dealer"], days=["DDDD"] * 7)  # T2 never won: its band is 0 to 0
    play(t1, people["dealer"], day, "WWWD")
    play(t2, people["other_dealer"], day, "DDDD")

    trends = {t.table.number: t for t in table_trends(day)}

    assert trends["T1"].place == WITHIN and trends["T2"].place == WITHIN


def test_an_amended_jogo_counts_at_its_current_revision(played):
    from casino.pit import services
    from tests.builders.trends import noon

    people, t1, t2, day = played
    play(t1, people["dealer"], day, "WWWW")
    last = t1.jogo_set.order_by("-number").first()
    amendment = services.propose_amendment(jogo=last, user=people["supervisor"], record={
        **last.record, "result": "draw", "winner": None, "discarder": None, "hand": None, "declared_fan": None},
        reason="the wall was exhausted", at=noon(day) + dt.timedelta(hours=2))
    services.decide_amendment(amendment=amendment, user=people["supervisor2"], approve=True,
                              at=noon(day) + dt.timedelta(hours=2))

    trend = table_trend(t1, day)

    # 3 wins in 4 jogos; hours from the first revisions (the amendment two hours later is not play)
    assert trend.today == TrendFigures(30, 4, 1)


def test_the_trends_of_every_table_take_three_queries_whatever_the_number_of_tables_and_days(
        played, django_assert_num_queries):
    people, t1, t2, day = played
    with django_assert_num_queries(3):
        few = table_trends(day)
    for number in ("T3", "T4", "T5"):
        extra = table(number, staff=[people["dealer"]])
        history(extra, people["dealer"], days=["WD", "WWD"])
    with django_assert_num_queries(3):
        many = table_trends(day)
    assert len(few) == 2 and len(many) == 5
    assert Table.objects.count() == 5
