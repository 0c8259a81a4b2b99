"""Hostile uploads against `referee serve`: memory stays bounded and other tables stay fast.

1. Creates two tables in a temporary SQLite file and starts `.venv/bin/referee serve --host
   127.0.0.1 --port <free> --db <file> --no-qr` as a subprocess (as `make serve` does).
2. Seats a phone at table A, and builds the hostile photo: a 6300×6300 all-black PNG (about 113 KB,
   under the 40-megapixel cap, 119 MB once decoded).
3. Times GETs of table B's page alone (idle), then again while UPLOADS (30) phones post that PNG to
   table A's scan at once; samples the server's RSS meanwhile, and reads its peak (VmHWM in
   /proc/<pid>/status) and what it still holds a few seconds after.

`.venv/bin/python benchmarks/upload_bench.py [--uploads N]`; prints its figures and, last, one line
of JSON. Another benchmark can import `measure()`, which returns at least
{"hostile_upload_peak_rss_mb", "pages_during_uploads_p95_ms"}. Target: peak RSS < 600 MB and
pages p95 < 100 ms with 30 uploads at once.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import struct
import subprocess
import tempfile
import threading
import time
import zlib
from pathlib import Path

from referee import store
from referee.db import connect, migrate

ROOT = Path(__file__).resolve().parent.parent
REFEREE = ROOT / ".venv" / "bin" / "referee"


def hostile_png(width: int = 6300, height: int = 6300) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = b"\x00" * (1 + width * 3)
    idat = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            timeout: float = 120) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def multipart(fields: dict[str, str], photo: bytes) -> tuple[bytes, str]:
    boundary = "referee-bench-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
             for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="photo.png"\r\n'
                 f"Content-Type: image/png\r\n\r\n".encode() + photo + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def proc_status(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in kB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


class Server:
    def __init__(self, db_path: str):
        self.port = free_port()
        cmd = [str(REFEREE), "serve", "--host", "127.0.0.1", "--port", str(self.port), "--db", db_path, "--no-qr"]
        env = {**os.environ, "REFEREE_INSTANCE": str(Path(db_path).parent / "instance")}
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT)
        deadline = time.monotonic() + 60
        while True:
            try:
                if request(self.port, "GET", "/healthz", timeout=1)[0] == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("referee serve did not start: " + self.proc.stderr.read().decode()[-2000:])
            time.sleep(0.05)

    def stop(self) -> None:
        self.proc.send_signal(2)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def time_pages(port: int, path: str, stop: threading.Event, out: list[float], at_least: int = 0) -> None:
    while not stop.is_set() or len(out) < at_least:
        start = time.perf_counter()
        status, _, _ = request(port, "GET", path, timeout=30)
        if status == 200:
            out.append((time.perf_counter() - start) * 1000)
        time.sleep(0.02)


def measure(uploads: int = 30) -> dict:
    """Fire ``uploads`` hostile PNGs at once at one table while timing another table's page."""
    with tempfile.TemporaryDirectory() as tmp:
        db_path = str(Path(tmp) / "bench.sqlite")
        migrate(db_path)
        db = connect(db_path)
        table_a = store.create_match(db, "ratatat", ["Ana", "Ben"])
        table_b = store.create_match(db, "ratatat", ["Cy", "Dee"])
        db.conn.close()
        server = Server(db_path)
        try:
            pid = server.proc.pid
            origin = {"Origin": f"http://127.0.0.1:{server.port}"}
            _, headers, _ = request(server.port, "POST", f"/m/{table_a.id}/seat", b"seat=0",
                                    {**origin, "Content-Type": "application/x-www-form-urlencoded"})
            cookie = headers.get("set-cookie", "").split(";")[0]
            body, ctype = multipart({"move": "turn_up", "field": "card"}, hostile_png())
            page = f"/m/{table_b.id}"
            for _ in range(3):
                request(server.port, "GET", page)  # warm
            idle: list[float] = []
            done = threading.Event()
            done.set()
            time_pages(server.port, page, done, idle, at_least=30)
            base_rss = proc_status(pid)["VmRSS"] / 1024

            during: list[float] = []
            statuses: list[int] = []
            rss: list[float] = []
            stop = threading.Event()

            def sample() -> None:
                while not stop.is_set():
                    rss.append(proc_status(pid)["VmRSS"] / 1024)
                    time.sleep(0.02)

            def post() -> None:
                status, _, _ = request(server.port, "POST", f"/m/{table_a.id}/scan", body,
                                       {**origin, "Cookie": cookie, "Content-Type": ctype})
                statuses.append(status)

            watchers = [threading.Thread(target=sample), threading.Thread(target=time_pages,
                                                                           args=(server.port, page, stop, during))]
            for w in watchers:
                w.start()
            started = time.perf_counter()
            posters = [threading.Thread(target=post) for _ in range(uploads)]
            for p in posters:
                p.start()
            for p in posters:
                p.join()
            seconds = time.perf_counter() - started
            stop.set()
            for w in watchers:
                w.join()
            time.sleep(3)
            status = proc_status(pid)
            return {
                "uploads": uploads,
                "upload_bytes": len(body),
                "answered_200": statuses.count(200),
                "answered_503": statuses.count(503),
                "answered_other": len(statuses) - statuses.count(200) - statuses.count(503),
                "uploads_seconds": round(seconds, 2),
                "rss_before_mb": round(base_rss, 1),
                "hostile_upload_peak_rss_mb": round(status["VmHWM"] / 1024, 1),
                "rss_sampled_max_mb": round(max(rss, default=0.0), 1),
                "rss_after_mb": round(status["VmRSS"] / 1024, 1),
                "pages_idle_p95_ms": round(pct(idle, 0.95), 2),
                "pages_during_uploads": len(during),
                "pages_during_uploads_p50_ms": round(statistics.median(during), 2) if during else None,
                "pages_during_uploads_p95_ms": round(pct(during, 0.95), 2),
            }
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--uploads", type=int, default=30, help="hostile uploads fired at once")
    args = parser.parse_args()
    report = measure(args.uploads)
    print(f"{report['uploads']} uploads of a {report['upload_bytes'] // 1024} KB 6300×6300 PNG at once: "
          f"{report['answered_200']} read, {report['answered_503']} asked to retry (503), "
          f"{report['answered_other']} other, in {report['uploads_seconds']} s")
    print(f"server RSS: {report['rss_before_mb']} MB before, peak {report['hostile_upload_peak_rss_mb']} MB "
          f"(target < 600), {report['rss_after_mb']} MB 3 s after")
    print(f"another table's page: p95 {report['pages_idle_p95_ms']} ms idle, "
          f"p95 {report['pages_during_uploads_p95_ms']} ms during the uploads (target < 100; "
          f"{report['pages_during_uploads']} GETs)")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
