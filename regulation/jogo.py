"""Scoring one jogo: every check of docs/rules.md §7 that one record can show, the grade, and the
settlement. `score()` is what the command line, the API and the audit all call.
"""
from __future__ import annotations

from operator import eq
from typing import Any

import msgspec

from .errors import Breach, gettext_noop
from .fan import Grade, grade, win_context
from .hands import (
    CHOW,
    KONG,
    PONG,
    Shape,
    TileSet,
    counts_of,
    declared_set,
    decompose,
    is_seven_pairs,
    thirteen_orphans,
)
from .items import Item
from .record import Hand, PayAll, Record
from .rules import DEFAULT, RuleSet
from .seats import BANKER, WIND_TILE, turn_order_after
from .settlement import Payment, Settlement, nothing_moves, settle_false_win, settle_win
from .tiles import (
    CONVENTIONAL,
    COPIES,
    DRAGONS,
    GREEN_DRAGON,
    HONOURS,
    KINDS,
    SIMPLIFIED,
    WINDS,
    tile_code,
    tiles_code,
    within_art_2,
)
from .values import Value

SEAT_NAMES = {"E": gettext_noop("East"), "S": gettext_noop("South"), "W": gettext_noop("West"),
              "N": gettext_noop("North")}
HAND_TILES = {CONVENTIONAL: 14, SIMPLIFIED: 5}  # Art. 4(a), 4(b): before kongs' fourth tiles
MAX_SETS = {CONVENTIONAL: 4, SIMPLIFIED: 1}


class Result(Value, frozen=True):
    """The outcome of scoring one jogo; `as_dict()` is the output of docs/record-format.md."""

    jogo: Record
    rules: RuleSet
    breaches: tuple[Breach, ...]
    grade: Grade | None  # the best reading; None when the hand is no winning hand
    settlement: Settlement
    fan: int | None  # the capped grade of a valid won jogo
    fan_mismatch: bool  # the dealer's announced grade differs: flagged for inspection
    banker_moves: bool  # Art. 3: the bank passes only when another player wins (I-1)

    @property
    def valid(self) -> bool:
        return not self.breaches

    def to_json(self) -> bytes:
        """The same output as `as_dict()`, encoded as JSON (the command line's fast path)."""
        settlement, breaches = self.settlement, self.breaches
        return _ENCODE(_Output(  # a breach encodes as its as_dict(), without its template
            not breaches, [b.as_dict() for b in breaches] if breaches else (), self.fan,
            self.grade.items if self.fan is not None and self.grade is not None else (),
            self.jogo.declared_fan, self.fan_mismatch, settlement.payments, settlement.commission,
            settlement.net, _NEXT[self.banker_moves]))

    def as_dict(self) -> dict[str, Any]:
        settlement = self.settlement
        return {
            "valid": not self.breaches,
            "errors": [b.as_dict() for b in self.breaches],
            "fan": self.fan,
            "items": [{"code": i.code, "fan": i.fan, "article": i.article} for i in self.grade.items]
            if self.fan is not None and self.grade is not None else [],
            "declared_fan": self.jogo.declared_fan,
            "fan_mismatch": self.fan_mismatch,
            "payments": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in settlement.payments],
            "commission": settlement.commission,
            "net": settlement.net,
            "next": {"banker_moves": self.banker_moves},
        }


class _Next(Value, frozen=True):
    banker_moves: bool


class _Output(Value, frozen=True):
    """docs/record-format.md's output, field for field, in its order."""

    valid: bool
    errors: tuple[()] | list[dict[str, str | None]]
    fan: int | None
    items: tuple[Item, ...]
    declared_fan: int | None
    fan_mismatch: bool
    payments: tuple[Payment, ...]
    commission: int
    net: dict[str, int]
    next: _Next


_ENCODE = msgspec.json.Encoder().encode
_NEXT = {moves: _Next(moves) for moves in (False, True)}  # built once: values are immutable


