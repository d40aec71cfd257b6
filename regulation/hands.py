"""Hand shapes (Art. 4, Art. 5; docs/rules.md §3).

A conventional winning hand is four sets and a pair (a kong counts as a set), or thirteen
orphans; a simplified one is one set and a pair. A hand may decompose in several ways: every
decomposition is returned and the grade is that of the best (Art. 6).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache, partial

from .tiles import COUNT_BITS, HONOURS, TERMINALS, kinds_mask
from .values import Value

CHOW, PONG, KONG = "chow", "pong", "kong"
THIRTEEN_ORPHAN_KINDS = tuple(sorted(TERMINALS | HONOURS))


class TileSet(Value, frozen=True):
    """A set of three (or a kong of four). `tile` is the lowest tile of a chow.

    `exposed` is true for a set declared open on the table (Art. 5(a)(3)–(5)); `declared` is
    true for every declared meld, the concealed kong included.
    """

    kind: str
    tile: int
    exposed: bool = False
    declared: bool = False


class Shape(Value, frozen=True):
    """One way to read a winning hand: its sets (declared melds first) and its pair.

    Thirteen orphans (Art. 6(a)(3)) has no sets; its `pair` is the duplicated tile.
    """

    sets: tuple[TileSet, ...]
    pair: int
    thirteen_orphans: bool = False


def _declared_sets() -> dict[tuple[str, tuple[int, ...], bool], TileSet]:
    sets: dict[tuple[str, tuple[int, ...], bool], TileSet] = {}
    for exposed in (True, False):
        for tile in range(34):
            sets[PONG, (tile,) * 3, exposed] = TileSet(PONG, tile, exposed, True)
            sets[KONG, (tile,) * 4, exposed] = TileSet(KONG, tile, exposed, True)
            if tile < 27 and tile % 9 <= 6:
                sets[CHOW, (tile, tile + 1, tile + 2), exposed] = TileSet(CHOW, tile, exposed, True)
    return sets


_DECLARED_SETS = _declared_sets()


def declared_set(kind: str, tiles: tuple[int, ...], exposed: bool) -> TileSet | None:
    """The set a declared meld makes (Art. 5(a)(3)–(5)), or None when its tiles do not make
    that kind of set."""
    return _DECLARED_SETS.get((kind, tiles, exposed)) or _DECLARED_SETS.get((kind, tuple(sorted(tiles)), exposed))


def counts_of(tiles: Iterable[int]) -> list[int]:
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


# The counts of a hand's tiles (tiles.py, five bits per kind in tile order): each suit's (or the
# honours') fields, shifted out, make a small int that hashes fast and keys the caches of
# readings below.
_BITS = COUNT_BITS
_FIELD = (1 << _BITS) - 1
_SUIT_BITS = 9 * _BITS
_SUIT_MASK = (1 << _SUIT_BITS) - 1
_PIN_SHIFT, _SOU_SHIFT, _HONOUR_SHIFT = _SUIT_BITS, 2 * _SUIT_BITS, 3 * _SUIT_BITS
_MIDDLE = sum(_FIELD << _BITS * offset for offset in range(1, 8))  # a suit's 2 to 8


_MAN_FIELDS, _PIN_FIELDS, _SOU_FIELDS = (_SUIT_MASK << suit * _SUIT_BITS for suit in range(3))
_HONOUR_FIELDS = kinds_mask(HONOURS)
_SIMPLES = sum(_MIDDLE << suit * _SUIT_BITS for suit in range(3))  # every suit's 2 to 8


def kinds_held(counts: int) -> tuple[int, bool, bool]:
    """Of the tiles counted: how many of the three suits they hold, whether they hold honours,
    and whether every one is a 1, a 9, a dragon or a wind."""
    return ((counts & _MAN_FIELDS > 0) + (counts & _PIN_FIELDS > 0) + (counts & _SOU_FIELDS > 0),
            counts & _HONOUR_FIELDS > 0, not counts & _SIMPLES)


def _unpack(key: int, size: int) -> tuple[int, ...]:
    return tuple([key >> _BITS * i & _FIELD for i in range(size)])


Reading = tuple[tuple[TileSet, ...], int]  # (sets, pair tile or -1)


class _Readings(dict[int, tuple[Reading, ...]]):
    """The readings of one suit (or of the honours) by its counts, worked out on first use:
    at most 5^9 keys, a few thousand in practice."""

    def __init__(self, read: Callable[[int], tuple[Reading, ...]]) -> None:
        super().__init__()
        self.read = read

    def __missing__(self, key: int) -> tuple[Reading, ...]:
        self[key] = readings = self.read(key)
        return readings


def _suit_readings(suit: int, key: int) -> tuple[Reading, ...]:
    """Readings of one suit as sets and, when its count is 2 mod 3, exactly one pair."""
    counts = _unpack(key, 9)
    base = 9 * suit
    total = sum(counts)
    if total % 3 == 0:
        pairs = [-1]
    elif total % 3 == 2:
        pairs = [offset for offset, held in enumerate(counts) if held >= 2]
    else:
        pairs = []
    readings = []
    for pair in pairs:
        rest = list(counts)
        if pair >= 0:
            rest[pair] -= 2
        for sets in _suit_sets(tuple(rest)):
            readings.append((tuple(TileSet(kind, base + offset) for kind, offset in sets),
                             base + pair if pair >= 0 else -1))
    return tuple(readings)


def _honour_readings(key: int) -> tuple[Reading, ...]:
    """Honours make no chows: each kind held is a pong (3) or the pair (2)."""
    counts = _unpack(key, 7)
    pairs = [27 + i for i, held in enumerate(counts) if held == 2]
    valid = len(pairs) <= 1 and all(held in (0, 2, 3) for held in counts)
    sets = tuple(TileSet(PONG, 27 + i) for i, held in enumerate(counts) if held == 3)
    return ((sets, pairs[0] if pairs else -1),) if valid else ()


_MAN, _PIN, _SOU = (_Readings(partial(_suit_readings, suit)) for suit in range(3))
_HONOURS = _Readings(_honour_readings)


def decompose(counts: int, melds: tuple[TileSet, ...] = ()) -> list[Shape]:
    """Every reading of the tiles in hand (the concealed tiles and the winning tile, counted as
    in tiles.py) as sets and one pair, with the declared `melds` as further sets. No reading:
    an empty list.
    """
    honours = _HONOURS[counts >> _HONOUR_SHIFT]
    if not honours:
        return []
    man = _MAN[counts & _SUIT_MASK]
    pin = _PIN[counts >> _PIN_SHIFT & _SUIT_MASK] if man else ()
    sou = _SOU[counts >> _SOU_SHIFT & _SUIT_MASK] if pin else ()
    if not sou:
        return []
    (h_sets, h_pair), = honours  # the honours make no chows: one reading at most
    head = melds + h_sets
    if len(man) == 1 and len(pin) == 1 and len(sou) == 1:  # most hands read one way only
        (m_sets, m_pair), = man
        (p_sets, p_pair), = pin
        (s_sets, s_pair), = sou
        if (h_pair >= 0) + (m_pair >= 0) + (p_pair >= 0) + (s_pair >= 0) != 1:
            return []
        return [Shape(head + m_sets + p_sets + s_sets, max(h_pair, m_pair, p_pair, s_pair))]
    return [Shape(head + m_sets + p_sets + s_sets, max(h_pair, m_pair, p_pair, s_pair))
            for m_sets, m_pair in man for p_sets, p_pair in pin for s_sets, s_pair in sou
            if (h_pair >= 0) + (m_pair >= 0) + (p_pair >= 0) + (s_pair >= 0) == 1]


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
