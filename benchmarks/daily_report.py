"""Speed of the daily report from a running server: 40 tables × 150 jogos = 6,000 jogos in one
gaming day, with the reconciliation of its commission boxes: every table-shift's box (40 × 3)
counted by two counters, some over, some short, their cases opened.

Builds the day in a throwaway database through the recording service itself (the honest path:
every jogo validated, scored, chained and carried by `casino.pit.services.record_jogo`, so the
ledger is one `verify_ledger` accepts). Then, from gunicorn on 127.0.0.1 (DEBUG off, as in
production), it times the open day's report, printed on demand and marked PROVISIONAL (a
worker's first and `--runs` more, each language), closes the day through the service (its report
printed in the three languages and stored inside the close: timed), and downloads the closed
day's stored report `--downloads` times a language, each checked byte for byte against the
stored file and its SHA-256 ETag. The aim: a closed day's report downloads in under 100 ms (the
median, in the slowest language); the run fails otherwise.

    .venv/bin/python benchmarks/daily_report.py                 # SQLite file in /tmp
    .venv/bin/python benchmarks/daily_report.py --postgres      # database casino_reports_bench
    options: --tables 40 --jogos 150 --lang en pt zh-hant --runs 3 --downloads 20 --rebuild
             --out /tmp/report.pdf --port 8765 --workers 2
             --database URL (another database than the two above)

Building takes a minute or two; the database is kept and reused while it holds the same day
(--rebuild builds it again). Each run reopens the day and closes it again: the stored reports of
the former closes stay, as they do in a casino.
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import secrets
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DAY = dt.date(2026, 11, 21)
SQLITE = "sqlite:////tmp/mahjong-bench-daily-report.sqlite3"
POSTGRES = "postgres://postgres@127.0.0.1:5432/casino_reports_bench"
LOG = Path("/tmp/mahjong-bench-daily-report-gunicorn.log")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--jogos", type=int, default=150, help="jogos per table")
    parser.add_argument("--lang", nargs="+", default=["en", "pt", "zh-hant"], choices=["en", "pt", "zh-hant"])
    parser.add_argument("--runs", type=int, default=3, help="provisional reports timed per language, after the first")
    parser.add_argument("--downloads", type=int, default=20, help="closed-day downloads timed per language")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's workers")
    parser.add_argument("--postgres", action="store_true", help=f"use {POSTGRES} instead of SQLite")
    parser.add_argument("--rebuild", action="store_true", help="build the day again even if it is there")
    parser.add_argument("--out", type=Path, default=Path("/tmp/mahjong-bench-daily-report.pdf"))
    parser.add_argument("--database", help="a database URL instead of the default SQLite file or PostgreSQL database")
    return parser.parse_args()


def create_postgres_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = 'casino_reports_bench'").fetchone():
            connection.execute("CREATE DATABASE casino_reports_bench")


def setup(args: argparse.Namespace) -> None:
    os.environ["DATABASE_URL"] = args.database or (POSTGRES if args.postgres else SQLITE)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    # Production's settings, for this process and the server it starts (they share the session):
    # DEBUG off, a throwaway secret key, plain HTTP on 127.0.0.1.
    os.environ.update(DJANGO_DEBUG="0", DJANGO_SECRET_KEY=secrets.token_urlsafe(40),
                      DJANGO_ALLOWED_HOSTS="127.0.0.1", DJANGO_SSL_REDIRECT="0")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # run as on a developer's machine (casino/settings.py)
    if args.postgres:
        create_postgres_database()
    elif args.rebuild:
        Path(os.environ["DATABASE_URL"].removeprefix("sqlite:///")).unlink(missing_ok=True)
    import django
    from django.core.management import call_command

    django.setup()
    from django.conf import settings

    # The counters sign with their password: in a throwaway database the fast hasher will do.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)
    from django.db import connection

    # A throwaway database: commits need not wait for the disk while the day is built.
    with connection.cursor() as cursor:
        postgres = connection.vendor == "postgresql"
        cursor.execute("SET synchronous_commit TO OFF" if postgres else "PRAGMA synchronous = OFF")


def scripts():
    """What each table plays, in turn: the demo's records (casino/pit/demo.py)."""
    from casino.pit import demo

    conventional = [demo.CHICKEN, demo.DRAW, demo.DRAGON_SELF_DRAWN, demo.PURE_ONE_SUIT, demo.FALSE_WIN,
                    demo.CHICKEN, demo.PAY_ALL, demo.MISDECLARED]

    def simplified(seats: list[str], index: int) -> dict:
        result = ("win", "draw", "win", "false_win")[index % 4]
        if result == "win":
            return {"result": "win", "winner": seats[-1], "discarder": None, "declared_fan": 1,
                    "hand": {"concealed": "1m2m3m6z", "winning_tile": "6z"}}
        if result == "false_win":
            return {"result": "false_win", "false_win": {"seat": seats[0]}, "declared_fan": None}
        return {"result": "draw", "declared_fan": None}

    return conventional, simplified


