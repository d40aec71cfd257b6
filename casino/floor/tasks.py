"""The floor's scheduled work (casino/celery.py; beat's times in casino/settings.py):

- `tick`, every minute: the alert rules that fire because time passes (an idle table, a box left
  uncounted, a stale correction), the alerts whose condition ended cleared, the unacknowledged
  escalated (casino.floor.alerts.tick);
- `save_ledger_heads`, nightly: every chain's head (casino.pit.heads.snapshot) written to a new
  read-only file in LEDGER_HEADS_DIR, never over another;
- `verify_ledger`, nightly: the checks of `manage.py verify_ledger`, against the latest saved
  heads, and an alert for what it finds (docs/ledger.md: the chains and their saved ends).

Each is also a command an operator runs by hand: `floor_tick`, `save_ledger_heads`,
`nightly_verify`. Each may run twice without harm: the tick and the verification raise an alert
once for one condition, and a second save is one more anchor. The tasks are acknowledged only
when done (acks_late), so that a worker lost mid-task leaves it to another.
"""
from __future__ import annotations

import datetime as dt
import json
import os
from dataclasses import dataclass
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError
from django.utils import timezone

from casino.pit.heads import UnreadableHeads, departures, snapshot
from casino.pit.models import Table
from casino.pit.verify import OTHER_CHECKS, breaks

from . import alerts

PREFIX, SUFFIX = "heads-", ".json"


def heads_dir() -> Path:
    """LEDGER_HEADS_DIR, which production must set (casino/settings.py)."""
    if not settings.LEDGER_HEADS_DIR:
        raise ImproperlyConfigured("LEDGER_HEADS_DIR is not set: the nightly ledger heads have nowhere to be saved "
                                   "(docs/operations.md).")
    return Path(settings.LEDGER_HEADS_DIR)


def heads_file_name(at: dt.datetime) -> str:
    """The file of heads taken at `at`: its UTC time to the microsecond, so that names sort as times
    ("heads-20261125T220500.123456Z.json")."""
    return f"{PREFIX}{at.astimezone(dt.UTC):%Y%m%dT%H%M%S.%f}Z{SUFFIX}"


def save_heads(*, at: dt.datetime | None = None, directory: Path | None = None) -> Path:
    """Write every chain's head to a new file of `directory` (LEDGER_HEADS_DIR), named by the
    time, and return its path. The file is created read-only and only if no file has its name
    (O_EXCL): a saved anchor is never overwritten; a name taken raises FileExistsError."""
    at = at or timezone.now()
    directory = directory or heads_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / heads_file_name(at)
    text = json.dumps(snapshot(at), indent=1, ensure_ascii=False) + "\n"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o444)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.chmod(path, 0o444)  # whatever the umask left of the mode asked
    return path


def latest_heads(directory: Path | None = None) -> Path | None:
    """The heads file saved last in `directory` (LEDGER_HEADS_DIR), by its name; None if none."""
    directory = directory or heads_dir()
    if not directory.is_dir():
        return None
    saved = sorted(p for p in directory.iterdir() if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX))
    return saved[-1] if saved else None


@dataclass(frozen=True)
class Verification:
    """What the nightly verification checked and found, in words (as verify_ledger prints it)."""

    heads: Path | None  # the saved heads checked against, if any
    tables: int
    found: list[str]
    summaries: list[str]


def verify(*, heads: Path | None = None, workers: int = 1) -> Verification:
    """verify_ledger's checks: every table's chain, jogos and money (casino.pit.verify.breaks),
    the chains' passage through the heads saved in `heads`, and the other apps' records
    (OTHER_CHECKS). A heads file that cannot be read is a finding, not a failure: someone may
    have changed it. One worker by default: a Celery worker's process may not start others."""
    tables = list(Table.objects.select_related("casino").order_by("pk"))
    found = [str(item) for item in breaks(tables, workers=workers)]
    if heads is not None:
        try:
            found += [str(item) for item in departures(json.loads(heads.read_text(encoding="utf-8")))]
        except (OSError, ValueError, UnreadableHeads) as error:
            found.append(f"the saved heads {heads.name} cannot be read: {error}")
    summaries = []
    for check in OTHER_CHECKS:
        checked = check()
        found += checked.found
        summaries.append(checked.summary)
    return Verification(heads, len(tables), found, summaries)


def verify_and_alert(*, at: dt.datetime | None = None, workers: int = 1) -> Verification:
    """The nightly verification: `verify` against the latest saved heads. What it finds raises
    the ledger's alert; a verification that finds nothing clears a standing one
    (`alerts.ledger_findings`)."""
    done = verify(heads=latest_heads(), workers=workers)
    alerts.ledger_findings(done.found, at=at or timezone.now())
    return done


# A database or file system that fails is retried; what a job finds is no failure.
RETRIED = {"autoretry_for": (DatabaseError, OSError), "retry_backoff": 60, "max_retries": 5,
           "acks_late": True}


@shared_task(name="casino.floor.tasks.tick", acks_late=True)
def tick() -> dict[str, int]:
    """Every minute: how many alerts it raised, cleared and escalated. Not retried: the next
    minute's tick does the same work."""
    return alerts.tick()


@shared_task(name="casino.floor.tasks.save_ledger_heads", **RETRIED)
def save_ledger_heads() -> str:
    """Nightly: the new heads file's name."""
    return save_heads().name


@shared_task(name="casino.floor.tasks.verify_ledger", **RETRIED)
def verify_ledger() -> list[str]:
    """Nightly: what the verification found, in words; empty when the ledger is intact."""
    return verify_and_alert().found
