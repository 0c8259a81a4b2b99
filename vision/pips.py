"""A number card read by its big pips: how many there are, laid out as which rank, and their suit.

Every standard deck, whatever its design, lays a number card's pips out the same way: a 2 and a
3 in one column down the card, a 4 to a 10 in two columns with 0–2 pips between them (most
designs print the lower half's pips upside down). Where an index cannot be read (cut off by a
close-up's frame, printed where no index usually is, in a letter no reader was taught, covered),
the pips still say the card. The layout must fit one rank's closely, nothing pip-sized may lie
where another rank would put a pip or beside the layout's rows and columns, and the pips must be
one shape: a face card's art, an ace's ornament or two pips of a 3 with the third missed fit no
layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import glyphs
from .detect import connected_components
from .rectify import OutlinedCard, card_image
from .standard import (PIPS_RED, SUIT_SHARPNESS, _class_probs, _colour_mask, _ink_mask, _middle_ink, _notch_probs,
                       _pip_marks)
from .types import ACCEPT

_ROWS4 = (0.0, 1 / 3, 2 / 3, 1.0)
_SIDES6 = [(x, y) for y in (0.0, 0.5, 1.0) for x in (0.0, 1.0)]
_SIDES8 = [(x, y) for y in _ROWS4 for x in (0.0, 1.0)]
# Where each rank's pips lie, in the box their centres span (x across, y down the card); a 7's
# middle pip lies above or, the card turned round, below the middle.
LAYOUTS: dict[int, list[np.ndarray]] = {n: [np.array(p, np.float64) for p in ps] for n, ps in {
    2: [[(0.5, 0.0), (0.5, 1.0)]],
    3: [[(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)]],
    4: [[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]],
    5: [[(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.5, 0.5)]],
    6: [_SIDES6],
    7: [_SIDES6 + [(0.5, 0.25)], _SIDES6 + [(0.5, 0.75)]],
    8: [_SIDES6 + [(0.5, 0.25), (0.5, 0.75)]],
    9: [_SIDES8 + [(0.5, 0.5)]],
    10: [_SIDES8 + [(0.5, 1 / 6), (0.5, 5 / 6)]],
}.items()}
ROWS = {2: 2, 3: 3, 4: 2, 5: 2, 6: 3, 7: 3, 8: 3, 9: 4, 10: 4}  # pips down one column
FIT = 0.08  # every pip within this of the layout's place, and every place within this of a pip
ONE_COLUMN = 0.15  # a 2's or a 3's pips lie across at most this share of their span down
TALL = (1.1, 3.0)  # a two-column layout's span down over its span across
MIN_SPAN = 0.2  # share of the card's height the pips span at least
SAME_SHAPE = 0.8  # every pip's shape this like the others' (cosine of suit features), the lower turned round
EMPTY = 0.2  # at most this share of ink where another rank would put a pip
RANK_SURE = 0.9  # how sure a fitted layout makes the rank
CONTRARY = 0.5  # a corner this sure of another rank leaves the pips unanswered


@dataclass
class PipRead:
    count: int  # the rank the layout fits (2..10)
    suit_probs: np.ndarray  # over glyphs.SUITS
    red: bool


def _like_marks(stats: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The largest set of candidate pips of one size (each within 0.6–1.6 of one mark's area)."""
    idx = np.flatnonzero(keep)
    areas = stats[idx, cv2.CC_STAT_AREA].astype(np.float64)
    best = np.array([], np.int64)
    for a in areas:
        group = idx[(areas >= 0.6 * a) & (areas <= 1.6 * a)]
        if len(group) > len(best):
            best = group
    return best


def _normalised(points: np.ndarray) -> tuple[np.ndarray, bool] | None:
    """Pip centres in the box they span (one column: all across at 0.5), and whether one column."""
    span = points.max(0) - points.min(0)
    if span[1] <= 0:
        return None
    q = np.empty_like(points)
    q[:, 1] = (points[:, 1] - points[:, 1].min()) / span[1]
    one_column = span[0] < ONE_COLUMN * span[1]
    q[:, 0] = 0.5 if one_column else (points[:, 0] - points[:, 0].min()) / span[0]
    return q, one_column


