"""Server load benchmark: `referee serve` (waitress) on loopback, many tables at once.

What it does, in order:

1. Precomputes, with the rules engine (offline, before any timing), a long legal script of
   Rat-a-Tat Cat entries for a 4-player table: a turn-up, then turns of draw + discard / draw +
   replace (the drawn card is never named), a call after a few turns, the final turns, and the
   reveal of the four rows with number cards that fit the deck (4 of each 0-8, 9 nines); then the
   next round, and so on.
2. Creates TABLES matches in a temporary SQLite file, starts `.venv/bin/referee serve --host
   127.0.0.1 --port <free> --db <file> --no-qr` as a subprocess (as `make serve` does) and waits
   for /healthz.
3. Seats every phone (POST /m/<id>/seat, one session cookie per phone, 4 per table) and opens
   every phone's live stream (GET /m/<id>/events), read continuously by one asyncio thread.
4. Paced phase: each table posts its next entry every PACE seconds (~20x a real table), from the
   acting player's phone, with Origin, its cookie, the version it tracks from its own accepted
   posts, a unique key and HX-Request: true. POST -> full response (the rendered fragment, commit
   included) is timed.
5. Closed loop: the same tables post their next entry as soon as the previous answer came.
6. A fresh server on a file holding matches of >= 1000 entries (built with referee.store.append):
   a cold GET /m/<id> of each (empty state cache), after one warm-up request on a small match.

Anything but 200 on an entry (422 refused, 409 stale, 5xx, timeouts) counts as an error.
Prints readable lines, then one JSON line. Run: `.venv/bin/python benchmarks/server_bench.py`
(options: --help). Loopback only; the client runs on the same cores as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import itertools
import json
import os
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

from referee import store, tables
from referee.db import connect, migrate
from referee.games.base import Ruling

ROOT = Path(__file__).resolve().parent.parent
REFEREE = ROOT / ".venv" / "bin" / "referee"
PLAYERS = ["Ana", "Ben", "Cy", "Dee"]
RULES = {"rounds_n": 10_000}  # the match never ends during the benchmark
NUMBERS = [str(n) for n in range(10)]


# --- A legal script, computed once with the engine -----------------------------------------


def make_script(n_entries: int, turns_before_call: int = 6) -> list[tuple[int | None, dict]]:
    """(seat index that posts it, entry) pairs; every entry checked by the engine."""
    match = store.Match("script", "ratatat", PLAYERS, RULES, 0, None, "")
    log = tables.start(match)
    out: list[tuple[int | None, dict]] = []
    cycle = itertools.cycle(NUMBERS)

    def feed(seat: int | None, entry: dict) -> bool:
        nonlocal log
        try:
            log = tables.feed(log, entry)
        except Ruling:
            return False
        out.append((seat, entry))
        return True

    def feed_card(seat: int | None, make) -> None:
        """Feed make(card) with the next card value the deck still allows."""
        for _ in range(len(NUMBERS)):
            if feed(seat, make(next(cycle))):
                return
        raise RuntimeError("no card value fits the deck")

    while len(out) < n_entries:
        r = log.state.round
        if r.awaiting_turn_up:
            feed_card(0, lambda c: {"move": "turn_up", "card": c})
        elif r.step == "reveal":
            for s in r.seats:
                if s in r.revealed:
                    continue
                cards: list[str] = []
                for slot in range(4):  # one card at a time, so a refused value can be retried
                    for _ in range(len(NUMBERS)):
                        trial = cards + [next(cycle)]
                        probe = {"move": "reveal", "seat": PLAYERS[s], "cards": trial + ["9"] * (4 - len(trial))}
                        try:
                            tables.feed(log, probe)
                        except Ruling:
                            continue
                        cards = trial
                        break
                if not feed(0, {"move": "reveal", "seat": PLAYERS[s], "cards": cards}):
                    raise RuntimeError("reveal refused")
                break
        else:
            seat = r.turn
            name = PLAYERS[seat]
            feed(seat, {"move": "draw", "seat": name})
            if r.turns_done % 2 == 0:
                feed_card(seat, lambda c: {"move": "discard", "seat": name, "card": c})
            else:
                slot = 1 + r.turns_done % 4
                feed_card(seat, lambda c: {"move": "replace", "seat": name, "slot": slot, "out": c})
            r = log.state.round
            if r.caller is None and r.turns_done >= turns_before_call and r.call_window == seat:
                if not feed(seat, {"move": "call", "seat": name}):
                    raise RuntimeError("call refused")
    return out[:n_entries]


def form_of(entry: dict) -> dict[str, str]:
    """The form a phone posts for an entry (what entry_from_form reads back)."""
    form = {k: str(v) for k, v in entry.items() if k not in ("seat", "cards")}
    if entry["move"] == "reveal":
        form["for"] = entry["seat"]
        for i, card in enumerate(entry["cards"], start=1):
            form[f"card{i}"] = card
    return form


# --- The server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db_path: str, threads: int | None, connection_limit: int | None = None):
        self.port = free_port()
        cmd = [str(REFEREE), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", db_path, "--no-qr"]
        if threads:
            cmd += ["--threads", str(threads)]
        if connection_limit:
            cmd += ["--connection-limit", str(connection_limit)]
        env = {**os.environ, "REFEREE_INSTANCE": str(Path(db_path).parent / "instance")}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        deadline = time.monotonic() + 30
        while True:
            try:
                status, _, _ = request(self.port, "GET", "/healthz", timeout=1)
                if status == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("referee serve did not start: " + self.proc.stderr.read().decode()[-2000:])
            time.sleep(0.05)

    def stop(self) -> None:
        self.proc.send_signal(2)  # SIGINT, as Ctrl+C
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            timeout: float = 10, conn: http.client.HTTPConnection | None = None):
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, response.getheaders(), data
    finally:
        if own:
            conn.close()


# --- Phones and tables ---------------------------------------------------------------------------


class Phone:
    """One phone: its session cookie and its keep-alive connection."""

    def __init__(self, port: int, match_id: str, seat: int):
        self.port, self.match_id, self.seat = port, match_id, seat
        self.origin = f"http://127.0.0.1:{port}"
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)  # connects on first post
        status, headers, _ = request(port, "POST", f"/m/{match_id}/seat",
                                     urllib.parse.urlencode({"seat": seat}).encode(),
                                     {"Origin": self.origin, "Content-Type": "application/x-www-form-urlencoded"})
        cookies = [v.split(";", 1)[0] for k, v in headers if k.lower() == "set-cookie"]
        if status != 303 or not cookies:
            raise RuntimeError(f"seat {seat} at {match_id}: HTTP {status}")
        self.cookie = "; ".join(cookies)

    def post(self, form: dict[str, str]) -> tuple[int, float]:
        body = urllib.parse.urlencode(form).encode()
        headers = {"Origin": self.origin, "Cookie": self.cookie, "HX-Request": "true",
                   "Content-Type": "application/x-www-form-urlencoded"}
        started = time.perf_counter()
        try:
            status, _, _ = request(self.port, "POST", f"/m/{self.match_id}/entry", body, headers, conn=self.conn)
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
            return 0, time.perf_counter() - started
        return status, time.perf_counter() - started


class Table:
    def __init__(self, port: int, match_id: str, script):
        self.match_id, self.script = match_id, script
        self.phones = [Phone(port, match_id, s) for s in range(len(PLAYERS))]
        self.position = 0  # next script entry
        self.version = 0  # tracked from our own accepted posts
        self.latencies: list[float] = []
        self.errors: Counter = Counter()

    def step(self) -> bool:
        if self.position >= len(self.script):
            return False
        seat, entry = self.script[self.position]
        form = {**form_of(entry), "version": str(self.version), "key": f"{self.match_id}-{self.position}"}
        status, seconds = self.phones[seat if seat is not None else 0].post(form)
        self.latencies.append(seconds)
        if status == 200:
            self.version += 1
            self.position += 1
        else:
            self.errors[str(status or "timeout")] += 1
            if status == 409:  # resync is impossible without parsing; give up on this table
                self.position = len(self.script)
            else:  # skip it: the next entry will most likely be refused too, which is counted
                self.position += 1
        return True


def run_phase(tables_: list[Table], seconds: float, pace: float | None) -> tuple[list[float], int, float, Counter]:
    """Drive every table from its own thread; paced (one entry per `pace` s) or closed loop."""
    stop = threading.Event()
    marks = [len(t.latencies) for t in tables_]
    errors_before = [Counter(t.errors) for t in tables_]

    def drive(table: Table, offset: float) -> None:
        next_at = time.perf_counter() + offset
        while not stop.is_set():
            if pace is not None:
                delay = next_at - time.perf_counter()
                if delay > 0 and stop.wait(delay):
                    return
                next_at += pace
            if not table.step():
                return

    threads = [threading.Thread(target=drive, args=(t, (pace or 0) * i / len(tables_)), daemon=True)
               for i, t in enumerate(tables_)]
    started = time.perf_counter()
    for th in threads:
        th.start()
    stop.wait(seconds)
    stop.set()
    for th in threads:
        th.join(30)
    elapsed = time.perf_counter() - started
    latencies, errors = [], Counter()
    for t, mark, before in zip(tables_, marks, errors_before):
        latencies += t.latencies[mark:]
        errors += t.errors - before
    ok = len(latencies) - sum(errors.values())
    return latencies, ok, elapsed, errors


# --- Live streams (asyncio, one thread) -----------------------------------------------------------


class Streams:
    """Every phone's GET /m/<id>/events, held open and read; counts the doorbells."""

    def __init__(self, port: int, phones: list[Phone]):
        self.port, self.phones = port, phones
        self.open = 0
        self.events = 0
        self.failures: Counter = Counter()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks = [asyncio.run_coroutine_threadsafe(self.follow(p), self.loop) for p in phones]

    async def follow(self, phone: Phone) -> None:
        while True:  # reconnect when the server ends a stream (SSE_MAX_LIFETIME)
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError as err:
                self.failures[type(err).__name__] += 1
                await asyncio.sleep(1)
                continue
            writer.write((f"GET /m/{phone.match_id}/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                          f"Cookie: {phone.cookie}\r\nAccept: text/event-stream\r\n\r\n").encode())
            counted = False
            try:
                while True:
                    line = await reader.readline()
                    if not line:
                        break
                    if not counted and line.startswith(b": connected"):
                        self.open += 1
                        counted = True
                    elif line.startswith(b"event: changed"):
                        self.events += 1
            except (OSError, asyncio.IncompleteReadError) as err:
                self.failures[type(err).__name__] += 1
            finally:
                if counted:
                    self.open -= 1
                writer.close()

    def wait_open(self, count: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while self.open < count:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def close(self) -> None:
        async def cancel_all() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(cancel_all(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


# --- Measurements ---------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    ms = sorted(v * 1000 for v in values)
    if not ms:
        return float("nan")
    return ms[min(len(ms) - 1, max(0, round(q * len(ms)) - 1))]


def build_big_matches(db_path: str, script, count: int, entries: int) -> list[str]:
    db = connect(db_path)
    ids = []
    try:
        for _ in range(count):
            match = store.create_match(db, "ratatat", PLAYERS, RULES)
            for version, (seat, entry) in enumerate(script[:entries]):
                store.append(db, match.id, version, entry, None, tables.feed, replay_fn=tables.replay,
                             seat=seat, notify=lambda *_: None)
            ids.append(match.id)
    finally:
        db.close()
    return ids


def cold_open(tmp: Path, script, n_matches: int, entries: int) -> tuple[list[float], float]:
    db_path = str(tmp / "big.sqlite")
    migrate(db_path)
    ids = build_big_matches(db_path, script, n_matches, entries)
    small = build_big_matches(db_path, script, 1, 5)[0]
    server = Server(db_path, None)  # exactly as `make serve`
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        request(server.port, "GET", f"/m/{small}", conn=conn)  # warm-up: templates compiled, imports done
        cold = []
        for match_id in ids:
            started = time.perf_counter()
            status, _, _ = request(server.port, "GET", f"/m/{match_id}", conn=conn)
            cold.append(time.perf_counter() - started)
            assert status == 200, status
        started = time.perf_counter()
        request(server.port, "GET", f"/m/{ids[0]}", conn=conn)
        warm = time.perf_counter() - started
    finally:
        server.stop()
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--pace", type=float, default=0.5, help="seconds between a table's entries (paced phase)")
    parser.add_argument("--paced-seconds", type=float, default=20)
    parser.add_argument("--closed-seconds", type=float, default=15)
    parser.add_argument("--threads", type=int, default=None,
                        help="waitress worker threads (default: referee serve's own default, as `make serve`)")
    parser.add_argument("--connection-limit", type=int, default=None,
                        help="waitress connection_limit (default: referee serve's own, as `make serve`); "
                             "each phone needs 1 stream + 1 request connection")
    parser.add_argument("--no-streams", action="store_true", help="do not hold the phones' live streams open")
    parser.add_argument("--big-entries", type=int, default=1000)
    args = parser.parse_args()

    report: dict = {"tables": args.tables, "phones": args.tables * len(PLAYERS), "threads": args.threads or "default",
                    "connection_limit": args.connection_limit or "default"}
    started = time.perf_counter()
    script = make_script(max(args.big_entries, 2000))
    print(f"script: {len(script)} legal entries precomputed in {time.perf_counter() - started:.1f} s "
          f"({sum(1 for _, e in script if e['move'] == 'reveal') // 4} rounds)")

    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmpdir:
        tmp = Path(tmpdir)
        db_path = str(tmp / "load.sqlite")
        migrate(db_path)
        db = connect(db_path)
        ids = [store.create_match(db, "ratatat", PLAYERS, RULES).id for _ in range(args.tables)]
        db.close()
        server = Server(db_path, args.threads, args.connection_limit)
        streams = None
        try:
            tables_ = [Table(server.port, match_id, script) for match_id in ids]
            phones = [p for t in tables_ for p in t.phones]
            print(f"server on 127.0.0.1:{server.port}; {len(tables_)} tables, {len(phones)} phones seated")
            starved = False
            if not args.no_streams:
                streams = Streams(server.port, phones)
                all_open = streams.wait_open(len(phones), 20)
                print(f"live streams open: {streams.open}/{len(phones)}")
                try:
                    status, _, _ = request(server.port, "GET", "/healthz", timeout=5)
                except (OSError, http.client.HTTPException):
                    status = 0
                if not all_open or status != 200:
                    starved = True
                    print(f"!! the server is starved: {streams.open} open streams hold its worker threads, "
                          f"/healthz answered {status or 'nothing within 5 s'}; no entry can be served")
                report["streams_open"] = streams.open
            if starved:
                report.update(move_p50_ms=None, move_p95_ms=None, moves_per_second=0, starved=True)
            else:
                lat, ok, elapsed, errors = run_phase(tables_, args.paced_seconds, args.pace)
                print(f"paced ({args.pace} s per table): {ok} entries in {elapsed:.1f} s = {ok / elapsed:.0f}/s; "
                      f"p50 {pct(lat, .5):.1f} ms, p95 {pct(lat, .95):.1f} ms, p99 {pct(lat, .99):.1f} ms, "
                      f"max {pct(lat, 1):.1f} ms; errors {dict(errors)}")
                report.update(move_p50_ms=round(pct(lat, .5), 2), move_p95_ms=round(pct(lat, .95), 2),
                              move_p99_ms=round(pct(lat, .99), 2), paced_moves=ok,
                              paced_errors=sum(errors.values()), paced_error_kinds=dict(errors))
                lat, ok, elapsed, errors = run_phase(tables_, args.closed_seconds, None)
                print(f"closed loop: {ok} entries in {elapsed:.1f} s = {ok / elapsed:.0f}/s; "
                      f"p50 {pct(lat, .5):.1f} ms, p95 {pct(lat, .95):.1f} ms; errors {dict(errors)}")
                report.update(moves_per_second=round(ok / elapsed, 1), closed_p50_ms=round(pct(lat, .5), 2),
                              closed_p95_ms=round(pct(lat, .95), 2), closed_moves=ok,
                              closed_errors=sum(errors.values()), closed_error_kinds=dict(errors))
            if streams is not None:
                time.sleep(0.5)
                print(f"doorbells received by the phones: {streams.events}; stream failures {dict(streams.failures)}")
                report.update(doorbells=streams.events, stream_failures=sum(streams.failures.values()))
        finally:
            if streams is not None:
                streams.close()
            server.stop()

        cold, warm = cold_open(tmp, script, 5, args.big_entries)
        print(f"open a {args.big_entries}-entry match, cold (fresh process, empty state cache): "
              f"median {statistics.median(cold) * 1000:.1f} ms of {[round(c * 1000, 1) for c in cold]}; "
              f"warm {warm * 1000:.1f} ms")
        report.update(open_1000_event_match_ms=round(statistics.median(cold) * 1000, 2),
                      open_warm_ms=round(warm * 1000, 2))

    report["targets_met"] = {
        "move_p95_ms<25": bool(report.get("move_p95_ms") is not None and report["move_p95_ms"] < 25),
        "moves_per_second>=500": bool(report.get("moves_per_second", 0) >= 500),
        "open_1000_event_match_ms<50": report["open_1000_event_match_ms"] < 50,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
