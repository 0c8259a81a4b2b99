"""Measure recognition on a labelled folder (see docs/vision.md for the folder format).

Scoring, per image, matches the answered labels against the expected multiset: exact labels
first, then rank-only expectations ("Q*") against the rank of what is left. Figures:
  cards_found     answers given (reads with a label)
  cards_correct   answers that matched an expected card
  precision       cards_correct / cards_found      (how often an answer is right)
  recall          cards_correct / cards_expected
  card_accuracy   cards_correct / cards detected (answered or unknown)
  unknown_rate    reads answered "unknown" / cards detected
  latency         per photo, decoding included (wall clock; cpu_p95_ms is CPU time, which
                  other processes on the machine do not inflate)
"""

from __future__ import annotations

import csv
import hashlib
import re
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

from . import synth
from .decode import decode_upload
from .recognise import recognise, teach, warm_up
from .taught import References

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp"}


def read_labels(folder: Path) -> list[tuple[str, list[str]]]:
    """(file name, expected cards) rows of folder/labels.csv."""
    with open(folder / "labels.csv", newline="", encoding="utf-8") as fh:
        return [(row["file"], row["cards"].split()) for row in csv.DictReader(fh)]


def _rank(label: str) -> str:
    return label[:-1] if len(label) > 1 and label[-1] in "SHDC*" and label != "JOKER" else label


def count_correct(expected: list[str], answered: list[str]) -> int:
    """Size of the multiset match; 'Q*' matches any answer of rank Q."""
    left = Counter(answered)
    correct = 0
    for exp in [e for e in expected if not e.endswith("*")]:
        if left[exp] > 0:
            left[exp] -= 1
            correct += 1
    ranks = Counter()
    for label, n in left.items():
        ranks[_rank(label)] += n
    for exp in [e for e in expected if e.endswith("*")]:
        if ranks[exp[:-1]] > 0:
            ranks[exp[:-1]] -= 1
            correct += 1
    return correct


def unmatched(expected: list[str], answered: list[str]) -> tuple[list[str], list[str]]:
    """The ranks of the expected cards no answer matched, and of the answers that matched none
    (matching as count_correct)."""
    left = Counter(answered)
    missed = []
    for exp in [e for e in expected if not e.endswith("*")]:
        if left[exp] > 0:
            left[exp] -= 1
        else:
            missed.append(_rank(exp))
    ranks = Counter()
    for label, n in left.items():
        ranks[_rank(label)] += n
    for exp in [e for e in expected if e.endswith("*")]:
        if ranks[exp[:-1]] > 0:
            ranks[exp[:-1]] -= 1
        else:
            missed.append(exp[:-1])
    return missed, list(ranks.elements())


def turned_confusions(expected: list[str], answered: list[str]) -> int:
    """Answers of 6 where a 9 lay (or 9 for 6): a card read upside down."""
    missed, wrong = map(Counter, unmatched(expected, answered))
    return min(missed["6"], wrong["9"]) + min(missed["9"], wrong["6"])


def teach_folder(folder: Path) -> References:
    """References from a folder of one-card photos (labels.csv names the card in each)."""
    refs = References()
    for name, cards in read_labels(folder):
        image = decode_upload((folder / name).read_bytes())
        refs = teach(image, cards, refs)
    return refs


PARTS = ("tuning", "held-out")
SHOT_RUN = 10  # photos numbered within this many of each other are one sitting: kept on one side


def part_of(name: str) -> str:
    """'tuning' or 'held-out' for a photo, from its file name alone (deterministic, about a third
    held out). Photos taken in one sitting (IMG_2385 … IMG_2394, or every copy of one card in
    a folder of designs: ace_of_clubs_1 … _5) fall on the same side, so a near-copy of a
    held-out photo is never tuned on."""
    stem = name.rsplit(".", 1)[0]
    m = re.match(r"(.*?)(\d+)(\D*)$", stem)
    key = f"{m.group(1)}{int(m.group(2)) // SHOT_RUN}{m.group(3)}" if m else stem
    return "held-out" if int(hashlib.sha1(key.encode()).hexdigest(), 16) % 3 == 0 else "tuning"


