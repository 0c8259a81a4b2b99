"""Fixtures made in code: cards drawn with OpenCV, placed on textured tables."""

import cv2
import numpy as np
import pytest

from vision import synth


def _art_card(seed: int, text: str) -> np.ndarray:
    """A colourful, distinct card face inside a white margin, like a taught deck's artwork."""
    rng = np.random.default_rng(seed)
    w, h = synth.CARD_SIZE
    card = np.full((h, w, 3), 240, np.uint8)
    art = card[int(h * 0.18): int(h * 0.88), int(w * 0.1): int(w * 0.9)]
    for _ in range(6):
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        centre = (int(rng.integers(20, art.shape[1] - 20)), int(rng.integers(20, art.shape[0] - 20)))
        axes = (int(rng.integers(15, 60)), int(rng.integers(15, 80)))
        cv2.ellipse(art, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    cv2.putText(card, text, (14, 45), cv2.FONT_HERSHEY_DUPLEX, 1.1, (120, 30, 120), 3)
    return card


@pytest.fixture(scope="session")
def art_card():
    """Maker of distinct taught-deck faces: art_card(seed, text) -> BGR card image."""
    return _art_card


@pytest.fixture(scope="session")
def table_scene():
    """Four standard cards, rotated with perspective, on wood; returns (image, labels, quads)."""
    rng = np.random.default_rng(7)
    labels = ["10H", "QS", "AD", "7C"]
    cards = [synth.render_standard_card(lab[:-1], lab[-1]) for lab in labels]
    image, quads = synth.compose_scene(cards, rng, kind="wood")
    return image, labels, quads


def _quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    return inter / (cv2.contourArea(np.float32(a)) + cv2.contourArea(np.float32(b)) - inter)


@pytest.fixture
def quad_iou():
    """Intersection over union of two convex quads."""
    return _quad_iou
