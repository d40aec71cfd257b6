"""The monthly partitions of the ledger and its audit tables, on PostgreSQL (docs/ledger.md, "The
ledger partitioned by month"). Migration pit 0018 made the tables partitioned; this module keeps
them so afterwards:

- `make_months_ahead` makes each table's partitions for this month and the next few, as the
  nightly job and `manage.py ledger_partitions make` do. Making a month twice does nothing.
- `partitions` lists them: table, month, rows, tablespace, attached or not.
- `detach` takes a month out of the tables (to archive it), having first saved that month's
  chain heads to a file; `verify_archived` checks a detached month on its own against that file;
  `attach` puts it back; `move` puts an attached month on another tablespace.

A partitioned table is found in the catalogue (pg_partitioned_table), with its key: a date
(`gaming_day`) or a time, cut at Macau's midnight (`attempted_at`). On SQLite nothing is
partitioned and each function says so (`NotPartitioned`).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from casino.chain import GENESIS
from casino.pit.chain import LEDGER
from casino.pit.models import Jogo, Movement

ZONE = ZoneInfo("Asia/Macau")  # gaming days and the refusals' months begin at Macau's midnight
HEADS_FORMAT = "ledger-month-heads/1"
# The chained tables of an archived month, and the model whose fields each row's hash covers.
CHAINED = {"pit_jogo": Jogo, "pit_movement": Movement}


class NotPartitioned(Exception):
    """Partitioning is PostgreSQL's; on SQLite each ledger table stays one table."""

    def __init__(self) -> None:
        super().__init__("partitioning is PostgreSQL's: on this database each ledger table is one table, "
                         "and there is nothing to do")


class PartitionError(Exception):
    """An operation on a month refused, with a sentence saying why."""


@dataclass(frozen=True)
class Partition:
    table: str
    name: str
    month: dt.date | None  # None: the default partition
    rows: int
    tablespace: str
    attached: bool


def _postgresql() -> None:
    if connection.vendor != "postgresql":
        raise NotPartitioned


def month_of(text: str) -> dt.date:
    """'2026-01' as the month's first day."""
    try:
        return dt.datetime.strptime(text, "%Y-%m").date()
    except ValueError:
        raise PartitionError(f"{text!r} is not a month written as YYYY-MM") from None


def _next(month: dt.date) -> dt.date:
    return (month + dt.timedelta(days=32)).replace(day=1)


def _bound(month: dt.date, timed: bool) -> str:
    if not timed:
        return month.isoformat()
    return dt.datetime(month.year, month.month, 1, tzinfo=ZONE).isoformat()


def _name(table: str, month: dt.date) -> str:
    return f"{table}_p{month:%Y_%m}"


def partitioned_tables(cursor) -> dict[str, tuple[str, bool]]:
    """Each partitioned table of the schema: its key column and whether the key is a time."""
    cursor.execute("""
        SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod) LIKE 'timestamp%%'
        FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
        JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
        WHERE c.relnamespace = 'public'::regnamespace ORDER BY c.relname""")
    return {table: (key, timed) for table, key, timed in cursor.fetchall()}


def _statement_triggers(cursor, parent: str) -> list[str]:
    """The parent's statement-level triggers (TRUNCATE): PostgreSQL clones row triggers onto a
    partition, not these, so a partition made without its own would be truncatable."""
    cursor.execute("SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = %s::regclass "
                   "AND NOT tgisinternal AND tgtype & 1 = 0 ORDER BY tgname", [parent])
    return [row[0] for row in cursor.fetchall()]


def _on(definition: str, table: str) -> str:
    return re.sub(r" ON \S+ ", f" ON public.{table} ", definition, count=1)


def _exists(cursor, name: str) -> bool:
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [f"public.{name}"])
    return cursor.fetchone()[0]


def _default_rows(cursor, table: str, key: str, month: dt.date, timed: bool) -> int:
    cursor.execute(f"SELECT count(*) FROM {table}_default WHERE %s <= {key} AND {key} < %s",
                   [_bound(month, timed), _bound(_next(month), timed)])
    return cursor.fetchone()[0]


def make_partition(cursor, table: str, month: dt.date, *, timed: bool) -> str:
    """`table`'s partition for `month`, with the parent's TRUNCATE guards (migration pit 0018
    makes them the same way). Its row triggers, indexes and foreign keys PostgreSQL clones."""
    name = _name(table, month)
    cursor.execute(f"CREATE TABLE {name} PARTITION OF {table} "
                   f"FOR VALUES FROM ('{_bound(month, timed)}') TO ('{_bound(_next(month), timed)}')")
    for definition in _statement_triggers(cursor, table):
        cursor.execute(_on(definition, name))
    return name


@dataclass(frozen=True)
class Made:
    made: list[str]
    refused: list[str]  # months whose rows already sit in the default partition


