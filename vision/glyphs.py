"""The standard deck's ranks and suits, and suit symbols drawn in code.

Suits are drawn as filled shapes (used to draw cards, and as references for reading the big
pips of a number card). A pip is compared as a fixed-size, blurred, normalised image plus its
aspect ratio and its width row by row (GLYPH_SIZE, suit_feature below).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
GLYPH_SIZE = (20, 28)  # width, height of the normalised glyph
ASPECT_WEIGHT = 0.6

def glyph_feature(mask: np.ndarray) -> np.ndarray:
    """Feature vector of a binary glyph (nonzero = ink), cropped or not."""
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    h, w = crop.shape
    gw, gh = GLYPH_SIZE
    scale = min(gw / w, gh / h)  # keep the shape: a "1" must stay a thin bar
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    img = np.zeros((gh, gw), np.float32)
    x0, y0 = (gw - nw) // 2, (gh - nh) // 2
    img[y0:y0 + nh, x0:x0 + nw] = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (5, 5), 1.1).ravel()
    img -= img.mean()
    img /= np.linalg.norm(img) + 1e-6
    aspect = np.log(w / h) * ASPECT_WEIGHT
    vec = np.append(img, aspect)
    return vec / np.linalg.norm(vec)


PROFILE_ROWS = 10
PROFILE_WEIGHT = 2.0


def suit_feature(mask: np.ndarray) -> np.ndarray:
    """glyph_feature plus the outline's width row by row: a spade's top is a point, a club's a
    round lobe; a heart's top is notched, a diamond's is a point. Blur hides this, widths keep it."""
    ys, xs = np.nonzero(mask)
    crop = mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    filled = np.maximum.accumulate(crop, axis=1) & np.maximum.accumulate(crop[:, ::-1], axis=1)[:, ::-1]
    widths = filled.sum(axis=1).astype(np.float32)
    rows = np.interp(np.linspace(0, len(widths) - 1, PROFILE_ROWS), np.arange(len(widths)), widths)
    profile = rows / (widths.max() + 1e-6)
    profile -= profile.mean()
    vec = np.concatenate([glyph_feature(mask), PROFILE_WEIGHT * profile / (np.linalg.norm(profile) + 1e-6)])
    return vec / np.linalg.norm(vec)


def suit_shape(suit: str, width: float, size: int = 60, lobe: float = 0.26) -> np.ndarray:
    """Filled suit symbol; `width` is its width/height ratio, `lobe` the radius of its round parts."""
    w, h = int(size * width), size
    img = np.zeros((h + 8, w + 8), np.uint8)

    def p(x: float, y: float) -> tuple[int, int]:
        return int(4 + x * w), int(4 + y * h)

    def circle(x: float, y: float, r: float) -> None:
        cv2.ellipse(img, p(x, y), (int(r * w), int(r * h * width)), 0, 0, 360, 255, -1)

    def stem() -> None:  # thin, flared at the foot
        cv2.fillConvexPoly(img, np.array([p(.46, .6), p(.54, .6), p(.66, 1), p(.34, 1)]), 255)

    if suit == "D":
        cv2.fillConvexPoly(img, np.array([p(.5, 0), p(1, .5), p(.5, 1), p(0, .5)]), 255)
    elif suit == "H":
        circle(.27, .28, .27)
        circle(.73, .28, .27)
        cv2.fillConvexPoly(img, np.array([p(.01, .36), p(.99, .36), p(.5, 1)]), 255)
    elif suit == "S":  # a pointed top widening down to two low lobes
        circle(.27, .62, lobe)
        circle(.73, .62, lobe)
        cv2.fillConvexPoly(img, np.array([p(.01, .6), p(.99, .6), p(.5, 0)]), 255)
        stem()
    else:  # clubs: three round lobes with a waist under the top one
        circle(.5, .25, lobe)
        circle(.25, .6, lobe)
        circle(.75, .6, lobe)
        stem()
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


def _grouped(feats: list[np.ndarray], classes: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """References ordered by class, with the index where each class starts (for reduceat)."""
    classes_arr = np.array(classes)
    order = np.argsort(classes_arr, kind="stable")
    starts = np.searchsorted(classes_arr[order], np.arange(classes_arr.max() + 1))
    return np.array(feats, np.float32)[order], starts


@lru_cache(maxsize=1)
def suit_references() -> tuple[np.ndarray, np.ndarray]:
    """(features N×D grouped by class, start row of each class) for the 4 suits."""
    feats, classes = [], []
    for ci, suit in enumerate(SUITS):
        for width in (0.7, 0.8, 0.9, 1.0):
            for angle, lobe in ((-8, 0.24), (0, 0.24), (8, 0.24), (0, 0.28)):
                mask = suit_shape(suit, width, lobe=lobe)
                h, w = mask.shape
                rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
                mask = cv2.warpAffine(mask, rot, (w, h))
                for m in _augment(mask):
                    feats.append(suit_feature(m))
                    classes.append(ci)
    return _grouped(feats, classes)
