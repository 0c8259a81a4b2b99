"""Find cards by their corner index alone, where no outline shows.

In a fanned hand or a pile of overlapping cards only a strip of each card is visible, but
that strip is where the index is printed. Dark (or red) marks on bright paper are paired
into "rank above suit" candidates; the pair gives the card's orientation (rank → suit points
down the card) and its scale (the rank's height); the corner around it is cut out as the
index reader expects it (vision.index_net) and read. Only confident reads of a rank are kept.
Two reads of the same card (its two opposite corners) are merged, and reads that lie inside
a card already found by its outline are left to that card's reader.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

import cv2
import numpy as np

from .detect import connected_components
from .glyphs import RANKS
from .index_net import INDEX_BOX, INPUT_SIZE, read_patches
from .standard import TURNED_DOUBT, labelled

WORK_SIDE = 800  # long side of the image searched (px)
WORK_CARD_HEIGHT = 220  # ... or smaller, so that a card of the size found is this tall (px)
MIN_WORK_SIDE = 400  # ... but no smaller than this
MIN_SIDE, MIN_AREA = 6, 14  # the smallest mark (px) taken for a rank or a suit
INK_CONTRAST = 0.28  # ink is at least this much darker than the paper, as a share of it
MAX_MARKS = 300  # marks paired per photo (a texture can make thousands)
MAX_PAIRS = 400  # pairs considered per photo, best first (most are passed over as not a rank and a suit)
MAX_CANDIDATES = 24  # pairs read per photo, best first (32 gave the same reads on the tuning photos and
# the drawn scenes, 5 ms more CPU at p95 there)
EXTRA_CANDIDATES = 8  # pairs read besides, found in each pixel's darkest channel only (red ink)
RANK_HEIGHT = 23.5  # rank height in card units (card = 200×280), the middle of what the reader was taught
RANK_ORIGIN = (6.5, 8.5)  # rank's top-left in card units, likewise
ACCEPT_RANK = 0.7  # an index read alone is kept only at this rank probability
CONFIRM_ZOOMS = (0.88, 1.14)  # ... read again at these framings, the three reads combined
SECOND_FLOOR = 0.1  # a search read not sure of a rank whose likeliest rank has at least this is read by
# the card reader (index_net.onnx) too: kept when both put that rank and suit first and the card
# reader's three framings combined give the rank at least SECOND_ACCEPT
SECOND_ACCEPT = 0.95
SOLID_PIP = 0.9  # a mark filling more of its convex hull is a pip, not a rank's letter or digit
SOLID_SUIT = 0.6  # a suit symbol fills at least this much of its hull
PAIRS_PER_MARK = 2  # suits tried under each mark


@dataclass(eq=False)  # hits are compared by identity (their fields hold arrays)
class IndexHit:
    label: str
    confidence: float
    centre: np.ndarray  # rank centre, image px
    down: np.ndarray  # unit vector from rank to suit
    scale: float  # image px per card unit
    alternatives: list[tuple[str, float]]

    def outline(self) -> np.ndarray:
        """The card's outline guessed from its index: a 200×280 card in the index's frame."""
        right = np.array([self.down[1], -self.down[0]])
        k = self.scale
        half_rank_width = 8  # card units, a typical rank's
        origin = self.centre - right * k * (RANK_ORIGIN[0] + half_rank_width) \
            - self.down * k * (RANK_ORIGIN[1] + RANK_HEIGHT / 2)
        pts = [origin, origin + right * 200 * k, origin + right * 200 * k + self.down * 280 * k,
               origin + self.down * 280 * k]
        return np.float32(pts)


def _ink_limits() -> np.ndarray:
    """For each paper brightness p, the grey level below which a pixel is ink: p − g > INK_CONTRAST·p,
    i.e. g < p − t + 1 with t the least integer above INK_CONTRAST·p; on paper above 110 only.
    (A table lookup and one comparison: a third less time than the arithmetic on every pixel.)"""
    p = np.arange(256)
    least_above = np.floor(INK_CONTRAST * p).astype(int) + 1
    return np.where(p > 110, p - least_above + 1, 0).astype(np.uint8)


_INK_BELOW = _ink_limits()


def _ink(gray: np.ndarray, glyph: int) -> np.ndarray:
    """Marks clearly darker than the bright paper around them (0/1)."""
    k = max(5, glyph | 1)
    paper = cv2.dilate(gray, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    return np.less(gray, cv2.LUT(paper, _INK_BELOW)).view(np.uint8)


def _pairs(stats: np.ndarray, centroids: np.ndarray) -> list[tuple[int, int, float]]:
    """(rank component, suit component, score) pairs: a mark with a smaller compact mark just
    beyond it, about as far as the mark is tall."""
    n = len(stats)
    if n < 2:
        return []
    size = np.maximum(stats[:, 2], stats[:, 3]).astype(np.float32)
    area = stats[:, 4].astype(np.float32)
    c = centroids.astype(np.float32)
    dx, dy = c[:, 0, None] - c[None, :, 0], c[:, 1, None] - c[None, :, 1]
    d = np.sqrt(dx * dx + dy * dy)
    reach = size[:, None]
    # the size tests on the pairs at a suit's distance only (a few of the n² pairs)
    i, j = np.nonzero((d > 0.7 * reach) & (d < 1.9 * reach))
    srel, ratio = size[j] / size[i], area[j] / area[i]
    ok = (ratio > 0.2) & (ratio < 1.6) & (srel > 0.4) & (srel < 1.2)
    i, j, srel = i[ok], j[ok], srel[ok]
    # an index stands nearly alone (its suit, perhaps a pip or a "10"'s other digit beside it);
    # a letter in a line of text has neighbours all round: try those last
    crowd = (d < 1.6 * reach).sum(axis=1) - 1
    score = -np.abs(d[i, j] / size[i] - 1.2) - np.abs(srel - 0.75) - 0.25 * np.maximum(0, crowd[i] - 3)
    order = np.argsort(-score)[:MAX_PAIRS]
    return list(zip(i[order].tolist(), j[order].tolist(), score[order].tolist()))


def _patch(image: np.ndarray, pts: np.ndarray, down: np.ndarray, zoom: float = 1.0) -> tuple[np.ndarray, np.ndarray, float]:
    """Index patch for a rank whose pixels are `pts` (x, y), and the rank centre and scale.
    `zoom` > 1 frames the rank smaller in the patch."""
    return _patch_at(image, _extent(pts, down), zoom)


def _patch_at(image: np.ndarray, extent: tuple, zoom: float = 1.0) -> tuple[np.ndarray, np.ndarray, float]:
    """_patch for a rank's _extent."""
    m, centre, k = _framed(extent, zoom)
    patch = cv2.warpAffine(image, m, INPUT_SIZE, flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)
    return patch, centre, k


