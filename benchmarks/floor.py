"""The live floor under load (issue 24 §2): 40 tables each recording 2 jogos a second (Poisson
arrivals) by HTTP POSTs to the site served through ASGI as in production (Daphne, casino.asgi),
and 20 floor views connected to /ws/floor/. The aim: every change reaches every open floor view
within 1 s of the event.

It makes a throwaway database (a SQLite file in /tmp, or the PostgreSQL database `casino_floorbench`,
dropped first, with the Redis channel layer: `--postgres`), seats a game at each of 40 tables, puts
a dealer on each table's rotation, starts Daphne on a free loopback port, then:

1. posts draws for `--seconds` with no floor view connected, and times the POSTs;
2. connects 20 floor views (a manager's API token; in a process of their own, so that reading
   1,600 messages a second does not share the load generator's interpreter), posts for as long
   again, and times the POSTs and, for each jogo, the time from when its POST was sent to when its
   event (`jogo_recorded`, carrying the table's card with the next jogo's number) reached each
   view: p50, p99 and the slowest, and how many never arrived.

Each table's jogos arrive as a Poisson process (exponential gaps, mean 1/rate, seeded), open-loop:
a jogo's POST latency counts from when it was due, not from when it was sent (a table's jogos go
one after another, as at a real table). Every request goes to 127.0.0.1 only, and the run is
bounded in count and time.

    .venv/bin/python benchmarks/floor.py                     # SQLite, the in-memory channel layer
    .venv/bin/python benchmarks/floor.py --postgres          # PostgreSQL and Redis (REDIS_URL or db 4)
    .venv/bin/python benchmarks/floor.py --seconds 10 --tables 10 --views 5
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
PG = "postgres://postgres@127.0.0.1:5432"
CAPITAL = 100_000  # each player's opening capital (draws never move it): below the large-transaction threshold


def environment(args) -> dict[str, str]:
    """The server's and the builder's settings: the database, and the channel layer (Redis with
    PostgreSQL, as in production; in memory with SQLite, as `make run`)."""
    env = {"DJANGO_SETTINGS_MODULE": "casino.settings", "DJANGO_DEBUG": "0",
           "DJANGO_SECRET_KEY": "floor-benchmark-" + "x" * 50, "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
           "DJANGO_SSL_REDIRECT": "0"}
    if args.postgres:
        env["DATABASE_URL"] = f"{PG}/{args.database}"
        env["REDIS_URL"] = args.redis
    else:
        env["DATABASE_URL"] = f"sqlite:///{args.sqlite}"
    return env


def build(args) -> tuple[str, list[tuple[int, dict, str]]]:
    """A fresh database with the tables, a game seated at each and its own dealer on its rotation;
    a manager's API token, and each table's (id, draw record, dealer's token)."""
    if args.postgres:
        import psycopg
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{args.database}"')
            conn.execute(f'CREATE DATABASE "{args.database}"')
        import redis
        redis.Redis.from_url(args.redis).flushdb()  # the benchmark's own Redis database
    else:
        Path(args.sqlite).unlink(missing_ok=True)
    os.environ.update(environment(args))
    os.environ["DJANGO_DEBUG"] = "1"  # building needs no production checks
    import django
    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from casino.count import services as count_services
    from casino.pit import selectors, services
    from casino.pit.models import Casino, Table
    from casino.pit.roles import DEALER, MANAGER, SUPERVISOR

    call_command("migrate", verbosity=0)
    manager = User.objects.create_user("floor-manager", first_name="Floor", last_name="Manager")
    manager.groups.add(Group.objects.get(name=MANAGER))
    supervisor = User.objects.create_user("floor-supervisor")
    supervisor.groups.add(Group.objects.get(name=SUPERVISOR))
    casino = Casino.objects.create(name="Floor casino")
    made = []
    now = timezone.now()
    for index in range(args.tables):
        table = Table.objects.create(casino=casino, number=f"F{index + 1:02d}", variant="conventional", stake=25,
                                     area=f"Pit {'ABCD'[index % 4]}")
        dealer = User.objects.create_user(f"floor-dealer-{index + 1:02d}")
        dealer.groups.add(Group.objects.get(name=DEALER))
        table.staff.add(dealer, supervisor)
        count_services.rotation_start(table=table, person=dealer, starts_at=now, user=supervisor, at=now)
        game = services.start_game(table=table, user=dealer, first_banker=0, at=now, witness=supervisor,
                                   players=[{"chair": c, "name": f"P{c}", "capital": CAPITAL} for c in range(4)])
        made.append((table.pk, {**selectors.record_header(game), "result": "draw"},
                     Token.objects.create(user=dealer).key))
    token = Token.objects.create(user=manager).key
    from django.db import connections
    connections.close_all()
    return token, made


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_daphne(args, port: int) -> subprocess.Popen:
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "DATABASE_URL")}
    env.update(environment(args))
    log = tempfile.NamedTemporaryFile(prefix="floor-bench-", suffix=".log", delete=False)
    server = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0",
                               "casino.asgi:application"], cwd=REPO, env=env,
                              stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    server.log_path = log.name
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("daphne did not start: " + Path(server.log_path).read_text()[-2000:])


