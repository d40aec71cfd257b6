"""The regulation's vocabulary in the active language: tiles, seats, rounds, fán items,
results, conditions, conduct, melds, pay-all articles, variants, and the engine's messages.

Every function returns a string in the language Django has active (`translation.override`,
LocaleMiddleware). The Portuguese and Chinese follow Portaria n.º 135/91/M's own terms
(docs/rules.md quotes them, beside the English the project uses). The
catalogues are `locale/{pt,zh_Hant}/LC_MESSAGES/django.po`; `make messages` fills them from
this module, `regulation/` and the pit (docs/languages.md).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language, gettext, gettext_noop, ngettext, pgettext

from regulation.items import ITEMS
from regulation.jogo import SEAT_NAMES
from regulation.record import PAY_ALL_ARTICLES
from regulation.seats import SEATS
from regulation.tiles import TileNotationError, parse_tiles, tile_code

# A seat's name is the engine's (regulation.jogo.SEAT_NAMES), in messages and on every page.
_SEAT = SEAT_NAMES

_ROUND = {"E": gettext_noop("East round"), "S": gettext_noop("South round"), "W": gettext_noop("West round"),
          "N": gettext_noop("North round")}

_TILE = {
    "1m": gettext_noop("1 Characters"), "2m": gettext_noop("2 Characters"), "3m": gettext_noop("3 Characters"),
    "4m": gettext_noop("4 Characters"), "5m": gettext_noop("5 Characters"), "6m": gettext_noop("6 Characters"),
    "7m": gettext_noop("7 Characters"), "8m": gettext_noop("8 Characters"), "9m": gettext_noop("9 Characters"),
    "1p": gettext_noop("1 Circles"), "2p": gettext_noop("2 Circles"), "3p": gettext_noop("3 Circles"),
    "4p": gettext_noop("4 Circles"), "5p": gettext_noop("5 Circles"), "6p": gettext_noop("6 Circles"),
    "7p": gettext_noop("7 Circles"), "8p": gettext_noop("8 Circles"), "9p": gettext_noop("9 Circles"),
    "1s": gettext_noop("1 Bamboos"), "2s": gettext_noop("2 Bamboos"), "3s": gettext_noop("3 Bamboos"),
    "4s": gettext_noop("4 Bamboos"), "5s": gettext_noop("5 Bamboos"), "6s": gettext_noop("6 Bamboos"),
    "7s": gettext_noop("7 Bamboos"), "8s": gettext_noop("8 Bamboos"), "9s": gettext_noop("9 Bamboos"),
    "1z": gettext_noop("East wind"), "2z": gettext_noop("South wind"), "3z": gettext_noop("West wind"),
    "4z": gettext_noop("North wind"), "5z": gettext_noop("White dragon"), "6z": gettext_noop("Green dragon"),
    "7z": gettext_noop("Red dragon"),
}

# Unicode's Mahjong Tiles block (U+1F000–U+1F021) runs: East South West North, red green
# white, characters 1–9, bamboos 1–9, circles 1–9. The record's honours run East South West
# North, white green red (docs/rules.md §1).
_GLYPH_FIRST = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
_HONOUR_GLYPH = {"1": 0x1F000, "2": 0x1F001, "3": 0x1F002, "4": 0x1F003, "5": 0x1F006, "6": 0x1F005, "7": 0x1F004}

# Art. 6: the name of every item the engine scores (regulation.items.ITEMS), and the chicken hand.
_FAN_ITEM_NAME = {
    "chicken": gettext_noop("Chicken hand (kai vu)"),
    "dragon_set": gettext_noop("Dragon set"),
    "round_wind_set": gettext_noop("Round wind set"),
    "seat_wind_set": gettext_noop("Seat wind set"),
    "robbing_kong": gettext_noop("Robbing a kong (ch'éong kóng)"),
    "kong_replacement": gettext_noop("Win on a kong replacement (kóng seong fá)"),
    "all_pongs": gettext_noop("All pongs (tò-i-tò-i vu)"),
    "all_chows": gettext_noop("All chows (p'èng vu)"),
    "mixed_one_suit": gettext_noop("Mixed one suit (wân iat sêk)"),
    "last_tile": gettext_noop("Last tile (hoi tai lau yuet)"),
    "small_three_dragons": gettext_noop("Small three dragons (siu sam un)"),
    "small_four_winds": gettext_noop("Small four winds (siu sei hei)"),
    "terminals_and_honours": gettext_noop("Terminals and honours (fá iu-kau)"),
    "heavenly": gettext_noop("Heavenly win (t'in vu)"),
    "earthly": gettext_noop("Earthly win (tei vu)"),
    "double_wind_set": gettext_noop("Double wind set (seong fán)"),
    "kong_upon_kong": gettext_noop("Kong upon kong (kóng seong kóng)"),
    "mixed_one_suit_all_chows": gettext_noop("Mixed one suit, all chows (wân iat sêk p'èng vu)"),
    "pure_one_suit": gettext_noop("Pure one suit (ch'èng iat sêk)"),
    "thirteen_orphans": gettext_noop("Thirteen orphans (sap-sám iu)"),
    "concealed_pongs": gettext_noop("Concealed pongs (kan-kan vu)"),
    "big_three_dragons": gettext_noop("Big three dragons (tai sam un)"),
    "big_four_winds": gettext_noop("Big four winds (tai sei hei)"),
    "pure_terminals": gettext_noop("Pure terminals (cheng iu)"),
    "all_honours": gettext_noop("All honours (chun chu)"),
    "green_winning_tile": gettext_noop("Won on the green dragon (fát chói)"),
}

_RESULT = {"win": gettext_noop("Won"), "draw": gettext_noop("Drawn (wall exhausted)"),
           "false_win": gettext_noop("False win (void jogo)")}

_CONDUCT = {"declined_pong": gettext_noop("Called pong and declined it"),
            "saw_tiles": gettext_noop("Looked at another player's tiles")}

_MELD_KIND = {"chow": gettext_noop("Chow (ch'i)"), "pong": gettext_noop("Pong (p'ông)"),
              "kong": gettext_noop("Kong (kóng)")}

# Art. 10: what makes the liable player pay for the other losers (docs/rules.md §6).
_PAY_ALL_TEXT = {
    "10(a)(1)": gettext_noop("Discarded the winning tile to a pure one suit hand with 3 or 4 sets exposed"),
    "10(a)(2)": gettext_noop("Discarded the tile of the fourth exposed set of a pure one suit hand, which then won "
                             "on its next draw"),
    "10(a)(3)": gettext_noop("Discarded the dragon or wind that completed big three dragons or big four winds"),
    "10(a)(4)": gettext_noop("Held the last dragon or wind and discarded another tile, which won"),
    "10(a)(5)": gettext_noop("Not ready, broke a concealed set of three (a pong or a chow, I-12) and discarded "
                             "from it; it won"),
    "10(a)(6)": gettext_noop("Ready, broke his own hand with a discard that won"),
    "10(b)(1)": gettext_noop("Held the last green dragon and discarded another tile, which won"),
    "10(b)(2)": gettext_noop("Ready, discarded from a concealed triplet; it won"),
}

# Keyed by the engine's own codes: an item or a pay-all article the engine adds and this module
# does not name fails here, at import, rather than on a page.
FAN_ITEM_CODES = ("chicken", *dict.fromkeys(code for items in ITEMS.values() for code in items))
_FAN_ITEM = {code: _FAN_ITEM_NAME[code] for code in FAN_ITEM_CODES}
_PAY_ALL = {article: _PAY_ALL_TEXT[article] for article in PAY_ALL_ARTICLES}

_VARIANT = {"conventional": gettext_noop("Conventional Mah-Jong"),
            "simplified": gettext_noop("Simplified Mah-Jong")}

_ARTICLE = {"1": gettext_noop("Art. 1"), "2": gettext_noop("Art. 2"), "3": gettext_noop("Art. 3"),
            "4": gettext_noop("Art. 4"), "5": gettext_noop("Art. 5"), "6": gettext_noop("Art. 6"),
            "7": gettext_noop("Art. 7"), "8": gettext_noop("Art. 8"), "9": gettext_noop("Art. 9"),
            "10": gettext_noop("Art. 10")}
_ARTICLE_PARTS = re.compile(r"(\d+)(\([ab]\))?((?:\(\d+\))*)")

# Words the engine and the service put into their messages as params, in English (record
# values and the phrases they choose), so that localise() can translate them.
MESSAGE_WORDS = (
    gettext_noop("conventional"), gettext_noop("simplified"),
    gettext_noop("chow"), gettext_noop("pong"), gettext_noop("kong"),
    gettext_noop("kong replacement"), gettext_noop("kong upon kong"),
    gettext_noop("draw"), gettext_noop("false_win"),
    gettext_noop("approved"), gettext_noop("rejected"),
)

# A record value a message names (a jogo's result), in people's words rather than as written.
_RECORD_VALUE = {"false_win": gettext_noop("false win")}

# The record's fields (MalformedRecord.field, a breach's {field}) in people's words: a message
# never shows a path such as `hand.melds[0]`. Meld and claimant numbers count from 1.
_FIELD = {
    "result": gettext_noop("Result"), "winner": gettext_noop("Winner"), "discarder": gettext_noop("Discarder"),
    "hand": gettext_noop("Hand"), "hand.concealed": gettext_noop("Concealed tiles"),
    "hand.winning_tile": gettext_noop("Winning tile"), "hand.melds": gettext_noop("Declared melds"),
    "conditions": gettext_noop("Conditions"), "declared_fan": gettext_noop("Declared grade (fán)"),
    "claimants": gettext_noop("Also claimed the discard to win"), "conduct": gettext_noop("Conduct and penalties"),
    "pay_all": gettext_noop("Pay-all (包輸)"), "pay_all.seat": gettext_noop("Pay-all (包輸): liable player"),
    "pay_all.article": gettext_noop("Pay-all (包輸): article"), "pay_all.live_tile": gettext_noop("Pay-all (包輸)"),
    "pay_all.broken_set": gettext_noop("Pay-all (包輸): broken set"),
    "false_win": gettext_noop("False win (詐糊): offender"),
    "false_win.seat": gettext_noop("False win (詐糊): offender"),
    "variant": gettext_noop("Variant"), "stake": gettext_noop("Tier"), "round_wind": gettext_noop("Round wind"),
    "capital": gettext_noop("Capital at stake"), "players": gettext_noop("Players"),
    "first_banker": gettext_noop("First banker"), "rules": gettext_noop("Rule set"),
    "rules.fan_combination": gettext_noop("How the fán items combine (I-5)"),
    # The pit's requests (casino/pit/services/recording.py): a seating's witness, a movement.
    "witness": gettext_noop("Witness"), "patron": gettext_noop("Player"), "amount": gettext_noop("Amount"),
    "kind": gettext_noop("Kind"), "chair": gettext_noop("Chair"),
}
# The ledger's columns (a jogo's stored figures, which the re-check compares by name) in people's
# words.
_LEDGER_COLUMN = {
    "result": gettext_noop("result"), "round_wind": gettext_noop("round wind"),
    "winner_chair": gettext_noop("winner's chair"), "fan": gettext_noop("grade (fán)"),
    "declared_fan": gettext_noop("declared grade"), "fan_mismatch": gettext_noop("declared grade differs"),
    "commission": gettext_noop("commission"), "capped": gettext_noop("capital cap bound"),
    "pay_all": gettext_noop("pay-all"), "capital_before": gettext_noop("capital before, chairs 1–4"),
    "capital_after": gettext_noop("capital after, chairs 1–4"), "record": gettext_noop("record"),
    "outcome": gettext_noop("the engine's stored output"), "rule_set": gettext_noop("rule set"),
}
# The kinds of exception a gaming day may show (casino.audit.exceptions.KINDS), one name each: the
# audit's exception queue and the daily report both say it.
_EXCEPTION_KIND = {
    "fan_mismatch": gettext_noop("Fán mismatch"), "amendment": gettext_noop("Amendment"),
    "pay_all": gettext_noop("Pay-all"), "false_win": gettext_noop("False win"), "capped": gettext_noop("Capped win"),
    "sequence_gap": gettext_noop("Sequence gap"), "rotation": gettext_noop("Rotation anomaly"),
    "flag": gettext_noop("Inspector's flag"), "difference": gettext_noop("Differs from the engine"),
    "refusal": gettext_noop("Refused record"),
    "capital_below_minimum": gettext_noop("Capital below the minimum"),
    "capital_below_zero": gettext_noop("Capital below zero"),
    "large_transaction": gettext_noop("Large transaction"),
    "structuring": gettext_noop("Structuring"),
    "duplicate_player": gettext_noop("Player seated twice"),
    "grade_not_declared": gettext_noop("Win with no declared grade"),
}
_NUMBERED_FIELD = re.compile(r"(hand\.melds|claimants|conduct|players|conditions)\[(\d+)\]((?:\.\w+)*)")
_NUMBERED = {"hand.melds": gettext_noop("Meld {n}"), "claimants": gettext_noop("Other claimant {n}"),
             "conduct": gettext_noop("Conduct {n}"), "players": gettext_noop("Chair {n}"),
             "conditions": gettext_noop("Condition {n}")}

# The engine's templates that name a field by its path, in people's words; {index} counts from 1.
_REWORDED = {
    "hand.melds[{index}] is declared a {kind} but holds {tiles}.":
        gettext_noop("meld {index} is declared a {kind} but holds {tiles}."),
    "hand.melds[{index}]: no chow or pong may be claimed in the simplified game; a discard is taken only to win "
    "or to make an open kong.":
        gettext_noop("meld {index}: no chow or pong may be claimed in the simplified game; a discard is taken only "
                     "to win or to make an open kong."),
    "hand.melds[{index}]: only a kong may be declared concealed; a concealed {kind} belongs in hand.concealed.":
        gettext_noop("meld {index}: only a kong may be declared concealed; a concealed {kind} belongs with the "
                     "concealed tiles."),
    "claimants lists the other players who also claimed the discard; not the winner or the discarder.":
        gettext_noop("the other claimants are the players who also claimed the discard; not the winner or the "
                     "discarder."),
    "{error} (Art. 2; notation of RULES.md §1)":
        gettext_noop("{error} (Art. 2: tiles are written as numbers then the suit, e.g. 123m 456p 789s 11z)"),
    # The record's words (false_win, null, JSON) and an article written into the English text
    # (cited here as article_name cites it, `_CITES`) said as people say them.
    "missing: the seat whose discard won, or null when self-drawn":
        gettext_noop("missing: the player whose discard won, or self-drawn"),
    "a false_win jogo names the offender: {{\"seat\": \"N\"}}": gettext_noop("a false win names its offender"),
    "only a false_win jogo names an offender": gettext_noop("only a false win names an offender"),
    "no seat has capital: give it per seat wind, e.g. {{\"E\": 5000, ...}}":
        gettext_noop("no seat has capital at stake"),
    "only a pay-all under Art. 10(a)(5) says which set was broken":
        gettext_noop("only a pay-all under {article} says which set was broken"),
    # Art. 2: the green dragon by its name rather than its notation (6z).
    "the simplified game has only the suits and the green dragon (6z); the hand holds {tiles}.":
        gettext_noop("the simplified game has only the suits and the green dragon; the hand holds {tiles}."),
    "{liable} held the last green dragon (6z), the other three being on view, and discarded another tile: the "
    "winning tile cannot be 6z, and the winner cannot hold any 6z; he holds {held} (I-14).":
        gettext_noop("{liable} held the last green dragon, the other three being on view, and discarded another "
                     "tile: the winning tile cannot be a green dragon, and the winner cannot hold any; he holds "
                     "{held} (I-14)."),
}


def _plural(count: str, singular: str, plural: str) -> tuple[str, str, str]:
    """A message whose noun agrees with the param `count` (ngettext). `make messages` does not
    find these: their entries, with msgid_plural, are written into the catalogues by hand."""
    return count, singular, plural


# The engine's templates that write a count with "(s)", said in the singular or the plural as the
# count asks ("1 meld", "2 melds"), in every language.
_PLURAL = {
    "{tiles} with {melds} meld(s) forms {sets} (Art. 4), so {seat}'s declaration was a win, not a false win "
    "(«jogo nulo»); record it as a win.": _plural(
        "melds",
        "{tiles} with {melds} meld forms {sets} ({article}), so {seat}'s declaration was a win, not a false win "
        "(«jogo nulo»); record it as a win.",
        "{tiles} with {melds} melds forms {sets} ({article}), so {seat}'s declaration was a win, not a false win "
        "(«jogo nulo»); record it as a win."),
    "{melds} melds declared; a winning hand has {sets} set(s) in all.": _plural(
        "sets", "{melds} melds declared; a winning hand has {sets} set in all.",
        "{melds} melds declared; a winning hand has {sets} sets in all."),
    "the concealed tiles and the winning tile number {tiles}; with {melds} meld(s) a winning hand needs {expected} "
    "({hand} tiles in sets and a pair, a kong counting as a set of three).": _plural(
        "melds",
        "the concealed tiles and the winning tile number {tiles}; with {melds} meld a winning hand needs {expected} "
        "({hand} tiles in sets and a pair, a kong counting as a set of three).",
        "the concealed tiles and the winning tile number {tiles}; with {melds} melds a winning hand needs "
        "{expected} ({hand} tiles in sets and a pair, a kong counting as a set of three)."),
    "{tiles} with {melds} meld(s) does not form {sets}. Seven pairs is not a hand in Macau.": _plural(
        "melds", "{tiles} with {melds} meld does not form {sets}. Seven pairs is not a hand in Macau.",
        "{tiles} with {melds} melds does not form {sets}. Seven pairs is not a hand in Macau."),
    "{tiles} with {melds} meld(s) does not form {sets}.": _plural(
        "melds", "{tiles} with {melds} meld does not form {sets}.", "{tiles} with {melds} melds does not form {sets}."),
    "{condition} needs at least {needed} kong(s) in the hand; it has {kongs}.": _plural(
        "needed", "{condition} needs at least {needed} kong in the hand; it has {kongs}.",
        "{condition} needs at least {needed} kongs in the hand; it has {kongs}."),
    "the conventional game is played by exactly four players; {seated} are seated.": _plural(
        "seated", "the conventional game is played by exactly four players; {seated} is seated.",
        "the conventional game is played by exactly four players; {seated} are seated."),
    "the simplified game is played by two to four players; {seated} is seated.": _plural(
        "seated", "the simplified game is played by two to four players; {seated} player is seated.",
        "the simplified game is played by two to four players; {seated} players are seated."),
}

# The article a reworded template cites as {article}, in the style of `article_name`: one style
# of citation on a page ("Art. 10.º(a)(5)" in Portuguese, never "art. 10.º, a), 5)").
_CITES = {
    "only a pay-all under Art. 10(a)(5) says which set was broken": "10(a)(5)",
    "{tiles} with {melds} meld(s) forms {sets} (Art. 4), so {seat}'s declaration was a win, not a false win "
    "(«jogo nulo»); record it as a win.": "4",
}

# What msgspec says is wrong with the record's shape (regulation.record.malformed: "expected
# `int`, got `str`"), in people's words: the type a field takes, a bound, a length, a choice.
RECORD_FORMAT = "{error} (see JOGO-FORMAT.md)"
UNKNOWN_FIELD = gettext_noop("not part of a jogo record")
UNREADABLE = gettext_noop("cannot be read")
_KIND = {"str": gettext_noop("text"), "int": gettext_noop("a whole number"), "bool": gettext_noop("yes or no"),
         "array": gettext_noop("a list"), "object": gettext_noop("a set of fields")}
_FORMAT = [
    (re.compile(r"expected `[^`]+`, got `null`|this object missing required field"), gettext_noop("missing")),
    (re.compile(r"this object contains unknown field"), UNKNOWN_FIELD),
    (re.compile(r"invalid enum value (?P<value>.*)"), gettext_noop("{value} is not one of the choices")),
    (re.compile(r"expected `int` >= (?P<n>-?\d+)"), gettext_noop("must be at least {n}")),
    (re.compile(r"expected `int` <= (?P<n>-?\d+)"), gettext_noop("must be at most {n}")),
    (re.compile(r"expected `str` of length <= (?P<n>\d+)"), gettext_noop("too long: at most {n} characters")),
    (re.compile(r"expected `array` of length <= (?P<n>\d+)"), gettext_noop("no more than {n} may be listed")),
    (re.compile(r"expected `str` matching regex .*"), gettext_noop("must be a whole amount, e.g. 5000")),
    (re.compile(r"expected `(?P<kind>[^`]+)`.*"), gettext_noop("must be {kind}")),
]

# What the tile notation's reader says is wrong (regulation.tiles), in the person's language.
_NOTATION = [
    (re.compile(r"'(?P<char>.)' is not preceded by tile numbers"),
     gettext_noop("'{char}' is not preceded by tile numbers")),
    (re.compile(r"'(?P<tile>\dz)' is not a tile: honours are 1z–7z"),
     gettext_noop("'{tile}' is not a tile: honours are 1z–7z")),
    (re.compile(r"'0' is not a tile number: tiles are numbered 1–9 \(no red fives\)"),
     gettext_noop("'0' is not a tile number: tiles are numbered 1–9 (no red fives)")),
    (re.compile(r"'(?P<char>.)' is not part of the tile notation \(digits, then m, p, s or z\)"),
     gettext_noop("'{char}' is not part of the tile notation (digits, then m, p, s or z)")),
    (re.compile(r"tile numbers at the end have no suit letter \(m, p, s or z\)"),
     gettext_noop("tile numbers at the end have no suit letter (m, p, s or z)")),
]

# The reason the recording service writes on a revision it carries (pit/services/amendments.py, `_apply`).
CARRIED_REASON = gettext_noop("capital carried from the amendment of jogo {number}")
_CARRIED_REASON = re.compile(r"capital carried from the amendment of jogo (?P<number>\d+)")

# The language each classical book (regulation.books) is written in: its sections are cited in it.
BOOK_LANGUAGE = {"serralheiro-2003": "pt", "english-booklet": "en", "cartas-pt-br": "pt-BR"}

# The rule sets the engine knows (regulation.rules.RuleSet.code), by their title.
_RULE_SET = {"portaria-135-91-M": gettext_noop("Portaria No. 135/91/M (Official Rules of the Game of Mah-Jong)")}


def seat_name(wind: str) -> str:
    """Art. 3: the seat of `wind` ("E", "S", "W", "N"), the banker's always East."""
    return gettext(_SEAT[wind])


