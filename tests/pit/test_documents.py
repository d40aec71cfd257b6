"""An identity document malformed for its type, and a player too young to play (issue 25's bad
input; casino/pit/documents.py)."""
import datetime as dt

import pytest

from casino.pit.documents import (
    age_on,
    check_document,
    date_of_birth_problems,
    document_problems,
    hong_kong_check_digit,
    nationality_problems,
)
from casino.pit.errors import Refused

TODAY = dt.date(2026, 11, 21)


def fields(problems):
    return [(problem.field, problem.code) for problem in problems]


def test_hong_kong_check_digit_worked_by_hand():
    # A123456: a space worth 36 before the single letter; weights 9..2.
    # 36×9 + 10×8 + 1×7 + 2×6 + 3×5 + 4×4 + 5×3 + 6×2 = 324+80+7+12+15+16+15+12 = 481 = 11×43 + 8 → 11 − 8 = 3.
    assert hong_kong_check_digit("A123456") == "3"
    # AB987654: A=10, B=11. 10×9 + 11×8 + 9×7 + 8×6 + 7×5 + 6×4 + 5×3 + 4×2 = 90+88+63+48+35+24+15+8 = 371
    # = 11×33 + 8 → 3.
    assert hong_kong_check_digit("AB987654") == "3"
    # G123457: 36×9 + 16×8 + 1×7 + 2×6 + 3×5 + 4×4 + 5×3 + 7×2 = 324+128+7+12+15+16+15+14 = 531 = 11×48 + 3
    # → 8.
    assert hong_kong_check_digit("G123457") == "8"
    # Z683365: 324 + 35×8 + 6×7 + 8×6 + 3×5 + 3×4 + 6×3 + 5×2 = 324+280+42+48+15+12+18+10 = 749 = 11×68 + 1
    # → 10, written A.
    assert hong_kong_check_digit("Z683365") == "A"


@pytest.mark.parametrize(("kind", "typed", "country", "stored"), [
    ("hong_kong_id", "a123456(3)", "HK", "A123456(3)"),
    ("hong_kong_id", "A 123456 3", "hk", "A123456(3)"),
    ("hong_kong_id", "AB987654(3)", "HK", "AB987654(3)"),
    ("hong_kong_id", "Z683365(A)", "HK", "Z683365(A)"),
    ("macau_id", "1234567(8)", "MO", "1234567(8)"),
    ("macau_id", "5 123456 1", "MO", "5123456(1)"),
    ("passport", "k1234567", "PT", "K1234567"),
    ("passport", "E123456", "CN", "E123456"),
    ("mainland_id", "11010519491231002x", "CN", "11010519491231002X"),
    ("mainland_permit", "c01234567", "CN", "C01234567"),
    ("mainland_permit", "CA1234567", "CN", "CA1234567"),
])
def test_a_well_formed_document_is_normalised(kind, typed, country, stored):
    assert check_document(kind, typed, country) == stored


@pytest.mark.parametrize(("kind", "typed", "country", "code"), [
    ("hong_kong_id", "A123456(4)", "HK", "document_check_digit"),
    ("hong_kong_id", "A12345(3)", "HK", "document_number_malformed"),
    ("hong_kong_id", "ABC123456(3)", "HK", "document_number_malformed"),
    ("macau_id", "2234567(8)", "MO", "document_number_malformed"),
    ("macau_id", "123456(8)", "MO", "document_number_malformed"),
    ("passport", "K123", "PT", "document_number_malformed"),
    ("passport", "K12345678901", "PT", "document_number_malformed"),
    ("passport", "K12#4567", "PT", "document_number_malformed"),
    ("mainland_id", "110105194912310021", "CN", "document_check_digit"),
    ("mainland_id", "110105194913310021", "CN", "document_number_malformed"),  # born in month 13
    ("mainland_id", "1101051949123100", "CN", "document_number_malformed"),
    ("mainland_permit", "D01234567", "CN", "document_number_malformed"),
    ("mainland_permit", "C0123456", "CN", "document_number_malformed"),
])
def test_a_malformed_number_is_refused_naming_the_field(kind, typed, country, code):
    with pytest.raises(Refused) as refused:
        check_document(kind, typed, country)
    assert fields(refused.value.problems) == [("document_number", code)]


def test_the_message_names_the_type_and_the_expected_form():
    _number, problems = document_problems("hong_kong_id", "A12345(3)", "HK")
    assert "Hong Kong identity card" in problems[0].message and "A123456(3)" in problems[0].message
    _number, problems = document_problems("hong_kong_id", "A123456(4)", "HK")
    assert "check digit" in problems[0].message and "(it would be 3)" in problems[0].message


@pytest.mark.parametrize(("kind", "typed", "country"), [
    ("macau_id", "1234567(8)", "HK"), ("hong_kong_id", "A123456(3)", "MO"), ("mainland_id", "11010519491231002X", "HK"),
    ("mainland_permit", "C01234567", "MO"),
])
def test_a_regional_document_comes_from_its_region(kind, typed, country):
    _number, problems = document_problems(kind, typed, country)
    assert fields(problems) == [("document_country", "document_country_wrong")]


def test_one_problem_per_bad_field():
    _number, problems = document_problems("passport", "K1", "XX")
    assert fields(problems) == [("document_number", "document_number_malformed"),
                                ("document_country", "not_a_country")]
    assert fields(document_problems("", "K1234567", "PT")[1]) == [("document_type", "document_type_missing")]
    assert fields(document_problems("driving_licence", "K1234567", "PT")[1]) == [
        ("document_type", "document_type_unknown")]
    assert fields(document_problems("passport", "", "")[1]) == [
        ("document_number", "document_number_missing"), ("document_country", "document_country_missing")]


def test_no_document_at_all_is_no_problem():
    assert document_problems("", "", "") == ("", [])


def test_law_10_2012_nobody_under_21_plays():
    assert date_of_birth_problems(dt.date(2005, 11, 21), TODAY) == []  # 21 today
    [problem] = date_of_birth_problems(dt.date(2005, 11, 22), TODAY)  # 21 tomorrow
    assert (problem.field, problem.code) == ("date_of_birth", "under_gaming_age")
    assert problem.message.startswith("Law n.º 10/2012") and "is 20" in problem.message
    assert fields(date_of_birth_problems(dt.date(2026, 11, 22), TODAY)) == [("date_of_birth", "born_in_future")]
    assert date_of_birth_problems(None, TODAY) == []


def test_a_29_february_birthday_comes_on_1_march():
    assert age_on(dt.date(2004, 2, 29), dt.date(2025, 2, 28)) == 20
    assert age_on(dt.date(2004, 2, 29), dt.date(2025, 3, 1)) == 21


def test_a_nationality_is_a_country():
    assert nationality_problems("MO") == []
    assert nationality_problems("") == []
    assert fields(nationality_problems("ZZ")) == [("nationality", "not_a_country")]
