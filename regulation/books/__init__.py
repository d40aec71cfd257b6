"""The classical rule books in the project's seeds, as rule sets of the scorer: Serralheiro's
*Mah-Jong, Regras Básicas* (2003), the English rules booklet, and the Brazilian rules for Mah
Jong with 144 cards. Pure Python, no Django.

    >>> from regulation.books import book, decode_book_record, score_book
    >>> score_book(decode_book_record(raw), book("serralheiro-2003")).to_dict()

Casino tables stay under the Portaria (regulation.rules.RULE_SETS): a book is a rule set of the
scorer and the calculator only.
"""
from __future__ import annotations

from ..rules import UnknownRuleSet
from . import cartas, english, serralheiro
from .base import BookRuleSet
from .labels import LABELS
from .readings import BOOK_READINGS, BookReading
from .record import BookRecord, decode_book_record, read_book_record
from .score import BookResult, score_book

BOOKS: tuple[BookRuleSet, ...] = (serralheiro.RULES, english.RULES, cartas.RULES)


def book(code: str, version: int | None = None) -> BookRuleSet:
    """The book rule set `code` (at `version`, its latest when None), or `UnknownRuleSet`."""
    found = [b for b in BOOKS if b.code == code and version in (None, b.version)]
    if not found:
        raise UnknownRuleSet(code, version)
    return max(found, key=lambda b: b.version)


__all__ = [
    "BOOKS",
    "BOOK_READINGS",
    "LABELS",
    "BookReading",
    "BookRecord",
    "BookResult",
    "BookRuleSet",
    "book",
    "decode_book_record",
    "read_book_record",
    "score_book",
]
