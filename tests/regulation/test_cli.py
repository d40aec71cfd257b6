"""The scorer's command line and the reading of the portable record (docs/record-format.md): a public
interface inspectors use offline. Malformed input is refused with a message and exit status 2,
never a traceback.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from regulation import MalformedRecord, read_record, score
from tests.builders import jogos

REPO = Path(__file__).resolve().parents[2]


def full_record(**fields):
    """A record the CLI reads in full: South wins a chicken hand on West's discard at 50/100, every
    optional field written out, unless told (tests/builders/jogos.py's jogo at another table)."""
    return jogos.record(**{"stake": 50, "hand": {**jogos.CHICKEN, "melds": []}, "conditions": [], "declared_fan": None,
                           "conduct": [], "claimants": [], "pay_all": None, "false_win": None, **fields})


# Chicken at 50: E pays 100, W and N 50 each; S nets 200 − 20 = 180 (Art. 7, Art. 8).
CHICKEN_NET = {"E": -100, "S": 180, "W": -50, "N": -50}
SEVEN_PAIRS = {"concealed": "1155m3377p2288s9s", "winning_tile": "9s"}


def run(*args, stdin=b"", timeout=30):
    return subprocess.run([sys.executable, "-m", "regulation", *args], cwd=REPO, input=stdin,
                          capture_output=True, timeout=timeout)


def assert_exits_refused(process):
    """The CLI refused its input: exit status 2, a message on stderr, nothing on stdout."""
    assert process.returncode == 2
    assert process.stdout == b""
    assert process.stderr.strip()
    assert b"Traceback" not in process.stderr


# --- One record -----------------------------------------------------------------------------


def test_score_file_prints_one_result(tmp_path):
    path = tmp_path / "jogo.json"
    path.write_text(json.dumps(full_record()))

    process = run("score", str(path))

    assert process.returncode == 0
    out = json.loads(process.stdout)
    assert set(out) == {"valid", "errors", "fan", "items", "declared_fan", "fan_mismatch", "payments",
                        "commission", "net", "next"}
    assert out["valid"] is True
    assert out["errors"] == []
    assert out["fan"] == 0
    assert out["commission"] == 20
    assert out["net"] == CHICKEN_NET
    assert sorted((p["from"], p["to"], p["amount"]) for p in out["payments"]) == [
        ("E", "S", 100), ("N", "S", 50), ("W", "S", 50)]
    assert out["next"] == {"banker_moves": True}


def test_score_reads_standard_input_given_a_dash():
    process = run("score", "-", stdin=json.dumps(full_record()).encode())

    assert process.returncode == 0
    assert json.loads(process.stdout)["net"] == CHICKEN_NET


def test_score_reads_standard_input_without_a_file():
    process = run("score", stdin=json.dumps(full_record()).encode())

    assert process.returncode == 0
    assert json.loads(process.stdout)["net"] == CHICKEN_NET


def test_a_jogo_that_breaks_the_regulation_is_still_read_exit_0():
    process = run("score", "-", stdin=json.dumps(full_record(hand=SEVEN_PAIRS)).encode())

    assert process.returncode == 0
    out = json.loads(process.stdout)
    assert out["valid"] is False
    assert [(e["code"], e["article"]) for e in out["errors"]] == [("not_a_winning_hand", "4(a)")]
    assert out["errors"][0]["message"].startswith("Art. 4(a): ")
    assert out["payments"] == [] and out["commission"] == 0
    assert out["net"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_decimal_string_capital_is_accepted():
    capital = {"E": "5000.00", "S": "5000", "W": "5000.00", "N": 5000}
    process = run("score", "-", stdin=json.dumps(full_record(capital=capital)).encode())

    assert process.returncode == 0
    assert json.loads(process.stdout)["net"] == CHICKEN_NET


def test_decimal_string_capital_caps_the_winner():
    capital = {"E": 5000, "S": "100.00", "W": 5000, "N": 5000}
    process = run("score", "-", stdin=json.dumps(full_record(capital=capital)).encode())

    # Dues W 50, N 50, E 100 = 200 > 100: halved to 25, 25, 50; S nets 100 − 20 = 80.
    assert json.loads(process.stdout)["net"] == {"E": -50, "S": 80, "W": -25, "N": -25}


def test_missing_file_is_refused():
    assert_exits_refused(run("score", str(REPO / "no-such-jogo.json")))


def test_not_json_is_refused():
    assert_exits_refused(run("score", "-", stdin=b"{variant: conventional"))


def test_empty_input_is_refused():
    assert_exits_refused(run("score", "-", stdin=b""))


def test_bytes_that_are_not_utf8_are_refused():
    assert_exits_refused(run("score", "-", stdin=b"\xff\xfe{\x00}"))


def test_a_json_array_is_refused():
    assert_exits_refused(run("score", "-", stdin=json.dumps([full_record()]).encode()))


def test_deeply_nested_json_is_refused():
    nested = b"[" * 100_000 + b"]" * 100_000
    assert_exits_refused(run("score", "-", stdin=nested))


def test_deeply_nested_value_inside_a_record_is_refused():
    raw = json.dumps(full_record()).encode().replace(b'"conditions": []', b'"conditions": ' + b"[" * 5000 + b"]" * 5000)
    assert_exits_refused(run("score", "-", stdin=raw))


def test_a_megabyte_of_input_is_refused():
    huge = json.dumps(full_record(hand={"concealed": "1m" * 500_000, "winning_tile": "1p"})).encode()
    assert len(huge) > 1_000_000

    assert_exits_refused(run("score", "-", stdin=huge))


def test_a_megabyte_of_whitespace_around_a_record_is_refused():
    huge = json.dumps(full_record()).encode() + b" " * 1_000_000

    assert_exits_refused(run("score", "-", stdin=huge))


WRONG_NUMBERS = [
    ("stake", 50.0),
    ("stake", True),
    ("stake", "fifty"),
    ("declared_fan", 1.0),
    ("declared_fan", "1"),
    ("declared_fan", True),
    ("capital", {"E": 5000.0, "S": 5000, "W": 5000, "N": 5000}),
    ("capital", {"E": True, "S": 5000, "W": 5000, "N": 5000}),
    ("capital", {"E": "5000.50", "S": 5000, "W": 5000, "N": 5000}),
]


@pytest.mark.parametrize("field, value", WRONG_NUMBERS)
def test_integers_given_as_floats_strings_or_booleans_are_malformed(field, value):
    with pytest.raises(MalformedRecord) as raised:
        read_record(full_record(**{field: value}))

    assert raised.value.field.split(".")[0] == field


def test_a_float_stake_is_refused_by_the_command_line():
    process = run("score", "-", stdin=json.dumps(full_record(stake=50.0)).encode())

    assert_exits_refused(process)
    assert b"stake" in process.stderr


def test_jsonl_refuses_every_integer_given_as_a_float_string_or_boolean(tmp_path):
    path = tmp_path / "jogos.jsonl"
    path.write_text("".join(json.dumps(full_record(**{field: value})) + "\n" for field, value in WRONG_NUMBERS))

    process = run("score", "--jsonl", str(path))

    assert process.returncode == 2
    assert b"Traceback" not in process.stderr
    results = [json.loads(line) for line in process.stdout.splitlines()]
    assert len(results) == len(WRONG_NUMBERS)
    assert all(r["valid"] is False and r["errors"][0]["code"] == "malformed_record" for r in results)
    messages = process.stderr.decode().splitlines()
    for number, (field, _) in enumerate(WRONG_NUMBERS, start=1):
        assert any(f"line {number}: {field}" in message for message in messages)


def test_unknown_tile_is_refused_naming_the_field():
    process = run("score", "-",
                  stdin=json.dumps(full_record(hand={"concealed": "345m678p234s99m11p",
                                                     "winning_tile": "8z"})).encode())

    assert_exits_refused(process)
    assert b"hand.winning_tile" in process.stderr


def test_an_exponent_capital_out_of_range_is_refused_without_a_traceback():
    capital = {"E": "1e5000", "S": 5000, "W": 5000, "N": 5000}
    assert_exits_refused(run("score", "-", stdin=json.dumps(full_record(capital=capital)).encode()))


def test_an_absurd_exponent_stake_is_refused_promptly():
    # A 9-character field must not keep the scorer busy (it once spent tens of seconds in
    # int(Decimal("1e999999"))); the generous timeout only guards against that hang.
    assert_exits_refused(run("score", "-", stdin=json.dumps(full_record(stake="1e999999")).encode(), timeout=20))


# --- One record per line (--jsonl) ----------------------------------------------------------


def test_jsonl_prints_one_result_per_line(tmp_path):
    path = tmp_path / "jogos.jsonl"
    lines = [full_record(), full_record(hand=SEVEN_PAIRS),
             full_record(result="draw", winner=None, discarder=None, hand=None)]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))

    process = run("score", "--jsonl", str(path))

    assert process.returncode == 0
    results = [json.loads(line) for line in process.stdout.splitlines()]
    assert [r["valid"] for r in results] == [True, False, True]
    assert results[0]["net"] == CHICKEN_NET
    assert results[2]["net"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_jsonl_a_malformed_line_gets_a_result_line_and_exit_2(tmp_path):
    path = tmp_path / "jogos.jsonl"
    path.write_bytes(b"\n".join([json.dumps(full_record()).encode(), b"not json",
                                 json.dumps(full_record()).encode()]) + b"\n")

    process = run("score", "--jsonl", str(path))

    assert process.returncode == 2
    assert b"Traceback" not in process.stderr
    assert b"line 2" in process.stderr
    results = [json.loads(line) for line in process.stdout.splitlines()]
    assert len(results) == 3
    assert results[0]["net"] == CHICKEN_NET and results[2]["net"] == CHICKEN_NET  # scoring went on
    assert results[1]["valid"] is False
    assert [e["code"] for e in results[1]["errors"]] == ["malformed_record"]


def test_jsonl_a_record_that_is_not_an_object_is_a_malformed_line(tmp_path):
    path = tmp_path / "jogos.jsonl"
    path.write_text(json.dumps([full_record()]) + "\n" + json.dumps(full_record(stake=50.0)) + "\n")

    process = run("score", "--jsonl", str(path))

    assert process.returncode == 2
    results = [json.loads(line) for line in process.stdout.splitlines()]
    assert [r["errors"][0]["code"] for r in results] == ["malformed_record", "malformed_record"]


def test_jsonl_a_megabyte_line_is_a_malformed_line(tmp_path):
    path = tmp_path / "jogos.jsonl"
    huge = json.dumps(full_record(hand={"concealed": "1m" * 500_000, "winning_tile": "1p"}))
    path.write_text(huge + "\n" + json.dumps(full_record()) + "\n")

    process = run("score", "--jsonl", str(path))

    assert process.returncode == 2
    results = [json.loads(line) for line in process.stdout.splitlines()]
    assert [r["valid"] for r in results] == [False, True]
    assert results[0]["errors"][0]["code"] == "malformed_record"


def test_jsonl_reads_standard_input():
    stdin = (json.dumps(full_record()) + "\n" + json.dumps(full_record(winner="E", discarder="W")) + "\n").encode()

    process = run("score", "--jsonl", "-", stdin=stdin)

    assert process.returncode == 0
    results = [json.loads(line) for line in process.stdout.splitlines()]
    # Banker wins a chicken at 50: 2 × 50 from each of S, W, N = 300, less 20.
    assert [r["net"] for r in results] == [CHICKEN_NET, {"E": 280, "S": -100, "W": -100, "N": -100}]


def test_jsonl_missing_file_is_refused():
    assert_exits_refused(run("score", "--jsonl", str(REPO / "no-such-jogos.jsonl")))


# --- read_record: what cannot be read at all (MalformedRecord names the field) --------------


def malformed_field(data):
    with pytest.raises(MalformedRecord) as raised:
        read_record(data)
    return raised.value.field


@pytest.mark.parametrize("data", [[], "jogo", 42, None, True])
def test_a_record_is_a_json_object(data):
    assert malformed_field(data) == ""


def test_unknown_field_is_refused():
    assert malformed_field(full_record(colour="red")) == "colour"


@pytest.mark.parametrize("field", ["variant", "stake", "round_wind", "capital", "result"])
def test_required_field_is_refused_when_missing(field):
    data = full_record()
    del data[field]

    assert malformed_field(data) == field


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"variant": "riichi"}, "variant"),
        ({"round_wind": "X"}, "round_wind"),
        ({"result": "won"}, "result"),
        ({"winner": "South"}, "winner"),
        ({"capital": {"E": 5000, "S": 5000, "W": 5000, "X": 5000}}, "capital.X"),
        ({"capital": {}}, "capital"),
        ({"capital": {"E": -1, "S": 5000, "W": 5000, "N": 5000}}, "capital.E"),
        ({"stake": 0}, "stake"),
        ({"declared_fan": 3}, "declared_fan"),
        ({"conditions": ["lucky"]}, "conditions[0]"),
        ({"conditions": ["last_tile", "last_tile"]}, "conditions"),
        ({"conduct": [{"seat": "N", "kind": "cheated"}]}, "conduct[0].kind"),
        ({"claimants": ["N", "N"]}, "claimants"),
        ({"pay_all": {"seat": "W", "article": "10(a)(9)"}}, "pay_all.article"),
        ({"pay_all": {"seat": "W", "article": "10(a)(1)", "live_tile": "no"}}, "pay_all.live_tile"),
        ({"rules": {"fan_combination": "multiplicative"}}, "rules.fan_combination"),
        ({"rules": {"fan_combination": ["additive"]}}, "rules.fan_combination"),
        ({"rules": {"fan_combination": 1}}, "rules.fan_combination"),
        ({"rules": {"reading": "additive"}}, "rules.reading"),
        ({"rules": ["additive"]}, "rules"),
    ],
)
def test_values_outside_the_format_are_refused(fields, field):
    assert malformed_field(full_record(**fields)) == field


