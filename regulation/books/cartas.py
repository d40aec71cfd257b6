"""The Brazilian rules for Mah Jong with 144 cards: «Tabela de contagem de pontos», «Combinações
que dão "dobres"», «Mãos-Limite» and «acerto de contas»."""
from __future__ import annotations

from ..errors import gettext_noop
from ..rules import frozen
from ..tiles import HONOURS, TERMINALS, WINDS
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
from .readings import CARTAS, defaults
from .shapes import Shape

RULES = BookRuleSet(CARTAS, 1, gettext_noop("Mah Jong with 144 cards, the Brazilian rules"),
                    frozen(defaults(CARTAS)), limit=4000, banker_limit=4000, rounding=100)

TABLE_A = "Tabela, A"
TABLE_B = "Tabela, B"
TABLE_C = "Tabela, C"
DOUBLES = "Dobres"
WINNER_DOUBLES = "Dobres do Mah Jong"
FLOWERS = "Honras supremas"
LIMIT_HANDS = "Mãos-Limite"
GREEN = frozenset((18, 19, 20, 21, 23, 25, 32))  # 1, 2, 3, 4, 6, 8 bamboo, green dragon
RED = frozenset((22, 24, 26, 33))  # 5, 7, 9 bamboo, red dragon
SUIT_DOUBLES = {"one_and_three": (1, 3), "two_and_four": (2, 4)}  # P-A3: with honours, pure
# «se o jogador fizer um kong com uma carta comprada do monte, ele pode mantê-lo fechado na mão (caso em
# que não tem direito a comprar outra carta)»; the example: «4 ventos Sul, sem arriar (kong fechado) = 32».
# A loser's four of a kind among his 13 cards is that kong. A winning hand is read as four sets and a pair
# with its kongs declared (P-A9): the book's hand holding a kong kept in it is refused, saying how to write it.
KONGS_IN_HAND = True
UNDECLARED_KONG = gettext_noop(
    "four {tile} are among the winner's concealed tiles, and his tiles make no complete hand of four sets and a "
    "pair. A winning hand holding a kong kept in it, never laid down, is not scored (P-A9): write the kong among "
    "the melds (a concealed kong when it was made in hand), and the card drawn for it among the concealed tiles")


def seat_numbers(rules: BookRuleSet) -> dict[str, int]:
    return {"E": 1, "S": 2, "W": 3, "N": 4}  # «1 = Leste, 2 = Sul, 3 = Oeste, 4 = Norte»


def discard_pong_exposed(rules: BookRuleSet) -> bool:
    return True  # «arriado»: a card bought from the discards is laid down with its set


def accepts(shape: Shape) -> bool:
    """Four sets and a pair; seven pairs only as «Pares de Honra»; the thirteen orphans."""
    return shape.form != "seven_pairs" or set(shape.tiles) <= TERMINALS | HONOURS


def value(hand: Seated, shape: Shape, rules: BookRuleSet) -> Valuation:
    record = hand.record
    points = flower_items(hand, FLOWERS, 4)
    closed_major = 16 if rules.reading("P-A6") == "example" else None
    for s in shape.pongs:  # «Os pongs e kongs valem pontos em qualquer circunstância»
        points.append(set_item(s, TABLE_A, set_points(s, closed_major_pong=closed_major)))
    doubles: list[Item] = []
    for s in shape.pongs:
        if s.dragon:
            doubles.append(Item("dragon_set", DOUBLES, 1, s.code))
        elif s.tile == hand.own_wind:
            count = 2 if (rules.reading("P-A2") == "own_and_east" and s.tile == wind_tile(record.banker)) else 1
            doubles.append(Item("own_wind_set", DOUBLES, count, s.code))
        elif s.tile == wind_tile(record.banker) and rules.reading("P-A2") == "own_and_east":
            doubles.append(Item("banker_wind_set", DOUBLES, 1, s.code))
    if hand.number in hand.player.flowers:
        doubles.append(Item("own_flower", DOUBLES, 1, f"f{hand.number}"))
    if hand.number in hand.player.seasons:
        doubles.append(Item("own_season", DOUBLES, 1, f"g{hand.number}"))
    if hand.winner:
        points += _winner_points(hand, shape, rules)
        doubles += _winner_doubles(hand, shape, rules)
    return Valuation(tuple(points), tuple(doubles), limit_hand(hand, shape) if hand.winner else None)


