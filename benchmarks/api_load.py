"""Recording under load (issue 13 §8): 20 tables each posting 2 jogos a second through gunicorn
(3 workers) and PostgreSQL on this machine. Targets: at most 5 ms of server time per jogo in
the service, and POST p99 at most 50 ms.

It makes a throwaway PostgreSQL database (default `casino_load`, dropped first), seats a game at
each table through the service, then:

1. times the recording service alone, in this process: `services.record_jogo` for draws;
2. starts gunicorn on a free loopback port and sends an open-loop, paced load: each table's jogo
   k is due at start + k / rate, whatever happened to the ones before (a table's jogos go one
   after another, as at a real table, so a late answer delays the next request: its latency is
   counted from when it was due, not from when it was sent). The tables are not in step: each
   starts at its own moment of the first period (`--phases`, random by default, seeded);
3. prints p50, p95 and p99 of the POSTs, and beside them the load generator's own lateness (when
   each request was sent, against when it was due) and the server's time for each POST as its
   request log has it, so that time spent queueing or in the generator shows as the difference;
   then runs verify_ledger on the database.

Every request goes to 127.0.0.1 only, and the run is bounded in count and time.

    .venv/bin/python benchmarks/api_load.py                 # 20 tables x 2 jogos/s for 30 s
    .venv/bin/python benchmarks/api_load.py --seconds 10 --tables 5
    .venv/bin/python benchmarks/api_load.py --phases together   # every table's jogo at the same instant
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
SERVER = "postgres://postgres@127.0.0.1:5432"
CAPITAL = 100_000  # each player's opening capital (draws never move it): below the large-transaction threshold


def _setup(database: str) -> None:
    os.environ["DATABASE_URL"] = f"{SERVER}/{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # run as on a developer's machine (casino/settings.py)
    import django
    django.setup()


def build(database: str, tables: int) -> tuple[str, list[tuple[int, dict]]]:
    """A fresh database with `tables` tables, a game seated at each; the API token of a dealer
    assigned to all of them, and each table's draw record."""
    import psycopg
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}"')
        conn.execute(f'CREATE DATABASE "{database}"')
    _setup(database)
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from casino.pit import selectors, services
    from casino.pit.models import Casino, Table
    from casino.pit.roles import DEALER, SUPERVISOR
    call_command("migrate", verbosity=0)
    dealer = User.objects.create_user("load-dealer")
    dealer.groups.add(Group.objects.get(name=DEALER))
    supervisor = User.objects.create_user("load-supervisor")  # witnesses the seating buy-ins
    supervisor.groups.add(Group.objects.get(name=SUPERVISOR))
    casino = Casino.objects.create(name="Load casino")
    casino.staff.add(dealer, supervisor)  # the casino their roles apply at (docs/casinos.md)
    made = []
    for index in range(tables):
        table = Table.objects.create(casino=casino, number=f"L-{index + 1:02d}", variant="conventional", stake=25)
        table.staff.add(dealer, supervisor)
        _on_rotation(table, dealer, supervisor)
        game = services.start_game(table=table, user=dealer, players=[{"chair": c, "name": f"P{c}", "capital": CAPITAL}
                                                          for c in range(4)], first_banker=0, witness=supervisor)
        made.append((table.pk, {**selectors.record_header(game), "result": "draw"}))
    token = Token.objects.create(user=dealer).key
    from django.db import connections
    connections.close_all()
    return token, made


def _on_rotation(table, dealer, supervisor) -> None:
    """The dealer on the table's rotation from the start of today's gaming day, entered by the
    supervisor: a dealer records only while the rotation has him on the table (docs/count.md)."""
    from django.utils import timezone

    from casino.count import services as count_services
    from casino.pit import days

    now = timezone.now()
    count_services.rotation_start(table=table, person=dealer, starts_at=days.day_bounds(days.gaming_day(now))[0],
                                  user=supervisor, at=now)


