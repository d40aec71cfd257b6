"""What the three books share: the rule set, a scored item, a player's hand as a book sees it."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from ..errors import MalformedRecord, gettext_noop
from ..rules import frozen
from ..seats import SEATS
from ..tiles import EAST_WIND
from .readings import book_reading
from .record import BookRecord, Player
from .shapes import Set, Shape


@dataclass(frozen=True)
class BookRuleSet:
    code: str
    version: int
    title: str  # English, marked for translation
    readings: Mapping[str, str]  # reading code -> the alternative in force
    limit: int  # the most a hand is worth (Serralheiro: for a player other than the banker)
    banker_limit: int  # Serralheiro §10(c)(iv): the most the banker pays or receives
    rounding: int = 1  # the Brazilian rules pay in hundreds (P-R18)

    @property
    def label(self) -> str:
        return f"{self.code} v{self.version}"

    def reading(self, code: str) -> str:
        return self.readings[code]

    def with_readings(self, choices: Mapping[str, str]) -> BookRuleSet:
        """This rule set with other alternatives in force; `MalformedRecord` names an unknown
        reading or alternative, or one the engine cannot score by."""
        chosen = dict(self.readings)
        for code, name in choices.items():
            reading = book_reading(code)
            if reading is None or reading.book != self.code:
                raise MalformedRecord(f"rules.{code}", gettext_noop("{book} has no reading {code}"),
                                      book=self.code, code=code)
            alternative = next((a for a in reading.alternatives if a.name == name), None)
            if alternative is None:
                names = ", ".join(a.name for a in reading.alternatives)
                raise MalformedRecord(f"rules.{code}", gettext_noop("{name!r} is not one of {names}"),
                                      name=name, names=names)
            if not alternative.implemented:
                raise MalformedRecord(f"rules.{code}", gettext_noop("{name!r} cannot be scored: the record "
                                                                    "does not say what it turns on"), name=name)
            chosen[code] = name
        return replace(self, readings=frozen(chosen))


@dataclass(frozen=True)
class Item:
    """A points item or a double: `value` points, or `value` doubles."""

    code: str
    section: str
    value: int
    tiles: str | None = None


@dataclass(frozen=True)
class LimitHand:
    code: str
    section: str
    share: tuple[int, int] = (1, 1)  # of the limit: (1, 2) for Serralheiro's «1/2 limite»


@dataclass(frozen=True)
class Valuation:
    points: tuple[Item, ...]
    doubles: tuple[Item, ...]
    limit_hand: LimitHand | None = None

    @property
    def points_total(self) -> int:
        return sum(i.value for i in self.points)

    @property
    def doubles_total(self) -> int:
        return sum(i.value for i in self.doubles)

    @property
    def score(self) -> int:
        """Points modified by doubles: points × 2^doubles (S-R1; E "doubles the total score")."""
        doubled: int = 2 ** self.doubles_total  # typeshed gives int ** int as Any: a negative power is a float
        return self.points_total * doubled


@dataclass(frozen=True)
class Seated:
    """One player's hand as a book sees it: his seat, and what the record says of the hand."""

    seat: str
    player: Player
    record: BookRecord
    numbers: Mapping[str, int] = field(default_factory=lambda: {s: i for i, s in enumerate(SEATS, 1)})

    @property
    def winner(self) -> bool:
        return self.seat == self.record.winner

    @property
    def banker(self) -> bool:
        return self.seat == self.record.banker

    @property
    def number(self) -> int:
        """The flower and season of the seat's own number (1 E, 2 S, 3 W, 4 N)."""
        return self.numbers[self.seat]

    @property
    def own_wind(self) -> int:
        return wind_tile(self.seat)


def wind_tile(seat: str) -> int:
    return EAST_WIND + SEATS.index(seat)


def set_points(s: Set, *, closed_major_pong: int | None = None) -> int:
    """The points table the three books share for pongs and kongs (S §10(b), E Score Tables
    A and B, P table A): a pong of 2–8 is 2 exposed, 4 concealed; of 1 or 9, a wind or a dragon,
    4 and 8; a kong four times its pong. Pairs and chows are the books' own."""
    if not s.is_pong:
        return 0
    major = s.terminal or s.honour
    points = 4 if major else 2
    if s.concealed:
        points = closed_major_pong if (closed_major_pong and major and s.kind == "pong") else points * 2
    return points * 4 if s.kind == "kong" else points


def set_item(s: Set, section: str, points: int) -> Item:
    kind = "pair" if s.kind == "pair" else f"{'concealed' if s.concealed else 'exposed'}_{s.kind}"
    return Item(kind, section, points, s.code)


def flower_items(hand: Seated, section: str, points: int) -> list[Item]:
    return ([Item("flower", section, points, f"f{n}") for n in hand.player.flowers]
            + [Item("season", section, points, f"g{n}") for n in hand.player.seasons])


def one_suit(shape: Shape) -> str | None:
    """"pure" (one suit, no honour), "with_honours", or None."""
    if len(shape.suits) != 1:
        return None
    return "with_honours" if shape.honours else "pure"
