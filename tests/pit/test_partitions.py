"""The ledger partitioned by month (docs/ledger.md): on PostgreSQL the jogos, movements and
refusals sit in one partition a month, the append-only triggers and the chains hold across
partitions, the audit's day queries read one month, the months ahead are made by a job, and a
month is detached to an archive with its heads saved first and checked on its own from them.
On SQLite each stays one table."""
from __future__ import annotations

import datetime as dt
import importlib
import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from casino import partitions
from casino.audit.ledger import Days, current_revisions
from casino.floor.models import AlertLog
from casino.pit.models import Amendment, Casino, Jogo, Movement
from casino.pit.verify import breaks
from casino.reports.selectors import current_jogos_of_day
from tests.builders.pit import DRAW, record_next, seat, staff

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="partitioning is PostgreSQL's; on SQLite each ledger table is one table")
on_sqlite = pytest.mark.skipif(connection.vendor != "sqlite", reason="what SQLite keeps: one table each")

LEDGER_TABLES = ("pit_jogo", "pit_movement", "pit_movementrefusal", "pit_refusal")
PARTITIONED = LEDGER_TABLES + ("floor_alert",)
OCTOBER, NOVEMBER = dt.date(2026, 10, 1), dt.date(2026, 11, 1)


def at(day: dt.date, hour: int = 12) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


def fetch(sql: str, params=()) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def immediate() -> None:
    """The test's own inserts checked now, not at its commit, which never comes: PostgreSQL
    refuses TRUNCATE or ALTER on a table with checks pending."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def partition_of(table: str, pk: int) -> str:
    return fetch(f"SELECT tableoid::regclass::text FROM {table} WHERE id = %s", [pk])[0][0]


@pytest.fixture
def across_october():
    """T1's game seated on 31 October, a jogo that day and a draw on 1 November: the ledger's
    rows in the October and the November partitions (October's made for the test)."""
    partitions.make_months_ahead(0, today=OCTOBER)
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], at=at(dt.date(2026, 10, 31), 10))
    first = record_next(game, people["dealer"], at=at(dt.date(2026, 10, 31)))
    second = record_next(game, people["dealer"], at=at(dt.date(2026, 11, 1)), **DRAW)
    return people, t1, game, first, second


