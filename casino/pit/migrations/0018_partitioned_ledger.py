"""On PostgreSQL, the ledger and the refusals partitioned by month (docs/ledger.md, "The ledger
partitioned by month"): `pit_jogo`, `pit_movement` and `pit_movementrefusal` by `gaming_day`,
`pit_refusal` (which has no gaming day) by `attempted_at`, at Macau's midnight. One partition a
month, `<table>_p2026_11`, and a default partition `<table>_default` so that recording never
fails for want of one. The models do not change: on SQLite each stays one table.

`partition` below is the one conversion, driven by what the catalogue says the table has (its
indexes, constraints, triggers, identity, the keys that refer to it), so that no table's DDL is
written here by hand. Each table's rows are moved and checked before the migration ends; a
mismatch raises, and PostgreSQL's DDL being transactional, nothing is left half done.

Reversible: `unpartition` makes each table one table again the same way, its rows checked
likewise; it refuses while a month is detached (its rows would be lost to the table).

A copy: casino/partitions.py makes the later months the same way (`make_partition` there), and
casino/floor/migrations keeps its own copy of this module's `partition`, since a migration
imports no project code.
"""
from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import migrations

ZONE = "Asia/Macau"  # gaming days and the refusals' months begin at Macau's midnight

# The check that replaces a foreign key naming a partitioned table (PostgreSQL refuses one whose
# referenced key lacks the partition key). Deferred to the commit, as Django's foreign keys are;
# the referenced rows are never deleted (their tables are append-only), so checking the
# referring side is enough.
REFERENCE = """
CREATE OR REPLACE FUNCTION ledger_reference_exists() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    named text := to_jsonb(NEW) ->> TG_ARGV[0];
    found boolean;
BEGIN
    IF named IS NULL THEN
        RETURN NULL;
    END IF;
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I = $1::%s)', TG_ARGV[1], TG_ARGV[2], TG_ARGV[3])
        INTO found USING named;
    IF NOT found THEN
        RAISE EXCEPTION '%.% = % names no row of %', TG_TABLE_NAME, TG_ARGV[0], named, TG_ARGV[1]
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END
$$;
"""


def _month(day: dt.date) -> dt.date:
    return day.replace(day=1)


def _next(month: dt.date) -> dt.date:
    return (month + dt.timedelta(days=32)).replace(day=1)


def _bound(month: dt.date, timed: bool) -> str:
    """A month's first instant as a partition bound: the day itself, or Macau's midnight."""
    if not timed:
        return month.isoformat()
    return dt.datetime(month.year, month.month, 1, tzinfo=ZoneInfo(ZONE)).isoformat()


def _statement_triggers(cursor, parent: str) -> list[str]:
    """The parent's statement-level triggers (TRUNCATE): PostgreSQL clones a row trigger onto
    each partition but not these, so a partition would be truncatable without its own."""
    cursor.execute("SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = %s::regclass "
                   "AND NOT tgisinternal AND tgtype & 1 = 0 ORDER BY tgname", [parent])
    return [row[0] for row in cursor.fetchall()]


def _on(definition: str, table: str) -> str:
    return re.sub(r" ON \S+ ", f" ON public.{table} ", definition, count=1)


def make_partition(cursor, parent: str, month: dt.date, *, timed: bool) -> str:
    """The parent's partition for `month`, made with the parent's TRUNCATE guards; its row
    triggers, indexes and foreign keys PostgreSQL clones itself."""
    name = f"{parent}_p{month:%Y_%m}"
    cursor.execute(f"CREATE TABLE {name} PARTITION OF {parent} "
                   f"FOR VALUES FROM ('{_bound(month, timed)}') TO ('{_bound(_next(month), timed)}')")
    for definition in _statement_triggers(cursor, parent):
        cursor.execute(_on(definition, name))
    return name


