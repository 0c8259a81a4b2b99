"""``referee check`` on a long hostile transcript: 1,000,000 refused entries (about 100 MB).

Builds the file in a temporary folder, runs ``referee check`` on it in a subprocess and reports the
time and the peak memory (RSS) of that process; the target is under 500 MB. Last line: one JSON object.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ENTRIES = int(os.environ.get("CHECK_BENCH_ENTRIES", "1000000"))
# Ben draws out of turn, again and again: each entry is refused (GEN-7) and skipped.
REFUSED = ('{"seat": "Ben", "move": "draw", "note": "Ben insists that it is his turn, again and again '
           'and again"}')


def build(path: str, n: int) -> int:
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"format": "referee-transcript/1", "game": "ratatat", "players": ["Ana", "Ben"],\n'
                  ' "entries": [\n  {"move": "turn_up", "card": "5"}')
        chunk = (",\n  " + REFUSED) * 1000
        for _ in range(n // 1000):
            out.write(chunk)
        out.write("\n]}\n")
    return os.path.getsize(path)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "long.json")
        size = build(path, ENTRIES)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "referee", "check", path], capture_output=True,
                              text=True)
        seconds = time.perf_counter() - start
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if proc.returncode != 0:
        print(proc.stderr[-2000:], file=sys.stderr)
        sys.exit(1)
    summary = proc.stdout.strip().splitlines()[-1]
    print(f"transcript: {size / 1e6:.0f} MB, {ENTRIES + 1:,} entries")
    print(f"referee check: {seconds:.1f} s, peak RSS {peak_mb:.0f} MB (target < 500 MB)")
    print(f"report: {summary}")
    print(json.dumps({"check_entries": ENTRIES + 1, "check_file_mb": round(size / 1e6, 1),
                      "check_seconds": round(seconds, 1), "check_peak_rss_mb": round(peak_mb, 1)}))


if __name__ == "__main__":
    main()
