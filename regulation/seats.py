"""Seats, turn order and the banker (Art. 3; docs/rules.md §2).

Seat winds are relative to the banker: the banker («chông», 庄) is always East, South sits
to his right, West opposite, North to his left. Play turns counter-clockwise E → S → W → N.
"""
from __future__ import annotations

from collections.abc import Container

from .tiles import EAST_WIND

SEATS = ("E", "S", "W", "N")
BANKER = "E"
WIND_TILE = {seat: EAST_WIND + index for index, seat in enumerate(SEATS)}


def banker_factor(payer: str, winner: str) -> int:
    """Art. 7: the banker pays and receives double."""
    return 2 if BANKER in (payer, winner) else 1


# The seats after each seat in turn order: E → S, W, N; S → W, N, E; ...
AFTER = {seat: tuple(SEATS[(i + k) % 4] for k in (1, 2, 3)) for i, seat in enumerate(SEATS)}


def turn_order_after(seat: str, seated: Container[str]) -> list[str]:
    """The seated seats in turn order after `seat` (Art. 3, Art. 5(a)(6))."""
    return [s for s in AFTER[seat] if s in seated]