def _catalogue(cursor, table: str) -> dict:
    """What the table has, as the DDL that makes it again on the partitioned table."""
    cursor.execute("""
        SELECT pg_get_indexdef(i.indexrelid), i.indisunique, c.conname, c.contype,
               ARRAY(SELECT a.attname FROM unnest(i.indkey) WITH ORDINALITY k(attnum, place)
                     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum ORDER BY k.place)
        FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid AND c.conrelid = i.indrelid
        WHERE i.indrelid = %s::regclass ORDER BY i.indexrelid""", [table])
    indexes = cursor.fetchall()
    cursor.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                   "WHERE conrelid = %s::regclass AND contype = 'f' ORDER BY conname", [table])
    outgoing = cursor.fetchall()
    cursor.execute("""
        SELECT c.conrelid::regclass::text, c.conname, a.attname, r.attname, format_type(r.atttypid, r.atttypmod)
        FROM pg_constraint c
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
        JOIN pg_attribute r ON r.attrelid = c.confrelid AND r.attnum = c.confkey[1]
        WHERE c.confrelid = %s::regclass AND c.contype = 'f' ORDER BY c.conname""", [table])
    incoming = cursor.fetchall()
    cursor.execute("SELECT pg_get_triggerdef(oid), tgtype & 1 = 0 FROM pg_trigger "
                   "WHERE tgrelid = %s::regclass AND NOT tgisinternal ORDER BY tgname", [table])
    triggers = cursor.fetchall()
    # An identity column's sequence (Django's AutoField); LIKE gives the new table its own.
    cursor.execute("SELECT attname, pg_get_serial_sequence(%s, attname) FROM pg_attribute "
                   "WHERE attrelid = %s::regclass AND attidentity <> ''", [table, table])
    sequences = cursor.fetchall()
    return {"indexes": indexes, "outgoing": outgoing, "incoming": incoming, "triggers": triggers,
            "sequences": sequences}


def _with_key(columns: list[str], key: str) -> str:
    return ", ".join(columns + ([key] if key not in columns else []))


def _fingerprint(cursor, table: str, chain: str | None) -> list:
    """What must be the same after the move: the row count, and for each chain (rows grouped by
    `chain`) its count, first and last seq and the hash of its last row."""
    cursor.execute(f"SELECT count(*) FROM {table}")
    found = [cursor.fetchone()]
    if chain:
        cursor.execute(f"""SELECT DISTINCT ON ({chain}) {chain}, count(*) OVER w, min(seq) OVER w,
                                  max(seq) OVER w, hash
                           FROM {table} WINDOW w AS (PARTITION BY {chain})
                           ORDER BY {chain}, seq DESC""")
        found += cursor.fetchall()
    return found


