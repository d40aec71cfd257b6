"""Hypothesis strategies shared by the tests: piles of tiles, and legal won jogos, draws and false
wins built from the rules themselves (docs/rules.md), never from the engine's own helpers.

Tile kinds are ints in the notation's order (docs/rules.md §1): 0–8 = 1m–9m, 9–17 = 1p–9p,
18–26 = 1s–9s, 27–33 = 1z–7z (East, South, West, North, white, green, red).
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from hypothesis import strategies as st

TILE_KINDS = st.integers(0, 33)


@st.composite
def tile_piles(draw: st.DrawFn, max_size: int = 24) -> list[int]:
    """Up to `max_size` tiles, drawn a kind at a time with one to six copies from a few kinds
    chosen first, so that piles of one suit, of honours only, of terminals, holding a kind four
    or five times, or of more than 20 tiles all come up often."""
    kinds = sorted(draw(st.sets(TILE_KINDS, min_size=1, max_size=6)))
    tiles: list[int] = []
    for kind, copies in draw(st.lists(st.tuples(st.sampled_from(kinds), st.integers(1, 6)), max_size=10)):
        tiles += [kind] * copies
    return tiles[:max_size]


# --- The regulation's figures the strategies need, restated from docs/rules.md (not read from the
# engine) ---------------------------------------------------------------------------------------

CONVENTIONAL, SIMPLIFIED = "conventional", "simplified"
SEATS = ("E", "S", "W", "N")  # Art. 3: turn order, the banker East
BANKER = "E"

# Art. 8: stake X of the tier X/2X -> the commission per won jogo.
COMMISSION = {
    CONVENTIONAL: {25: 10, 50: 20, 100: 40, 200: 80, 300: 120, 500: 200, 1_000: 400,
                   2_000: 800, 3_000: 1_200, 5_000: 2_000, 10_000: 4_000},
    SIMPLIFIED: {100: 20, 200: 40, 300: 60, 500: 100, 1_000: 200, 2_000: 400, 3_000: 600,
                 5_000: 1_000, 10_000: 2_000, 20_000: 4_000, 30_000: 6_000},
}


# Art. 2: tiles 0–8 m, 9–17 p, 18–26 s, 27–33 z (E S W N white green red).
WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
HONOURS = WINDS | DRAGONS
GREEN = 32
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
SIMPLIFIED_KINDS = frozenset(range(27)) | {GREEN}
CHOW_STARTS = tuple(t for t in range(27) if t % 9 <= 6)


def notation(tiles, *, spaced: bool = False) -> str:
    """`123m55z`: the notation of docs/rules.md §1, written here independently of the engine."""
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
    """Whole currency units as docs/record-format.md allows: mostly an integer, sometimes a decimal string."""
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
    """Art. 10 triggers the hand and the win can show (docs/rules.md §6), exemptions excluded."""
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
            record["winner"] = offender  # docs/record-format.md: only the offender may be named
    return Case(record, variant, seats, stake, capital, record["round_wind"], None, None, None,
                frozenset(), None, "additive", offender)


any_jogos = st.one_of(won_jogos(), void_jogos("draw"), void_jogos("false_win"))
