"""Grades in fán (Art. 6; RULES.md §4).

A valid hand scores the items of Art. 6(a)(2)–(3) (conventional) or 6(b)(2) (simplified);
a hand with none is a chicken hand («kai vu», 雞糊), grade 0. The items combine into the grade
by the rule set's reading (I-5) and the grade is capped at the variant's maximum.
"""
from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter

from .hands import CHOW, Shape, holds_honours, only_terminals_and_honours, suits_held
from .rules import ADDITIVE, RuleSet
from .tiles import CONVENTIONAL, DRAGONS, GREEN_DRAGON, SIMPLIFIED, WINDS
from .values import Value


class Item(Value):
    code: str
    fan: int
    article: str


@dataclass(frozen=True)
class ItemDefinition:
    code: str
    fan: int
    article: str
    pt: str
    zh: str
    en: str


def _define(rows) -> dict[str, ItemDefinition]:
    return {row[0]: ItemDefinition(*row) for row in rows}


# Art. 6(a): the conventional items, in the order of the regulation.
CONVENTIONAL_ITEMS = _define([
    ("dragon_set", 1, "6(a)(2)", "conjunto de trunfo", "番子", "dragon set"),
    ("round_wind_set", 1, "6(a)(2)", "conjunto de vento da roda", "圈風", "round wind set"),
    ("seat_wind_set", 1, "6(a)(2)", "conjunto de vento do lugar", "門風", "seat wind set"),
    ("robbing_kong", 1, "6(a)(2)", "aproveitamento da pedra dum «kóng» («ch'éong kóng»)", "搶槓", "robbing a kong"),
    ("kong_replacement", 1, "6(a)(2)", "ganho derivado dum «kóng» («kóng seong fá»)", "槓上花", "win on a kong replacement"),
    ("all_pongs", 1, "6(a)(2)", "trios («tò-i-tò-i vu»)", "對對糊", "all pongs"),
    ("all_chows", 1, "6(a)(2)", "sequências e par («p'èng vu»)", "平糊", "all chows"),
    ("mixed_one_suit", 1, "6(a)(2)", "«wân iat sêk»", "混一色", "mixed one suit"),
    ("last_tile", 1, "6(a)(2)", "última pedra («hoi tai lau yuet»)", "海底撈月", "last tile"),
    ("small_three_dragons", 1, "6(a)(2)", "pedras trunfos («siu sam un»)", "小三元", "small three dragons"),
    ("small_four_winds", 1, "6(a)(2)", "pedras ventos («siu sei hei»)", "小四喜", "small four winds"),
    ("terminals_and_honours", 1, "6(a)(2)", "conjunto de 1, 9, trunfos ou ventos («fá iu-kau»)", "混么", "terminals and honours"),
    ("heavenly", 2, "6(a)(3)", "ganho natural («t'in vu»)", "天糊", "heavenly win"),
    ("earthly", 2, "6(a)(3)", "ganho não natural («tei vu»)", "地糊", "earthly win"),
    ("double_wind_set", 2, "6(a)(3)", "duplo «fán» («seong fán»)", "雙番門風", "double wind set"),
    ("kong_upon_kong", 2, "6(a)(3)", "«kóng» sucessivos («kóng seong kóng»)", "槓上槓", "kong upon kong"),
    ("mixed_one_suit_all_chows", 2, "6(a)(3)", "«p'èng vu» dum mesmo grupo («wân iat sêk p'èng vu»)", "混一色平糊", "mixed one suit, all chows"),
    ("pure_one_suit", 2, "6(a)(3)", "pedras dum mesmo grupo («ch'èng iat sêk»)", "清一色", "pure one suit"),
    ("thirteen_orphans", 2, "6(a)(3)", "treze chamadas («sap-sám iu»)", "十三么", "thirteen orphans"),
    ("concealed_pongs", 2, "6(a)(3)", "conjunto de trios fechados («kan-kan vu»)", "擱擱糊", "concealed pongs"),
    ("big_three_dragons", 2, "6(a)(3)", "conjuntos de trunfos («tai sam un»)", "大三元", "big three dragons"),
    ("big_four_winds", 2, "6(a)(3)", "conjuntos de ventos («tai sei hei»)", "大四喜", "big four winds"),
    ("pure_terminals", 2, "6(a)(3)", "conjunto de 1 e 9 («cheng iu»)", "清么", "pure terminals"),
    ("all_honours", 2, "6(a)(3)", "conjuntos de trunfos e ventos («chun chu»)", "全字", "all honours"),
])

