"""Card photos made in code for the web tests: Rat-a-Tat Cat-like faces on a table, in a row."""
from __future__ import annotations

import zlib

import cv2
import numpy as np

from vision import synth

FACES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "PEEK", "SWAP", "DRAW2"]


def face(label: str) -> np.ndarray:
    """A distinct card face for ``label``: its name in a corner and coloured art seeded by it."""
    rng = np.random.default_rng(zlib.crc32(label.encode()))
    w, h = synth.CARD_SIZE
    card = np.full((h, w, 3), 240, np.uint8)
    art = card[int(h * 0.18): int(h * 0.88), int(w * 0.1): int(w * 0.9)]
    for _ in range(7):
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        centre = (int(rng.integers(20, art.shape[1] - 20)), int(rng.integers(20, art.shape[0] - 20)))
        axes = (int(rng.integers(15, 60)), int(rng.integers(15, 80)))
        cv2.ellipse(art, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    cv2.putText(card, label, (14, 45), cv2.FONT_HERSHEY_DUPLEX, 1.1, (120, 30, 120), 3)
    return card


def row_photo(labels: list[str], seed: int = 1, kind: str = "wood") -> bytes:
    """A JPEG of the cards laid in a row, left to right, on a textured table."""
    rng = np.random.default_rng(seed)
    scene = synth.background(kind, (1600, 900), rng)
    w, h = synth.CARD_SIZE
    for i, label in enumerate(labels):
        x0, y0 = 90 + i * 370, 260 + int(rng.integers(-20, 20))
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        jitter = rng.uniform(-12, 12, (4, 2)).astype(np.float32)
        dst = src + np.float32([x0, y0]) + jitter
        matrix = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(face(label), matrix, (1600, 900))
        mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (1600, 900))
        scene[mask > 0] = warped[mask > 0]
    scene = synth.photo_effects(scene, rng, blur=0.8, glare=False)
    ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()