def _frame(pts: np.ndarray, down: np.ndarray, zoom: float = 1.0) -> tuple[np.ndarray, np.ndarray, float]:
    """The map from index patch to photo for a rank whose pixels are `pts`, the rank centre and
    the scale (photo px per card unit)."""
    return _framed(_extent(pts, down), zoom)


def _extent(pts: np.ndarray, down: np.ndarray) -> tuple:
    """A rank's directions (right, down) and its extent along each: all a frame needs of its
    pixels (measured once for a rank read at several framings)."""
    right = np.array([down[1], -down[0]])
    along_r, along_d = pts @ right, pts @ down
    return right, down, along_r.min(), along_r.max(), along_d.min(), along_d.max()


def _framed(extent: tuple, zoom: float = 1.0) -> tuple[np.ndarray, np.ndarray, float]:
    """_frame for a rank's _extent."""
    right, down, r_min, r_max, d_min, d_max = extent
    height = d_max - d_min + 1
    k = height / RANK_HEIGHT * zoom
    top_left = right * r_min + down * d_min
    origin = top_left - right * RANK_ORIGIN[0] * k - down * RANK_ORIGIN[1] * k
    sx, sy = INDEX_BOX[0] / INPUT_SIZE[0] * k, INDEX_BOX[1] / INPUT_SIZE[1] * k
    m = np.float32([[right[0] * sx, down[0] * sy, origin[0]], [right[1] * sx, down[1] * sy, origin[1]]])
    centre = right * (r_min + r_max) / 2 + down * (d_min + d_max) / 2
    return m, centre, k


