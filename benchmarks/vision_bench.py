"""Measure card recognition on the labelled photo folders (see docs/vision.md).

Usage: python benchmarks/vision_bench.py [DATA_DIR]
DATA_DIR defaults to $REFEREE_VISION_DATA, else ../shared/vision beside the repository.
Prints the figures per folder; the last line is one JSON object keyed by folder. Exits 0 with
a JSON note when the data is absent (as on CI); scenes of standard cards drawn in code are
measured in any case. Runs OpenCV on one thread, as the target says.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.evaluate import (  # noqa: E402
    composed_samples, drawn_standard_samples, evaluate, folder_samples, teach_folder)

import cv2  # noqa: E402  (after vision, which sets OpenCV's and BLAS's environment first)

COMPOSED_SCENES = 60
DRAWN_SCENES = 40


def main(argv: list[str]) -> int:
    default = Path(__file__).resolve().parents[2] / "shared" / "vision"
    data = Path(argv[1] if len(argv) > 1 else os.environ.get("REFEREE_VISION_DATA", default))
    cv2.setNumThreads(1)
    # drawn in code, so measured everywhere: 1600×1200 photos, the size the latency target names
    results = {"standard-drawn-1600": evaluate(drawn_standard_samples(DRAWN_SCENES), "standard")}
    if not data.is_dir():
        results["skipped"] = f"no vision data at {data}"
        print(json.dumps(results))
        return 0
    for name in ("standard-busy-train", "standard-mixed-designs"):
        if (data / name / "labels.csv").exists():
            results[name] = evaluate(folder_samples(data / name), "standard")
    teach_dir = data / "ratatat-teach"
    if (teach_dir / "labels.csv").exists():
        refs = teach_folder(teach_dir)
        results["ratatat-composed"] = evaluate(composed_samples(teach_dir, COMPOSED_SCENES), "ratatat", refs)
    for name, figures in results.items():
        print(name)
        for key, value in figures.items():
            print(f"  {key:16} {value}")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
