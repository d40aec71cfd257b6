"""Hand shapes (Art. 4, Art. 5; RULES.md §3).

A conventional winning hand is four sets and a pair (a kong counts as a set), or thirteen
orphans; a simplified one is one set and a pair. A hand may decompose in several ways: every
decomposition is returned and the grade is that of the best (Art. 6).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import NamedTuple

from .tiles import COPIES, HONOURS, TERMINALS

CHOW, PONG, KONG = "chow", "pong", "kong"
THIRTEEN_ORPHAN_KINDS = tuple(sorted(TERMINALS | HONOURS))


class TileSet(NamedTuple):
    """A set of three (or a kong of four). `tile` is the lowest tile of a chow.

    `exposed` is true for a set declared open on the table (Art. 5(a)(3)–(5)); `declared` is
    true for every declared meld, the concealed kong included.
    """

    kind: str
    tile: int
    exposed: bool = False
    declared: bool = False

    def tiles(self) -> tuple[int, ...]:
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == KONG else 3)


class Shape(NamedTuple):
    """One way to read a winning hand: its sets (declared melds first) and its pair.

    Thirteen orphans (Art. 6(a)(3)) has no sets; its `pair` is the duplicated tile.
    """

    sets: tuple[TileSet, ...]
    pair: int
    thirteen_orphans: bool = False


def counts_of(tiles) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return counts


@lru_cache(maxsize=None)
def _suit_sets(counts: tuple[int, ...]) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every split of one suit's nine counts into pongs and chows, each split once.

    At the lowest tile still held, choose zero or one pong; whatever remains of that tile
    must start chows.
    """
    first = next((i for i, c in enumerate(counts) if c), None)
    if first is None:
        return ((),)
    held = counts[first]
    splits: list[tuple[tuple[str, int], ...]] = []
    for pongs in (0, 1):
        chows = held - 3 * pongs
        if chows < 0:
            break
        if chows and (first > 6 or counts[first + 1] < chows or counts[first + 2] < chows):
            continue
        rest = list(counts)
        rest[first] = 0
        if chows:
            rest[first + 1] -= chows
            rest[first + 2] -= chows
        head = ((PONG, first),) * pongs + ((CHOW, first),) * chows
        splits.extend(head + tail for tail in _suit_sets(tuple(rest)))
    return tuple(splits)


@lru_cache(maxsize=None)
def _suit_splits(counts: tuple[int, ...]) -> tuple[tuple[tuple[tuple[str, int], ...], int], ...]:
    """Splits of one suit into sets and, when its count is 2 mod 3, exactly one pair.

    Each split is (sets, pair offset or -1). Cached: a suit's nine counts repeat across hands.
    """
    total = sum(counts)
    if total % 3 == 0:
        return tuple((sets, -1) for sets in _suit_sets(counts))
    if total % 3 == 1:
        return ()
    splits = []
    for pair, held in enumerate(counts):
        if held >= 2:
            rest = list(counts)
            rest[pair] -= 2
            splits.extend((sets, pair) for sets in _suit_sets(tuple(rest)))
    return tuple(splits)


def decompose(counts: list[int], melds: tuple[TileSet, ...] = ()) -> list[Shape]:
    """Every reading of `counts` (the concealed tiles with the winning tile) as sets and one
    pair, with the declared `melds` as further sets. No reading: an empty list.
    """
    pair = -1
    honour_sets: list[TileSet] = []
    for tile in range(27, 34):
        held = counts[tile]
        if held == 3:
            honour_sets.append(TileSet(PONG, tile))
        elif held == 2:
            if pair >= 0:
                return []
            pair = tile
        elif held:
            return []
    per_suit = []
    for base in (0, 9, 18):
        splits = _suit_splits(tuple(counts[base:base + 9]))
        if not splits:
            return []
        per_suit.append([(tuple(TileSet(kind, base + offset) for kind, offset in sets),
                          base + held_pair if held_pair >= 0 else -1)
                         for sets, held_pair in splits])
    shapes = []
    for choice in product(*per_suit):
        pairs = [p for _, p in choice if p >= 0]
        if len(pairs) + (pair >= 0) != 1:
            continue
        sets = melds + tuple(honour_sets) + choice[0][0] + choice[1][0] + choice[2][0]
        shapes.append(Shape(sets, pairs[0] if pairs else pair))
    return shapes


def thirteen_orphans(counts: list[int]) -> Shape | None:
    """Art. 6(a)(3) «sap-sám iu»: one of each 1 and 9, dragon and wind, and one duplicate."""
    if sum(counts) != 14:
        return None
    duplicate = -1
    for tile in THIRTEEN_ORPHAN_KINDS:
        held = counts[tile]
        if held == 2:
            duplicate = tile
        elif held != 1:
            return None
    if duplicate < 0 or sum(counts[t] for t in THIRTEEN_ORPHAN_KINDS) != 14:
        return None
    return Shape((), duplicate, thirteen_orphans=True)


def is_seven_pairs(counts: list[int]) -> bool:
    """Seven pairs is not a hand in Macau (Art. 4(a)); recognised only to say so plainly."""
    return sum(counts) == 14 and all(c in (0, 2) for c in counts)


def over_four_copies(tile_lists) -> list[int]:
    """Kinds of which the hand holds more than the four copies of Art. 2."""
    counts = [0] * 34
    for tiles in tile_lists:
        for tile in tiles:
            counts[tile] += 1
    return [tile for tile, held in enumerate(counts) if held > COPIES]
