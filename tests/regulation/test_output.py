"""The scorer's two ways to write a result (docs/record-format.md, The output) say exactly the same."""
import json
from pathlib import Path

import msgspec
import pytest

from regulation import read_record, score

# The worked examples of the record's format (docs/record-format.md), with the figures they must give.
EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "jogo-examples.jsonl"
BASE = {"variant": "conventional", "stake": 25, "round_wind": "E",
        "capital": {"E": 5000, "S": 5000, "W": 5000, "N": 5000}}


def test_spec_examples_score_as_the_spec_says():
    examples = [json.loads(line) for line in EXAMPLES.read_text().splitlines() if line.strip()]
    assert examples
    for example in examples:
        output = score(read_record(example["record"])).as_dict()
        assert {key: output[key] for key in example["expected"]} == example["expected"], example["title"]


@pytest.mark.parametrize("record", [
    # a win with a fán item, a refused hand, a false win, a draw, and a declared grade that differs
    {**BASE, "result": "win", "winner": "E", "discarder": None, "declared_fan": 0,
     "hand": {"concealed": "345m678p234s99m77z", "winning_tile": "7z", "melds": []}},
    {**BASE, "result": "win", "winner": "S", "discarder": "W",
     "hand": {"concealed": "1155m3377p2288s9s", "winning_tile": "9s"}},
    {**BASE, "result": "false_win", "false_win": {"seat": "N"}},
    {**BASE, "result": "draw"},
    {**BASE, "result": "win", "winner": "W", "discarder": "N",
     "pay_all": {"seat": "N", "article": "10(a)(3)", "live_tile": False},
     "hand": {"concealed": "66z22m", "winning_tile": "6z", "melds": [
         {"kind": "pong", "tiles": "555z", "exposed": True}, {"kind": "pong", "tiles": "777z", "exposed": True},
         {"kind": "chow", "tiles": "345s", "exposed": True}]}},
])
def test_json_output_is_the_dict_output_field_for_field(record):
    result = score(read_record(record))
    encoded = result.to_json()
    assert msgspec.json.decode(encoded) == result.as_dict()
    assert list(msgspec.json.decode(encoded)) == list(result.as_dict())  # same order of fields