def _winner_points(hand: Seated, shape: Shape, rules: BookRuleSet) -> list[Item]:
    """Table B (pairs count only for the player who goes out) and table C (his bonuses)."""
    record = hand.record
    items = []
    for s in shape.pairs:
        if s.dragon:
            items.append(set_item(s, TABLE_B, 2))
        if s.tile == hand.own_wind:
            items.append(Item("own_wind_pair", TABLE_B, 2, s.code))
        if s.tile == wind_tile(record.banker):  # NOTA: the banker's East pair is 2 + 2
            items.append(Item("banker_wind_pair", TABLE_B, 2, s.code))
    bonuses = [("mah_jong_on_discard", 20, True), ("mah_jong_from_the_wall", 22, record.self_drawn),
               ("only_possible_card", 24, record.only_possible_tile),
               ("last_card", 30, record.winning_from == "last_tile")]
    if rules.reading("P-A10") == "highest_one":
        code, amount, _ = [b for b in bonuses if b[2]][-1]
        items.append(Item(code, TABLE_C, amount))
    else:  # 20 for going out, and what each other bonus is above it
        for code, amount, applies in bonuses:
            if applies:
                items.append(Item(code, TABLE_C, amount if code == "mah_jong_on_discard" else amount - 20))
    if rules.reading("P-A4") == "points_and_double":
        if not shape.chows and shape.form == "standard":
            items.append(Item("no_chow", TABLE_C, 10))
        if not shape.suits:
            items.append(Item("no_suit_cards", TABLE_C, 10))
    return items


def _winner_doubles(hand: Seated, shape: Shape, rules: BookRuleSet) -> list[Item]:
    items = []
    if not shape.chows and shape.form == "standard":
        items.append(Item("no_chow", WINNER_DOUBLES, 1))
    if not shape.suits:
        items.append(Item("no_suit_cards", WINNER_DOUBLES, 1))
    with_honours, pure = SUIT_DOUBLES[rules.reading("P-A3")]
    suit = one_suit(shape)
    if suit == "with_honours":
        items.append(Item("one_suit_with_honours", WINNER_DOUBLES, with_honours))
    elif suit == "pure":
        items.append(Item("pure_one_suit", WINNER_DOUBLES, pure))
    if shape.suits and shape.honours and set(shape.tiles) <= TERMINALS | HONOURS:
        items.append(Item("terminals_with_honours", WINNER_DOUBLES, 1))
    if hand.record.winning_from == "robbing_kong":
        items.append(Item("robbing_kong", WINNER_DOUBLES, 1))
    return items


def irregular(in_hand: tuple[int, ...]) -> list[Shape]:
    """The limit hands that are no sets at all: «Ventos e Dragões» (winds and dragons only, each
    at least once) and «A Serpente» (1 to 9 of one suit, the four winds, and one card pairing
    any of them); both are made in hand."""
    tiles = set(in_hand)
    if len(in_hand) != 14:
        return []
    if tiles == HONOURS:
        return [Shape("winds_and_dragons", (), in_hand)]
    suits = {t // 9 for t in tiles if t < 27}
    if len(suits) == 1 and len(tiles) == 13 and WINDS <= tiles:
        suit = suits.pop()
        if all(suit * 9 + n in tiles for n in range(9)):
            return [Shape("serpent", (), in_hand)]
    return []


def limit_hand(hand: Seated, shape: Shape) -> LimitHand | None:
    """The «Mãos-Limite»; Mão Celeste (6.) is «o Mah Jong feito pelo jogador em sua primeira vez
    de jogar», on his own turn: the record's `first_turn`, which is read only for a self-drawn win."""
    tiles = set(shape.tiles)
    pongs = shape.pongs
    if hand.record.first_turn:
        return LimitHand("heavenly_hand", LIMIT_HANDS)
    if shape.form == "thirteen_orphans":
        return LimitHand("wonder_hand", LIMIT_HANDS)
    if shape.form == "seven_pairs":
        return LimitHand("honour_pairs", LIMIT_HANDS)
    if shape.form in ("winds_and_dragons", "serpent"):
        return LimitHand(shape.form, LIMIT_HANDS)
    if sum(s.wind for s in pongs) == 4:  # «somente por cartas de ventos»: 14 wind cards cannot be
        return LimitHand("four_great_winds", LIMIT_HANDS)  # four sets and a pair, so the four sets
    if len(pongs) == 4 and tiles <= TERMINALS and len(shape.suits) == 3:
        return LimitHand("terminals_hand", LIMIT_HANDS)
    if len(pongs) == 4 and shape.concealed:
        return LimitHand("hidden_hand", LIMIT_HANDS)
    if len(shape.suits) == 1 and not shape.honours:
        base = min(shape.tiles) // 9 * 9
        counts = [shape.tiles.count(base + n) for n in range(9)]
        if counts[0] >= 3 and counts[8] >= 3 and all(counts[1:8]):
            return LimitHand("gates_of_heaven", LIMIT_HANDS)
    if tiles <= RED and shape.form == "standard":
        return LimitHand("red_hand", LIMIT_HANDS)
    if tiles <= GREEN and any(s.tile == 32 for s in pongs):
        return LimitHand("green_hand", LIMIT_HANDS)
    return None
