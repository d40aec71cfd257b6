"""The labels every page builds from `casino.terms.vocabulary`, each made in one place: a seat and
who sat there ("West · Ana"), a stake tier ("50/100"), a column of the ledger in people's words,
and a kind of exception of the day."""
from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from casino.audit.exceptions import KINDS
from casino.terms.vocabulary import exception_kind_name, ledger_column_name, seat_label, seat_player, tier_label

# A game whose banker sits in chair 1 (Art. 3: the banker is East, the others follow in turn).
NAMES = {0: "Ana", 1: "Bruno", 2: "Carla", 3: "Duarte"}


@pytest.mark.parametrize("language, west, banker", [
    ("en", "West · Ana", "East (banker)"),
    ("pt", "Oeste · Ana", "Este (banqueiro)"),
    ("zh-hant", "西位 · Ana", "東位（莊家）"),
])
def test_art_3_a_seat_is_its_wind_then_who_sat_there_and_the_banker_says_so(language, west, banker):
    with translation.override(language):
        assert seat_label("W", "Ana") == west
        assert seat_label("E", banker=True) == banker
        assert seat_label("E", "Bruno", banker=True) == f"{banker} · Bruno"


def test_a_seat_without_a_players_name_is_its_wind_alone_and_no_seat_is_nothing():
    assert seat_label("W") == seat_label("W", "") == "West"
    assert seat_label(None) == seat_label("") == ""
    assert seat_player("S", banker_chair=1, names={}) == "South"
    assert seat_player(None, banker_chair=1, names=NAMES) == ""  # a draw has no winner


def test_art_3_the_player_in_a_seat_counts_from_the_bankers_chair():
    seats = [seat_player(seat, banker_chair=1, names=NAMES) for seat in "ESWN"]

    assert seats == ["East · Bruno", "South · Carla", "West · Duarte", "North · Ana"]


def test_art_8_a_tier_is_the_stake_and_its_double_and_no_stake_is_nothing():
    assert tier_label(50) == "50/100"
    assert tier_label(0) == tier_label(None) == ""
    assert Template("{% load pit %}{{ stake|tier_label }}").render(Context({"stake": 25})) == "25/50"


@pytest.mark.parametrize("language, column, part", [
    ("en", "capital after, chairs 1–4", "the engine's stored output (payments)"),
    ("pt", "capital depois, cadeiras 1–4", "o resultado do motor guardado (payments)"),
    ("zh-hant", "之後本錢，座位 1–4", "已保存的引擎結果（payments）"),
])
def test_a_ledger_column_and_a_part_of_the_stored_output_in_peoples_words(language, column, part):
    with translation.override(language):
        assert ledger_column_name("capital_after") == column
        assert ledger_column_name("outcome.payments") == part  # the part keeps its name in the record


def test_a_column_the_vocabulary_does_not_know_keeps_its_name():
    assert ledger_column_name("hash") == "hash"


@pytest.mark.parametrize("language, capped", [("pt", "Limitado ao capital"), ("zh-hant", "以本錢為限")])
def test_every_kind_of_exception_has_one_name_and_it_is_translated(language, capped):
    with translation.override("en"):
        english = {code: exception_kind_name(code) for code in KINDS}
    with translation.override(language):
        names = {code: exception_kind_name(code) for code in KINDS}

    assert english["capped"] == "Capped win" and names["capped"] == capped
    assert len(set(names.values())) == len(KINDS)
    assert [code for code in KINDS if names[code] == english[code]] == []
