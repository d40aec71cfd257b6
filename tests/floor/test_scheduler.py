"""The scheduled work (casino/floor/tasks.py), run eagerly here as `make run` and the tests run it:
the nightly heads are saved write-once, the nightly verification raises an alert for a ledger
changed behind the application's back, each job is a command, and beat names real tasks."""
import datetime as dt
import json
import os
import stat
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from celery.schedules import crontab
from django.conf import settings as django_settings
from django.core.management import call_command
from django.core.management.base import CommandError

from casino.celery import app
from casino.floor import tasks
from casino.floor.models import Alert
from casino.floor.rules import LEDGER
from casino.pit import tasks as pit_tasks
from casino.pit.heads import OTHER_ANCHORS
from tests.builders.ledger import behind_the_applications_back
from tests.builders.pit import DRAW, NOON, record_next, seat

T1 = NOON
T2 = NOON + dt.timedelta(hours=1)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def heads_dir(settings, tmp_path):
    settings.LEDGER_HEADS_DIR = str(tmp_path / "heads")
    return tmp_path / "heads"


@pytest.fixture
def played(people):
    """T1 with a game of three jogos (seq 1-4 the opening buy-ins, 5-7 the jogos)."""
    staff, t1, t2 = people
    game = seat(t1, staff["dealer"])
    jogos = [record_next(game, staff["dealer"], **fields) for fields in ({}, DRAW, DRAW)]
    return staff, t1, game, jogos


def saved(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def ledger_alerts():
    return Alert.objects.standing().filter(rule=LEDGER)


# --- The heads, write-once -------------------------------------------------------------------------


def test_the_heads_are_saved_to_a_new_read_only_file_named_by_the_time(played, heads_dir):
    staff, t1, game, jogos = played
    path = tasks.save_heads(at=T1)

    assert path.parent == heads_dir and path.name == "heads-20261121T040000.000000Z.json"  # noon in Macau
    assert stat.S_IMODE(path.stat().st_mode) == 0o444  # no one's to write (root writes whatever the mode)
    assert saved(path)["taken_at"] == "2026-11-21T04:00:00+00:00"
    assert [(t["table"], t["seq"], t["hash"]) for t in saved(path)["tables"]] == [("T1", 7, jogos[-1].hash)]


def test_a_second_save_makes_a_new_file_and_leaves_the_first_as_it_was(played, heads_dir):
    staff, t1, game, jogos = played
    first = tasks.save_heads(at=T1)
    before = first.read_bytes()
    later = record_next(game, staff["dealer"], **DRAW)
    second = tasks.save_heads(at=T2)

    assert sorted(p.name for p in heads_dir.iterdir()) == [first.name, second.name]
    assert first.read_bytes() == before
    assert saved(second)["tables"][0]["seq"] == 8 and saved(second)["tables"][0]["hash"] == later.hash
    assert tasks.latest_heads() == second


def test_a_saved_heads_file_is_never_overwritten(played, heads_dir):
    first = tasks.save_heads(at=T1)
    before = first.read_bytes()
    record_next(played[2], played[0]["dealer"], **DRAW)

    with pytest.raises(FileExistsError):
        tasks.save_heads(at=T1)
    assert first.read_bytes() == before and len(list(heads_dir.iterdir())) == 1


def test_the_latest_heads_are_found_by_their_time_and_other_files_are_ignored(db, heads_dir):
    assert tasks.latest_heads() is None  # no folder yet
    heads_dir.mkdir()
    for at in (T2, T1, NOON + dt.timedelta(days=1, minutes=-1)):
        (heads_dir / tasks.heads_file_name(at)).write_text("{}")
    (heads_dir / "notes.txt").write_text("not heads")

    assert tasks.latest_heads().name == "heads-20261122T035900.000000Z.json"


def test_without_ledger_heads_dir_the_heads_are_not_saved_anywhere(db, settings):
    settings.LEDGER_HEADS_DIR = ""
    with pytest.raises(CommandError, match="LEDGER_HEADS_DIR is not set"):
        call_command("save_ledger_heads", stdout=StringIO())


# --- The nightly verification ----------------------------------------------------------------------


def test_an_intact_ledger_verified_against_its_saved_heads_raises_no_alert(played, heads_dir):
    tasks.save_heads(at=T1)
    record_next(played[2], played[0]["dealer"], **DRAW)  # the chain grew since: still through its head

    assert tasks.verify_ledger.apply().get() == []
    assert not ledger_alerts().exists()


def test_a_jogo_changed_behind_the_applications_back_raises_the_ledgers_alert(played, heads_dir):
    staff, t1, game, jogos = played
    behind_the_applications_back("UPDATE pit_jogo SET declared_fan = 3 WHERE id = %s", [jogos[0].pk])

    found = tasks.verify_ledger.apply().get()

    assert len(found) == 1 and "jogo 1" in found[0] and "does not match its hash" in found[0]
    alert = ledger_alerts().get()
    assert alert.table is None and alert.params["problems"] == 1 and alert.params["first"] == found


def test_a_truncated_tail_only_the_saved_heads_catch_raises_the_ledgers_alert(played, heads_dir):
    """The last jogo deleted and the table's head rewound: the chain alone still checks; the heads
    saved the night before do not."""
    staff, t1, game, jogos = played
    tasks.save_heads(at=T1)
    before_last = jogos[-2]
    behind_the_applications_back("DELETE FROM pit_jogo WHERE id = %s", [jogos[-1].pk])
    behind_the_applications_back("UPDATE pit_table SET ledger_seq = %s, ledger_head = %s, jogos_recorded = 2, "
                                 "game_jogos = 2 WHERE id = %s", [before_last.seq, before_last.hash, t1.pk])
    assert tasks.verify().found == []  # no heads: the chain alone

    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match="ledger broken at 1 place"):
        call_command("nightly_verify", stdout=out, stderr=err)

    assert "BROKEN table T1 (Casino Lisboa), saved head at ledger seq 7" in err.getvalue()
    assert "no longer exists" in ledger_alerts().get().params["first"][0]


