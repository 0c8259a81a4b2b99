"""Standings benchmark: a group with 10,000 matches over 500 nights.

    .venv/bin/python benchmarks/stats_bench.py [--matches 10000] [--nights 500] [--runs 15]

Builds one group of 12 players on a real SQLite file: the worked-example matches of docs/examples
(Rat-a-Tat Cat under two sets of house rules, a tie, Spite & Malice) with players drawn from the group,
their logs written straight into the tables (as an import does), then the per-match summaries computed
from the logs once (``summaries_build_s``, the cost of a first look or of a new engine version).
Then, median of ``--runs`` each:

* ``standings_ms``: the group's all-time standings (every game and set of house rules), freshness
  check included (``stats.standings``);
* ``player_page_ms``: a player's whole page through Flask (``GET /nights/p/<id>``: figures, form
  chart, history);
* ``chart_ms``: the wins-across-nights chart: its series from the summaries and the SVG;
* ``group_page_ms``: the group's whole standings page (for comparison);
* ``after_entry_ms``: the standings right after a match gained an entry (its summary computed again).

Target: standings_ms, player_page_ms and chart_ms under 100 ms. The last line printed is JSON.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import date, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from referee import charts, create_app, people, stats, store  # noqa: E402
from referee.db import connect, migrate  # noqa: E402

TARGET_MS = 100.0
PLAYERS = [f"Player {i:02d}" for i in range(1, 13)]
EXAMPLES = os.path.join(ROOT, "docs", "examples")
TIED = {"game": "ratatat", "players": ["Ana", "Ben"], "rules": {"rounds_n": 1}, "entries": [
    {"move": "turn_up", "card": "2"}, {"seat": "Ana", "move": "take_discard"},
    {"seat": "Ana", "move": "replace", "slot": 3, "out": "6"}, {"seat": "Ana", "move": "call"},
    {"seat": "Ben", "move": "draw"}, {"seat": "Ben", "move": "discard", "card": "8"},
    {"seat": "Ana", "move": "reveal", "cards": ["1", "0", "2", "7"]},
    {"seat": "Ben", "move": "reveal", "cards": ["4", "4", "0", "2"]}]}


def load(name: str) -> dict:
    with open(os.path.join(EXAMPLES, f"{name}.json"), encoding="utf-8") as handle:
        return json.load(handle)


def renamed(t: dict, names: list[str]) -> tuple[list[str], list[str]]:
    """(players, stored entries) of transcript ``t`` with its players replaced by ``names``."""
    mapping = dict(zip(t["players"], names))
    out = []
    for entry in t["entries"]:
        entry = dict(entry)
        if isinstance(entry.get("seat"), str):
            entry["seat"] = mapping[entry["seat"]]
        out.append(store.dumps(entry))
    return [mapping[p] for p in t["players"]], out


def build(db, matches: int, nights: int, seed: int) -> int:
    rng = random.Random(seed)
    kinds = [load("flag-at-reveal"), load("three-rounds"), TIED, load("spite-malice-stock-out")]
    group = people.find_or_create_group(db, "Bench club")
    with store.write_transaction(db) as conn:
        ids = people.profile_ids_for(conn, PLAYERS)
        pid = dict(zip(PLAYERS, ids))
        first = date(2025, 1, 1)
        night_ids = []
        for n in range(nights):
            night_ids.append(conn.execute("INSERT INTO nights (group_id, day, created_at) VALUES (?, ?, ?)",
                                          (group.id, (first + timedelta(days=n)).isoformat(), store.now())).lastrowid)
        rows, entries, seats = [], [], []
        for i in range(matches):
            t = kinds[i % len(kinds)]
            names = rng.sample(PLAYERS, len(t["players"]))
            players, stored = renamed(t, names)
            night = night_ids[i * nights // matches]
            match_id = f"b{i:07d}"
            created = f"{(first + timedelta(days=i * nights // matches)).isoformat()}T20:{i % 60:02d}:00.000+00:00"
            rows.append((match_id, t["game"], store.dumps(players), store.dumps(t.get("rules", {})), len(stored),
                         f"Q{i:07d}", created, group.id, night))
            entries.extend((match_id, k + 1, e, created) for k, e in enumerate(stored))
            seats.extend((match_id, s, pid[name]) for s, name in enumerate(players))
        conn.executemany("INSERT INTO matches (id, game, players, rules, version, join_code, created_at, group_id,"
                         " night_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.executemany("INSERT INTO entries (match_id, seq, entry, created_at) VALUES (?, ?, ?, ?)", entries)
        conn.executemany("INSERT INTO match_seats (match_id, seat, profile_id) VALUES (?, ?, ?)", seats)
    return group.id


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def measure(matches: int, nights: int, runs: int, seed: int) -> dict:
    out: dict = {"matches": matches, "nights": nights}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.sqlite")
        migrate(path)
        db = connect(path)
        try:
            start = time.perf_counter()
            group_id = build(db, matches, nights, seed)
            out["build_log_s"] = round(time.perf_counter() - start, 2)
            start = time.perf_counter()
            out["summaries_built"] = stats.refresh(db)
            out["summaries_build_s"] = round(time.perf_counter() - start, 2)
            scope = stats.Scope(group_id)
            out["standings_ms"] = median_ms(lambda: stats.standings(db, scope), runs)
            tables_ = stats.standings(db, scope)
            top = tables_[0]
            chart_scope = stats.Scope(group_id, None, top.game, top.rules_key)

            def chart():
                days, per = stats.wins_by_night(db, chart_scope)
                series = [charts.Series(str(p), v) for p, v in sorted(per.items())][:charts.MAX_SERIES]
                return charts.line_chart("wins", [d[5:] for d in days], series)

            out["chart_ms"] = median_ms(chart, runs)
            out["chart_points"] = len(stats.wins_by_night(db, chart_scope)[0])
            match = store.get_match(db, "b0000003")  # Spite & Malice: one more (refused or not) entry moves it on

            def after_entry():
                m = store.get_match(db, match.id)
                with store.write_transaction(db) as conn:
                    conn.execute("INSERT INTO entries (match_id, seq, entry, created_at) VALUES (?, ?, ?, ?)",
                                 (m.id, m.version + 1, store.dumps({"move": "undo", "seat": m.players[0]}), store.now()))
                    conn.execute("UPDATE matches SET version = ? WHERE id = ?", (m.version + 1, m.id))
                start = time.perf_counter()
                stats.standings(db, scope)
                return (time.perf_counter() - start) * 1000

            out["after_entry_ms"] = round(statistics.median(after_entry() for _ in range(5)), 2)
        finally:
            db.close()
        app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "bench"},
                         instance_path=os.path.join(tmp, "instance"))
        client = app.test_client()
        profile = top.rows[0]["profile_id"]
        assert client.get(f"/nights/p/{profile}").status_code == 200
        out["player_page_ms"] = median_ms(lambda: client.get(f"/nights/p/{profile}"), runs)
        assert client.get(f"/nights/g/{group_id}").status_code == 200
        out["group_page_ms"] = median_ms(lambda: client.get(f"/nights/g/{group_id}"), runs)
    out["target_ms"] = TARGET_MS
    out["ok"] = max(out["standings_ms"], out["player_page_ms"], out["chart_ms"]) < TARGET_MS
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=10_000)
    ap.add_argument("--nights", type=int, default=500)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    result = measure(args.matches, args.nights, args.runs, args.seed)
    for key, value in result.items():
        print(f"{key:24} {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
