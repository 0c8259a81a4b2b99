"""Find card outlines in a photo.

Cards are bright, unsaturated quadrilaterals with a poker-card aspect ratio. The image is cut
at several brightness levels (a cheap stand-in for MSER); at each level, and again with
strong edges carved out (so touching or overlapping cards come apart), every external
contour is tested for being a convex quadrilateral of card shape. The survivors of all
levels are merged by non-maximum suppression.
"""

from __future__ import annotations

import cv2
import numpy as np

DETECT_LONG_SIDE = 800
MIN_AREA_FRACTION = 0.004
MAX_AREA_FRACTION = 0.9
ASPECT_RANGE = (1.18, 1.8)


def whiteness(image: np.ndarray) -> np.ndarray:
    """Bright and unsaturated → high: brightness minus colourfulness."""
    hi = image.max(axis=2).astype(np.int16)
    lo = image.min(axis=2).astype(np.int16)
    return np.clip(hi - (hi - lo) * 3 // 2, 0, 255).astype(np.uint8)


def _border_support(quad: np.ndarray, mask: np.ndarray) -> float:
    """Share of a thin band just inside the quad that is white in `mask`.

    A card's white margin runs all round it, even when the face picture or the corner index
    breaks the white blob itself; junk glued to the blob makes the band run over table.
    """
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    x0, y0 = max(x - 2, 0), max(y - 2, 0)
    roi = mask[y0:y + h + 2, x0:x + w + 2]
    band = np.zeros(roi.shape, np.uint8)
    side = min(np.linalg.norm(quad[0] - quad[1]), np.linalg.norm(quad[1] - quad[2]))
    thickness = max(2, int(side * 0.05))
    pts = (quad - (x0, y0)).astype(np.int32)
    cv2.polylines(band, [pts], True, 255, thickness * 2)
    inner = np.zeros_like(band)
    cv2.fillConvexPoly(inner, pts, 255)
    band &= inner
    n = cv2.countNonZero(band)
    return cv2.countNonZero(band & roi) / n if n else 0.0


def _quad_from_contour(contour: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A card-shaped quad around `contour` and its quality, or None."""
    image_area = mask.shape[0] * mask.shape[1]
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if not MIN_AREA_FRACTION * image_area <= hull_area <= MAX_AREA_FRACTION * image_area:
        return None
    approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
    if len(approx) == 4 and cv2.isContourConvex(approx):
        quad = approx.reshape(4, 2).astype(np.float32)
    else:
        quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
    quad_area = cv2.contourArea(quad)
    if quad_area <= 0 or not 0.88 <= hull_area / quad_area <= 1.15:
        return None
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    short, long_ = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if short > long_:
        short, long_ = long_, short
    aspect = long_ / max(short, 1e-6)
    if not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
        return None
    # opposite sides should be of similar length (only mild perspective)
    if min(sides[0], sides[2]) / max(sides[0], sides[2]) < 0.6 or min(sides[1], sides[3]) / max(sides[1], sides[3]) < 0.6:
        return None
    support = _border_support(quad, mask)
    if support < 0.8:
        return None
    return quad, support - abs(aspect - 1.4) * 0.3


def _masks(white: np.ndarray) -> list[np.ndarray]:
    """Binary 'paper' masks: global cuts at several levels, and local cuts for uneven light."""
    otsu, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    p = np.percentile(white, [75, 90, 97])
    levels = sorted({int(otsu), int(otsu) + 20, int(otsu) + 40, *map(int, p)})
    masks = [(white > v).astype(np.uint8) * 255 for v in levels if 20 < v < 250]
    block = max(15, (min(white.shape) // 4) | 1)
    for offset in (10, 25):
        masks.append(cv2.adaptiveThreshold(white, 255, cv2.ADAPTIVE_THRESH_MEAN_C,
                                           cv2.THRESH_BINARY, block, -offset))
    return masks


def _overlap(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """(intersection area, area a, area b) of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(a, b)
    return inter, cv2.contourArea(a), cv2.contourArea(b)


def _suppress(cands: list[tuple[np.ndarray, float]]) -> list[np.ndarray]:
    kept: list[np.ndarray] = []
    for quad, _score in sorted(cands, key=lambda c: -c[1]):
        clash = False
        for other in kept:
            inter, a, b = _overlap(quad, other)
            if inter / min(a, b) > 0.5:
                clash = True
                break
        if not clash:
            kept.append(quad)
    # an inner frame (face-card picture box) sits inside a bigger accepted card
    final = []
    for quad in kept:
        inner = any(
            o is not quad and _overlap(quad, o)[0] / cv2.contourArea(quad) > 0.85
            and cv2.contourArea(o) > 1.3 * cv2.contourArea(quad)
            for o in kept
        )
        if not inner:
            final.append(quad)
    return final


def find_cards(image: np.ndarray) -> list[np.ndarray]:
    """Outlines (4×2 float32, image pixel coordinates) of the cards found in a BGR image."""
    h, w = image.shape[:2]
    scale = min(1.0, DETECT_LONG_SIDE / max(h, w))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    white = cv2.GaussianBlur(whiteness(small), (3, 3), 0)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90), np.ones((3, 3), np.uint8))
    k = max(3, int(round(min(small.shape[:2]) / 80)) | 1)
    kernels = [np.ones((3, 3), np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))]
    cands = []
    for mask in _masks(white):
        carved = cv2.bitwise_and(mask, cv2.bitwise_not(edges))
        for variant in (mask, carved):
            for kernel in kernels:
                opened = cv2.morphologyEx(variant, cv2.MORPH_OPEN, kernel)
                contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                for c in contours:
                    found = _quad_from_contour(c, opened)
                    if found is not None:
                        cands.append(found)
    return [q / scale for q in _suppress(cands)]
