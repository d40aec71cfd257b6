"""The portable jogo record (JOGO-FORMAT.md): reading it into a `Jogo`.

Reading rejects what cannot be understood at all (`MalformedRecord`: not an object, a wrong
type, an unknown tile or field, a missing field, an absurd size). Whether a well-formed jogo
obeys the regulation is decided by `regulation.jogo.score`.
"""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Mapping, NamedTuple

from .errors import MalformedRecord
from .hands import CHOW, KONG, PONG
from .rules import FAN_COMBINATIONS
from .seats import SEATS
from .tiles import VARIANTS, TileNotationError, parse_tiles

RESULTS = ("win", "draw", "false_win")
CONDITIONS = ("heavenly", "earthly", "robbing_kong", "kong_replacement", "kong_upon_kong", "last_tile")
CONDUCT_KINDS = ("declined_pong", "saw_tiles")
PAY_ALL_ARTICLES = ("10(a)(1)", "10(a)(2)", "10(a)(3)", "10(a)(4)", "10(a)(5)", "10(a)(6)",
                    "10(b)(1)", "10(b)(2)")
MELD_KINDS = (CHOW, PONG, KONG)

FIELDS = frozenset({"variant", "stake", "round_wind", "capital", "result", "winner", "discarder",
                    "hand", "conditions", "declared_fan", "conduct", "claimants", "pay_all",
                    "false_win", "rules"})
REQUIRED = frozenset({"variant", "stake", "round_wind", "capital", "result"})
SEAT_SET = frozenset(SEATS)
MAX_TILE_TEXT = 80  # a 14-tile hand written out in full with spaces is well under this
MAX_AMOUNT = 10**12  # no table holds a trillion patacas
MAX_MELDS = 4


# Values are NamedTuples rather than frozen dataclasses: a jogo is built on every scoring, and
# NamedTuples build several times faster (benchmarks/engine.py).


class Meld(NamedTuple):
    kind: str
    tiles: tuple[int, ...]
    exposed: bool


class Hand(NamedTuple):
    concealed: tuple[int, ...]  # without the winning tile and without concealed kongs
    melds: tuple[Meld, ...]
    winning_tile: int


class Conduct(NamedTuple):
    seat: str
    kind: str  # Art. 9(a)(2) declined_pong, Art. 9(a)(3)/(b)(2) saw_tiles


class PayAll(NamedTuple):
    seat: str
    article: str
    live_tile: bool


class Jogo(NamedTuple):
    variant: str
    stake: int
    round_wind: str
    capital: Mapping[str, int]
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


def read_record(data: Any) -> Jogo:
    """A `Jogo` from a decoded JSON object, or `MalformedRecord` naming the field."""
    if not isinstance(data, dict):
        raise MalformedRecord("", f"a jogo record must be a JSON object, not {_kind(data)}")
    if not FIELDS.issuperset(data):
        raise MalformedRecord(min(data.keys() - FIELDS), "unknown field (see JOGO-FORMAT.md)")
    if not REQUIRED.issubset(data):
        raise MalformedRecord(min(REQUIRED - data.keys()), "missing")
    variant = _choice(data, "variant", VARIANTS)
    result = _choice(data, "result", RESULTS)
    capital_field = data["capital"]
    if not isinstance(capital_field, dict) or not capital_field:
        raise MalformedRecord("capital", "must be an object of seat wind to capital, e.g. {\"E\": 5000, ...}")
    capital = {}
    for seat in SEATS:  # turn order, whatever order the record gives
        if seat in capital_field:
            amount = capital_field[seat]
            capital[seat] = amount if type(amount) is int and 0 <= amount <= MAX_AMOUNT \
                else _amount(f"capital.{seat}", amount, minimum=0)
    if len(capital) != len(capital_field):
        bad = min(k for k in capital_field if k not in SEATS)
        raise MalformedRecord(f"capital.{bad}", "not a seat wind (E, S, W or N)")

    winner = _seat(data, "winner")
    discarder = _seat(data, "discarder")
    hand = _hand(data.get("hand"))
    pay_all = _pay_all(data.get("pay_all"))
    claimants = _seat_list(data, "claimants", limit=3)
    false_win = _false_win(data.get("false_win"))
    if result == "win":
        if winner is None:
            raise MalformedRecord("winner", "a won jogo names its winner")
        if "discarder" not in data:
            raise MalformedRecord("discarder", "missing: the seat whose discard won, or null when self-drawn")
        if hand is None:
            raise MalformedRecord("hand", "a won jogo records the winning hand")
        if false_win is not None:
            raise MalformedRecord("false_win", "only a false_win jogo names an offender")
    else:
        for name, value in (("discarder", discarder), ("pay_all", pay_all), ("claimants", claimants)):
            if value:
                raise MalformedRecord(name, f"only a won jogo has one, this jogo is a {result}")
        if result == "draw":
            for name, value in (("winner", winner), ("hand", hand), ("false_win", false_win)):
                if value is not None:
                    raise MalformedRecord(name, "a drawn jogo has none (I-1)")
        else:
            if false_win is None:
                raise MalformedRecord("false_win", "a false_win jogo names the offender: {\"seat\": \"N\"}")
            if winner is not None and winner != false_win:
                raise MalformedRecord("winner", "in a false win, only the offender can be named as winner")

    return Jogo(  # positionally, in the order of the fields: noticeably faster than by keyword
        variant,
        _amount("stake", data["stake"], minimum=1),
        _choice(data, "round_wind", SEATS),
        capital,
        result,
        winner,
        discarder,
        hand,
        _conditions(data.get("conditions")),
        _declared_fan(data.get("declared_fan")),
        _conduct(data.get("conduct")),
        claimants,
        pay_all,
        false_win,
        _rules(data.get("rules")),
    )


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def _choice(data: dict, name: str, allowed: tuple[str, ...]) -> str:
    value = data[name]
    if type(value) is not str or value not in allowed:
        raise MalformedRecord(name, f"must be one of {', '.join(allowed)}; got {value!r}")
    return value