def _fitted(q: np.ndarray, one_column: bool) -> tuple[int, np.ndarray] | None:
    """The rank whose layout the pips fit (within FIT both ways), and that layout."""
    for layout in LAYOUTS.get(len(q), []):
        if (len(q) <= 3) != one_column:
            continue
        d = np.linalg.norm(q[:, None] - layout[None], axis=2)
        if max(d.min(0).max(), d.min(1).max()) <= FIT:
            return len(q), layout
    return None


def _empty_places(layout: np.ndarray) -> np.ndarray:
    """Where some other rank puts a pip and this layout puts none, in the layout's box. Down one column: a
    2's middle, or between a 3's pips, and a span beyond either end (off a 2's card; a 3's third pip
    when two were found, one cut by the frame)."""
    if np.all(layout[:, 0] == 0.5):
        between = [(0.5, 0.5)] if len(layout) == 2 else [(0.5, 0.25), (0.5, 0.75)]
        return np.array(between + [(0.5, -1.0), (0.5, 2.0)])
    places = np.unique(np.concatenate([p for ps in LAYOUTS.values() for p in ps]), axis=0)
    d = np.linalg.norm(places[:, None] - layout[None], axis=2).min(1)
    return places[d > 0.12]


def _agreement(masks: list[np.ndarray], turned: list[bool | None]) -> float:
    """How alike the pips are, each turned round where `turned` says (None: either way): the least
    cosine of a pip's suit feature to the pips' mean."""
    feats = [[glyphs.suit_feature(w) for w in ([m[::-1, ::-1]] if t else [m] if t is False else [m, m[::-1, ::-1]])]
             for m, t in zip(masks, turned)]
    upright = [f[0] for f, t in zip(feats, turned) if t is not None]
    if len(upright) < 2:
        return 0.0
    ref = np.mean(upright, axis=0)
    ref /= np.linalg.norm(ref) + 1e-9
    return min(max(float(f @ ref) for f in fs) for fs in feats)


def _ways_up(masks: list[np.ndarray], lower: list[bool | None]) -> list[bool] | None:
    """Which pips are printed turned round: most designs turn those in the lower half (`lower`),
    some print every pip upright; whichever makes them more alike, or None when neither makes
    them one shape (SAME_SHAPE)."""
    ways = [[bool(t) for t in lower], [False] * len(masks)]
    scores = [_agreement(masks, lower), _agreement(masks, ways[1])]
    best = int(np.argmax(scores))
    return ways[best] if scores[best] >= SAME_SHAPE else None


def _pips_beside(whole: np.ndarray, pips: np.ndarray, centres: np.ndarray) -> bool:
    """True when a mark of the pips' size (`pips`: their stats, `centres` in the card) lies level
    with their rows or in line with their columns but is not one of them: the layout is part of a
    larger one (the block of a card's pips outlined alone, a card read sideways). Only in the
    corners beyond both lie the indices, whose suit some designs print as large as a pip."""
    _, _, stats, marks = connected_components(whole)
    area = float(np.median(pips[:, cv2.CC_STAT_AREA]))
    width = float(np.median(pips[:, cv2.CC_STAT_WIDTH]))
    height = float(np.median(pips[:, cv2.CC_STAT_HEIGHT]))
    a, h = stats[1:, cv2.CC_STAT_AREA], stats[1:, cv2.CC_STAT_HEIGHT]
    like = (a >= 0.6 * area) & (a <= 1.6 * area) & (h >= 0.7 * height) & (h <= 1.4 * height)
    (left, top), (right, bottom) = centres.min(0), centres.max(0)
    margin = 0.1 * (bottom - top)
    for mx, my in marks[1:][like]:
        level = top - margin <= my <= bottom + margin
        in_line = left - width / 2 <= mx <= right + width / 2
        if (level or in_line) and np.linalg.norm(centres - (mx, my), axis=1).min() > height / 2:
            return True
    return False


