"""Grades in fán (Art. 6; docs/rules.md §4).

A valid hand scores the items of Art. 6(a)(2)–(3) (conventional) or 6(b)(2) (simplified);
a hand with none is a chicken hand («kai vu», 雞糊), grade 0. The items combine into the grade
by the rule set's reading (I-5) and the grade is capped at the variant's maximum.
"""
from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter

from .hands import CHOW, Shape, TileSet, kinds_held
from .items import Item
from .rules import ADDITIVE, RuleSet
from .tiles import CONVENTIONAL, DRAGONS, GREEN_DRAGON, HONOURS, WINDS
from .values import Value


class Grade(Value, frozen=True):
    fan: int
    raw: int
    items: tuple[Item, ...]
    shape: Shape


class WinContext(Value, frozen=True):
    """What grading needs besides the reading of the hand: who won, where and how, and what
    every tile of the hand shows (the same for every reading)."""

    variant: str
    seat_wind: int
    round_wind: int
    self_drawn: bool
    winning_tile: int
    conditions: frozenset[str]
    numbered_suits: int  # how many of the three suits the hand holds
    has_honours: bool
    terminals_honours_only: bool  # every tile a 1, a 9, a dragon or a wind


def win_context(variant: str, seat_wind: int, round_wind: int, self_drawn: bool, winning_tile: int,
                conditions: frozenset[str], counts: int) -> WinContext:
    """`counts`: of every tile of the hand by kind, melds included (tiles.py)."""
    numbered_suits, has_honours, terminals_honours_only = kinds_held(counts)
    return WinContext(variant, seat_wind, round_wind, self_drawn, winning_tile, conditions,
                      numbered_suits, has_honours, terminals_honours_only)


def conventional_items(shape: Shape, ctx: WinContext, rules: RuleSet) -> list[str]:
    """Art. 6(a)(2)–(3): every item one reading of the hand scores. Items are found as the
    article defines them; then those the rule set says another scores instead of are dropped
    (RuleSet.instead_of)."""
    codes = _situational(ctx, rules) if ctx.conditions else []
    if shape.thirteen_orphans:
        codes.append("thirteen_orphans")
        return codes
    readings = rules.readings
    sets, pair = shape.sets, shape.pair
    has_honours = ctx.has_honours
    numbered_suits = ctx.numbered_suits
    all_honours = numbered_suits == 0
    pure_one_suit = numbered_suits == 1 and not has_honours
    mixed_one_suit = numbered_suits == 1 and has_honours
    only_terminals_honours = ctx.terminals_honours_only  # then no reading has a chow
    chows = 0
    dragon_sets: list[int] = []
    wind_sets: list[int] = []
    for tile_set in sets:
        if tile_set.kind == CHOW:
            chows += 1
        elif tile_set.tile in HONOURS:
            (dragon_sets if tile_set.tile in DRAGONS else wind_sets).append(tile_set.tile)
    pongs = len(sets) - chows
    honours_worth_fan = False
    if dragon_sets or wind_sets:
        # §8.4: the Portuguese counts any dragon or wind set; the Chinese only those ponged out or
        # konged (碰出或槓).
        valued_dragons, valued_winds = dragon_sets, wind_sets
        if readings["§8.4"] == "chinese":
            valued_dragons = [s.tile for s in sets if s.tile in DRAGONS and _ponged_out(s, ctx)]
            valued_winds = [s.tile for s in sets if s.tile in WINDS and _ponged_out(s, ctx)]
        if valued_dragons:
            codes += ["dragon_set"] * len(valued_dragons)
            honours_worth_fan = True
        round_wind, seat_wind = ctx.round_wind, ctx.seat_wind
        for wind in valued_winds:
            if wind == round_wind:
                codes.append("round_wind_set")
                honours_worth_fan = True
            if wind == seat_wind:
                codes.append("seat_wind_set")
                honours_worth_fan = True
            if wind == round_wind == seat_wind:
                codes.append("double_wind_set")
        combination = False
        if len(valued_dragons) == 3:
            codes.append("big_three_dragons")
        elif len(dragon_sets) == 2 and pair in DRAGONS:
            codes.append("small_three_dragons")
            combination = True
        if len(valued_winds) == 4:
            codes.append("big_four_winds")
            honours_worth_fan = True
        elif len(wind_sets) == 3 and pair in WINDS:
            codes.append("small_four_winds")
            combination = True
        if combination and readings["I-18"] == "honours_together":
            # I-18: honours that score together are worth fán, though no set of them scores alone
            # (three sets of winds neither the seat's nor the round's; under the Chinese §8.4, two
            # concealed dragon sets).
            honours_worth_fan = True

    if not chows:
        codes.append("all_pongs")
        if readings["I-4"] == "portuguese":
            concealed = ctx.self_drawn and all(not s.declared for s in sets)  # no discard, no kong
        else:
            concealed = all(not s.exposed for s in sets)  # 不碰牌落地: nothing exposed
        if concealed:
            codes.append("concealed_pongs")
    if not pongs:
        valued_pair = pair in DRAGONS or pair == ctx.round_wind or pair == ctx.seat_wind
        if not valued_pair:
            codes.append("all_chows")  # I-3: a valued pair leaves a chicken hand
            if mixed_one_suit and pair in WINDS:
                codes.append("mixed_one_suit_all_chows")
    if pure_one_suit:
        codes.append("pure_one_suit")
    elif mixed_one_suit and not (honours_worth_fan and readings["I-11"] == "honours_worth_no_fan"):
        # I-11: «sem valerem fán ou fán dobrado» (無番之門風牌): with a dragon set or a seat- or
        # round-wind set that scores, the hand has only that item; an honour pair is fine. I-18:
        # so with honours that make small four winds or small three dragons.
        codes.append("mixed_one_suit")
    if only_terminals_honours and not has_honours:
        codes.append("pure_terminals")
    elif has_honours and not all_honours and (
            only_terminals_honours if readings["§8.6"] == "portuguese" else _related_to_terminals(shape)):
        codes.append("terminals_and_honours")
    if all_honours:
        codes.append("all_honours")
    return _instead(codes, rules.instead_of) if len(codes) > 1 else codes