def seat_label(seat: str | None, player: str = "", *, banker: bool = False) -> str:
    """How every page names a seat of a jogo: its wind (Art. 3), then who sat there, "West · Ana".
    With no player's name, the wind alone; with `banker`, the banker's role after it, "East
    (banker)" (the calculator has seats, not players). No seat (a draw's winner): ""."""
    if not seat:
        return ""
    wind = gettext("%(seat)s (banker)") % {"seat": seat_name(seat)} if banker else seat_name(seat)
    return f"{wind} · {player}" if player else wind


def seat_player(seat: str | None, *, banker_chair: int, names: Mapping[int, str]) -> str:
    """`seat_label` of the player in `seat`, from the game's names by chair: the banker's chair
    is East, and the winds follow in turn order (Art. 3)."""
    if not seat:
        return ""
    return seat_label(seat, names.get((banker_chair + SEATS.index(seat)) % 4, ""))


def tier_label(stake: int | None) -> str:
    """Art. 8: a stake tier as the regulation writes it, the stake and its double, "50/100".
    No stake (a line of no table): ""."""
    return f"{stake}/{2 * stake}" if stake else ""


def round_name(wind: str) -> str:
    """Art. 3: the round named by `wind` («t'ông hin», 東風圈 …)."""
    return gettext(_ROUND[wind])