# Art. 6(b)(2): the simplified items.
SIMPLIFIED_ITEMS = _define([
    ("robbing_kong", 1, "6(b)(2)", "aproveitamento da pedra dum «kóng»", "搶槓", "robbing a kong"),
    ("last_tile", 1, "6(b)(2)", "última pedra da jogada", "海底撈月", "last tile"),
    ("green_winning_tile", 1, "6(b)(2)", "ganho com a pedra trunfo «fát chói»", "發財", "won on the green dragon"),
])

ITEMS = {CONVENTIONAL: CONVENTIONAL_ITEMS, SIMPLIFIED: SIMPLIFIED_ITEMS}
_SCORED = {variant: {code: Item(d.code, d.fan, d.article) for code, d in items.items()}
           for variant, items in ITEMS.items()}
CHICKEN = {"pt": "jogo mínimo («kai vu»)", "zh": "雞糊", "en": "chicken hand"}


class Grade(Value):
    fan: int
    raw: int
    items: tuple[Item, ...]
    shape: Shape


class WinContext(Value):
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
                conditions: frozenset[str], packed: int) -> WinContext:
    """`packed`: the packed counts (tiles.pack) of every tile of the hand, melds included."""
    return WinContext(variant, seat_wind, round_wind, self_drawn, winning_tile, conditions,
                      suits_held(packed), holds_honours(packed), only_terminals_and_honours(packed))


def conventional_items(shape: Shape, ctx: WinContext) -> list[str]:
    """Art. 6(a)(2)–(3): every item one reading of the hand scores, with the replacements
    RULES.md §4 gives ("scores instead of")."""
    codes = _situational(ctx) if ctx.conditions else []
    if shape.thirteen_orphans:
        codes.append("thirteen_orphans")
        return codes
    sets, pair = shape.sets, shape.pair
    has_honours = ctx.has_honours
    all_honours = ctx.numbered_suits == 0
    pure_one_suit = ctx.numbered_suits == 1 and not has_honours
    mixed_one_suit = ctx.numbered_suits == 1 and has_honours
    only_terminals_honours = ctx.terminals_honours_only  # then no reading has a chow
    pure_terminals = only_terminals_honours and not has_honours
    chows = 0
    dragon_sets: list[int] = []
    wind_sets: list[int] = []
    for tile_set in sets:
        tile = tile_set.tile
        if tile_set.kind == CHOW:
            chows += 1
        elif tile in DRAGONS:
            dragon_sets.append(tile)
        elif tile in WINDS:
            wind_sets.append(tile)
    pongs = len(sets) - chows
    big_three = len(dragon_sets) == 3
    big_four = len(wind_sets) == 4

    if not (big_three or all_honours):
        codes += ["dragon_set"] * len(dragon_sets)
    valued_wind_set = False
    if not (big_four or all_honours):
        for wind in wind_sets:
            if wind == ctx.round_wind == ctx.seat_wind:
                codes.append("double_wind_set")
            elif wind == ctx.round_wind:
                codes.append("round_wind_set")
            elif wind == ctx.seat_wind:
                codes.append("seat_wind_set")
            else:
                continue
            valued_wind_set = True
    elif big_four:
        valued_wind_set = True  # four wind sets hold the seat wind's
    if big_three:
        codes.append("big_three_dragons")
    elif len(dragon_sets) == 2 and pair in DRAGONS:
        codes.append("small_three_dragons")
    if big_four:
        codes.append("big_four_winds")
    elif len(wind_sets) == 3 and pair in WINDS:
        codes.append("small_four_winds")

    if not chows:
        # I-4: the Portuguese text: concealed pongs only, self-drawn, no kong at all.
        concealed = ctx.self_drawn and all(not s.declared for s in sets)
        if concealed:
            codes.append("concealed_pongs")
        elif not (pure_terminals or all_honours):
            codes.append("all_pongs")
    mixed_all_chows = False
    if not pongs:
        valued_pair = pair in DRAGONS or pair == ctx.round_wind or pair == ctx.seat_wind
        mixed_all_chows = mixed_one_suit and pair in WINDS and not valued_pair
        if mixed_all_chows:
            codes.append("mixed_one_suit_all_chows")
        elif not valued_pair:
            codes.append("all_chows")  # I-3: a valued pair leaves it ungraded
    if pure_one_suit:
        codes.append("pure_one_suit")
    elif mixed_one_suit and not (mixed_all_chows or dragon_sets or valued_wind_set):
        # I-11: «sem valerem fán ou fán dobrado» (無番之門風牌): the honours must be worth no fán,
        # so a dragon set or a seat- or round-wind set leaves only its own item; a pair is fine.
        codes.append("mixed_one_suit")
    if pure_terminals:
        codes.append("pure_terminals")
    elif only_terminals_honours and not all_honours:
        codes.append("terminals_and_honours")
    if all_honours:
        codes.append("all_honours")
    return codes


