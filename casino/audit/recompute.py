"""The bulk re-audit behind `manage.py audit_recompute`: stream every ledger row of the jogo
table, re-score its record with the engine and compare every stored figure (`recheck.py`).

Speed comes from two things. Rows are read with a server-side cursor in raw SQL, so the JSON
columns arrive as text and go straight to msgspec (no ORM objects, no `json.loads`). The work is
cut into shards (a run of one table's jogo numbers, so that all revisions of a jogo fall in one
shard and the current revision is simply the last of its number); shards go to worker processes,
one per core, each with its own database connection, or, with `--distributed`, to Celery workers
on any number of hosts (casino/distributed.py); a shard and its tally then travel as plain
JSON (`Shard.as_dict`, `Tally.as_dict`). (Pausing the garbage collector while scoring gained
nothing measurable here: the rows are dropped as they are scored.)
"""
from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, astuple, dataclass, field

from django.db import connection, connections, transaction

from casino.pit.models import Jogo, Table
from casino.pit.recheck import COLUMNS, Difference, Stored, compare

from .ledger import Days

FETCH = 2000  # rows per round trip of the server-side cursor
SHARD_ROWS = 20_000  # ledger rows per shard, about: small enough to share the work and show progress


@dataclass(frozen=True)
class Shard:
    """The ledger rows of one table whose jogo numbers lie in first..last."""

    table_id: int
    table: str
    first: int
    last: int
    rows: int  # an estimate, for the progress bar

    @property
    def key(self) -> str:
        """What names the shard among a run's, whatever its result's way back."""
        return f"{self.table_id}:{self.first}-{self.last}"

    def __str__(self) -> str:
        return f"table {self.table}, jogos {self.first}–{self.last}"

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Tally:
    rows: int = 0  # ledger rows re-scored (every revision)
    current: int = 0  # jogos at their current revision
    won: int = 0  # current jogos the engine finds valid and won
    commission_recorded: int = 0  # over current revisions
    commission_due: int = 0  # Art. 8, as the engine gives it, over current revisions
    differences: list[Difference] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.rows += other.rows
        self.current += other.current
        self.won += other.won
        self.commission_recorded += other.commission_recorded
        self.commission_due += other.commission_due
        self.differences += other.differences

    def as_dict(self) -> dict:
        """The tally as JSON can carry it: each difference as the list of its fields."""
        return {**asdict(self), "differences": [list(astuple(d)) for d in self.differences]}

    @classmethod
    def from_dict(cls, data: dict) -> Tally:
        return cls(**{**data, "differences": [Difference(*values) for values in data["differences"]]})


def _where(days: Days | None) -> tuple[str, list]:
    if days is None:
        return "", []
    return " AND gaming_day BETWEEN %s AND %s", [days.first, days.last]


def plan(days: Days | None, shard_rows: int = SHARD_ROWS) -> list[Shard]:
    """Shards covering every ledger row of the days (all days when None)."""
    where, params = _where(days)
    sql = (f"SELECT table_id, MIN(number), MAX(number), COUNT(*) FROM {Jogo._meta.db_table} "
           f"WHERE 1 = 1{where} GROUP BY table_id ORDER BY table_id")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        spans = cursor.fetchall()
    names = dict(Table.objects.filter(pk__in=[s[0] for s in spans]).values_list("pk", "number"))
    shards = []
    for table_id, low, high, rows in spans:
        pieces = max(1, math.ceil(rows / shard_rows))
        step = math.ceil((high - low + 1) / pieces)
        for first in range(low, high + 1, step):
            last = min(high, first + step - 1)
            shards.append(Shard(table_id, names[table_id], first, last, math.ceil(rows * (last - first + 1)
                                                                                  / (high - low + 1))))
    return shards


def audit_shard(shard: Shard, days: Days | None) -> Tally:
    """Re-score every row of the shard, in (number, revision) order."""
    where, params = _where(days)
    sql = (f"SELECT {', '.join(COLUMNS)} FROM {Jogo._meta.db_table} WHERE table_id = %s AND number BETWEEN %s AND %s"
           f"{where} ORDER BY number, revision")
    tally = Tally()
    # In a transaction the PostgreSQL cursor need not be WITH HOLD (materialised at commit).
    with transaction.atomic(), connection.chunked_cursor() as cursor:
        cursor.execute(sql, [shard.table_id, shard.first, shard.last, *params])
        pending = None  # the previous row: current if the next row has another number
        while True:
            rows = cursor.fetchmany(FETCH)
            if not rows:
                break
            for values in rows:
                row = Stored(*values)
                if pending is not None and pending[0].number != row.number:
                    _count_current(tally, *pending)
                result, found = compare(row)
                if found:
                    tally.differences += [Difference(shard.table, row.game_id, row.number, row.revision,
                                                     row.id, *item) for item in found]
                pending = (row, result)
            tally.rows += len(rows)
        if pending is not None:
            _count_current(tally, *pending)
    return tally


def _count_current(tally: Tally, row: Stored, result) -> None:
    tally.current += 1
    tally.commission_recorded += row.commission
    if result is not None and result.valid and result.jogo.result == "win":
        tally.won += 1
        tally.commission_due += result.settlement.commission


def _worker_audit(args: tuple[Shard, Days | None]) -> Tally:
    return audit_shard(*args)


def run(days: Days | None, *, workers: int = 1, progress: Callable[[int], None] | None = None,
        shards: list[Shard] | None = None) -> Tally:
    """Re-audit the ledger of the days with `workers` processes; `progress(rows)` after each shard."""
    shards = plan(days) if shards is None else shards
    return combined(_tallies(shards, days, workers), progress=progress)


def combined(tallies: Iterable[Tally], *, progress: Callable[[int], None] | None = None) -> Tally:
    """The shards' tallies added up, their differences in the report's order (table, jogo,
    revision, field), so that the report is the same whichever shard ended first and wherever."""
    total = Tally()
    for tally in tallies:
        total.add(tally)
        if progress:
            progress(tally.rows)
    total.differences.sort(key=lambda d: (d.table, d.number, d.revision, d.field))
    return total


def _tallies(shards: list[Shard], days: Days | None, workers: int) -> Iterator[Tally]:
    if workers <= 1 or len(shards) <= 1:
        for shard in shards:
            yield audit_shard(shard, days)
        return
    # Each worker opens its own connection: none may be inherited open across the fork.
    connections.close_all()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap_unordered(_worker_audit, [(shard, days) for shard in shards])