def halved_towards(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`image` halved exactly (2×2 means, OpenCV's fast path) while at least twice `size` (w, h)."""
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        hh, hw = image.shape[0] // 2, image.shape[1] // 2
        image = cv2.resize(image[:2 * hh, :2 * hw], (hw, hh), interpolation=cv2.INTER_AREA)
    return image


def area_shrink(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`image` shrunk to `size` (w, h) by area averaging: halved exactly while at least twice too
    large, then INTER_AREA's general path on the smaller copy (on a 1600 px grey photo shrunk to
    560 px: about 2.6 ms instead of 6.8)."""
    image = halved_towards(image, size)
    if (image.shape[1], image.shape[0]) != tuple(size):
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return image


RED_EXCESS = 30  # red over the larger of green and blue: red ink, not paper (white, tinted or lit)


def red_ink(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's darkest colour channel, in which red ink is as dark as black, and where the pixel is
    clearly red (0/1): only red marks are paired again there, not black ink or texture."""
    b, g, r = cv2.split(image)
    return cv2.min(cv2.min(b, g), r), (cv2.subtract(r, cv2.max(b, g)) > RED_EXCESS).view(np.uint8)


def find_indices(image: np.ndarray, card_height: float | None = None,
                 known: list[np.ndarray] = ()) -> list[IndexHit]:
    """Confident index reads anywhere in a BGR image, one per visible index (not yet merged per card).

    `card_height` (px), when the cards found by their outline tell it, lets the search run on a
    copy just large enough for indices of cards that size (cards on one table are alike).
    Marks inside the `known` outlines (cards identified already) are not read."""
    h, w = image.shape[:2]
    f = min(1.0, WORK_SIDE / max(h, w))
    if card_height:
        f = min(f, max(WORK_CARD_HEIGHT / card_height, MIN_WORK_SIDE / max(h, w)))
    # marks are found on a smaller copy (shrunk once, in colour: a 1600 px photo's darkest channel took
    # 10 ms at full size); patches are cut from the photo itself
    small = area_shrink(image, (int(w * f), int(h * f))) if f < 1 else image
    darkest, red = red_ink(small)
    known_here = [np.asarray(q) * f for q in known]
    candidates = _candidates(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), known_here)
    # red ink is as dark as black in each pixel's darkest channel: an index printed light red, or
    # blurred, breaks into specks in grey. Red marks are paired again there, after grey's (every red
    # pip is a mark there too, and they would use up the places read), at places not tried already
    tried = [pts.mean(axis=0) for pts, _ in candidates]
    extra = [(pts, down) for pts, down in _candidates(darkest, known_here, red)
             if not any(np.linalg.norm(pts.mean(axis=0) - t) < np.ptp(pts @ down) + 1 for t in tried)]
    grey = len(candidates)
    candidates = [(pts / f, down) for pts, down in candidates + extra[:EXTRA_CANDIDATES]]
    if not candidates:
        return []
    return _suppress(read_candidates(image, candidates, second_only=range(grey, len(candidates))))


def read_candidates(image: np.ndarray, candidates: list[tuple[np.ndarray, np.ndarray]],
                    checked: Iterable[int] = (), second_only: Iterable[int] = ()) -> list[IndexHit]:
    """Sure index reads of "rank above suit" candidates ((rank pixels, down vector), photo px):
    the search reader's, where it is sure (ACCEPT_RANK) and its read holds framed larger and
    smaller; else, where it leans to a rank, the card reader's when it puts the same rank and suit
    first and stays sure at every framing (SECOND_ACCEPT). A `checked` candidate (found by less
    certain means) is kept only where the card reader puts the same rank and suit first in any
    case; a `second_only` one only as the card reader reads it (the stricter way)."""
    checked, second_only = set(checked), set(second_only)
    extents = [_extent(pts, down) for pts, down in candidates]
    patches = [_patch_at(image, e)[0] for e in extents]
    cls, suit = read_patches(patches, search=True)
    sure = [i for i, cp in enumerate(cls)
            if i not in second_only and np.argmax(cp) < len(RANKS) and cp.max() >= ACCEPT_RANK]
    # a mark the search reader is unsure of but leans to a rank is read by the card reader too,
    # and kept only where both put the same rank (and suit) first
    taken = set(sure)
    unsure = [i for i, cp in enumerate(cls) if i not in taken and cp[: len(RANKS)].max() >= SECOND_FLOOR]
    second = unsure + [i for i in sure if i in checked]
    agreed, confirmed = [], set()
    if second:
        cls_w, suit_w = read_patches([patches[i] for i in second])
        for i, cw, sw in zip(second, cls_w, suit_w):
            same = np.argmax(cw) == np.argmax(cls[i][: len(RANKS)]) and np.argmax(sw) == np.argmax(suit[i])
            if i in taken:
                confirmed |= {i} if same else set()
            elif same and cw.max() >= ACCEPT_RANK:
                agreed.append((i, cw, sw))
    sure = [i for i in sure if i not in checked or i in confirmed]
    if not sure and not agreed:
        return []
    # read again framed a little larger and smaller: a read that changes with the framing is not sure
    n = len(CONFIRM_ZOOMS)
    again = [_patch_at(image, extents[i], zoom)[0] for i in sure for zoom in CONFIRM_ZOOMS]
    cls2, suit2 = read_patches(again, search=True)
    reads = [(i, np.vstack([cls[i], cls2[j * n:(j + 1) * n]]), np.vstack([suit[i], suit2[j * n:(j + 1) * n]]))
             for j, i in enumerate(sure)]
    if agreed:
        cls3, suit3 = read_patches([_patch_at(image, extents[i], zoom)[0] for i, _, _ in agreed
                                    for zoom in CONFIRM_ZOOMS])
        reads += [(i, np.vstack([cw, cls3[j * n:(j + 1) * n]]), np.vstack([suit[i], sw, suit3[j * n:(j + 1) * n]]))
                  for j, (i, cw, sw) in enumerate(agreed)]
    hits = []
    for j, (i, cps, sps) in enumerate(reads):
        cp = np.exp(np.mean(np.log(cps + 1e-9), axis=0))
        sp = np.mean(sps, axis=0)
        cp, sp = cp / cp.sum(), sp / sp.sum()
        if np.argmax(cp) >= len(RANKS) or cp.max() < (ACCEPT_RANK if j < len(sure) else SECOND_ACCEPT):
            continue
        alts = labelled(cp[: len(RANKS)], sp)
        _, centre, k = _framed(extents[i])
        hits.append(IndexHit(alts[0][0], alts[0][1], centre, candidates[i][1], k, alts))
    return hits


def _candidates(gray: np.ndarray, known: list[np.ndarray] = (), only: np.ndarray | None = None
                ) -> list[tuple[np.ndarray, np.ndarray]]:
    """(rank pixels, down vector) of the likeliest "rank above suit" pairs, best first; marks
    inside the `known` outlines are passed over, so they do not use up MAX_CANDIDATES. With `only`
    (0/1), ink elsewhere is no mark."""
    glyph = max(7, int(max(gray.shape[:2]) / 40))
    ink = _ink(gray, glyph * 2)
    n, labels, stats, centroids = connected_components(ink if only is None else ink & only)
    side = np.maximum(stats[:, 2], stats[:, 3])
    keep = np.nonzero((side >= MIN_SIDE) & (side <= max(gray.shape[:2]) / 8) & (stats[:, 4] >= MIN_AREA)
                      & (stats[:, 4] >= 0.15 * stats[:, 2] * stats[:, 3]))[0]
    keep = keep[keep > 0]
    if len(keep) > MAX_MARKS:  # a busy texture: pairing is quadratic, so keep the largest marks
        keep = keep[np.argsort(stats[keep, 4])[::-1][:MAX_MARKS]]
    points: dict[int, np.ndarray] = {}
    solid: dict[int, float] = {}
    on_known = np.zeros(n, bool)  # a mark's centre lies inside a card identified already
    on_known[keep] = _inside_any(centroids[keep], known)

    def pixels(c: int) -> np.ndarray:
        if c not in points:
            points[c], solid[c] = _mark(labels, stats, c)
        return points[c]

    out = []
    tried: dict[int, int] = {}
    kept_centres = centroids[keep]
    for a, b, _ in _pairs(stats[keep], kept_centres):
        ia, ib = int(keep[a]), int(keep[b])
        if tried.get(ia, 0) >= PAIRS_PER_MARK or on_known[ia]:
            continue
        pts = pixels(ia)
        if solid[ia] > SOLID_PIP:
            continue
        pixels(ib)
        if solid[ib] < SOLID_SUIT:
            continue
        tried[ia] = tried.get(ia, 0) + 1
        down = centroids[ib] - centroids[ia]
        down = down / (np.linalg.norm(down) + 1e-9)
        # a "10": the other digit beside the rank (across the card), as tall as it
        right = np.array([down[1], -down[0]])
        height = np.ptp(pts @ down) + 1
        off = kept_centres - centroids[ia]
        beside = (np.abs(off @ down) < 0.3 * height) & (np.abs(off @ right) > 0.2 * height) \
            & (np.abs(off @ right) < 1.1 * height)
        for c in keep[beside]:
            if c not in (ia, ib) and 0.6 < (np.ptp(pixels(int(c)) @ down) + 1) / height < 1.5:
                pts = np.concatenate([pts, pixels(int(c))])
                break
        out.append((pts, down))
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def _mark(labels: np.ndarray, stats: np.ndarray, c: int) -> tuple[np.ndarray, float]:
    """The corners (x, y) of mark c's convex hull, and its solidity (pixels over the hull's area
    and half its perimeter). All that is used of a mark's pixels is their extent along some
    direction, which is their hull's: the hull is taken from the mark's traced outline, which
    has the same hull as all its pixels (a fraction of the points: 0.5 ms less a photo)."""
    x, y, w, h = stats[c, :4].tolist()
    outline = cv2.findContours((labels[y:y + h, x:x + w] == c).view(np.uint8), cv2.RETR_EXTERNAL,
                               cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))[0][0]
    hull = cv2.convexHull(outline.reshape(-1, 2).astype(np.float32))
    solid = stats[c, cv2.CC_STAT_AREA] / max(1.0, cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True))
    return hull.reshape(-1, 2), solid