@on_sqlite
def test_on_sqlite_each_ledger_table_stays_one_table(db):
    tables = {name for (name,) in fetch("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert set(PARTITIONED) <= tables
    assert not {name for name in tables if re.fullmatch(r"(pit|floor)_\w+_(p\d{4}_\d{2}|default)", name)}
    with pytest.raises(partitions.NotPartitioned):
        partitions.make_months_ahead()


@on_sqlite
def test_on_sqlite_the_command_says_partitioning_is_postgresqls(db):
    out = StringIO()
    call_command("ledger_partitions", "make", stdout=out)
    assert "partitioning is PostgreSQL's" in out.getvalue()


@on_postgresql
def test_the_ledger_and_the_refusals_are_partitioned_by_month(db):
    found = dict(fetch("SELECT c.relname, pg_get_partkeydef(c.oid) FROM pg_partitioned_table p "
                       "JOIN pg_class c ON c.oid = p.partrelid"))
    assert found == {"pit_jogo": "RANGE (gaming_day)", "pit_movement": "RANGE (gaming_day)",
                     "pit_movementrefusal": "RANGE (gaming_day)", "pit_refusal": "RANGE (attempted_at)",
                     "floor_alert": "RANGE (gaming_day)"}
    children = {name for (name,) in fetch("SELECT inhrelid::regclass::text FROM pg_inherits "
                                          "WHERE inhparent = 'pit_jogo'::regclass")}
    this_month = timezone.localdate().replace(day=1)
    assert {"pit_jogo_default", f"pit_jogo_p{this_month:%Y_%m}"} <= children
    # The refusals' months begin at Macau's midnight.
    bound = fetch("SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE relname = %s",
                  [f"pit_refusal_p{this_month:%Y_%m}"])[0][0]
    midnight = dt.datetime.combine(this_month, dt.time(0), tzinfo=partitions.ZONE).astimezone(dt.UTC)
    assert f"FROM ('{midnight:%Y-%m-%d %H:%M:%S}+00')" in bound


@on_postgresql
def test_the_keys_gain_the_gaming_day(db):
    keys = dict(fetch("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                      "WHERE conrelid = 'pit_jogo'::regclass AND contype IN ('p', 'u')"))
    assert keys == {"pit_jogo_pkey": "PRIMARY KEY (id, gaming_day)",
                    "jogo_seq_per_table": "UNIQUE (table_id, seq, gaming_day)",
                    "one_revision_number": "UNIQUE (table_id, number, revision, gaming_day)"}


@on_postgresql
def test_a_game_across_a_month_end_lands_in_two_partitions_and_its_chain_verifies(db, across_october):
    people, t1, game, first, second = across_october
    assert partition_of("pit_jogo", first.pk) == "pit_jogo_p2026_10"
    assert partition_of("pit_jogo", second.pk) == "pit_jogo_p2026_11"
    assert second.prev_hash == first.hash or Movement.objects.filter(table=t1, seq=second.seq - 1).exists()
    assert breaks() == []


@on_postgresql
@pytest.mark.parametrize("target", ["pit_jogo", "pit_jogo_p2026_10", "pit_movement", "pit_movement_p2026_10"])
@pytest.mark.parametrize("statement", ["UPDATE {} SET seq = seq", "DELETE FROM {}", "TRUNCATE {} CASCADE"])
def test_the_append_only_triggers_refuse_on_the_parent_and_on_a_partition(db, across_october, target, statement):
    immediate()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement.format(target))
    assert Jogo.objects.count() == 2


@on_postgresql
def test_an_amendment_naming_a_missing_jogo_is_refused(db, across_october):
    people, t1, game, first, second = across_october
    with pytest.raises(DatabaseError, match="names no row of pit_jogo"), transaction.atomic():
        Amendment.objects.create(jogo_id=second.pk + 1000, proposed_by=people["supervisor"],
                                 proposed_at=timezone.now(), reason="r", record={})
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the check is deferred to the commit, as a key's


@on_postgresql
def test_an_amendment_naming_a_jogo_in_an_earlier_month_is_accepted(db, across_october):
    people, t1, game, first, second = across_october
    amendment = Amendment.objects.create(jogo=first, revision=second, proposed_by=people["supervisor"],
                                         proposed_at=timezone.now(), reason="r", record={})
    immediate()
    assert amendment.jogo_id == first.pk


@on_postgresql
def test_an_alert_event_naming_a_missing_alert_is_refused(db):
    log = AlertLog.objects.create(casino=Casino.objects.create(name="Casino Lisboa"))
    with pytest.raises(DatabaseError, match="names no row of floor_alert"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO floor_alertevent (kind, note, recorded_at, seq, prev_hash, hash, alert_id, "
                           "log_id) VALUES ('cleared', '', now(), 1, '', '', -1, %s)", [log.pk])
        immediate()


def jogo_partitions_read(queryset) -> set[str]:
    """The partitions of the jogos the query itself reads (Django's alias pit_jogo), as planned;
    the EXISTS of `superseded` reads under another alias (U0)."""
    return set(re.findall(r" on (pit_jogo_\w+) pit_jogo(?:_\d+)?\s", queryset.explain()))


@on_postgresql
def test_the_audits_day_query_reads_only_that_months_partition(db, across_october):
    assert jogo_partitions_read(current_revisions(Days(dt.date(2026, 11, 1), dt.date(2026, 11, 1)))) == {
        "pit_jogo_p2026_11"}
    assert jogo_partitions_read(current_revisions(Days(dt.date(2026, 10, 30), dt.date(2026, 11, 1)))) == {
        "pit_jogo_p2026_10", "pit_jogo_p2026_11"}


@on_postgresql
def test_the_reports_day_query_reads_only_that_months_partition(db, across_october):
    t1 = across_october[1]
    assert jogo_partitions_read(current_jogos_of_day(t1.casino, dt.date(2026, 10, 31))) == {"pit_jogo_p2026_10"}


@on_postgresql
def test_making_the_months_ahead_twice_makes_them_once(db):
    future = dt.date(2031, 1, 1)
    made = partitions.make_months_ahead(2, today=future)
    assert sorted(made.made) == sorted(f"{table}_p2031_{month:02d}" for table in PARTITIONED for month in (1, 2, 3))
    assert made.refused == []
    assert partitions.make_months_ahead(2, today=future).made == []
    truncate_guard = fetch("SELECT count(*) FROM pg_trigger WHERE tgrelid = 'pit_jogo_p2031_02'::regclass "
                           "AND tgname = 'pit_jogo_no_truncate'")
    assert truncate_guard == [(1,)]


@on_postgresql
def test_a_month_whose_rows_fell_into_the_default_is_refused_not_made(db):
    people, t1, t2 = staff()
    game = seat(t1, people["dealer"], at=at(dt.date(2026, 9, 30), 10))  # no September partition
    jogo = record_next(game, people["dealer"], at=at(dt.date(2026, 9, 30)))
    assert partition_of("pit_jogo", jogo.pk) == "pit_jogo_default"
    made = partitions.make_months_ahead(0, today=dt.date(2026, 9, 1))
    assert any(refused.startswith("pit_jogo_p2026_09: 1 row(s)") for refused in made.refused)
    assert partitions.default_rows()["pit_jogo"] == 1
    assert breaks() == []


@on_postgresql
def test_a_detached_month_verifies_on_its_own_and_attaches_again(db, across_october, tmp_path):
    heads_file = tmp_path / "october.json"
    out = StringIO()
    call_command("ledger_partitions", "detach", "--month", "2026-10", "--heads-file", str(heads_file), stdout=out)
    heads = json.loads(heads_file.read_text())
    t1 = across_october[1]
    october = heads["tables"][str(t1.pk)]
    assert october["first_seq"] == 1 and october["last_seq"] == across_october[3].seq
    assert october["last_hash"] == across_october[3].hash
    assert not Jogo.objects.filter(gaming_day__month=10).exists()
    assert partitions.verify_archived(heads) == []
    call_command("ledger_partitions", "verify", "--heads-file", str(heads_file), stdout=out)
    assert "the archived month 2026-10 is intact" in out.getvalue()

    # The archived month keeps its append-only guard, and a row changed behind it is found.
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE pit_jogo_p2026_10 SET commission = commission + 1")
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
            cursor.execute("UPDATE pit_jogo_p2026_10 SET commission = commission + 1")
            cursor.execute("SET LOCAL session_replication_role = origin")
        assert any("does not match its hash" in problem for problem in partitions.verify_archived(heads))
        transaction.set_rollback(True)

    call_command("ledger_partitions", "attach", "--month", "2026-10", stdout=out)
    assert partition_of("pit_jogo", across_october[3].pk) == "pit_jogo_p2026_10"
    assert {part.name for part in partitions.partitions() if part.month == OCTOBER and part.attached} == {
        f"{table}_p2026_10" for table in PARTITIONED}
    assert breaks() == []
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM pit_jogo_p2026_10")


@on_postgresql
def test_detach_refuses_when_the_heads_cannot_be_saved(db, across_october, tmp_path):
    taken = tmp_path / "taken.json"
    taken.write_text("{}")
    with pytest.raises(CommandError, match="nothing was detached"):
        call_command("ledger_partitions", "detach", "--month", "2026-10", "--heads-file", str(taken))
    assert partition_of("pit_jogo", across_october[3].pk) == "pit_jogo_p2026_10"
    assert taken.read_text() == "{}"


@on_postgresql
def test_move_puts_a_month_on_a_tablespace(db, across_october):
    immediate()
    call_command("ledger_partitions", "move", "--month", "2026-10", "--tablespace", "pg_default", stdout=StringIO())
    assert {part.tablespace for part in partitions.partitions() if part.month == OCTOBER} == {"pg_default"}
    with pytest.raises(CommandError, match="no partition"):
        call_command("ledger_partitions", "move", "--month", "1999-01", "--tablespace", "pg_default")


# --- The migration's conversion, on a table made as before it ------------------------------------


@on_postgresql
def test_the_conversion_moves_a_table_as_it_was_made_before(db, across_october):
    """Migration pit 0018's `partition` on an unpartitioned copy of the jogos with what the old
    table had: identity, a unique constraint, a unique index with a condition, a check, a key out,
    a key in, the append-only triggers."""
    conversion = importlib.import_module("casino.pit.migrations.0018_partitioned_ledger")
    with connection.cursor() as cursor:
        cursor.execute("""
            CREATE TABLE old_jogo (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                                   table_id bigint NOT NULL REFERENCES pit_table (id),
                                   seq integer NOT NULL CHECK (seq >= 0), gaming_day date NOT NULL,
                                   hash varchar(64) NOT NULL, idempotency_key varchar(100),
                                   CONSTRAINT old_seq_per_table UNIQUE (table_id, seq));
            CREATE UNIQUE INDEX old_key_per_table ON old_jogo (table_id, idempotency_key)
                WHERE idempotency_key IS NOT NULL;
            CREATE TABLE old_note (id serial PRIMARY KEY, jogo_id bigint REFERENCES old_jogo (id)
                                   DEFERRABLE INITIALLY DEFERRED);
            CREATE TRIGGER old_jogo_no_change BEFORE UPDATE OR DELETE ON old_jogo
                FOR EACH ROW EXECUTE FUNCTION pit_ledger_append_only();
            CREATE TRIGGER old_jogo_no_truncate BEFORE TRUNCATE ON old_jogo
                FOR EACH STATEMENT EXECUTE FUNCTION pit_ledger_append_only();
            INSERT INTO old_jogo (id, table_id, seq, gaming_day, hash, idempotency_key)
                SELECT id, table_id, seq, gaming_day, hash, idempotency_key FROM pit_jogo;
            SELECT setval(pg_get_serial_sequence('old_jogo', 'id'), (SELECT max(id) FROM old_jogo));
        """)
        moved = conversion.partition(cursor, "old_jogo", "gaming_day", months_ahead=1, chain="table_id")
    assert moved == 2
    assert fetch("SELECT id, seq, hash, tableoid::regclass::text FROM old_jogo ORDER BY seq") == [
        (jogo.pk, jogo.seq, jogo.hash, f"old_jogo_p{jogo.gaming_day:%Y_%m}") for jogo in across_october[3:]]
    assert dict(fetch("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                      "WHERE conrelid = 'old_jogo'::regclass AND contype IN ('p', 'u', 'c')")) == {
        "old_jogo_pkey": "PRIMARY KEY (id, gaming_day)", "old_seq_per_table": "UNIQUE (table_id, seq, gaming_day)",
        "old_jogo_seq_check": "CHECK ((seq >= 0))"}
    assert "(table_id, idempotency_key, gaming_day) WHERE" in fetch(
        "SELECT pg_get_indexdef('old_key_per_table'::regclass)")[0][0]
    # The identity goes on from where it was.
    assert fetch("INSERT INTO old_jogo (table_id, seq, gaming_day, hash) VALUES (%s, 99, '2026-11-02', '') "
                 "RETURNING id", [across_october[1].pk]) == [(across_october[4].pk + 1,)]
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE old_jogo_p2026_10")
    with pytest.raises(DatabaseError, match="names no row of old_jogo"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO old_note (jogo_id) VALUES (-1)")
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")

    # And back, as `migrate` to pit 0017 does: one table, its keys as they were, the key in again.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM old_note")
        cursor.execute("ALTER TABLE old_jogo DISABLE TRIGGER USER")  # the test's own row out again
        cursor.execute("DELETE FROM old_jogo WHERE seq = 99")
        cursor.execute("ALTER TABLE old_jogo ENABLE TRIGGER USER")
        immediate()
        assert conversion.unpartition(cursor, "old_jogo", "gaming_day", chain="table_id") == 2
    assert fetch("SELECT relkind FROM pg_class WHERE relname = 'old_jogo'") == [("r",)]
    assert dict(fetch("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                      "WHERE conrelid = 'old_jogo'::regclass AND contype IN ('p', 'u')")) == {
        "old_jogo_pkey": "PRIMARY KEY (id)", "old_seq_per_table": "UNIQUE (table_id, seq)"}
    assert fetch("SELECT confrelid::regclass::text FROM pg_constraint WHERE conrelid = 'old_note'::regclass "
                 "AND contype = 'f'") == [("old_jogo",)]


@on_postgresql
def test_the_nightly_task_makes_the_months_ahead_and_reports_the_default_rows(db, settings):
    from casino.pit.tasks import make_partitions

    settings.LEDGER_PARTITION_MONTHS_AHEAD = 5
    done = make_partitions()
    last = timezone.localdate()
    for _ in range(5):
        last = (last.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    assert f"pit_jogo_p{last:%Y_%m}" in done["made"] and done["refused"] == [] and done["default_rows"] == {}
    assert make_partitions()["made"] == []


@on_sqlite
def test_on_sqlite_the_nightly_task_does_nothing(db):
    from casino.pit.tasks import make_partitions

    assert make_partitions() == {"made": [], "refused": [], "default_rows": {}}