def tile_name(code: str) -> str:
    """Art. 2: the tile written `code` in the record's notation ("5s", "7z")."""
    return gettext(_TILE[code])


def tile_glyph(code: str) -> str:
    """The Unicode character drawing the tile `code` (U+1F000–U+1F021)."""
    number, suit = code[0], code[1]
    if code not in _TILE:
        raise KeyError(code)
    if suit == "z":
        return chr(_HONOUR_GLYPH[number])
    return chr(_GLYPH_FIRST[suit] + int(number) - 1)


def fan_item_name(code: str) -> str:
    """Art. 6: the fán item `code` (regulation.fan), or "chicken" for a hand with none."""
    return gettext(_FAN_ITEM[code])


def result_name(result: str) -> str:
    """A jogo's result: "win", "draw" or "false_win" (Art. 10(a)(7)–(8), (b)(3))."""
    return gettext(_RESULT[result])


def condition_name(condition: str) -> str:
    """A condition of the win (Art. 5(a)(1)–(2), Art. 6); each is also the fán item it scores."""
    return fan_item_name(condition)


def conduct_name(kind: str) -> str:
    """Art. 9: conduct recorded against a seat ("declined_pong", "saw_tiles")."""
    return gettext(_CONDUCT[kind])


def meld_kind_name(kind: str) -> str:
    """Art. 5: a declared set ("chow", "pong", "kong")."""
    return gettext(_MELD_KIND[kind])


