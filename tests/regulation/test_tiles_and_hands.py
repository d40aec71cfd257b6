"""Tiles, notation and hand shapes (Art. 2, 4, 5; docs/rules.md §1, §3).

Expected values are worked out by hand from docs/rules.md. Tile kinds follow the notation's order
(regulation/tiles.py): 0–8 = 1m–9m, 9–17 = 1p–9p, 18–26 = 1s–9s, 27–33 = 1z–7z.
"""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, strategies as st

from regulation import MalformedRecord, read_record, score
from regulation.hands import TileSet, counts_of, decompose, thirteen_orphans
from regulation.tiles import TileNotationError, pack, parse_tiles
from tests.builders.jogos import chow, kong, pong, win


def scored(record: dict):
    return score(read_record(record))


def breach_codes(result) -> list[str]:
    return [b.code for b in result.breaches]


def the_breach(result, code: str):
    """The one breach of `code`; the jogo is invalid and settles nothing."""
    assert not result.valid
    matching = [b for b in result.breaches if b.code == code]
    assert len(matching) == 1, result.breaches
    output = result.as_dict()
    assert output["payments"] == [] and output["commission"] == 0
    assert set(output["net"].values()) == {0}
    return matching[0]


def tile(code: str) -> int:
    (only,) = parse_tiles(code)
    return only


def set_signature(shape) -> tuple:
    return tuple(sorted((s.kind, s.tile) for s in shape.sets)), shape.pair


# --- Notation (docs/rules.md §1) ----------------------------------------------------------------

@pytest.mark.parametrize("text, tiles", [
    ("123456789m", tuple(range(0, 9))),
    ("123456789p", tuple(range(9, 18))),
    ("123456789s", tuple(range(18, 27))),
    ("1234567z", tuple(range(27, 34))),
    ("9m9p9s", (8, 17, 26)),
    ("123m 55z", (0, 1, 2, 31, 31)),
    (" 1m  1p\t1s ", (0, 9, 18)),
    ("55z123m", (31, 31, 0, 1, 2)),
    ("", ()),
])
def test_notation_reads_every_suit_and_honour(text, tiles):
    assert parse_tiles(text) == tiles


def test_notation_honours_are_east_south_west_north_white_green_red():
    east, south, west, north, white, green, red = parse_tiles("1234567z")

    assert (east, south, west, north) == (27, 28, 29, 30)
    assert (white, green, red) == (31, 32, 33)


@pytest.mark.parametrize("text, named", [
    ("8z", "8z"),            # honours are 1z–7z
    ("123m9z", "9z"),
    ("0m", "0"),             # tiles are numbered 1–9
    ("12x", "x"),            # an unknown letter
    ("1M", "M"),             # suit letters are lower case
    ("123", "suit"),         # digits without a suit letter
    ("m", "m"),              # a suit letter without digits
])
def test_notation_refuses_unknown_tiles_and_says_what_is_wrong(text, named):
    with pytest.raises(TileNotationError) as error:
        parse_tiles(text)

    assert named in str(error.value)


def test_notation_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_tiles("8z")


def test_notation_reads_alike_whether_its_groups_are_new_or_remembered(monkeypatch):
    # tiles.py remembers the groups it has read ("345m") up to a limit: texts whose groups are new,
    # met when the memory is full or has room for only some of them, or remembered, read the same.
    from regulation import tiles

    written = {"71m 32m64m5m98m": (6, 0, 2, 1, 5, 3, 4, 8, 7), "4444z1m": (30, 30, 30, 30, 0),
               "137z2468p": (27, 29, 33, 10, 12, 14, 16)}
    for room in (0, 1, 1):
        monkeypatch.setattr(tiles, "_GROUPS_KEPT", len(tiles._GROUPS) + room)
        for text, expected in written.items():
            assert tiles.read_tiles(text) == (expected, tiles.pack(expected))


@pytest.mark.parametrize("concealed, winning, melds, field", [
    ("345m678p234s99m8z", "1p", [], "hand.concealed"),
    ("345m678p234s99m11p", "0m", [], "hand.winning_tile"),
    ("345m678p234s9m", "9m", [pong("12x")], "hand.melds[0].tiles"),
    ("345m678p234s99m11", "1p", [], "hand.concealed"),
])
def test_a_record_with_an_unknown_tile_is_malformed_naming_the_field(concealed, winning, melds, field):
    with pytest.raises(MalformedRecord) as error:
        read_record(win(concealed, winning, melds=melds))

    assert error.value.field == field
    assert field in str(error.value)