@pytest.mark.parametrize(
    "hand, field",
    [
        ({"concealed": "345m678p234s99m11p", "winning_tile": "0m"}, "hand.winning_tile"),
        ({"concealed": "345m678p234s99m8z", "winning_tile": "1p"}, "hand.concealed"),
        ({"concealed": "345x", "winning_tile": "1p"}, "hand.concealed"),
        ({"concealed": "345m678p234s99m11p", "winning_tile": "1p1p"}, "hand.winning_tile"),
        ({"concealed": 345, "winning_tile": "1p"}, "hand.concealed"),
        ({"concealed": "345m678p234s99m11p"}, "hand.winning_tile"),
        ({"concealed": "345m", "winning_tile": "1p", "melds": [{"kind": "set", "tiles": "111p", "exposed": True}]},
         "hand.melds[0].kind"),
        ({"concealed": "345m", "winning_tile": "1p", "melds": [{"kind": "pong", "tiles": "111p", "exposed": "yes"}]},
         "hand.melds[0].exposed"),
        ({"concealed": "345m", "winning_tile": "1p", "melds": [{"kind": "pong", "tiles": "111p"}]},
         "hand.melds[0].exposed"),
    ],
)
def test_unknown_tiles_and_bad_melds_are_refused(hand, field):
    assert malformed_field(full_record(hand=hand)) == field


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"hand": {"concealed": "1m" * 1000, "winning_tile": "1p"}}, "hand.concealed"),
        ({"capital": {"E": 10**13, "S": 5000, "W": 5000, "N": 5000}}, "capital.E"),
        ({"claimants": ["E", "S", "W", "N"]}, "claimants"),
        ({"conditions": ["last_tile"] * 100}, "conditions"),
        ({"conduct": [{"seat": "N", "kind": "saw_tiles"}] * 100}, "conduct"),
        ({"hand": {"concealed": "1m", "winning_tile": "1p",
                   "melds": [{"kind": "pong", "tiles": "111p", "exposed": True}] * 5}}, "hand.melds"),
    ],
)
def test_absurd_sizes_are_refused(fields, field):
    assert malformed_field(full_record(**fields)) == field


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"result": "draw", "winner": "S", "discarder": None, "hand": None}, "winner"),
        ({"result": "draw", "winner": None, "discarder": "W", "hand": None}, "discarder"),
        ({"result": "draw", "winner": None, "discarder": None}, "hand"),
        ({"result": "draw", "winner": None, "discarder": None, "hand": None, "false_win": {"seat": "N"}}, "false_win"),
        ({"result": "draw", "winner": None, "discarder": None, "hand": None, "claimants": ["N"]}, "claimants"),
        ({"result": "draw", "winner": None, "discarder": None, "hand": None,
          "pay_all": {"seat": "W", "article": "10(a)(4)"}}, "pay_all"),
        ({"result": "false_win", "winner": None, "discarder": None, "hand": None}, "false_win"),
        ({"result": "false_win", "winner": "S", "discarder": None, "hand": None, "false_win": {"seat": "N"}}, "winner"),
        ({"result": "false_win", "winner": None, "discarder": "W", "hand": None, "false_win": {"seat": "N"}},
         "discarder"),
        ({"false_win": {"seat": "N"}}, "false_win"),
        ({"winner": None}, "winner"),
        ({"hand": None}, "hand"),
    ],
)
def test_fields_that_do_not_fit_the_result_are_refused(fields, field):
    assert malformed_field(full_record(**fields)) == field