def pay_all_article_text(article: str) -> str:
    """Art. 10: what the liable player did under `article` ("10(a)(1)" …)."""
    return gettext(_PAY_ALL[article])


def variant_name(variant: str) -> str:
    """Art. 1: "conventional" (a) or "simplified" (b)."""
    return gettext(_VARIANT[variant])


def article_name(article: str) -> str:
    """An article reference as the message shows it: "Art. 10(a)(1)", "Art. 10.º(a)(1)", "第十條(甲)(1)"."""
    parts = _ARTICLE_PARTS.fullmatch(article)
    if parts is None or parts[1] not in _ARTICLE:
        return f"Art. {article}"
    number, paragraph, items = parts.groups()
    if paragraph == "(a)":
        paragraph = pgettext("paragraph of an article", "(a)")
    elif paragraph == "(b)":
        paragraph = pgettext("paragraph of an article", "(b)")
    return gettext(_ARTICLE[number]) + (paragraph or "") + items


def cited(article: str) -> str:
    """An article cited in brackets after what it rules: "(Art. 8)", "(Art. 8.º)", "（第八條）"."""
    return pgettext("an article cited in brackets", "({article})").format(article=article_name(article))


_CITED = re.compile(r"(?<![\w(-])(\d+)(\([ab]\))?((?:\(\d+\))*)")