def test_a_record_may_write_tiles_with_spaces():
    # 345m 678p 234s 111p 99m: a chicken hand.
    result = scored(win("345m 678p 234s 99m 11p", "1p"))

    assert result.valid
    assert result.fan == 0


# --- Decompositions (Art. 4; docs/rules.md §3) ----------------------------------------------------

def test_a_hand_with_several_readings_gives_every_reading():
    # 111222333m 456p 55s: three pongs of 1m 2m 3m, or three chows 123m.
    shapes = decompose(pack(parse_tiles("111222333m456p55s")))

    assert {set_signature(shape) for shape in shapes} == {
        ((("chow", tile("4p")), ("pong", tile("1m")), ("pong", tile("2m")), ("pong", tile("3m"))), tile("5s")),
        ((("chow", tile("1m")), ("chow", tile("1m")), ("chow", tile("1m")), ("chow", tile("4p"))), tile("5s")),
    }


def test_a_hand_with_no_reading_gives_none():
    assert decompose(pack(parse_tiles("135m678p234s99m11p"))) == []


def test_declared_melds_are_sets_of_every_reading():
    # A declared 5555p kong with 345m 678p 234s + 99m in hand: one reading, kong included.
    declared = TileSet("kong", tile("5p"), True, True)
    shapes = decompose(pack(parse_tiles("345m678p234s99m")), (declared,))

    expected_sets = sorted([("chow", tile("3m")), ("chow", tile("6p")), ("chow", tile("2s")), ("kong", tile("5p"))])
    assert [set_signature(s) for s in shapes] == [(tuple(expected_sets), tile("9m"))]


def reference_readings(tiles) -> set:
    """Every way to read `tiles` as one pair and sets, by brute force (docs/rules.md §3): the
    lowest tile left is either in a pong or starts a chow."""
    def sets(counts: Counter):
        held = sorted(t for t, n in counts.items() if n)
        if not held:
            yield ()
            return
        low = held[0]
        if counts[low] >= 3:
            for rest in sets(counts - Counter({low: 3})):
                yield (("pong", low),) + rest
        if low < 27 and low % 9 <= 6 and counts[low + 1] and counts[low + 2]:
            for rest in sets(counts - Counter([low, low + 1, low + 2])):
                yield (("chow", low),) + rest

    counts = Counter(tiles)
    return {(tuple(sorted(found)), pair)
            for pair in counts if counts[pair] >= 2
            for found in sets(counts - Counter({pair: 2}))}


CHOW_STARTS = [t for t in range(27) if t % 9 <= 6]
A_SET = st.one_of(st.sampled_from(CHOW_STARTS).map(lambda t: (t, t + 1, t + 2)),
                  st.integers(0, 33).map(lambda t: (t, t, t)))


@given(sets=st.lists(A_SET, min_size=4, max_size=4), pair=st.integers(0, 33))
def test_decompose_finds_exactly_the_readings_of_a_winning_hand(sets, pair):
    tiles = [pair, pair] + [t for s in sets for t in s]
    assume(max(Counter(tiles).values()) <= 4)

    shapes = decompose(pack(tiles))

    assert {set_signature(shape) for shape in shapes} == reference_readings(tiles)
    built = tuple(sorted(("chow" if s[0] != s[1] else "pong", s[0]) for s in sets)), pair
    assert built in {set_signature(shape) for shape in shapes}


@given(tiles=st.lists(st.sampled_from([0, 1, 2, 3, 4, 9, 10, 11, 27, 31]), min_size=14, max_size=14))
def test_decompose_agrees_with_brute_force_on_any_fourteen_tiles(tiles):
    assume(max(Counter(tiles).values()) <= 4)

    assert {set_signature(s) for s in decompose(pack(tiles))} == reference_readings(tiles)


def test_grade_is_the_best_reading_pongs_over_chows():
    # 111222333m 444p 55s self-drawn, no meld. Pong reading: 4 concealed pongs + pair,
    # self-drawn, no kong: concealed_pongs = 2. Chow reading: 123m ×3 + 444p: chicken, 0.
    result = scored(win("111222333m444p5s", "5s", discarder=None))

    assert result.valid
    assert result.fan == 2
    assert [item.code for item in result.grade.items] == ["concealed_pongs"]
    assert all(s.kind == "pong" for s in result.grade.shape.sets)


