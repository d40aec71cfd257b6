"""Checking the ledger: the hash chain of every table, and every jogo's settlement re-computed
by the engine. Used by `manage.py verify_ledger`."""
from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass

from regulation import MalformedRecord, read_record, score

from .chain import GENESIS, row_hash
from .service import capital, current_jogos
from .models import Jogo, Movement, Table


@dataclass(frozen=True)
class Break:
    table: Table
    row: str  # "jogo 12 (ledger seq 40)"
    problem: str

    def __str__(self) -> str:
        return f"table {self.table.number} ({self.table.casino}), {self.row}: {self.problem}"


def _rows(table: Table) -> Iterator:
    """The table's ledger rows in chain order (jogos and movements merged by seq)."""
    jogos = Jogo.objects.filter(table=table).order_by("seq").iterator(chunk_size=2000)
    movements = Movement.objects.filter(table=table).order_by("seq").iterator(chunk_size=2000)
    return heapq.merge(jogos, movements, key=lambda row: row.seq)


def _name(row) -> str:
    if isinstance(row, Jogo):
        revision = f" revision {row.revision}" if row.revision else ""
        return f"jogo {row.number}{revision} (ledger seq {row.seq}, id {row.pk})"
    return f"movement (ledger seq {row.seq}, id {row.pk})"


def _settlement_problem(row: Jogo) -> str | None:
    try:
        result = score(read_record(row.record))
    except MalformedRecord as error:
        return f"its record cannot be read: {error}"
    if not result.valid:
        return "its record breaks the regulation: " + "; ".join(b.message for b in result.breaches)
    expected = result.as_dict()
    if expected != row.outcome:
        return "the stored settlement differs from the engine's"
    figures = {"fan": result.fan, "commission": result.settlement.commission,
               "fan_mismatch": result.fan_mismatch, "capped": result.settlement.capped}
    for name, value in figures.items():
        if getattr(row, name) != value:
            return f"{name} is {getattr(row, name)!r}; the engine gives {value!r}"
    after = list(row.capital_before)
    for seat, change in expected["net"].items():
        after[row.progress.chair_of(seat)] += change
    if after != row.capital_after:
        return f"capital after is {row.capital_after}; the settlement gives {after}"
    return None


def breaks(tables=None) -> Iterator[Break]:
    """Every break found, table by table; the first of a table stops that table's check."""
    for table in (tables if tables is not None else Table.objects.select_related("casino").order_by("pk")):
        found = next(iter(_check_table(table)), None) or next(iter(_check_games(table)), None)
        if found:
            yield found


def _check_games(table: Table) -> Iterator[Break]:
    """Money carries from row to row: each jogo as it stands starts with the capital the one
    before it left plus the movements between, and its record says so (Art. 9(a)(4))."""
    for game in table.games.order_by("started_at").prefetch_related("players"):
        for row in current_jogos(game):
            expected = capital(game, row.position - 1)
            if row.capital_before != expected:
                yield Break(table, _name(row), f"capital before is {row.capital_before}; the movements and the "
                                               f"jogos before it give {expected}")
                return
            seats = row.progress.seats
            if row.record.get("capital") != {seat: expected[chair] for seat, chair in seats.items()} \
                    or row.record.get("round_wind") != row.round_wind or row.record.get("result") != row.result:
                yield Break(table, _name(row), "the record's capital, round wind or result differ from the row's")
                return


def _check_table(table: Table) -> Iterator[Break]:
    previous, expected_seq = GENESIS, 1
    for row in _rows(table):
        name = _name(row)
        if row.seq != expected_seq:
            yield Break(table, name, f"ledger seq {expected_seq} is missing (found {row.seq})")
            return
        if row.prev_hash != previous:
            yield Break(table, name, "prev_hash does not match the hash of the row before it")
            return
        if row_hash(row) != row.hash:
            yield Break(table, name, "the row's content does not match its hash: it was changed after recording")
            return
        if isinstance(row, Jogo):
            problem = _settlement_problem(row)
            if problem:
                yield Break(table, name, problem)
                return
        previous, expected_seq = row.hash, expected_seq + 1
    if (table.ledger_seq, table.ledger_head or GENESIS) != (expected_seq - 1, previous):
        yield Break(table, f"ledger head (seq {table.ledger_seq})",
                    f"the table's head does not match its last row (seq {expected_seq - 1}): rows were removed or added")