def articles_name(articles: str) -> str:
    """Every article reference in `articles` ("10(a)(7)–(8), 10(b)(3)") as `article_name` cites it."""
    if not articles:
        return ""
    separator = pgettext("between two article references", ", ")
    return separator.join(_CITED.sub(lambda found: article_name(found[0]), part) for part in articles.split(", "))


def field_name(path: str | None) -> str | None:
    """A field of the portable record ("hand.melds[0].tiles") in people's words ("Meld 1"); None
    for a field with no name here (the message then goes without one)."""
    if not path:
        return None
    numbered = _NUMBERED_FIELD.fullmatch(path)
    if numbered:
        return gettext(_NUMBERED[numbered[1]]).format(n=int(numbered[2]) + 1)
    if path.startswith("capital.") and path[8:] in _SEAT:
        return pgettext("the capital of a seat", "Capital at stake of {seat}").format(seat=seat_name(path[8:]))
    name = _FIELD.get(path)
    return gettext(name) if name else None


def ledger_column_name(name: str) -> str:
    """A column of the ledger's jogo ("capital_after") in people's words ("capital after, chairs
    1–4"); one part of the engine's stored output ("outcome.payments") by its name in the
    portable record (docs/record-format.md)."""
    if name.startswith("outcome."):
        return gettext("the engine's stored output (%(part)s)") % {"part": name.removeprefix("outcome.")}
    return gettext(_LEDGER_COLUMN[name]) if name in _LEDGER_COLUMN else name


