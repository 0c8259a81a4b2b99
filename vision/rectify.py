"""Perspective warp of a card outline to a canonical portrait image."""

from __future__ import annotations

import cv2
import numpy as np

CARD_W, CARD_H = 200, 280  # poker card 63×88 mm ≈ 1:1.4


def _length(v: np.ndarray):
    """np.linalg.norm of a vector, the same value without its generic path (outlines are ordered
    and measured by the dozen per photo)."""
    return np.sqrt(v.dot(v))


def order_portrait(quad: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise (in image coordinates) starting so that the first edge is a short one.

    The result maps onto (0,0), (W,0), (W,H), (0,H) of a portrait card; which of the two
    short edges comes first is arbitrary (the readers look at both ends).
    """
    pts = np.asarray(quad, np.float32).reshape(4, 2)
    centre = np.add.reduce(pts, axis=0) * 0.25  # pts.mean(axis=0), without numpy's generic mean
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen (y points down)
    start = int(np.argmin(pts.sum(axis=1)))
    pts = np.roll(pts, -start, axis=0)
    e0 = _length(pts[1] - pts[0]) + _length(pts[3] - pts[2])
    e1 = _length(pts[2] - pts[1]) + _length(pts[0] - pts[3])
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
    e0 = _length(pts[1] - pts[0]) + _length(pts[3] - pts[2])
    e1 = _length(pts[2] - pts[1]) + _length(pts[0] - pts[3])
    return max(e0, e1) / max(min(e0, e1), 1e-6)


def turned_quarter(quad: np.ndarray) -> np.ndarray:
    """The other portrait reading of an ordered quad: its long sides taken as the short ones (a
    card seen along its length from a low angle looks wider than tall)."""
    return np.roll(np.asarray(quad, np.float32), -1, axis=0)


def rectify_part(image: np.ndarray, quad: np.ndarray, part: tuple[int, int, int, int],
                 size: tuple[int, int] = (CARD_W, CARD_H)) -> np.ndarray:
    """The part (x, y, width, height) of what rectify(image, quad, size) gives, warped alone."""
    w, h = size
    x, y, pw, ph = part
    dst = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]]) - np.float32([x, y])
    m = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(image, m, (pw, ph), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


class OutlinedCard:
    """A card outline in a photo, warped to a CARD_W×CARD_H portrait card only as far as it is
    looked at: the index reader needs its two index corners alone (a fifth of the card, the
    same pixels as those of the whole card warped); the whole card is warped when its middle is
    looked at (pips counted or matched, a taught face compared)."""

    def __init__(self, image: np.ndarray, quad: np.ndarray):
        self.image, self.quad = image, np.asarray(quad, np.float32)
        self._whole: np.ndarray | None = None

    @property
    def whole(self) -> np.ndarray:
        if self._whole is None:
            self._whole = rectify(self.image, self.quad)
        return self._whole

    def at(self, size: tuple[int, int]) -> np.ndarray:
        """The whole card warped to `size` (a smaller copy, for a quick look at its middle)."""
        if self._whole is not None:
            return cv2.resize(self._whole, size, interpolation=cv2.INTER_AREA)
        return rectify(self.image, self.quad, size)

    def corners(self, box: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """The top-left box[0]×box[1] corner and the bottom-right one turned round (each in the
        card's own orientation, as the index reader reads it)."""
        w, h = box
        if self._whole is not None:
            return self._whole[:h, :w], cv2.rotate(self._whole, cv2.ROTATE_180)[:h, :w]
        top = rectify_part(self.image, self.quad, (0, 0, w, h))
        bottom = rectify_part(self.image, self.quad, (CARD_W - w, CARD_H - h, w, h))
        return top, cv2.rotate(bottom, cv2.ROTATE_180)


def card_image(card: np.ndarray | OutlinedCard) -> np.ndarray:
    """The whole rectified card, warped now if it was not yet."""
    return card.whole if isinstance(card, OutlinedCard) else card
