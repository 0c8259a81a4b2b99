"""Reference glyphs for reading a standard deck's corner index, rendered in code.

Ranks are drawn with OpenCV's Hershey fonts at several weights, widths and slants; suits are
drawn as filled shapes. Nothing is read from disk, so the references are the same on every
machine (installed TrueType fonts were tried and made reads worse: docs/vision.md).
Nothing needs teaching. A glyph is compared as a fixed-size, blurred, normalised image
plus its aspect ratio (GLYPH_SIZE below).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
# the digits of a "10" printed apart are read one by one; they are not ranks themselves
GLYPHS = RANKS + ["1", "0"]
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


def _render_text(text: str, font: int, thickness: int, stretch: float, shear: float,
                 touch: bool = False) -> np.ndarray:
    scale = 2.0 if font != cv2.FONT_HERSHEY_PLAIN else 4.0
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    canvas = np.zeros((th + base + 40, tw + 40), np.uint8)
    cv2.putText(canvas, text, (20, th + 20), font, scale, 255, thickness, cv2.LINE_AA)
    if text == "10":  # card indices set the two digits tight
        canvas = _tighten(canvas, touch)
    return _slant((canvas > 100).astype(np.uint8), stretch, shear)


def _slant(mask: np.ndarray, stretch: float, shear: float) -> np.ndarray:
    """Widen or narrow a glyph mask by `stretch` and slant it by `shear`."""
    h, w = mask.shape
    m = np.float32([[stretch, -shear, shear * h / 2], [0, 1, 0]])
    return cv2.warpAffine(mask * 255, m, (int(w * stretch) + 10, h)).__gt__(100).astype(np.uint8)


def _tighten(canvas: np.ndarray, touch: bool = False) -> np.ndarray:
    """Close the gap between the '1' and the '0' of a rendered '10'; with `touch`, until the
    digits run into each other (a condensed index, blurred, reads as one blob)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats((canvas > 100).astype(np.uint8))
    if n < 3:
        return canvas
    order = np.argsort(stats[1:, cv2.CC_STAT_LEFT]) + 1
    one, zero = order[0], order[-1]
    gap = stats[zero, cv2.CC_STAT_LEFT] - (stats[one, cv2.CC_STAT_LEFT] + stats[one, cv2.CC_STAT_WIDTH])
    shift = max(0, gap - max(2, stats[zero, cv2.CC_STAT_WIDTH] // 8))
    if touch:
        shift = gap + max(2, stats[one, cv2.CC_STAT_WIDTH] // 3)
    out = canvas.copy()
    out[labels == zero] = 0
    zero_part = np.where(labels == zero, canvas, 0)
    zero_part = np.roll(zero_part, -shift, axis=1)
    return np.maximum(out, zero_part)


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
def rank_references() -> tuple[np.ndarray, np.ndarray]:
    """(features N×D grouped by class, start row of each class) for the glyphs in GLYPHS."""
    feats, classes = [], []
    for ci, rank in enumerate(GLYPHS):
        for font in _FONTS:
            for thickness in (2, 4, 6):
                for stretch in (0.55, 0.7, 0.85, 1.0, 1.15):
                    for shear in (-0.12, 0.0, 0.12):
                        feats.append(glyph_feature(_render_text(rank, font, thickness, stretch, shear)))
                        classes.append(ci)
                        if rank == "10":  # also as one blob, digits touching
                            feats.append(glyph_feature(_render_text(rank, font, thickness, stretch, shear, True)))
                            classes.append(ci)
    return _grouped(feats, classes)



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
