"""The record most engine tests start from (JOGO-FORMAT.md): South wins a chicken hand on
West's discard at the conventional 25/50 table (Art. 6(a)(1))."""
from regulation import read_record, score

CHICKEN = {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}


def scored(*, capital: dict, **fields):
    """Score that jogo with `fields` changed."""
    record = {
        "variant": "conventional",
        "stake": 25,
        "round_wind": "E",
        "capital": dict(capital),
        "result": "win",
        "winner": "S",
        "discarder": "W",
        "hand": CHICKEN,
    }
    record.update(fields)
    return score(read_record(record))
