"""Builders for the audit tests: a gaming day of varied jogos at table T1 recorded through the
pit's service, and a planted discrepancy (a ledger row whose stored figures are not the
engine's), inserted the way a real one would arrive: past the service, straight into the table.
"""
from __future__ import annotations

import datetime as dt

from django.db import transaction

from casino.pit.demo import FALSE_WIN, PAY_ALL
from casino.pit.models import Jogo
from tests.builders.pit import DRAW, NOON, record_next, seat, staff

DAY = NOON.date()  # 2026-11-21, a gaming day (NOON is after 06:00 Macau time)
NEXT_DAY = DAY + dt.timedelta(days=1)
MISDECLARED = {"declared_fan": 2}  # a chicken hand (0 fán) announced as 2 fán


def varied_day():
    """T1's day: a chicken win, a draw, a false win, a pay-all and a misdeclared grade."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"])
    rows = [record_next(game, people["dealer"], **fields)
            for fields in ({}, DRAW, {**FALSE_WIN, "winner": None, "discarder": None, "hand": None},
                           {**PAY_ALL}, MISDECLARED)]
    return people, t1, game, rows


class _Undo(Exception):
    pass


def next_values(game, by, *, at=NOON, fields: dict | None = None) -> dict:
    """The columns the service would store for the game's next jogo; nothing is kept (the
    recording is rolled back)."""
    try:
        with transaction.atomic():
            jogo = record_next(game, by, at=at, **(fields or {}))
            values = {f.attname: getattr(jogo, f.attname) for f in Jogo._meta.concrete_fields if f.attname != "id"}
            raise _Undo
    except _Undo:
        return values


def plant(game, by, *, at=NOON, fields: dict | None = None, **stored) -> Jogo:
    """Insert the game's next jogo into the ledger with `stored` columns changed (e.g.
    commission=20), as a faulty writer or a tampered import would: straight into the table,
    past the service (and so past the table's head, which verify_ledger would notice)."""
    values = next_values(game, by, at=at, fields=fields)
    values.update(stored)
    planted, = Jogo.objects.bulk_create([Jogo(**values)])
    return planted