def score(jogo: Record, rules: RuleSet = DEFAULT) -> Result:
    """Validate `jogo` against the regulation, grade it and settle it.

    A jogo with any breach settles nothing (docs/record-format.md: `payments` empty, `net` zero).
    """
    if jogo.fan_combination and jogo.fan_combination != rules.readings["I-5"]:
        rules = rules.with_overrides({"fan_combination": jogo.fan_combination})  # the record chooses I-5
    breaches: list[Breach] = []
    _check_table(jogo, rules, breaches)
    hand, winner = jogo.hand, jogo.winner
    if jogo.result == "win":
        assert hand is not None and winner is not None, "read_record refuses a won jogo without them"
        best = _check_win(jogo, hand, winner, rules, breaches)
        if breaches:
            return Result(jogo, rules, tuple(breaches), best, nothing_moves(jogo.capital), None, False, False)
        assert best is not None, "a hand of no winning reading is a breach of Art. 4"
        settlement = settle_win(rules=rules, variant=jogo.variant, stake=jogo.stake, fan=best.fan,
                                winner=winner, capital=jogo.capital,
                                pay_all=jogo.pay_all.seat if jogo.pay_all else None)
        declared = jogo.declared_fan
        return Result(jogo, rules, (), best, settlement, best.fan,
                      declared is not None and declared != best.fan, winner != BANKER)
    offender = jogo.false_win
    if hand is not None and offender is not None:  # a false win whose record gives the offender's hand
        _check_false_win_hand(jogo, hand, offender, breaches)
    if breaches:
        return Result(jogo, rules, tuple(breaches), None, nothing_moves(jogo.capital), None, False, False)
    if jogo.result == "false_win":
        assert offender is not None, "read_record refuses a false win that names no offender"
        settlement = settle_false_win(rules=rules, variant=jogo.variant, stake=jogo.stake,
                                      offender=offender, capital=jogo.capital)
    else:
        settlement = nothing_moves(jogo.capital)
    # No grade on a draw or a void jogo: a declared grade there is a mismatch to look at.
    # I-1: the bank stays, unless the rule set passes it whenever the banker does not win.
    banker_moves = rules.readings["I-1"] == "bank_passes"
    return Result(jogo, rules, (), None, settlement, None, jogo.declared_fan is not None, banker_moves)


def art(jogo: Record, conventional: str, simplified: str) -> str:
    """The article of the variant in play: paragraph (a) conventional, (b) simplified."""
    return conventional if jogo.variant == CONVENTIONAL else simplified


def _breach(breaches: list[Breach], code: str, article: str, template: str, **params: Any) -> None:
    """Words in `params` (seats, kinds, variants) are English, for casino/terms to translate."""
    breaches.append(Breach(code, article, f"Art. {article}: " + template.format(**params), template, params))


