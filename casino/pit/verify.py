"""Checking the ledger: the hash chain of every table, every jogo re-scored by the engine, and
every game's money carried from row to row. Used by `manage.py verify_ledger`.

The ledger is read as a stream: each table's rows (jogos and movements merged by `seq`) come
from two chunked cursors, each row is checked as it arrives, and what the game check needs is
kept per game, so the check makes a fixed number of queries per table whatever its size.
Tables are independent, so on PostgreSQL they are shared among worker processes, or, with
`verify_ledger --distributed`, among Celery workers (casino/audit/tasks.py): a table's check then
travels as plain JSON (`TableCheck.as_dict`).
"""
from __future__ import annotations

import datetime as dt
import functools
import gc
import heapq
import multiprocessing
import operator
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import msgspec
from django.db import connection, connections, transaction

from casino.chain import DATES, GENESIS, chained_hash, plain
from regulation.rotation import ROUND_WINDS, Progress

from .chain import CONTENT, canonical
from .models import Game, Jogo, Movement, Player, Table
from .recheck import COLUMNS, Stored, compare
from .selectors import with_movements

FETCH = 2000  # rows per round trip of each cursor

@dataclass(frozen=True)
class Checked:
    """What a check of other records found: the first break of each broken chain, in words, and
    what it checked ("12 count box(es), ...") for verify_ledger's summary."""

    found: list[str]
    summary: str


# Records other apps keep like the ledger (the count's boxes, cases and rotation log) are
# checked too: an app registers its check here from its AppConfig.ready, so that the pit imports
# none of them.
OTHER_CHECKS: list[Callable[[], Checked]] = []

# Each row is read as these values: its id and links, then its content in the chain's order.
HEAD = ("id", "prev_hash", "hash")
FIELDS = {model: HEAD + CONTENT[model] for model in (Jogo, Movement)}
_AT = {model: {name: index for index, name in enumerate(fields)} for model, fields in FIELDS.items()}
_SEQ = _AT[Jogo]["seq"]
assert _SEQ == _AT[Movement]["seq"] and _AT[Jogo]["game_id"] == _AT[Movement]["game_id"]
_RECORD = _AT[Jogo]["record"]
# A jogo's `Stored` values, the record as text (appended after the content by _rows): the
# engine reads it fastest so.
_stored = operator.itemgetter(*(-1 if name == "record" else _AT[Jogo][name] for name in COLUMNS))
_CONTENT = {model: slice(len(HEAD), len(fields)) for model, fields in FIELDS.items()}
_GAME, _POSITION, _REVISION = (_AT[Jogo][name] for name in ("game_id", "position", "revision"))
_decode = msgspec.json.decode


@dataclass(frozen=True)
class Break:
    table: Table
    row: str  # "jogo 12 (ledger seq 40, id 7)"
    problem: str

    def __str__(self) -> str:
        return f"table {self.table.number} ({self.table.casino}), {self.row}: {self.problem}"


@dataclass
class TableCheck:
    """What one table's check found: rows read and the first break, as (row, problem)."""
    table_id: int
    rows: int = 0
    found: tuple[str, str] | None = None

    def as_dict(self) -> dict:
        return {"table_id": self.table_id, "rows": self.rows, "found": list(self.found) if self.found else None}

    @classmethod
    def from_dict(cls, data: dict) -> TableCheck:
        return cls(data["table_id"], data["rows"], tuple(data["found"]) if data["found"] else None)


@dataclass
class _GameRows:
    """What the money check needs of one game, gathered while the chain is read."""
    jogos: dict[int, tuple] = field(default_factory=dict)  # position -> its highest revision's values
    movements: dict[int, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))


_JSON = {Jogo: ("record", "outcome", "capital_before", "capital_after"), Movement: ()}
_BOOL = {Jogo: ("fan_mismatch", "capped", "pay_all"), Movement: ()}


def _rows(model, table_id: int) -> Iterator[tuple]:
    """The table's rows of `model` in seq order, as FIELDS' values: read with a chunked cursor in
    plain SQL, JSON columns decoded by msgspec (the record also kept as text, for the engine's
    fast reader), booleans as booleans on SQLite too."""
    json_at = [_AT[model][name] for name in _JSON[model]]
    postgresql = connection.vendor == "postgresql"
    bool_at = () if postgresql else [_AT[model][name] for name in _BOOL[model]]
    # PostgreSQL's own text of the times (in UTC, ISO style: check_table sets both), made into
    # the chain's text in place of a datetime parsed only to be written out again.
    text_at = (_AT[model]["recorded_at"],) if postgresql else ()
    columns = [f"{name}::text" if postgresql and name in DATES else name for name in FIELDS[model]]
    sql = f"SELECT {', '.join(columns)} FROM {model._meta.db_table} WHERE table_id = %s ORDER BY seq"
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, [table_id])
        while rows := cursor.fetchmany(FETCH):
            for row in rows:
                values = list(row)
                for index in json_at:
                    values[index] = _decode(values[index])
                for index in bool_at:
                    values[index] = bool(values[index])
                for index in text_at:
                    values[index] = _utc_text(values[index])
                if model is Jogo:
                    values.append(row[_RECORD])  # the record's text, after the content
                yield model, values


