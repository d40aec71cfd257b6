"""One hand scored under every rule set, for the calculator's side-by-side.

The hand is the classical books' record (`HandForm.hand()`). Under each registered Portaria
rule set (`regulation.rules.RULE_SETS`) it is scored in both variants of Art. 1 as a portable
jogo record at the variant's lowest tier, with capital no payment can reach, so that neither
Art. 8's tier nor the cap of Art. 9(a)(4) changes the figures; a hand the variant cannot play
(the simplified game has five tiles and one set) gets the engine's own refusal. Under each
classical book (`regulation.books.BOOKS`) it is scored by `score_book`.

`score_hand(hand)` returns one `Column` per rule set; `Column.output` is exactly what
`python -m regulation score --rules <code>` prints for `Column.record`.
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext, gettext_noop, pgettext

import regulation.rules
from casino.terms import vocabulary
from casino.terms.vocabulary import BOOK_LANGUAGE, article_name, fan_item_name, localise, rule_set_title, variant_name
from regulation import MalformedRecord, books, read_record, score
from regulation.books.settlement import settle
from regulation.rules import RuleSet
from regulation.seats import SEATS
from regulation.tiles import CONVENTIONAL, SIMPLIFIED

logger = logging.getLogger(__name__)

AMPLE_CAPITAL = 10**9  # far beyond any payment at the lowest tier: the cap (Art. 9(a)(4)) never binds
# What the Portaria records as a condition of the win (Art. 6), by how the winning tile came.
CONDITIONS = {"discard": [], "self_drawn": [], "kong_replacement": ["kong_replacement"],
              "last_tile": ["last_tile"], "robbing_kong": ["robbing_kong"]}


@dataclass
class Line:
    """One scoring item as the page shows it: its label, where the rule set says it, its value."""

    label: str
    section: str
    value: int
    tiles: str = ""


@dataclass
class Player:
    """One seat's score under a rule set: the items, and the totals before and after the limit."""

    seat: str
    name: str
    winner: bool
    banker: bool
    points: list[Line] = field(default_factory=list)
    doubles: list[Line] = field(default_factory=list)
    limit_hand: Line | None = None
    totals: list[tuple[str, int]] = field(default_factory=list)  # (what, figure), in the order shown


@dataclass
class Payment:
    payer: str
    payee: str
    amount: int
    section: str = ""


@dataclass
class Rounded:
    """A payment of a book that pays in hundreds: what was due (`amount`), and what is `paid`."""

    payer: str
    payee: str
    amount: int
    paid: int


@dataclass
class Column:
    """A rule set's verdict on the hand."""

    kind: str  # "portaria" or "book"
    code: str
    version: int
    title: str
    record: dict  # the record scored, as the command line reads it
    output: dict  # the engine's output, as the command line prints it
    valid: bool = False
    errors: list[str] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)
    net: list[tuple[str, int]] = field(default_factory=list)
    figures: list[tuple[str, str]] = field(default_factory=list)  # (what, figure) under the payments
    notes: list[str] = field(default_factory=list)
    rounded: list[Rounded] = field(default_factory=list)  # a book paying in hundreds, when any payment changed
    rounding: str = ""  # why: the book pays in hundreds
    rounding_section: str = ""
    variant: str | None = None
    language: str = ""  # a book's own language, for its sections and title (<cite lang=…>)
    field: str | None = None  # the calculator's field a refusal of the record is about

    @property
    def anchor(self) -> str:
        return f"{self.code}-{self.variant}" if self.variant else self.code


def bonus_name(code: str) -> str:
    """A flower ("f3") or a season ("g1") as people name it: "Flower 3", "Season 1"."""
    if code[0] == "f":
        return gettext("Flower %(n)s") % {"n": code[1]}
    return gettext("Season %(n)s") % {"n": code[1]}


def seat_label(seat: str) -> str:
    """A seat as the calculator names it: its wind, and the banker's role for East (Art. 3)."""
    return vocabulary.seat_label(seat, banker=seat == "E")


# --- the Portaria ------------------------------------------------------------------------------

