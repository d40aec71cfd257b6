"""The portable jogo record (docs/record-format.md): reading it into a `Record`.

Reading rejects what cannot be understood at all (`MalformedRecord`: not JSON, not an object,
a wrong type, an unknown field or tile, a missing field, an absurd size). Whether a well-formed
jogo obeys the regulation is decided by `regulation.jogo.score`.

The shape of the record is declared once, as msgspec structs below; msgspec checks types,
required and unknown fields, enumerations and sizes in one pass (in C). What it cannot
express, this module checks after it: tile notation, amounts written as decimal strings, and
the fields that only some results have.
"""
from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal, Mapping, Union, get_args

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from .errors import MalformedRecord, gettext_noop
from .seats import SEATS
from .tiles import TileNotationError, read_tiles, tile_code
from .values import Value

MAX_AMOUNT = 10**12  # no table holds a trillion patacas
MAX_TILE_TEXT = 80  # a 14-tile hand written out in full with spaces is well under this
MAX_MELDS = 4

Seat = Literal["E", "S", "W", "N"]
Condition = Literal["heavenly", "earthly", "robbing_kong", "kong_replacement", "kong_upon_kong", "last_tile"]
PayAllArticle = Literal["10(a)(1)", "10(a)(2)", "10(a)(3)", "10(a)(4)", "10(a)(5)", "10(a)(6)",
                        "10(b)(1)", "10(b)(2)"]
Amount = Union[Annotated[int, Meta(ge=0, le=MAX_AMOUNT)],
               # "5000", "90.00": whole units written as a plain decimal, no sign or exponent
               Annotated[str, Meta(pattern=r"^[0-9]{1,13}(\.[0-9]{1,2})?$")]]
TileText = Annotated[str, Meta(max_length=MAX_TILE_TEXT)]

CONDITIONS: tuple[str, ...] = get_args(Condition)
PAY_ALL_ARTICLES: tuple[str, ...] = get_args(PayAllArticle)


# --- The record as written (docs/record-format.md) ---------------------------------------------------
# gc=False: a decoded record holds strings, numbers and other records, never a reference cycle,
# so the cyclic garbage collector need not track it (values.py says the same of the engine's values).

class _Meld(Struct, forbid_unknown_fields=True, gc=False):
    kind: Literal["chow", "pong", "kong"]
    tiles: TileText
    exposed: bool


class _Hand(Struct, forbid_unknown_fields=True, gc=False):
    concealed: TileText
    winning_tile: TileText
    melds: Annotated[list[_Meld], Meta(max_length=MAX_MELDS)] | None = None


class _Conduct(Struct, forbid_unknown_fields=True, gc=False):
    seat: Seat
    kind: Literal["declined_pong", "saw_tiles"]


class _PayAll(Struct, forbid_unknown_fields=True, gc=False):
    seat: Seat
    article: PayAllArticle
    live_tile: bool = False
    broken_set: Literal["pong", "chow"] | None = None  # 10(a)(5) only (I-12); absent means a pong


class _FalseWin(Struct, forbid_unknown_fields=True, gc=False):
    seat: Seat


class _Rules(Struct, forbid_unknown_fields=True, gc=False):
    fan_combination: Literal["additive", "highest_plus_bonus"] | None = None


class _Capital(Struct, forbid_unknown_fields=True, gc=False):
    """Capital at stake per seated seat wind (a struct rather than a dict, so that an error
    names the seat)."""

    E: Amount | UnsetType = UNSET
    S: Amount | UnsetType = UNSET
    W: Amount | UnsetType = UNSET
    N: Amount | UnsetType = UNSET


class _Record(Struct, forbid_unknown_fields=True, gc=False):
    variant: Literal["conventional", "simplified"]
    stake: Amount
    round_wind: Seat
    capital: _Capital
    result: Literal["win", "draw", "false_win"]
    winner: Seat | None = None
    discarder: Seat | None | UnsetType = UNSET  # a win must say: a seat, or null when self-drawn
    hand: _Hand | None = None
    conditions: Annotated[list[Condition], Meta(max_length=6)] | None = None
    declared_fan: Annotated[int, Meta(ge=0, le=2)] | None = None
    conduct: Annotated[list[_Conduct], Meta(max_length=8)] | None = None
    claimants: Annotated[list[Seat], Meta(max_length=3)] | None = None
    pay_all: _PayAll | None = None
    false_win: _FalseWin | None = None
    rules: _Rules | None = None


_DECODER = msgspec.json.Decoder(_Record)


# --- The jogo as the engine reads it ------------------------------------------------------------
# Values (values.py): a jogo is built on every scoring, and msgspec structs build several times
# faster than frozen dataclasses (benchmarks/engine.py).

class Meld(Value, frozen=True):
    kind: str
    tiles: tuple[int, ...]
    exposed: bool
    counts: int  # of its tiles by kind (tiles.read_tiles)


class Hand(Value, frozen=True):
    concealed: tuple[int, ...]  # without the winning tile and without concealed kongs
    melds: tuple[Meld, ...]
    winning_tile: int
    counts: int  # of the tiles in hand by kind, the winning tile included (tiles.read_tiles)


