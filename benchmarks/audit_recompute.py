"""Speed of `manage.py audit_recompute` on PostgreSQL with a large ledger (issue 5: at least
10,000 jogos per second with a million jogos in the ledger, on a 2-core machine).

Builds a PostgreSQL database (default `casino_bench`, outside the repository) holding N jogos
(default 1,000,000) at 50 tables, conventional and simplified, over 30 gaming days: whole games
played by the rules (Art. 3 progress, I-1, I-2), each jogo's record generated at random, scored
by the engine and stored with the engine's outcome, its capital carried from jogo to jogo and
each table's rows hash-chained exactly as the pit's service chains them. Rows go in with COPY
from two processes (one table's chain per task). Then it runs the command as an inspector
would and reports jogos per second, wall clock, the process start included.

    .venv/bin/python benchmarks/audit_recompute.py                  # build 1M jogos, then measure
    .venv/bin/python benchmarks/audit_recompute.py --jogos 20000 --verify   # small, and verify_ledger
    .venv/bin/python benchmarks/audit_recompute.py --reuse --verify --rounds 0  # verify_ledger alone
    .venv/bin/python benchmarks/audit_recompute.py --reuse          # measure again on the same database
    .venv/bin/python benchmarks/audit_recompute.py --reuse --verify --celery-workers 1 2   # and through Celery

With --celery-workers N it also starts N Celery worker processes (`celery -A casino worker -Q
audit-bench --concurrency 1` each), waits until they are ready, runs the commands with
--distributed through them, and stops them; the figures are printed side by side.
"""
from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

SERVER = "postgres://postgres@127.0.0.1:5432"
TABLES = [("conventional", stake) for stake in (25, 50, 100, 200, 300, 500, 1000, 2000)] * 5 \
    + [("simplified", stake) for stake in (100, 200, 500, 1000, 2000)] * 2
START = dt.datetime(2026, 10, 1, 7, 0)
DAYS = 30
SEATS = "ESWN"
QUEUE = "audit-bench"  # the benchmark's workers' own queue: no other worker takes its shards


def _setup(database: str) -> None:
    os.environ["DATABASE_URL"] = f"{SERVER}/{database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    os.environ.setdefault("DJANGO_DEBUG", "1")  # run as on a developer's machine (casino/settings.py)
    import django
    django.setup()


# --- Random jogos that the regulation accepts ----------------------------------------------------

def _conventional_hand(rng: random.Random, self_drawn: bool) -> tuple[dict, list[str]]:
    """Four sets and a pair, some sets declared as melds; conditions that fit."""
    from regulation.tiles import tile_code, tiles_code
    while True:
        counts, sets = [0] * 34, []
        for _ in range(4):
            if rng.random() < 0.55:
                suit, start = rng.randrange(3), rng.randrange(7)
                sets.append(("chow", suit * 9 + start))
            else:
                sets.append(("pong", rng.randrange(34)))
        pair = rng.randrange(34)
        for kind, tile in sets:
            for t in ((tile, tile + 1, tile + 2) if kind == "chow" else (tile,) * 3):
                counts[t] += 1
        counts[pair] += 2
        if max(counts) <= 4:
            break
    melds, concealed, kongs = [], [], 0
    for kind, tile in sets:
        roll = rng.random()
        if kind == "pong" and counts[tile] == 3 and roll < 0.1:
            melds.append({"kind": "kong", "tiles": tile_code(tile) * 4, "exposed": rng.random() < 0.5})
            counts[tile] += 1
            kongs += 1
        elif roll < 0.35:
            tiles = (tile, tile + 1, tile + 2) if kind == "chow" else (tile,) * 3
            melds.append({"kind": kind, "tiles": tiles_code(tiles), "exposed": True})
        else:
            concealed.extend((tile, tile + 1, tile + 2) if kind == "chow" else (tile,) * 3)
    concealed += [pair, pair]
    winning = concealed.pop(rng.randrange(len(concealed)))
    conditions = []
    if self_drawn and kongs and rng.random() < 0.5:
        conditions.append("kong_replacement")
    if rng.random() < 0.03:
        conditions.append("last_tile")
    return {"concealed": tiles_code(concealed), "melds": melds, "winning_tile": tile_code(winning)}, conditions


def _simplified_hand(rng: random.Random) -> tuple[dict, list[str]]:
    """One set and a pair of the suits and the green dragon (Art. 2(b), 4(b))."""
    from regulation.tiles import tile_code, tiles_code
    kinds = list(range(27)) + [32]  # the suits and 6z
    while True:
        if rng.random() < 0.5:
            suit, start = rng.randrange(3), rng.randrange(7)
            tiles = [suit * 9 + start + i for i in range(3)]
        else:
            tiles = [rng.choice(kinds)] * 3
        pair = rng.choice(kinds)
        hand = tiles + [pair, pair]
        if max(hand.count(t) for t in hand) <= 4:
            break
    winning = hand.pop(rng.randrange(5))
    return {"concealed": tiles_code(hand), "winning_tile": tile_code(winning)}, []


