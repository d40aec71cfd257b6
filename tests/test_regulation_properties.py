"""Property-based tests of the rules engine (Portaria n.º 135/91/M; RULES.md, JOGO-FORMAT.md).

The strategies below build *legal* won jogos of both variants from the rules themselves (sets,
pairs, melds, seats, conditions that fit the hand), plus draws and false wins. Every
expectation is computed here from RULES.md — the tier table of Art. 8, the shares of I-6, the
banker's double of Art. 7, the cap of Art. 9(a)(4) and I-7 — never by calling the engine's
own helpers: the engine is reached through `read_record` and `score` (and its rule set only to
compare its tiers with Art. 8).

Run: HYPOTHESIS_PROFILE=ci .venv/bin/python -m pytest tests/test_regulation_properties.py -q
"""
from __future__ import annotations

import copy
import json
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from math import floor
from typing import NamedTuple

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from regulation import CURRENT, MalformedRecord, read_record, score

# --- The regulation's figures, restated from RULES.md (not read from the engine) -----------

CONVENTIONAL, SIMPLIFIED = "conventional", "simplified"
SEATS = ("E", "S", "W", "N")  # Art. 3: turn order, the banker East
BANKER = "E"
WIND_TILE = {"E": 27, "S": 28, "W": 29, "N": 30}

# Art. 8: stake X of the tier X/2X -> the commission per won jogo.
COMMISSION = {
    CONVENTIONAL: {25: 10, 50: 20, 100: 40, 200: 80, 300: 120, 500: 200, 1_000: 400,
                   2_000: 800, 3_000: 1_200, 5_000: 2_000, 10_000: 4_000},
    SIMPLIFIED: {100: 20, 200: 40, 300: 60, 500: 100, 1_000: 200, 2_000: 400, 3_000: 600,
                 5_000: 1_000, 10_000: 2_000, 20_000: 4_000, 30_000: 6_000},
}
MAX_FAN = {CONVENTIONAL: 2, SIMPLIFIED: 1}  # I-5

# Art. 6: the fán and the article of every item, per variant.
ONE_FAN = ("dragon_set", "round_wind_set", "seat_wind_set", "robbing_kong", "kong_replacement",
           "all_pongs", "all_chows", "mixed_one_suit", "last_tile", "small_three_dragons",
           "small_four_winds", "terminals_and_honours")
TWO_FAN = ("heavenly", "earthly", "double_wind_set", "kong_upon_kong", "mixed_one_suit_all_chows",
           "pure_one_suit", "thirteen_orphans", "concealed_pongs", "big_three_dragons",
           "big_four_winds", "pure_terminals", "all_honours")
ITEMS = {
    CONVENTIONAL: {**{code: (1, "6(a)(2)") for code in ONE_FAN}, **{code: (2, "6(a)(3)") for code in TWO_FAN}},
    SIMPLIFIED: {code: (1, "6(b)(2)") for code in ("robbing_kong", "last_tile", "green_winning_tile")},
}
BONUS_ITEMS = {"robbing_kong", "kong_replacement", "last_tile", "terminals_and_honours"}  # I-5, 多算一番

# Art. 2: tiles 0–8 m, 9–17 p, 18–26 s, 27–33 z (E S W N white green red).
WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
HONOURS = WINDS | DRAGONS
GREEN = 32
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
SIMPLIFIED_KINDS = frozenset(range(27)) | {GREEN}
CHOW_STARTS = tuple(t for t in range(27) if t % 9 <= 6)
FALSE_WIN_FAN = {CONVENTIONAL: (2, 1), SIMPLIFIED: (1, 1)}  # I-10: (with the banker, between others)


