"""Whether an identity document number is well formed for its type, and a player old enough to
play: what the casino checks before it records a player's identification (DICJ Instruction
n.º 1/2016 asks for a credible one; docs/patrons.md lists the rules).

- Passport: 6 to 9 letters or digits (ICAO Doc 9303's document number), any issuing country.
- Macau resident identity card (澳門居民身份證): 1, 5 or 7, six digits and a check digit in
  brackets, 1234567(8); issued by Macao. (The check digit's algorithm is not published: only its
  place is checked.)
- Hong Kong identity card (香港身份證): one or two letters, six digits and a check digit, 0–9 or A,
  in brackets, A123456(3); issued by Hong Kong. The check digit is verified (`hong_kong_check_digit`).
- Mainland China resident identity card (居民身份證): 18 characters, its birth date and check
  character verified by python-stdnum (`stdnum.cn.ric`); issued by China.
- Mainland travel permit to Hong Kong and Macau (往來港澳通行證): C, a letter or digit, and seven
  digits, C01234567; issued by China.

A number is normalised before it is checked and stored: upper case, without spaces, dashes or
brackets (the brackets of a check digit are put back for the Macau and Hong Kong cards), so that
one document is one number for the unique constraint `one_patron_per_document`.
"""
from __future__ import annotations

import datetime as dt
import re

from django.utils.translation import gettext_noop
from stdnum.cn import ric
from stdnum.exceptions import InvalidChecksum, InvalidComponent, ValidationError

from .countries import is_country
from .errors import Problem, Refused
from .models import Patron

# Law n.º 10/2012 (Condicionamento da entrada, do trabalho e do jogo nos casinos), art. 2: nobody
# under 21 enters a casino's gaming area, let alone plays.
GAMING_AGE = 21

# The country that issues each regional document (a passport may come from any).
ISSUER = {Patron.MACAU_ID: "MO", Patron.HONG_KONG_ID: "HK", Patron.MAINLAND_ID: "CN", Patron.MAINLAND_PERMIT: "CN"}

# What a number of each type looks like, normalised (`normalise`), and the message that says it.
_FORM = {
    Patron.PASSPORT: (re.compile(r"[A-Z0-9]{6,9}"), gettext_noop(
        "A passport number is 6 to 9 letters or digits (ICAO Doc 9303); {number} is not.")),
    Patron.MACAU_ID: (re.compile(r"[157]\d{6}\(\d\)"), gettext_noop(
        "A Macau resident identity card number is 1, 5 or 7, six digits and a check digit in brackets, as "
        "1234567(8); {number} is not.")),
    Patron.HONG_KONG_ID: (re.compile(r"[A-Z]{1,2}\d{6}\([0-9A]\)"), gettext_noop(
        "A Hong Kong identity card number is one or two letters, six digits and a check digit (0–9 or A) in "
        "brackets, as A123456(3); {number} is not.")),
    Patron.MAINLAND_ID: (re.compile(r"\d{17}[\dX]"), gettext_noop(
        "A mainland China resident identity card number is 17 digits and a check character (a digit or X); "
        "{number} is not.")),
    Patron.MAINLAND_PERMIT: (re.compile(r"C[A-Z0-9]\d{7}"), gettext_noop(
        "A mainland travel permit to Hong Kong and Macau number is C, a letter or digit and seven digits, as "
        "C01234567; {number} is not.")),
}
_ISSUED_BY = {
    Patron.MACAU_ID: gettext_noop("A Macau resident identity card is issued by Macao (MO)."),
    Patron.HONG_KONG_ID: gettext_noop("A Hong Kong identity card is issued by Hong Kong (HK)."),
    Patron.MAINLAND_ID: gettext_noop("A mainland China resident identity card is issued by China (CN)."),
    Patron.MAINLAND_PERMIT: gettext_noop("A mainland travel permit to Hong Kong and Macau is issued by China (CN)."),
}
UNKNOWN_TYPE = gettext_noop(
    "The casino accepts a passport, a Macau, Hong Kong or mainland China resident identity card, or a mainland "
    "travel permit to Hong Kong and Macau as an identity document.")
NO_TYPE = gettext_noop("Choose the type of the identity document.")
NO_NUMBER = gettext_noop("Give the identity document's number.")
NO_COUNTRY = gettext_noop("Choose the country that issued the identity document.")
NOT_A_COUNTRY = gettext_noop("{country} is not a country: choose one from the list.")
HK_CHECK_DIGIT = gettext_noop(
    "The check digit of Hong Kong identity card {number} does not match its letters and digits (it would be "
    "{expected}): the number is mistyped.")
MAINLAND_CHECK = gettext_noop(
    "The check character of mainland China resident identity card {number} does not match its digits: the number "
    "is mistyped.")
MAINLAND_BIRTH = gettext_noop(
    "Mainland China resident identity card {number} does not hold a valid place and date of birth: the number is "
    "mistyped.")