def test_grade_is_the_best_reading_on_a_discard():
    # The same hand won on a discard: pongs give all_pongs = 1, chows give 0.
    result = scored(win("111222333m444p5s", "5s"))

    assert result.fan == 1
    assert [item.code for item in result.grade.items] == ["all_pongs"]


def test_grade_is_the_best_reading_chows_over_pongs():
    # 111222333m 456p 55s: chows read 4 chows + 55s = all_chows 1; pongs read 3 pongs and a
    # chow = chicken 0.
    result = scored(win("111222333m456p5s", "5s"))

    assert result.fan == 1
    assert [item.code for item in result.grade.items] == ["all_chows"]
    assert all(s.kind == "chow" for s in result.grade.shape.sets)


def test_a_kong_counts_as_a_set_so_the_hand_has_fifteen_tiles():
    # Exposed 5555p + 345m 678s 234s + 99m: 4 + 10 + the winning tile = 15 tiles.
    record = win("345m678s234s9m", "9m", melds=[kong("5555p")])
    result = scored(record)

    assert 4 + len(parse_tiles(record["hand"]["concealed"])) + 1 == 15
    assert result.valid
    assert result.fan == 0
    assert ("kong", tile("5p")) in [(s.kind, s.tile) for s in result.grade.shape.sets]


def test_two_kongs_make_a_sixteen_tile_hand():
    # Concealed 1111m, exposed 9999p, 345s 678s + 22p: 8 + 7 + 1 = 16 tiles.
    result = scored(win("345s678s2p", "2p", melds=[kong("1111m", exposed=False), kong("9999p")]))

    assert result.valid
    assert result.fan == 0


def test_a_kong_meld_with_only_fourteen_tiles_in_all_is_the_wrong_size():
    # 4 in the kong + 9 concealed + the winning tile = 14: one tile short of 15.
    result = scored(win("345m678s99m2s", "2s", melds=[kong("5555p")]))

    assert the_breach(result, "hand_size").article == "4(a)"


# --- Thirteen orphans (Art. 6(a)(3)) and seven pairs (Art. 4(a)) ------------------------------

def test_thirteen_orphans_is_recognised_with_its_duplicate():
    shape = thirteen_orphans(counts_of(parse_tiles("19m19p19s1234567z9p")))

    assert shape is not None
    assert shape.thirteen_orphans
    assert shape.pair == tile("9p")


@pytest.mark.parametrize("text", [
    "19m19p19s1234567z2m",    # the fourteenth tile is no orphan
    "19m19p19s123455z77z",    # no green dragon; white and red both doubled
    "19m19p19s1234567z",      # 13 tiles, no duplicate
])
def test_thirteen_orphans_needs_every_orphan_and_one_duplicate(text):
    assert thirteen_orphans(counts_of(parse_tiles(text))) is None


def test_a_thirteen_orphans_record_is_a_valid_hand():
    result = scored(win("19m19p19s1234567z", "5z"))

    assert result.valid
    assert result.grade.shape.thirteen_orphans


def test_art_4a_seven_pairs_is_not_a_hand():
    # 11m 55m 33p 77p 22s 88s 99s: seven pairs, refused in Macau.
    result = scored(win("1155m3377p2288s9s", "9s"))

    breach = the_breach(result, "not_a_winning_hand")
    assert breach.article == "4(a)"
    assert "seven pairs" in breach.message.lower()
    assert result.fan is None
    assert result.as_dict()["fan"] is None


def test_art_4a_a_hand_without_sets_and_a_pair_is_refused():
    result = scored(win("135m678p234s99m11p", "1p"))

    assert the_breach(result, "not_a_winning_hand").article == "4(a)"


# --- The simplified hand (Art. 4(b)) ----------------------------------------------------------

def test_art_4b_simplified_hand_is_one_set_and_a_pair():
    # 789s + 55m: 5 tiles.
    result = scored(win("789s5m", "5m", variant="simplified"))

    assert result.valid
    assert result.fan == 0


@pytest.mark.parametrize("exposed", [True, False])
def test_art_4b_simplified_hand_with_a_kong_has_six_tiles(exposed):
    # Kong 1111p (open, or concealed) + 55m.
    result = scored(win("5m", "5m", melds=[kong("1111p", exposed=exposed)], variant="simplified"))

    assert result.valid
    assert result.fan == 0


