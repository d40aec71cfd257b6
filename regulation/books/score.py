"""Scoring one book record under one book's rule set: every player's hand, then who pays whom."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import msgspec

from ..errors import MalformedRecord, gettext_noop
from ..seats import SEATS
from ..tiles import tile_code
from . import cartas, english, serralheiro
from .base import BookRuleSet, Item, Seated, Valuation
from .record import FROM_A_DISCARD, BookRecord
from .settlement import Payment, settle
from .shapes import held_shapes, winning_shapes

BOOK_MODULES: dict[str, ModuleType] = {serralheiro.RULES.code: serralheiro, english.RULES.code: english,
                                       cartas.RULES.code: cartas}


@dataclass(frozen=True)
class BookError:
    code: str
    section: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "section": self.section, "message": self.message}


@dataclass(frozen=True)
class PlayerScore:
    seat: str
    winner: bool
    banker: bool
    valuation: Valuation
    limit: int | None
    limited_score: int

    def to_dict(self) -> dict[str, Any]:
        v = self.valuation
        return {
            "winner": self.winner, "banker": self.banker,
            "points": [_item(i, "points") for i in v.points],
            "doubles": [_item(i, "doubles") for i in v.doubles],
            "limit_hand": ({"code": v.limit_hand.code, "section": v.limit_hand.section}
                           if v.limit_hand else None),
            "points_total": v.points_total, "doubles_total": v.doubles_total, "score": v.score,
            "limit": self.limit, "limited_score": self.limited_score,
        }


def _item(item: Item, key: str) -> dict[str, str | int]:
    out: dict[str, str | int] = {"code": item.code, key: item.value, "section": item.section}
    if item.tiles is not None:
        out["tiles"] = item.tiles
    return out


@dataclass(frozen=True)
class BookResult:
    rules: BookRuleSet
    errors: tuple[BookError, ...] = ()
    players: dict[str, PlayerScore] = field(default_factory=dict)
    payments: tuple[Payment, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def net(self) -> dict[str, int]:
        net = dict.fromkeys(SEATS, 0)
        for p in self.payments:
            net[p.payer] -= p.amount
            net[p.payee] += p.amount
        return net

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": {"code": self.rules.code, "version": self.rules.version},
            "valid": self.valid,
            "errors": [e.to_dict() for e in self.errors],
            "players": {seat: p.to_dict() for seat, p in self.players.items()},
            "payments": [p.to_dict() for p in self.payments],
            "net": self.net,
            "readings": dict(self.rules.readings),
        }

    def to_json(self) -> bytes:
        return msgspec.json.encode(self.to_dict())


def score_book(record: BookRecord, rules: BookRuleSet) -> BookResult:
    """Every player's hand scored by the book, and the payments; a refused result (`valid`
    false, with errors) when a tile is held more than four times or the winner's hand is not
    complete. An unknown reading in the record's `rules` raises `MalformedRecord`, and so does a
    winner whose hand is not complete with four of a kind among his concealed tiles (a kong to
    write among his melds)."""
    if record.rules:
        rules = rules.with_readings(record.rules)
    book = BOOK_MODULES[rules.code]
    errors = _tile_errors(record, rules)
    if errors:
        return BookResult(rules, tuple(errors))
    numbers = book.seat_numbers(rules)
    players: dict[str, PlayerScore] = {}
    for seat, player in record.players.items():
        hand = Seated(seat, player, record, numbers)
        if hand.winner:
            shapes = [s for s in winning_shapes(player.concealed, player.melds, record.winning_tile,
                                                on_discard=record.winning_from in FROM_A_DISCARD,
                                                discard_pong_exposed=book.discard_pong_exposed(rules))
                      if book.accepts(s)]
            if not player.melds:  # the hands that are no sets, made in hand
                shapes += book.irregular(tuple(sorted(player.concealed + (record.winning_tile,))))
            if not shapes:
                _refuse_a_kong_left_among_the_concealed_tiles(seat, player.concealed + (record.winning_tile,),
                                                              book)
                return BookResult(rules, (BookError("not_a_winning_hand", _hand_section(rules),
                                                    gettext_noop("The winner's tiles do not make a complete hand: "
                                                                 "four sets and a pair, or a hand the book "
                                                                 "names.")),))
        else:
            shapes = held_shapes(player.concealed, player.melds, kongs_in_hand=book.KONGS_IN_HAND)
        scored = [(v, _limited(hand, v, rules)) for v in (book.value(hand, s, rules) for s in shapes)]
        valuation, (limit, limited) = max(scored, key=lambda pair: (pair[1][1], pair[0].score))
        players[seat] = PlayerScore(seat, hand.winner, hand.banker, valuation, limit, limited)
    winner = players[record.winner]
    if rules.code == cartas.RULES.code and rules.reading("P-A14") == "two_doubles" \
            and winner.valuation.limit_hand is None and winner.valuation.doubles_total < 2:
        return BookResult(rules, (BookError("fewer_than_two_doubles", "Regras complementares, i",
                                            gettext_noop("The winner holds fewer than the two doubles needed to "
                                                         "go out.")),))
    values = {seat: players[seat].limited_score if seat in players else 0 for seat in SEATS}
    payments = settle(rules, values, winner=record.winner, banker=record.banker)
    return BookResult(rules, (), players, tuple(payments))


# Where each book says what a complete hand is, and what its tiles are.
HAND_SECTIONS = {serralheiro.RULES.code: "§9(a)", english.RULES.code: "Object of the game",
                 cartas.RULES.code: "Combinações simples"}
TILE_SECTIONS = {serralheiro.RULES.code: "Categorias das pedras", english.RULES.code: "The set of cards",
                 cartas.RULES.code: "O baralho (144 cartas)"}


def _refuse_a_kong_left_among_the_concealed_tiles(seat: str, in_hand: tuple[int, ...], book: ModuleType) -> None:
    """A winner whose tiles make no complete hand while four of a kind is among his concealed
    tiles: most likely a kong written there rather than among the melds. `MalformedRecord` names
    his concealed tiles and says, in the book's terms, how a kong is written."""
    fours = sorted(tile for tile, count in Counter(in_hand).items() if count == 4)
    if fours:
        raise MalformedRecord(f"players.{seat}.concealed", book.UNDECLARED_KONG, tile=tile_code(fours[0]))