BORN_IN_FUTURE = gettext_noop("A date of birth cannot be in the future.")
UNDER_AGE = gettext_noop(
    "Law n.º 10/2012: nobody under 21 may enter a casino's gaming area, and a player born on {born} is {age}.")


def normalise(document_type: str, number: str) -> str:
    """Upper case, without spaces, dashes or brackets; a Macau or Hong Kong card's check digit
    back in its brackets: "a 123 456 3" → "A123456(3)"."""
    bare = re.sub(r"[\s\-()（）]", "", number or "").upper()
    if document_type in (Patron.MACAU_ID, Patron.HONG_KONG_ID) and len(bare) > 1:
        return f"{bare[:-1]}({bare[-1]})"
    return bare


def hong_kong_check_digit(letters_and_digits: str) -> str:
    """The check digit of a Hong Kong identity card (its letters and six digits, without the
    check digit): weights 9 to 2 from the left, a letter worth 10 (A) to 35 (Z), a single-letter
    card led by a space worth 36; the check digit makes the sum a multiple of 11, 10 written A.
    "A123456": 36×9 + 10×8 + 1×7 + 2×6 + 3×5 + 4×4 + 5×3 + 6×2 = 481 = 11×43 + 8, so 3."""
    padded = letters_and_digits.rjust(8)
    values = [36 if char == " " else int(char, 36) for char in padded]
    remainder = sum(value * weight for value, weight in zip(values, range(9, 1, -1), strict=True)) % 11
    check = (11 - remainder) % 11
    return "A" if check == 10 else str(check)


def _problem(field: str, code: str, template: str, **params: object) -> Problem:
    return Problem.of(code, None, template, field, **params)


def document_problems(document_type: str, number: str, country: str) -> tuple[str, list[Problem]]:
    """The normalised number and what is wrong with the document, one problem per bad field
    (`document_type`, `document_number`, `document_country`); no problem for no document at all."""
    number = normalise(document_type, number)
    country = (country or "").strip().upper()
    if not (document_type or number or country):
        return "", []
    if not document_type:
        return number, [_problem("document_type", "document_type_missing", NO_TYPE)]
    if document_type not in _FORM:
        return number, [_problem("document_type", "document_type_unknown", UNKNOWN_TYPE)]
    problems = []
    if not number:
        problems.append(_problem("document_number", "document_number_missing", NO_NUMBER))
    else:
        form, template = _FORM[document_type]
        if not form.fullmatch(number):
            problems.append(_problem("document_number", "document_number_malformed", template, number=number))
        elif document_type == Patron.HONG_KONG_ID:
            expected = hong_kong_check_digit(number[:-3])
            if number[-2] != expected:
                problems.append(_problem("document_number", "document_check_digit", HK_CHECK_DIGIT, number=number,
                                         expected=expected))
        elif document_type == Patron.MAINLAND_ID:
            try:
                ric.validate(number)
            except InvalidChecksum:
                problems.append(_problem("document_number", "document_check_digit", MAINLAND_CHECK, number=number))
            except InvalidComponent:
                problems.append(_problem("document_number", "document_number_malformed", MAINLAND_BIRTH,
                                         number=number))
            except ValidationError:
                problems.append(_problem("document_number", "document_number_malformed", template, number=number))
    if not country:
        problems.append(_problem("document_country", "document_country_missing", NO_COUNTRY))
    elif not is_country(country):
        problems.append(_problem("document_country", "not_a_country", NOT_A_COUNTRY, country=country))
    elif document_type in ISSUER and country != ISSUER[document_type]:
        problems.append(_problem("document_country", "document_country_wrong", _ISSUED_BY[document_type]))
    return number, problems


def check_document(document_type: str, number: str, country: str) -> str:
    """The document's number normalised, or `Refused` with one problem per bad field."""
    number, problems = document_problems(document_type, number, country)
    if problems:
        raise Refused(*problems)
    return number


def age_on(born: dt.date, day: dt.date) -> int:
    """Whole years from `born` to `day` (a 29 February birthday comes on 1 March)."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def date_of_birth_problems(born: dt.date | None, today: dt.date) -> list[Problem]:
    """Not in the future, and the player at least 21 (Law n.º 10/2012); none for no date."""
    if born is None:
        return []
    if born > today:
        return [_problem("date_of_birth", "born_in_future", BORN_IN_FUTURE)]
    if age_on(born, today) < GAMING_AGE:
        return [_problem("date_of_birth", "under_gaming_age", UNDER_AGE, born=born.isoformat(),
                         age=age_on(born, today))]
    return []


def nationality_problems(code: str) -> list[Problem]:
    """A nationality is a country's code (ISO 3166-1 alpha-2); none for no nationality."""
    if code and not is_country(code):
        return [_problem("nationality", "not_a_country", NOT_A_COUNTRY, country=code)]
    return []
