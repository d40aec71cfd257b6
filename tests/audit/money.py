"""Builders for the tests of the money at the table (casino rules C-1 and C-2): games seated with
patrons through the pit's service, and buy-ins and cash-outs recorded by the supervisor."""
from __future__ import annotations

import datetime as dt

from casino.pit import services
from casino.pit.models import Game, Movement, Patron, Table
from tests.builders.pit import NOON, patron, staff

OTHERS = [("Ana Lei", 5000), ("Bruno Sá", 5000), ("Chan Tai Man", 5000)]


def minutes(count: int) -> dt.datetime:
    """NOON of gaming day 2026-11-21 and `count` minutes."""
    return NOON + dt.timedelta(minutes=count)


def people_and_tables():
    """The cast of tests/builders/pit.py's `staff`, the supervisor assigned to T2 as well."""
    people, t1, t2 = staff()
    t2.staff.add(people["supervisor"])
    return people, t1, t2


def seat_patron(at_table: Table, by, player: Patron, capital: int, *, at=NOON, others=OTHERS) -> Game:
    """Seat `player` in chair 0 with `capital`, and three new players by name (each table's names
    its own: "Ana Lei T1") in chairs 1–3; `by` a supervisor, who witnesses the buy-ins."""
    players = [{"chair": 0, "capital": capital, "patron": player.pk}]
    players += [{"chair": chair, "capital": amount, "name": f"{name} {at_table.number}"}
                for chair, (name, amount) in enumerate(others, start=1)]
    return services.start_game(table=at_table, user=by, players=players, first_banker=0, at=at)


def buy_in(game: Game, by, amount: int, *, chair=0, at=NOON) -> Movement:
    return services.move_money(game=game, user=by, chair=chair, kind=Movement.BUY_IN, amount=amount, at=at)


def cash_out(game: Game, by, amount: int, *, chair=0, at=NOON) -> Movement:
    return services.move_money(game=game, user=by, chair=chair, kind=Movement.CASH_OUT, amount=amount, at=at)


def lei(casino, *, identified=True) -> Patron:
    """Mr Lei Chi Wai, a player of `casino`: identified by a Macau identity card, unless not."""
    return patron(casino, "Lei Chi Wai", identified=identified)
