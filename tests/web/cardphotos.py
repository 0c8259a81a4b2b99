"""Card photos made in code for the web tests: Rat-a-Tat Cat-like faces on a table, in a row."""
from __future__ import annotations

import zlib

import cv2
import numpy as np

from vision import synth

FACES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "PEEK", "SWAP", "DRAW2"]


def face(label: str) -> np.ndarray:
    """A distinct card face for ``label``: its name in a corner and coloured art seeded by it."""
    return synth.art_card(zlib.crc32(label.encode()), label, blobs=7)


def row_photo(labels: list[str], seed: int = 1, kind: str = "wood", blank_at: int | None = None) -> bytes:
    """A JPEG of the cards laid in a row, left to right, on a textured table; with ``blank_at``, a plain
    card-sized paper (not a card) lies at that place of the row instead."""
    rng = np.random.default_rng(seed)
    scene = synth.background(kind, (1600, 900), rng)
    w, h = synth.CARD_SIZE
    for i, label in enumerate(labels):
        x0, y0 = 90 + i * 370, 260 + int(rng.integers(-20, 20))
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([x0, y0])
        picture = face(label) if i != blank_at else np.full_like(face(label), 235)
        scene = synth.paste_card(scene, picture, corners + rng.uniform(-12, 12, (4, 2)).astype(np.float32))
    scene = synth.photo_effects(scene, rng, blur=0.8, glare=False)
    ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return buf.tobytes()


def standard_row_photo(labels: list[str | None], seed: int = 3, left: int = 120, step: int = 480,
                       top: int = 240, tops: list[int] | None = None) -> bytes:
    """A JPEG of standard-deck cards ("9S", "KD") laid in a row, left to right, on a plain table (the
    first card's corner at ``left``, ``top``; each next one ``step`` px further; ``tops``: each card's own
    top instead, for cards not in a row); None leaves its place empty."""
    rng = np.random.default_rng(seed)
    scene = synth.background("cloth", (1600, 900), rng)
    w, h = synth.CARD_SIZE
    for i, label in enumerate(labels):
        x0, y0 = left + i * step, (tops[i] if tops else top) + int(rng.integers(-20, 20))
        if label is None:
            continue
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) + np.float32([x0, y0])
        card = synth.render_standard_card(label[:-1], label[-1])
        scene = synth.paste_card(scene, card, corners + rng.uniform(-8, 8, (4, 2)).astype(np.float32))
    scene = synth.photo_effects(scene, rng, blur=0.6, glare=False)
    ok, buf = cv2.imencode(".jpg", scene, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    return buf.tobytes()