def random_record(rng: random.Random, variant: str, stake: int, state, capital: list) -> dict:
    seats = list(state.seats)
    record = {"variant": variant, "stake": stake, "round_wind": state.round_wind,
              "capital": {seat: capital[chair] for seat, chair in state.seats.items()}}
    roll = rng.random()
    if roll < 0.12:
        return {**record, "result": "draw", "declared_fan": None}
    if roll < 0.16:
        return {**record, "result": "false_win", "false_win": {"seat": rng.choice(seats)}, "declared_fan": None}
    winner = rng.choice(seats)
    self_drawn = rng.random() < 0.3
    if variant == "conventional":
        hand, conditions = _conventional_hand(rng, self_drawn)
    else:
        hand, conditions = _simplified_hand(rng)
    discarder = None if self_drawn else rng.choice([s for s in seats if s != winner])
    return {**record, "result": "win", "winner": winner, "discarder": discarder, "hand": hand,
            "conditions": conditions, "declared_fan": None}


# --- Building one table's ledger -----------------------------------------------------------------

def build_table(task: tuple) -> int:
    """Play and COPY one table's games until it has `quota` jogos. Returns the rows written."""
    database, table_id, variant, stake, quota, user_id, patron_ids, first_game_id, seed = task
    _setup(database)
    import msgspec
    import psycopg
    from django.utils import timezone

    from casino.chain import GENESIS
    from casino.pit.chain import row_hash
    from casino.pit.days import gaming_day
    from casino.pit.models import Jogo, Movement
    from regulation import read_record, score
    from regulation.rotation import Progress
    from regulation.rules import DEFAULT

    rng = random.Random(seed)
    encode = msgspec.json.encode
    step = dt.timedelta(seconds=DAYS * 86400 / quota)
    start = timezone.make_aware(START)
    games, players, movements, jogos = [], [], [], []
    seq, head, number, game_id = 0, GENESIS, 0, first_game_id
    while number < quota:
        at = start + step * number
        chairs = [0, 1, 2, 3] if variant == "conventional" else sorted(rng.sample(range(4), rng.choice((2, 3, 4))))
        first_banker = rng.choice(chairs)
        capital = [stake * 2000 if chair in chairs else None for chair in range(4)]
        for chair in chairs:
            players.append((game_id, chair, patron_ids[chair]))
            seq += 1
            movement = Movement(table_id=table_id, seq=seq, prev_hash=head, recorded_at=at, recorded_by_id=user_id,
                                gaming_day=gaming_day(at), game_id=game_id, chair=chair, kind=Movement.BUY_IN,
                                amount=capital[chair], after_jogos=0)
            movement.hash = head = row_hash(movement)
            movements.append((table_id, seq, movement.prev_hash, movement.hash, at, user_id, movement.gaming_day,
                              game_id, chair, Movement.BUY_IN, capital[chair], 0))
        state, position = Progress.start(chairs=chairs, banker=first_banker), 0
        while not state.complete and number < quota:
            at = start + step * number
            record = random_record(rng, variant, stake, state, capital)
            result = score(read_record(record))
            if record["result"] == "win":  # the dealer announces the grade; now and then wrongly
                record["declared_fan"] = result.fan if rng.random() < 0.97 else (result.fan + 1) % 3
                result = score(read_record(record))
            assert result.valid, (record, result.breaches)
            outcome = result.as_dict()
            after = list(capital)
            for seat, change in outcome["net"].items():
                after[state.chair_of(seat)] += change
            number, position, seq = number + 1, position + 1, seq + 1
            jogo = Jogo(table_id=table_id, seq=seq, prev_hash=head, recorded_at=at, recorded_by_id=user_id,
                        gaming_day=gaming_day(at), game_id=game_id, number=number, position=position, revision=0,
                        kind=Jogo.RECORDED, reason="", approved_by_id=None, idempotency_key=None,
                        banker_chair=state.banker, round_wind=state.round_wind, record=record, outcome=outcome,
                        result=record["result"],
                        winner_chair=state.chair_of(record["winner"]) if record["result"] == "win" else None,
                        fan=result.fan, declared_fan=record["declared_fan"], fan_mismatch=result.fan_mismatch,
                        commission=result.settlement.commission, capped=result.settlement.capped,
                        pay_all=False, capital_before=list(capital), capital_after=after,
                        rule_set_code=DEFAULT.code, rule_set_version=DEFAULT.version)
            jogo.hash = head = row_hash(jogo)
            jogos.append((table_id, seq, jogo.prev_hash, jogo.hash, at, user_id, jogo.gaming_day, game_id, number,
                          position, 0, Jogo.RECORDED, "", None, None, state.banker, state.round_wind,
                          encode(record).decode(), encode(outcome).decode(), jogo.result, jogo.winner_chair,
                          jogo.fan, jogo.declared_fan, jogo.fan_mismatch, jogo.commission, jogo.capped, False,
                          encode(capital).decode(), encode(after).decode(), jogo.rule_set_code,
                          jogo.rule_set_version))
            state = state.after(banker_moves=result.banker_moves)
            capital = after
        games.append((game_id, table_id, first_banker, start + step * (number - position), user_id,
                      at if state.complete else None, None))
        game_id += 1
    with psycopg.connect(f"{SERVER}/{database}") as conn, conn.cursor() as cursor:
        for sql, rows in (
            ("COPY pit_game (id, table_id, first_banker, started_at, started_by_id, ended_at, ended_by_id) "
             "FROM STDIN", games),
            ("COPY pit_player (game_id, chair, patron_id) FROM STDIN", players),
            ("COPY pit_movement (table_id, seq, prev_hash, hash, recorded_at, recorded_by_id, gaming_day, game_id, "
             "chair, kind, amount, after_jogos) FROM STDIN", movements),
            ("COPY pit_jogo (table_id, seq, prev_hash, hash, recorded_at, recorded_by_id, gaming_day, game_id, "
             "number, position, revision, kind, reason, approved_by_id, idempotency_key, banker_chair, round_wind, "
             "record, outcome, result, winner_chair, fan, declared_fan, fan_mismatch, commission, capped, pay_all, "
             "capital_before, capital_after, rule_set_code, rule_set_version) FROM STDIN", jogos),
        ):
            with cursor.copy(sql) as copy:
                for row in rows:
                    copy.write_row(row)
        cursor.execute("UPDATE pit_table SET ledger_seq = %s, ledger_head = %s, jogos_recorded = %s, is_open = true "
                       "WHERE id = %s", (seq, head, number, table_id))
        if not state.complete:  # the last game is still in progress: the table's projection of it
            cursor.execute("UPDATE pit_table SET game_id = %s, game_jogos = %s, game_banker = %s, "
                           "game_round_wind = %s, game_capital = %s WHERE id = %s",
                           (game_id - 1, position, state.banker, state.round_wind, encode(capital).decode(), table_id))
    return len(jogos)