def _situational(ctx: WinContext) -> list[str]:
    conditions = ctx.conditions
    if not conditions:
        return []
    codes = [c for c in ("heavenly", "earthly", "robbing_kong") if c in conditions]
    if "kong_upon_kong" in conditions:
        codes.append("kong_upon_kong")  # scores instead of kong_replacement
    elif "kong_replacement" in conditions:
        codes.append("kong_replacement")
    if "last_tile" in conditions:
        codes.append("last_tile")
    return codes


def simplified_items(ctx: WinContext) -> list[str]:
    """Art. 6(b)(2); heavenly and earthly wins carry no fán in the simplified game.

    I-13: a heavenly win (Art. 5(b)(1)) has no winning tile of its own (the banker's dealt tiles
    already win), so it never scores `green_winning_tile`, whichever tile the record names."""
    conditions = ctx.conditions
    codes = [c for c in ("robbing_kong", "last_tile") if c in conditions] if conditions else []
    if ctx.winning_tile == GREEN_DRAGON and not (conditions and "heavenly" in conditions):
        codes.append("green_winning_tile")
    return codes


_FAN = attrgetter("fan")


def combine(items: tuple[Item, ...], rules: RuleSet, variant: str) -> tuple[int, int]:
    """I-5: the grade (capped) and the uncapped figure the reading gives."""
    if not items:
        return 0, 0  # a chicken hand («kai vu»), whatever the reading
    if rules.fan_combination == ADDITIVE:
        raw = sum(map(_FAN, items))
    else:  # highest_plus_bonus
        bonus = sum(1 for item in items if item.code in rules.bonus_items)
        raw = max((item.fan for item in items if item.code not in rules.bonus_items), default=0) + bonus
    return min(raw, rules.max_fan[variant]), raw


def grade(shapes: list[Shape], ctx: WinContext, rules: RuleSet) -> Grade:
    """The best reading of the hand: highest capped grade, then highest uncapped figure."""
    scored = _SCORED[ctx.variant]
    best: Grade | None = None
    for shape in shapes:
        codes = conventional_items(shape, ctx) if ctx.variant == CONVENTIONAL else simplified_items(ctx)
        items = tuple(map(scored.__getitem__, codes)) if codes else ()
        fan, raw = combine(items, rules, ctx.variant)
        if best is None or (fan, raw) > (best.fan, best.raw):
            best = Grade(fan, raw, items, shape)
    assert best is not None, "grade() needs at least one reading of the hand"
    return best