class Conduct(Value, frozen=True):
    seat: str
    kind: str  # Art. 9(a)(2) declined_pong, Art. 9(a)(3)/(b)(2) saw_tiles


class PayAll(Value, frozen=True):
    seat: str
    article: str
    live_tile: bool
    broken_set: str | None = None  # 10(a)(5), I-12: "pong" or "chow"; None for the other articles


class Record(Value, frozen=True):
    """One jogo's record as the engine reads it: amounts in whole units, tiles as kinds (tiles.py),
    seats as seat winds. `_Record` above is the same record as written."""

    variant: str
    stake: int
    round_wind: str
    capital: Mapping[str, int]  # keyed in turn order E, S, W, N
    result: str
    winner: str | None = None
    discarder: str | None = None
    hand: Hand | None = None
    conditions: frozenset[str] = frozenset()
    declared_fan: int | None = None
    conduct: tuple[Conduct, ...] = ()
    claimants: tuple[str, ...] = ()
    pay_all: PayAll | None = None
    false_win: str | None = None  # the offender's seat
    fan_combination: str | None = None  # the record's override of the reading (I-5)


def read_record(data: Any) -> Record:
    """A `Record` from a decoded JSON value, or `MalformedRecord` naming the field."""
    try:
        record = msgspec.convert(data, _Record)
    except msgspec.ValidationError as error:
        raise malformed(error) from None
    return _read(record)


def decode_record(raw: bytes) -> Record:
    """A `Record` from the JSON text of one record, or `MalformedRecord`."""
    try:
        record = _DECODER.decode(raw)
    except msgspec.ValidationError as error:
        raise malformed(error) from None
    except msgspec.DecodeError as error:
        raise MalformedRecord("", gettext_noop("not JSON: {error}"), error=str(error)) from None
    return _read(record)


def malformed(error: msgspec.ValidationError, see: str = gettext_noop("{error} (see JOGO-FORMAT.md)")) \
        -> MalformedRecord:
    """msgspec says "Expected `int`, got `str` - at `$.capital.E`"; name the field plainly. `see`
    is the message, with `{error}`, that sends the reader to the record's format (the book record
    has its own)."""
    message, _, where = str(error).partition(" - at `")
    where = where.rstrip("`")
    path = where.removeprefix("$").lstrip(".")
    if "field `" in message:  # a missing or unknown field: name it in full
        name = message.split("field `", 1)[1].rstrip("`")
        path = f"{path}.{name}" if path else name
        message = message.replace(f" `{name}`", "")
    message = message.replace("Object", "this object")
    return MalformedRecord(path, see, error=message[0].lower() + message[1:])


def _read(record: _Record) -> Record:
    """The checks msgspec cannot express, and the conversion into a `Record`."""
    result = record.result
    winner, discarder, hand, false_win = record.winner, record.discarder, record.hand, record.false_win
    listed = record.claimants
    if result == "win":
        if winner is None:
            raise MalformedRecord("winner", gettext_noop("a won jogo names its winner"))
        if discarder is UNSET:
            raise MalformedRecord("discarder",
                                  gettext_noop("missing: the seat whose discard won, or null when self-drawn"))
        if hand is None:
            raise MalformedRecord("hand", gettext_noop("a won jogo records the winning hand"))
        if false_win is not None:
            raise MalformedRecord("false_win", gettext_noop("only a false_win jogo names an offender"))
    else:
        for name, value in (("discarder", discarder), ("pay_all", record.pay_all), ("claimants", listed)):
            if value:
                raise MalformedRecord(name, gettext_noop("only a won jogo has one; this jogo is a {result}"),
                                      result=result)
        discarder = None
        if result == "draw":
            for name, given in (("winner", winner), ("hand", hand), ("false_win", false_win)):
                if given is not None:
                    raise MalformedRecord(name, gettext_noop("a drawn jogo has none (I-1)"))
        elif false_win is None:
            raise MalformedRecord("false_win",
                                  gettext_noop("a false_win jogo names the offender: {{\"seat\": \"N\"}}"))
        elif winner is not None and winner != false_win.seat:
            raise MalformedRecord("winner", gettext_noop("in a false win, only the offender can be named as winner"))
    claimants: tuple[str, ...] = ()
    if listed:
        if len(set(listed)) != len(listed):
            raise MalformedRecord("claimants", gettext_noop("a seat is listed twice"))
        claimants = tuple(listed)
    conditions: frozenset[str] = _NO_CONDITIONS
    if record.conditions:
        if len(set(record.conditions)) != len(record.conditions):
            raise MalformedRecord("conditions", gettext_noop("a condition is listed twice"))
        conditions = frozenset(record.conditions)
    capital_field = record.capital
    east, south, west, north = amounts = capital_field.E, capital_field.S, capital_field.W, capital_field.N
    if type(east) is int and type(south) is int and type(west) is int and type(north) is int:
        capital = {"E": east, "S": south, "W": west, "N": north}  # four seats, whole numbers in range
    else:
        capital = {}
        for seat, amount in zip(SEATS, amounts):
            if amount is UNSET:
                continue
            if type(amount) is not int or amount < 0:  # a decimal string (msgspec checked an int's range)
                amount = _amount(f"capital.{seat}", amount, minimum=0)
            capital[seat] = amount  # in turn order, whatever the record's order
    if not capital:
        raise MalformedRecord("capital",
                              gettext_noop("no seat has capital: give it per seat wind, e.g. {{\"E\": 5000, ...}}"))
    stake = record.stake
    if type(stake) is not int or stake < 1:  # a decimal string, or too small
        stake = _amount("stake", stake, minimum=1)
    return Record(  # positionally, in the order of the fields: noticeably faster than by keyword
        record.variant,
        stake,
        record.round_wind,
        capital,
        result,
        winner,
        discarder,
        _hand(hand) if hand is not None else None,
        conditions,
        record.declared_fan,
        tuple(Conduct(c.seat, c.kind) for c in record.conduct) if record.conduct else (),
        claimants,
        _pay_all(record.pay_all) if record.pay_all is not None else None,
        false_win.seat if false_win is not None else None,
        record.rules.fan_combination if record.rules is not None else None,
    )