def build(database: str, total: int, workers: int, seed: int) -> None:
    import psycopg
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}"')
        conn.execute(f'CREATE DATABASE "{database}"')
    _setup(database)
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from casino.pit.models import Casino, Patron, Table
    call_command("migrate", verbosity=0)
    user = User.objects.create_user("bench-dealer")
    casino = Casino.objects.create(name="Benchmark casino")
    now = timezone.now()
    # The same four patrons sit at every game, one a chair (a player is a patron: pit.Player).
    patron_ids = [Patron.objects.create(casino=casino, name=f"Player {chair + 1}", created_at=now, created_by=user,
                                        changed_at=now, changed_by=user).pk for chair in range(4)]
    quota, extra = divmod(total, len(TABLES))
    tasks = []
    for index, (variant, stake) in enumerate(TABLES):
        table = Table.objects.create(casino=casino, number=f"B-{index + 1:02d}", variant=variant, stake=stake)
        tasks.append((database, table.pk, variant, stake, quota + (index < extra), user.pk, patron_ids,
                      index * 1_000_000 + 1,
                      seed * 1000 + index))
    from django.db import connections
    connections.close_all()
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        written = sum(pool.imap_unordered(build_table, tasks))
    with psycopg.connect(f"{SERVER}/{database}", autocommit=True) as conn:
        conn.execute("SELECT setval(pg_get_serial_sequence('pit_game', 'id'), (SELECT MAX(id) FROM pit_game))")
        conn.execute("VACUUM ANALYZE")
    print(f"built {written:,} jogos at {len(TABLES)} tables in {time.perf_counter() - started:.0f} s "
          f"(database {database})")


def jogos_in(database: str) -> int | None:
    import psycopg
    try:
        with psycopg.connect(f"{SERVER}/{database}") as conn:
            return conn.execute("SELECT COUNT(*) FROM pit_jogo").fetchone()[0]
    except psycopg.Error:
        return None


