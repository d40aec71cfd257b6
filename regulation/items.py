"""The items of Art. 6, as data: each item's code, article, and its names in the
regulation's Portuguese and Chinese and in English. How much an item is worth is the rule set's
(`RuleSet.fan`); which items a hand scores is `fan.py`'s.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .tiles import CONVENTIONAL, SIMPLIFIED
from .values import Value


class Item(Value, frozen=True):
    code: str
    fan: int
    article: str


@dataclass(frozen=True)
class ItemDefinition:
    """An item's article and names; its fán is the rule set's (`RuleSet.fan`)."""

    code: str
    article: str
    pt: str
    zh: str
    en: str


def _define(rows: list[tuple[str, str, str, str, str]]) -> dict[str, ItemDefinition]:
    return {row[0]: ItemDefinition(*row) for row in rows}


# Art. 6(a): the conventional items, in the order of the regulation.
CONVENTIONAL_ITEMS = _define([
    ("dragon_set", "6(a)(2)", "conjunto de trunfo", "番子", "dragon set"),
    ("round_wind_set", "6(a)(2)", "conjunto de vento da roda", "圈風", "round wind set"),
    ("seat_wind_set", "6(a)(2)", "conjunto de vento do lugar", "門風", "seat wind set"),
    ("robbing_kong", "6(a)(2)", "aproveitamento da pedra dum «kóng» («ch'éong kóng»)", "搶槓", "robbing a kong"),
    ("kong_replacement", "6(a)(2)", "ganho derivado dum «kóng» («kóng seong fá»)", "槓上花",
     "win on a kong replacement"),
    ("all_pongs", "6(a)(2)", "trios («tò-i-tò-i vu»)", "對對糊", "all pongs"),
    ("all_chows", "6(a)(2)", "sequências e par («p'èng vu»)", "平糊", "all chows"),
    ("mixed_one_suit", "6(a)(2)", "«wân iat sêk»", "混一色", "mixed one suit"),
    ("last_tile", "6(a)(2)", "última pedra («hoi tai lau yuet»)", "海底撈月", "last tile"),
    ("small_three_dragons", "6(a)(2)", "pedras trunfos («siu sam un»)", "小三元", "small three dragons"),
    ("small_four_winds", "6(a)(2)", "pedras ventos («siu sei hei»)", "小四喜", "small four winds"),
    ("terminals_and_honours", "6(a)(2)", "conjunto de 1, 9, trunfos ou ventos («fá iu-kau»)", "混么",
     "terminals and honours"),
    ("heavenly", "6(a)(3)", "ganho natural («t'in vu»)", "天糊", "heavenly win"),
    ("earthly", "6(a)(3)", "ganho não natural («tei vu»)", "地糊", "earthly win"),
    ("double_wind_set", "6(a)(3)", "duplo «fán» («seong fán»)", "雙番門風", "double wind set"),
    ("kong_upon_kong", "6(a)(3)", "«kóng» sucessivos («kóng seong kóng»)", "槓上槓", "kong upon kong"),
    ("mixed_one_suit_all_chows", "6(a)(3)", "«p'èng vu» dum mesmo grupo («wân iat sêk p'èng vu»)", "混一色平糊",
     "mixed one suit, all chows"),
    ("pure_one_suit", "6(a)(3)", "pedras dum mesmo grupo («ch'èng iat sêk»)", "清一色", "pure one suit"),
    ("thirteen_orphans", "6(a)(3)", "treze chamadas («sap-sám iu»)", "十三么", "thirteen orphans"),
    ("concealed_pongs", "6(a)(3)", "conjunto de trios fechados («kan-kan vu»)", "擱擱糊", "concealed pongs"),
    ("big_three_dragons", "6(a)(3)", "conjuntos de trunfos («tai sam un»)", "大三元", "big three dragons"),
    ("big_four_winds", "6(a)(3)", "conjuntos de ventos («tai sei hei»)", "大四喜", "big four winds"),
    ("pure_terminals", "6(a)(3)", "conjunto de 1 e 9 («cheng iu»)", "清么", "pure terminals"),
    ("all_honours", "6(a)(3)", "conjuntos de trunfos e ventos («chun chu»)", "全字", "all honours"),
])

# Art. 6(b)(2): the simplified items.
SIMPLIFIED_ITEMS = _define([
    ("robbing_kong", "6(b)(2)", "aproveitamento da pedra dum «kóng»", "搶槓", "robbing a kong"),
    ("last_tile", "6(b)(2)", "última pedra da jogada", "海底撈月", "last tile"),
    ("green_winning_tile", "6(b)(2)", "ganho com a pedra trunfo «fát chói»", "發財", "won on the green dragon"),
])

ITEMS = {CONVENTIONAL: CONVENTIONAL_ITEMS, SIMPLIFIED: SIMPLIFIED_ITEMS}


def item_values(fan: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, Item]]:
    """variant -> item code -> the item with the fán a rule set gives it (`RuleSet.fan`, read
    into `RuleSet.scored_items`)."""
    return {variant: {code: Item(code, points, ITEMS[variant][code].article) for code, points in values.items()}
            for variant, values in fan.items()}