def _check_table(jogo: Record, rules: RuleSet, breaches: list[Breach]) -> None:
    """Art. 8 (the tier), Art. 3 (who is seated), and that every named seat is seated."""
    if jogo.stake not in rules.commission[jogo.variant]:
        tiers = ", ".join(f"{x}/{2 * x}" for x in rules.tiers(jogo.variant))
        _breach(breaches, "stake_not_a_tier", "8",
                gettext_noop("{stake}/{double} is not a tier of the {variant} game; its tiers are {tiers}."),
                stake=jogo.stake, double=2 * jogo.stake, variant=jogo.variant, tiers=tiers)
    seated = jogo.capital
    if len(seated) == 4:
        return  # every seat is taken (Art. 3): the banker's, and any seat the record names
    if BANKER not in seated:
        _breach(breaches, "banker_absent", art(jogo, "3(a)", "3(b)"),
                gettext_noop("the banker always sits East, and no capital is recorded for East."))
    if jogo.variant == CONVENTIONAL:
        _breach(breaches, "seats", "3(a)",
                gettext_noop("the conventional game is played by exactly four players; {seated} are seated."),
                seated=len(seated))
    elif len(seated) < 2:
        _breach(breaches, "seats", "3(b)",
                gettext_noop("the simplified game is played by two to four players; {seated} is seated."),
                seated=len(seated))
    winner, discarder = jogo.winner, jogo.discarder
    others = jogo.pay_all or jogo.false_win or jogo.claimants or jogo.conduct
    if not others and (winner is None or winner in seated) and (discarder is None or discarder in seated):
        return  # the only seats named are seated
    named = [("winner", winner), ("discarder", discarder)]
    if others:
        named += [("pay_all.seat", jogo.pay_all.seat if jogo.pay_all else None), ("false_win.seat", jogo.false_win)]
        named += [(f"claimants[{i}]", seat) for i, seat in enumerate(jogo.claimants)]
        named += [(f"conduct[{i}].seat", c.seat) for i, c in enumerate(jogo.conduct)]
    for field, seat in named:
        if seat is not None and seat not in seated:
            _breach(breaches, "seat_not_seated", art(jogo, "3(a)", "3(b)"),
                    gettext_noop("{field} is {seat}, but nobody is seated {seat} at this jogo."),
                    field=field, seat=SEAT_NAMES[seat])


def _check_win(jogo: Record, hand: Hand, winner: str, rules: RuleSet, breaches: list[Breach]) -> Grade | None:
    """Every check of a won jogo; the best grade when the hand is a winning hand."""
    discarder = jogo.discarder
    if discarder == winner:
        _breach(breaches, "discarder_is_winner", art(jogo, "4(a)", "4(b)"),
                gettext_noop("the winner cannot win on his own discard; leave the discarder empty for a "
                             "self-drawn win."))
    melds = _check_melds(jogo, hand, breaches) if hand.melds else ()
    shapes, counts = _check_shape(jogo, hand, melds, breaches)
    if jogo.conditions or jogo.conduct:  # most wins claim no condition and record no conduct
        kongs = len([m for m in hand.melds if m.kind == KONG])
        _check_conditions(jogo, hand, kongs, breaches)
        _check_conduct(jogo, kongs > 0, breaches)
    if jogo.claimants:
        _check_claims(jogo, winner, breaches)
    if not shapes:
        return None
    context = win_context(jogo.variant, WIND_TILE[winner], WIND_TILE[jogo.round_wind], discarder is None,
                          hand.winning_tile, jogo.conditions, counts)
    best = grade(shapes, context, rules)
    if jogo.pay_all:
        _check_pay_all(jogo, hand, jogo.pay_all, best, rules, breaches)
    return best


def _check_false_win_hand(jogo: Record, hand: Hand, offender: str, breaches: list[Breach]) -> None:
    """Art. 10(b)(3): a jogo is «nulo» when the player declares a win «sem a necessária combinação
    de pedras conforme se indica no artigo 4.º» (and Art. 10(a)(7)–(8), conventional). A hand that
    has that combination was no false win, so the record is refused (docs/rules.md §6).

    A meld that is no real set, or one the variant does not allow, is the wrong exposure of
    Art. 10(a)(7): such a hand is no winning hand and the false win stands."""
    variant = jogo.variant
    melds = []
    for meld in hand.melds:
        tile_set = declared_set(meld.kind, meld.tiles, meld.exposed)
        if tile_set is None or (meld.kind != KONG and (variant != CONVENTIONAL or not meld.exposed)):
            return
        melds.append(tile_set)
    in_hand = hand.concealed + (hand.winning_tile,)
    if _check_tiles(jogo, hand, in_hand, breaches):  # Art. 2: no record holds a fifth copy or a foreign tile
        return
    if len(melds) > MAX_SETS[variant] or len(in_hand) != HAND_TILES[variant] - 3 * len(melds):
        return
    wins = bool(decompose(hand.counts, tuple(melds))) or (
        variant == CONVENTIONAL and not melds and thirteen_orphans(counts_of(in_hand)) is not None)
    if wins:
        article = art(jogo, "10(a)(8)", "10(b)(3)")
        _breach(breaches, "false_win_winning_hand", article,
                gettext_noop("{tiles} with {melds} meld(s) forms {sets} (Art. 4), so {seat}'s declaration was a "
                             "win, not a false win («jogo nulo»); record it as a win."),
                tiles=tiles_code(in_hand), melds=len(melds),
                sets=gettext_noop("4 sets and a pair") if variant == CONVENTIONAL else gettext_noop("1 set and a pair"),
                seat=SEAT_NAMES[offender])