@pytest.mark.parametrize("variant, concealed, winning, article", [
    ("conventional", "345m678p234s9m11p", "1p", "4(a)"),       # 13 tiles
    ("conventional", "345m678p234s99m111p", "1p", "4(a)"),     # 15 tiles, no kong
    ("simplified", "789s", "5m", "4(b)"),                      # 4 tiles
    ("simplified", "789s55m", "5m", "4(b)"),                   # 6 tiles, no kong
])
def test_art_4_wrong_tile_count_is_hand_size(variant, concealed, winning, article):
    result = scored(win(concealed, winning, variant=variant))

    assert the_breach(result, "hand_size").article == article


# --- Art. 2: the tile set ---------------------------------------------------------------------

@pytest.mark.parametrize("concealed, winning, melds", [
    ("11111m234p567s99s", "9s", []),               # five 1m concealed
    ("1111m234p567s999s", "1m", []),                # the winning tile is the fifth
    ("11m234p567s99s", "9s", [pong("111m")]),      # counted across a meld
], ids=["concealed", "winning-tile", "meld"])
def test_art_2a_a_fifth_copy_is_refused(concealed, winning, melds):
    result = scored(win(concealed, winning, melds=melds))

    assert the_breach(result, "fifth_copy").article == "2(a)"


def test_art_2b_a_fifth_copy_is_refused_in_the_simplified_game():
    result = scored(win("5555m", "5m", variant="simplified"))

    assert the_breach(result, "fifth_copy").article == "2(b)"


@pytest.mark.parametrize("honour", ["1z", "2z", "3z", "4z", "5z", "7z"])
def test_art_2b_simplified_hand_holding_a_wind_red_or_white_is_refused(honour):
    result = scored(win(f"789s{honour}", honour, variant="simplified"))

    assert the_breach(result, "tile_not_in_variant").article == "2(b)"


def test_art_2b_simplified_kong_of_a_wind_is_refused():
    result = scored(win("5m", "5m", melds=[kong("1111z")], variant="simplified"))

    assert the_breach(result, "tile_not_in_variant").article == "2(b)"


def test_art_2b_green_dragon_is_a_simplified_tile():
    result = scored(win("789s6z", "6z", variant="simplified"))

    assert result.valid


# --- Art. 5: declared melds --------------------------------------------------------------------

@pytest.mark.parametrize("meld", [
    chow("135m"),        # not consecutive
    chow("123z"),        # honours make no chows
    chow("89m1p"),       # across two suits
    chow("111m"),        # three of a kind declared a chow
    pong("112m"),
    pong("1111m"),       # four tiles declared a pong
    kong("1112m"),
    kong("111m"),        # three tiles declared a kong
], ids=lambda m: f"{m['kind']}-{m['tiles']}")
def test_art_5_a_meld_that_is_not_its_kind_is_refused(meld):
    # Otherwise 345m 678p 234s + 99m around the meld.
    result = scored(win("345m678p234s9m", "9m", melds=[meld]))

    breach = the_breach(result, "meld_shape")
    assert breach.article.startswith("5(a)")


@pytest.mark.parametrize("meld", [pong("777z", exposed=False), chow("123s", exposed=False)])
def test_art_5_only_a_kong_may_be_declared_concealed(meld):
    result = scored(win("345m678p234s9m", "9m", melds=[meld]))

    the_breach(result, "meld_concealed")


def test_art_4b_a_simplified_hand_with_two_kongs_is_refused_with_a_clear_message():
    # 1 set + 1 pair (Art. 4(b)): two kongs are one set too many. RULES §7: a clear message.
    result = scored(win("5m", "5m", melds=[kong("1111p"), kong("2222s")], variant="simplified"))

    assert the_breach(result, "hand_shape").article == "4(b)"
    assert not any("-1" in b.message for b in result.breaches), [b.message for b in result.breaches]


@pytest.mark.parametrize("meld", [pong("555m"), chow("789s")])
def test_art_5b3_no_chow_or_pong_is_claimed_in_the_simplified_game(meld):
    result = scored(win("9s", "9s", melds=[meld], variant="simplified"))

    assert the_breach(result, "simplified_claim").article == "5(b)(3)"