@contextlib.contextmanager
def celery_workers(count: int, env: dict, queue: str):
    """`count` Celery worker processes of one pool process each (`celery -A casino worker -Q
    QUEUE --concurrency 1`), as `count` hosts of one core would run them; yields once every one
    has said it is ready, and stops them (warm shutdown) afterwards."""
    logs, workers = [], []
    try:
        for index in range(count):
            log = Path(tempfile.mkstemp(prefix=f"audit-bench-worker-{index}-", suffix=".log")[1])
            logs.append(log)
            with log.open("w") as output:
                workers.append(subprocess.Popen(
                    [sys.executable, "-m", "celery", "-A", "casino", "worker", "-Q", queue, "--concurrency", "1",
                     "--without-gossip", "--without-mingle", "--loglevel", "INFO",
                     "--hostname", f"{queue}-{index}@%h"], cwd=REPO, env=env, stdout=output,
                    stderr=subprocess.STDOUT))
        from celery import Celery
        names = {f"{queue}-{index}@{socket.gethostname()}" for index in range(count)}
        deadline = time.monotonic() + 120
        with Celery(broker=env["REDIS_URL"]) as client:  # each worker answers a ping once it takes tasks
            while not names <= {name for answer in client.control.ping(timeout=1) for name in answer}:
                assert time.monotonic() < deadline, "the Celery workers did not start: " + logs[0].read_text()[-2000:]
                assert all(worker.poll() is None for worker in workers), logs[0].read_text()[-2000:]
        yield
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=60)
        for log in logs:
            log.unlink()


def timed(command: list[str], env: dict, count: int, rounds: int, what: str) -> list[float]:
    """Run the command `rounds` times; jogos a second of each, wall clock with the process start."""
    rates = []
    for _ in range(rounds):
        load = os.getloadavg()[0]
        started = time.perf_counter()
        done = subprocess.run(command, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - started
        assert done.returncode == 0, done.stdout[-2000:]
        rates.append(count / elapsed)
        print(done.stdout.strip().splitlines()[-1])
        print(f"  {what}: wall clock with process start {elapsed:.1f} s, {count / elapsed:,.0f} jogos/s "
              f"(load average {load:.1f} before, {os.getloadavg()[0]:.1f} after)")
    return sorted(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jogos", type=int, default=1_000_000)
    parser.add_argument("--database", default="casino_bench")
    parser.add_argument("--reuse", action="store_true", help="measure on the database already built")
    parser.add_argument("--build-workers", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None, help="passed to audit_recompute")
    parser.add_argument("--rounds", type=int, default=3, help="times to run the command")
    parser.add_argument("--verify", action="store_true",
                        help="also time verify_ledger on the database (issue 13: a million rows in at most 60 s)")
    parser.add_argument("--seed", type=int, default=135)
    parser.add_argument("--celery-workers", type=int, nargs="*", default=[], metavar="N",
                        help="also run the command with --distributed through N Celery worker processes started "
                             "here, for each N given (needs Redis: REDIS_URL, else database 13 on 127.0.0.1)")
    parser.add_argument("--no-local", action="store_true", help="only the --distributed runs")
    args = parser.parse_args()
    if not (args.reuse and jogos_in(args.database)):
        build(args.database, args.jogos, args.build_workers, args.seed)
    count = jogos_in(args.database)
    env = {**os.environ, "DATABASE_URL": f"{SERVER}/{args.database}", "DJANGO_DEBUG": "1"}
    python = sys.executable
    workers = ["--workers", str(args.workers)] if args.workers else []
    runs = [] if args.no_local else [(f"local, {args.workers or 2} process(es)", workers, None)]
    runs += [(f"Celery, {n} worker process(es)", ["--distributed", "--queue", QUEUE, "--timeout", "600"], n)
             for n in args.celery_workers]
    if args.celery_workers:
        env["REDIS_URL"] = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/13"
    figures = []
    for what, options, celery in runs:
        with celery_workers(celery, env, QUEUE) if celery else contextlib.nullcontext():
            if args.verify:
                rates = timed([python, "manage.py", "verify_ledger", "--no-progress", *options], env, count, 1, what)
                figures.append((f"verify_ledger, {what}", rates))
            rates = timed([python, "manage.py", "audit_recompute", "--no-progress", *options], env, count,
                          args.rounds, what)
            if rates:
                figures.append((f"audit_recompute, {what}", rates))
    print(f"\nover {count:,} jogos on PostgreSQL, {os.cpu_count()} cores (jogos/s, wall clock with process start):")
    for what, rates in figures:
        print(f"  {what:<50} median {rates[len(rates) // 2]:>7,.0f}  (best {rates[-1]:,.0f}, worst {rates[0]:,.0f},"
              f" {len(rates)} run(s))")


if __name__ == "__main__":
    main()
