"""Perspective warp of a card outline to a canonical portrait image."""

from __future__ import annotations

import cv2
import numpy as np

CARD_W, CARD_H = 200, 280  # poker card 63×88 mm ≈ 1:1.4


def order_portrait(quad: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise (in image coordinates) starting so that the first edge is a short one.

    The result maps onto (0,0), (W,0), (W,H), (0,H) of a portrait card; which of the two
    short edges comes first is arbitrary (the readers look at both ends).
    """
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y points down)
    start = int(np.argmin(pts.sum(axis=1)))
    pts = np.roll(pts, -start, axis=0)
    e0 = np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[3] - pts[2])
    e1 = np.linalg.norm(pts[2] - pts[1]) + np.linalg.norm(pts[0] - pts[3])
    if e0 > e1:
        pts = np.roll(pts, -1, axis=0)
    return pts


def rectify(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (CARD_W, CARD_H)) -> np.ndarray:
    """Warp the card inside `quad` (already ordered by order_portrait) to a size[0]×size[1] image."""
    w, h = size
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


FORESHORTENED = 1.5  # below this apparent aspect, the card's long side may be the one that looks short


def apparent_aspect(quad: np.ndarray) -> float:
    """Long over short side of a quad (ordered), as it appears in the photo."""
    pts = np.asarray(quad, np.float32)
    e0 = np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[3] - pts[2])
    e1 = np.linalg.norm(pts[2] - pts[1]) + np.linalg.norm(pts[0] - pts[3])
    return max(e0, e1) / max(min(e0, e1), 1e-6)


def turned_quarter(quad: np.ndarray) -> np.ndarray:
    """The other portrait reading of an ordered quad: its long sides taken as the short ones (a
    card seen along its length from a low angle looks wider than tall)."""
    return np.roll(np.asarray(quad, np.float32), -1, axis=0)