def _utc_text(text: str) -> str:
    """A time as PostgreSQL writes it in UTC ("2026-11-21 04:00:00.5+00") as the chain writes it
    (datetime.isoformat: "2026-11-21T04:00:00.500000+00:00")."""
    if not text.endswith("+00"):
        return plain(dt.datetime.fromisoformat(text))
    stamp = text[:-3].replace(" ", "T", 1)
    whole, point, fraction = stamp.partition(".")
    return f"{whole}.{fraction:0<6}+00:00" if point else stamp + "+00:00"


def _name(model, values: tuple) -> str:
    at = _AT[model]
    if model is Jogo:
        revision = values[at["revision"]]
        revision = f" revision {revision}" if revision else ""
        return f"jogo {values[at['number']]}{revision} (ledger seq {values[_SEQ]}, id {values[0]})"
    return f"movement (ledger seq {values[_SEQ]}, id {values[0]})"


def check_table(table_id: int) -> TableCheck:
    """Check one table: its chain row by row (seq without gaps, each link, each hash, each jogo
    re-scored), its head against its last row, then each game's money. Stops at the first break.

    One transaction, which on PostgreSQL sees one snapshot (REPEATABLE READ), so that a jogo
    recorded meanwhile is either wholly in the check or wholly out of it."""
    with transaction.atomic():
        if connection.vendor == "postgresql" and not connection.savepoint_ids:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # how _rows reads the times as text
                cursor.execute("SET LOCAL TIME ZONE 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'")
        return _check_table(table_id)


def _check_table(table_id: int) -> TableCheck:
    check = TableCheck(table_id)
    games: dict[int, _GameRows] = defaultdict(_GameRows)
    previous, expected_seq = GENESIS, 1
    collecting = gc.isenabled()
    # The rows and what is kept of them hold no reference cycles: the collector's passes over the
    # games gathered cost about 7% of the check's CPU time (200,000 jogos on PostgreSQL).
    gc.disable()
    try:
        for model, values in heapq.merge(_rows(Jogo, table_id), _rows(Movement, table_id),
                                         key=lambda pair: pair[1][_SEQ]):
            check.rows += 1
            problem = _row_problem(model, values, expected_seq, previous)
            if problem:
                check.found = (_name(model, values), problem)
                return check
            _gather(games, model, values)
            previous, expected_seq = values[2], expected_seq + 1
    finally:
        if collecting:
            gc.enable()
    table = Table.objects.filter(pk=table_id).values_list("ledger_seq", "ledger_head", *PROJECTION).get()
    if (table[0], table[1] or GENESIS) != (expected_seq - 1, previous):
        check.found = (f"ledger head (seq {table[0]})", f"the table's head does not match its last row "
                                                         f"(seq {expected_seq - 1}): rows were removed or added")
        return check
    check.found = _money_problem(table_id, games, dict(zip(PROJECTION, table[2:])))
    return check


def _row_problem(model, values: tuple, expected_seq: int, previous: str) -> str | None:
    if values[_SEQ] != expected_seq:
        return f"ledger seq {expected_seq} is missing (found {values[_SEQ]})"
    if values[1] != previous:
        return "prev_hash does not match the hash of the row before it"
    if chained_hash(values[1], canonical(model, values[_CONTENT[model]])) != values[2]:
        return "the row's content does not match its hash: it was changed after recording"
    if model is Jogo:
        result, found = compare(Stored(*_stored(values)))
        if found:
            name, recorded, recomputed = found[0]
            if name == "record":
                return f"its record cannot be read: {recomputed}"
            if name == "rule_set":
                return f"it was scored under the rule set {recorded}, which the engine does not know"
            if result is not None and not result.valid:
                return "its record breaks the regulation: " + "; ".join(b.message for b in result.breaches)
            return f"{name} is {recorded!r}; the engine gives {recomputed!r}"
    return None


def _gather(games: dict[int, _GameRows], model, values: tuple) -> None:
    game = games[values[_GAME]]
    if model is Movement:
        at = _AT[model]
        amount = values[at["amount"]] if values[at["kind"]] == Movement.BUY_IN else -values[at["amount"]]
        game.movements[values[at["after_jogos"]]].append((values[at["chair"]], amount))
        return
    position = values[_POSITION]
    known = game.jogos.get(position)
    if known is None or values[_REVISION] > known[_REVISION]:
        game.jogos[position] = values


