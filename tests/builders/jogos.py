"""The builders of jogos every test starts from, in the portable record (docs/record-format.md): by
default South wins a chicken hand on West's discard at the conventional 25/50 table, the four
seats with 5000 each (Art. 6(a)(1)). The pit's builders (tests/builders/pit.py) record them at a table.

The classical rule books' record (regulation/books) is built here too: `player` and `book_record`,
with the same `pong`, `chow` and `kong`."""
from collections.abc import Iterator
from contextlib import contextmanager

from regulation import read_record, rules, score
from regulation.rules import RuleSet

CHICKEN = {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}
SEATED = {"E": 5000, "S": 5000, "W": 5000, "N": 5000}


def record(**fields) -> dict:
    """That jogo's record with `fields` changed."""
    base = {"variant": "conventional", "stake": 25, "round_wind": "E", "capital": dict(SEATED), "result": "win",
            "winner": "S", "discarder": "W", "hand": CHICKEN}
    return {**base, **fields}


def scored(*, capital: dict, **fields):
    """Score that jogo with `fields` changed."""
    return score(read_record(record(capital=dict(capital), **fields)))


def pong(tiles: str, *, exposed: bool = True) -> dict:
    return {"kind": "pong", "tiles": tiles, "exposed": exposed}


def chow(tiles: str, *, exposed: bool = True) -> dict:
    return {"kind": "chow", "tiles": tiles, "exposed": exposed}


def kong(tiles: str, *, exposed: bool = True) -> dict:
    return {"kind": "kong", "tiles": tiles, "exposed": exposed}


def win(concealed: str, winning: str, *, melds=(), winner: str = "S", discarder: str | None = "W",
        round_wind: str = "E", conditions=(), variant: str = "conventional", stake: int | None = None,
        fan_combination: str | None = None) -> dict:
    """A won jogo with this hand, the simplified game at 100/200 when `variant` says so."""
    won = record(variant=variant, stake=stake or (25 if variant == "conventional" else 100), round_wind=round_wind,
                 winner=winner, discarder=discarder,
                 hand={"concealed": concealed, "melds": list(melds), "winning_tile": winning},
                 conditions=list(conditions))
    if fan_combination:
        won["rules"] = {"fan_combination": fan_combination}
    return won


@contextmanager
def registered(*rule_sets: RuleSet) -> Iterator[None]:
    """Ship `rule_sets` beside the regulation's own (`regulation.rules.RULE_SETS`) for the
    duration of the `with`: a test's own rule set, as an amendment would be shipped."""
    before = rules.RULE_SETS
    clash = {(r.code, r.version) for r in before} & {(r.code, r.version) for r in rule_sets}
    if clash:
        raise ValueError(f"rule set already registered: {sorted(clash)}")
    rules.RULE_SETS = before + rule_sets
    try:
        yield
    finally:
        rules.RULE_SETS = before


# --- The classical rule books' record (regulation/books) ------------------------------------------

def player(concealed: str = "", melds=(), flowers: str = "") -> dict:
    """One player's tiles in a book record: concealed, declared sets, flowers and seasons."""
    return {"concealed": concealed, "melds": list(melds), "flowers": flowers}


def book_record(players: dict, *, winner: str, winning_tile: str, winning_from: str, discarder: str = "W",
                **fields) -> dict:
    """A book record: `winner` goes out on `winning_tile` as `winning_from` says, the discarder
    named only when the tile was discarded or robbed."""
    data = {"winner": winner, "winning_from": winning_from, "winning_tile": winning_tile, "players": players}
    if winning_from in ("discard", "robbing_kong"):
        data["discarder"] = discarder
    return {**data, **fields}
