"""The masks that answer Art. 2's and Art. 6's questions about a whole hand at once
(`tiles.within_art_2`, `hands.kinds_held`), checked against the plain answer: a loop over the
tiles.

A hand's tiles are counted in one int, five bits per kind in tile order (regulation/tiles.py);
the counts are written out here again, not taken from the engine.
"""
from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, strategies as st

from regulation.hands import kinds_held
from regulation.tiles import pack, within_art_2
from tests.strategies import tile_piles

SIMPLIFIED_KINDS = frozenset(range(27)) | {32}  # Art. 2(b): the three suits and the green dragon
PLAYED = {"conventional": frozenset(range(34)), "simplified": SIMPLIFIED_KINDS}  # Art. 2(a), 2(b)


def counts_of(tiles: list[int]) -> int:
    return sum(1 << 5 * tile for tile in tiles)


def within_tile_by_tile(tiles: list[int], variant: str) -> bool:
    return (len(tiles) <= 20  # at a glance only up to 20 tiles; beyond, the caller looks
            and all(tile in PLAYED[variant] for tile in tiles)
            and all(tiles.count(tile) <= 4 for tile in tiles))


def kinds_tile_by_tile(tiles: list[int]) -> tuple[int, bool, bool]:
    suits = len({tile // 9 for tile in tiles if tile < 27})
    honours = any(tile >= 27 for tile in tiles)
    terminals_and_honours_only = all(tile >= 27 or tile % 9 in (0, 8) for tile in tiles)
    return suits, honours, terminals_and_honours_only


@given(tile_piles(), st.sampled_from(sorted(PLAYED)))
@example([0] * 4, "simplified")  # four copies: within
@example([0] * 5, "simplified")  # a fifth copy
@example([33] * 5 + [0] * 15, "conventional")  # 20 tiles, a fifth copy: still told at a glance
@example([32] * 4 + [31], "simplified")  # the white dragon is no tile of the simplified game
@example(list(range(21)), "conventional")  # 21 tiles, all fine: not told at a glance
def test_within_art_2_agrees_with_a_look_at_every_tile(tiles, variant):
    assert pack(tiles) == counts_of(tiles)
    assert within_art_2(counts_of(tiles), len(tiles), variant) is within_tile_by_tile(tiles, variant)


@given(tile_piles())
@example([])
@example([0, 8, 9, 17, 18, 26, 27, 33])  # every terminal, and honours
@example([1, 10, 19])  # a 2 of each suit
@example([8, 26])  # two suits, terminals only
def test_kinds_held_agrees_with_a_look_at_every_tile(tiles):
    assert kinds_held(counts_of(tiles)) == kinds_tile_by_tile(tiles)


# Every field of the masks, one at a time: each kind alone, up to six copies, and beside each
# other kind.
ONE_KIND = [[kind] * copies for kind in range(34) for copies in range(1, 7)]
TWO_KINDS = [[first] * 3 + [second] * 2 for first, second in itertools.product(range(34), repeat=2)]


@pytest.mark.parametrize("variant", sorted(PLAYED))
def test_within_art_2_agrees_tile_by_tile_on_every_kind_and_pair_of_kinds(variant):
    for tiles in ONE_KIND + TWO_KINDS:
        assert within_art_2(counts_of(tiles), len(tiles), variant) is within_tile_by_tile(tiles, variant), tiles


def test_kinds_held_agrees_tile_by_tile_on_every_kind_and_pair_of_kinds():
    for tiles in ONE_KIND + TWO_KINDS:
        assert kinds_held(counts_of(tiles)) == kinds_tile_by_tile(tiles), tiles
