"""Find card outlines in a photo.

Cards are bright, unsaturated quadrilaterals with a poker-card aspect ratio and a white margin
all round. On a copy at most DETECT_LONG_SIDE px long, a "whiteness" map is cut at a few
levels (global and local, a cheap stand-in for MSER). Each cut proposes contours twice: with
edges carved out (so a card touching a bright object or another card comes apart) and
opened-then-closed (so a margin broken by the picture closes); an opened-then-closed blob that
is no card is cut between its deepest notches, for cards that touch or overlap at a corner.
Regions enclosed by edges are proposed too, for a card on a bright table. A proposal is kept when its convex hull fits a
quadrilateral of card shape and the band just inside that quadrilateral is white; overlapping
proposals are merged by non-maximum suppression.
"""

from __future__ import annotations

import cv2
import numpy as np

DETECT_LONG_SIDE = 512
MIN_AREA_FRACTION = 0.004
MAX_AREA_FRACTION = 0.9
# long side / short side of a card as it appears: 1.4 from above; seen from a seated player's
# angle (foreshortened to about half along the line of sight) anything from a square to 2.6
ASPECT_RANGE = (1.0, 2.6)
USUAL_ASPECT = (1.18, 1.8)  # ... and from above
MAX_PROPOSALS = 400  # best-scoring proposals merged per photo
SIDE_RATIO = 0.5  # a side may appear this much shorter than the opposite one (perspective)
MIN_HULL_IOU = 0.85
_NEXT = [1, 2, 3, 0]  # index of each corner's successor


def percentiles_u8(image: np.ndarray, qs, channel: int = 0) -> np.ndarray:
    """np.percentile (linear interpolation) of one channel of a uint8 image, from its histogram:
    the same values, several times faster than sorting (a card's 56 000 pixels: 0.3 ms against
    2 ms)."""
    cum = np.cumsum(cv2.calcHist([image], [channel], None, [256], [0, 256]).ravel())
    n = int(cum[-1])
    out = []
    for q in np.atleast_1d(qs):
        pos = float(q) / 100 * (n - 1)
        lo = int(np.floor(pos))
        a = int(np.searchsorted(cum, lo, side="right"))
        b = int(np.searchsorted(cum, min(lo + 1, n - 1), side="right"))
        out.append(a + (pos - lo) * (b - a))
    return np.array(out)


def connected_components(binary: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """cv2.connectedComponentsWithStats (8-connected, int32 labels) by Grana's block-based
    algorithm: the same labels, stats and centroids as the default one, three times faster on
    one thread (0.5 ms against 1.5 ms on a 512×384 mask)."""
    return cv2.connectedComponentsWithStatsWithAlgorithm(binary, 8, cv2.CV_32S, cv2.CCL_GRANA)


def whiteness(image: np.ndarray) -> np.ndarray:
    """Bright and unsaturated → high: brightness minus colourfulness."""
    b, g, r = cv2.split(image)
    hi = cv2.max(cv2.max(b, g), r)
    lo = cv2.min(cv2.min(b, g), r)
    return cv2.subtract(hi, cv2.convertScaleAbs(cv2.subtract(hi, lo), alpha=1.5))


def _centre(quad: np.ndarray) -> np.ndarray:
    """quad.mean(axis=0) of a quadrilateral, the same value without numpy's generic mean (whose
    overhead was a tenth of the outline finder's time: it runs for every proposal)."""
    return np.add.reduce(quad, axis=0) * 0.25


def _length(v: np.ndarray):
    """np.linalg.norm of a vector, the same value without its generic path."""
    return np.sqrt(v.dot(v))


def _border_support(quad: np.ndarray, mask: np.ndarray) -> float:
    """Share of a thin band just inside the quad that is white in `mask`.

    A card's white margin runs all round it, even when the face picture or the corner index
    breaks the white blob itself; junk glued to the blob makes the band run over table.
    """
    x, y, w, h = cv2.boundingRect(quad.astype(np.int32))
    x0, y0 = max(x - 2, 0), max(y - 2, 0)
    roi = mask[y0:y + h + 2, x0:x + w + 2]
    band = np.zeros(roi.shape, np.uint8)
    side = min(_length(quad[0] - quad[1]), _length(quad[1] - quad[2]))
    thickness = max(2, int(side * 0.05))
    centre = _centre(quad)
    pts = (centre + (quad - centre) * 0.96 - (x0, y0)).astype(np.int32)  # skip the rounded, blurred rim
    cv2.polylines(band, [pts], True, 255, thickness * 2)
    inner = np.zeros_like(band)
    cv2.fillConvexPoly(inner, pts, 255)
    band &= inner
    n = cv2.countNonZero(band)
    return cv2.countNonZero(band & roi) / n if n else 0.0


def _quad_options(hull: np.ndarray, hull_area: float, rect=None) -> list[tuple[np.ndarray, float]]:
    """Quadrilaterals that match a convex hull well (IoU ≥ MIN_HULL_IOU), best first: polygon
    simplifications (they follow perspective) and the minimum-area rectangle (robust to a
    corner cut off or covered; `rect`, the hull's, when known)."""
    options = [cv2.boxPoints(cv2.minAreaRect(hull) if rect is None else rect).astype(np.float32)]
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.04, 0.07):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            options.append(approx.reshape(4, 2).astype(np.float32))
    hull_f = hull.reshape(-1, 2).astype(np.float32)
    scored = []
    for quad in options:
        inter, _ = cv2.intersectConvexConvex(quad, hull_f)
        iou = inter / (cv2.contourArea(quad) + hull_area - inter + 1e-6)
        if iou >= MIN_HULL_IOU:
            scored.append((quad, iou))
    return sorted(scored, key=lambda qi: -qi[1])