def build(tables: int, jogos: int) -> None:
    """`tables` tables (three in four conventional, at every tier in turn) each recording `jogos`
    jogos through the service, spread over the gaming day from 06:00."""
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from casino.count import services as count_services
    from casino.pit import selectors, services
    from casino.pit.models import Casino, Jogo, Table
    from regulation import CURRENT

    if Jogo.objects.filter(gaming_day=DAY).count() == tables * jogos:
        print(f"reusing the day in the database: {tables * jogos} jogos")
        return
    if Jogo.objects.exists():
        sys.exit("the benchmark database holds another day: run with --rebuild (SQLite) or drop "
                 "casino_reports_bench (PostgreSQL)")
    started = time.perf_counter()
    dealer = User.objects.create_user("bench-dealer")
    dealer.groups.add(Group.objects.get(name="dealer"))
    supervisor = User.objects.create_user("bench-supervisor")  # witnesses the seating buy-ins, keeps the rotation
    supervisor.groups.add(Group.objects.get(name="supervisor"))
    casino = Casino.objects.create(name="Casino Benchmark")
    conventional, simplified = scripts()
    day_start = timezone.make_aware(dt.datetime.combine(DAY, dt.time(6, 0)))
    step = dt.timedelta(hours=23) / jogos
    for number in range(tables):
        variant = "simplified" if number % 4 == 3 else "conventional"
        tiers = CURRENT.tiers(variant)
        table = Table.objects.create(casino=casino, number=f"M-{number + 1:02d}", variant=variant,
                                     stake=tiers[number % len(tiers)])
        table.staff.add(dealer, supervisor)
        count_services.rotation_start(table=table, person=dealer, starts_at=day_start, user=supervisor, at=day_start)
        game = None
        for index in range(jogos):
            when = day_start + index * step + dt.timedelta(seconds=number)
            if game is None or selectors.open_game(table) is None:  # the North round ended the last one (I-2)
                # 400 × X, at most 400,000: above the seat's minimum capital (24 × X at most, rule C-1),
                # below the large-transaction threshold (a player known by his name alone, rule C-2).
                capital = min(400 * table.stake, 400_000)
                game = services.start_game(table=table, user=dealer, first_banker=0, at=when, witness=supervisor,
                                           players=[{"chair": chair, "name": f"Player {chair + 1}", "capital": capital}
                                                    for chair in range(4)])
            if variant == "conventional":
                fields = {"result": "win", **conventional[index % len(conventional)]}
            else:
                fields = simplified(list(selectors.standing(game).progress.seats), index)
            services.record_jogo(table=table, user=dealer, record={**selectors.record_header(game), **fields}, at=when)
        print(f"\rbuilt table {number + 1}/{tables}", end="", flush=True)
    print(f"\nbuilt {tables} tables × {jogos} jogos through the service in {time.perf_counter() - started:.1f} s")


