"""Reads on the streaming replica (casino/db_router.py, casino/middleware.py, casino/replica.py):
which reads the router sends there, which pages the middleware lets read it, and, where CI starts a
real replica (scripts/pg_pair), that the audit's and the reports' queries run on that server and
the pit's do not, and that a page says how far behind the replica is."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connections, transaction
from django.test import Client, override_settings
from django.utils import translation

from casino.db_router import REPLICA, ReplicaRouter, reading_replica, replica_reads
from casino.middleware import _replica_page
from casino.pit.models import Jogo
from casino.replica import forget_lag, lag_banner
from tests.builders.audit import varied_day
from tests.builders.pit import record_next

BANNER = re.compile(r"These figures are (\d+) seconds behind the ledger\.")


# The settings ----------------------------------------------------------------------------------

def _databases_with(**environment: str) -> dict:
    """The databases and routers the settings make of `environment`, imported in a fresh process."""
    code = ("import json; from django.conf import settings; print(json.dumps({'databases': settings.DATABASES,"
            " 'routers': settings.DATABASE_ROUTERS}, default=str))")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings", "DJANGO_DEBUG": "1", **environment}
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_replica_url_adds_the_replica_and_its_router():
    configured = _databases_with(DATABASE_URL="postgres://app@primary.example.mo:5432/mahjong",
                                 DATABASE_REPLICA_URL="postgres://app@replica.example.mo:5433/mahjong")
    replica = configured["databases"]["replica"]
    assert (replica["HOST"], replica["PORT"], replica["NAME"]) == ("replica.example.mo", 5433, "mahjong")
    assert replica["CONN_MAX_AGE"] == configured["databases"]["default"]["CONN_MAX_AGE"] == 0
    assert replica["TEST"] == {"MIRROR": "default"}
    assert configured["routers"] == ["casino.db_router.ReplicaRouter"]


def test_without_a_replica_url_everything_reads_the_primary():
    configured = _databases_with(DATABASE_URL="postgres://app@primary.example.mo:5432/mahjong",
                                 DATABASE_REPLICA_URL="")
    assert list(configured["databases"]) == ["default"] and configured["routers"] == []


# The router ------------------------------------------------------------------------------------

def test_reads_go_to_the_primary_outside_a_reading_replica_block():
    assert ReplicaRouter().db_for_read(Jogo) == "default"


def test_reads_of_the_ledger_go_to_the_replica_inside_a_reading_replica_block():
    with reading_replica() as reads:
        assert ReplicaRouter().db_for_read(Jogo) == REPLICA
        assert reads.used
    assert replica_reads() is None


def test_the_people_and_their_permissions_are_read_on_the_primary_even_inside_the_block():
    with reading_replica() as reads:
        assert ReplicaRouter().db_for_read(User) == "default"
        assert not reads.used


def test_writes_go_to_the_primary_inside_the_block():
    with reading_replica():
        assert ReplicaRouter().db_for_write(Jogo) == "default"


@pytest.mark.django_db
def test_a_read_inside_a_write_stays_on_the_primary():
    with reading_replica() as reads, transaction.atomic():
        assert ReplicaRouter().db_for_read(Jogo) == "default"
    assert not reads.used


def test_migrations_run_on_the_primary_only():
    router = ReplicaRouter()
    assert router.allow_migrate("default", "pit") and not router.allow_migrate(REPLICA, "pit")


# Which pages read it ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/audit/", "/audit/commission/", "/audit/jogos/1/", "/audit/export/",
                                  "/audit/mtl/export/", "/audit/flags/", "/reports/"])
def test_the_audits_pages_its_exports_and_the_reports_index_read_the_replica(path):
    assert _replica_page(path)


@pytest.mark.parametrize("path", ["/reports/1/2026-11-21/daily-report.pdf", "/reports/1/2026-11-21/close",
                                  "/reports/1/2026-11-21/reopen", "/pit/", "/pit/tables/1/", "/pit/jogos/1/",
                                  "/pit/corrections/", "/count/cases/", "/floor/", "/aml/", "/api/v1/jogos/",
                                  "/api/v1/flags/", "/nowhere/"])
def test_the_daily_report_the_pit_the_count_the_floor_and_the_api_read_the_primary(path):
    assert not _replica_page(path)


class RecordingRouter(ReplicaRouter):
    """The project's router with its answers noted. The reads themselves go to the one test
    database (there is no replica in this run): what is tested is where the router sends them."""

    def __init__(self):
        self.answers: list[str] = []

    def db_for_read(self, model, **hints):
        self.answers.append(super().db_for_read(model, **hints))
        if replica_reads() is not None:
            replica_reads().used = False  # nothing was read on a replica: no lag to measure
        return "default"


@pytest.fixture
def recorded():
    """The router's answers, request by request, in a transactional test (a test's own
    transaction would keep every read on the primary, as a write's does)."""
    router = RecordingRouter()
    with override_settings(DATABASE_ROUTERS=[router]):
        yield router