def _suppress(hits: list[IndexHit]) -> list[IndexHit]:
    """One hit per index: of hits closer than a rank's height, the most confident. When they
    name different ranks (one mark framed two ways), the place is ambiguous: no hit is kept."""
    hits = sorted(hits, key=lambda h: -h.confidence)
    out: list[IndexHit] = []
    ambiguous: list[IndexHit] = []
    for hit in hits:
        near = [o for o in out + ambiguous
                if np.linalg.norm(hit.centre - o.centre) <= RANK_HEIGHT * max(hit.scale, o.scale)]
        if not near:
            out.append(hit)
            continue
        for o in near:
            if o in out and o.label[:-1] != hit.label[:-1]:
                out.remove(o)
                ambiguous.append(o)
    return out


def same_card(a: IndexHit, b: IndexHit) -> bool:
    """True when two hits may be the two opposite corners of one card: the same card, turned
    half round, no further apart than a card's diagonal (a photo may be stretched: no finer
    geometry is assumed)."""
    if a.label != b.label or float(a.down @ b.down) > -0.6:
        return False
    k = (a.scale + b.scale) / 2
    # the opposite index sits about 150 units across and 235 down the card (card 200×280); seen
    # at a low angle, the rank's height (the scale) shrinks more than the distance across
    return float(np.linalg.norm(b.centre - a.centre)) < 2.0 * np.hypot(150, 235) * k


