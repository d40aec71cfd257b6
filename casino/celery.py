"""The Celery application: the scheduled work of casino/floor/tasks.py (the floor's tick every
minute, the nightly ledger heads and verification), run in production by a worker and beat with
Redis as the broker (`celery -A casino worker`, `celery -A casino beat`).

Its settings are Django's, those named CELERY_* (casino/settings.py): without REDIS_URL every
task runs eagerly, in the process that calls it, so that `make run` and the tests need no broker.
Imported by casino/__init__.py, so that the apps' tasks bind to it however Django was started."""
import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()  # each app's tasks.py, once Django's apps are ready


@signals.worker_init.connect
@signals.beat_init.connect
def _refuse_to_start_without_heads_dir(**kwargs) -> None:
    """The nightly heads must have somewhere to go: production sets LEDGER_HEADS_DIR (the web
    server does not need it, so only the processes that run the jobs refuse). SystemExit, for
    Celery logs any other exception of a signal's receiver and carries on."""
    from django.conf import settings

    if not settings.LEDGER_HEADS_DIR:
        raise SystemExit("LEDGER_HEADS_DIR is not set: the nightly ledger heads have nowhere to be saved "
                         "(docs/operations.md).")
