"""Builders for the count's tests: the pit's cast (tests/builders/pit.py) plus two counters, and a table
whose first shift of 21 November 2026 (06:00–14:00) recorded jogos with commission."""
from __future__ import annotations

import datetime as dt

from django.utils import timezone

from casino.count import services, shifts
from casino.count.models import Box
from casino.pit import services as pit_services
from casino.pit.models import Jogo
from casino.pit.roles import COUNTER
from tests.builders.pit import NOON, next_record, on_rotation, seat, staff, user

PASSWORD = "correct horse battery"
DAY = dt.date(2026, 11, 21)
AFTER = NOON + dt.timedelta(hours=3)  # 15:00: the first shift has ended
# South wins a hand of one fán (a dragon pong) on West's discard: it pays commission.
DRAGON = {"declared_fan": 1, "hand": {"concealed": "345m678p234s99m77z", "winning_tile": "7z"}}


def cast():
    """The pit's people and tables, two counters and a third."""
    people, t1, t2 = staff()
    for name in ("counter1", "counter2", "counter3"):
        people[name] = user(name, COUNTER)
    return people, t1, t2


def play(table, by, jogos: int = 2, at=NOON):
    """Seat a game at `table` and record `jogos` winning jogos at `at`; the jogos recorded."""
    game = seat(table, by, at=at)
    return [pit_services.record_jogo(table=table, user=by, record=next_record(game, **DRAGON),
                                     at=at)[0] for _ in range(jogos)]


def box_played_yesterday(table, dealer) -> Box:
    """The box of the table-shift of yesterday at this hour, in which `dealer` recorded two jogos
    (commission 20): ended, ready to count today."""
    yesterday = timezone.now() - dt.timedelta(days=1)
    play(table, dealer, at=yesterday)
    day, shift = shifts.shift_of(yesterday)
    return services.box_for(table=table, gaming_day=day, shift=shift)


def box(table, shift: int = 1) -> Box:
    return services.box_for(table=table, gaming_day=DAY, shift=shift)


def count_by_two(the_box, first, second, counted, second_counted=None, at=AFTER):
    services.sign_count(box=the_box, user=first, password=PASSWORD, counted=counted, at=at)
    return services.sign_count(box=the_box, user=second, password=PASSWORD,
                               counted=counted if second_counted is None else second_counted, at=at)


SHIFT_HOURS = (7, 15, 23)  # a moment in each of the three shifts of DAY (06:00, 14:00, 22:00)
NEXT_MORNING = timezone.make_aware(dt.datetime(2026, 11, 22, 7, 0))


def moment(hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime(2026, 11, 21, hour, minute))


def play_shifts(at_table, dealer, hours=SHIFT_HOURS) -> list[Jogo]:
    """One winning jogo (commission 10 at 25/50) in each shift of DAY at the table."""
    game = seat(at_table, dealer, at=moment(6, 30))
    jogos = []
    for hour in hours:
        on_rotation(at_table, dealer, moment(hour))
        jogos.append(pit_services.record_jogo(table=at_table, user=dealer, record=next_record(game, **DRAGON),
                                              at=moment(hour))[0])
    return jogos
