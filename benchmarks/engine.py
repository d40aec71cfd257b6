"""Speed of the rules engine through the command-line path.

Scores N random valid conventional jogos as `python -m regulation score --jsonl` does
(read JSON, validate, decompose, grade, settle, write JSON) and reports µs per jogo. As a
yardstick it times the `mahjong` package (PyPI; development only) decomposing the same hands
with `HandDivider.divide_hand`. The engine, end to end, must take at most 0.8 of the time of
that decomposition alone. Both run as they would in a process of their own, the cyclic
garbage collector on.

    .venv/bin/python benchmarks/engine.py [--jogos 20000] [--seed 135]
"""
from __future__ import annotations

import argparse
import gc
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from regulation.cli import score_lines  # noqa: E402
from regulation.rules import CURRENT  # noqa: E402
from regulation.tiles import tile_code, tiles_code  # noqa: E402

SEATS = "ESWN"


def random_jogo(rng: random.Random) -> tuple[dict, list[int], list[tuple[str, int]]]:
    """A valid conventional won jogo, the 34-count array of its hand and its melds."""
    while True:
        counts = [0] * 34
        sets = []
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
    melds, concealed = [], []
    kongs = 0
    for kind, tile in sets:
        roll = rng.random()
        if kind == "pong" and counts[tile] == 3 and roll < 0.12:
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
    winner = rng.choice(SEATS)
    self_drawn = rng.random() < 0.3
    discarder = None if self_drawn else rng.choice([s for s in SEATS if s != winner])
    conditions = []
    if self_drawn and kongs and rng.random() < 0.5:
        conditions.append("kong_replacement")
    if rng.random() < 0.05:
        conditions.append("last_tile")
    stake = rng.choice(CURRENT.tiers("conventional"))
    record = {
        "variant": "conventional", "stake": stake, "round_wind": rng.choice(SEATS),
        "capital": {s: rng.choice((stake * 20, stake * 60, stake * 200)) for s in SEATS},
        "result": "win", "winner": winner, "discarder": discarder,
        "hand": {"concealed": tiles_code(concealed), "melds": melds, "winning_tile": tile_code(winning)},
        "conditions": conditions, "declared_fan": rng.choice((0, 1, 2)), "conduct": [], "claimants": [],
        "pay_all": None, "false_win": None, "rules": {"fan_combination": "additive"},
    }
    return record, counts, [(m["kind"], sorted(int(ch) for ch in m["tiles"] if ch.isdigit())) for m in melds]


def mahjong_arguments(counts: list[int], melds: list[dict]):
    from mahjong.meld import Meld
    from mahjong.tile import TilesConverter
    objects = []
    for meld in melds:
        tiles = TilesConverter.one_line_string_to_136_array(meld["tiles"])
        kind = {"chow": Meld.CHI, "pong": Meld.PON, "kong": Meld.KAN}[meld["kind"]]
        objects.append(Meld(meld_type=kind, tiles=tiles, opened=meld["exposed"]))
    return counts, objects


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jogos", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=135)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    records, yardstick = [], []
    for _ in range(args.jogos):
        record, counts, _ = random_jogo(rng)
        records.append(record)
        yardstick.append(mahjong_arguments(counts, record["hand"]["melds"]))
    with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as f:
        for record in records:
            f.write(msgspec.json.encode(record) + b"\n")
        path = f.name
    lines = Path(path).read_bytes().splitlines(keepends=True)
    del records
    from mahjong.hand_calculating.divider import HandDivider

    def yardstick_round() -> float:
        gc.collect()  # each round starts from the same heap
        start = time.perf_counter()
        for counts, melds in yardstick:
            HandDivider.divide_hand(counts, melds)
        return (time.perf_counter() - start) / args.jogos * 1e6

    def engine_round() -> tuple[float, bytes]:
        out = io.BytesIO()
        gc.collect()
        start = time.perf_counter()
        status = score_lines(lines, out, sys.stderr)
        elapsed = (time.perf_counter() - start) / args.jogos * 1e6
        assert status == 0
        return elapsed, out.getvalue()

    try:
        # Alternate the two, so that both see the same machine; the first round of each is cold
        # (empty caches), as in a fresh `python -m regulation score --jsonl` process.
        divider, engine = [], []
        for _ in range(args.rounds):
            divider.append(yardstick_round())
            elapsed, output = engine_round()
            engine.append(elapsed)
        results = [msgspec.json.decode(line) for line in output.splitlines()]
        invalid = sum(not r["valid"] for r in results)
        assert invalid == 0, f"{invalid} generated jogos were refused"

        # The same through a fresh `python -m regulation score --jsonl` process, startup included.
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "regulation", "score", "--jsonl", path], check=True,
                       stdout=subprocess.DEVNULL, cwd=Path(__file__).resolve().parent.parent)
        process = (time.perf_counter() - start) / args.jogos * 1e6
    finally:
        os.unlink(path)

    fans = [r["fan"] for r in results]
    print(f"jogos: {args.jogos} (seed {args.seed}); grades 0/1/2: "
          f"{fans.count(0)}/{fans.count(1)}/{fans.count(2)}")
    print(f"engine, CLI path in-process:        {median(engine):6.1f} µs/jogo median of {args.rounds} "
          f"(cold first round {engine[0]:.1f})")
    print(f"engine, CLI process (with startup): {process:6.1f} µs/jogo")
    print(f"mahjong HandDivider alone:          {median(divider):6.1f} µs/hand median of {args.rounds} "
          f"(first round {divider[0]:.1f})")
    print(f"yardstick / engine: {median(divider) / median(engine):.2f}x (1.00 = as fast; at least 1.25 required, "
          "the engine taking at most 0.8 of the decomposition's time)")


if __name__ == "__main__":
    main()