_NO_CONDITIONS: frozenset[str] = frozenset()
BROKEN_SET_ARTICLE = "10(a)(5)"


def _pay_all(pay_all: _PayAll) -> PayAll:
    """I-12: only a 10(a)(5) pay-all says which concealed set of three the liable player broke
    (PT «um conjunto de 3»: a pong or a chow); left out, it is a pong."""
    broken_set = pay_all.broken_set
    if pay_all.article == BROKEN_SET_ARTICLE:
        broken_set = broken_set or "pong"
    elif broken_set is not None:
        raise MalformedRecord("pay_all.broken_set",
                              gettext_noop("only a pay-all under Art. 10(a)(5) says which set was broken"))
    return PayAll(pay_all.seat, pay_all.article, pay_all.live_tile, broken_set)


def _amount(name: str, value: int | str, *, minimum: int) -> int:
    """Whole currency units: a JSON integer, or a decimal string such as "5000" or "5000.00"."""
    if isinstance(value, str):
        number = Decimal(value)
        if number != number.to_integral_value():
            raise MalformedRecord(name, gettext_noop("{value} is not a whole number of currency units"),
                                  value=repr(value))
        value = int(number)
    if value < minimum:
        raise MalformedRecord(name, gettext_noop("{value} is below the least allowed, {minimum}"),
                              value=value, minimum=minimum)
    if value > MAX_AMOUNT:  # a 13-digit string passes the pattern: the same bound as for an int
        raise MalformedRecord(name, gettext_noop("{value} is above the most allowed, {most}"),
                              value=value, most=MAX_AMOUNT)
    return value


# Winning tiles and melds ("7z", "1111s") repeat from jogo to jogo; whole hands do not.
_PARSED: dict[str, tuple[tuple[int, ...], int]] = {}
_PARSED_LENGTH = 5


def _tiles(name: str, text: str, index: int = 0) -> tuple[tuple[int, ...], int]:
    """The tiles of the field `name` (formatted with `index` for a meld, only if it is wrong)
    and their counts by kind (tiles.read_tiles)."""
    parsed = _PARSED.get(text)
    if parsed is not None:
        return parsed
    try:
        parsed = read_tiles(text)
    except TileNotationError as error:
        raise _not_notation(name.format(index), error) from None
    if len(text) <= _PARSED_LENGTH:
        _PARSED[text] = parsed
    return parsed


def _not_notation(name: str, error: TileNotationError) -> MalformedRecord:
    return MalformedRecord(name, gettext_noop("{error} (Art. 2; notation of RULES.md §1)"), error=str(error))


def _one_tiles() -> dict[str, tuple[int, int]]:
    """"5s" -> the tile and its counts: a winning tile is most often written so."""
    table = {}
    for tile in range(34):
        code = tile_code(tile)
        table[code] = tile, read_tiles(code)[1]
    return table


_ONE_TILE = _one_tiles()


def _winning_tile(text: str) -> tuple[int, int]:
    """The winning tile written otherwise (" 5s"), or `MalformedRecord`."""
    winning, counts = _tiles("hand.winning_tile", text)
    if len(winning) != 1:
        raise MalformedRecord("hand.winning_tile", gettext_noop("must be exactly one tile, not {tiles}"),
                              tiles=len(winning))
    return winning[0], counts


def _hand(hand: _Hand) -> Hand:
    winning, winning_counts = _ONE_TILE.get(hand.winning_tile) or _winning_tile(hand.winning_tile)
    # A meld's tiles were most likely read before: looked up without a call.
    melds = []
    if hand.melds:
        for index, meld in enumerate(hand.melds):
            tiles, counts = _PARSED.get(meld.tiles) or _tiles("hand.melds[{}].tiles", meld.tiles, index)
            melds.append(Meld(meld.kind, tiles, meld.exposed, counts))
    try:  # a whole hand is seldom met twice: read, not looked up
        concealed, counts = read_tiles(hand.concealed)
    except TileNotationError as error:
        raise _not_notation("hand.concealed", error) from None
    return Hand(concealed, tuple(melds), winning, counts + winning_counts)