def turned_pair(a: IndexHit, b: IndexHit) -> bool:
    """True when two hits read as a 6 and a 9 of one suit may be the two opposite corners of one
    card: one of them was read upside down, and nothing here says which."""
    ranks = {a.label[:-1], b.label[:-1]}
    if ranks != {"6", "9"} or a.label[-1] != b.label[-1]:
        return False
    return same_card(a, replace(b, label=a.label))


FOUR_INDEX_ACROSS = (100, 200)  # card units between the two top indices of a four-index card (about 155)
FOUR_INDEX_SKEW = 0.3  # ... which lie side by side: along the card at most this share of the distance across


def side_by_side(a: IndexHit, b: IndexHit) -> bool:
    """True when two hits may be the two top (or bottom) corners of one card printed with an index
    in all four corners: the same card, the same way up, about a card's width apart across it."""
    if a.label != b.label or float(a.down @ b.down) < 0.9:
        return False
    k = (a.scale + b.scale) / 2
    right = np.array([a.down[1], -a.down[0]])
    offset = b.centre - a.centre
    across, along = abs(float(offset @ right)), abs(float(offset @ a.down))
    return FOUR_INDEX_ACROSS[0] * k < across < FOUR_INDEX_ACROSS[1] * k and along < FOUR_INDEX_SKEW * across


