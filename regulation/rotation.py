"""The table's progress from jogo to jogo (Art. 3; docs/rules.md §2, I-1, I-2).

Players sit in physical chairs 0–3, numbered in turn order (chair 1 is to chair 0's right).
Seat winds are relative to the banker: the banker's chair is East, the next chair South, the
one opposite West, the one to his left North. With fewer than four players (simplified game)
an empty chair simply has no wind, and the bank passes over the seated players only (I-17): a
complete game is 4 × players jogos without retentions, not 16.

    >>> progress = Progress.start(chairs=(0, 1, 2, 3), banker=2)
    >>> progress.seat_of(3), progress.round_wind
    ('S', 'E')
    >>> progress.after(banker_moves=True).banker
    3
"""
from __future__ import annotations

from collections.abc import Iterable

from .seats import SEATS
from .values import Value

ROUND_WINDS = SEATS  # East round, South, West, North («t'ông hin», «nám hin», ...)


class Progress(Value, frozen=True):
    """Who plays the next jogo as what: the state of a game (partida) before a jogo."""

    chairs: tuple[int, ...]  # the occupied chairs, ascending
    first_banker: int  # the chair that held the bank when the game, and so every round, began
    banker: int
    round_wind: str
    complete: bool = False  # I-2: the North round is over, the game is complete

    @classmethod
    def start(cls, *, chairs: Iterable[int], banker: int) -> Progress:
        chairs = tuple(sorted(chairs))
        if banker not in chairs:
            raise ValueError(f"the first banker's chair {banker} is empty")
        return cls(chairs, banker, banker, ROUND_WINDS[0])

    def seat_of(self, chair: int) -> str:
        """The seat wind of an occupied chair in this jogo."""
        return SEATS[(chair - self.banker) % 4]

    def chair_of(self, seat: str) -> int | None:
        """The chair holding `seat` in this jogo, or None when that chair is empty."""
        chair = (self.banker + SEATS.index(seat)) % 4
        return chair if chair in self.chairs else None

    @property
    def seats(self) -> dict[str, int]:
        """Seat wind → chair, for the occupied chairs, in turn order from East."""
        return {self.seat_of(chair): chair
                for chair in sorted(self.chairs, key=lambda c: (c - self.banker) % 4)}

    def after(self, *, banker_moves: bool) -> Progress:
        """The progress after a jogo whose result moves the bank or not.

        Art. 3: the bank passes to the player on the banker's right only when another player
        wins (I-1: not on a draw or a void jogo). I-2: the round wind advances when the bank
        comes back to the chair that held it when the round began; after the North round the
        game is complete.
        """
        if self.complete:
            raise ValueError("the game is complete (Art. 3, I-2)")
        if not banker_moves:
            return self
        banker = min(self.chairs, key=lambda c: (c - self.banker - 1) % 4)
        if banker != self.first_banker:
            return Progress(self.chairs, self.first_banker, banker, self.round_wind)
        index = ROUND_WINDS.index(self.round_wind) + 1
        if index == len(ROUND_WINDS):
            return Progress(self.chairs, self.first_banker, banker, self.round_wind, complete=True)
        return Progress(self.chairs, self.first_banker, banker, ROUND_WINDS[index])