_DECIMAL = re.compile(r"[0-9]{1,13}(?:\.[0-9]{1,2})?")  # "5000", "90.00": plain digits, no sign or exponent


def _amount(name: str, value: Any, *, minimum: int) -> int:
    """Whole currency units: a JSON integer, or a decimal string such as "5000" or "5000.00"."""
    if type(value) is int:
        amount = value
    elif isinstance(value, str) and _DECIMAL.fullmatch(value):
        number = Decimal(value)
        if number != number.to_integral_value():
            raise MalformedRecord(name, f"{value!r} is not a whole number of currency units")
        amount = int(number)
    else:
        shown = f"{value[:20]!r}" if isinstance(value, str) else _kind(value)
        raise MalformedRecord(name, f"must be whole currency units (an integer, or a string such as \"90.00\"), not {shown}")
    if not minimum <= amount <= MAX_AMOUNT:
        raise MalformedRecord(name, f"{amount} is out of range ({minimum} to {MAX_AMOUNT})")
    return amount


def _seat(data: dict, name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if type(value) is not str or value not in SEAT_SET:
        raise MalformedRecord(name, f"must be a seat wind E, S, W or N (or null); got {value!r}")
    return value


def _seat_list(data: dict, name: str, *, limit: int) -> tuple[str, ...]:
    value = data.get(name)
    if not value and (value is None or value == []):
        return ()
    if not isinstance(value, list) or len(value) > limit:
        raise MalformedRecord(name, f"must be a list of at most {limit} seat winds")
    for index, seat in enumerate(value):
        if seat not in SEATS or not isinstance(seat, str):
            raise MalformedRecord(f"{name}[{index}]", f"must be a seat wind E, S, W or N; got {seat!r}")
    if len(set(value)) != len(value):
        raise MalformedRecord(name, "a seat is listed twice")
    return tuple(value)


# Winning tiles and melds ("7z", "1111s") repeat from jogo to jogo; whole hands do not.
_PARSED: dict[str, tuple[int, ...]] = {}
_PARSED_LENGTH = 5


def _tiles(name: str, value: Any) -> tuple[int, ...]:
    parsed = _PARSED.get(value) if type(value) is str else None
    if parsed is not None:
        return parsed
    if not isinstance(value, str):
        raise MalformedRecord(name, f"must be a tile string such as \"123m55z\", not {_kind(value)}")
    if len(value) > MAX_TILE_TEXT:
        raise MalformedRecord(name, f"is {len(value)} characters long; no hand is written that long")
    try:
        parsed = parse_tiles(value)
    except TileNotationError as error:
        raise MalformedRecord(name, f"{error} (Art. 2; notation of RULES.md §1)") from None
    if len(value) <= _PARSED_LENGTH:
        _PARSED[value] = parsed
    return parsed


def _object(name: str, value: Any, fields: frozenset[str], required: frozenset[str]) -> dict:
    if type(value) is dict and fields.issuperset(value) and value.keys() >= required:
        return value
    if not isinstance(value, dict):
        raise MalformedRecord(name, f"must be an object, not {_kind(value)}")
    if not fields.issuperset(value):
        raise MalformedRecord(f"{name}.{min(value.keys() - fields)}", "unknown field")
    for field in sorted(required):
        if field not in value:
            raise MalformedRecord(f"{name}.{field}", "missing")
    return value


_HAND_FIELDS = frozenset({"concealed", "melds", "winning_tile"})
_HAND_REQUIRED = frozenset({"concealed", "winning_tile"})
_MELD_FIELDS = frozenset({"kind", "tiles", "exposed"})
MELD_KIND_SET = frozenset(MELD_KINDS)


def _hand(value: Any) -> Hand | None:
    if value is None:
        return None
    _object("hand", value, _HAND_FIELDS, _HAND_REQUIRED)
    winning = _tiles("hand.winning_tile", value["winning_tile"])
    if len(winning) != 1:
        raise MalformedRecord("hand.winning_tile", f"must be exactly one tile, not {len(winning)}")
    melds_field = value.get("melds")
    if melds_field is None:
        melds_field = []
    if type(melds_field) is not list or len(melds_field) > MAX_MELDS:
        raise MalformedRecord("hand.melds", f"must be a list of at most {MAX_MELDS} melds")
    melds = []
    for index, meld in enumerate(melds_field):
        _object(f"hand.melds[{index}]", meld, _MELD_FIELDS, _MELD_FIELDS)
        kind = meld["kind"]
        if type(kind) is not str or kind not in MELD_KIND_SET:
            raise MalformedRecord(f"hand.melds[{index}].kind", f"must be chow, pong or kong; got {kind!r}")
        if type(meld["exposed"]) is not bool:
            raise MalformedRecord(f"hand.melds[{index}].exposed", "must be true or false")
        melds.append(Meld(kind, _tiles(f"hand.melds[{index}].tiles", meld["tiles"]), meld["exposed"]))
    return Hand(_tiles("hand.concealed", value["concealed"]), tuple(melds), winning[0])


NO_CONDITIONS: frozenset[str] = frozenset()


def _conditions(value: Any) -> frozenset[str]:
    if not value and (value is None or value == []):
        return NO_CONDITIONS
    if not isinstance(value, list) or len(value) > len(CONDITIONS):
        raise MalformedRecord("conditions", f"must be a list of at most {len(CONDITIONS)} conditions")
    for index, condition in enumerate(value):
        if condition not in CONDITIONS or not isinstance(condition, str):
            raise MalformedRecord(f"conditions[{index}]", f"must be one of {', '.join(CONDITIONS)}; got {condition!r}")
    if len(set(value)) != len(value):
        raise MalformedRecord("conditions", "a condition is listed twice")
    return frozenset(value)


def _declared_fan(value: Any) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= 2:
        raise MalformedRecord("declared_fan", f"must be 0, 1, 2 or null; got {value!r}")
    return value


_CONDUCT_FIELDS = frozenset({"seat", "kind"})


def _conduct(value: Any) -> tuple[Conduct, ...]:
    if not value and (value is None or value == []):
        return ()
    if not isinstance(value, list) or len(value) > 8:
        raise MalformedRecord("conduct", "must be a list of at most 8 entries")
    entries = []
    for index, entry in enumerate(value):
        name = f"conduct[{index}]"
        _object(name, entry, _CONDUCT_FIELDS, _CONDUCT_FIELDS)
        seat = _seat(entry, "seat")
        if seat is None:
            raise MalformedRecord(f"{name}.seat", "must be a seat wind E, S, W or N")
        if entry["kind"] not in CONDUCT_KINDS or not isinstance(entry["kind"], str):
            raise MalformedRecord(f"{name}.kind", f"must be declined_pong or saw_tiles; got {entry['kind']!r}")
        entries.append(Conduct(seat, entry["kind"]))
    return tuple(entries)


_PAY_ALL_FIELDS = frozenset({"seat", "article", "live_tile"})


def _pay_all(value: Any) -> PayAll | None:
    if value is None:
        return None
    _object("pay_all", value, _PAY_ALL_FIELDS, frozenset({"seat", "article"}))
    seat = _seat(value, "seat")
    if seat is None:
        raise MalformedRecord("pay_all.seat", "must be a seat wind E, S, W or N")
    article = value["article"]
    if article not in PAY_ALL_ARTICLES or not isinstance(article, str):
        raise MalformedRecord("pay_all.article", f"must be one of {', '.join(PAY_ALL_ARTICLES)}; got {article!r}")
    live_tile = value.get("live_tile", False)
    if not isinstance(live_tile, bool):
        raise MalformedRecord("pay_all.live_tile", "must be true or false")
    return PayAll(seat, article, live_tile)


def _false_win(value: Any) -> str | None:
    if value is None:
        return None
    _object("false_win", value, frozenset({"seat"}), frozenset({"seat"}))
    seat = _seat(value, "seat")
    if seat is None:
        raise MalformedRecord("false_win.seat", "must be a seat wind E, S, W or N")
    return seat


_RULES_FIELDS = frozenset({"fan_combination"})


def _rules(value: Any) -> str | None:
    if value is None:
        return None
    if type(value) is dict and len(value) == 1 and value.get("fan_combination") in FAN_COMBINATIONS:
        return value["fan_combination"]
    _object("rules", value, _RULES_FIELDS, frozenset())
    reading = value.get("fan_combination")
    if reading is not None and reading not in FAN_COMBINATIONS:
        raise MalformedRecord("rules.fan_combination", f"must be one of {', '.join(FAN_COMBINATIONS)}; got {reading!r}")
    return reading