def _top_left(group: list[IndexHit]) -> IndexHit:
    """The hit of one card's indices whose guessed outline holds the others: a top-right index
    takes its card to lie to its right, where the card is not."""
    def beside(h: IndexHit) -> float:
        right = np.array([h.down[1], -h.down[0]])
        return sum(max(0.0, -float((o.centre - h.centre) @ right)) for o in group)
    return min(group, key=beside)


def merge_pairs(hits: list[IndexHit]) -> list[IndexHit]:
    """Hits with the corners of one card merged: its two opposite corners (`same_card`) and, on a
    card printed with four indices, its two top ones (`side_by_side`); the group's first hit gives
    the read, its top-left one the place. A 6 and a 9 that may be one card's two corners are one
    card whose rank is in doubt: held below the level at which a label is given (unknown), never
    answered either way."""
    groups: list[list[IndexHit]] = []
    doubt: list[bool] = []
    for hit in hits:
        for g, group in enumerate(groups):
            if any(same_card(m, hit) or same_card(hit, m) or side_by_side(m, hit) for m in group):
                group.append(hit)
                break
            if any(turned_pair(m, hit) for m in group):
                group.append(hit)
                doubt[g] = True
                break
        else:
            groups.append([hit])
            doubt.append(False)
    out = []
    for group, doubtful in zip(groups, doubt):
        first = group[0]
        a = replace(_top_left([h for h in group if h.label == first.label]), confidence=first.confidence,
                    alternatives=first.alternatives)
        if doubtful:
            a = replace(a, confidence=min(a.confidence, TURNED_DOUBT),
                        alternatives=[(lab, min(c, TURNED_DOUBT)) for lab, c in a.alternatives])
        out.append(a)
    return out


def _inside_any(points: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    """For each point, whether it lies in (or on) any of the convex quadrilaterals (as `inside`,
    for all points at once)."""
    out = np.zeros(len(points), bool)
    p = np.asarray(points, np.float64)
    for quad in quads:
        q = np.asarray(quad, np.float64).reshape(4, 2)
        edge = np.roll(q, -1, axis=0) - q
        cross = edge[None, :, 0] * (p[:, None, 1] - q[None, :, 1]) - edge[None, :, 1] * (p[:, None, 0] - q[None, :, 0])
        out |= (cross >= 0).all(axis=1) | (cross <= 0).all(axis=1)
    return out


def inside(point: np.ndarray, quad: np.ndarray) -> bool:
    """True when the point lies in (or on) the quadrilateral."""
    return cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2), (float(point[0]), float(point[1])),
                                False) >= 0