def test_a_won_jogo_records_its_discarder_even_when_null():
    data = full_record()
    del data["discarder"]

    assert malformed_field(data) == "discarder"


def test_optional_fields_may_be_left_out():
    data = {"variant": "conventional", "stake": 50, "round_wind": "E",
            "capital": {"E": 5000, "S": 5000, "W": 5000, "N": 5000}, "result": "win", "winner": "S",
            "discarder": "W", "hand": {"concealed": "345m678p234s99m11p", "winning_tile": "1p"}}

    assert score(read_record(data)).settlement.net == CHICKEN_NET


@pytest.mark.parametrize("reading", ["additive", "highest_plus_bonus"])
def test_rules_may_choose_the_fan_combination_reading(reading):
    # A chicken hand scores no item under either reading (I-5): the money is the same.
    assert score(read_record(full_record(rules={"fan_combination": reading}))).settlement.net == CHICKEN_NET


def test_tile_strings_may_contain_spaces():
    hand = {"concealed": "345m 678p 234s 99m 11p", "winning_tile": " 1p"}

    assert score(read_record(full_record(hand=hand))).settlement.net == CHICKEN_NET


def test_capital_may_be_given_in_any_seat_order():
    data = full_record(capital={"N": 5000, "W": 5000, "S": 5000, "E": 5000})

    assert score(read_record(data)).settlement.net == CHICKEN_NET


@pytest.mark.parametrize("melds", [{}, 0, False, ""])
def test_melds_of_the_wrong_type_are_refused(melds):
    hand = {"concealed": "345m678p234s99m11p", "winning_tile": "1p", "melds": melds}

    assert malformed_field(full_record(hand=hand)) == "hand.melds"


def test_an_exponent_amount_out_of_range_raises_malformed_record():
    assert malformed_field(full_record(stake="1e5000")) == "stake"