def _check_melds(jogo: Record, hand: Hand, breaches: list[Breach]) -> tuple[TileSet, ...]:
    """Art. 5: each declared meld is a real chow, pong or kong, claimed as the variant allows."""
    melds = []
    conventional = jogo.variant == CONVENTIONAL
    for index, meld in enumerate(hand.melds):
        kind = meld.kind
        tile_set = declared_set(kind, meld.tiles, meld.exposed)
        if tile_set is None:
            article = "5(a)(3)" if kind == CHOW else "5(a)(4)" if kind == PONG else art(jogo, "5(a)(5)", "5(b)(4)")
            _breach(breaches, "meld_shape", article,
                    gettext_noop("hand.melds[{index}] is declared a {kind} but holds {tiles}."),
                    index=index, kind=kind, tiles=tiles_code(meld.tiles) or gettext_noop("no tiles"))
        elif not conventional and kind != KONG:
            _breach(breaches, "simplified_claim", "5(b)(3)",
                    gettext_noop("hand.melds[{index}]: no chow or pong may be claimed in the simplified game; a "
                                 "discard is taken only to win or to make an open kong."), index=index)
        elif not meld.exposed and kind != KONG:
            _breach(breaches, "meld_concealed", art(jogo, "5(a)(5)", "5(b)(4)"),
                    gettext_noop("hand.melds[{index}]: only a kong may be declared concealed; a concealed {kind} "
                                 "belongs in hand.concealed."), index=index, kind=kind)
        else:
            melds.append(tile_set)
    if len(hand.melds) > MAX_SETS[jogo.variant]:
        _breach(breaches, "hand_shape", art(jogo, "4(a)", "4(b)"),
                gettext_noop("{melds} melds declared; a winning hand has {sets} set(s) in all."),
                melds=len(hand.melds), sets=MAX_SETS[jogo.variant])
    return tuple(melds)


def _check_shape(jogo: Record, hand: Hand, melds: tuple[TileSet, ...], breaches: list[Breach]) \
        -> tuple[list[Shape], int]:
    """Art. 2 (the variant's tiles, four of each) and Art. 4 (sets and a pair).

    Returns every reading of the hand (none when it is not a winning hand) and the counts of all
    its tiles, melds included (tiles.py; 0 when refused).
    """
    variant = jogo.variant
    in_hand = len(hand.concealed) + 1  # the concealed tiles and the winning tile
    counts, tiles = hand.counts, in_hand
    for meld in hand.melds:
        counts += meld.counts
        tiles += len(meld.tiles)
    # Art. 2: the variant's kinds only, four of each. Looked at tile by tile only when the counts
    # cannot tell at a glance.
    if not within_art_2(counts, tiles, variant) and _check_tiles(jogo, hand, hand.concealed + (hand.winning_tile,),
                                                                  breaches):
        return [], 0  # already refused; no reading to look for
    declared = len(melds)
    if declared != len(hand.melds) or declared > MAX_SETS[variant]:
        return [], 0  # already refused
    expected = HAND_TILES[variant] - 3 * declared
    if in_hand != expected:
        _breach(breaches, "hand_size", art(jogo, "4(a)", "4(b)"),
                gettext_noop("the concealed tiles and the winning tile number {tiles}; with {melds} meld(s) a "
                             "winning hand needs {expected} ({hand} tiles in sets and a pair, a kong counting as "
                             "a set of three)."),
                tiles=in_hand, melds=declared, expected=expected, hand=HAND_TILES[variant])
        return [], 0
    shapes = decompose(hand.counts, melds)
    if not shapes:
        _thirteen_orphans_or_breach(jogo, hand, melds, shapes, breaches)
    return shapes, counts