def exception_kind_name(code: str) -> str:
    """A kind of exception of a gaming day ("capped") by its name ("Capped win")."""
    return gettext(_EXCEPTION_KIND[code])


def tiles_in_words(text: str) -> str:
    """Art. 2: tiles the engine writes in the record's notation ("13579m", "1z, 5z", "5 × 1m") by
    their names in the active language ("1 de números, 3 de números", "5 隻一萬"), identical tiles
    side by side counted once ("2 × 9 de números"); text that is not notation is translated as is."""
    names = []
    for piece in text.split(", "):
        count, times, code = piece.rpartition(" × ")
        try:
            codes = [tile_code(tile) for tile in parse_tiles(code)]
        except TileNotationError:
            return gettext(text)
        if not codes or (times and not count.isdigit()):
            return gettext(text)
        if times:
            codes = [code] * int(count) if len(codes) == 1 else codes
        runs: list[list] = []
        for each in codes:
            if runs and runs[-1][0] == each:
                runs[-1][1] += 1
            else:
                runs.append([each, 1])
        names += [tile_name(each) if copies == 1 else
                  pgettext("copies of one tile", "{count} × {tile}").format(count=copies, tile=tile_name(each))
                  for each, copies in runs]
    return pgettext("between two items of a list", ", ").join(names)


def format_mistake(error: str, path: str | None = None) -> str:
    """What msgspec found wrong with the shape of a record (regulation.record.malformed), in
    people's words: no type names, backticks or file names. An unknown field is named as the
    record wrote it ("«colour»: not part of a jogo record")."""
    for pattern, template in _FORMAT:
        found = pattern.fullmatch(error)
        if not found:
            continue
        words = found.groupdict()
        if "kind" in words:
            kinds = [kind for kind in words["kind"].split(" | ") if kind != "null"]
            words["kind"] = gettext(_KIND.get(kinds[0], _KIND["str"])) if kinds else gettext(_KIND["str"])
        text = gettext(template).format(**words)
        if template == UNKNOWN_FIELD and path:
            text = pgettext("an error message naming its field", "{field}: {message}").format(
                field=f"«{path.rpartition('.')[2]}»", message=text)
        return text
    return gettext(UNREADABLE)


def notation_mistake(text: str) -> str:
    """What the tile notation's reader found wrong (regulation.tiles), in the active language."""
    for pattern, template in _NOTATION:
        found = pattern.fullmatch(text)
        if found:
            return gettext(template).format(**found.groupdict())
    return text


def revision_reason(reason: str) -> str:
    """The reason of a revision: a person's words as written, the service's own in the active language."""
    carried = _CARRIED_REASON.fullmatch(reason or "")
    if carried:
        return gettext(CARRIED_REASON).format(number=carried["number"])
    return reason


def rule_set_title(code: str, title: str) -> str:
    """The title of the rule set `code` (regulation.rules) in the active language; `title` otherwise."""
    return gettext(_RULE_SET[code]) if code in _RULE_SET else title


def rule_set_label(code: str, version: int) -> str:
    """A rule set as people name it in a list: its code and version."""
    return gettext("{code}, version {version}").format(code=code, version=version)


def _names_tiles() -> bool:
    """Whether messages name the tiles (Art. 2): English keeps the record's notation, which the
    dealer types; Portuguese and Chinese pages name them."""
    return not (get_language() or "en").startswith("en")


def _words(template: str, params: dict) -> dict:
    """The params of a message in the active language: seat names, kinds and variants translated,
    field paths named, meld numbers counted from 1, tiles named (`tiles_in_words`) but in English,
    conditions named, the article of `_CITES` cited; numbers stay as they are."""
    words = {}
    for name, value in params.items():
        if name == "field":
            value = field_name(value) or value
        elif name == "index" and template in _REWORDED and isinstance(value, int):
            value = value + 1
        elif name == "error" and isinstance(value, str) and template in _REWORDED:
            value = notation_mistake(value)
        elif name in ("tile", "tiles", "copies") and isinstance(value, str) and value and _names_tiles():
            value = tiles_in_words(value)
        elif name == "conditions" and isinstance(value, str) and all(
                code in _FAN_ITEM for code in value.split(", ")):
            value = pgettext("between two items of a list", ", ").join(
                condition_name(code) for code in value.split(", "))
        elif name == "missing" and isinstance(value, str) and ", " in value:  # what identifies a player (C-2)
            value = pgettext("between two items of a list", ", ").join(gettext(word) for word in value.split(", "))
        elif isinstance(value, str) and value:
            value = gettext(_RECORD_VALUE.get(value, value))
        words[name] = value
    if template in _CITES:
        words["article"] = article_name(_CITES[template])
    return words