def _card_shaped(quad: np.ndarray) -> float | None:
    """The aspect ratio of a quad that could be a card seen with mild perspective, else None."""
    edge = quad[_NEXT] - quad
    sides = np.hypot(edge[:, 0], edge[:, 1])
    short, long_ = sorted(((sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2))
    aspect = long_ / max(short, 1e-6)
    if not ASPECT_RANGE[0] <= aspect <= ASPECT_RANGE[1]:
        return None
    if min(sides[0], sides[2]) / max(sides[0], sides[2]) < SIDE_RATIO \
            or min(sides[1], sides[3]) / max(sides[1], sides[3]) < SIDE_RATIO:
        return None
    return aspect


def _quad_from_contour(contour: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A card-shaped quad around `contour` and its quality, or None."""
    image_area = mask.shape[0] * mask.shape[1]
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if not MIN_AREA_FRACTION * image_area <= hull_area <= MAX_AREA_FRACTION * image_area:
        return None
    rect = cv2.minAreaRect(hull)
    (_, _), (rw, rh), _ = rect
    if not 0.85 * ASPECT_RANGE[0] <= max(rw, rh) / max(min(rw, rh), 1e-6) <= 1.2 * ASPECT_RANGE[1]:
        return None  # cheap early exit: not even roughly card-shaped (a floor tile, a strip)
    for quad, _ in _quad_options(hull, hull_area, rect):
        aspect = _card_shaped(quad)
        if aspect is None:
            continue
        support = _border_support(quad, mask)
        if support >= 0.8:
            # a shape seen from above first; foreshortened ones (a square, a strip) after them
            usual = USUAL_ASPECT[0] <= aspect <= USUAL_ASPECT[1]
            return quad, support - abs(aspect - 1.4) * 0.3 - (0 if usual else 0.3)
    return None


def _split_blob(contour: np.ndarray, support: np.ndarray, min_perimeter: float) -> list[tuple[np.ndarray, float]]:
    """Card quads (and scores) inside a blob of cards that touch or overlap a little.

    Such a blob has deep notches where the outlines meet: it is cut along the line between
    two of its deepest notches and the pieces are fitted like any proposal. They are scored
    below whole outlines, so a card found whole keeps its own outline.
    """
    image_area = support.shape[0] * support.shape[1]
    x, y, w, h = cv2.boundingRect(contour)
    if w * h < 2.5 * MIN_AREA_FRACTION * image_area:
        return []  # too small to hold two cards
    hull_area = cv2.contourArea(cv2.convexHull(contour))
    if not 2.5 * MIN_AREA_FRACTION * image_area <= hull_area <= 0.4 * image_area \
            or cv2.contourArea(contour) < 0.5 * hull_area:
        return []  # a whole bright table, or a tangle that is no pair of cards
    try:
        defects = cv2.convexityDefects(contour, cv2.convexHull(contour, returnPoints=False))
    except cv2.error:  # a self-touching outline
        return []
    if defects is None:
        return []
    defects = defects.reshape(-1, 4)
    deep = defects[defects[:, 3] / 256 > 0.06 * np.sqrt(hull_area)]
    deep = deep[np.argsort(-deep[:, 3])][:3]
    if len(deep) < 2:
        return []
    solid = np.zeros((h + 4, w + 4), np.uint8)
    cv2.drawContours(solid, [contour], -1, 255, cv2.FILLED, offset=(2 - x, 2 - y))
    out = []
    for i in range(len(deep)):
        for j in range(i + 1, len(deep)):
            a = tuple(int(v) for v in contour[deep[i, 2]][0] - (x - 2, y - 2))
            b = tuple(int(v) for v in contour[deep[j, 2]][0] - (x - 2, y - 2))
            cut = solid.copy()
            cv2.line(cut, a, b, 0, 2)
            pieces, _ = cv2.findContours(cut, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x - 2, y - 2))
            for piece in pieces:
                if len(piece) >= 4 and cv2.arcLength(piece, True) >= min_perimeter:
                    found = _quad_from_contour(piece, support)
                    if found is not None:
                        out.append((found[0], found[1] - 0.2))
    return out


def _masks(white: np.ndarray) -> list[np.ndarray]:
    """Binary 'paper' masks: a global cut (the lowest usable of Otsu's level and the 80th and
    95th percentiles), and a local cut for uneven light. (The higher global cuts were measured
    on the tuning photos and the drawn scenes to find no card the others missed, at a fifth of
    the outline finder's time.)"""
    otsu, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    levels = sorted({int(otsu), *map(int, percentiles_u8(white, [80, 95]))})
    masks = [(white > v).astype(np.uint8) * 255 for v in levels if 20 < v < 250][:1]
    block = max(15, (min(white.shape) // 4) | 1)
    masks.append(cv2.adaptiveThreshold(white, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -15))
    return masks


def _suppress(cands: list[tuple[np.ndarray, float]]) -> list[np.ndarray]:
    """Best-scoring quads first (the result keeps that order); drop any that half overlaps a
    kept one; one that holds a kept one inside it is kept beside it."""
    kept: list[np.ndarray] = []
    kept_area: list[float] = []
    kept_centres = np.empty((0, 2), np.float32)
    kept_roots = np.empty(0)  # square roots of the kept areas
    for quad, _score in sorted(cands, key=lambda c: -c[1])[:MAX_PROPOSALS]:
        centre, area = _centre(quad), cv2.contourArea(quad)
        off = centre - kept_centres
        dist = np.hypot(off[:, 0], off[:, 1])
        clash = False
        # only the kept quads near enough to overlap are looked at (all at once: a tiled floor
        # makes a hundred proposals)
        for k in np.nonzero(dist <= 1.3 * (np.sqrt(area) + kept_roots))[0].tolist():
            other, oa, d = kept[k], kept_area[k], dist[k]
            inter, _ = cv2.intersectConvexConvex(quad, other)
            if area > 1.3 * oa and inter > 0.85 * oa:
                continue  # a panel of this card's face (or its pips) came first
            if d < 0.25 * np.sqrt(min(area, oa)) or inter / max(min(area, oa), 1e-6) > 0.5:
                # (the intersection routine can return 0 for two nearly identical quads)
                clash = True
                break
        if clash:
            continue
        kept.append(quad)
        kept_area.append(area)
        kept_centres = np.vstack([kept_centres, centre[None]])
        kept_roots = np.append(kept_roots, np.sqrt(area))
    # A whole card (white all round) that came after a panel of its face or its pips is kept
    # beside it: which of the two is the card is left to the readers (vision.recognise.nested).
    return kept


SPECKLED = 0.25  # a mask this much covered by edges is carved into thousands of specks by them


def _contours(binary: np.ndarray, mode: int, min_box: float, specks: bool = False) -> list[np.ndarray]:
    """The contours of a binary mask that may hold a card. None of a region whose bounding box is
    smaller than `min_box` (px²) can (its hull is smaller still): with `specks` (a mask carved by
    the edges of a textured table into thousands of pieces), such regions are cleared before
    tracing, which costs far less than tracing them (busy-train: 5 000 contours traced in 9 ms;
    labelled, cleared and traced in 1.5 ms). The other regions' contours are the same, in the
    same order: tracing follows each region's own pixels, and specks are 8-connected regions
    apart from them."""
    if specks:
        n, labels, stats, _ = connected_components(binary)
        big = stats[:, cv2.CC_STAT_WIDTH] * stats[:, cv2.CC_STAT_HEIGHT] >= min_box
        big[0] = False
        binary = np.take(big.astype(np.uint8) * np.uint8(255), labels)
    return cv2.findContours(binary, mode, cv2.CHAIN_APPROX_SIMPLE)[0]


def find_cards(image: np.ndarray) -> list[np.ndarray]:
    """Outlines (4×2 float32, image pixel coordinates) of the cards found in a BGR image."""
    small = image
    while max(small.shape[:2]) >= 2 * DETECT_LONG_SIDE:  # halving is much cheaper than INTER_AREA
        small = cv2.pyrDown(small)
    if max(small.shape[:2]) > DETECT_LONG_SIDE:
        f = DETECT_LONG_SIDE / max(small.shape[:2])
        small = cv2.resize(small, None, fx=f, fy=f, interpolation=cv2.INTER_LINEAR)
    scale = small.shape[1] / image.shape[1]
    white = cv2.GaussianBlur(whiteness(small), (3, 3), 0)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    thin_edges = cv2.Canny(gray, 30, 90)
    thin_edges = cv2.dilate(thin_edges, np.array([[0, 0, 0], [0, 1, 1], [0, 1, 0]], np.uint8))
    edges = cv2.dilate(thin_edges, np.ones((3, 3), np.uint8))
    kernel = np.ones((3, 3), np.uint8)
    closer = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    min_perimeter = 3.5 * np.sqrt(MIN_AREA_FRACTION * small.shape[0] * small.shape[1])
    cands = []

    seen: set[tuple] = set()

    min_box = MIN_AREA_FRACTION * small.shape[0] * small.shape[1]

    pieces: list[tuple[np.ndarray, np.ndarray, tuple]] = []  # (contour, support mask, box) not card-shaped alone

    def collect(binary: np.ndarray, support: np.ndarray, mode: int = cv2.RETR_EXTERNAL, split: bool = False,
                specks: bool = False, keep_pieces: bool = False) -> None:
        contours = _contours(binary, mode, min_box, specks)
        for c in contours:
            if len(c) >= 4 and cv2.arcLength(c, True) >= min_perimeter:
                # the same region is proposed by several cuts: fitted once (boxes within 2 px)
                box = cv2.boundingRect(c)
                key = tuple(v // 2 for v in box) + (split,)
                if key in seen:
                    continue
                seen.add(key)
                if box[2] * box[3] < min_box:
                    continue  # its hull is smaller still: no card, and no two
                found = _quad_from_contour(c, support)
                if found is not None:
                    cands.append(found)
                elif keep_pieces:
                    pieces.append((c, support, box))
                if found is None and split:  # perhaps cards touching or overlapping at a corner
                    cands.extend(_split_blob(c, support, min_perimeter))

    masks = _masks(white)
    for mask in masks:
        carved = cv2.bitwise_and(mask, cv2.bitwise_not(thin_edges))
        paper = cv2.countNonZero(mask)
        collect(carved, mask, specks=paper - cv2.countNonZero(carved) > SPECKLED * paper, keep_pieces=True)
        collect(cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, closer), mask,
                split=True)
    # outlines traced by edges: for a card whose white merges with a bright table, or whose
    # white margin is broken by its picture (traced on the thickened edges only: the thin ones
    # found one card more of 284 on the tuning photos for 13 ms more at p95)
    collect(cv2.bitwise_not(edges), masks[0], cv2.RETR_LIST)
    cands.extend(_joined_pieces(pieces))
    return [q / scale for q in _suppress(cands)]


MAX_PIECES = 40  # the largest pieces of a mask tried two by two
JOINED_PENALTY = 0.05  # a quad of two pieces is scored below one traced whole


def _joined_pieces(pieces: list) -> list[tuple[np.ndarray, float]]:
    """A card cut in two by the edges of its own face (a face card's picture reaching across its thin
    white margin), its halves each too short for a card, and its white joined to a bright table's (pale
    tiles' grout) so that no closing of the mask outlines it: two pieces of one mask whose boxes touch
    (within 3 px), proposed as one when together they fit a card. Pieces are (contour, mask, box)."""
    pieces = sorted(pieces, key=lambda p: -p[2][2] * p[2][3])[:MAX_PIECES]
    out = []
    for i, (ci, mi, (xi, yi, wi, hi)) in enumerate(pieces):
        for cj, mj, (xj, yj, wj, hj) in pieces[i + 1:]:
            if mi is not mj or xi > xj + wj + 3 or xj > xi + wi + 3 or yi > yj + hj + 3 or yj > yi + hi + 3:
                continue
            found = _quad_from_contour(np.vstack([ci, cj]), mi)
            if found is not None:
                out.append((found[0], found[1] - JOINED_PENALTY))
    return out


def outermost(quads: list[np.ndarray]) -> list[np.ndarray]:
    """The quads not lying inside a larger one (a panel of a card's face inside the card)."""
    areas = [cv2.contourArea(np.float32(q)) for q in quads]
    return [q for i, q in enumerate(quads)
            if not any(areas[j] > 1.3 * areas[i]
                       and cv2.intersectConvexConvex(np.float32(q), np.float32(o))[0] > 0.85 * areas[i]
                       for j, o in enumerate(quads))]
