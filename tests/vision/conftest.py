"""Fixtures made in code: cards drawn with OpenCV, placed on textured tables."""

import cv2
import numpy as np
import pytest

from vision import synth


@pytest.fixture(scope="session")
def art_card():
    """Maker of distinct taught-deck faces: art_card(seed, text) -> BGR card image."""
    return synth.art_card


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
