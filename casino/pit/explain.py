"""A scored jogo as the dealer's screen shows it: the hand's reading, each fán item with its
article and name, who pays whom, the cap and the commission, in the user's language."""
from __future__ import annotations

from django.utils.translation import gettext as _

from casino.terms.vocabulary import fan_item_name, meld_kind_name, seat_label
from regulation.hands import CHOW, KONG, THIRTEEN_ORPHAN_KINDS
from regulation.tiles import tile_code


def set_tiles(tile_set) -> list[str]:
    """The tile codes of one set of a reading: a chow's three, a pong's three, a kong's four."""
    if tile_set.kind == CHOW:
        return [tile_code(tile_set.tile + step) for step in range(3)]
    return [tile_code(tile_set.tile)] * (4 if tile_set.kind == KONG else 3)


def reading(grade) -> list[dict] | None:
    """The best reading of the hand (Art. 4; docs/rules.md §3): its sets, then the pair; each with its
    name in the user's language."""
    if grade is None:
        return None
    shape = grade.shape
    if shape.thirteen_orphans:  # Art. 6(a)(3): one of each terminal and honour, one of them twice
        tiles = sorted([*THIRTEEN_ORPHAN_KINDS, shape.pair])
        return [{"kind": "thirteen_orphans", "label": fan_item_name("thirteen_orphans"),
                 "tiles": [tile_code(t) for t in tiles], "exposed": False, "declared": False}]
    sets = [{"kind": s.kind, "label": meld_kind_name(s.kind), "tiles": set_tiles(s), "exposed": s.exposed,
             "declared": s.declared} for s in shape.sets]
    return sets + [{"kind": "pair", "label": _("pair"), "tiles": [tile_code(shape.pair)] * 2, "exposed": False,
                    "declared": False}]


def explain(result, players: dict[str, str]) -> dict:
    """Display data of an engine `Result`; `players` maps seat wind → player name."""
    settlement = result.settlement

    def who(seat: str) -> str:
        return seat_label(seat, players.get(seat, ""))

    items = []
    if result.fan is not None:
        items = [{"code": i.code, "name": fan_item_name(i.code), "fan": i.fan, "article": i.article}
                 for i in result.grade.items]
    return {
        "valid": result.valid,
        "reading": reading(result.grade) if result.fan is not None else None,
        "items": items,
        "fan": result.fan,
        "raw": result.grade.raw if result.fan is not None else None,
        "declared_fan": result.jogo.declared_fan,
        "fan_mismatch": result.fan_mismatch,
        "share": settlement.share,
        "payments": [{"from": who(p.payer), "to": who(p.payee), "amount": p.amount} for p in settlement.payments],
        "dues": [{"seat": who(seat), "amount": amount} for seat, amount in settlement.dues.items()],
        "cap": settlement.cap,
        "capped": settlement.capped,
        "commission": settlement.commission,
        # I-8: the commission is taken from what the winner receives, so a capped winner may pay less.
        "commission_limited": bool(result.valid and result.fan is not None and settlement.commission
                                   < result.rules.commission_for(result.jogo.variant, result.jogo.stake)),
        "net": [{"seat": who(seat), "amount": amount} for seat, amount in settlement.net.items()],
        "banker_moves": result.banker_moves,
    }
