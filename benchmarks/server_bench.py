"""Server load benchmark: `referee serve` on loopback, many tables at once, every phone honest.

What it does, in order:

1. Precomputes, with the rules engine (offline, before any timing), a long legal script of
   Rat-a-Tat Cat entries for a 4-player table (turn-up, draw + discard / draw + replace, a call,
   the reveal, the next round...), and for every discard or replace a refused entry (a second
   draw, RTC-10) that the engine refuses.
2. Creates TABLES playing matches and enough idle ones to hold STREAMS live streams in all, in a
   temporary SQLite file (synchronous=FULL, as served). Table i has already played i * STAGGER
   entries of the script, so that the tables are at different points of their rounds (and scan at
   different moments), as real tables are, not all revealing or scanning in the same second. It then
   starts `.venv/bin/referee serve --host 127.0.0.1 --port <free> --db <file> --no-qr` as a
   subprocess (as `make serve` does).
3. Seats every phone (POST /m/<id>/seat: its own session cookie, so each phone gets its own
   screen), opens every phone's live stream, the idle tables' streams (STREAMS in all) and SLOW
   slowloris connections (a request that never ends: one more header byte every few seconds).
4. Every phone behaves as the page does (referee/static/screen.js): on each `changed` doorbell it
   re-GETs its screen (`/m/<id>/screen?shown=<the token of the screen it shows>`, HX-Request: a
   phone whose screen is already current gets 204), except the doorbell of its own entry: that rings
   while the entry is on its way, and the entry's answer is the phone's fresh screen (a doorbell for
   a later version heard meanwhile is fetched once the answer is in). So a move is answered once and
   its screen fetched by each of the three other phones. A table's next entry is posted only
   once the phone that posts it shows the latest version. Before a discard or replace the phone
   opens the card picker (`GET /m/<id>/pick?...`); every REFUSE_EVERY-th such entry is first
   posted refused (422) on purpose; every SCAN_EVERY-th entry of a table comes with a scan
   (`POST /m/<id>/scan`, a photo drawn in code).
5. Paced phase (one entry per PACE s per table, ~10x a brisk real table; by default 50 entries a
   second in all, half of what this 2-core machine can do): POST latency below saturation.
   Closed loop: each table as fast as its phones go; `moves_per_second` counts accepted entries,
   `answers_per_second` every answer (entries, refusals, pickers, screens, scans). Then, when the mix
   had pickers, refusals or scans, a second closed loop at the load the throughput targets name (each
   move answered once and its screen fetched by the other phones): `target_load_moves_per_second`,
   `target_load_answers_per_second`, which `targets_met` checks.
6. A fresh server on a file holding matches of >= 1000 entries: a cold GET /m/<id> of each.
7. When benchmarks/store_bench.py and benchmarks/upload_bench.py exist, their `measure()`.

During the closed loop it also measures the cores used by the server (its serving process and its
screen processes, `server_process_cores`, serving process first), by this load generator, and by
everything else on the machine (`other_cores`, from /proc/stat): the raw rates depend on what else
runs, `moves_per_server_cpu_second` far less. `--screen-processes N` sets config SCREEN_PROCESSES.
Before the server starts and after it stops, it measures what a move costs in process
(`in_process_move_ms_before`, `_after`: the same entries and screens through Flask's test client):
the machine's speed at that hour, which every rate follows.

Unexpected statuses count as errors. Prints readable lines, then one JSON line. Run:
`.venv/bin/python benchmarks/server_bench.py` (options: --help). Loopback only; the load generator
(one asyncio thread) runs on the same cores as the server.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import re
import http.client
import itertools
import json
import os
import socket
import statistics
import subprocess
import tempfile
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
    def __init__(self, db_path: str, threads: int | None, connection_limit: int | None = None,
                 screen_processes: int | None = None):
        self.port = free_port()
        cmd = [str(REFEREE), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", db_path, "--no-qr"]
        if threads:
            cmd += ["--threads", str(threads)]
        if connection_limit:
            cmd += ["--connection-limit", str(connection_limit)]
        instance = Path(db_path).parent / "instance"
        if screen_processes is not None:  # config SCREEN_PROCESSES, in the instance's config.py
            instance.mkdir(exist_ok=True)
            (instance / "config.py").write_text(f"SCREEN_PROCESSES = {int(screen_processes)}\n")
        env = {**os.environ, "REFEREE_INSTANCE": str(instance)}
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


# --- Refusals and scans, computed offline -----------------------------------------------------------


def refusals_for(script) -> dict[int, dict]:
    """For each discard/replace position, a second draw by the same seat: refused (RTC-10)."""
    match = store.Match("script", "ratatat", PLAYERS, RULES, 0, None, "")
    log = tables.start(match)
    out = {}
    for position, (_, entry) in enumerate(script):
        if entry["move"] in ("discard", "replace"):
            wrong = {"move": "draw", "seat": entry["seat"]}
            try:
                tables.feed(log, wrong)
            except Ruling:
                out[position] = wrong
        log = tables.feed(log, entry)
    return out


def scan_photo() -> bytes:
    """One card on a table, drawn in code (the photo a phone would send)."""
    import cv2
    import numpy as np

    from vision import synth

    rng = np.random.default_rng(7)
    scene = synth.background("wood", (1280, 960), rng)
    w, h = synth.CARD_SIZE
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([460, 240])
    scene = synth.paste_card(scene, synth.art_card(5, "5", blobs=7), corners)
    ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return buf.tobytes()


# --- A small asyncio HTTP/1.1 client ----------------------------------------------------------------


class Conn:
    """One keep-alive connection; requests on it are serialised."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()

    async def request(self, method: str, path: str, headers: dict, body: bytes = b"",
                      timeout: float = 15) -> tuple[int, dict, bytes]:
        async with self.lock:
            try:
                return await asyncio.wait_for(self._request(method, path, headers, body), timeout)
            except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
                self.close()
                return 0, {}, b""

    async def _request(self, method, path, headers, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        if body or method == "POST":
            head += f"Content-Length: {len(body)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        try:
            head = await self.reader.readuntil(b"\r\n\r\n")  # the whole head in one read: a light generator
        except asyncio.IncompleteReadError as err:
            raise ConnectionResetError("closed") from err
        status_line, *lines = head[:-4].decode("latin-1").split("\r\n")
        status = int(status_line.split(" ", 2)[1])
        response_headers: dict[str, list[str]] = {}
        for line in lines:
            name, _, value = line.partition(":")
            response_headers.setdefault(name.strip().lower(), []).append(value.strip())
        if "content-length" in response_headers:
            data = await self.reader.readexactly(int(response_headers["content-length"][0]))
        elif "chunked" in response_headers.get("transfer-encoding", [""])[0]:
            data = b""
            while True:
                size = int((await self.reader.readline()).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                data += chunk[:-2]
        else:
            data = b""
        if "close" in response_headers.get("connection", [""])[0].lower():
            self.close()
        return status, response_headers, data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- Phones and tables ---------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.answers = Counter()  # kind -> answers received
        self.errors = Counter()  # "kind status" -> count
        self.move_latency: list[float] = []
        self.moves = 0
        self.doorbells = 0
        self.streams_open = 0
        self.stream_failures = Counter()

    def answer(self, kind: str, status: int, expected: tuple[int, ...]) -> bool:
        self.answers[kind] += 1
        if status not in expected:
            self.errors[f"{kind} {status or 'timeout'}"] += 1
            return False
        return True


WAIT_FOR_ANSWER = 0.4  # s: referee/static/screen.js's WAIT_MS
SHOWN = re.compile(rb'id="seen-version"[^>]*value="([^"]*)"')


class Phone:
    """One phone: its cookie, its keep-alive connection, the version its screen shows (and the
    `shown` token its page sends back with each re-GET, read from the screen it last drew)."""

    def __init__(self, port: int, match_id: str, seat: int, stats: Stats):
        self.port, self.match_id, self.seat, self.stats = port, match_id, seat, stats
        self.conn = Conn(port)
        self.cookie = ""
        self.shown = 0
        self.heard = 0  # the latest doorbell
        self.changed = asyncio.Event()
        self.fetching = False
        self.posting = False  # its own entry is on its way (its answer will be its fresh screen)
        self.waiting: asyncio.TimerHandle | None = None  # how long the page waits for that answer
        self.token = ""

    def drew(self, body: bytes) -> None:
        found = SHOWN.search(body)
        if found:
            self.token = found.group(1).decode()

    def headers(self, **more) -> dict:
        return {"Cookie": self.cookie, "Origin": f"http://127.0.0.1:{self.port}", **more}

    async def take_seat(self) -> None:
        status, headers, _ = await Conn(self.port).request(
            "POST", f"/m/{self.match_id}/seat", self.headers(**{"Content-Type": "application/x-www-form-urlencoded"}),
            urllib.parse.urlencode({"seat": self.seat}).encode())
        cookies = [v.split(";", 1)[0] for v in headers.get("set-cookie", [])]
        if status != 303 or not cookies:
            raise RuntimeError(f"seat {self.seat} at {self.match_id}: HTTP {status}")
        self.cookie = "; ".join(cookies)
        # The browser follows the 303 to the table's page, which opens the match in the serving process.
        status, _, body = await self.conn.request("GET", f"/m/{self.match_id}", self.headers())
        if status != 200:
            raise RuntimeError(f"the table page of {self.match_id}: HTTP {status}")
        self.drew(body)

    async def refetch(self) -> None:
        """What the page does on `changed`: GET its own screen (coalescing doorbells heard meanwhile),
        unless its own entry is on its way (referee/static/screen.js: the doorbell of that entry needs
        no re-GET; one for a later version is fetched once the answer has come, or after WAIT_FOR_ANSWER)."""
        if self.posting:
            if self.waiting is None:
                self.waiting = asyncio.get_running_loop().call_later(WAIT_FOR_ANSWER, self.waited)
            return
        if self.fetching:
            return
        self.fetching = True
        try:
            while self.shown < self.heard:
                target = self.heard
                status, _, body = await self.conn.request(
                    "GET", f"/m/{self.match_id}/screen?{urllib.parse.urlencode({'shown': self.token})}",
                    self.headers(**{"HX-Request": "true"}))
                if self.stats.answer("screen", status, (200, 204)):
                    self.drew(body)
                    self.shown = max(self.shown, target)
                    self.changed.set()
                else:
                    await asyncio.sleep(0.2)
        finally:
            self.fetching = False

    def waited(self) -> None:
        self.waiting = None
        if self.posting:
            self.posting = False  # the page stops waiting for the answer
            asyncio.ensure_future(self.refetch())

    def answered(self) -> None:
        self.posting = False
        if self.waiting is not None:
            self.waiting.cancel()
            self.waiting = None

    async def follow(self, running: asyncio.Event) -> None:
        """Hold the live stream open and react to every doorbell; reconnect when it ends."""
        while running.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError as err:
                self.stats.stream_failures[type(err).__name__] += 1
                await asyncio.sleep(1)
                continue
            writer.write((f"GET /m/{self.match_id}/events HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                          f"Cookie: {self.cookie}\r\nAccept: text/event-stream\r\n\r\n").encode())
            counted = False
            try:
                while line := await reader.readline():
                    if not counted and line.startswith(b": connected"):
                        self.stats.streams_open += 1
                        counted = True
                    elif line.startswith(b"id: "):
                        self.stats.doorbells += 1
                        self.heard = max(self.heard, int(line[4:]))
                        asyncio.ensure_future(self.refetch())
            except (OSError, ValueError) as err:
                self.stats.stream_failures[type(err).__name__] += 1
            finally:
                if counted:
                    self.stats.streams_open -= 1
                writer.close()


async def idle_stream(port: int, match_id: str, stats: Stats, running: asyncio.Event) -> None:
    """A phone at a table where nothing happens: its stream is held open, and read."""
    while running.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError as err:
            stats.stream_failures[type(err).__name__] += 1
            await asyncio.sleep(1)
            continue
        writer.write(f"GET /m/{match_id}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        counted = False
        try:
            while line := await reader.readline():
                if not counted and line.startswith(b": connected"):
                    stats.streams_open += 1
                    counted = True
        except OSError as err:
            stats.stream_failures[type(err).__name__] += 1
        finally:
            if counted:
                stats.streams_open -= 1
            writer.close()


class Slowloris:
    """Connections that start a request and never finish it: a header byte every `drip` seconds."""

    def __init__(self):
        self.held = 0
        self.closed_by_server = 0

    async def hold(self, port: int, running: asyncio.Event, drip: float = 5) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return
        writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
        self.held += 1
        try:
            while running.is_set():
                writer.write(b"X")
                await writer.drain()
                try:
                    if not await asyncio.wait_for(reader.read(1), drip) and running.is_set():
                        self.closed_by_server += 1
                        break
                except asyncio.TimeoutError:
                    continue
        except OSError:
            self.closed_by_server += 1
        finally:
            self.held -= 1
            writer.close()


class Table:
    def __init__(self, port: int, match_id: str, script, refusals: dict[int, dict], stats: Stats,
                 photo: bytes, scan_every: int, refuse_every: int, start: int = 0, pickers: bool = True):
        self.match_id, self.script, self.refusals, self.stats = match_id, script, refusals, stats
        self.phones = [Phone(port, match_id, s, stats) for s in range(len(PLAYERS))]
        self.photo, self.scan_every, self.refuse_every = photo, scan_every, refuse_every
        self.pickers = pickers
        self.position = start  # the entries already played at this table
        self.version = start
        self.done = False
        self.since_scan = start % scan_every if scan_every else 0  # tables do not scan all at once
        for phone in self.phones:
            phone.shown = phone.heard = start  # the page was loaded at this version

    def form(self, entry: dict, key: str) -> bytes:
        return urllib.parse.urlencode({**form_of(entry), "version": str(self.version), "key": key}).encode()

    async def step(self, record_latency: bool) -> None:
        if self.position >= len(self.script):
            self.done = True
            return
        seat, entry = self.script[self.position]
        phone = self.phones[seat if seat is not None else 0]
        while phone.shown < self.version:  # the player acts on what their screen shows
            phone.changed.clear()
            try:
                await asyncio.wait_for(phone.changed.wait(), 15)
            except asyncio.TimeoutError:
                self.stats.errors["screen never caught up"] += 1
                self.done = True
                return
        form_headers = phone.headers(**{"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"})
        base = f"/m/{self.match_id}"
        if self.pickers and entry["move"] in ("discard", "replace"):
            query = {"move": entry["move"], "field": "card" if entry["move"] == "discard" else "out"}
            if entry["move"] == "replace":
                query["slot"] = entry["slot"]
            status, _, _ = await phone.conn.request("GET", f"{base}/pick?{urllib.parse.urlencode(query)}",
                                                    phone.headers(**{"HX-Request": "true"}))
            self.stats.answer("pick", status, (200,))
            if self.refuse_every and self.position in self.refusals and self.position % self.refuse_every == 0:
                status, _, _ = await phone.conn.request(
                    "POST", f"{base}/entry", form_headers,
                    self.form(self.refusals[self.position], f"{self.match_id}-{self.position}-refused"))
                self.stats.answer("refused", status, (422,))
        self.since_scan += 1
        if self.scan_every and self.since_scan >= self.scan_every and entry["move"] in ("discard", "replace"):
            self.since_scan = 0
            boundary = "referee-bench-boundary"
            fields = {"move": entry["move"]} | ({"slot": str(entry["slot"])} if "slot" in entry else {})
            parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                     for k, v in fields.items()]
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="card.jpg"\r\n'
                         f"Content-Type: image/jpeg\r\n\r\n".encode() + self.photo + b"\r\n")
            body = b"".join(parts) + f"--{boundary}--\r\n".encode()
            status, _, _ = await phone.conn.request(
                "POST", f"{base}/scan", phone.headers(**{"HX-Request": "true",
                                                         "Content-Type": f"multipart/form-data; boundary={boundary}"}),
                body, timeout=30)
            self.stats.answer("scan", status, (200, 422, 429, 503))
        started = time.perf_counter()
        phone.posting = True
        try:
            status, _, body = await phone.conn.request("POST", f"{base}/entry", form_headers,
                                                       self.form(entry, f"{self.match_id}-{self.position}"))
        finally:
            phone.answered()
        if record_latency:
            self.stats.move_latency.append(time.perf_counter() - started)
        if self.stats.answer("entry", status, (200,)):
            phone.drew(body)
            self.stats.moves += 1
            self.version += 1
            phone.shown = max(phone.shown, self.version)  # its answer is its fresh screen
            self.position += 1
            if phone.heard > phone.shown:  # another phone's entry rang while this one was on its way
                asyncio.ensure_future(phone.refetch())
        else:
            self.done = True  # resync is impossible without parsing: this table stops

    async def run(self, until: float, pace: float | None, offset: float) -> None:
        next_at = time.perf_counter() + offset
        while not self.done and time.perf_counter() < until:
            if pace is not None:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                next_at += pace
                if time.perf_counter() >= until:
                    return
            await self.step(record_latency=pace is not None)


async def run_phase(tables_: list[Table], stats: Stats, seconds: float, pace: float | None) -> dict:
    moves0, answers0, errors0 = stats.moves, sum(stats.answers.values()), Counter(stats.errors)
    stats.move_latency = []
    started = time.perf_counter()
    until = started + seconds
    await asyncio.gather(*(t.run(until, pace, (pace or 0) * i / len(tables_)) for i, t in enumerate(tables_)))
    elapsed = time.perf_counter() - started
    moves, answers = stats.moves - moves0, sum(stats.answers.values()) - answers0
    return {"moves": moves, "answers": answers, "seconds": elapsed, "errors": dict(stats.errors - errors0),
            "latency": list(stats.move_latency)}


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) a process has used so far, from /proc; None where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def machine_busy_seconds() -> float | None:
    """CPU seconds all cores have been busy so far (every process on the machine), from /proc/stat."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return (sum(values[:8]) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")  # minus idle, iowait
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def child_pids(pid: int) -> list[int]:
    """The processes `pid` started (the server's screen processes), from /proc."""
    out = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(c) for c in (task / "children").read_text().split()]
    except (OSError, ValueError):
        pass
    return out


def server_cpu(pid: int) -> dict[int, float]:
    """CPU seconds used so far by the server process and each of its children, by pid."""
    return {p: c for p in [pid, *child_pids(pid)] if (c := cpu_seconds(p)) is not None}


async def load_phases(port: int, ids: list[str], idle_ids: list[str], args, script, refusals,
                      server_pid: int | None = None) -> dict:
    stats, running, slow = Stats(), asyncio.Event(), Slowloris()
    running.set()
    photo = scan_photo()
    tables_ = [Table(port, m, script, refusals, stats, photo, args.scan_every, args.refuse_every, i * args.stagger,
                     not args.no_pickers)
               for i, m in enumerate(ids)]
    phones = [p for t in tables_ for p in t.phones]
    for i in range(0, len(phones), 50):
        await asyncio.gather(*(p.take_seat() for p in phones[i:i + 50]))
    print(f"{len(tables_)} tables, {len(phones)} phones seated")
    tasks = [asyncio.ensure_future(p.follow(running)) for p in phones]
    idle_needed = max(0, args.streams - len(phones))
    for i in range(idle_needed):
        tasks.append(asyncio.ensure_future(idle_stream(port, idle_ids[i % len(idle_ids)], stats, running)))
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # as phones arrive, not all in one instant
    tasks += [asyncio.ensure_future(slow.hold(port, running)) for _ in range(args.slow)]
    deadline = time.monotonic() + 60
    while (stats.streams_open < len(phones) + idle_needed or slow.held < args.slow) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    report = {"streams_opened": stats.streams_open, "slow_opened": slow.held}
    print(f"live streams open: {stats.streams_open}/{len(phones) + idle_needed}; slow connections: "
          f"{slow.held}/{args.slow}")
    health, _, _ = await Conn(port).request("GET", "/healthz", {}, timeout=10)
    report["healthz_under_load"] = health
    if health != 200:
        print(f"!! /healthz answered {health or 'nothing within 10 s'} with the streams open")
    paced = await run_phase(tables_, stats, args.paced_seconds, args.pace)
    lat = paced["latency"]
    print(f"paced ({args.pace} s per table): {paced['moves']} entries, {paced['answers']} answers in "
          f"{paced['seconds']:.1f} s; entry p50 {pct(lat, .5):.1f} ms, p95 {pct(lat, .95):.1f} ms, "
          f"p99 {pct(lat, .99):.1f} ms; errors {paced['errors']}")
    report.update(move_p50_ms=round(pct(lat, .5), 2), move_p95_ms=round(pct(lat, .95), 2),
                  move_p99_ms=round(pct(lat, .99), 2), paced_moves=paced["moves"], paced_errors=paced["errors"])
    report.update(await closed_loop(tables_, stats, args.closed_seconds, server_pid))
    if not args.no_pickers or args.scan_every or args.refuse_every:
        # The load the throughput targets name: each move answered once and its screen fetched by the
        # other phones; no pickers, refusals or scans (the same tables, where they had got to).
        for t in tables_:
            t.pickers, t.scan_every, t.refuse_every = False, 0, 0
        print("the target load (no pickers, refusals or scans):")
        target = await closed_loop(tables_, stats, args.closed_seconds, server_pid)
        report.update({f"target_load_{key}": target[key] for key in
                       ("moves_per_second", "answers_per_second", "moves_per_server_cpu_second", "server_cores",
                        "load_generator_cores", "closed_errors") if key in target})
    await asyncio.sleep(0.5)
    report.update(streams_held=stats.streams_open, slow_connections_held=slow.held,
                  slow_closed_by_server=slow.closed_by_server, doorbells=stats.doorbells,
                  stream_failures=dict(stats.stream_failures), answers_by_kind=dict(stats.answers))
    print(f"held at the end: {stats.streams_open} streams, {slow.held} slow connections; doorbells heard "
          f"{stats.doorbells}; answers {dict(stats.answers)}; stream failures {dict(stats.stream_failures)}")
    running.clear()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return report


async def closed_loop(tables_: list[Table], stats: Stats, seconds: float, server_pid: int | None) -> dict:
    """Every table as fast as its phones go for `seconds`: the rates, and where the cores went."""
    report: dict = {}
    for t in tables_:
        t.done = False if t.position < len(t.script) else t.done
    server_cpus0, own_cpu0 = server_cpu(server_pid) if server_pid else {}, cpu_seconds(os.getpid())
    busy0 = machine_busy_seconds()
    closed = await run_phase(tables_, stats, seconds, None)
    server_cpus1, own_cpu1 = server_cpu(server_pid) if server_pid else {}, cpu_seconds(os.getpid())
    busy1 = machine_busy_seconds()
    used = {p: server_cpus1[p] - server_cpus0.get(p, 0.0) for p in server_cpus1}
    server_cpu0, server_cpu1 = (0.0, sum(used.values())) if server_pid in used else (None, None)
    mps, aps = closed["moves"] / closed["seconds"], closed["answers"] / closed["seconds"]
    print(f"closed loop: {closed['moves']} entries = {mps:.0f} moves/s; {closed['answers']} answers = "
          f"{aps:.0f} answers/s; errors {closed['errors']}")
    report.update(moves_per_second=round(mps, 1), answers_per_second=round(aps, 1),
                  closed_errors=closed["errors"])
    # Where the two cores went: the server's processes and this load generator, in cores busy.
    load_cores = (own_cpu1 - own_cpu0) / closed["seconds"] if own_cpu0 is not None and own_cpu1 is not None else 0
    report["load_generator_cores"] = round(load_cores, 2)
    if server_cpu0 is not None and server_cpu1 is not None:
        server_cores = (server_cpu1 - server_cpu0) / closed["seconds"]
        report.update(server_cores=round(server_cores, 2),
                      server_process_cores=[round(used[p] / closed["seconds"], 2) for p in sorted(used)
                                            if p == server_pid] + [round(used[p] / closed["seconds"], 2)
                                                                    for p in sorted(used) if p != server_pid],
                      moves_per_server_cpu_second=round(closed["moves"] / max(server_cpu1 - server_cpu0, 1e-9), 1))
        if busy0 is not None and busy1 is not None:  # whatever else ran on the machine meanwhile
            report["other_cores"] = round(max(0.0, (busy1 - busy0) / closed["seconds"] - server_cores - load_cores), 2)
        print(f"cores busy: other processes {report.get('other_cores')}, server {server_cores:.2f} (serving process first, then its screen processes: "
              f"{report['server_process_cores']}), load generator {load_cores:.2f}; "
              f"{report['moves_per_server_cpu_second']:.0f} moves per second of server CPU")
    return report


def other_bench(name: str, key: str) -> dict:
    """`measure()` of benchmarks/<name>.py, when that file exists: {key: value} or {}."""
    path = ROOT / "benchmarks" / f"{name}.py"
    if not path.exists():
        return {}
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        result = module.measure()
    except Exception as err:  # noqa: BLE001  (another benchmark's failure is reported, not fatal)
        print(f"{name}.measure() failed: {err!r}")
        return {key: None}
    value = result.get(key) if isinstance(result, dict) else result
    return {key: value}


# --- Measurements ---------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float:
    ms = sorted(v * 1000 for v in values)
    if not ms:
        return float("nan")
    return ms[min(len(ms) - 1, max(0, round(q * len(ms)) - 1))]


def build_big_matches(db_path: str, script, count: int, entries: int | list[int]) -> list[str]:
    """`count` matches holding the script's first `entries` entries (a number, or one per match)."""
    db = connect(db_path)
    db.execute("PRAGMA synchronous = OFF")  # set-up only: the server runs with FULL
    ids = []
    try:
        for i in range(count):
            match = store.create_match(db, "ratatat", PLAYERS, RULES)
            upto = entries[i] if isinstance(entries, list) else entries
            for version, (seat, entry) in enumerate(script[:upto]):
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


def in_process_move_ms(tmp: Path, script, moves: int = 200) -> float:
    """What a move costs in process just now, in ms of CPU: the mover's entry (answered with its fresh
    screen) and the three other phones' screens, through Flask's test client on a match of four (no
    HTTP, no screen processes). The machine's speed moves from hour to hour, and the rates above move
    with it; this figure shows the speed of the minutes before and after the load."""
    from referee import create_app, server

    db_path = str(tmp / "in_process.sqlite")
    migrate(db_path)
    db = connect(db_path)
    match_id = store.create_match(db, "ratatat", PLAYERS, RULES).id
    db.close()
    app = create_app({"DATABASE": db_path, "SECRET_KEY": "in-process-move" * 3, "MIGRATE_ON_START": False})
    server.speed_up(app)
    origin = {"Origin": "http://localhost"}
    phones = [app.test_client() for _ in PLAYERS]
    for seat, phone in enumerate(phones):
        assert phone.post(f"/m/{match_id}/seat", data={"seat": seat}, headers=origin).status_code == 303
    shown = [""] * len(phones)

    def move(version: int) -> None:
        seat, entry = script[version]
        mover = seat if seat is not None else 0
        answer = phones[mover].post(f"/m/{match_id}/entry", headers={**origin, "HX-Request": "true"},
                                    data={**form_of(entry), "version": str(version), "key": f"k{version}"})
        assert answer.status_code == 200, answer.status_code
        shown[mover] = SHOWN.search(answer.data).group(1).decode()
        for other, phone in enumerate(phones):
            if other != mover:
                answer = phone.get(f"/m/{match_id}/screen?shown={shown[other]}", headers={"HX-Request": "true"})
                assert answer.status_code == 200, answer.status_code
                shown[other] = SHOWN.search(answer.data).group(1).decode()

    for version in range(50):  # templates compiled, parts of the screens kept
        move(version)
    started = time.process_time()
    for version in range(50, 50 + moves):
        move(version)
    return round((time.process_time() - started) / moves * 1000, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables playing (4 phones each)")
    parser.add_argument("--streams", type=int, default=2000, help="live streams held in all (idle tables fill up)")
    parser.add_argument("--slow", type=int, default=300, help="slowloris connections held")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's entries (paced phase)")
    parser.add_argument("--paced-seconds", type=float, default=15)
    parser.add_argument("--closed-seconds", type=float, default=20)
    parser.add_argument("--refuse-every", type=int, default=5,
                        help="every Nth discard/replace is first refused (0: none)")
    parser.add_argument("--no-pickers", action="store_true",
                        help="no card picker before a discard or replace: only entries and screens")
    parser.add_argument("--scan-every", type=int, default=20, help="every Nth entry of a table comes with a scan")
    parser.add_argument("--stagger", type=int, default=7,
                        help="entries already played at table i: i * STAGGER (0: every table starts together)")
    parser.add_argument("--threads", type=int, default=None, help="worker threads (default: referee serve's)")
    parser.add_argument("--connection-limit", type=int, default=None, help="default: referee serve's")
    parser.add_argument("--big-entries", type=int, default=1000)
    parser.add_argument("--skip-others", action="store_true", help="do not run store_bench / upload_bench")
    parser.add_argument("--screen-processes", type=int, default=None,
                        help="config SCREEN_PROCESSES for the server (default: referee serve's)")
    args = parser.parse_args()

    report: dict = {"tables": args.tables, "phones": args.tables * len(PLAYERS), "threads": args.threads or "default",
                    "screen_processes": "default" if args.screen_processes is None else args.screen_processes,
                    "measured_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cores": os.cpu_count()}
    started = time.perf_counter()
    script = make_script(max(args.big_entries, 3000))
    refusals = refusals_for(script)
    print(f"script: {len(script)} legal entries, {len(refusals)} refusals precomputed in "
          f"{time.perf_counter() - started:.1f} s")

    with tempfile.TemporaryDirectory(prefix="referee-bench-") as tmpdir:
        tmp = Path(tmpdir)
        report["in_process_move_ms_before"] = in_process_move_ms(tmp, script)
        db_path = str(tmp / "load.sqlite")
        migrate(db_path)
        starts = [i * args.stagger for i in range(args.tables)]
        ids = build_big_matches(db_path, script, args.tables, starts)
        db = connect(db_path)
        idle_tables = max(1, (args.streams - args.tables * len(PLAYERS) + 3) // 4)
        idle_ids = [store.create_match(db, "ratatat", PLAYERS, RULES).id for _ in range(idle_tables)]
        db.close()
        server = Server(db_path, args.threads, args.connection_limit, args.screen_processes)
        try:
            try:
                import uvloop

                runner = uvloop.run
            except ImportError:
                runner = asyncio.run
            report.update(runner(load_phases(server.port, ids, idle_ids, args, script, refusals,
                                             server.proc.pid)))
        finally:
            server.stop()
        report["in_process_move_ms_after"] = in_process_move_ms(tmp, script)

        cold, warm = cold_open(tmp, script, 5, args.big_entries)
        print(f"open a {args.big_entries}-entry match, cold (fresh process, empty state cache): "
              f"median {statistics.median(cold) * 1000:.1f} ms of {[round(c * 1000, 1) for c in cold]}; "
              f"warm {warm * 1000:.1f} ms")
        report.update(open_1000_event_match_ms=round(statistics.median(cold) * 1000, 2),
                      open_warm_ms=round(warm * 1000, 2))

    if not args.skip_others:
        report.update(other_bench("store_bench", "open_10000_event_match_ms"))
        report.update(other_bench("upload_bench", "hostile_upload_peak_rss_mb"))
    report["targets_met"] = {
        # at the load the targets name (the default mix adds pickers, refusals and scans)
        "moves_per_second>=250": report.get("target_load_moves_per_second", report.get("moves_per_second", 0)) >= 250,
        "answers_per_second>=1000": report.get("target_load_answers_per_second",
                                               report.get("answers_per_second", 0)) >= 1000,
        "streams_held>=2000": report.get("streams_held", 0) >= 2000,
        "slow_connections_held>=300": report.get("slow_connections_held", 0) >= 300,
        "move_p95_ms<25": bool(report.get("move_p95_ms") is not None and report["move_p95_ms"] < 25),
        "open_1000_event_match_ms<50": report["open_1000_event_match_ms"] < 50,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