def read_pips(card: np.ndarray) -> PipRead | None:
    """The rank and suit a rectified portrait card's big pips show, or None when they fit no layout."""
    middle = _middle_ink(card)
    if middle is None:
        return None
    origin, region, mask = middle
    _, labels, stats, centroids = connected_components(mask)
    group = _like_marks(stats, _pip_marks(card.shape, origin, mask, stats, aspect=(0.45, 1.6)))
    if not 2 <= len(group) <= 10:
        return None
    points = centroids[group].astype(np.float64)
    normal = _normalised(points)
    if normal is None:
        return None
    q, one_column = normal
    fitted = _fitted(q, one_column)
    if fitted is None:
        return None
    count, layout = fitted
    span = points.max(0) - points.min(0)
    height = float(np.median(stats[group, cv2.CC_STAT_HEIGHT]))
    width = float(np.median(stats[group, cv2.CC_STAT_WIDTH]))
    if span[1] < MIN_SPAN * card.shape[0] or height > 1.1 * span[1] / ROWS[count]:
        return None  # pips too close together for that many rows: part of a layout, or no layout
    if count >= 4 and not TALL[0] <= span[1] / span[0] <= TALL[1]:
        return None
    low = points.min(0)
    whole = _ink_mask(card)  # the whole card: a pip cut by the middle's edge still shows
    for x, y in _empty_places(layout):
        cx = points[:, 0].mean() if one_column else low[0] + x * span[0]
        cy = low[1] + y * span[1]
        x0, y0 = int(round(cx - width / 4)) + origin[1], int(round(cy - height / 4)) + origin[0]  # a pip's middle
        window = whole[max(0, y0):max(0, y0 + int(height / 2)), max(0, x0):max(0, x0 + int(width / 2))]
        if window.size and window.mean() > EMPTY:
            return None  # a pip where this rank has none: a pip of the layout was missed
    if _pips_beside(whole, stats[group], points + origin[::-1]):
        return None  # more pips beside these (the block of a card's pips outlined alone, a card read sideways)
    masks, turned = [], []
    for i, (cx, cy) in zip(group, points):
        x, y, w, h, _ = stats[i]
        masks.append((labels[y:y + h, x:x + w] == i).astype(np.uint8))
        where = (cy - low[1]) / span[1]
        turned.append(None if abs(where - 0.5) < 0.1 else bool(where > 0.5))
    turned = _ways_up(masks, turned)
    if turned is None:
        return None
    ink = np.array(cv2.mean(region, mask=np.isin(labels, group).astype(np.uint8))[:3])
    paper = np.array(cv2.mean(region, mask=1 - mask)[:3]) + 1
    b, g, r = ink / paper * 200
    red = bool(r - max(g, b) >= PIPS_RED)
    votes = []
    for m, t in zip(masks, turned):
        m = m[::-1, ::-1] if t else m
        probs, _ = _class_probs(glyphs.suit_feature(m), glyphs.suit_references(), SUIT_SHARPNESS)
        probs = probs * _notch_probs(m) * _colour_mask(red) + 1e-4
        votes.append(probs / probs.sum())
    return PipRead(count, np.mean(votes, axis=0), red)


def pip_candidates(card: np.ndarray) -> list[tuple[str, float]]:
    """(label, confidence) best first for a card read by its pips alone, or [] when they fit no layout."""
    read = read_pips(card)
    return [] if read is None else pip_candidates_of(read)


def pip_candidates_of(read: PipRead) -> list[tuple[str, float]]:
    rank = str(read.count)
    order = np.argsort(read.suit_probs)[::-1]
    return [(rank + glyphs.SUITS[k], RANK_SURE * float(read.suit_probs[k])) for k in order[:2]]


def checked(cands: list[tuple[str, float]], card: np.ndarray | OutlinedCard, reads: list) -> list[tuple[str, float]]:
    """The index reader's candidates for a card, completed by its pips where they gave no answer
    and no corner read puts another rank first (a corner that read a 5 where the pips fit a 4's
    layout leaves the card unknown)."""
    if cands and cands[0][1] >= ACCEPT:
        return cands
    read = read_pips(card_image(card))
    if read is None:
        return cands
    for r in reads:
        top = int(np.argmax(r.rank_probs))
        if glyphs.RANKS[top] != str(read.count) and r.rank_probs[top] >= CONTRARY:
            return cands
    return pip_candidates_of(read) + cands