def count_boxes() -> None:
    """Count every table-shift's box of the day through the count's services: two counters sign
    each; one box in five is counted 600 over and one in seven 700 short (beyond the thresholds:
    their cases open), the rest exact. Skipped when the boxes are counted already."""
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from casino.count import services
    from casino.count.models import Count
    from casino.pit.models import Casino

    casino = Casino.objects.get(name="Casino Benchmark")
    if Count.objects.filter(box__gaming_day=DAY).exists():
        print(f"reusing the counted boxes: {Count.objects.filter(box__gaming_day=DAY).count()} counts")
        return
    started = time.perf_counter()
    counters = []
    for name in ("bench-counter-1", "bench-counter-2"):
        counter = User.objects.create_user(name, password="bench")
        counter.groups.add(Group.objects.get(name="counter"))
        counters.append(counter)
    at = timezone.now()
    boxes = services.boxes_ready(casino=casino, now=at, day=DAY)
    for index, box in enumerate(boxes):
        expected = services.expected_commission(box)
        counted = expected + 600 if index % 5 == 0 else max(expected - 700, 0) if index % 7 == 0 else expected
        for counter in counters:
            services.sign_count(box=box, user=counter, password="bench", counted=counted, at=at)
    print(f"counted {Count.objects.filter(box__gaming_day=DAY).count()} boxes through the services in "
          f"{time.perf_counter() - started:.1f} s")


def report_once(casino, language: str):
    """Print the open day's report once in this process: (summary, pdf, seconds for the selectors,
    the template, WeasyPrint)."""
    from casino.printing import render_pdf
    from casino.reports.pdf import PROVISIONAL, report_html
    from casino.reports.selectors import daily_summary

    started = time.perf_counter()
    summary = daily_summary(casino, DAY)
    selected = time.perf_counter()
    html = report_html(summary, language=language, mark=PROVISIONAL)
    rendered = time.perf_counter()
    pdf = render_pdf(html)
    return summary, pdf, (selected - started, rendered - selected, time.perf_counter() - rendered)


def parts(seconds: tuple[float, ...]) -> str:
    return (f"{sum(seconds):.2f} s (selectors {seconds[0]:.2f}, template {seconds[1]:.2f}, "
            f"WeasyPrint {seconds[2]:.2f})")


class Server:
    """gunicorn serving the site from the benchmark's database on 127.0.0.1, as in production
    (DEBUG off, two sync workers for the two cores), and a manager's session to ask it with."""

    def __init__(self, port: int, workers: int):
        from importlib import import_module

        from django.conf import settings
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.auth.models import Group, User

        manager, _ = User.objects.get_or_create(username="bench-manager")
        manager.groups.add(Group.objects.get(name="manager"))
        session = import_module(settings.SESSION_ENGINE).SessionStore()
        session.update({SESSION_KEY: str(manager.pk), HASH_SESSION_KEY: manager.get_session_auth_hash(),
                        BACKEND_SESSION_KEY: next(backend for backend in settings.AUTHENTICATION_BACKENDS
                                                  if not backend.startswith("axes."))})
        session.save()
        self.manager, self.cookie = manager, f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
        self.language_cookie = settings.LANGUAGE_COOKIE_NAME
        self.base = f"http://127.0.0.1:{port}"
        self.log = LOG.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "casino.wsgi", "--bind", f"127.0.0.1:{port}", "--workers",
             str(workers), "--timeout", "300", "--log-level", "warning"],
            cwd=ROOT, env=os.environ.copy(), stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 180
        while True:
            try:
                self.get("/healthz")
                return
            except OSError as error:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    sys.exit(f"gunicorn did not answer ({error}): see {LOG}")
                time.sleep(0.2)

    def get(self, path: str, language: str = "en") -> tuple[float, bytes, dict[str, str]]:
        """One request on a new connection, as a browser's download: (seconds, body, headers)."""
        request = urllib.request.Request(self.base + path, headers={
            "Cookie": f"{self.cookie}; {self.language_cookie}={language}"})
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=120) as response:
            body = response.read()
            return time.perf_counter() - started, body, dict(response.headers)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