def test_a_heads_file_that_cannot_be_read_is_a_finding(played, heads_dir):
    heads_dir.mkdir()
    (heads_dir / tasks.heads_file_name(T1)).write_text("not json")

    found = tasks.verify_and_alert().found

    assert len(found) == 1 and found[0].startswith("the saved heads heads-20261121T040000.000000Z.json cannot be read")
    assert ledger_alerts().count() == 1


def test_a_verification_that_finds_nothing_clears_the_ledgers_alert(played, heads_dir):
    staff, t1, game, jogos = played
    heads_dir.mkdir()
    bad = heads_dir / tasks.heads_file_name(T1)
    bad.write_text("not json")
    tasks.verify_and_alert()
    assert ledger_alerts().count() == 1
    tasks.save_heads(at=T2)  # a good file, saved later

    out = StringIO()
    call_command("nightly_verify", stdout=out)

    assert f"ledger intact: 2 table(s) checked, through the heads saved in {heads_dir / tasks.heads_file_name(T2)}" \
        in out.getvalue()
    assert not ledger_alerts().exists()


# --- Commands and the schedule ---------------------------------------------------------------------


def test_each_job_runs_as_a_command(played, heads_dir):
    out = StringIO()
    call_command("save_ledger_heads", stdout=out)
    call_command("nightly_verify", stdout=out)
    call_command("floor_tick", stdout=out)

    (path,) = heads_dir.iterdir()
    assert f"ledger heads saved to {path}" in out.getvalue()
    assert "ledger intact: 2 table(s) checked, through the heads saved in" in out.getvalue()
    assert "alerts raised" in out.getvalue()


def test_the_tick_task_runs_the_alerts_tick(db):
    assert tasks.tick.apply().get() == {"raised": 0, "cleared": 0, "escalated": 0}


def test_floor_tick_refuses_a_period_that_is_not_positive(db):
    with pytest.raises(CommandError, match="positive"):
        call_command("floor_tick", "--every", "0")


def test_beat_schedules_real_tasks_the_tick_every_minute_and_the_nightly_jobs_once_a_day():
    schedule = django_settings.CELERY_BEAT_SCHEDULE

    assert {entry["task"] for entry in schedule.values()} <= set(app.tasks)
    assert {entry["task"] for entry in schedule.values()} == {tasks.tick.name, tasks.save_ledger_heads.name,
                                                             tasks.verify_ledger.name, pit_tasks.make_partitions.name}
    assert schedule["floor-tick"]["schedule"] == 60.0
    # Macau time; the gaming day starts at 06:00: verified at 05:30 against the heads saved at 06:05.
    assert django_settings.CELERY_TIMEZONE == "Asia/Macau"
    assert schedule["verify-ledger"]["schedule"] == crontab(hour=5, minute=30)
    assert schedule["save-ledger-heads"]["schedule"] == crontab(hour=6, minute=5)
    # The ledger's months ahead (PostgreSQL), an hour into the gaming day.
    assert schedule["ledger-partitions"]["schedule"] == crontab(hour=7, minute=0)


def test_the_nightly_tasks_are_acknowledged_when_done_and_retried_when_the_database_fails():
    for task in (tasks.save_ledger_heads, tasks.verify_ledger):
        assert task.acks_late and task.max_retries == 5
    assert tasks.tick.acks_late


def test_without_redis_the_tasks_run_eagerly_and_with_it_redis_is_the_broker():
    program = ("import json, django; django.setup(); from casino.celery import app; "
               "print(json.dumps([app.conf.broker_url, app.conf.task_always_eager]))")
    base = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env = {**base, "DJANGO_SETTINGS_MODULE": "casino.settings", "DJANGO_DEBUG": "1"}

    def conf(**extra):
        done = subprocess.run([sys.executable, "-c", program], cwd=REPO, env={**env, **extra}, capture_output=True,
                              text=True, check=True)
        return json.loads(done.stdout.strip().splitlines()[-1])

    assert conf() == ["memory://", True]
    assert conf(REDIS_URL="redis://127.0.0.1:6379/5") == ["redis://127.0.0.1:6379/5", False]


def test_the_heads_saved_are_what_ledger_heads_writes_every_chain_included(played, heads_dir):
    """The count's chains and the alerts' are in the same file, as `ledger_heads` writes it."""
    path = tasks.save_heads(at=T1)
    out = StringIO()
    call_command("ledger_heads", "--out", "-", stdout=out)
    written = json.loads(out.getvalue())

    assert set(saved(path)) == {"format", "taken_at", "tables"} | {anchor.section for anchor in OTHER_ANCHORS}
    assert {**saved(path), "taken_at": None} == {**written, "taken_at": None}
