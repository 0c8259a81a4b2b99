"""Reference glyphs for reading a standard deck's corner index, rendered in code.

Ranks are drawn with OpenCV's Hershey fonts at several weights, widths and slants; suits are
drawn as filled shapes. Nothing is loaded from disk, so the references are the same on every
machine and need no teaching. A glyph is compared as a fixed-size, blurred, normalised image
plus its aspect ratio (GLYPH_SIZE below).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
GLYPH_SIZE = (20, 28)  # width, height of the normalised glyph
ASPECT_WEIGHT = 0.6

_FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
          cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN]


def glyph_feature(mask: np.ndarray) -> np.ndarray:
    """Feature vector of a binary glyph (nonzero = ink), cropped or not."""
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    h, w = crop.shape
    img = cv2.resize(crop, GLYPH_SIZE, interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (7, 7), 1.6).ravel()
    img -= img.mean()
    img /= np.linalg.norm(img) + 1e-6
    aspect = np.log(w / h) * ASPECT_WEIGHT
    vec = np.append(img, aspect)
    return vec / np.linalg.norm(vec)


def _render_text(text: str, font: int, thickness: int, stretch: float, shear: float) -> np.ndarray:
    scale = 2.0 if font != cv2.FONT_HERSHEY_PLAIN else 4.0
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    canvas = np.zeros((th + base + 40, tw + 40), np.uint8)
    cv2.putText(canvas, text, (20, th + 20), font, scale, 255, thickness, cv2.LINE_AA)
    if text == "10":  # card indices set the two digits tight
        canvas = _tighten(canvas)
    h, w = canvas.shape
    m = np.float32([[stretch, -shear, shear * h / 2], [0, 1, 0]])
    out = cv2.warpAffine(canvas, m, (int(w * stretch) + 10, h))
    return (out > 100).astype(np.uint8)


def _tighten(canvas: np.ndarray) -> np.ndarray:
    """Close the gap between the '1' and the '0' of a rendered '10'."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((canvas > 100).astype(np.uint8))
    if n < 3:
        return canvas
    order = np.argsort(stats[1:, cv2.CC_STAT_LEFT]) + 1
    one, zero = order[0], order[-1]
    gap = stats[zero, cv2.CC_STAT_LEFT] - (stats[one, cv2.CC_STAT_LEFT] + stats[one, cv2.CC_STAT_WIDTH])
    shift = max(0, gap - max(2, stats[zero, cv2.CC_STAT_WIDTH] // 8))
    out = canvas.copy()
    out[labels == zero] = 0
    zero_part = np.where(labels == zero, canvas, 0)
    zero_part = np.roll(zero_part, -shift, axis=1)
    return np.maximum(out, zero_part)


def _suit_shape(suit: str, width: float, size: int = 60) -> np.ndarray:
    """Filled suit symbol; `width` is the width/height ratio of the symbol."""
    w, h = int(size * width), size
    img = np.zeros((h + 8, w + 8), np.uint8)

    def p(x: float, y: float) -> tuple[int, int]:
        return int(4 + x * w), int(4 + y * h)

    def circle(x: float, y: float, r: float) -> None:
        cv2.ellipse(img, p(x, y), (int(r * w), int(r * h * width)), 0, 0, 360, 255, -1)

    if suit == "D":
        cv2.fillConvexPoly(img, np.array([p(.5, 0), p(1, .5), p(.5, 1), p(0, .5)]), 255)
    elif suit == "H":
        circle(.27, .28, .27)
        circle(.73, .28, .27)
        cv2.fillConvexPoly(img, np.array([p(.01, .36), p(.99, .36), p(.5, 1)]), 255)
    elif suit == "S":
        circle(.27, .56, .26)
        circle(.73, .56, .26)
        cv2.fillConvexPoly(img, np.array([p(.02, .5), p(.98, .5), p(.5, 0)]), 255)
        cv2.fillConvexPoly(img, np.array([p(.5, .6), p(.72, 1), p(.28, 1)]), 255)
    else:  # clubs
        circle(.5, .24, .23)
        circle(.24, .58, .23)
        circle(.76, .58, .23)
        cv2.fillConvexPoly(img, np.array([p(.5, .45), p(.7, 1), p(.3, 1)]), 255)
    return (img > 0).astype(np.uint8)


def _augment(mask: np.ndarray) -> list[np.ndarray]:
    out = [mask]
    k = max(1, mask.shape[0] // 25)
    kernel = np.ones((k, k), np.uint8)
    out.append(cv2.dilate(mask, kernel))
    eroded = cv2.erode(mask, kernel)
    if eroded.any():
        out.append(eroded)
    return out


@lru_cache(maxsize=1)
def rank_references() -> tuple[np.ndarray, np.ndarray]:
    """(features N×D, class index N) for the 13 ranks."""
    feats, classes = [], []
    for ci, rank in enumerate(RANKS):
        for font in _FONTS:
            for thickness in (2, 4, 6):
                for stretch in (0.55, 0.7, 0.85, 1.0, 1.15):
                    for shear in (-0.12, 0.0, 0.12):
                        mask = _render_text(rank, font, thickness, stretch, shear)
                        for m in _augment(mask):
                            feats.append(glyph_feature(m))
                            classes.append(ci)
    return np.array(feats, np.float32), np.array(classes)


@lru_cache(maxsize=1)
def suit_references() -> tuple[np.ndarray, np.ndarray]:
    """(features N×D, class index N) for the 4 suits."""
    feats, classes = [], []
    for ci, suit in enumerate(SUITS):
        for width in (0.7, 0.8, 0.9, 1.0):
            for angle in (-8, 0, 8):
                mask = _suit_shape(suit, width)
                h, w = mask.shape
                rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
                mask = cv2.warpAffine(mask, rot, (w, h))
                for m in _augment(mask):
                    feats.append(glyph_feature(m))
                    classes.append(ci)
    return np.array(feats, np.float32), np.array(classes)
