"""The book record: one hand of classical Mah-Jong as the three rule books score it.

It is the portable jogo record's style, extended to every player's tiles: each player's
concealed tiles, melds, flowers and seasons; the banker (East in all three books, any other
seat is refused), Serralheiro's opener («abridor»), the round wind, how the winning tile came,
and whether the winner went out on his own first turn of play (`first_turn`, read only by the
Brazilian rules' «Mão Celeste»). Reading rejects what cannot be understood (`MalformedRecord`);
whether the hand is a winning one is for `score_book` to say.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct

from ..errors import MalformedRecord, gettext_noop
from ..record import malformed
from ..seats import SEATS
from ..tiles import TileNotationError, read_tiles

Seat = Literal["E", "S", "W", "N"]
WinningFrom = Literal["discard", "self_drawn", "kong_replacement", "last_tile", "robbing_kong"]
TileText = Annotated[str, Meta(max_length=80)]
FROM_A_DISCARD = frozenset(("discard", "robbing_kong"))
DRAWN = frozenset(("self_drawn", "kong_replacement", "last_tile"))
HAND_TILES = 13  # a player holds 13, the winner 14, a kong counting as three (each book's §1)


class _Meld(Struct, forbid_unknown_fields=True, gc=False):
    kind: Literal["chow", "pong", "kong"]
    tiles: TileText
    exposed: bool = True


class _Player(Struct, forbid_unknown_fields=True, gc=False):
    concealed: TileText = ""
    melds: Annotated[list[_Meld], Meta(max_length=4)] = []
    flowers: Annotated[str, Meta(max_length=40)] = ""


class _Players(Struct, forbid_unknown_fields=True, gc=False):
    E: _Player | None = None
    S: _Player | None = None
    W: _Player | None = None
    N: _Player | None = None


class _Record(Struct, forbid_unknown_fields=True, gc=False):
    winner: Seat
    winning_from: WinningFrom
    winning_tile: TileText
    players: _Players
    round_wind: Seat = "E"
    banker: Seat = "E"
    opener: Seat | None = None
    discarder: Seat | None = None
    only_possible_tile: bool = False
    first_turn: bool = False
    rules: Annotated[dict[str, str], Meta(max_length=40)] = {}


_DECODER = msgspec.json.Decoder(_Record)


@dataclass(frozen=True)
class Meld:
    kind: str  # chow, pong, kong
    tiles: tuple[int, ...]
    exposed: bool


@dataclass(frozen=True)
class Player:
    concealed: tuple[int, ...]  # the winner's without the winning tile
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]  # 1–4, the seat each belongs to (1 E, 2 S, 3 W, 4 N)
    seasons: tuple[int, ...]


@dataclass(frozen=True)
class BookRecord:
    winner: str
    winning_from: str
    winning_tile: int
    players: dict[str, Player]  # in turn order; a loser left out of the record is absent
    round_wind: str = "E"
    banker: str = "E"
    opener: str = "E"
    discarder: str | None = None
    only_possible_tile: bool = False
    rules: dict[str, str] | None = None  # reading code -> alternative name, checked by score_book
    first_turn: bool = False  # the winner went out on his own first turn of play, self-drawn

    @property
    def self_drawn(self) -> bool:
        return self.winning_from in DRAWN


def read_book_record(data: Any) -> BookRecord:
    """A `BookRecord` from a decoded JSON value, or `MalformedRecord` naming the field."""
    try:
        record = msgspec.convert(data, _Record)
    except msgspec.ValidationError as error:
        raise _malformed(error) from None
    return _book_record(record)


def decode_book_record(raw: bytes | str) -> BookRecord:
    """A `BookRecord` from the JSON text of one record, or `MalformedRecord`."""
    try:
        record = _DECODER.decode(raw)
    except msgspec.ValidationError as error:
        raise _malformed(error) from None
    except msgspec.DecodeError as error:
        raise MalformedRecord("", gettext_noop("not JSON: {error}"), error=str(error)) from None
    return _book_record(record)


def _malformed(error: msgspec.ValidationError) -> MalformedRecord:
    return malformed(error, gettext_noop("{error} (see the book record's format)"))


def _tiles(name: str, text: str) -> tuple[int, ...]:
    try:
        return read_tiles(text)[0]
    except TileNotationError as error:
        raise MalformedRecord(name, gettext_noop("{error} (the tile notation: 1–9 m, p or s, 1–7 z)"),
                              error=str(error)) from None


_FLOWER = re.compile(r"[fg][1-4]")


def _flowers(name: str, text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """"f3 g1": flower 3 and season 1 (number n belongs to seat n: 1 E, 2 S, 3 W, 4 N)."""
    compact = text.replace(" ", "")
    codes = _FLOWER.findall(compact)
    if "".join(codes) != compact:
        raise MalformedRecord(name, gettext_noop("{text!r} is not flowers f1–f4 and seasons g1–g4"), text=text)
    if len(set(codes)) != len(codes):
        raise MalformedRecord(name, gettext_noop("there is one of each flower and season"))
    return (tuple(sorted(int(c[1]) for c in codes if c[0] == "f")),
            tuple(sorted(int(c[1]) for c in codes if c[0] == "g")))


_MELD_SIZE = {"chow": 3, "pong": 3, "kong": 4}


def _meld(name: str, meld: _Meld) -> Meld:
    tiles = tuple(sorted(_tiles(name, meld.tiles)))
    if len(tiles) != _MELD_SIZE[meld.kind]:
        raise MalformedRecord(name, gettext_noop("a {kind} has {size} tiles, not {count}"),
                              kind=meld.kind, size=_MELD_SIZE[meld.kind], count=len(tiles))
    if meld.kind == "chow":
        first = tiles[0]
        if first >= 27 or tiles != (first, first + 1, first + 2) or first % 9 > 6:
            raise MalformedRecord(name, gettext_noop("a chow is three tiles in a row of one suit"))
    elif len(set(tiles)) != 1:
        raise MalformedRecord(name, gettext_noop("a {kind} is made of one tile"), kind=meld.kind)
    if not meld.exposed and meld.kind != "kong":
        raise MalformedRecord(name, gettext_noop("only a kong is declared concealed; other concealed sets "
                                                 "stay in the concealed tiles"))
    return Meld(meld.kind, tiles, meld.exposed)


def _book_record(record: _Record) -> BookRecord:
    if record.banker != "E":
        # Serralheiro: «Ao banqueiro corresponde sempre o vento Este»; the English booklet: "The Chief
        # is always considered as East"; the Brazilian rules: «o carteador … é sempre o jogador de
        # Leste, ao qual cabe também a função de banqueiro». When the bank passes, the winds move with it.
        raise MalformedRecord("banker", gettext_noop("East is the banker in all three books: give East, or leave "
                                                     "the banker out"))
    winning = _tiles("winning_tile", record.winning_tile)
    if len(winning) != 1:
        raise MalformedRecord("winning_tile", gettext_noop("must be exactly one tile, not {count}"),
                              count=len(winning))
    if record.winning_from in FROM_A_DISCARD:
        if record.discarder is None:
            raise MalformedRecord("discarder", gettext_noop("a win on a discard or a robbed kong names the "
                                                            "seat it came from"))
        if record.discarder == record.winner:
            raise MalformedRecord("discarder", gettext_noop("the winner cannot win on his own discard"))
    elif record.discarder is not None:
        raise MalformedRecord("discarder", gettext_noop("only a win on a discard or a robbed kong has one"))
    if record.first_turn and record.winning_from != "self_drawn":
        # Mão Celeste: «só fará a Mão Celeste se ele bater na sua vez de jogar», with his own draw.
        raise MalformedRecord("first_turn", gettext_noop("only a self-drawn win can be made on the winner's own "
                                                         "first turn («na sua vez de jogar»)"))
    players: dict[str, Player] = {}
    for seat in SEATS:
        raw = getattr(record.players, seat)
        if raw is None:
            continue
        where = f"players.{seat}"
        melds = tuple(_meld(f"{where}.melds[{i}].tiles", m) for i, m in enumerate(raw.melds))
        concealed = _tiles(f"{where}.concealed", raw.concealed)
        flowers, seasons = _flowers(f"{where}.flowers", raw.flowers)
        expected = HAND_TILES - 3 * len(melds)
        if len(concealed) != expected:
            if seat == record.winner:
                template = gettext_noop("{count} tiles; with {melds} melds the winner holds {expected} concealed "
                                        "tiles besides the winning tile")
            else:
                template = gettext_noop("{count} tiles; with {melds} melds a player holds {expected} concealed "
                                        "tiles (13 in hand, a kong counting as three)")
            raise MalformedRecord(f"{where}.concealed", template, count=len(concealed), melds=len(melds),
                                  expected=expected)
        players[seat] = Player(concealed, melds, flowers, seasons)
    if record.winner not in players:
        raise MalformedRecord(f"players.{record.winner}", gettext_noop("the winner's tiles are missing"))
    return BookRecord(record.winner, record.winning_from, winning[0], players, record.round_wind,
                      record.banker, record.opener or record.banker, record.discarder,
                      record.only_possible_tile, dict(record.rules), record.first_turn)