def make_months_ahead(months: int | None = None, *, today: dt.date | None = None) -> Made:
    """Each partitioned table's partitions from this month to `months` ahead, those missing.

    A month whose rows already fell into the default partition (no job made it in time) is not
    made: PostgreSQL refuses to, and moving rows out of the default would mean deleting them
    from an append-only table. It is reported instead, for an operator (docs/ledger.md)."""
    _postgresql()
    months = settings.LEDGER_PARTITION_MONTHS_AHEAD if months is None else months
    first = (today or timezone.localdate(timezone.now(), ZONE)).replace(day=1)
    made, refused = [], []
    with transaction.atomic(), connection.cursor() as cursor:
        for table, (key, timed) in partitioned_tables(cursor).items():
            month = first
            for _ in range(months + 1):
                if not _exists(cursor, _name(table, month)):
                    waiting = _default_rows(cursor, table, key, month, timed)
                    if waiting:
                        refused.append(f"{_name(table, month)}: {waiting} row(s) of that month are in "
                                       f"{table}_default")
                    else:
                        made.append(make_partition(cursor, table, month, timed=timed))
                month = _next(month)
    return Made(made, refused)


def default_rows() -> dict[str, int]:
    """Rows that fell into each table's default partition: none while the job keeps ahead."""
    _postgresql()
    with connection.cursor() as cursor:
        found = {}
        for table in partitioned_tables(cursor):
            cursor.execute(f"SELECT count(*) FROM {table}_default")
            found[table] = cursor.fetchone()[0]
    return found


def partitions() -> list[Partition]:
    """Every monthly partition, attached or detached (found by name), and each default."""
    _postgresql()
    with connection.cursor() as cursor:
        tables = partitioned_tables(cursor)
        cursor.execute("""
            SELECT c.relname, c.relispartition, coalesce(t.spcname, 'pg_default')
            FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace
            WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' ORDER BY c.relname""")
        found = []
        for name, attached, tablespace in cursor.fetchall():
            match = re.fullmatch(r"(.+)_(?:p(\d{4})_(\d{2})|default)", name)
            if not match or match[1] not in tables:
                continue
            cursor.execute(f"SELECT count(*) FROM {name}")
            month = dt.date(int(match[2]), int(match[3]), 1) if match[2] else None
            found.append(Partition(match[1], name, month, cursor.fetchone()[0], tablespace, attached))
    return found


def month_heads(month: dt.date, *, cursor=None) -> dict:
    """The month's ledger heads, per casino table: the first row's seq and prev_hash, the last
    row's seq and hash, the number of rows, and a digest of every row's hash in seq order. A
    table's month need not be one run of seqs (an amendment keeps its jogo's gaming day): the
    digest covers the rows between, so that the month checks on its own (`verify_archived`)."""
    def read(cursor):
        parts = " UNION ALL ".join(f"SELECT table_id, seq, prev_hash, hash FROM {_name(table, month)}"
                                   for table in CHAINED)
        cursor.execute(f"SELECT table_id, seq, prev_hash, hash FROM ({parts}) rows ORDER BY table_id, seq")
        return cursor.fetchall()

    if cursor is None:
        with connection.cursor() as cursor:
            rows = read(cursor)
    else:
        rows = read(cursor)
    tables: dict[str, dict] = {}
    digests: dict[int, hashlib._Hash] = {}
    for table_id, seq, prev_hash, row_hash in rows:
        head = tables.setdefault(str(table_id), {"first_seq": seq, "first_prev_hash": prev_hash, "rows": 0})
        head.update(last_seq=seq, last_hash=row_hash, rows=head["rows"] + 1)
        digests.setdefault(table_id, hashlib.sha256()).update(row_hash.encode())
    for table_id, digest in digests.items():
        tables[str(table_id)]["digest"] = digest.hexdigest()
    return {"format": HEADS_FORMAT, "month": f"{month:%Y-%m}", "saved_at": timezone.now().isoformat(),
            "partitions": {table: _name(table, month) for table in CHAINED}, "tables": tables}


def detach(month: dt.date, *, heads_file: Path) -> list[str]:
    """Take `month` out of every partitioned table, to archive it: its ledger heads are written
    to `heads_file` first (a new file, never over another), and nothing is detached if they
    cannot be. The detached tables keep their append-only triggers (copied before PostgreSQL
    drops the clones), so an archived month stays as it was recorded."""
    _postgresql()
    with transaction.atomic(), connection.cursor() as cursor:
        tables = partitioned_tables(cursor)
        names = [_name(table, month) for table in tables]
        missing = [name for name in names if not _exists(cursor, name)]
        if missing:
            raise PartitionError(f"there is no partition {', '.join(missing)} to detach")
        cursor.execute("SELECT relname FROM pg_class WHERE relname = ANY(%s) AND NOT relispartition", [names])
        detached = [row[0] for row in cursor.fetchall()]
        if detached:
            raise PartitionError(f"{', '.join(detached)} is already detached")
        heads = month_heads(month, cursor=cursor)
        try:
            with open(heads_file, "x", encoding="utf-8") as file:
                file.write(json.dumps(heads, indent=1) + "\n")
        except OSError as error:
            raise PartitionError(f"the month's heads could not be saved to {heads_file} ({error.strerror}): "
                                 "nothing was detached") from error
        for table, name in zip(tables, names):
            cursor.execute("SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = %s::regclass "
                           "AND NOT tgisinternal AND tgtype & 1 = 1 ORDER BY tgname", [table])
            row_triggers = [row[0] for row in cursor.fetchall()]
            cursor.execute(f"ALTER TABLE {table} DETACH PARTITION {name}")
            for definition in row_triggers:
                cursor.execute(_on(definition, name))
    return names