def drive(port: int, table_id: int, record: dict, token: str, dues: list[float], numbers: dict[int, int],
          posts: list[tuple[int, int, float, float, float]], failures: list[str], stop_at: float) -> None:
    """Post the table's draws, each at its due moment (or as soon as the one before is answered):
    (table, number, due, sent, answered) for each one recorded."""
    body = json.dumps(record).encode()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for due in dues:
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        if time.monotonic() > stop_at:
            failures.append("not sent: the run's time limit was reached")
            break
        number = numbers[table_id]
        sent = time.monotonic()
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
            numbers[table_id] = next_number(connection, table_id, token)  # it may be recorded all the same
            continue
        answered = time.monotonic()
        if response.status == 201:
            posts.append((table_id, number, due, sent, answered))
            numbers[table_id] = number + 1
        else:
            failures.append(f"HTTP {response.status}: {answer[:300]!r}")
            numbers[table_id] = next_number(connection, table_id, token)
    connection.close()


def next_number(connection: http.client.HTTPConnection, table_id: int, token: str) -> int:
    """The table's next jogo number as the server has it, after a POST whose answer was lost."""
    for _ in range(10):
        try:
            connection.request("GET", f"/api/v1/tables/{table_id}/", headers={"Authorization": f"Token {token}"})
            return json.loads(connection.getresponse().read())["jogos_recorded"] + 1
        except (OSError, http.client.HTTPException, ValueError, KeyError):
            connection.close()
            time.sleep(1)
    raise SystemExit(f"table {table_id}: the server does not answer")


def load(args, port: int, made, numbers: dict[int, int], seed: int):
    """Every table's Poisson arrivals for `args.seconds`; the POSTs recorded and the failures."""
    chance = random.Random(seed)
    start = time.monotonic() + 0.5
    posts: list = []
    failures: list[str] = []
    threads = []
    for table_id, record, token in made:
        dues, moment = [], start + chance.expovariate(args.rate)
        while moment < start + args.seconds:
            dues.append(moment)
            moment += chance.expovariate(args.rate)
        threads.append(threading.Thread(target=drive, args=(port, table_id, record, token, dues, numbers, posts,
                                                            failures, start + args.seconds + 30)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return posts, failures


def view(port: int, token: str, ready, stop, arrivals) -> None:
    """One floor view: connect with the token and note when each jogo's event arrives, by (table,
    jogo number); the jogo recorded is the one before the card's next."""
    import websocket
    socket_ = websocket.create_connection(f"ws://127.0.0.1:{port}/ws/floor/", timeout=1,
                                          header=[f"Authorization: Token {token}"], suppress_origin=True)
    ready.release()
    seen, shown = {}, {}  # when each jogo was first shown; the last jogo shown at each table
    while not stop.is_set():
        try:
            text = socket_.recv()
        except websocket.WebSocketTimeoutException:
            continue
        at = time.monotonic()
        message = json.loads(text)
        if message["event"] == "jogo_recorded":
            # The card is the table as it stands when the message is made: two jogos recorded in
            # quick succession may both be in it, and the view shows both from then on.
            card = message["cards"][0]
            for number in range(shown.get(card["id"], 0) + 1, card["next_jogo"]):
                seen[f"{card['id']}:{number}"] = at
            shown[card["id"]] = max(shown.get(card["id"], 0), card["next_jogo"] - 1)
    socket_.close()
    arrivals.put(seen)


def views_process(port: int, token: str, count: int, ready, stop, arrivals) -> None:
    """The floor views, each in a thread of this process."""
    threads = [threading.Thread(target=view, args=(port, token, ready, stop, arrivals)) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))] if ordered else float("nan")