def portaria_record(hand: dict, *, rules: RuleSet, variant: str) -> dict:
    """The portable jogo record of `hand` in `variant` at its lowest tier (Art. 8), every seat with
    ample capital. Only the winner's hand is graded under the Portaria; flowers are no tiles of it."""
    winner = hand["winner"]
    player = hand["players"].get(winner) or {"concealed": "", "melds": []}
    how = hand["winning_from"]
    return {
        "variant": variant, "stake": min(rules.tiers(variant)), "round_wind": hand["round_wind"],
        "capital": dict.fromkeys(SEATS, AMPLE_CAPITAL), "result": "win", "winner": winner,
        "discarder": hand.get("discarder") if how in ("discard", "robbing_kong") else None,
        "hand": {"concealed": player.get("concealed", ""), "winning_tile": hand["winning_tile"],
                 "melds": [dict(meld) for meld in player.get("melds") or ()]},
        "conditions": list(CONDITIONS[how]),
    }


def score_portaria(hand: dict, rules: RuleSet, variant: str) -> Column:
    record = portaria_record(hand, rules=rules, variant=variant)
    title = rule_set_title(rules.code, gettext(rules.title))
    column = Column("portaria", rules.code, rules.version, f"{title} — {variant_name(variant)}", record, {},
                    variant=variant)
    try:
        result = score(read_record(record), rules)
    except MalformedRecord as malformed:
        column.output = {"valid": False, "malformed": str(malformed)}
        column.errors = [localise(malformed)]
        return column
    column.output = result.as_dict()
    column.valid = result.valid
    column.errors = [localise(breach) for breach in result.breaches]
    if any(player.get("flowers") for player in hand["players"].values()):
        column.notes.append(gettext("Flowers and seasons are not played under the Portaria (Art. 2)."))
    if not result.valid:
        return column
    winner = hand["winner"]
    settlement = result.settlement
    items = [Line(fan_item_name(item.code), article_name(item.article), item.fan) for item in result.grade.items]
    player = Player(winner, seat_label(winner), True, winner == "E",
                    doubles=items or [Line(fan_item_name("chicken"), article_name("6"), 0)])
    player.totals = [(gettext("Grade (fán)"), result.fan)]
    column.players = [player]
    column.payments = [Payment(seat_label(p.payer), seat_label(p.payee), p.amount, article_name("7"))
                       for p in settlement.payments]
    column.net = [(seat_label(seat), amount) for seat, amount in settlement.net.items()]
    stake = record["stake"]
    column.figures = [
        (gettext("Tier (Art. 8)"), vocabulary.tier_label(stake)),
        (gettext("Share (I-6)"), str(settlement.share)),
        (gettext("Commission (Art. 8)"), str(settlement.commission)),
    ]
    return column


# --- the classical rule books --------------------------------------------------------------------

def book_label(code: str) -> str:
    """The label of a book's points item, double, limit hand or error, in the active language."""
    return gettext(books.LABELS[code]) if code in books.LABELS else code.replace("_", " ")


def _line(item: dict, value: str) -> Line:
    """A book's points item or double; flowers and seasons are named ("Flower 3"), not drawn."""
    tiles = item.get("tiles") or ""
    label = book_label(item["code"])
    codes = tiles.split()
    if codes and all(len(code) == 2 and code[0] in "fg" and code[1] in "1234" for code in codes):
        named = ", ".join(bonus_name(code) for code in codes)
        label, tiles = (named if item["code"] in ("flower", "season") else f"{label}: {named}"), ""
    return Line(label, item.get("section") or "", item.get(value, 0), tiles)