def _thirteen_orphans_or_breach(jogo: Record, hand: Hand, melds: tuple[TileSet, ...], shapes: list[Shape],
                                breaches: list[Breach]) -> None:
    """Art. 6(a)(3): thirteen orphans is the one winning hand of no sets (added to `shapes`);
    any other hand that is no four sets and a pair breaks Art. 4."""
    variant = jogo.variant
    in_hand = hand.concealed + (hand.winning_tile,)
    if variant == CONVENTIONAL and not melds:
        orphans = thirteen_orphans(counts_of(in_hand))
        if orphans:
            shapes.append(orphans)
            return
    sets = gettext_noop("4 sets and a pair") if variant == CONVENTIONAL else gettext_noop("1 set and a pair")
    seven_pairs = variant == CONVENTIONAL and is_seven_pairs(counts_of(in_hand))
    _breach(breaches, "not_a_winning_hand", art(jogo, "4(a)", "4(b)"),
            gettext_noop("{tiles} with {melds} meld(s) does not form {sets}. Seven pairs is not a hand in "
                         "Macau.")
            if seven_pairs else gettext_noop("{tiles} with {melds} meld(s) does not form {sets}."),
            tiles=tiles_code(in_hand), melds=len(melds), sets=sets)


def _check_tiles(jogo: Record, hand: Hand, in_hand: tuple[int, ...], breaches: list[Breach]) -> bool:
    """Art. 2 tile by tile: whether the hand holds a tile foreign to the variant (2(b)) or a
    kind a fifth time (2(a), 2(b))."""
    every_tile = in_hand
    for meld in hand.melds:
        every_tile += meld.tiles
    kinds = KINDS[jogo.variant]
    foreign = [] if kinds.issuperset(every_tile) else sorted({t for t in every_tile if t not in kinds})
    if foreign:
        _breach(breaches, "tile_not_in_variant", "2(b)",
                gettext_noop("the simplified game has only the suits and the green dragon (6z); the hand holds "
                             "{tiles}."), tiles=", ".join(tile_code(t) for t in foreign))
    ordered = sorted(every_tile)
    extra = []
    if any(map(eq, ordered, ordered[COPIES:])):  # some kind appears a fifth time
        counts = counts_of(every_tile)
        extra = [t for t in range(34) if counts[t] > COPIES]
        _breach(breaches, "fifth_copy", art(jogo, "2(a)", "2(b)"),
                gettext_noop("the game has four of each tile; the hand holds {copies}."),
                copies=", ".join(f"{counts[t]} × {tile_code(t)}" for t in extra))
    return bool(foreign or extra)