def folder_samples(folder: Path, part: str | None = None) -> Iterator[tuple[bytes, list[str]]]:
    """(photo bytes, expected cards) of a labelled folder; `part` keeps only the 'tuning' or
    the 'held-out' photos (see part_of)."""
    for name, cards in read_labels(folder):
        if part is None or part_of(name) == part:
            yield (folder / name).read_bytes(), cards


def composed_samples(folder: Path, count: int, seed: int = 0) -> Iterator[tuple[bytes, list[str]]]:
    """Table scenes composed from the folder's flat card images, 1–5 cards each, as JPEG bytes."""
    rows = read_labels(folder)
    faces = [(cv2.imread(str(folder / name)), cards[0]) for name, cards in rows]
    rng = np.random.default_rng(seed)
    for i in range(count):
        n = int(rng.integers(1, 6))
        # every face appears: walk through them in order, then fill at random
        picks = [faces[(i * 5 + k) % len(faces)] for k in range(n)]
        scene, _ = synth.compose_scene([f for f, _ in picks], rng)
        ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 88])
        yield buf.tobytes(), [label for _, label in picks]


def drawn_standard_samples(count: int, seed: int = 0) -> Iterator[tuple[bytes, list[str]]]:
    """1600×1200 table scenes of 1–5 standard cards drawn in code (synth), as JPEG bytes: the
    size of a phone photo, for measuring latency on one without any photo files."""
    rng = np.random.default_rng(seed)
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    fonts = [cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX]
    for i in range(count):
        labels = [ranks[int(rng.integers(13))] + "SHDC"[int(rng.integers(4))] for _ in range(int(rng.integers(1, 6)))]
        cards = [synth.render_standard_card(lab[:-1], lab[-1], font=fonts[i % 3]) for lab in labels]
        scene, _ = synth.compose_scene(cards, rng)
        ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 88])
        yield buf.tobytes(), labels


def corner_error(found: np.ndarray, true: np.ndarray) -> float:
    """Mean distance from a found outline's corners to a card's true corners (the best of the
    four ways round), as a share of the card's true height."""
    true = np.float32(true)
    height = (np.linalg.norm(true[3] - true[0]) + np.linalg.norm(true[2] - true[1])) / 2
    return min(float(np.linalg.norm(np.roll(np.float32(found), k, axis=0) - true, axis=1).mean())
               for k in range(4)) / max(height, 1e-6)


RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def scene_samples(count: int, seed: int = 0, tilt: float = 0.0
                  ) -> Iterator[tuple[bytes, list[str], list[np.ndarray]]]:
    """Scenes of 2–5 standard cards drawn in code (synth.standard_scene) on every kind of table, in
    every layout (spread, row, fan, overlap), from above (tilt 0) or a seated player's angle;
    every fourth scene holds only 6s and 9s turned half round. JPEG bytes, the cards, and their
    true outlines (for the outline error)."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        n = int(rng.integers(2, 6))
        if i % 4 == 3:
            labels = [("6" if rng.random() < 0.5 else "9") + "SHDC"[int(rng.integers(4))] for _ in range(n)]
            angle = float(np.pi)
        else:
            labels = [RANK_NAMES[int(rng.integers(13))] + "SHDC"[int(rng.integers(4))] for _ in range(n)]
            angle = None
        layout = synth.LAYOUTS[i % len(synth.LAYOUTS)] if angle is None else "spread"
        kind = synth.TABLE_KINDS[(i // len(synth.LAYOUTS)) % len(synth.TABLE_KINDS)]
        scene, quads = synth.standard_scene(labels, rng, layout=layout, kind=kind, tilt=tilt, angle=angle)
        ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 88])
        yield buf.tobytes(), labels, quads


def full_size_samples(count: int, seed: int = 0) -> Iterator[tuple[bytes, list[str]]]:
    """A phone's own photos: 4032×3024 JPEGs at quality 92 (2–4 MB, as a 12-megapixel camera
    writes them) of 1–5 standard cards drawn in code (drawn at half size and enlarged, with
    sensor noise added at full size: drawing at 12 megapixels takes seconds)."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        labels = [RANK_NAMES[int(rng.integers(13))] + "SHDC"[int(rng.integers(4))] for _ in range(int(rng.integers(1, 6)))]
        scene, _ = synth.standard_scene(labels, rng, layout=synth.LAYOUTS[i % 2], kind=synth.TABLE_KINDS[i % 8],
                                        tilt=0.4 * (i % 2), size=(2016, 1512))
        scene = cv2.resize(scene, (4032, 3024), interpolation=cv2.INTER_CUBIC)
        scene = cv2.add(scene, rng.integers(0, 6, scene.shape, dtype=np.uint8))
        ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 92])
        yield buf.tobytes(), labels


