"""Server benchmark (skeleton): append latency through the store and screen
GET latency through real waitress, on a temporary database, loopback only.

Bounded: a fixed number of appends and requests; prints a small table.
Run with `make bench` or `.venv/bin/python benchmarks/server_bench.py`.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from waitress import create_server, wasyncore

from referee import create_app, store
from referee.db import connect

APPENDS = 300
REQUESTS = 300


def add(total: int, entry: dict) -> int:
    return total + entry["n"]


replay = store.fold(lambda match: 0, add)


def summarise(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[int(len(ms) * 0.95) - 1]
    return f"{name:<22} n={len(ms):<5} median={statistics.median(ms):7.2f} ms  p95={p95:7.2f} ms  max={ms[-1]:7.2f} ms"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"DATABASE": str(Path(tmp) / "bench.sqlite"), "SECRET_KEY": "bench"}, instance_path=str(Path(tmp) / "inst")
        )
        db = connect(app.config["DATABASE"])
        match = store.create_match(db, "tally", ["Ann", "Bo", "Cy", "Di"])

        append_times = []
        for version in range(APPENDS):
            started = time.perf_counter()
            store.append(db, match.id, version, {"n": 1}, f"k{version}", add, replay_fn=replay)
            append_times.append(time.perf_counter() - started)

        server = create_server(app, host="127.0.0.1", port=0, threads=8)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        url = f"http://127.0.0.1:{server.effective_port}/m/{match.id}/screen"
        get_times = []
        try:
            for _ in range(REQUESTS):
                started = time.perf_counter()
                with urllib.request.urlopen(url, timeout=10) as response:
                    response.read()
                get_times.append(time.perf_counter() - started)
        finally:
            server.task_dispatcher.shutdown(timeout=5)
            wasyncore.close_all(server._map)
            thread.join(5)
            db.close()

        print(summarise("store.append", append_times))
        print(summarise("GET screen (waitress)", get_times))


if __name__ == "__main__":
    main()