def answers_of(router: RecordingRouter, response) -> list[str]:
    if response.streaming:
        b"".join(response.streaming_content)
    answers, router.answers[:] = list(router.answers), []
    return answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("flush_ledger_afterwards")
def test_an_audit_page_an_export_and_the_reports_index_are_read_on_the_replica(client, recorded):
    people, t1, game, rows = varied_day()
    client.force_login(people["inspector"])

    response = client.get("/audit/commission/?day=2026-11-21")
    assert response.status_code == 200 and REPLICA in answers_of(recorded, response)
    response = client.get("/audit/export/?format=csv&day=2026-11-21")
    assert response.status_code == 200
    recorded.answers.clear()  # the rows are read as they are sent, after the view has returned
    assert b"".join(response.streaming_content).count(b"\n") > 5 and REPLICA in recorded.answers

    client.force_login(people["manager"])
    response = client.get(f"/reports/?casino={t1.casino_id}&day=2026-11-21")
    assert response.status_code == 200 and REPLICA in answers_of(recorded, response)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("flush_ledger_afterwards")
def test_the_dealers_table_page_and_receipt_are_read_on_the_primary(client, recorded):
    people, t1, game, rows = varied_day()
    client.force_login(people["dealer"])

    for page in (f"/pit/tables/{t1.pk}/", f"/pit/jogos/{rows[0].pk}/"):
        response = client.get(page)
        assert response.status_code == 200
        answers = answers_of(recorded, response)
        assert answers and REPLICA not in answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("flush_ledger_afterwards")
def test_a_write_and_the_persons_reads_right_after_it_are_on_the_primary(client, recorded, settings):
    people, t1, game, rows = varied_day()
    inspector, other = client, Client()
    inspector.force_login(people["inspector"])
    other.force_login(people["manager"])

    response = inspector.post(f"/audit/jogos/{rows[0].pk}/", {"note": "hand too short on the video"})
    assert response.status_code == 302 and REPLICA not in answers_of(recorded, response)

    # His own flag is on his next page, read on the primary; another person's page reads the replica.
    response = inspector.get(f"/audit/jogos/{rows[0].pk}/")
    assert "hand too short on the video" in response.content.decode()
    assert REPLICA not in answers_of(recorded, response)
    assert REPLICA in answers_of(recorded, other.get(f"/audit/jogos/{rows[0].pk}/"))

    settings.REPLICA_PIN_SECONDS = 0  # his write is now old enough for the replica to hold it
    assert REPLICA in answers_of(recorded, inspector.get(f"/audit/jogos/{rows[0].pk}/"))


# The lag banner --------------------------------------------------------------------------------

def test_no_banner_on_a_page_that_did_not_read_the_replica():
    assert lag_banner(None) == {}
    with reading_replica():
        assert lag_banner(None) == {}  # inside the block, but nothing was read there


@pytest.mark.parametrize("language, words", [("pt", "segundos atrás do registo"), ("zh-hant", "落後 12 秒")])
def test_the_banner_is_said_in_portuguese_and_chinese(language, words):
    with translation.override(language):
        said = translation.gettext("These figures are %(seconds)s seconds behind the ledger.") % {"seconds": 12}
    assert words in said