def time_service(database: str, jogos: int) -> tuple[list[float], list[float]]:
    """Milliseconds per `services.record_jogo` of a draw, in this process, on one extra table:
    wall clock, and this process's CPU time (the service's own work without the database's,
    and far less disturbed than the wall clock by other work on a shared machine)."""
    from django.contrib.auth.models import User

    from casino.pit import selectors, services
    from casino.pit.models import Casino, Table
    dealer, supervisor = User.objects.get(username="load-dealer"), User.objects.get(username="load-supervisor")
    table = Table.objects.create(casino=Casino.objects.get(), number="L-service", variant="conventional", stake=25)
    table.staff.add(dealer, supervisor)
    _on_rotation(table, dealer, supervisor)
    game = services.start_game(table=table, user=dealer, players=[{"chair": c, "name": f"P{c}", "capital": CAPITAL}
                                                      for c in range(4)], first_banker=0, witness=supervisor)
    record = {**selectors.record_header(game), "result": "draw"}
    times, cpu = [], []
    for number in range(jogos):
        started, started_cpu = time.perf_counter(), time.process_time()
        services.record_jogo(table=table, user=dealer, record=record, idempotency_key=f"service-{number}")
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        if selectors.open_game(table) is None:  # not with draws, but never record into no game
            break
    return times, cpu


def workers_cpu(server: subprocess.Popen) -> float:
    """Seconds of CPU the gunicorn workers (the server's children) have used so far (Linux)."""
    try:
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        total = 0
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
        return total / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_gunicorn(database: str, port: int, workers: int, threads: int = 1, via: str = SERVER) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": f"{via}/{database}", "DJANGO_DEBUG": "0",
           "DJANGO_SECRET_KEY": "load-benchmark-" + "x" * 50, "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
           "DJANGO_SSL_REDIRECT": "0"}
    # The site logs a line per request to standard error: to a file, never to a pipe nobody reads.
    log = tempfile.NamedTemporaryFile(prefix="api_load-", suffix=".log", delete=False)
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "casino.wsgi", "--workers", str(workers),
                               "--threads", str(threads),
                               "--bind", f"127.0.0.1:{port}", "--log-level", "warning"], cwd=REPO, env=env,
                              stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    server.log_path = log.name
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not start: " + Path(server.log_path).read_text()[-2000:])


def warm_up(port: int, token: str, requests: int) -> None:
    """A few reads first, so that each worker has loaded the application before the clock starts."""
    for _ in range(requests):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", "/api/v1/tables/", headers={"Authorization": f"Token {token}"})
        connection.getresponse().read()
        connection.close()


