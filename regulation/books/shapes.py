"""Hand shapes: a player's tiles read as sets (pairs, chows, pongs, kongs), concealed or exposed.

A winner's hand must be complete: four sets and a pair, or one of the special shapes a book
names (seven pairs, the thirteen orphans). A loser's hand is read for the sets it holds, every
way it can be; the book scores each reading and keeps the highest.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import product

from ..tiles import DRAGONS, HONOURS, TERMINALS, WINDS, tiles_code
from .record import Meld

ORPHANS = tuple(sorted(TERMINALS | HONOURS))
SIZE = {"pair": 2, "chow": 3, "pong": 3, "kong": 4}


@dataclass(frozen=True, order=True)
class Set:
    kind: str  # pair, chow, pong, kong
    tile: int  # the lowest tile
    concealed: bool  # «na régua», "in hand", «fechado»

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * SIZE[self.kind]

    @property
    def code(self) -> str:
        return tiles_code(self.tiles)

    @property
    def is_pong(self) -> bool:
        """A pong or a kong: the books count a kong among the pongs (S-R12)."""
        return self.kind in ("pong", "kong")

    @property
    def honour(self) -> bool:
        return self.tile in HONOURS

    @property
    def dragon(self) -> bool:
        return self.tile in DRAGONS

    @property
    def wind(self) -> bool:
        return self.tile in WINDS

    @property
    def terminal(self) -> bool:
        return self.tile in TERMINALS


@dataclass(frozen=True)
class Shape:
    form: str  # standard, seven_pairs, thirteen_orphans, or partial (a loser's)
    sets: tuple[Set, ...]
    tiles: tuple[int, ...]  # every tile of the hand, sorted

    @property
    def pongs(self) -> tuple[Set, ...]:
        return tuple(s for s in self.sets if s.is_pong)

    @property
    def chows(self) -> tuple[Set, ...]:
        return tuple(s for s in self.sets if s.kind == "chow")

    @property
    def pairs(self) -> tuple[Set, ...]:
        return tuple(s for s in self.sets if s.kind == "pair")

    @property
    def concealed(self) -> bool:
        """No set laid down: «jogo feito na régua», «não arriado»."""
        return all(s.concealed for s in self.sets)

    @property
    def suits(self) -> frozenset[int]:
        return frozenset(t // 9 for t in self.tiles if t < 27)

    @property
    def honours(self) -> tuple[int, ...]:
        return tuple(t for t in self.tiles if t in HONOURS)


def _meld_set(meld: Meld) -> Set:
    return Set(meld.kind, meld.tiles[0], not meld.exposed)


def _standard(counts: Counter[int], sets_left: int, pair_left: bool) -> Iterator[tuple[Set, ...]]:
    """Every way to read `counts` as `sets_left` sets and, if `pair_left`, one pair (concealed)."""
    if not +counts:
        if sets_left == 0 and not pair_left:
            yield ()
        return
    tile = min(t for t, n in counts.items() if n)
    if pair_left and counts[tile] >= 2:
        counts[tile] -= 2
        for rest in _standard(counts, sets_left, False):
            yield (Set("pair", tile, True), *rest)
        counts[tile] += 2
    if sets_left and counts[tile] >= 3:
        counts[tile] -= 3
        for rest in _standard(counts, sets_left - 1, pair_left):
            yield (Set("pong", tile, True), *rest)
        counts[tile] += 3
    if sets_left and tile < 27 and tile % 9 <= 6 and counts[tile + 1] and counts[tile + 2]:
        for t in (tile, tile + 1, tile + 2):
            counts[t] -= 1
        for rest in _standard(counts, sets_left - 1, pair_left):
            yield (Set("chow", tile, True), *rest)
        for t in (tile, tile + 1, tile + 2):
            counts[t] += 1


def winning_shapes(concealed: tuple[int, ...], melds: tuple[Meld, ...], winning_tile: int, *,
                   on_discard: bool, discard_pong_exposed: bool) -> list[Shape]:
    """Every complete reading of a winner's hand (`concealed` without the winning tile).

    When the winning tile is a discard, the set it completes was taken from the table: a pong
    so completed counts as exposed when `discard_pong_exposed` (S-A15, E-A6). Each set the
    winning tile can complete gives its own reading.
    """
    in_hand = concealed + (winning_tile,)
    everything = tuple(sorted(in_hand + sum((m.tiles for m in melds), ())))
    laid = tuple(_meld_set(m) for m in melds)
    shapes: set[Shape] = set()
    for sets in _standard(Counter(in_hand), 4 - len(melds), True):
        for completed in {s for s in sets if winning_tile in s.tiles}:
            if on_discard and completed.kind == "pong" and discard_pong_exposed:
                index = sets.index(completed)
                read = sets[:index] + (Set("pong", completed.tile, False),) + sets[index + 1:]
            else:
                read = sets
            shapes.add(Shape("standard", tuple(sorted(laid + read)), everything))
    if not melds:
        counts = Counter(in_hand)
        if len(in_hand) == 14 and all(n in (2, 4) for n in counts.values()):
            pairs = tuple(Set("pair", t, True) for t in sorted(counts) for _ in range(counts[t] // 2))
            shapes.add(Shape("seven_pairs", pairs, everything))
        if len(in_hand) == 14 and set(counts) == set(ORPHANS):
            shapes.add(Shape("thirteen_orphans", (), everything))
    return sorted(shapes, key=lambda s: (s.form, s.sets))


def held_shapes(concealed: tuple[int, ...], melds: tuple[Meld, ...], *, kongs_in_hand: bool = False) -> list[Shape]:
    """Every reading of a loser's hand as the sets it holds: its melds, and of its concealed
    tiles each pong or pair that can be formed (chows score in no book, so they are not read).

    Four of a kind among the concealed tiles is a concealed kong only when `kongs_in_hand`: a
    book where a kong may be kept in the hand, never laid down and with no tile drawn for it
    (the Brazilian rules). Elsewhere a kong is declared and a tile drawn for it, so four of a
    kind among 13 tiles was never made one: a pong and one tile more."""
    everything = tuple(sorted(concealed + sum((m.tiles for m in melds), ())))
    laid = tuple(_meld_set(m) for m in melds)
    counts = Counter(concealed)
    options = []
    for tile in sorted(counts):
        choices: list[tuple[Set, ...]] = [()]
        if counts[tile] >= 2:
            choices.append((Set("pair", tile, True),))
        if counts[tile] >= 3:
            choices.append((Set("pong", tile, True),))
        if counts[tile] == 4 and kongs_in_hand:
            choices.append((Set("kong", tile, True),))
        options.append(choices)
    return [Shape("partial", tuple(sorted(laid + sum(chosen, ()))), everything) for chosen in product(*options)]