def _money_problem(table_id: int, games: dict[int, _GameRows], projected: dict) -> tuple[str, str] | None:
    """Money carries from row to row: each jogo as it stands starts with the capital the one
    before it left plus the movements between, and its record says so (Art. 9(a)(4)). The
    table's projection of its game in progress is where the replay of that game ends."""
    at = _AT[Jogo]
    banker_at = at["banker_chair"]
    seated: dict[int, list[int]] = defaultdict(list)
    for game_id, chair in Player.objects.filter(game__table_id=table_id).values_list("game_id", "chair"):
        seated[game_id].append(chair)
    first_banker, in_progress = {}, []
    for game_id, banker, ended_at in Game.objects.filter(table_id=table_id).values_list("id", "first_banker",
                                                                                          "ended_at"):
        first_banker[game_id] = banker
        if ended_at is None:
            in_progress.append(game_id)
    if in_progress != ([projected["game"]] if projected["game"] is not None else []):
        return ("the table's game in progress", f"the table names game {projected['game']}; the games not ended "
                                                f"are {in_progress or 'none'}")
    for game_id in sorted(games):
        game = games[game_id]
        amounts: list[int | None] = [None] * 4
        for chair in seated[game_id]:
            amounts[chair] = 0
        for position in range(1, max(game.jogos, default=0) + 1):
            amounts = with_movements(amounts, game.movements.get(position - 1, ()))
            values = game.jogos.get(position)
            if values is None:
                return (f"game {game_id}, jogo at position {position}", "missing from the ledger")
            before = values[at["capital_before"]]
            if before != amounts:
                return (_name(Jogo, values), f"capital before is {before}; the movements and the jogos before it "
                                             f"give {amounts}")
            chairs = tuple(chair for chair, capital in enumerate(before) if capital is not None)
            record = values[at["record"]]
            if record.get("capital") != {seat: amounts[chair] for seat, chair in _seats(chairs, values[banker_at])} \
                    or record.get("round_wind") != values[at["round_wind"]] \
                    or record.get("result") != values[at["result"]]:
                return (_name(Jogo, values), "the record's capital, round wind or result differ from the row's")
            amounts = list(values[at["capital_after"]])
        if game_id == projected["game"]:
            problem = _projection_problem(game, first_banker[game_id], amounts, projected)
            if problem:
                return ("the table's game in progress", problem)
    return None


@functools.cache
def _seats(chairs: tuple[int, ...], banker: int) -> tuple[tuple[str, int], ...]:
    """Seat wind and chair of each occupied chair when `banker` holds the bank (Art. 3): a game
    has few such seatings, and a million jogos ask for them."""
    return tuple(Progress(chairs, banker, banker, ROUND_WINDS[0]).seats.items())


PROJECTION = ("game", "game_jogos", "game_banker", "game_round_wind", "game_capital")


def _projection_problem(game: _GameRows, first_banker: int, amounts: list, projected: dict) -> str | None:
    """The projection must be where the game's replay ends: the last jogo's progress after it
    (Art. 3, I-1, I-2) and capital after it, with the movements since."""
    at = _AT[Jogo]
    jogos = max(game.jogos, default=0)
    amounts = with_movements(amounts, game.movements.get(jogos, ()))
    if jogos:
        last = game.jogos[jogos]
        chairs = tuple(chair for chair, capital in enumerate(last[at["capital_before"]]) if capital is not None)
        state = Progress(chairs, first_banker, last[at["banker_chair"]], last[at["round_wind"]]).after(
            banker_moves=last[at["outcome"]]["next"]["banker_moves"])
    else:
        state = Progress.start(chairs=[c for c, amount in enumerate(amounts) if amount is not None],
                               banker=first_banker)
    replayed = {"game_jogos": jogos, "game_banker": state.banker, "game_round_wind": state.round_wind,
                "game_capital": amounts}
    for name, value in replayed.items():
        if projected[name] != value:
            return f"its projection says {name} {projected[name]!r}; the ledger's rows give {value!r}"
    return None


def run(table_ids: list[int], *, workers: int = 1,
        progress: Callable[[int], None] | None = None) -> Iterator[TableCheck]:
    """Check the tables with `workers` processes, yielding each table's check as it ends."""
    # Workers read through connections of their own, which cannot see a transaction still open
    # here (a test's, or a caller's): then the check stays in this process.
    if workers <= 1 or len(table_ids) <= 1 or connections["default"].in_atomic_block:
        for table_id in table_ids:
            check = check_table(table_id)
            if progress:
                progress(check.rows)
            yield check
        return
    # Each worker opens its own connection: none may be inherited open across the fork.
    connections.close_all()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for check in pool.imap_unordered(check_table, table_ids):
            if progress:
                progress(check.rows)
            yield check


def breaks(tables=None, *, workers: int = 1, progress: Callable[[int], None] | None = None,
           checks: Iterable[TableCheck] | None = None) -> list[Break]:
    """The first break of each broken table, in the tables' order: from `checks` when the tables
    were checked elsewhere (by Celery workers), else checked here by `run`."""
    tables = list(tables if tables is not None else Table.objects.select_related("casino").order_by("pk"))
    if checks is None:
        checks = run([t.pk for t in tables], workers=workers, progress=progress)
    found = {check.table_id: check.found for check in checks if check.found}
    return [Break(table, *found[table.pk]) for table in tables if table.pk in found]