def partition(cursor, table: str, key: str, *, months_ahead: int, chain: str | None = None) -> int:
    """Make `table` partitioned by month on `key` (a date, or a time cut at Macau's midnight),
    keeping its name, rows, defaults, checks, indexes, foreign keys, triggers and identity.

    What changes, because PostgreSQL requires it of a partitioned table: the primary key and
    each unique constraint or index gain `key`; each foreign key that names this table from
    another becomes the deferred trigger `<table>_<column>_exists` (ledger_reference_exists).
    Returns the number of rows moved; raises if the rows or the chains (grouped by `chain`)
    differ after the move."""
    cursor.execute("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                   "WHERE attrelid = %s::regclass AND attname = %s", [table, key])
    timed = cursor.fetchone()[0].startswith("timestamp")
    found = _catalogue(cursor, table)
    before = _fingerprint(cursor, table, chain)
    old = f"{table}_unpartitioned"

    for referring, name, _column, _target, _type in found["incoming"]:
        cursor.execute(f"ALTER TABLE {referring} DROP CONSTRAINT {name}")
    cursor.execute(f"ALTER TABLE {table} RENAME TO {old}")
    cursor.execute(f"CREATE TABLE {table} (LIKE {old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
                   f"INCLUDING IDENTITY INCLUDING STORAGE INCLUDING COMMENTS) PARTITION BY RANGE ({key})")
    for definition, _statement in found["triggers"]:  # row triggers reach each partition made below
        cursor.execute(definition)

    month_of = f"({key} AT TIME ZONE '{ZONE}')::date" if timed else key
    cursor.execute(f"SELECT min({month_of}), max({month_of}) FROM {old}")
    first, last = cursor.fetchone()
    today = dt.datetime.now(ZoneInfo(ZONE)).date()
    month, end = _month(min(first or today, today)), _month(max(last or today, today))
    for _ in range(months_ahead):
        end = _next(end)
    while month <= end:
        make_partition(cursor, table, month, timed=timed)
        month = _next(month)
    cursor.execute(f"CREATE TABLE {table}_default PARTITION OF {table} DEFAULT")
    for definition in _statement_triggers(cursor, table):
        cursor.execute(_on(definition, f"{table}_default"))

    # The append-only triggers refuse UPDATE, DELETE and TRUNCATE, not INSERT: the copy passes.
    cursor.execute(f"INSERT INTO {table} OVERRIDING SYSTEM VALUE SELECT * FROM {old}")
    moved = cursor.rowcount
    for column, sequence in found["sequences"]:
        cursor.execute(f"SELECT setval(pg_get_serial_sequence(%s, %s), "
                       f"(SELECT last_value FROM {sequence}), (SELECT is_called FROM {sequence}))", [table, column])
    cursor.execute(f"DROP TABLE {old}")
    for column, _sequence in found["sequences"]:  # the identity's sequence under its old name again
        cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, column])
        cursor.execute(f"ALTER SEQUENCE {cursor.fetchone()[0]} RENAME TO {table}_{column}_seq")

    for definition, unique, constraint, kind, columns in found["indexes"]:
        if kind in ("p", "u"):
            clause = "PRIMARY KEY" if kind == "p" else "UNIQUE"
            cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {constraint} {clause} ({_with_key(columns, key)})")
        elif unique and key not in columns:
            # A unique index (one with a condition): the partition key after its columns.
            cursor.execute(re.sub(r"\)(\s+WHERE .*)?$", rf", {key})\1", definition, count=1))
        else:
            cursor.execute(definition)
    for name, definition in found["outgoing"]:
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
    for referring, _name, column, target, kind in found["incoming"]:
        cursor.execute(f"CREATE CONSTRAINT TRIGGER {referring}_{column}_exists AFTER INSERT OR UPDATE OF {column} "
                       f"ON {referring} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
                       f"EXECUTE FUNCTION ledger_reference_exists('{column}', '{table}', '{target}', '{kind}')")
        # The key it replaces, by name, for the reverse (`unpartition`).
        cursor.execute(f"COMMENT ON TRIGGER {referring}_{column}_exists ON {referring} IS '{_name}'")
    cursor.execute(f"ANALYZE {table}")

    after = _fingerprint(cursor, table, chain)
    if after != before:
        raise RuntimeError(f"{table}: the rows moved do not match the rows before ({before[0]} then {after[0]})")
    return moved