def drive(port: int, token: str, table_id: int, record: dict, rate: float, seconds: float, start: float,
          latencies: list[float], lateness: list[float], failures: list[str], stop_at: float) -> None:
    """Post the table's draws on schedule, the first due at `start`; each latency is counted
    from the time it was due."""
    body = json.dumps(record).encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    number = 1  # the table's next jogo number (Jogo-Number): a fresh table's first jogo is 1
    for k in range(int(seconds * rate)):
        due = start + k / rate
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        if time.monotonic() > stop_at:
            failures.append("not sent: the run's time limit was reached")
            break
        lateness.append((time.monotonic() - due) * 1000)
        try:
            connection.request("POST", f"/api/v1/tables/{table_id}/jogos/", body=body,
                               headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                                        "Idempotency-Key": uuid.uuid4().hex, "Jogo-Number": str(number)})
            response = connection.getresponse()
            answer = response.read()
        except (OSError, http.client.HTTPException) as error:
            failures.append(f"{type(error).__name__}: {error}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            continue
        latencies.append((time.monotonic() - due) * 1000)
        if response.status == 201:
            number += 1
        else:
            failures.append(f"HTTP {response.status}: {answer[:300]!r}")
    connection.close()


def server_durations(log_path: str) -> list[float]:
    """The POSTs' durations as the site's request log has them (from its first middleware in to
    the response out): the time the server spent, without queueing, connecting or the client."""
    durations = []
    with open(log_path, encoding="utf-8") as log:
        for line in log:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("method") == "POST" and "duration_ms" in entry:
                durations.append(float(entry["duration_ms"]))
    return durations or [float("nan")]


def phases(tables: int, rate: float, how: str) -> list[float]:
    """Each table's first jogo's delay after the start, in seconds, within one period (1 / rate).
    Tables are independent: nobody keeps twenty dealers in step, so by default each table starts at
    a random moment of the period (seeded, the same every run). `spread` spaces them evenly (the
    best case), `together` starts them all at once: every period, all the tables' jogos then come
    in the same instant (the worst case, a burst no casino floor makes)."""
    period = 1 / rate
    if how == "together":
        return [0.0] * tables
    if how == "spread":
        return [index * period / tables for index in range(tables)]
    chance = random.Random(13)
    return [chance.uniform(0, period) for _ in range(tables)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database", default="casino_load")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rate", type=float, default=2.0, help="jogos per second at each table")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (1: the sync worker)")
    parser.add_argument("--service-jogos", type=int, default=300)
    parser.add_argument("--phases", choices=("random", "spread", "together"), default="random",
                        help="when each table's first jogo is due within the first period (see phases())")
    parser.add_argument("--via", default=SERVER, metavar="URL",
                        help="the server gunicorn's workers connect through, e.g. a PgBouncer in front of PostgreSQL "
                             f"(postgres://postgres@127.0.0.1:6432; default: PostgreSQL itself, {SERVER})")
    args = parser.parse_args()

    token, tables = build(args.database, args.tables)
    times, cpu = time_service(args.database, args.service_jogos)
    print(f"services.record_jogo of a draw, in-process on PostgreSQL: median {statistics.median(times):.2f} ms, "
          f"p95 {percentile(times, 95):.2f} ms over {len(times)} jogos; CPU of this process: median "
          f"{statistics.median(cpu):.2f} ms; load average {os.getloadavg()[0]:.1f}")

    port = free_port()
    server = start_gunicorn(args.database, port, args.workers, args.threads, args.via)
    latencies: list[float] = []
    lateness: list[float] = []
    failures: list[str] = []
    warm_up(port, token, 4 * args.workers)
    stop_at = time.monotonic() + args.seconds + 60  # a hard bound on the whole run
    try:
        begin = time.monotonic() + 0.1
        threads = [threading.Thread(target=drive, args=(port, token, table_id, record, args.rate, args.seconds,
                                                        begin + offset, latencies, lateness, failures, stop_at))
                   for (table_id, record), offset in zip(tables, phases(len(tables), args.rate, args.phases))]
        started, cpu_before = time.monotonic(), workers_cpu(server)
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(1.0, stop_at - time.monotonic()))
        elapsed = time.monotonic() - started
        server_cpu = workers_cpu(server) - cpu_before
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    print(f"POST /api/v1/tables/{{id}}/jogos/: {len(latencies)} answered in {elapsed:.1f} s "
          f"({args.tables} tables x {args.rate:g}/s, phases {args.phases}, "
          f"gunicorn {args.workers} workers x {args.threads} thread(s), {os.cpu_count()} cores); "
          f"p50 {percentile(latencies, 50):.1f} ms, p95 {percentile(latencies, 95):.1f} ms, "
          f"p99 {percentile(latencies, 99):.1f} ms, max {max(latencies):.1f} ms; {len(failures)} failure(s); "
          f"load average {os.getloadavg()[0]:.1f}; "
          f"the workers' CPU: {server_cpu / max(1, len(latencies)) * 1000:.1f} ms a request")
    served = server_durations(server.log_path)
    print(f"  the generator's lateness (sent - due): p50 {percentile(lateness, 50):.1f} ms, "
          f"p99 {percentile(lateness, 99):.1f} ms; "
          f"server time (request log): p50 {percentile(served, 50):.1f} ms, p95 {percentile(served, 95):.1f} ms, "
          f"p99 {percentile(served, 99):.1f} ms")
    for failure in sorted(set(failures))[:10]:
        print("  failure:", failure)
    env = {**os.environ, "DATABASE_URL": f"{SERVER}/{args.database}"}
    verified = subprocess.run([sys.executable, "manage.py", "verify_ledger", "--no-progress"], cwd=REPO, env=env,
                              capture_output=True, text=True)
    print((verified.stdout or verified.stderr).strip().splitlines()[-1])
    if failures or verified.returncode:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
