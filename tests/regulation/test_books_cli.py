"""The scorer's command line for the classical rule books: `--rules <book>` reads book records
and prints the book's result; malformed input is refused with exit status 2 and a message,
never a traceback."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from regulation import MalformedRecord
from regulation.books import (
    BOOKS,
    book,
    decode_book_record,
    read_book_record,
    score_book,
)

REPO = Path(__file__).resolve().parents[2]

# Serralheiro §10(c): North's 528.
NORTH_10C = {
    "banker": "E", "opener": "S", "winner": "N", "winning_from": "discard", "discarder": "W",
    "winning_tile": "3m",
    "players": {"N": {"concealed": "12m 55s", "flowers": "f3 g1",
                      "melds": [{"kind": "kong", "tiles": "1111z", "exposed": False},
                                {"kind": "pong", "tiles": "111s", "exposed": True},
                                {"kind": "pong", "tiles": "444s", "exposed": True}]}},
}


def run(*args, stdin=b""):
    return subprocess.run([sys.executable, "-m", "regulation", *args], check=False, cwd=REPO, input=stdin,
                          capture_output=True, timeout=60)


def encoded(data=NORTH_10C, **fields):
    return json.dumps({**data, **fields}).encode()


def assert_refused(process):
    assert process.returncode == 2
    assert process.stderr.strip()
    assert b"Traceback" not in process.stderr


def test_cli_score_a_book_record_from_a_file(tmp_path):
    path = tmp_path / "hand.json"
    path.write_bytes(encoded())
    process = run("score", "--rules", "serralheiro-2003", str(path))
    assert process.returncode == 0, process.stderr
    result = json.loads(process.stdout)
    assert result["rules"] == {"code": "serralheiro-2003", "version": 1}
    assert result["players"]["N"]["score"] == 528
    assert result["net"] == {"E": -1056, "S": -528, "W": -528, "N": 2112}


def test_cli_gives_the_same_result_as_the_library():
    process = run("score", "--rules", "serralheiro-2003", "--rules-version", "1", stdin=encoded())
    library = score_book(read_book_record(NORTH_10C), book("serralheiro-2003")).to_dict()
    assert json.loads(process.stdout) == library


def test_cli_result_has_the_contract_keys():
    result = json.loads(run("score", "--rules", "english-booklet", stdin=encoded()).stdout)
    assert set(result) == {"rules", "valid", "errors", "players", "payments", "net", "readings"}
    assert set(result["players"]["N"]) == {"winner", "banker", "points", "doubles", "limit_hand", "points_total",
                                           "doubles_total", "score", "limit", "limited_score"}
    assert set(result["payments"][0]) == {"from", "to", "amount", "section"}
    assert result["readings"] == dict(book("english-booklet").readings)


def test_cli_jsonl_one_result_per_line_and_a_malformed_line_keeps_its_place():
    lines = encoded() + b"\n\n" + b'{"winner": "N"}\n' + encoded(rules={"S-A1": "no_double"}) + b"\n"
    process = run("score", "--jsonl", "--rules", "serralheiro-2003", stdin=lines)
    assert process.returncode == 2
    results = [json.loads(line) for line in process.stdout.splitlines()]
    assert [r["valid"] for r in results] == [True, False, True]
    assert results[1]["errors"][0]["code"] == "malformed_record"
    assert results[2]["readings"]["S-A1"] == "no_double"
    assert b"line 3" in process.stderr and b"Traceback" not in process.stderr


def test_cli_a_hand_that_does_not_go_out_is_read_but_not_valid():
    data = json.loads(encoded())
    data["players"]["N"]["concealed"] = "19m 55s"
    process = run("score", "--rules", "cartas-pt-br", stdin=json.dumps(data).encode())
    assert process.returncode == 0
    result = json.loads(process.stdout)
    assert result["valid"] is False and result["errors"][0]["code"] == "not_a_winning_hand"
    assert result["payments"] == [] and set(result["net"].values()) == {0}


@pytest.mark.parametrize("fields, named", [
    ({"wind": "E"}, b"wind"),
    ({"winning_tile": "8z"}, b"winning_tile"),
    ({"winning_tile": "3m4m"}, b"winning_tile"),
    ({"discarder": None}, b"discarder"),
    ({"winning_from": "self_drawn"}, b"discarder"),
    ({"rules": {"S-A99": "x"}}, b"S-A99"),
    ({"rules": {"S-A1": "maybe"}}, b"S-A1"),
    ({"rules": {"E-A2": "hand_capped"}}, b"E-A2"),
    ({"players": {"N": {"concealed": "12m 55s 1p", "melds": []}}}, b"players.N.concealed"),
    ({"players": {"N": {"concealed": "123m 456p 789s 5m", "flowers": "f5"}}}, b"players.N.flowers"),
    ({"players": {"N": {"concealed": "123m 456p 789s 5m", "melds": [{"kind": "chow", "tiles": "135m"}]}}},
     b"players.N.melds[0].tiles"),
    ({"players": {"S": {"concealed": "123m 456p 789s 678m 5m"}}}, b"players.N"),
])
def test_cli_refuses_a_malformed_book_record(fields, named):
    process = run("score", "--rules", "serralheiro-2003", stdin=encoded(**fields))
    assert_refused(process)
    assert named in process.stderr


def test_cli_reads_first_turn_and_scores_mao_celeste():
    data = {**NORTH_10C, "winning_from": "self_drawn", "first_turn": True}
    del data["discarder"]
    process = run("score", "--rules", "cartas-pt-br", stdin=json.dumps(data).encode())
    assert process.returncode == 0, process.stderr
    north = json.loads(process.stdout)["players"]["N"]
    assert north["limit_hand"]["code"] == "heavenly_hand" and north["limited_score"] == 4000


def test_cli_refuses_first_turn_on_a_discard():
    process = run("score", "--rules", "cartas-pt-br", stdin=encoded(first_turn=True))
    assert_refused(process)
    assert b"first_turn" in process.stderr


def test_cli_refuses_what_is_not_json():
    assert_refused(run("score", "--rules", "english-booklet", stdin=b"{not json"))


def test_cli_unknown_rule_set_names_the_books_too():
    process = run("score", "--rules", "serralheiro-1999", stdin=encoded())
    assert_refused(process)
    assert b"serralheiro-2003 v1" in process.stderr


def test_cli_rules_lists_the_books_after_the_portaria():
    from regulation.rules import RULE_SETS
    lines = run("rules").stdout.decode().splitlines()
    assert lines[len(RULE_SETS):] == [f"{b.code}\t{b.version}\t{b.title}" for b in BOOKS]
    assert [line.split("\t")[0] for line in lines[len(RULE_SETS):]] == [
        "serralheiro-2003", "english-booklet", "cartas-pt-br"]


# --- The record, read by the library ---

def test_a_tile_five_times_across_the_players_is_refused_with_a_message():
    data = json.loads(encoded())
    data["players"]["S"] = {"concealed": "1111s 234p 567p 789m", "melds": []}
    result = score_book(read_book_record(data), book("serralheiro-2003")).to_dict()
    assert result["valid"] is False
    assert result["errors"][0]["code"] == "tile_over_four" and "1s" in result["errors"][0]["message"]


def test_a_flower_held_by_two_players_is_refused():
    data = json.loads(encoded())
    data["players"]["S"] = {"concealed": "123m 234p 567p 789m 9m", "melds": [], "flowers": "f3"}
    result = score_book(read_book_record(data), book("serralheiro-2003")).to_dict()
    assert [e["code"] for e in result["errors"]] == ["flower_twice"]


def test_decode_book_record_reads_bytes_and_text_alike():
    assert decode_book_record(encoded()) == decode_book_record(encoded().decode()) == read_book_record(NORTH_10C)


def test_defaults_banker_east_and_opener_the_banker():
    data = {key: value for key, value in NORTH_10C.items() if key not in ("banker", "opener")}
    record = read_book_record(data)
    assert (record.banker, record.opener, record.round_wind) == ("E", "E", "E")


def test_the_winner_cannot_win_on_his_own_discard():
    with pytest.raises(MalformedRecord, match="own discard"):
        read_book_record({**NORTH_10C, "discarder": "N"})


def test_only_a_kong_is_declared_concealed():
    data = json.loads(encoded())
    data["players"]["N"]["melds"][1]["exposed"] = False
    with pytest.raises(MalformedRecord, match="only a kong"):
        read_book_record(data)


def test_the_record_in_the_serralheiro_page_is_the_book_example_and_scores_528():
    page = (REPO / "docs/rules/serralheiro-2003.md").read_text(encoding="utf-8")
    example = json.loads(page.split("```json", 1)[1].split("```", 1)[0])
    result = score_book(read_book_record(example), book("serralheiro-2003")).to_dict()
    assert result["players"]["N"]["score"] == 528
    assert result["net"] == {"E": -1056, "S": -528, "W": -528, "N": 2112}


# --- East is the banker in all three books: Serralheiro «banqueiro (vento Este)»; the English
# booklet "The Chief (East)"; the Brazilian rules «o jogador de Leste … banqueiro». ---

@pytest.mark.parametrize("banker", ["S", "W", "N"])
def test_a_banker_other_than_east_is_refused_naming_the_field(banker):
    with pytest.raises(MalformedRecord, match="East") as refused:
        read_book_record({**NORTH_10C, "banker": banker})
    assert refused.value.field == "banker"


@pytest.mark.parametrize("code", [b.code for b in BOOKS])
def test_cli_refuses_a_banker_other_than_east_with_exit_2_naming_the_field(code):
    process = run("score", "--rules", code, stdin=encoded(banker="S"))
    assert_refused(process)
    assert process.stderr.decode().startswith("regulation score: banker: ")


def test_cli_refuses_a_winner_whose_four_of_a_kind_is_no_complete_hand_naming_his_concealed_tiles():
    data = {**NORTH_10C, "players": {"N": {"concealed": "1111z 123m 456m 789p", "melds": []}},
            "winning_tile": "9p"}
    process = run("score", "--rules", "cartas-pt-br", stdin=json.dumps(data).encode())
    assert_refused(process)
    assert process.stderr.decode().startswith("regulation score: players.N.concealed: four 1z")
