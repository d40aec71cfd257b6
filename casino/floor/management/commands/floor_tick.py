import logging
import time

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from casino.floor.alerts import tick

log = logging.getLogger("casino.floor")


class Command(BaseCommand):
    help = ("Run the floor's time-based alert rules once: raise what time has made true (an idle table, a box "
            "left uncounted, a stale correction), clear the alerts whose condition ended, escalate those left "
            "unacknowledged. With --every SECONDS, run them again every SECONDS until stopped, as `make run` "
            "does; in production Celery beat runs them every minute (docs/operations.md).")

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, metavar="SECONDS",
                            help="run again every SECONDS until stopped (a failed run is logged and the next tried)")

    def handle(self, *args, every: float | None = None, **options):
        if every is None:
            done = tick()
            self.stdout.write(f"alerts raised {done['raised']}, cleared {done['cleared']}, "
                              f"escalated {done['escalated']}")
            return
        if every <= 0:
            raise CommandError("--every must be a positive number of seconds")
        try:
            while True:
                started = time.monotonic()
                close_old_connections()  # as a request would: a long-running loop keeps no dead connection
                try:
                    done = tick()
                    if options["verbosity"] > 1:
                        self.stdout.write(f"alerts raised {done['raised']}, cleared {done['cleared']}, "
                                          f"escalated {done['escalated']}")
                        self.stdout.flush()
                except Exception:
                    log.exception("the floor's tick failed; the next runs in %s s", every)
                time.sleep(max(0.0, every - (time.monotonic() - started)))
        except KeyboardInterrupt:
            pass
