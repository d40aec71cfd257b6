"""Tiles and their notation (Art. 2; docs/rules.md §1).

A tile kind is an int from 0 to 33, in the order of the notation: 0–8 números 萬 (`m`),
9–17 círculos 筒 (`p`), 18–26 bambus 索 (`s`), then the honours `1z`–`7z`: East, South,
West, North, white 白, green 發, red 中.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

CONVENTIONAL = "conventional"
SIMPLIFIED = "simplified"

SUIT_LETTERS = "mps"
EAST_WIND, SOUTH_WIND, WEST_WIND, NORTH_WIND = 27, 28, 29, 30
WHITE_DRAGON, GREEN_DRAGON, RED_DRAGON = 31, 32, 33
WINDS = frozenset((EAST_WIND, SOUTH_WIND, WEST_WIND, NORTH_WIND))
DRAGONS = frozenset((WHITE_DRAGON, GREEN_DRAGON, RED_DRAGON))
HONOURS = WINDS | DRAGONS
TERMINALS = frozenset((0, 8, 9, 17, 18, 26))
COPIES = 4  # Art. 2: four of each kind

# Art. 2(a): 34 kinds, 136 tiles; Art. 2(b): the suits and only the green dragon, 112 tiles.
KINDS = {
    CONVENTIONAL: frozenset(range(34)),
    SIMPLIFIED: frozenset(range(27)) | {GREEN_DRAGON},
}


class TileNotationError(ValueError):
    """A tile string that does not follow the notation of docs/rules.md §1."""


def tile_code(tile: int) -> str:
    """`5s`, `7z`: the notation of one tile."""
    if tile >= 27:
        return f"{tile - 26}z"
    return f"{tile % 9 + 1}{SUIT_LETTERS[tile // 9]}"


def tiles_code(tiles: list[int] | tuple[int, ...]) -> str:
    """Compact notation of several tiles, in order: `123m55z`."""
    out: list[str] = []
    group = ""
    letter = ""
    for tile in sorted(tiles):
        code = tile_code(tile)
        if code[1] != letter and group:
            out.append(group + letter)
            group = ""
        letter = code[1]
        group += code[0]
    if group:
        out.append(group + letter)
    return "".join(out)


# --- Counts of tiles by kind ---------------------------------------------------------------
# The engine counts a hand's tiles by kind in one int, five bits (0-31) per kind in tile order:
# counts add up with `+`, and the questions Art. 2 and Art. 6 ask of every tile of a hand are a
# mask or two (below and in hands.py). A group of tiles ("345m") is counted once, when it is
# first read. Only this module and hands.py look inside the int.
COUNT_BITS = 5
PACKED = tuple(1 << COUNT_BITS * tile for tile in range(34))
_FIELD = (1 << COUNT_BITS) - 1


def pack(tiles: Iterable[int]) -> int:
    """The counts of `tiles`; exact while no kind is held more than 31 times."""
    return sum(map(PACKED.__getitem__, tiles))


def kinds_mask(kinds: Iterable[int]) -> int:
    """The fields of `kinds` in counts: `counts & kinds_mask(kinds)` is zero exactly when no tile
    of those kinds is held."""
    return sum(_FIELD << COUNT_BITS * tile for tile in kinds)


# Art. 2: the kinds each variant does not play with.
_NOT_PLAYED = {variant: kinds_mask(frozenset(range(34)) - kinds) for variant, kinds in KINDS.items()}
# Adding 11 to a count of at most 20 sets its field's top bit (16) exactly when it exceeds 4.
_PLUS_11 = sum(11 << COUNT_BITS * tile for tile in range(34))
_TOP_BITS = sum(16 << COUNT_BITS * tile for tile in range(34))


def within_art_2(counts: int, tiles: int, variant: str) -> bool:
    """Art. 2 at a glance: true when the `tiles` tiles counted in `counts` are all of kinds the
    variant plays with (2(b)) and no kind is held more than four times (2(a), 2(b)). False when
    that cannot be told at a glance (more than 20 tiles) or is not so: then look tile by tile."""
    return tiles <= 20 and not counts & _NOT_PLAYED[variant] and not counts + _PLUS_11 & _TOP_BITS


_NOTATION = re.compile(r"(?:[1-9]+[mps]|[1-7]+z)*")
_GROUP = re.compile(r"[1-9]+[mps]|[1-7]+z")
# "345m" -> ((2, 3, 4), its counts); groups repeat across hands. One entry holds both, so
# that a group found (by another thread too) is complete.
_GROUPS: dict[str, tuple[tuple[int, ...], int]] = {}
_GROUPS_KEPT = 50_000


def _group_tiles(group: str) -> tuple[int, ...]:
    known = _GROUPS.get(group)
    if known is not None:
        return known[0]
    tiles = _read_group(group)
    if len(_GROUPS) < _GROUPS_KEPT:
        _GROUPS[group] = tiles, pack(tiles)
    return tiles


def _read_group(group: str) -> tuple[int, ...]:
    base = 9 * "mpsz".index(group[-1])
    return tuple([base + ord(digit) - 49 for digit in group[:-1]])


def _known_group(piece: str) -> bool:
    """Whether `piece` is one group of the notation ("345m", "55z"); remembered when it is
    (the caller sees that there is room)."""
    if piece in _GROUPS:
        return True
    if _GROUP.fullmatch(piece) is None:
        return False
    tiles = _read_group(piece)
    _GROUPS[piece] = tiles, pack(tiles)
    return True


def parse_tiles(text: str) -> tuple[int, ...]:
    """Tiles of a notation string, in the order written. Spaces are ignored.

    >>> parse_tiles("123m 55z")
    (0, 1, 2, 31, 31)
    """
    return read_tiles(text)[0]


def read_tiles(text: str) -> tuple[tuple[int, ...], int]:
    """`parse_tiles(text)` and the counts of those tiles (`pack`)."""
    if " " in text or "\t" in text:
        text = text.replace(" ", "").replace("\t", "")
    # Cut after each suit letter ("123m55z" -> "123m", "55z", ""). When every piece is a group
    # seen before (known good), together they spell the whole text and it is read.
    groups = text.replace("m", "m,").replace("p", "p,").replace("s", "s,").replace("z", "z,").split(",")
    if groups.pop() == "":
        tiles: tuple[int, ...] = ()
        counts = 0
        try:
            for group in groups:
                group_tiles, group_counts = _GROUPS[group]
                tiles += group_tiles
                counts += group_counts
            return tiles, counts
        except KeyError:  # a group not seen before: learn it, if it is one and there is room
            if len(_GROUPS) < _GROUPS_KEPT and all(map(_known_group, groups)):
                return read_tiles(text)
    if _NOTATION.fullmatch(text) is None:
        raise TileNotationError(_notation_mistake(text))
    tiles = sum(map(_group_tiles, _GROUP.findall(text)), ())
    return tiles, pack(tiles)


def _notation_mistake(text: str) -> str:
    """Say what is wrong with a string the notation does not match."""
    digits = ""
    for char in text:
        if "1" <= char <= "9":
            digits += char
        elif char in "mpsz":
            if not digits:
                return f"'{char}' is not preceded by tile numbers"
            if char == "z" and any(d > "7" for d in digits):
                return f"'{max(digits)}z' is not a tile: honours are 1z–7z"
            digits = ""
        elif char == "0":
            return "'0' is not a tile number: tiles are numbered 1–9 (no red fives)"
        else:
            return f"'{char}' is not part of the tile notation (digits, then m, p, s or z)"
    return "tile numbers at the end have no suit letter (m, p, s or z)"
