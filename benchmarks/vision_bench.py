"""Measure card recognition on the labelled photo folders and on scenes drawn in code (see
docs/vision.md).

Usage: python benchmarks/vision_bench.py [DATA_DIR]
DATA_DIR defaults to $REFEREE_VISION_DATA, else ../shared/vision beside the repository.
Prints the figures per set; the last line is one JSON object keyed by set. Each real folder is
reported in two parts, never pooled: "tuning" (what thresholds may be chosen on) and
"held-out" (the untouched split: about a third of the photos, chosen by file name in
vision.evaluate.part_of, that no threshold or training run looks at). Exits 0 with a JSON note
when the data is absent (as on CI); the scenes drawn in code are measured in any case:
  standard-drawn-1600    1600×1200 photos of 1–5 cards (the latency target's size)
  scenes-above, -seated  cards on ordinary tables spread, in a row, fanned, overlapping, from
                         above and from a seated player's angle; 6s and 9s turned half round;
                         with the outline error (found corners from the true ones, share of the
                         card's height)
  full-size-12mp         4032×3024 JPEGs as a phone's camera writes them, read whole by the
                         server (decode included), and their upload size after the phone's
                         downscale (camera.js: 1600 px, JPEG 85)
Runs OpenCV on one thread, as the target says.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.evaluate import (  # noqa: E402
    PARTS, composed_samples, drawn_standard_samples, evaluate, folder_samples, full_size_samples, scene_samples,
    teach_folder, upload_sizes)

import cv2  # noqa: E402  (after vision, which sets OpenCV's and BLAS's environment first)

COMPOSED_SCENES = 60
DRAWN_SCENES = 40
SCENES = 48
FULL_SIZE = 8


def main(argv: list[str]) -> int:
    default = Path(__file__).resolve().parents[2] / "shared" / "vision"
    data = Path(argv[1] if len(argv) > 1 else os.environ.get("REFEREE_VISION_DATA", default))
    cv2.setNumThreads(1)
    # drawn in code, so measured everywhere
    results = {"standard-drawn-1600": evaluate(drawn_standard_samples(DRAWN_SCENES), "standard"),
               "scenes-above": evaluate(scene_samples(SCENES, seed=1, tilt=0.0), "standard"),
               "scenes-seated": evaluate(scene_samples(SCENES, seed=2, tilt=0.5), "standard")}
    full = list(full_size_samples(FULL_SIZE))
    results["full-size-12mp"] = {**evaluate(full, "standard"), **upload_sizes(full)}
    if not data.is_dir():
        results["skipped"] = f"no vision data at {data}"
        print(json.dumps(results))
        return 0
    for name in ("standard-busy-train", "standard-mixed-designs"):
        if (data / name / "labels.csv").exists():
            for part in PARTS:
                samples = list(folder_samples(data / name, part))
                results[f"{name}/{part}"] = {**evaluate(samples, "standard"), **upload_sizes(samples)}
    teach_dir = data / "ratatat-teach"
    if (teach_dir / "labels.csv").exists():
        refs = teach_folder(teach_dir)
        results["ratatat-composed"] = evaluate(composed_samples(teach_dir, COMPOSED_SCENES), "ratatat", refs)
    for name, figures in results.items():
        print(name)
        for key, value in (figures.items() if isinstance(figures, dict) else [("", figures)]):
            print(f"  {key:22} {value}")
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