def _ponged_out(tile_set: TileSet, ctx: WinContext) -> bool:
    """§8.4, the Chinese 碰出或槓: a declared meld, or the pong the winner completed by claiming
    the discarded winning tile (which he lays open as he wins)."""
    return tile_set.declared or (not ctx.self_drawn and tile_set.tile == ctx.winning_tile)


def _related_to_terminals(shape: Shape) -> bool:
    """§8.6, the Chinese 混么: every set and the pair holds a 1, a 9 or an honour (有關連)."""
    return _terminal_or_honour(shape.pair) and all(
        tile_set.tile % 9 in (0, 6) if tile_set.kind == CHOW else _terminal_or_honour(tile_set.tile)
        for tile_set in shape.sets)


def _terminal_or_honour(tile: int) -> bool:
    return tile >= 27 or tile % 9 in (0, 8)


def _instead(codes: list[str], instead_of: Mapping[str, frozenset[str]]) -> list[str]:
    """Drop the items another item of `codes` scores instead of."""
    replaced: set[str] = set()
    for code in codes:
        if code in instead_of:
            replaced |= instead_of[code]
    return [code for code in codes if code not in replaced] if replaced else codes


def _situational(ctx: WinContext, rules: RuleSet) -> list[str]:
    conditions = ctx.conditions
    codes: list[str] = [c for c in ("heavenly", "earthly", "robbing_kong", "kong_replacement", "kong_upon_kong")
                        if c in conditions]
    if "last_tile" in conditions and _scores_last_tile(ctx, rules):
        codes.append("last_tile")
    return codes


def _scores_last_tile(ctx: WinContext, rules: RuleSet) -> bool:
    """§8.2: the Portuguese «a última pedra da jogada», drawn or discarded; the Chinese 摸, drawn."""
    return ctx.self_drawn or rules.readings["§8.2"] == "portuguese"


def simplified_items(ctx: WinContext, rules: RuleSet) -> list[str]:
    """Art. 6(b)(2); heavenly and earthly wins carry no fán in the simplified game.

    I-13: a heavenly win (Art. 5(b)(1)) has no winning tile of its own (the banker's dealt tiles
    already win), so it never scores `green_winning_tile`, whichever tile the record names."""
    conditions = ctx.conditions
    codes = []
    if conditions:
        codes = [c for c in ("robbing_kong",) if c in conditions]
        if "last_tile" in conditions and _scores_last_tile(ctx, rules):
            codes.append("last_tile")
    if ctx.winning_tile == GREEN_DRAGON and not (
            conditions and "heavenly" in conditions and rules.readings["I-13"] == "no_winning_tile"):
        codes.append("green_winning_tile")
    return codes


_FAN = attrgetter("fan")


def combine(items: tuple[Item, ...], rules: RuleSet, variant: str) -> tuple[int, int]:
    """I-5: the grade (capped) and the uncapped figure the reading gives."""
    if not items:
        return 0, 0  # a chicken hand («kai vu»), whatever the reading
    if rules.readings["I-5"] == ADDITIVE:
        raw = sum(map(_FAN, items))
    else:  # highest_plus_bonus
        bonus = sum(1 for item in items if item.code in rules.bonus_items)
        raw = max((item.fan for item in items if item.code not in rules.bonus_items), default=0) + bonus
    return min(raw, rules.max_fan[variant]), raw


def grade(shapes: list[Shape], ctx: WinContext, rules: RuleSet) -> Grade:
    """The best reading of the hand: highest capped grade, then highest uncapped figure."""
    scored = rules.scored_items[ctx.variant]
    best: Grade | None = None
    for shape in shapes:
        codes = conventional_items(shape, ctx, rules) if ctx.variant == CONVENTIONAL else simplified_items(ctx, rules)
        # An item this rule set does not score is None, and left out.
        items = tuple(filter(None, map(scored.get, codes))) if codes else ()
        fan, raw = combine(items, rules, ctx.variant) if items else (0, 0)  # (0, 0): a chicken hand
        if best is None or (fan, raw) > (best.fan, best.raw):
            best = Grade(fan, raw, items, shape)
    assert best is not None, "grade() needs at least one reading of the hand"
    return best
