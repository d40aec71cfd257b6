"""The English rules booklet "Mah Jong Rules - 麻雀牌 - 麻将牌玩法".

Score Tables A and B (Section VII), the basal 10 (Section VI 3), flowers (Section X), extra
and additional scores (Section XI), the doubles of Section IX (whose table is missing from the
booklet and is rebuilt from Figs. 13–17, E-A1), the 300 limit (Section VI 3–4).
"""
from __future__ import annotations

from ..errors import gettext_noop
from ..rules import frozen
from ..tiles import DRAGONS, WINDS
from .base import (
    BookRuleSet,
    Item,
    LimitHand,
    Seated,
    Valuation,
    flower_items,
    one_suit,
    set_item,
    set_points,
    wind_tile,
)
from .readings import ENGLISH, defaults
from .shapes import Shape

RULES = BookRuleSet(ENGLISH, 1, gettext_noop("Mah Jong Rules, the English booklet"),
                    frozen(defaults(ENGLISH)), limit=300, banker_limit=300)

TABLE = "Section VII, Score Tables A and B"
BASAL = 10  # Section VI 3: "the Basal points (10 Points)"
DOUBLING = "Section IX (rebuilt, E-A1)"
FLOWERS = "Section X"
EXTRA = "Section XI A"
ADDITIONAL = "Section XI B"
LIMIT = "Section VI 4"
# Object of the game, 3: "Any player who has Kong (either Open or Close) must draw one card more from the
# 'Loose Cards' … (4 of a kind is to be treated as a set of threes)". Four of a kind among 13 tiles, no
# loose card drawn, was never declared a kong.
KONGS_IN_HAND = False
UNDECLARED_KONG = gettext_noop(
    "four {tile} are among the winner's concealed tiles, and his tiles make no complete hand. A kong is declared, "
    "counts as three tiles and a loose card is drawn for it (Object of the game, 3): write the kong among the "
    "melds (a concealed kong when it was made in hand), and the card drawn for it among the concealed tiles")


def seat_numbers(rules: BookRuleSet) -> dict[str, int]:
    return {"E": 1, "S": 2, "W": 3, "N": 4}  # "the South gets Summer or Orchid, the West gets Autumn…"


def discard_pong_exposed(rules: BookRuleSet) -> bool:
    return rules.reading("E-A6") == "on_table"


def accepts(shape: Shape) -> bool:
    """The booklet names no special shape: four sets and a pair."""
    return shape.form == "standard"


def irregular(in_hand: tuple[int, ...]) -> list[Shape]:
    return []


def value(hand: Seated, shape: Shape, rules: BookRuleSet) -> Valuation:
    record = hand.record
    flowers = flower_items(hand, FLOWERS, 4)
    points = []
    for s in shape.sets:
        if s.kind == "pair":
            if (s.dragon or s.tile == hand.own_wind) and (hand.winner or rules.reading("E-A9") == "all_hands"):
                points.append(set_item(s, TABLE, 2))
        elif s.is_pong:
            points.append(set_item(s, TABLE, set_points(s)))
    doubles: list[Item] = []
    if hand.winner or rules.reading("E-A1") == "all_hands":
        for s in shape.pongs:
            if s.dragon:
                doubles.append(Item("dragon_set", DOUBLING, 1, s.code))
            if s.tile == hand.own_wind:
                doubles.append(Item("own_wind_set", DOUBLING, 1, s.code))
            if s.wind and s.tile == wind_tile(record.round_wind) and rules.reading("E-A8") == "round_wind_doubles":
                doubles.append(Item("round_wind_set", DOUBLING, 1, s.code))
        doubles += _flower_doubles(hand)
    no_points = not points and (not flowers or rules.reading("E-A4") == "flowers_aside")
    points = flowers + points
    if hand.winner:
        points.append(Item("basal", "Section VII", BASAL))
        extras = [("no_chow", not shape.chows), ("kong_replacement", record.winning_from == "kong_replacement"),
                  ("no_points", no_points), ("last_tile", record.winning_from == "last_tile"),
                  ("robbing_kong", record.winning_from == "robbing_kong")]
        for code, applies in extras:
            if applies:
                if rules.reading("E-A3") == "add_ten":
                    points.append(Item(code, EXTRA, 10))
                else:
                    doubles.append(Item(code, EXTRA, 1))
        if record.self_drawn:
            points.append(Item("self_drawn", ADDITIONAL, 2))
        if record.only_possible_tile:
            points.append(Item("only_piece", ADDITIONAL, 2))
        suit = one_suit(shape)
        if suit == "with_honours":
            doubles.append(Item("one_suit_with_honours", "Section IX B 1; Fig. 13", 1))
        elif suit == "pure":
            doubles.append(Item("pure_one_suit", "Fig. 15", 3))
    return Valuation(tuple(points), tuple(doubles), limit_hand(shape) if hand.winner else None)


def _flower_doubles(hand: Seated) -> list[Item]:
    """Section X: the own flower doubles once; a complete set of four twice (both sets: four
    times)."""
    items = []
    for kind, held in (("flower", hand.player.flowers), ("season", hand.player.seasons)):
        if len(held) == 4:
            items.append(Item(f"{kind}_set", FLOWERS, 2))
        elif hand.number in held:
            items.append(Item(f"own_{kind}", FLOWERS, 1, f"{'f' if kind == 'flower' else 'g'}{hand.number}"))
    return items


def limit_hand(shape: Shape) -> LimitHand | None:
    """Section VI 4: all the dragons, or all the winds, in pungs or kongs: full score."""
    pongs = {s.tile for s in shape.pongs}
    if DRAGONS <= pongs:
        return LimitHand("all_dragons", LIMIT)
    if WINDS <= pongs:
        return LimitHand("all_winds", LIMIT)
    return None
