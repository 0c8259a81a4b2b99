"""Recognition from taught references: the player photographs each card once and names it.

A reference is a small colour thumbnail of the rectified card (Lab, each channel
zero-mean and scaled, then the whole vector unit length). A card is compared with every
reference at 0° and 180°; the answer is the best label when its similarity is high and
clearly above the best *other* label (margin test), else unknown.
"""

from __future__ import annotations

import base64
import json

import cv2
import numpy as np

from .types import ACCEPT

THUMB_W, THUMB_H = 24, 34
# Measured on composed table scenes: a taught card scores ≥ 0.6 with a margin ≥ 0.35 over the
# next label; an untaught one (leave-one-out) ≤ 0.56 with a margin ≤ 0.15. The margin is the
# safer test, so it carries the decision.
MIN_SIMILARITY = 0.5
MIN_MARGIN = 0.2
# Seen a few pixels shifted, a card's best similarity rose by at most 0.2 (p99 0.15, 577 outlines
# of composed Rat-a-Tat scenes): one this far below MIN_SIMILARITY is not tried shifted.
SHIFT_GAIN = 0.2
FORMAT_VERSION = 1
TURN_MARGIN = 0.05  # a face matching one way up by less than this more than the other way says no way up


def thumbnail_feature(card: np.ndarray) -> np.ndarray:
    """Feature of a rectified portrait card (BGR); robust to exposure and white balance."""
    inner = card[int(card.shape[0] * 0.03): int(card.shape[0] * 0.97), int(card.shape[1] * 0.03): int(card.shape[1] * 0.97)]
    small = cv2.resize(cv2.GaussianBlur(inner, (5, 5), 0), (THUMB_W, THUMB_H), interpolation=cv2.INTER_AREA)
    # white balance on the card's own paper: its brightest tenth is taken to be white
    paper = np.percentile(small.reshape(-1, 3), 90, axis=0) + 1.0
    small = np.clip(small * (paper.mean() / paper), 0, 255).astype(np.uint8)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    chans = []
    for i, weight in enumerate((1.0, 0.7, 0.7)):
        c = lab[:, :, i] - lab[:, :, i].mean()
        chans.append(weight * c / (np.linalg.norm(c) + 10.0))
    vec = np.concatenate([c.ravel() for c in chans])
    return vec / (np.linalg.norm(vec) + 1e-6)


class References:
    """Taught cards of one deck: labels and their features. Serialise with to_bytes()."""

    def __init__(self, labels: list[str] | None = None, features: np.ndarray | None = None) -> None:
        self.labels: list[str] = list(labels or [])
        dim = THUMB_W * THUMB_H * 3
        self.features = np.zeros((0, dim), np.float32) if features is None else np.asarray(features, np.float32)

    def __len__(self) -> int:
        return len(self.labels)

    def add(self, label: str, card: np.ndarray) -> None:
        """Add a rectified card under `label`."""
        self.labels.append(label)
        self.features = np.vstack([self.features, thumbnail_feature(card)[None]])

    def merge(self, other: "References") -> "References":
        """A new References holding this one's cards, then the other's (neither is changed)."""
        return References(self.labels + other.labels, np.vstack([self.features, other.features]))

    def to_bytes(self) -> bytes:
        payload = {
            "version": FORMAT_VERSION,
            "thumb": [THUMB_W, THUMB_H],
            "labels": self.labels,
            "features": base64.b64encode(self.features.astype(np.float16).tobytes()).decode("ascii"),
        }
        return json.dumps(payload).encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes) -> "References":
        payload = json.loads(data.decode("utf-8"))
        if payload.get("version") != FORMAT_VERSION or payload.get("thumb") != [THUMB_W, THUMB_H]:
            raise ValueError("references were made by an incompatible version; teach the deck again")
        feats = np.frombuffer(base64.b64decode(payload["features"]), np.float16).astype(np.float32)
        return cls(payload["labels"], feats.reshape(len(payload["labels"]), -1))

    def candidates(self, card: np.ndarray) -> list[tuple[str, float]]:
        """(label, confidence) best first for a rectified card; confidence folds in the margin.

        The card is compared both ways up; when that is not conclusive, also slightly shifted
        each way, so an outline found a few pixels off still matches. An outline nothing taught
        resembles (a floor tile, a sheet of paper) is not tried shifted: on a tiled floor those
        were forty outlines a photo, half a second.
        """
        if not self.labels:
            return []
        ranked = self._ranked([card])
        best = ranked[0][1]
        if best >= MIN_SIMILARITY - SHIFT_GAIN and _confidence(best, best - _rival(ranked)) < ACCEPT:
            h, w = card.shape[:2]
            dy, dx = int(h * 0.03), int(w * 0.03)
            shifted = [cv2.resize(card[max(0, y):h + min(0, y), max(0, x):w + min(0, x)], (w, h))
                       for y, x in ((dy, dx), (-dy, -dx), (dy, -dx), (-dy, dx))]
            ranked = self._ranked([card] + shifted)
        out = []
        for i, (label, sim) in enumerate(ranked[:5]):
            # the rival of the best is the runner-up (or, alone, the acceptance floor)
            out.append((label, _confidence(sim, sim - (_rival(ranked) if i == 0 else ranked[0][1]))))
        return out

    def turned(self, card: np.ndarray, label: str) -> bool | None:
        """Whether the rectified ``card`` (ordered by ``order_portrait``: its top edge the one nearer the
        top of the photo) matches ``label``'s taught face better upside down, i.e. lies upside down in the
        photo; None when the face looks the same either way up (within TURN_MARGIN), or is not taught."""
        rows = [i for i, lab in enumerate(self.labels) if lab == label]
        if not rows:
            return None
        upright = float(np.max(self.features[rows] @ thumbnail_feature(card)))
        upside = float(np.max(self.features[rows] @ thumbnail_feature(cv2.rotate(card, cv2.ROTATE_180))))
        if abs(upright - upside) < TURN_MARGIN:
            return None
        return upside > upright

    def _ranked(self, views: list[np.ndarray]) -> list[tuple[str, float]]:
        """Each label's best similarity over the views, both ways up; best first."""
        feats = [thumbnail_feature(v) for v in views] + [thumbnail_feature(cv2.rotate(v, cv2.ROTATE_180)) for v in views]
        sims = np.max(self.features @ np.stack(feats).T, axis=1)
        best: dict[str, float] = {}
        for label, sim in zip(self.labels, sims):
            best[label] = max(best.get(label, -1.0), float(sim))
        return sorted(best.items(), key=lambda kv: -kv[1])


def _rival(ranked: list[tuple[str, float]]) -> float:
    return ranked[1][1] if len(ranked) > 1 else MIN_SIMILARITY


def _confidence(similarity: float, margin: float) -> float:
    """Map similarity and margin to 0..1; 0.5 sits at the acceptance thresholds."""
    s = (similarity - MIN_SIMILARITY) / 0.05
    m = (margin - MIN_MARGIN) / 0.04
    return float(1 / (1 + np.exp(-min(s, m))))