def _check_conditions(jogo: Record, hand: Hand, kongs: int, breaches: list[Breach]) -> None:
    """Art. 5(a)(1)–(2), Art. 6(a)(2)–(3): the conditions claimed fit the win."""
    conditions = jogo.conditions
    if not conditions:
        return
    winner, discarder = jogo.winner, jogo.discarder
    natural = conditions & {"heavenly", "earthly"}
    if "heavenly" in conditions:
        article = art(jogo, "5(a)(1)", "5(b)(1)")
        if winner != BANKER:
            _breach(breaches, "heavenly", article,
                    gettext_noop("a heavenly win («t'in vu») is the banker's (East) alone."))
        if discarder is not None or hand.melds:
            _breach(breaches, "heavenly", article,
                    gettext_noop("a heavenly win is made with the banker's dealt tiles: no discard and no melds."))
    if "earthly" in conditions:
        article = art(jogo, "5(a)(2)", "5(b)(2)")
        if winner == BANKER or discarder != BANKER:
            _breach(breaches, "earthly", article,
                    gettext_noop("an earthly win («tei vu») is a non-banker's win on the banker's (East) first "
                                 "discard."))
        if hand.melds:
            _breach(breaches, "earthly", article, gettext_noop("an earthly win is made before any meld is declared."))
    others = conditions - natural
    if len(natural) == 2 or (natural and others):
        _breach(breaches, "conditions_conflict", art(jogo, "5(a)(1)", "5(b)(1)"),
                gettext_noop("heavenly and earthly wins are made at the very start of the jogo and go with no other "
                             "condition; recorded: {conditions}."), conditions=", ".join(sorted(conditions)))
    if "robbing_kong" in conditions:
        article = art(jogo, "6(a)(2)", "6(b)(2)")
        if discarder is None:
            _breach(breaches, "robbing_kong", article,
                    gettext_noop("robbing a kong («ch'éong kóng») is won on another player's kong tile; name that "
                                 "player as the discarder."))
        held = _copies_held(hand, hand.winning_tile)
        if held:
            _breach(breaches, "robbing_kong", article,
                    gettext_noop("the robbed tile {tile} was the fourth copy of the kong being made, so the winner "
                                 "can hold no other copy; he holds {held} more."),
                    tile=tile_code(hand.winning_tile), held=held)
    for condition, needed, article in (("kong_replacement", 1, art(jogo, "6(a)(2)", "5(b)(4)")),
                                       ("kong_upon_kong", 2, art(jogo, "6(a)(3)", "5(b)(4)"))):
        if condition not in conditions:
            continue
        if discarder is not None:
            _breach(breaches, condition, article,
                    gettext_noop("{condition} is won on the replacement tile the winner draws himself; there is no "
                                 "discarder."), condition=condition.replace("_", " "))
        if kongs < needed:
            _breach(breaches, condition, article,
                    gettext_noop("{condition} needs at least {needed} kong(s) in the hand; it has {kongs}."),
                    condition=condition.replace("_", " "), needed=needed, kongs=kongs)


def _copies_held(hand: Hand, tile: int) -> int:
    """Copies of `tile` in the hand besides the winning tile itself."""
    return hand.concealed.count(tile) + sum(meld.tiles.count(tile) for meld in hand.melds)


def _check_conduct(jogo: Record, has_kong: bool, breaches: list[Breach]) -> None:
    """Art. 9: conduct recorded against a seat bars its win or its kongs."""
    for entry in jogo.conduct:
        if entry.kind == "declined_pong":
            if jogo.variant != CONVENTIONAL:
                _breach(breaches, "declined_pong_simplified", "5(b)(3)",
                        gettext_noop("{seat}: no pong can be called in the simplified game."),
                        seat=SEAT_NAMES[entry.seat])
            elif entry.seat == jogo.winner:
                _breach(breaches, "winner_declined_pong", "9(a)(2)",
                        gettext_noop("{seat} called pong and declined it, and so cannot win this jogo."),
                        seat=SEAT_NAMES[entry.seat])
        else:
            article = art(jogo, "9(a)(3)", "9(b)(2)")
            if entry.seat == jogo.winner and has_kong:
                _breach(breaches, "saw_tiles_kong", article,
                        gettext_noop("{seat} looked at another player's tiles and so cannot make a kong this jogo, "
                                     "but the winning hand holds one."), seat=SEAT_NAMES[entry.seat])
            if entry.seat == jogo.discarder and "robbing_kong" in jogo.conditions:
                _breach(breaches, "saw_tiles_kong", article,
                        gettext_noop("{seat} looked at another player's tiles and so could not make the kong that "
                                     "was robbed."), seat=SEAT_NAMES[entry.seat])