PHONE_SIDE, PHONE_QUALITY = 1600, 85  # what referee/static/camera.js sends: long side, JPEG quality


def phone_upload(data: bytes) -> bytes:
    """The photo as the phone uploads it (camera.js): scaled to at most PHONE_SIDE px long and
    encoded as JPEG at PHONE_QUALITY."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    f = min(1.0, PHONE_SIDE / max(image.shape[:2]))
    if f < 1:
        image = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, PHONE_QUALITY])
    return buf.tobytes()


def upload_sizes(samples: Iterable[tuple]) -> dict:
    """Median and largest upload, in kB, as taken and after the phone's downscale."""
    taken, sent = [], []
    for sample in samples:
        taken.append(len(sample[0]) / 1024)
        sent.append(len(phone_upload(sample[0])) / 1024)
    return {"upload_kb_taken_p50": round(float(np.median(taken)), 1), "upload_kb_taken_max": round(max(taken), 1),
            "upload_kb_sent_p50": round(float(np.median(sent)), 1), "upload_kb_sent_max": round(max(sent), 1)}


def evaluate(samples: Iterable[tuple], deck: str, references: References | None = None) -> dict:
    """Figures over (photo bytes, expected cards[, true outlines]) samples; with true outlines
    (generated scenes), also the outline error of each card read right: its found outline's
    corners from the card's true ones, as a share of the card's height."""
    warm_up()  # as a server does at its start: loading is not a photo's latency
    images = expected = found = correct = detected = unknown = turned = 0
    latencies, cpu_times, outline_errors = [], [], []
    for sample in samples:
        data, cards = sample[0], sample[1]
        start, cpu_start = time.perf_counter(), time.process_time()
        reads = recognise(decode_upload(data), deck=deck, references=references)
        latencies.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu_start) * 1000)
        answered = [r.label for r in reads if r.label is not None]
        images += 1
        expected += len(cards)
        found += len(answered)
        detected += len(reads)
        unknown += len(reads) - len(answered)
        correct += count_correct(cards, answered)
        turned += turned_confusions(cards, answered)
        if len(sample) > 2:
            for label, quad in zip(cards, sample[2]):
                errs = [corner_error(r.outline, quad) for r in reads if r.label == label]
                if errs:
                    outline_errors.append(min(errs))
    return {
        "images": images,
        "cards_expected": expected,
        "cards_found": found,
        "cards_correct": correct,
        "precision": round(correct / found, 4) if found else 0.0,
        "recall": round(correct / expected, 4) if expected else 0.0,
        "card_accuracy": round(correct / detected, 4) if detected else 0.0,
        "unknown_rate": round(unknown / detected, 4) if detected else 0.0,
        "six_nine_confusions": turned,
        "latency_p50_ms": round(float(np.percentile(latencies, 50)), 1) if latencies else 0.0,
        "latency_p95_ms": round(float(np.percentile(latencies, 95)), 1) if latencies else 0.0,
        # CPU time of this process: the latency without other processes competing for the core
        "cpu_p95_ms": round(float(np.percentile(cpu_times, 95)), 1) if cpu_times else 0.0,
        **({"outline_error_p50": round(float(np.median(outline_errors)), 4),
            "outline_error_p95": round(float(np.percentile(outline_errors, 95)), 4)} if outline_errors else {}),
    }
