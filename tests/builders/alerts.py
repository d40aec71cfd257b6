"""Builders for the alerts' tests: the pit's cast (tests/builders/pit.py) with a game seated at T1
by its dealer, and the alerts as the rules left them."""
from __future__ import annotations

from casino.floor.models import Alert
from tests.builders.pit import NOON, seat, staff


def floor_at_noon():
    """The pit's people, T1 with a game seated by its dealer at NOON (capital 5000/3000/2000/4000), and T2."""
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], at=NOON)
    return people, t1, t2, game


def rules_raised(**filters) -> list[str]:
    """The rules of the standing alerts, in the order they were raised."""
    return list(Alert.objects.standing().filter(**filters).order_by("seq").values_list("rule", flat=True))
