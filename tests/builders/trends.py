"""Builders for the trend tests: a table's days of play recorded through the pit's service, each
day one game from 12:00 Macau time with a jogo every ten minutes."""
from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.utils import timezone

from casino.pit import demo, selectors, services
from casino.pit.models import Table
from tests.builders.pit import seat
from tests.builders.reports import record_at

FIRST = dt.date(2026, 11, 1)  # the first day of play of the tests' history


def noon(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12, 0)))


def play(at_table: Table, by: User, day: dt.date, results: str) -> None:
    """One game on `day`: a jogo per letter of `results`, W a won chicken hand (South on West's
    discard), D a draw; at 12:10, 12:20, … after the game starts at noon. The table's game in
    progress, if any, ends first."""
    if (playing := selectors.open_game(at_table)) is not None:
        services.end_game(game=playing, user=by, at=noon(day))
    game = seat(at_table, by, at=noon(day))
    for index, letter in enumerate(results):
        record_at(game, demo.CHICKEN if letter == "W" else demo.DRAW,
                  noon(day) + dt.timedelta(minutes=10 * (index + 1)),
               by)


# Seven days of history at 25/50 (Art. 8: 10 per won jogo): four days at 7.5 per jogo, two at 10,
# one at 5 — mean 55/7 ≈ 7.857, sample σ ≈ 1.725, band ≈ 4.41 to 11.31.
HISTORY = ["WWWD", "WWWD", "WWWW", "WWWD", "WWDD", "WWWW", "WWWD"]


def history(at_table: Table, by: User, *, first: dt.date = FIRST, days: list[str] = HISTORY) -> dt.date:
    """Play `days` on consecutive gaming days from `first`; the day after the last."""
    for offset, results in enumerate(days):
        play(at_table, by, first + dt.timedelta(days=offset), results)
    return first + dt.timedelta(days=len(days))
