"""Builders for the casino group's walls (docs/casinos.md): two casinos, each with a table and a
person of every role given that casino only, a played game at each, and an inspector given both.
For tests marked `casinos` (tests/conftest.py), where each person has only the casinos given here."""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone

from casino.pit.models import Casino, Game, Table
from casino.pit.roles import COUNTER, DEALER, INSPECTOR, MANAGER, SUPERVISOR

from .pit import on_rotation, record_next, seat, user


@dataclass
class Site:
    """One casino of the group: its table, its people by role (each given this casino only), and a
    game with one jogo recorded at its table."""

    casino: Casino
    table: Table
    people: dict[str, User]
    game: Game


def site(name: str, prefix: str) -> Site:
    casino = Casino.objects.create(name=name)
    people = {role: user(f"{prefix}_{role}", role) for role in (DEALER, SUPERVISOR, INSPECTOR, MANAGER, COUNTER)}
    casino.staff.add(*people.values())
    at_table = Table.objects.create(casino=casino, number=f"{prefix.upper()}1", variant="conventional", stake=25)
    at_table.staff.set([people[DEALER], people[SUPERVISOR]])
    on_rotation(at_table, people[DEALER], timezone.now())
    game = seat(at_table, people[DEALER], witness=people[SUPERVISOR], at=timezone.now())
    record_next(game, people[DEALER], at=timezone.now())
    return Site(casino, at_table, people, game)


def group() -> tuple[Site, Site, User]:
    """Casino A and Casino B, and an inspector given both (who sees the group's totals)."""
    a, b = site("Casino A", "a"), site("Casino B", "b")
    both = user("group_inspector", INSPECTOR)
    both.casinos.add(a.casino, b.casino)
    return a, b, both