def unpartition(cursor, table: str, key: str, *, chain: str | None = None) -> int:
    """The reverse of `partition`: `table` one table again, its keys without `key`, the
    triggers that replaced foreign keys naming it made those keys again (their names are the
    triggers' comments). Refuses while a month of it is detached, whose rows would be left out."""
    cursor.execute("SELECT relname FROM pg_class WHERE relname ~ %s AND relkind = 'r' AND NOT relispartition",
                   [rf"^{table}_p\d{{4}}_\d{{2}}$"])
    detached = [row[0] for row in cursor.fetchall()]
    if detached:
        raise RuntimeError(f"{table}: attach {', '.join(detached)} first (ledger_partitions attach)")
    found = _catalogue(cursor, table)
    cursor.execute("""SELECT t.tgrelid::regclass::text, t.tgname, obj_description(t.oid, 'pg_trigger'),
                             encode(t.tgargs, 'escape')
                      FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
                      WHERE p.proname = 'ledger_reference_exists' ORDER BY t.tgname""")
    incoming = [(referring, trigger, name, args.split("\\000")) for referring, trigger, name, args in cursor.fetchall()]
    incoming = [found for found in incoming if found[3][1] == table]
    before = _fingerprint(cursor, table, chain)
    old = f"{table}_partitioned"

    cursor.execute(f"ALTER TABLE {table} RENAME TO {old}")
    cursor.execute(f"CREATE TABLE {table} (LIKE {old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS "
                   "INCLUDING IDENTITY INCLUDING STORAGE INCLUDING COMMENTS)")
    cursor.execute(f"INSERT INTO {table} OVERRIDING SYSTEM VALUE SELECT * FROM {old}")
    moved = cursor.rowcount
    for column, sequence in found["sequences"]:
        cursor.execute(f"SELECT setval(pg_get_serial_sequence(%s, %s), "
                       f"(SELECT last_value FROM {sequence}), (SELECT is_called FROM {sequence}))", [table, column])
    for referring, trigger, _name, _args in incoming:
        cursor.execute(f"DROP TRIGGER {trigger} ON {referring}")
    cursor.execute(f"DROP TABLE {old}")  # and its partitions
    for column, _sequence in found["sequences"]:
        cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, column])
        cursor.execute(f"ALTER SEQUENCE {cursor.fetchone()[0]} RENAME TO {table}_{column}_seq")

    for definition, unique, constraint, kind, columns in found["indexes"]:
        columns = [column for column in columns if column != key]
        if kind in ("p", "u"):
            clause = "PRIMARY KEY" if kind == "p" else "UNIQUE"
            cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {constraint} {clause} ({', '.join(columns)})")
        elif unique:
            cursor.execute(re.sub(rf", {key}\)", ")", definition.replace(" ON ONLY ", " ON "), count=1))
        else:
            cursor.execute(definition.replace(" ON ONLY ", " ON "))
    for name, definition in found["outgoing"]:
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
    for definition, _statement in found["triggers"]:
        cursor.execute(definition)
    for referring, _trigger, name, (column, _table, target, _kind, *_rest) in incoming:
        cursor.execute(f"ALTER TABLE {referring} ADD CONSTRAINT {name} FOREIGN KEY ({column}) "
                       f"REFERENCES {table} ({target}) DEFERRABLE INITIALLY DEFERRED")
    cursor.execute(f"ANALYZE {table}")

    after = _fingerprint(cursor, table, chain)
    if after != before:
        raise RuntimeError(f"{table}: the rows moved do not match the rows before ({before[0]} then {after[0]})")
    return moved


def _check_ledger_seqs(cursor) -> None:
    """Each table's ledger (its jogos and movements together) numbered 1..n without a gap."""
    cursor.execute("""SELECT table_id, count(*), max(seq) FROM
                          (SELECT table_id, seq FROM pit_jogo UNION ALL SELECT table_id, seq FROM pit_movement) rows
                      GROUP BY table_id HAVING count(*) <> max(seq) OR min(seq) <> 1""")
    broken = cursor.fetchall()
    if broken:
        raise RuntimeError(f"ledger seqs with gaps after the move (table, rows, last seq): {broken}")


TABLES = (("pit_jogo", "gaming_day", "table_id"), ("pit_movement", "gaming_day", "table_id"),
          ("pit_movementrefusal", "gaming_day", None), ("pit_refusal", "attempted_at", None))


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    ahead = getattr(settings, "LEDGER_PARTITION_MONTHS_AHEAD", 3)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(REFERENCE)
        for table, key, chain in TABLES:
            partition(cursor, table, key, months_ahead=ahead, chain=chain)
        _check_ledger_seqs(cursor)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for table, key, chain in TABLES:
            unpartition(cursor, table, key, chain=chain)
        _check_ledger_seqs(cursor)
        cursor.execute("DROP FUNCTION ledger_reference_exists()")


class Migration(migrations.Migration):
    dependencies = [("pit", "0017_casino_staff")]
    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