def notation(tiles, *, spaced: bool = False) -> str:
    """`123m55z`: the notation of RULES.md §1, written here independently of the engine."""
    groups = []
    for suit, letter in enumerate("mpsz"):
        digits = "".join(str(t - 9 * suit + 1) for t in sorted(tiles) if t // 9 == suit)
        if digits:
            groups.append(digits + letter)
    return (" " if spaced else "").join(groups)


def set_tiles(kind: str, tile: int) -> tuple[int, ...]:
    if kind == "chow":
        return (tile, tile + 1, tile + 2)
    return (tile,) * (4 if kind == "kong" else 3)


def turn_after(seat: str, seated) -> list[str]:
    """Art. 3: the seated seats after `seat`, counter-clockwise E → S → W → N."""
    start = SEATS.index(seat)
    return [SEATS[(start + k) % 4] for k in (1, 2, 3) if SEATS[(start + k) % 4] in seated]


# --- Strategies ------------------------------------------------------------------------------
# Strategies are built once and reused: building one per draw costs more than the draw.

COIN = st.booleans()


@lru_cache(maxsize=None)
def _index(size: int):
    return st.integers(0, size - 1)


def pick(draw, options):
    """One of `options` (a sequence), shrinking towards the first, like `sampled_from`."""
    options = tuple(options)
    return options[draw(_index(len(options)))]


class Hand(NamedTuple):
    sets: tuple[tuple[str, int], ...]  # as built: ("pong"|"chow"|"kong", tile)
    pair: int | None
    melds: tuple[tuple[str, tuple[int, ...], bool], ...]  # declared: kind, tiles, exposed
    concealed: tuple[int, ...]  # without the winning tile and the concealed kongs
    winning: int
    tiles: tuple[int, ...]  # every tile of the hand, melds included
    orphans: bool = False


class Case(NamedTuple):
    record: dict
    variant: str
    seats: tuple[str, ...]
    stake: int
    capital: dict[str, int]
    round_wind: str
    winner: str | None
    discarder: str | None
    hand: Hand | None
    conditions: frozenset[str]
    pay_all: str | None  # the liable seat
    fan_combination: str  # I-5 reading in force
    offender: str | None = None  # false win


# Hands drawn from all tiles rarely score the rarer items: themes narrow the tiles or the sets.
THEMES = ("any", "any", "any", "one_suit", "one_suit", "one_suit", "one_suit_honours", "honours",
          "terminals_honours", "terminals", "big_three", "big_four", "small_three", "small_four",
          "thirteen_orphans", "chows", "one_suit_chows", "pongs")


def _finish_hand(draw, sets: list[tuple[str, int]], pair: int, counts: list[int], *, simplified: bool,
                 crowded: bool = False) -> Hand:
    """Declare some sets as melds (Art. 5), pick the winning tile among the concealed ones."""
    melds = []
    concealed = [pair, pair]
    built = []
    # Heavenly, earthly and concealed pongs need a closed hand; Art. 10(a)(1)-(2) an open one.
    mode = pick(draw, ("mixed", "mixed", "closed", "open"))
    for kind, tile in sets:
        kong = kind == "pong" and (counts[tile] == 3 or crowded)
        # Art. 5(b)(3)-(4): in the simplified game no chow or pong is claimed, only kongs declared
        choices = ["hand"] + ([] if simplified else ["exposed"]) + (["kong", "concealed_kong"] if kong else [])
        if mode == "closed":
            how = "hand"
        elif mode == "open" and choices[1:]:
            how = pick(draw, choices[1:])
        else:
            how = pick(draw, choices)
        if how == "hand":
            concealed += set_tiles(kind, tile)
            built.append((kind, tile))
        elif how == "exposed":
            melds.append((kind, set_tiles(kind, tile), True))
            built.append((kind, tile))
        else:
            counts[tile] += 1
            melds.append(("kong", set_tiles("kong", tile), how == "kong"))
            built.append(("kong", tile))
    winning = pick(draw, sorted(concealed))
    concealed.remove(winning)
    tiles = tuple(concealed) + (winning,) + tuple(t for _, meld_tiles, _ in melds for t in meld_tiles)
    assert crowded or all(tiles.count(t) <= 4 for t in tiles)
    return Hand(tuple(built), pair, tuple(melds), tuple(sorted(concealed)), winning, tiles)


@st.composite
def conventional_hands(draw, crowded: bool = False) -> Hand:
    """Art. 4(a): four sets and a pair (or thirteen orphans), never a fifth copy (Art. 2).

    `crowded`: sets and pair from a handful of kinds with no limit of copies, so that a
    fifth copy of a kind is frequent (and the hand otherwise a winning hand).
    """
    theme = "crowded" if crowded else pick(draw, THEMES)
    if theme == "thirteen_orphans":
        kinds = sorted(TERMINALS | HONOURS)
        tiles = kinds + [pick(draw, kinds)]
        winning = pick(draw, sorted(tiles))
        tiles.remove(winning)
        return Hand((), None, (), tuple(sorted(tiles)), winning, tuple(tiles) + (winning,), orphans=True)
    suit = draw(_index(3))
    suit_kinds = set(range(9 * suit, 9 * suit + 9))
    pool = {
        "one_suit": suit_kinds,
        "one_suit_honours": suit_kinds | HONOURS,
        "honours": HONOURS,
        "terminals_honours": TERMINALS | HONOURS,
        "terminals": TERMINALS,
        "one_suit_chows": suit_kinds,  # and a wind pair: wân iat sêk p'èng vu, Art. 6(a)(3)
    }.get(theme, set(range(34)))
    if crowded:
        start = 9 * suit + draw(_index(6))
        pool = set(range(start, start + 4))
    limit = 99 if crowded else 4
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    pairs = {"one_suit_chows": WINDS, "small_three": {33}, "small_four": {30}}.get(theme, pool)
    reserved = pairs if theme in ("small_three", "small_four") else set()  # kept for the pair
    forced = {"big_three": sorted(DRAGONS), "big_four": sorted(WINDS),
              "small_three": sorted(DRAGONS)[:2], "small_four": sorted(WINDS)[:3]}.get(theme, [])
    for tile in forced:
        sets.append(("pong", tile))
        counts[tile] += 3
    while len(sets) < 4:
        options = [("pong", t) for t in sorted(pool - reserved) if counts[t] <= limit - 3]
        chows = [("chow", t) for t in CHOW_STARTS
                 if {t, t + 1, t + 2} <= pool and all(counts[t + i] <= limit - 1 for i in range(3))]
        if theme in ("chows", "one_suit_chows") and chows:
            options = chows
        elif theme != "pongs":
            options += chows
        kind, tile = pick(draw, options)
        for t in set_tiles(kind, tile):
            counts[t] += 1
        sets.append((kind, tile))
    pair = pick(draw, [t for t in sorted(pairs) if counts[t] <= limit - 2])
    counts[pair] += 2
    return _finish_hand(draw, sets, pair, counts, simplified=False, crowded=crowded)


@st.composite
def simplified_hands(draw, crowded: bool = False) -> Hand:
    """Art. 4(b): one set and a pair, from the suits and the green dragon only (Art. 2(b)).

    `crowded`: the pair is of a kind of the set, whatever the copies that makes.
    """
    kinds = sorted(SIMPLIFIED_KINDS)
    kind, tile = pick(draw, [("pong", t) for t in kinds] + [("chow", t) for t in CHOW_STARTS])
    counts = [0] * 34
    for t in set_tiles(kind, tile):
        counts[t] += 1
    pair = pick(draw, sorted(set(set_tiles(kind, tile))) if crowded else [t for t in kinds if counts[t] <= 2])
    counts[pair] += 2
    return _finish_hand(draw, [(kind, tile)], pair, counts, simplified=True, crowded=crowded)


HANDS = {
    (CONVENTIONAL, False): conventional_hands(), (SIMPLIFIED, False): simplified_hands(),
    (CONVENTIONAL, True): conventional_hands(crowded=True), (SIMPLIFIED, True): simplified_hands(crowded=True),
}


def written(draw, value: int):
    """Whole currency units as JOGO-FORMAT allows: mostly an integer, sometimes a decimal string."""
    return pick(draw, (value, value, value, str(value), f"{value}.00"))


@lru_cache(maxsize=None)
def capital_amounts(stake: int):
    # Dues reach 24 X at most (banker wins 2 fán: 3 × 2 × 4X); small capitals make the cap bind.
    return st.one_of(st.integers(0, 30 * stake), st.integers(0, 10**7), st.just(10**12))


@lru_cache(maxsize=None)
def small_capitals(stake: int):
    # The least any winner is owed is 2 X (simplified, two players, East pays double).
    return st.integers(0, 6 * stake)


def ample_capitals(stake: int):
    return st.just(10**12)  # more than any jogo's dues: the cap never binds


# Art. 3(a): exactly four players; Art. 3(b): two to four, East always present.
SEATINGS = {
    CONVENTIONAL: (SEATS,),
    SIMPLIFIED: tuple(seats for seats in (("E", "S"), ("E", "W"), ("E", "N"), ("E", "S", "W"), ("E", "S", "N"),
                                          ("E", "W", "N"), SEATS)),
}


def _is_pure_one_suit(tiles) -> bool:
    return all(t < 27 for t in tiles) and len({t // 9 for t in tiles}) == 1


def _pay_all_options(variant: str, hand: Hand, self_drawn: bool) -> list[str]:
    """Art. 10 triggers the hand and the win can show (RULES.md §6), exemptions excluded."""
    tiles, winning = hand.tiles, hand.winning
    exposed = sum(1 for _, _, is_exposed in hand.melds if is_exposed)
    if variant == SIMPLIFIED:
        if self_drawn:
            return []
        # 10(b)(1): the liable seat held the last 發;
        # 10(b)(2): he held three of the winning kind, so the winner holds at most one more.
        # I-14: the other three are on view, so the winner holds no 發 at all.
        return ((["10(b)(1)"] if GREEN not in tiles else [])
                + (["10(b)(2)"] if tiles.count(winning) <= 2 else []))
    if all(t in TERMINALS for t in tiles) or all(t in HONOURS for t in tiles):
        return []  # Art. 10(a)(9): pure terminals, all honours
    if self_drawn:
        return ["10(a)(2)"] if _is_pure_one_suit(tiles) and exposed == 4 else []
    options = ["10(a)(4)", "10(a)(6)"]
    # The liable seat broke his concealed pong of the winning kind, or (I-12) a concealed chow
    # holding it (broken_set, chosen in won_jogos).
    if tiles.count(winning) <= 2 or winning not in HONOURS:
        options.append("10(a)(5)")
    if _is_pure_one_suit(tiles) and exposed >= 3:
        options.append("10(a)(1)")
    dragon_sets = sum(1 for d in DRAGONS if tiles.count(d) >= 3)
    wind_sets = sum(1 for w in WINDS if tiles.count(w) >= 3)
    if (winning in DRAGONS and dragon_sets == 3) or (winning in WINDS and wind_sets == 4):
        options.append("10(a)(3)")
    return options


@st.composite
def won_jogos(draw, variant: str | None = None, capitals=None, pay_all: str = "maybe", crowded: bool = False) -> Case:
    """A legal won jogo: a winning hand, seated winner and discarder, consistent conditions,
    conduct, claims and (sometimes) a pay-all. `capitals`: stake -> strategy of a seat's capital;
    `pay_all`: "maybe", "never" or "prefer"; `crowded`: hands that may hold a fifth copy."""
    variant = variant or pick(draw, (CONVENTIONAL, SIMPLIFIED))
    conventional = variant == CONVENTIONAL
    hand = draw(HANDS[variant, crowded])
    seats = pick(draw, SEATINGS[variant])
    stake = pick(draw, sorted(COMMISSION[variant]))
    capital = {seat: draw((capitals or capital_amounts)(stake)) for seat in seats}
    winner = pick(draw, seats)
    others = [s for s in seats if s != winner]
    all_exposed_one_suit = _is_pure_one_suit(hand.tiles) and sum(exposed for _, _, exposed in hand.melds) == 4
    # Under "prefer" a pay-all needs a discarder, except Art. 10(a)(2) (pure one suit, all exposed).
    self_drawn = draw(COIN) if pay_all != "prefer" or all_exposed_one_suit else False
    discarder = None if self_drawn else pick(draw, others)
    kongs = sum(1 for kind, _, _ in hand.melds if kind == "kong")

    conditions: list[str] = []
    if winner == BANKER and self_drawn and not hand.melds and draw(_index(4)) == 0:
        conditions = ["heavenly"]  # Art. 5(a)(1): the banker's dealt tiles
    elif winner != BANKER and discarder == BANKER and not hand.melds and draw(_index(4)) == 0:
        conditions = ["earthly"]  # Art. 5(a)(2): on the banker's first discard
    else:
        if draw(COIN):
            conditions.append("last_tile")
        if self_drawn and kongs:
            kong_wins = [[], ["kong_replacement"]]
            if kongs >= 2:
                kong_wins += [["kong_upon_kong"], ["kong_replacement", "kong_upon_kong"]]
            conditions += pick(draw, kong_wins)
        if discarder and hand.tiles.count(hand.winning) == 1 and draw(COIN):
            conditions.append("robbing_kong")  # the robbed kong holds the other three copies
    robbing = "robbing_kong" in conditions

    conduct = []
    if not kongs and draw(COIN):
        conduct.append({"seat": winner, "kind": "saw_tiles"})  # Art. 9(a)(3): only kongs are barred
    for seat in others:
        kinds = [] if (seat == discarder and robbing) else ["saw_tiles"]
        kinds += ["declined_pong"] if conventional else []
        if kinds and draw(_index(4)) == 0:
            conduct.append({"seat": seat, "kind": pick(draw, kinds)})
    barred = [c["seat"] for c in conduct if c["kind"] == "declined_pong"]

    claimants: list[str] = []
    if discarder:  # Art. 5(a)(6): only players after the winner, or barred ones, lose the claim
        order = turn_after(discarder, seats)
        candidates = order[order.index(winner) + 1:] + [s for s in barred if s not in (winner, discarder)]
        candidates = list(dict.fromkeys(candidates))
        if candidates:
            claimants = [seat for seat in candidates if draw(COIN)]

    liable = None
    pay_all_field = None
    if pay_all != "never" and not (set(conditions) & {"heavenly", "earthly", "robbing_kong"}):
        options = _pay_all_options(variant, hand, self_drawn)
        if options and (pay_all == "prefer" or draw(_index(3)) == 0):
            article = options[-1] if draw(COIN) else pick(draw, options)  # the rarer triggers come last
            liable = pick(draw, others) if article == "10(a)(2)" else discarder
            live_honour = hand.winning in HONOURS if conventional else hand.winning == GREEN
            live_tile = False if live_honour else draw(COIN)
            pay_all_field = {"seat": liable, "article": article, "live_tile": live_tile}
            if article == "10(a)(5)":  # I-12: a broken pong (the default) or a broken chow
                kinds = ([None, "pong"] if hand.tiles.count(hand.winning) <= 2 else []) \
                    + (["chow"] if hand.winning not in HONOURS else [])
                broken_set = pick(draw, kinds)
                if broken_set:
                    pay_all_field["broken_set"] = broken_set

    fan_combination = pick(draw, [None, None, "additive", "highest_plus_bonus"])
    spaced = draw(COIN)
    hand_field = {
        "concealed": notation(hand.concealed, spaced=spaced),
        "melds": [{"kind": kind, "tiles": notation(tiles), "exposed": exposed} for kind, tiles, exposed in hand.melds],
        "winning_tile": notation([hand.winning]),
    }
    record = {
        "variant": variant,
        "stake": written(draw, stake),
        "round_wind": pick(draw, SEATS),
        "capital": {seat: written(draw, capital[seat]) for seat in seats},
        "result": "win",
        "winner": winner,
        "discarder": discarder,
        "hand": hand_field,
        "conditions": conditions,
        "declared_fan": pick(draw, [None, 0, 1, 2]),
        "conduct": conduct,
        "claimants": claimants,
        "pay_all": pay_all_field,
        "false_win": None,
    }
    if fan_combination:
        record["rules"] = {"fan_combination": fan_combination}
    if draw(COIN):  # the optional fields may be left out altogether
        for key in ("conditions", "declared_fan", "conduct", "claimants", "pay_all", "false_win"):
            if record[key] in (None, []):
                del record[key]
        if not hand_field["melds"]:
            del hand_field["melds"]
    return Case(record, variant, seats, stake, capital, record["round_wind"], winner, discarder, hand,
                frozenset(conditions), liable, fan_combination or "additive")


@st.composite
def void_jogos(draw, result: str) -> Case:
    """A drawn jogo (wall exhausted) or a false win (Art. 10(a)(7)-(8), (b)(3))."""
    variant = pick(draw, (CONVENTIONAL, SIMPLIFIED))
    seats = pick(draw, SEATINGS[variant])
    stake = pick(draw, sorted(COMMISSION[variant]))
    capital = {seat: draw(capital_amounts(stake)) for seat in seats}
    record = {"variant": variant, "stake": stake, "round_wind": pick(draw, SEATS),
              "capital": dict(capital), "result": result}
    offender = None
    if result == "false_win":
        offender = pick(draw, seats)
        record["false_win"] = {"seat": offender}
        if draw(COIN):
            record["winner"] = offender  # JOGO-FORMAT: only the offender may be named
    return Case(record, variant, seats, stake, capital, record["round_wind"], None, None, None,
                frozenset(), None, "additive", offender)


any_jogos = st.one_of(won_jogos(), void_jogos("draw"), void_jogos("false_win"))


def scored(case: Case):
    return score(read_record(copy.deepcopy(case.record)))


def paid_by(result) -> dict[str, int]:
    paid: dict[str, int] = {}
    for payment in result.settlement.payments:
        paid[payment.payer] = paid.get(payment.payer, 0) + payment.amount
    return paid


def uncapped_dues(case: Case, fan: int) -> dict[str, int]:
    """Art. 7 with I-6: each loser owes X·2^fán, doubled when the banker pays or wins."""
    share = case.stake * 2**fan
    return {seat: share * (2 if BANKER in (seat, case.winner) else 1) for seat in case.seats if seat != case.winner}


def assert_breaches_name_their_article(result) -> None:
    assert result.breaches
    for breach in result.breaches:
        assert breach.code
        assert isinstance(breach.article, str) and breach.article
        assert breach.message.startswith(f"Art. {breach.article}"), breach
    settlement = result.settlement  # JOGO-FORMAT: a jogo that breaks the regulation settles nothing
    assert settlement.payments == ()
    assert settlement.commission == 0
    assert set(settlement.net.values()) <= {0}


def assert_money_conserved(result) -> None:
    settlement = result.settlement
    assert sum(settlement.net.values()) + settlement.commission == 0
    # And net is what the payments say: each payer down, each payee up, the winner less commission.
    expected = dict.fromkeys(settlement.net, 0)
    for payment in settlement.payments:
        expected[payment.payer] -= payment.amount
        expected[payment.payee] += payment.amount
    if result.jogo.result == "win":
        expected[result.jogo.winner] -= settlement.commission
    assert settlement.net == expected


# --- 1. Legal hands are valid -----------------------------------------------------------------


@given(won_jogos(variant=CONVENTIONAL))
def test_art_4a_every_legal_conventional_hand_is_valid(case):
    result = scored(case)

    assert result.valid, [b.message for b in result.breaches]
    assert result.breaches == ()
    assert result.fan is not None


@given(won_jogos(variant=SIMPLIFIED))
def test_art_4b_every_legal_simplified_hand_is_valid(case):
    result = scored(case)

    assert result.valid, [b.message for b in result.breaches]
    assert result.breaches == ()
    assert result.fan is not None


# --- 2. Moving one tile -----------------------------------------------------------------------


@st.composite
def moved_tile_jogos(draw):
    """A legal jogo with one tile of the hand replaced by another kind, removed, or added."""
    case = draw(won_jogos())
    hand = case.hand
    concealed = list(hand.concealed)
    winning = hand.winning
    melds = [list(tiles) for _, tiles, _ in hand.melds]
    ops = ["replace", "add"] + (["remove"] if concealed else []) + (["replace_in_meld"] if melds else [])
    op = pick(draw, ops)
    if op == "replace":
        index = draw(_index(len(concealed) + 1))  # len(concealed): the winning tile
        old = winning if index == len(concealed) else concealed[index]
        kind = pick(draw, [k for k in range(34) if k != old])
        if index == len(concealed):
            winning = kind
        else:
            concealed[index] = kind
    elif op == "remove":
        concealed.pop(draw(_index(len(concealed))))
    elif op == "add":
        concealed.append(draw(_index(34)))
    else:
        meld = pick(draw, melds)
        index = draw(_index(len(meld)))
        meld[index] = pick(draw, [k for k in range(34) if k != meld[index]])
    record = copy.deepcopy(case.record)
    record["hand"]["concealed"] = notation(concealed)
    record["hand"]["winning_tile"] = notation([winning])
    if melds:
        for field, tiles in zip(record["hand"]["melds"], melds):
            field["tiles"] = notation(tiles)
    all_tiles = concealed + [winning] + [t for meld in melds for t in meld]
    return case, record, op, all_tiles


@given(moved_tile_jogos())
def test_art_4_moving_one_tile_keeps_the_hand_valid_or_names_the_article(moved):
    case, record, op, all_tiles = moved
    try:
        result = score(read_record(record))
    except MalformedRecord:
        return

    if result.valid:
        assert_money_conserved(result)
        assert all(p.payee == case.winner for p in result.settlement.payments)
    else:
        assert_breaches_name_their_article(result)
    # A winning hand holds exactly its tiles, never a fifth copy, only its variant's kinds.
    if op in ("add", "remove"):
        assert not result.valid
    if max(all_tiles.count(t) for t in all_tiles) > 4:
        assert not result.valid  # Art. 2
    if case.variant == SIMPLIFIED and not set(all_tiles) <= SIMPLIFIED_KINDS:
        assert not result.valid  # Art. 2(b)


@given(st.sampled_from((CONVENTIONAL, SIMPLIFIED)).flatmap(lambda variant: won_jogos(variant=variant, crowded=True)))
def test_art_2_a_hand_of_sets_with_a_fifth_copy_of_a_kind_is_refused(case):
    result = scored(case)
    tiles = case.hand.tiles
    fifth = max(tiles.count(t) for t in tiles) > 4

    assert result.valid is not fifth, [b.message for b in result.breaches]
    if fifth:
        assert_breaches_name_their_article(result)
        assert any(b.article == ("2(a)" if case.variant == CONVENTIONAL else "2(b)") for b in result.breaches)


@st.composite
def corrupted_jogos(draw):
    """A legal won jogo with one thing recorded that cannot be (RULES.md §7): a condition that does
    not fit the win, conduct that bars the win, a stake off the tiers, a seat nobody sits in."""
    case = draw(won_jogos())
    record = copy.deepcopy(case.record)
    kongs = sum(1 for kind, _, _ in case.hand.melds if kind == "kong")
    closed = not case.hand.melds
    conditions = case.conditions
    corruptions = []
    if case.discarder is not None or kongs < 1:
        corruptions.append(("condition", "kong_replacement"))  # Art. 6(a)(2): self-drawn, with a kong
    if case.discarder is not None or kongs < 2:
        corruptions.append(("condition", "kong_upon_kong"))  # Art. 6(a)(3): self-drawn, two kongs
    if case.discarder is None:
        corruptions.append(("condition", "robbing_kong"))  # won on another player's kong tile
    if case.winner != BANKER or case.discarder is not None or not closed or conditions - {"heavenly"}:
        corruptions.append(("condition", "heavenly"))  # Art. 5(a)(1): the banker's dealt tiles only
    if case.winner == BANKER or case.discarder != BANKER or not closed or conditions - {"earthly"}:
        corruptions.append(("condition", "earthly"))  # Art. 5(a)(2): on the banker's first discard
    if case.variant == CONVENTIONAL:
        corruptions.append(("conduct", {"seat": case.winner, "kind": "declined_pong"}))  # Art. 9(a)(2)
    else:
        corruptions.append(("conduct", {"seat": BANKER, "kind": "declined_pong"}))  # Art. 5(b)(3): no pong
    if kongs:
        corruptions.append(("conduct", {"seat": case.winner, "kind": "saw_tiles"}))  # Art. 9(a)(3)
    corruptions.append(("stake", pick(draw, [x for x in (1, 25, 75, 100, 150, 30_000, 40_000)
                                              if x not in COMMISSION[case.variant]])))  # Art. 8
    corruptions += [("capital", seat) for seat in SEATS if seat not in case.seats]  # Art. 3(b): not seated
    if case.variant == SIMPLIFIED:
        corruptions.append(("tile", pick(draw, sorted(HONOURS - {GREEN}))))  # Art. 2(b)
    what, value = pick(draw, corruptions)
    if what == "condition":
        record["conditions"] = sorted(set(record.get("conditions") or []) | {value})
    elif what == "conduct":
        record["conduct"] = [c for c in record.get("conduct") or [] if c["seat"] != value["seat"]] + [value]
    elif what == "stake":
        record["stake"] = value
    elif what == "capital":
        record["winner" if draw(COIN) else "discarder"] = value
    else:
        record["hand"]["concealed"] = notation(case.hand.concealed[1:] + (value,))
    return case, record, what


@given(corrupted_jogos())
def test_a_jogo_recording_what_cannot_happen_is_refused_with_its_article(corrupted):
    case, record, what = corrupted
    result = score(read_record(record))

    assert not result.valid, (what, record)
    assert_breaches_name_their_article(result)


# --- 3. Money is conserved ---------------------------------------------------------------------


@given(any_jogos)
def test_money_is_conserved_on_wins_false_wins_and_draws(case):
    result = scored(case)

    assert result.valid, [b.message for b in result.breaches]
    assert_money_conserved(result)


# --- 4. The banker's ratio ----------------------------------------------------------------------


@given(won_jogos(capitals=ample_capitals, pay_all="never"))
def test_art_7_banker_pays_and_receives_double(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    share = case.stake * 2**result.fan  # I-6
    paid = paid_by(result)
    losers = [s for s in case.seats if s != case.winner]

    assert set(paid) == set(losers)
    if case.winner == BANKER:
        assert all(paid[seat] == 2 * share for seat in losers)
    else:
        assert paid[BANKER] == 2 * share
        for seat in losers:
            if seat != BANKER:
                assert paid[seat] == share
                assert paid[BANKER] == 2 * paid[seat]
    if len(case.seats) == 4:  # Art. 7: the winner's gross is 4 shares, the banker's 6
        assert sum(paid.values()) == (6 if case.winner == BANKER else 4) * share
    assert result.settlement.capped is False


# --- 5. The cap ---------------------------------------------------------------------------------


@given(won_jogos())
def test_art_9a4_winner_never_receives_more_than_his_capital(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    dues = uncapped_dues(case, result.fan)
    total = sum(dues.values())
    cap = case.capital[case.winner]
    paid = paid_by(result)
    receipts = sum(p.amount for p in result.settlement.payments if p.payee == case.winner)

    assert receipts <= cap
    assert receipts == min(cap, total)
    if case.pay_all:  # I-9: the liable seat's due is every loser's due
        dues = {seat: (total if seat == case.pay_all else 0) for seat in dues}
    for seat, amount in paid.items():
        assert 0 < amount <= dues[seat]


@given(won_jogos(capitals=small_capitals, pay_all="never"))
def test_i7_a_binding_cap_is_shared_pro_rata_by_largest_remainder(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    dues = uncapped_dues(case, result.fan)
    total = sum(dues.values())
    cap = case.capital[case.winner]
    assume(total > cap)
    order = turn_after(case.winner, case.seats)  # ties go to the earlier seat after the winner
    exact = {seat: Fraction(dues[seat] * cap, total) for seat in order}
    expected = {seat: floor(exact[seat]) for seat in order}
    leftover = cap - sum(expected.values())
    for seat in sorted(order, key=lambda s: (-(exact[s] - floor(exact[s])), order.index(s)))[:leftover]:
        expected[seat] += 1

    assert {seat: paid_by(result).get(seat, 0) for seat in order} == expected
    assert result.settlement.capped is True


@given(won_jogos(pay_all="prefer"))
def test_art_10_i9_pay_all_liable_seat_pays_every_share_up_to_the_cap(case):
    assume(case.pay_all is not None)
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    total = sum(uncapped_dues(case, result.fan).values())
    expected = min(total, case.capital[case.winner])

    assert paid_by(result) == ({case.pay_all: expected} if expected else {})


# --- 6. Commission ------------------------------------------------------------------------------


@given(any_jogos)
def test_art_8_commission_only_on_a_won_jogo_at_its_tier(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]

    if case.record["result"] == "win":
        received = sum(p.amount for p in result.settlement.payments)
        # I-8: taken from what the winner receives, so never more than that.
        assert result.settlement.commission == min(COMMISSION[case.variant][case.stake], received)
        assert result.settlement.net[case.winner] >= 0
    else:
        assert result.settlement.commission == 0


def test_art_8_the_rule_set_holds_the_regulations_tiers():
    for variant, table in COMMISSION.items():
        assert tuple(CURRENT.tiers(variant)) == tuple(table)
        assert {stake: CURRENT.commission_for(variant, stake) for stake in table} == table


# --- 7. The grade ------------------------------------------------------------------------------


@given(won_jogos())
def test_i5_grade_is_the_capped_combination_of_the_listed_items(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    items = result.as_dict()["items"]
    table = ITEMS[case.variant]

    for item in items:
        assert item["code"] in table, item
        assert (item["fan"], item["article"]) == table[item["code"]], item
    assert 0 <= result.fan <= MAX_FAN[case.variant]
    if case.fan_combination == "additive":
        raw = sum(item["fan"] for item in items)
    else:
        raw = max((i["fan"] for i in items if i["code"] not in BONUS_ITEMS), default=0) \
            + sum(1 for i in items if i["code"] in BONUS_ITEMS)
    assert result.fan == min(raw, MAX_FAN[case.variant])


@given(won_jogos(variant=SIMPLIFIED))
def test_art_6b2_simplified_items_are_robbing_last_tile_and_green(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    expected = [code for code in ("robbing_kong", "last_tile") if code in case.conditions]
    if case.hand.winning == GREEN and "heavenly" not in case.conditions:  # I-13
        expected.append("green_winning_tile")

    assert sorted(i["code"] for i in result.as_dict()["items"]) == sorted(expected)
    assert result.fan == min(1, len(expected))


@given(won_jogos(variant=CONVENTIONAL))
def test_art_6a_situational_items_follow_the_conditions(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    codes = [i["code"] for i in result.as_dict()["items"]]
    conditions = case.conditions

    for code in ("heavenly", "earthly", "robbing_kong", "last_tile", "kong_upon_kong"):
        assert codes.count(code) == (code in conditions), code
    # kong upon kong scores instead of the kong replacement
    assert codes.count("kong_replacement") == ("kong_replacement" in conditions and "kong_upon_kong" not in conditions)


@given(won_jogos(variant=CONVENTIONAL))
def test_art_6a_honour_sets_and_suits_score_their_items(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    codes = [i["code"] for i in result.as_dict()["items"]]
    tiles = case.hand.tiles
    if case.hand.orphans:
        assert "thirteen_orphans" in codes
        return
    assert "thirteen_orphans" not in codes
    dragon_sets = [d for d in sorted(DRAGONS) if tiles.count(d) >= 3]
    wind_sets = [w for w in sorted(WINDS) if tiles.count(w) >= 3]
    pair = case.hand.pair
    all_honours = all(t in HONOURS for t in tiles)
    suits = {t // 9 for t in tiles if t < 27}
    has_honours = any(t in HONOURS for t in tiles)
    seat_wind, round_wind = WIND_TILE[case.winner], WIND_TILE[case.round_wind]

    big_three, big_four = len(dragon_sets) == 3, len(wind_sets) == 4
    assert codes.count("big_three_dragons") == big_three
    assert codes.count("big_four_winds") == big_four
    assert codes.count("small_three_dragons") == (len(dragon_sets) == 2 and pair in DRAGONS)
    assert codes.count("small_four_winds") == (len(wind_sets) == 3 and pair in WINDS)
    assert codes.count("dragon_set") == (0 if big_three or all_honours else len(dragon_sets))
    expected_winds = {"double_wind_set": 0, "round_wind_set": 0, "seat_wind_set": 0}
    if not (big_four or all_honours):
        for wind in wind_sets:
            if wind == round_wind == seat_wind:
                expected_winds["double_wind_set"] += 1
            elif wind == round_wind:
                expected_winds["round_wind_set"] += 1
            elif wind == seat_wind:
                expected_winds["seat_wind_set"] += 1
    assert {code: codes.count(code) for code in expected_winds} == expected_winds
    assert codes.count("all_honours") == all_honours
    assert codes.count("pure_one_suit") == (len(suits) == 1 and not has_honours)
    # I-11: mixed one suit needs honours worth no fán: no dragon set, no seat- or round-wind set;
    # I-18: nor honours that together make small four winds.
    valued_honour_sets = dragon_sets or [w for w in wind_sets if w in (seat_wind, round_wind)] or (
        len(wind_sets) == 3 and pair in WINDS)
    assert codes.count("mixed_one_suit") + codes.count("mixed_one_suit_all_chows") == (
        len(suits) == 1 and has_honours and not valued_honour_sets)
    assert codes.count("pure_terminals") == all(t in TERMINALS for t in tiles)
    only_terminals_honours = all(t in TERMINALS | HONOURS for t in tiles)
    assert codes.count("terminals_and_honours") == (only_terminals_honours and has_honours and bool(suits))


# --- 8. The output ------------------------------------------------------------------------------


def _floats_in(value) -> list:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in _floats_in(v)]
    if isinstance(value, list):
        return [f for v in value for f in _floats_in(v)]
    return []


@given(won_jogos())
def test_output_of_a_valid_win_pays_only_the_winner_in_whole_units(case):
    output = score(read_record(copy.deepcopy(case.record))).as_dict()
    assert output["valid"] is True

    assert output["errors"] == []
    payers = [p["from"] for p in output["payments"]]
    assert len(payers) == len(set(payers))
    for payment in output["payments"]:
        assert payment["to"] == case.winner
        assert payment["from"] in case.seats and payment["from"] != case.winner
        assert type(payment["amount"]) is int and payment["amount"] > 0
    assert type(output["commission"]) is int
    assert set(output["net"]) == set(case.seats)
    assert all(type(amount) is int for amount in output["net"].values())
    assert type(output["fan"]) is int
    assert _floats_in(output) == []
    assert json.loads(json.dumps(output)) == output
    declared = case.record.get("declared_fan")
    assert output["fan_mismatch"] is (declared is not None and declared != output["fan"])


@given(any_jogos)
def test_art_3_i1_the_bank_passes_only_when_another_player_wins(case):
    output = scored(case).as_dict()

    assert output["next"]["banker_moves"] is (case.record["result"] == "win" and case.winner != BANKER)


# --- I-10. False wins ---------------------------------------------------------------------------


@given(void_jogos("false_win"))
def test_art_10_i10_false_win_compensates_every_other_player(case):
    result = scored(case)
    assert result.valid, [b.message for b in result.breaches]
    with_banker, between_others = FALSE_WIN_FAN[case.variant]
    expected = {seat: case.stake * 2 ** (with_banker if BANKER in (seat, case.offender) else between_others)
                for seat in case.seats if seat != case.offender}
    received = {p.payee: p.amount for p in result.settlement.payments}

    assert all(p.payer == case.offender for p in result.settlement.payments)
    assert received == expected
    assert result.fan is None


# --- 9. Junk never crashes ----------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
tile_texts = st.one_of(st.text(alphabet="0123456789mpszMZ \t-x", max_size=24), st.text(max_size=24))
RECORD_FIELDS = ("variant", "stake", "round_wind", "capital", "result", "winner", "discarder", "hand",
                 "conditions", "declared_fan", "conduct", "claimants", "pay_all", "false_win", "rules")
junk_objects = st.dictionaries(st.one_of(st.sampled_from(RECORD_FIELDS), st.text(max_size=8)), json_values, max_size=8)


@st.composite
def junk_records(draw):
    """Any JSON-like value; an object of record fields holding anything; a legal record with one
    field (or one field of its hand, capital, pay-all or offender) replaced by anything; or a legal
    record with a tile field replaced by a random string."""
    how = pick(draw, ["any", "fields", "one_field", "tile_field"])
    if how == "any":
        return draw(json_values)
    if how == "fields":
        return draw(junk_objects)
    record = copy.deepcopy(draw(any_jogos).record)
    if how == "one_field":
        target = record
        path = pick(draw, list(record))
        if path in ("hand", "capital", "pay_all", "false_win") and isinstance(record[path], dict) and draw(COIN):
            target = record[path]
            path = pick(draw, list(target) or [""])
        target[path] = draw(json_values)
        return record
    if "hand" not in record:
        record["hand"] = {"concealed": "", "winning_tile": "1m"}
    hand = record["hand"]
    fields = ["concealed", "winning_tile"] + [f"melds[{i}]" for i in range(len(hand.get("melds", [])))]
    field = pick(draw, fields)
    if field.startswith("melds"):
        hand["melds"][int(field[6:-1])]["tiles"] = draw(tile_texts)
    else:
        hand[field] = draw(tile_texts)
    return record


@given(junk_records())
def test_junk_is_refused_as_malformed_or_scored_never_crashes(junk):
    try:
        jogo = read_record(junk)
    except MalformedRecord as error:
        assert str(error)
        return
    result = score(jogo)
    if not result.valid:
        assert_breaches_name_their_article(result)
    json.dumps(result.as_dict())


# Amounts may be written as decimal strings ("5000", "90.00", JOGO-FORMAT.md). Strings that only
# look like numbers (signs, exponents, spaces, long fractions) must be refused as malformed, never
# crash: "1e4300" once raised a bare ValueError (int max str digits) and "1e999999" took ~30 s.
amount_texts = st.builds(
    lambda sign, digits, fraction, exponent, pad: f"{pad}{sign}{digits}{fraction}{exponent}{pad}",
    st.sampled_from(["", "", "-", "+"]),
    st.integers(0, 10**15).map(str),
    st.sampled_from(["", "", ".00", ".5", ".000", "."]),
    st.one_of(st.just(""), st.integers(0, 9_999).map(lambda e: f"e{e}"), st.integers(0, 99).map(lambda e: f"E-{e}")),
    st.sampled_from(["", "", " "]),
)


@given(field=st.sampled_from(["stake", "capital"]), text=amount_texts)
@example(field="stake", text="1e4300")
@example(field="capital", text="1e999999")
def test_amounts_written_as_strings_are_read_whole_or_refused_as_malformed(field, text):
    record = {"variant": CONVENTIONAL, "stake": 25, "round_wind": "E",
              "capital": {seat: 1000 for seat in SEATS}, "result": "draw"}
    if field == "stake":
        record["stake"] = text
    else:
        record["capital"]["S"] = text
    try:
        jogo = read_record(record)
    except MalformedRecord as error:
        assert str(error)
        return
    amount = jogo.stake if field == "stake" else jogo.capital["S"]
    assert type(amount) is int
    assert Decimal(amount) == Decimal(text.strip())  # a whole number of units, read exactly
    assert (1 if field == "stake" else 0) <= amount <= 10**12


def test_an_amount_string_above_the_largest_allowed_is_malformed():
    record = {"variant": CONVENTIONAL, "stake": "1000000000001", "round_wind": "E",
              "capital": {seat: 1000 for seat in SEATS}, "result": "draw"}
    with pytest.raises(MalformedRecord, match="above the most allowed"):
        read_record(record)