def score_one_book(hand: dict, rules) -> Column:
    record = dict(hand)
    column = Column("book", rules.code, rules.version, gettext(rules.title), record, {},
                    language=BOOK_LANGUAGE.get(rules.code, ""))
    try:
        result = books.score_book(books.read_book_record(record), rules)
    except MalformedRecord as malformed:
        column.output = {"valid": False, "malformed": str(malformed)}
        column.field, seat = form_field(malformed.field)
        message = localise(malformed, field=False)
        column.errors = [pgettext("an error message naming its field", "{field}: {message}").format(
            field=seat_label(seat), message=message) if seat else message]
        return column
    except Exception:  # a fault of the scorer: the page still shows the other rule sets
        logger.exception("the rule set %s could not score a hand from the calculator", rules.code)
        column.output = {"valid": False}
        column.errors = [gettext("This rule set could not score the hand (an error of the scorer; it is logged).")]
        return column
    output = column.output = result.to_dict()
    column.valid = bool(output.get("valid"))
    column.errors = [_book_error(error) for error in output.get("errors") or ()]
    if not column.valid:
        return column
    for seat in SEATS:
        scored = (output.get("players") or {}).get(seat)
        if not scored:
            continue
        player = Player(seat, seat_label(seat), bool(scored.get("winner")), bool(scored.get("banker")),
                        points=[_line(item, "points") for item in scored.get("points") or ()],
                        doubles=[_line(item, "doubles") for item in scored.get("doubles") or ()])
        limit_hand = scored.get("limit_hand")
        if limit_hand:
            player.limit_hand = Line(book_label(limit_hand["code"]), limit_hand.get("section") or "", 0)
        player.totals = [(gettext(what), scored[key]) for key, what in BOOK_TOTALS if scored.get(key) is not None]
        column.players.append(player)
    column.payments = [Payment(seat_label(p["from"]), seat_label(p["to"]), p["amount"], p.get("section") or "")
                       for p in output.get("payments") or ()]
    column.net = [(seat_label(seat), amount) for seat, amount in (output.get("net") or {}).items()]
    if rules.rounding > 1:
        _say_why_payments_are_rounded(column, result, winner=hand["winner"])
    return column


# Where the Brazilian rules say they pay in hundreds (P-R18): «não existem fichas de valor menor do que
# 100 pontos; portanto, as frações inferiores a 50 devem ser desprezadas…».
ROUNDING_SECTION = "Acerto de contas"


def _say_why_payments_are_rounded(column: Column, result: books.BookResult, *, winner: str) -> None:
    """A book that pays in hundreds: what each payment was before rounding, shown beside what is
    paid, and why; a hand worth under 50 (a 24-point hand, say) is paid nothing at all."""
    values = {seat: result.players[seat].limited_score if seat in result.players else 0 for seat in SEATS}
    due = settle(replace(result.rules, rounding=1), values, winner=winner, banker="E")
    paid = {(p.payer, p.payee): p.amount for p in result.payments}
    rounded = [Rounded(seat_label(p.payer), seat_label(p.payee), p.amount, paid.get((p.payer, p.payee), 0))
               for p in due]
    if any(r.amount != r.paid for r in rounded):
        column.rounded = rounded
    column.rounding_section = ROUNDING_SECTION
    if due and not result.payments:
        column.rounding = gettext("Nobody pays: this book pays in hundreds, and every payment here rounds down "
                                  "to nothing.")
    else:
        column.rounding = gettext("This book pays in hundreds: under 50 is dropped, and 50 or more goes up to "
                                  "the next hundred.")


_PLAYER_FIELD = re.compile(r"players\.([ESWN])(?:\.(concealed|flowers|melds\[(\d)\]\.\w+))?")


def form_field(path: str | None) -> tuple[str | None, str | None]:
    """The calculator's field a book record's field is about, and the seat it belongs to:
    "players.N.melds[1].tiles" is North's second meld ("N_meld_tiles_1", "N")."""
    found = _PLAYER_FIELD.fullmatch(path or "")
    if found is None:
        return (path if path in ("winning_tile", "discarder") else None), None
    seat, part, meld = found.groups()
    if meld is not None:
        return f"{seat}_meld_tiles_{meld}", seat
    return f"{seat}_{part or 'concealed'}", seat


BOOK_TOTALS = (("points_total", gettext_noop("Points")), ("doubles_total", gettext_noop("Doubles")),
               ("score", gettext_noop("Score")), ("limit", gettext_noop("Limit")),
               ("limited_score", gettext_noop("Score within the limit")))


def _book_error(error: dict) -> str:
    label = book_label(error["code"]) if error.get("code") in books.LABELS else ""
    message = label or error.get("message") or error.get("code", "")
    section = error.get("section")
    return f"{section}: {message}" if section else message


# --- every rule set --------------------------------------------------------------------------------

def score_hand(hand: dict) -> list[Column]:
    """The hand under every Portaria rule set in the conventional game, then under every book, then
    under every Portaria rule set in the simplified game (which most hands do not fit)."""
    portaria = regulation.rules.RULE_SETS
    return ([score_portaria(hand, rules, CONVENTIONAL) for rules in portaria]
            + [score_one_book(hand, rules) for rules in books.BOOKS]
            + [score_portaria(hand, rules, SIMPLIFIED) for rules in portaria])
