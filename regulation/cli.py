"""The scorer's command line (docs/record-format.md):

    python -m regulation score [FILE]        # one record; FILE or standard input
    python -m regulation score --jsonl FILE  # one record per line, one result per line
    python -m regulation score --rules portaria-135-91-M-zh [--rules-version 1] FILE
    python -m regulation score --rules serralheiro-2003 FILE   # a book record (regulation.books)
    python -m regulation rules               # the rule sets: code, version, title

Without --rules a record is scored under the default rule set (regulation.rules.DEFAULT). A
classical rule book's code (serralheiro-2003, english-booklet, cartas-pt-br) reads book records
instead, and gives the book's result (regulation.books).

Exit status 0 when the input was read (valid or not), 2 for malformed input; a malformed
input gets a message on standard error, never a traceback.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any, BinaryIO, Iterable, TextIO

import msgspec

from . import books
from .errors import MalformedRecord, gettext_noop
from .jogo import score
from .record import decode_record
from .rules import DEFAULT, RuleSet, UnknownRuleSet, rule_set

MAX_RECORD_BYTES = 64 * 1024  # a record is well under 2 KiB; anything this large is not one
MALFORMED = 2


def score_bytes(raw: bytes, rules: RuleSet | books.BookRuleSet = DEFAULT) -> bytes:
    """The docs/record-format.md output (JSON) for one encoded record, or a book's result for a book
    record under a book's rule set; `MalformedRecord` if it cannot be read."""
    if len(raw) > MAX_RECORD_BYTES:
        raise MalformedRecord("", gettext_noop("the record is {size} bytes; a jogo record is at most {most}"),
                              size=len(raw), most=MAX_RECORD_BYTES)
    if isinstance(rules, books.BookRuleSet):
        return books.score_book(books.decode_book_record(raw), rules).to_json()
    return score(decode_record(raw), rules).to_json()


def resolve(code: str, version: int | None = None) -> RuleSet | books.BookRuleSet:
    """The rule set `code`: the Portaria's first, then the books'; `UnknownRuleSet` naming both."""
    try:
        return rule_set(code, version)
    except UnknownRuleSet as error:
        try:
            return books.book(code, version)
        except UnknownRuleSet:
            known = ", ".join(b.label for b in books.BOOKS)
            error.message = f"{error.message}; the rule books are {known}"
            error.args = (error.message,)
            raise error from None


def malformed_result(message: str, rules: RuleSet | books.BookRuleSet = DEFAULT) -> dict[str, Any]:
    """The result line standing for a line that could not be read (--jsonl keeps one line each)."""
    if isinstance(rules, books.BookRuleSet):
        return {"rules": {"code": rules.code, "version": rules.version}, "valid": False,
                "errors": [{"code": "malformed_record", "section": None, "message": message}],
                "players": {}, "payments": [], "net": {}, "readings": dict(rules.readings)}
    return {"valid": False, "errors": [{"code": "malformed_record", "article": None, "message": message}],
            "fan": None, "items": [], "declared_fan": None, "fan_mismatch": False, "payments": [],
            "commission": 0, "net": {}, "next": {"banker_moves": False}}


def score_lines(lines: Iterable[bytes], out: BinaryIO, err: TextIO,
                rules: RuleSet | books.BookRuleSet = DEFAULT) -> int:
    """Score one record per line; blank lines are skipped. Returns the exit status."""
    status = 0
    encode = msgspec.json.Encoder().encode
    write = out.write
    for number, line in enumerate(lines, start=1):
        if not line or line.isspace():  # blank (no copy of the line, as strip() would make)
            continue
        try:
            write(score_bytes(line, rules))
        except MalformedRecord as error:
            message = f"line {number}: {error}"
            print(f"regulation score: {message}", file=err)
            write(encode(malformed_result(message, rules)))
            status = MALFORMED
        write(b"\n")
    return status


def _open(name: str) -> BinaryIO:
    return sys.stdin.buffer if name == "-" else open(name, "rb")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m regulation",
                                     description="Score Mah-Jong jogos against Portaria n.º 135/91/M, "
                                                 "or hands by a classical rule book.")
    commands = parser.add_subparsers(dest="command", required=True)
    scorer = commands.add_parser("score", help="score portable jogo records (JOGO-FORMAT.md)")
    scorer.add_argument("file", nargs="?", default="-", help="a record file, or - for standard input")
    scorer.add_argument("--jsonl", action="store_true", help="one record per line, one result per line")
    scorer.add_argument("--rules", metavar="NAME", help="the rule set to score under (python -m regulation rules "
                                                        f"lists them); {DEFAULT.code} when omitted")
    scorer.add_argument("--rules-version", metavar="N", type=int,
                        help="the version of that rule set; its latest when omitted")
    commands.add_parser("rules", help="list the rule sets: code, version, title")
    args = parser.parse_args(argv)
    if args.command == "rules":
        return list_rule_sets(sys.stdout)
    if args.rules_version is not None and args.rules is None:
        parser.error("--rules-version needs --rules")
    rules: RuleSet | books.BookRuleSet = DEFAULT
    if args.rules is not None:
        try:
            rules = resolve(args.rules, args.rules_version)
        except UnknownRuleSet as error:
            print(f"regulation score: {error}", file=sys.stderr)
            return MALFORMED
    try:
        source = _open(args.file)
    except OSError as error:
        print(f"regulation score: {args.file}: {error.strerror}", file=sys.stderr)
        return MALFORMED
    try:
        with source:
            if args.jsonl:
                return score_lines(source, sys.stdout.buffer, sys.stderr, rules)
            raw = source.read(MAX_RECORD_BYTES + 1)
            try:
                result = score_bytes(raw, rules)
            except MalformedRecord as error:
                print(f"regulation score: {error}", file=sys.stderr)
                return MALFORMED
            sys.stdout.buffer.write(msgspec.json.format(result, indent=2) + b"\n")
            return 0
    except BrokenPipeError:
        return 0


def list_rule_sets(out: TextIO) -> int:
    """One line per rule set and version: code, version, title, tab-separated; the Portaria's,
    then the classical rule books'."""
    from . import rules as rules_module  # as it is now (a test may have registered one)
    listed: list[RuleSet | books.BookRuleSet] = [*rules_module.RULE_SETS, *books.BOOKS]
    for each in listed:
        print(f"{each.code}\t{each.version}\t{each.title}", file=out)
    return 0
