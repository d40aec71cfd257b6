"""António Joaquim Serralheiro, *Mah-Jong, Regras Básicas* (2003), §10 «Valor das Mãos».

Value = points × 2^doubles (§10(a)); the winner adds 20 (§10(b)); the banker always takes one
more double (§10, 2.º (b)); limit hands from «Organização de alguns jogos».
"""
from __future__ import annotations

from collections import Counter

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
from .readings import SERRALHEIRO, defaults
from .shapes import Shape

RULES = BookRuleSet(SERRALHEIRO, 1, gettext_noop("Serralheiro, Mah-Jong, Regras Básicas (2003)"),
                    frozen(defaults(SERRALHEIRO)), limit=2000, banker_limit=4000)

POINTS = "§10(b)"
DOUBLES = "§10, tabela dos dobres"
BANKER = "§10, 2.º (b)"
HANDS = "§10, Organização de alguns jogos"
MAH_JONG_BONUS = 20  # §10(b) «20 pontos de bonificação ao parceiro que efectuar Mah-Jong»
# Doubles of the whole hand: a loser's hand earns them only under S-A11 all_doubles.
WHOLE_HAND = frozenset(("one_family", "concealed_hand", "esquisito", "pinderico"))
GREEN = frozenset((19, 20, 21, 23, 25, 32))  # 2, 3, 4, 6, 8 bamboo, green dragon
RED = frozenset((18, 22, 24, 26, 33))  # 1, 5, 7, 9 bamboo, red dragon
ONE_CIRCLE = 9
NUMBERS = {"e1_s2_w3_n4": "ESWN", "north_south_swapped": "ENWS"}  # S-A14: the seat of numbers 1–4
# §9(a): «os congues … apenas contam com 3 pedras cada. Por esta razão, há que comprar … uma pedra da
# cabeça do dragão». A kong is made by taking that tile: four of a kind among 13 tiles was never made one.
KONGS_IN_HAND = False
UNDECLARED_KONG = gettext_noop(
    "four {tile} are among the winner's concealed tiles, and his tiles make no complete hand. A kong counts as "
    "three tiles and a tile is drawn for it from the dragon's head (§9(a)): write the kong among the melds (a "
    "concealed kong when it was made in the rack), and the tile drawn for it among the concealed tiles")


def seat_numbers(rules: BookRuleSet) -> dict[str, int]:
    return {seat: n for n, seat in enumerate(NUMBERS[rules.reading("S-A14")], 1)}


def discard_pong_exposed(rules: BookRuleSet) -> bool:
    return rules.reading("S-A15") == "exposed"


def accepts(shape: Shape) -> bool:
    """A standard hand, seven pairs only as the book's «Pares na Régua», the thirteen orphans
    («Maravilhas»)."""
    return shape.form != "seven_pairs" or len(shape.suits) <= 1