def _honours_on_view(hand: Hand, winning: int) -> bool:
    """§8.12, the Chinese 10(a)(3): the winner had already exposed two sets of the dragons (or
    three of the winds) the discarded tile completed."""
    group = DRAGONS if winning in DRAGONS else WINDS
    on_view = [m for m in hand.melds if m.exposed and m.kind != CHOW and m.tiles[0] in group]
    return len(on_view) >= len(group) - 1


def _check_claims(jogo: Record, winner: str, breaches: list[Breach]) -> None:
    """Art. 5(a)(6), 5(b)(5): of several players claiming one discard to win, only the first in
    turn order after the discarder wins. A player barred by Art. 9(a)(2) has no claim.

    I-15: a win may complete a sequence on any player's discard; Art. 5(a)(3) (only the player
    on the discarder's right takes a discard to make a sequence) governs claims made to meld."""
    if not jogo.claimants:
        return
    article = art(jogo, "5(a)(6)", "5(b)(5)")
    if jogo.discarder is None:
        _breach(breaches, "claim_priority", article,
                gettext_noop("a self-drawn win has no competing claims on a discard."))
        return
    if winner in jogo.claimants or jogo.discarder in jogo.claimants:
        _breach(breaches, "claim_priority", article,
                gettext_noop("claimants lists the other players who also claimed the discard; not the winner or the "
                             "discarder."))
        return
    barred = {c.seat for c in jogo.conduct if c.kind == "declined_pong"}
    for seat in turn_order_after(jogo.discarder, jogo.capital):
        if seat == winner:
            return
        if seat in jogo.claimants and seat not in barred:
            _breach(breaches, "claim_priority", article,
                    gettext_noop("{seat} also claimed {discarder}'s discard to win and comes first after the "
                                 "discarder, so {seat} wins, not {winner}."),
                    seat=SEAT_NAMES[seat], discarder=SEAT_NAMES[jogo.discarder], winner=SEAT_NAMES[winner])
            return