def attach(month: dt.date, *, tablespace: str | None = None) -> list[str]:
    """Put a detached `month` back into every partitioned table (first onto `tablespace`, if
    given). The copies of the row triggers made at detaching give way to the parent's clones."""
    _postgresql()
    with transaction.atomic(), connection.cursor() as cursor:
        attached = []
        for table, (_key, timed) in partitioned_tables(cursor).items():
            name = _name(table, month)
            cursor.execute("SELECT relispartition FROM pg_class WHERE oid = to_regclass(%s)", [f"public.{name}"])
            found = cursor.fetchone()
            if found is None:
                raise PartitionError(f"there is no table {name} to attach: restore it from the archive first")
            if found[0]:
                continue
            if tablespace:
                _set_tablespace(cursor, name, tablespace)
            cursor.execute("SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass "
                           "AND NOT tgisinternal AND tgtype & 1 = 1", [name])
            for (trigger,) in cursor.fetchall():
                cursor.execute(f"DROP TRIGGER {trigger} ON {name}")
            cursor.execute(f"ALTER TABLE {table} ATTACH PARTITION {name} "
                           f"FOR VALUES FROM ('{_bound(month, timed)}') TO ('{_bound(_next(month), timed)}')")
            attached.append(name)
    return attached


def _set_tablespace(cursor, name: str, tablespace: str) -> None:
    cursor.execute(f"ALTER TABLE {name} SET TABLESPACE {connection.ops.quote_name(tablespace)}")
    cursor.execute("SELECT indexrelid::regclass::text FROM pg_index WHERE indrelid = %s::regclass", [name])
    for (index,) in cursor.fetchall():
        cursor.execute(f"ALTER INDEX {index} SET TABLESPACE {connection.ops.quote_name(tablespace)}")


def move(month: dt.date, *, tablespace: str) -> list[str]:
    """Put `month`'s partitions and their indexes on `tablespace` (storage for old months)."""
    _postgresql()
    with transaction.atomic(), connection.cursor() as cursor:
        names = [_name(table, month) for table in partitioned_tables(cursor)]
        missing = [name for name in names if not _exists(cursor, name)]
        if missing:
            raise PartitionError(f"there is no partition {', '.join(missing)} to move")
        for name in names:
            _set_tablespace(cursor, name, tablespace)
    return names


def verify_archived(heads: dict) -> list[str]:
    """Check a detached month on its own against its saved heads: each row's hash recomputed
    from its content and its prev_hash (casino.pit.chain), each row linked to the one before it
    when their seqs follow, and per casino table the first prev_hash, the last hash, the number
    of rows and the digest as saved. Returns the problems found, none if the month is intact."""
    _postgresql()
    if heads.get("format") != HEADS_FORMAT:
        return [f"not a month's heads file (format {heads.get('format')!r})"]
    rows = []
    for table, model in CHAINED.items():
        name = heads["partitions"][table]
        if not re.fullmatch(rf"{table}_p\d{{4}}_\d{{2}}", name):  # a name read from a file, put in SQL
            return [f"not a month's partition of {table}: {name!r}"]
        rows += [(row.table_id, row.seq, row) for row in model.objects.raw(f"SELECT * FROM {name}")]
    rows.sort(key=lambda found: (found[0], found[1]))
    problems, seen = [], {}
    for table_id, seq, row in rows:
        head = seen.setdefault(table_id, {"rows": 0, "digest": hashlib.sha256(), "first": (seq, row.prev_hash)})
        if LEDGER.row_hash(row) != row.hash:
            problems.append(f"table {table_id}, ledger seq {seq}: the row's content does not match its hash")
        last = head.get("last")
        if last and last[0] + 1 == seq and last[1] != row.prev_hash:
            problems.append(f"table {table_id}, ledger seq {seq}: prev_hash does not match the row before it")
        head.update(rows=head["rows"] + 1, last=(seq, row.hash))
        head["digest"].update(row.hash.encode())
    saved = heads["tables"]
    for table_id in sorted(set(saved) | {str(key) for key in seen}):
        found, expected = seen.get(int(table_id)), saved.get(table_id)
        if found is None or expected is None:
            problems.append(f"table {table_id}: rows {'saved but missing' if found is None else 'not in the heads'}")
            continue
        if found["first"] != (expected["first_seq"], expected["first_prev_hash"] or GENESIS):
            problems.append(f"table {table_id}: the first row is not the one saved (seq {expected['first_seq']})")
        if found["last"] != (expected["last_seq"], expected["last_hash"]):
            problems.append(f"table {table_id}: the last row is not the one saved (seq {expected['last_seq']})")
        if (found["rows"], found["digest"].hexdigest()) != (expected["rows"], expected["digest"]):
            problems.append(f"table {table_id}: {found['rows']} row(s) where {expected['rows']} were saved, "
                            "or a row between was changed")
    return problems
