"""Store benchmark: how long opening a long match takes when its state is not in memory.

    .venv/bin/python benchmarks/store_bench.py [--opens N] [--seed S]

Builds Rat-a-Tat Cat matches of 1,000 and 10,000 entries (a random but legal table, see
referee/games/ratatat_sim.py) through `store.append` on a real SQLite file, then opens each one many times
with the state cache cleared, as after a restart: `get_match` + `state_at` (newest snapshot + the entries
after it). Also measured: the worst case, a match of 10,015 entries, 15 after its newest snapshot (one is
kept every `store.SNAPSHOT_EVERY` = 16 entries, so opening replays at most 15), and, for comparison,
replaying the whole 10,000-entry log. `measure()` returns the figures; the last line printed is JSON.

Target: opening any match < 10 ms (p95), even at 10,000 entries.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from referee import store, tables  # noqa: E402
from referee.db import connect, migrate  # noqa: E402
from referee.games import ratatat as game  # noqa: E402
from referee.games.ratatat_sim import Table  # noqa: E402

PLAYERS = ("Ana", "Ben", "Cy", "Dee")
RULES = {"rounds_n": 1000}
TARGET_MS = 10.0


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def build(db, n: int, seed: int) -> str:
    """A match of ``n`` entries, each recorded by `store.append` (so snapshots are made as in play)."""
    match = store.create_match(db, "ratatat", list(PLAYERS), RULES)
    table = Table(PLAYERS, RULES, random.Random(seed), check=False)
    for version in range(n):
        move = table.choose()
        new, _ = game.apply(table.state, move, version)
        table.accept(move, new)
        store.append(db, match.id, version, game.move_to_dict(move, PLAYERS), None, tables.checked_feed,
                     replay_fn=tables.replay, notify=lambda m, v: None)
    return match.id


def time_opens(db, match_id: str, opens: int, replay_fn=tables.replay) -> list[float]:
    times = []
    for _ in range(opens):
        store.state_cache.clear()
        gc.collect()
        t0 = time.perf_counter()
        store.state_at(db, store.get_match(db, match_id), replay_fn)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def whole_replay_ms(db, match_id: str, repeats: int) -> float:
    match = store.get_match(db, match_id)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        store.replay_all(db, match, tables.replay)
        times.append((time.perf_counter() - t0) * 1000)
    return min(times)


def measure(opens: int = 25, seed: int = 7) -> dict:
    """Open 1,000- and 10,000-entry matches with the state cache cleared; p50/p95 in ms."""
    with tempfile.TemporaryDirectory(prefix="store-bench-") as folder:
        path = os.path.join(folder, "bench.sqlite")
        migrate(path)
        db = connect(path)
        try:
            db.conn.execute("PRAGMA synchronous = OFF")  # building only: the opens below only read
            sizes = {1000: build(db, 1000, seed), 10000: build(db, 10000, seed + 1)}
            worst_n = 10000 + store.SNAPSHOT_EVERY - 1 - 10000 % store.SNAPSHOT_EVERY
            worst = build(db, worst_n, seed + 2)
            out: dict = {"snapshot_every": store.SNAPSHOT_EVERY, "opens": opens}
            for n, match_id in sizes.items():
                times = time_opens(db, match_id, opens)
                out[f"open_{n}_event_match_ms"] = round(percentile(times, 95), 3)
                out[f"open_{n}_event_match_p50_ms"] = round(percentile(times, 50), 3)
                out[f"open_{n}_entries_after_snapshot"] = n % store.SNAPSHOT_EVERY
            times = time_opens(db, worst, opens)
            out["open_worst_case_ms"] = round(percentile(times, 95), 3)
            out["open_worst_case_entries"] = worst_n
            out["open_worst_case_entries_after_snapshot"] = worst_n % store.SNAPSHOT_EVERY
            out["replay_whole_10000_event_log_ms"] = round(whole_replay_ms(db, sizes[10000], 3), 3)
            snapshot = db.conn.execute("SELECT length(body) FROM snapshots WHERE match_id = ? ORDER BY seq DESC"
                                       " LIMIT 1", (sizes[10000],)).fetchone()[0]
            out["snapshot_10000_bytes"] = snapshot
            out["target_ms"] = TARGET_MS
            out["ok"] = max(out["open_1000_event_match_ms"], out["open_10000_event_match_ms"],
                            out["open_worst_case_ms"]) < TARGET_MS
        finally:
            db.close()
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--opens", type=int, default=25)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    result = measure(args.opens, args.seed)
    for key, value in result.items():
        print(f"{key:42} {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