# A real replica (CI: scripts/pg_pair) ----------------------------------------------------------

needs_replica = pytest.mark.skipif(
    not os.environ.get("DATABASE_REPLICA_URL"),
    reason="needs a streaming replica in DATABASE_REPLICA_URL (CI's PostgreSQL leg starts one with scripts/pg_pair)")


def _one(alias: str, sql: str, params=()):
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0]


def _wait_for_replica(column: str = "pg_last_wal_replay_lsn()") -> None:
    """Until the replica has received or replayed (`column`) the primary's current WAL position."""
    position = _one("default", "SELECT pg_current_wal_lsn()::text")
    deadline = time.monotonic() + 60
    while not _one(REPLICA, f"SELECT {column} >= %s::pg_lsn", [position]):
        assert time.monotonic() < deadline, "the replica did not catch up with the primary within a minute"
        time.sleep(0.05)


def _tables_the_replica_read() -> set[str]:
    """The project's tables named in the statements the replica ran on the test database since
    the last reset of its pg_stat_statements."""
    with connections[REPLICA].cursor() as cursor:
        cursor.execute("SELECT query FROM pg_stat_statements"
                       " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())")
        queries = [query for (query,) in cursor.fetchall()]
    return {table for query in queries for table in re.findall(r'"((?:pit|count|aml|floor|audit|reports)_\w+)"', query)}


def _reset_replica_statements() -> None:
    _one(REPLICA, "SELECT pg_stat_statements_reset()::text")


@needs_replica
@pytest.mark.django_db(transaction=True, databases=["default", REPLICA])
@pytest.mark.usefixtures("flush_ledger_afterwards")
def test_the_audit_and_the_reports_are_read_on_the_replica_server_and_the_pit_is_not(client, settings):
    replica = connections[REPLICA].settings_dict
    assert (replica["HOST"], replica["PORT"]) != (connections["default"].settings_dict["HOST"],
                                                  connections["default"].settings_dict["PORT"])
    assert replica["NAME"] == connections["default"].settings_dict["NAME"]  # the test database, copied
    assert _one(REPLICA, "SELECT pg_is_in_recovery()")

    people, t1, game, rows = varied_day()
    _wait_for_replica()

    _reset_replica_statements()
    client.force_login(people["inspector"])
    assert client.get(f"/audit/jogos/{rows[0].pk}/").status_code == 200
    assert client.get("/audit/commission/?day=2026-11-21").status_code == 200
    assert "pit_jogo" in _tables_the_replica_read()

    _reset_replica_statements()
    client.force_login(people["manager"])
    assert client.get(f"/reports/?casino={t1.casino_id}&day=2026-11-21").status_code == 200
    assert "pit_jogo" in _tables_the_replica_read()

    _reset_replica_statements()
    client.force_login(people["dealer"])
    assert client.get(f"/pit/tables/{t1.pk}/").status_code == 200
    assert client.get(f"/pit/jogos/{rows[0].pk}/").status_code == 200
    assert _tables_the_replica_read() == set()

    # The replica stops replaying (it still receives): a jogo recorded now is not yet on it, and
    # the audit's page says how far behind its figures are.
    client.force_login(people["inspector"])
    settings.REPLICA_LAG_WARN_SECONDS = 0
    _one(REPLICA, "SELECT pg_wal_replay_pause()::text")
    try:
        late = record_next(game, people["dealer"])
        _wait_for_replica("pg_last_wal_receive_lsn()")
        forget_lag()
        page = client.get("/audit/commission/?day=2026-11-21").content.decode()
        assert BANNER.search(page)
        assert client.get(f"/audit/jogos/{late.pk}/").status_code == 404  # not on the replica yet
    finally:
        _one(REPLICA, "SELECT pg_wal_replay_resume()::text")
    _wait_for_replica()
    forget_lag()
    page = client.get("/audit/commission/?day=2026-11-21").content.decode()
    assert not BANNER.search(page)
    assert client.get(f"/audit/jogos/{late.pk}/").status_code == 200