def _check_pay_all(jogo: Record, hand: Hand, pay_all: PayAll, best: Grade, rules: RuleSet,
                   breaches: list[Breach]) -> None:
    """Art. 10: the pay-all's article fits the jogo, and no exemption applies (I-9)."""
    readings = rules.readings
    article = pay_all.article
    liable = SEAT_NAMES[pay_all.seat]
    codes = {item.code for item in best.items}
    if pay_all.seat == jogo.winner:
        _breach(breaches, "pay_all_seat", article,
                gettext_noop("the winner cannot be the player liable for a pay-all."))
        return
    if (article[3] == "a") != (jogo.variant == CONVENTIONAL):
        _breach(breaches, "pay_all_article", article,
                gettext_noop("this pay-all is of the {article_variant} game; this jogo is {variant}."),
                article_variant="conventional" if article[3] == "a" else "simplified", variant=jogo.variant)
        return
    # I-16: sets on view; a concealed kong is not (unless the rule set counts every declared meld).
    exposed = [m for m in hand.melds if m.exposed or readings["I-16"] == "any_declared"]
    winning = hand.winning_tile
    if article == "10(a)(2)":
        # The liable discard made the fourth exposed set; the winner then drew the winning tile.
        if jogo.discarder is not None:
            _breach(breaches, "pay_all_trigger", article,
                    gettext_noop("the winner must have won on his own next draw after the fourth exposed set."))
        if "pure_one_suit" not in codes or len(exposed) != 4:
            _breach(breaches, "pay_all_trigger", article,
                    gettext_noop("the winning hand must be pure one suit («ch'èng iat sêk») with four exposed sets."))
        return  # a pure-one-suit hand is neither exempt hand, and its tiles are no honours
    if jogo.discarder != pay_all.seat:
        _breach(breaches, "pay_all_trigger", article,
                gettext_noop("{liable} must have discarded the winning tile, but the discarder is {discarder}."),
                liable=liable,
                discarder=SEAT_NAMES[jogo.discarder] if jogo.discarder else gettext_noop("nobody (self-drawn)"))
        return
    if article == "10(a)(1)" and ("pure_one_suit" not in codes or len(exposed) < 3):
        _breach(breaches, "pay_all_trigger", article,
                gettext_noop("the winning hand must be pure one suit («ch'èng iat sêk») with 3 or 4 sets exposed on "
                             "the table; a concealed kong is not on view (I-16)."))
    elif article == "10(a)(1)" and len(exposed) == 4 and readings["§8.10"] == "chinese":
        _breach(breaches, "pay_all_trigger", article,
                gettext_noop("under the Chinese text (九章) the winning hand shows exactly 3 exposed sets; with 4 the "
                             "case is that of 10(a)(2)."))
    elif article == "10(a)(3)" and not (codes & {"big_three_dragons", "big_four_winds"} and winning in HONOURS):
        _breach(breaches, "pay_all_trigger", article,
                gettext_noop("the discarded tile must be a dragon or wind that completed big three dragons («tai sam "
                             "un») or big four winds («tai sei hei»)."))
    elif article == "10(a)(3)" and readings["§8.12"] == "chinese" and not _honours_on_view(hand, winning):
        _breach(breaches, "pay_all_trigger", article,
                gettext_noop("under the Chinese text (已經碰出) two dragon sets, or three wind sets, must already have "
                             "been exposed when the winning tile was discarded."))
    elif article == "10(a)(5)" and pay_all.broken_set == "chow" and readings["I-12"] == "pong_only":
        _breach(breaches, "pay_all_trigger", article,
                gettext_noop("this rule set reads 10(a)(5) by the Chinese text (拆一擱碰牌): only breaking a pong "
                             "makes {liable} liable, not breaking a chow (I-12)."), liable=liable)
    elif article == "10(a)(5)" and pay_all.broken_set == "chow":
        # I-12: PT «um conjunto de 3» is any set of three (ZH 拆一擱碰牌 says a pong; PT governs).
        # A chow holds suit tiles only, and breaking one limits no copy of the winning tile.
        if winning in HONOURS:
            _breach(breaches, "pay_all_trigger", article,
                    gettext_noop("{liable} broke a concealed chow and discarded from it, so the winning tile is a "
                                 "suit tile, not {tile} (I-12)."), liable=liable, tile=tile_code(winning))
    elif article in ("10(a)(5)", "10(b)(2)") and _copies_held(hand, winning) > 1:
        _breach(breaches, "pay_all_trigger", article,
                gettext_noop("{liable} broke a concealed triplet of {tile}: with his three copies the winner can hold "
                             "at most one more besides the winning tile, but holds {held}."),
                liable=liable, tile=tile_code(winning), held=_copies_held(hand, winning))
    elif article == "10(b)(1)" and readings["I-14"] == "winner_holds_none" and (
            winning == GREEN_DRAGON or _copies_held(hand, GREEN_DRAGON)):
        # I-14: "the 4th green" is the last one: the other three are on view, so the winner holds none.
        _breach(breaches, "pay_all_trigger", article,
                gettext_noop("{liable} held the last green dragon (6z), the other three being on view, and "
                             "discarded another tile: the winning tile cannot be 6z, and the winner cannot hold "
                             "any 6z; he holds {held} (I-14)."),
                liable=liable, held=_copies_held(hand, GREEN_DRAGON) + (winning == GREEN_DRAGON))
    if jogo.variant == CONVENTIONAL and codes & {"pure_terminals", "all_honours"}:
        _breach(breaches, "pay_all_exempt", "10(a)(9)",
                gettext_noop("no pay-all on a pure terminals («ch'êng iu») or all honours («chun chu») hand."))
    live_honour = winning in HONOURS if jogo.variant == CONVENTIONAL else winning == GREEN_DRAGON
    if pay_all.live_tile and live_honour:
        _breach(breaches, "pay_all_exempt", art(jogo, "10(a)(10)", "10(b)(4)"),
                gettext_noop("no pay-all for discarding {tile}, a dragon or wind not yet seen on the table."),
                tile=tile_code(winning))