def close_the_day(casino, manager) -> float:
    """Close the day through the service, as a manager does: its report is printed in each
    language and stored inside the close. Seconds."""
    from casino.pit import services

    started = time.perf_counter()
    services.close_day(casino=casino, day=DAY, user=manager, note="benchmark",
                       override_reason="benchmark: boxes not all counted")
    return time.perf_counter() - started


def spread(values: list[float]) -> str:
    values = sorted(values)
    return f"median {1000 * statistics.median(values):.0f} ms, slowest {1000 * values[-1]:.0f} ms"


def measure(args: argparse.Namespace) -> None:
    """From a running server: the open day's provisional report (a worker's first, then warm),
    closing the day (its three reports printed and stored), then the closed day's stored report
    (`--downloads` a language: their median and the slowest, each checked byte for byte)."""
    import hashlib

    from django.db import connection

    from casino.pit import services
    from casino.pit.models import Casino, GamingDay
    from casino.reports.archive import stored_report

    casino = Casino.objects.get(name="Casino Benchmark")
    print(f"database: {connection.vendor}")
    summary, pdf, seconds = report_once(casino, args.lang[0])
    boxes = summary.reconciliation
    print(f"the day: {summary.totals.jogos} current jogos at {len(summary.tables)} tables, commission "
          f"{summary.totals.commission}; {len(boxes.lines)} table-shifts, {boxes.open_cases} open cases; "
          f"{len(pdf):,} bytes\n  made in this process ({args.lang[0]}): {parts(seconds)}")
    server = Server(args.port, args.workers)
    try:
        url = f"/reports/{casino.pk}/{DAY.isoformat()}/daily-report.pdf"
        if GamingDay.objects.filter(casino=casino, day=DAY, closed=True).exists():  # closed by a former run
            services.reopen_day(casino=casino, day=DAY, user=server.manager, reason="benchmark: print it open")
        print(f"an open day's report, printed on demand (PROVISIONAL), from gunicorn ({args.workers} workers):")
        for language in args.lang:
            first = server.get(url, language)[0]  # each worker's first prints once the fonts are loaded
            warm = [server.get(url, language)[0] for _ in range(args.runs)]
            print(f"  {language}: first {first:.2f} s; then {args.runs} runs: median {statistics.median(warm):.2f} s, "
                  f"slowest {max(warm):.2f} s")
        closing = close_the_day(casino, server.manager)
        print(f"closing the day, its report printed in its three languages and stored inside the close: "
              f"{closing:.2f} s")
        slowest = 0.0
        print(f"the closed day's stored report, from gunicorn, {args.downloads} downloads a language:")
        for language in args.lang:
            stored = stored_report(casino, DAY, language=language)
            times = []
            for _ in range(args.downloads):
                took, body, headers = server.get(url, language)
                if body != bytes(stored.pdf) or headers.get("ETag") != f'"{hashlib.sha256(body).hexdigest()}"':
                    sys.exit(f"{language}: the download is not the stored report")
                times.append(took)
            slowest = max(slowest, statistics.median(times))
            print(f"  {language}: {len(body):,} bytes, {spread(times)}; byte for byte the stored report")
            args.out.with_stem(f"{args.out.stem}-{language}").write_bytes(body)
        print(f"PDFs -> {args.out.with_stem(args.out.stem + '-*')}")
    finally:
        server.stop()
    if slowest >= 0.1:
        sys.exit(f"a closed day's report: median {1000 * slowest:.0f} ms, not under 100 ms")
    print(f"a closed day's report downloads in under 100 ms (median of the slowest language {1000 * slowest:.0f} ms)")


def main() -> None:
    args = arguments()
    setup(args)
    build(args.tables, args.jogos)
    count_boxes()
    measure(args)


if __name__ == "__main__":
    main()