def template_in_words(template: str, params: dict | None = None, path: str | None = None) -> str:
    """An engine's or a service's message template said in the active language and filled with
    `params` in people's words (`_words`); without params, the template as translated."""
    params = params or {}
    if template == RECORD_FORMAT:
        return format_mistake(str(params.get("error", "")), path) if params else gettext(UNREADABLE)
    words = _words(template, params)
    if template in _PLURAL:
        count, singular, plural = _PLURAL[template]
        text = ngettext(singular, plural, params[count] if isinstance(params.get(count), int) else 2)
    else:
        text = gettext(_REWORDED.get(template, template))
    if not params:  # the template itself, as a translator wrote it, its article cited
        return text.replace("{article}", words.get("article", "{article}"))
    return text.format(**words)


def localise(error: Any, *, field: bool = True) -> str:
    """The message of a `Breach`, `MalformedRecord` or pit `Problem` in the active language.

    Its template is said in people's words (`template_in_words`: a count agrees with its noun,
    a record's shape is no developer's message, articles cited in one style) and filled with its
    params, each string param translated too (seat names, meld kinds, variants; tiles named but
    in English, where the record's notation stays; numbers as they are). The article
    ("Art. 5(a)(6): ") or the field, in people's words ("Concealed tiles: ", left out when
    `field` is False, for a message shown beside its field), goes in front when the English
    message has it there. Without a template (an error stored before templates existed), or
    when the message is not its template filled in, the English message is returned.
    """
    message = error.message
    template = getattr(error, "template", None)
    if not template:
        return message
    params = getattr(error, "params", None) or {}
    english = template.format(**params)
    path = getattr(error, "field", None)
    text = template_in_words(template, params, path)
    if message == english:
        return text
    article = getattr(error, "article", None)
    if article is not None and message == f"Art. {article}: {english}":
        return pgettext("an error message citing its article", "{article}: {message}").format(
            article=article_name(article), message=text)
    if path and message == f"{path}: {english}":
        name = field_name(path)
        if not field or name is None:
            return text
        return pgettext("an error message naming its field", "{field}: {message}").format(field=name, message=text)
    return message