def irregular(in_hand: tuple[int, ...]) -> list[Shape]:
    """The one limit hand that is no sets at all: «Sequência de 7 pedras de uma família + igual
    sequência de outra família»."""
    suits = {t // 9 for t in in_hand if t < 27}
    if len(in_hand) != 14 or len(suits) != 2 or any(t >= 27 for t in in_hand):
        return []
    runs = [sorted(t % 9 for t in in_hand if t // 9 == suit) for suit in suits]
    if runs[0] == runs[1] == list(range(runs[0][0], runs[0][0] + 7)):
        return [Shape("twin_sequences", (), in_hand)]
    return []


def privileges(hand: Seated, wind: int) -> int:
    """§9(d): a wind is promoted for its owner; East's (the banker's) and the opener's for all."""
    record = hand.record
    return sum(wind == wind_tile(seat) for seat in (hand.seat, record.opener, record.banker))


def value(hand: Seated, shape: Shape, rules: BookRuleSet) -> Valuation:
    points = flower_items(hand, POINTS, 4)
    for s in shape.sets:
        if s.kind == "pair":
            scored = s.dragon or (s.wind and (rules.reading("S-A3") == "any_wind" or privileges(hand, s.tile)))
            if scored:
                points.append(set_item(s, POINTS, 2))
        elif s.is_pong:
            points.append(set_item(s, POINTS, set_points(s)))
    if hand.winner:
        points.append(Item("mah_jong", POINTS, MAH_JONG_BONUS))
    doubles = [d for d in _doubles(hand, shape, rules)
               if hand.winner or rules.reading("S-A11") == "all_doubles" or d.code not in WHOLE_HAND]
    if hand.banker:
        doubles.append(Item("banker", BANKER, 1))
    return Valuation(tuple(points), tuple(doubles), limit_hand(hand, shape, rules) if hand.winner else None)


def _doubles(hand: Seated, shape: Shape, rules: BookRuleSet) -> list[Item]:
    doubles: list[Item] = []
    pongs = shape.pongs
    for s in pongs:
        if s.dragon:
            doubles.append(Item("dragon_set", DOUBLES, 1, s.code))
        elif s.wind:
            promoted = privileges(hand, s.tile)
            count = promoted + (1 if promoted or rules.reading("S-A1") == "one_double" else 0)
            if rules.reading("S-A2") == "at_most_three":
                count = min(count, 3)
            if count:
                doubles.append(Item("wind_set", DOUBLES, count, s.code))
    stack = rules.reading("S-A8") == "rows_add"
    concealed_pongs = [s for s in pongs if s.concealed]
    rows = [("three_pongs", 1, len(pongs) >= 3), ("three_concealed_pongs", 2, len(concealed_pongs) >= 3)]
    doubles += _rows(rows, stack)
    kongs = [s for s in pongs if s.kind == "kong"]
    rows = [("two_kongs", 1, len(kongs) >= 2), ("three_kongs", 2, len(kongs) >= 3),
            ("three_concealed_kongs", 3, sum(s.concealed for s in kongs) >= 3)]
    doubles += _rows(rows, stack)
    suit = one_suit(shape)
    if suit == "with_honours" or (suit == "pure" and rules.reading("S-A5") == "stacks_with_pinderico"):
        doubles.append(Item("one_family", DOUBLES, 1))
    if hand.winner and shape.concealed and (rules.reading("S-A9") == "any_win" or hand.record.self_drawn):
        doubles.append(Item("concealed_hand", DOUBLES, 2))
    dragon_pongs = [s for s in pongs if s.dragon]
    wind_pongs = [s for s in pongs if s.wind]
    if len(dragon_pongs) == 2 and any(p.dragon for p in shape.pairs):
        doubles.append(Item("two_dragon_pongs_and_pair", DOUBLES, 3))
    if len(wind_pongs) == 3:
        with_pair = any(p.wind for p in shape.pairs)
        doubles.append(Item("three_wind_pongs_and_pair" if with_pair else "three_wind_pongs", DOUBLES,
                            2 if with_pair else 1))
    by_number = Counter(s.tile % 9 for s in pongs if s.tile < 27)
    pair_numbers = {p.tile % 9: p.tile // 9 for p in shape.pairs if p.tile < 27}
    if any(n == 3 for n in by_number.values()):
        doubles.append(Item("parallel_pongs", DOUBLES, 2))
    elif any(n == 2 and number in pair_numbers
             and pair_numbers[number] not in {s.tile // 9 for s in pongs if s.tile % 9 == number and s.tile < 27}
             for number, n in by_number.items()):
        doubles.append(Item("half_parallel_pongs", DOUBLES, 1))
    if hand.winner and hand.record.winning_from == "kong_replacement":
        doubles.append(Item("dragon_head_tile", DOUBLES, 1))
    if hand.winner and hand.record.winning_from == "last_tile":
        doubles.append(Item("last_dragon_head_tile", DOUBLES, 2))
    honours = set(shape.honours)
    esquisito = (honours & DRAGONS and honours & WINDS) if rules.reading("S-A6") == "dragons_and_winds" else honours
    if len(shape.suits) == 3 and esquisito:
        doubles.append(Item("esquisito", DOUBLES, 1))
    doubles += _flower_doubles(hand, rules)
    if suit == "pure" and shape.form == "standard":
        mixed = shape.pongs and shape.chows
        doubles.append(Item("pinderico", HANDS, 3 if mixed else 4))
    return doubles


def _rows(rows: list[tuple[str, int, bool]], stack: bool) -> list[Item]:
    """S-A8: the rows of one kind that apply, all of them or only the highest."""
    applying = [Item(code, DOUBLES, n) for code, n, applies in rows if applies]
    return applying if stack else applying[-1:]


def _flower_doubles(hand: Seated, rules: BookRuleSet) -> list[Item]:
    opener = hand.numbers[hand.record.opener]
    items = []
    for kind, held in (("flower", hand.player.flowers), ("season", hand.player.seasons)):
        prefix = "f" if kind == "flower" else "g"
        for n in held:
            if n == opener:
                count = 4 if (rules.reading("S-A4") == "four_for_opener" and hand.seat == hand.record.opener) else 2
                items.append(Item(f"opener_{kind}", DOUBLES, count, f"{prefix}{n}"))
            elif n == hand.number:
                items.append(Item(f"own_{kind}", DOUBLES, 1, f"{prefix}{n}"))
        if len(held) == 4:
            items.append(Item(f"{kind}_bouquet", DOUBLES, 2))
    return items


HALF = (1, 2)


def limit_hand(hand: Seated, shape: Shape, rules: BookRuleSet) -> LimitHand | None:
    """«Organização de alguns jogos para a realização de Mah-Jong»: the limit hands."""
    record = hand.record
    tiles = set(shape.tiles)
    pongs, pairs = shape.pongs, shape.pairs
    suits = shape.suits
    honours = set(shape.honours)
    if shape.form == "thirteen_orphans":
        return LimitHand("wonders", HANDS)
    if shape.form == "twin_sequences":
        return LimitHand("twin_sequences", HANDS)
    if shape.form == "seven_pairs":
        if not suits:
            return LimitHand("seven_pairs_honours", HANDS)
        return LimitHand("seven_pairs_one_suit", HANDS) if not honours else LimitHand("seven_pairs_honours_mixed",
                                                                                     HANDS, HALF)
    if len([s for s in pongs if s.dragon]) == 3 or len([s for s in pongs if s.wind]) == 4:
        return LimitHand("three_dragons_or_four_winds", HANDS)
    if rules.reading("S-A10") == "any_banker_discard" and record.winning_from == "discard" \
            and record.discarder == record.banker:
        return LimitHand("fulminante", HANDS)
    if record.winning_from == "last_tile" and record.winning_tile == ONE_CIRCLE:
        return LimitHand("moon_from_the_sea", HANDS)
    if len(pongs) == 4 and shape.concealed:
        return LimitHand("hidden_treasure", HANDS)
    if len(pongs) == 4 and all(s.terminal for s in pongs) and len(suits) >= 2:
        pair = pairs[0]
        if pair.terminal:
            return LimitHand("heads", HANDS)
        if pair.honour:
            return LimitHand("heads_with_honours", HANDS, HALF)
    if tiles <= GREEN and any(s.tile == 32 for s in pongs):
        return LimitHand("green_hand", HANDS)
    if tiles <= RED and len(pongs) == 4:
        return LimitHand("red_hand", HANDS)
    runs = {s.tile // 9 for s in shape.chows if s.tile % 9 == 0} & {s.tile // 9 for s in shape.chows
                                                                   if s.tile % 9 == 3} \
        & {s.tile // 9 for s in shape.chows if s.tile % 9 == 6}
    for suit in runs:
        rest = [s for s in shape.sets if s.kind != "chow"]
        if all(s.tile // 9 == suit and s.terminal for s in rest):
            return LimitHand("grand_sequence", HANDS)
        if {("dragon" if s.dragon else "wind" if s.wind else "") + s.kind for s in rest} in (
                {"dragonpong", "windpair"}, {"windpong", "dragonpair"}, {"dragonkong", "windpair"},
                {"windkong", "dragonpair"}):
            return LimitHand("small_sequence", HANDS, HALF)
    return None