def post_figures(posts) -> str:
    latencies = [(answered - due) * 1000 for _, _, due, _, answered in posts]
    return (f"{len(posts)} POSTs, p50 {percentile(latencies, 50):.1f} ms, p99 {percentile(latencies, 99):.1f} ms, "
            f"slowest {max(latencies):.1f} ms (from when each was due)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL and the Redis channel layer")
    parser.add_argument("--database", default="casino_floorbench")
    parser.add_argument("--redis", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/4"))
    parser.add_argument("--sqlite", default=str(Path(tempfile.gettempdir()) / "casino-floorbench.sqlite3"))
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rate", type=float, default=2.0, help="jogos a second at each table (Poisson)")
    parser.add_argument("--views", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0, help="of load in each of the two phases")
    parser.add_argument("--seed", type=int, default=135)
    args = parser.parse_args()

    token, made = build(args)
    port = free_port()
    server = start_daphne(args, port)
    numbers = {table_id: 1 for table_id, _, _ in made}
    layer = "Redis" if args.postgres else "in-memory"
    print(f"{args.tables} tables x {args.rate:g} jogos/s (Poisson), {args.views} floor views, "
          f"{'PostgreSQL' if args.postgres else 'SQLite'}, {layer} channel layer, Daphne (1 process), "
          f"{os.cpu_count()} cores; load average before {os.getloadavg()[0]:.2f}")
    try:
        drive_warm = [(table_id, record, key) for table_id, record, key in made]
        load(argparse.Namespace(**{**vars(args), "seconds": 2.0}), port, drive_warm, numbers, args.seed + 1)

        alone, failed_alone = load(args, port, made, numbers, args.seed)
        print(f"without views: {post_figures(alone)}; {len(failed_alone)} failed; "
              f"load average {os.getloadavg()[0]:.2f}")

        context = multiprocessing.get_context("fork")
        ready, stop, arrivals = context.Semaphore(0), context.Event(), context.Queue()
        watchers = context.Process(target=views_process, args=(port, token, args.views, ready, stop, arrivals))
        watchers.start()
        for _ in range(args.views):
            if not ready.acquire(timeout=30):
                raise SystemExit("the floor views did not connect")
        time.sleep(1)  # each view joins the floor's group just after its socket is accepted

        watched, failed_watched = load(args, port, made, numbers, args.seed + 2)
        time.sleep(3)  # the last events on their way
        stop.set()
        seen = [arrivals.get(timeout=60) for _ in range(args.views)]
        watchers.join(30)
        print(f"with {args.views} views: {post_figures(watched)}; {len(failed_watched)} failed; "
              f"load average {os.getloadavg()[0]:.2f}")

        delays, missing = [], 0
        for table_id, number, _due, sent, _answered in watched:
            for arrived in seen:
                at = arrived.get(f"{table_id}:{number}")
                if at is None:
                    missing += 1
                else:
                    delays.append((at - sent) * 1000)
        print(f"POST sent -> its event at each view: {len(delays)} deliveries, p50 {percentile(delays, 50):.1f} ms, "
              f"p99 {percentile(delays, 99):.1f} ms, slowest {max(delays, default=float('nan')):.1f} ms; "
              f"{missing} never arrived; within 1 s: {sum(d <= 1000 for d in delays) / max(len(delays), 1):.2%}")
        for failure in sorted(set(failed_alone + failed_watched))[:5]:
            print("  failure:", failure)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
    print(f"server log: {server.log_path}")


if __name__ == "__main__":
    main()