def person_name(user: Any) -> str:
    """How a screen, a report or a PDF names a member of staff: the full name, or the username
    for an account that has none."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


# --- The floor's alerts (casino/floor/rules.py) ---------------------------------------------------
# Each rule's name, the words of its alerts (filled from the alert's `params`; chairs there are
# numbered 1–4 already), the controls the rules (and the audit's exception kinds) come from, and the
# severities and states.

_ALERT_RULE = {
    "capital_below_zero": gettext_noop("Capital below zero"),
    "capital_below_minimum": gettext_noop("Capital below the table's minimum"),
    "large_transaction": gettext_noop("Large transaction"),
    "structuring": gettext_noop("Structuring"),
    "grade_not_declared": gettext_noop("Win with no declared grade"),
    "grade_differs": gettext_noop("Declared grade differs"),
    "pay_all": gettext_noop("Pay-all"),
    "false_win": gettext_noop("False win"),
    "refusals": gettext_noop("Repeated refusals"),
    "off_rotation": gettext_noop("Recorded off the rotation"),
    "game_open": gettext_noop("Long game"),
    "table_idle": gettext_noop("Idle table"),
    "box_not_counted": gettext_noop("Box not counted"),
    "variance_case": gettext_noop("Variance case"),
    "correction_pending": gettext_noop("Correction waiting"),
    "flag_open": gettext_noop("Inspector's flag"),
    "ledger": gettext_noop("Ledger check failed"),
}

_ALERT_MESSAGE = {
    "capital_below_zero": gettext_noop("Table {table}, chair {chair}: the capital at stake, {capital}, is below zero."),
    "capital_below_minimum": gettext_noop("Table {table}, chair {chair}: the capital at stake, {capital}, is "
                                          "{missing} short of the table's minimum of {minimum}."),
    # A large transaction: the player's buy-ins, or his cash-outs, over the gaming day at every table.
    "buy_in": gettext_noop("Table {table}, chair {chair}: a buy-in of {amount} brings the player's buy-ins of the "
                           "gaming day, at every table, to {total}: at or above the large-transaction threshold of "
                           "{threshold}."),
    "cash_out": gettext_noop("Table {table}, chair {chair}: a cash-out of {amount} brings the player's cash-outs of "
                             "the gaming day, at every table, to {total}: at or above the large-transaction "
                             "threshold of {threshold}."),
    "buy_in_refused": gettext_noop("Table {table}, chair {chair}: a buy-in of {amount} was refused: it would bring "
                                   "the player's buy-ins of the gaming day to {total}, at or above the "
                                   "large-transaction threshold of {threshold}, and the player is not identified."),
    "cash_out_refused": gettext_noop("Table {table}, chair {chair}: a cash-out of {amount} was refused: it would "
                                     "bring the player's cash-outs of the gaming day to {total}, at or above the "
                                     "large-transaction threshold of {threshold}, and the player is not identified."),
    "structuring_buy_in": gettext_noop("Table {table}, chair {chair}: {count} buy-ins of the player this gaming day, "
                                       "each below the large-transaction threshold of {threshold}, add up to "
                                       "{total}."),
    "structuring_cash_out": gettext_noop("Table {table}, chair {chair}: {count} cash-outs of the player this gaming "
                                         "day, each below the large-transaction threshold of {threshold}, add up to "
                                         "{total}."),
    "grade_not_declared": gettext_noop("Table {table}, jogo {number}: a win saved with no declared grade."),
    "grade_differs": gettext_noop("Table {table}, jogo {number}: the declared grade, {declared} fán, differs from "
                                  "the computed one, {computed} fán."),
    "grade_on_no_win": gettext_noop("Table {table}, jogo {number}: a grade of {declared} fán was declared on a jogo "
                                    "nobody won."),
    "pay_all": gettext_noop("Table {table}, jogo {number}: a pay-all."),
    "false_win": gettext_noop("Table {table}, jogo {number}: a false win."),
    "refusals": gettext_noop("Table {table}: {count} refused records within {minutes} minutes."),
    "off_rotation": gettext_noop("Table {table}, jogo {number}: recorded by {person}, who is not on the table's "
                                 "dealer rotation."),
    "game_open": gettext_noop("Table {table}: a game open for more than {hours} hours."),
    "table_idle": gettext_noop("Table {table}: open with no jogo for {minutes} minutes or more."),
    "box_not_counted": gettext_noop("Table {table}: the box of {day}, shift {shift} ({starts}–{ends}), is not "
                                    "counted {hours} hours after the shift ended."),
    "variance_case": gettext_noop("Table {table}: variance case {case} opened on the box of {day}, shift {shift}."),
    "variance_case_reopened": gettext_noop("Table {table}: variance case {case} reopened on the box of {day}, "
                                           "shift {shift}."),
    "correction_pending": gettext_noop("Table {table}, jogo {number}: a correction has waited more than {minutes} "
                                       "minutes for a second person."),
    "flag_open": gettext_noop("Table {table}, jogo {number}: an inspector flagged it."),
    "ledger": gettext_noop("The check of the ledger's hash chains found {problems} problem(s); the first are "
                           "listed below."),
}

_ALERT_CONTROL = {
    "capital": gettext_noop("capital at stake"),
    "minimum_capital": gettext_noop("casino rule C-1 (minimum capital)"),
    "large_transactions": gettext_noop("casino rule C-2 (large transactions, DICJ Instruction n.º 1/2016)"),
    "declared_grade": gettext_noop("declared grade check"),
    "refusals": gettext_noop("refused records"),
    "rotation": gettext_noop("dealer rotation"),
    "game_length": gettext_noop("length of a game"),
    "idle_table": gettext_noop("idle tables"),
    "count": gettext_noop("count of the commission boxes"),
    "variance": gettext_noop("count variance"),
    "maker_checker": gettext_noop("corrections approved by a second person"),
    "inspection": gettext_noop("inspection"),
    "ledger": gettext_noop("ledger integrity"),
    "seating": gettext_noop("seating of a game"),
}

_ALERT_SEVERITY = {"info": gettext_noop("information"), "warning": gettext_noop("warning"),
                   "critical": gettext_noop("critical")}
# pgettext: an alert (o alerta) is "aberto" where a flag (a sinalização) is "aberta".
_ALERT_STATE = {"open": ("an alert", "open"), "acknowledged": ("an alert", "acknowledged"),
                "cleared": ("an alert", "cleared"), "escalated": ("an alert", "escalated")}


def alert_rule_name(code: str) -> str:
    """A rule's name: "Capital below zero"; an unknown code as it is."""
    return gettext(_ALERT_RULE[code]) if code in _ALERT_RULE else code


def alert_control_name(code: str) -> str:
    """The control a rule comes from, in words: "dealer rotation"."""
    return gettext(_ALERT_CONTROL[code]) if code in _ALERT_CONTROL else code


def alert_severity_name(severity: str) -> str:
    return gettext(_ALERT_SEVERITY[severity]) if severity in _ALERT_SEVERITY else severity


def alert_state_name(state: str) -> str:
    """"open", "acknowledged", "cleared", "escalated", as an alert is."""
    context, word = _ALERT_STATE[state]
    return pgettext(context, word)


def alert_message(alert: Any) -> str:
    """What an alert (anything with `rule` and `params`) says, filled from its params."""
    params = dict(alert.params or {})
    template = alert.rule
    if alert.rule == "large_transaction":
        template = params.get("kind", "buy_in") + ("_refused" if params.get("refused") else "")
    elif alert.rule == "structuring":
        template = "structuring_" + params.get("kind", "buy_in")
    elif alert.rule == "grade_differs" and params.get("computed") is None:
        template = "grade_on_no_win"
    elif alert.rule == "variance_case" and params.get("reopened"):
        template = "variance_case_reopened"
    if template not in _ALERT_MESSAGE:
        return alert_rule_name(alert.rule)
    params.setdefault("person", "")
    try:
        return gettext(_ALERT_MESSAGE[template]).format(**params)
    except (KeyError, IndexError):
        return alert_rule_name(alert.rule)