def _hand_section(rules: BookRuleSet) -> str:
    return HAND_SECTIONS[rules.code]


def _limited(hand: Seated, valuation: Valuation, rules: BookRuleSet) -> tuple[int | None, int]:
    """The hand's limit and its value after it: a limit hand is worth its share of the limit
    (Serralheiro's «1/2 limite» half of it)."""
    limit = rules.banker_limit if hand.banker else rules.limit
    limit_hand = valuation.limit_hand
    if limit_hand is not None:  # worth its share of the limit, or its own value if that is more
        numerator, denominator = limit_hand.share
        return limit, max(limit * numerator // denominator, min(valuation.score, limit))
    uncapped = ((rules.code == serralheiro.RULES.code and rules.reading("S-A12") == "no_limit")
                or (rules.code == cartas.RULES.code and rules.reading("P-A7") == "special_hands_only"))
    if uncapped:
        return None, valuation.score
    return limit, min(valuation.score, limit)


def _tile_errors(record: BookRecord, rules: BookRuleSet) -> list[BookError]:
    """Four of each tile, one of each flower and season, across all the players."""
    counts: Counter[int] = Counter()
    flowers: Counter[str] = Counter()
    for player in record.players.values():
        counts.update(player.concealed)
        for meld in player.melds:
            counts.update(meld.tiles)
        flowers.update(f"f{n}" for n in player.flowers)
        flowers.update(f"g{n}" for n in player.seasons)
    counts[record.winning_tile] += 1
    section = TILE_SECTIONS[rules.code]
    errors = [BookError("tile_over_four", section,
                        gettext_noop("{tile} is held {count} times; there are four of each tile.").format(
                            tile=tile_code(t), count=n))
              for t, n in sorted(counts.items()) if n > 4]
    errors += [BookError("flower_twice", section,
                         gettext_noop("{flower} is held by two players; there is one of each flower and "
                                      "season.").format(flower=f))
               for f, n in sorted(flowers.items()) if n > 1]
    return errors
