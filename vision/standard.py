"""Identify a standard-deck card from the corner index of its rectified image.

The index (rank above suit) sits in the top-left corner of a portrait card and, rotated,
in the bottom-right one; both are read (the card may be upside down, a thumb may cover one).
Ink is separated from paper inside the corner, the rank is the component group nearest the
corner, the suit the component below it; each is compared against rendered references
(vision.glyphs). Red or black is measured, not guessed from the shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import glyphs

CORNER_W, CORNER_H = 0.26, 0.36  # share of card width/height searched for the index
SHARPNESS = 40.0  # softmax temperature applied to cosine similarities
MIN_SIMILARITY = 0.55


@dataclass
class CornerRead:
    rank_probs: np.ndarray  # over glyphs.RANKS
    suit_probs: np.ndarray  # over glyphs.SUITS, already restricted by colour
    rank_similarity: float
    red: bool


def _class_probs(feature: np.ndarray, refs: tuple[np.ndarray, np.ndarray], n: int) -> tuple[np.ndarray, float]:
    feats, classes = refs
    sims = feats @ feature
    best = np.full(n, -1.0, np.float32)
    np.maximum.at(best, classes, sims)
    e = np.exp((best - best.max()) * SHARPNESS)
    return e / e.sum(), float(best.max())


def _ink_mask(corner: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Binary ink mask of the corner, and the redness map; None if the corner is blank."""
    gray = cv2.cvtColor(corner, cv2.COLOR_BGR2GRAY)
    b, g, r = cv2.split(corner.astype(np.int16))
    redness = r - np.maximum(g, b)
    # red ink is light in gray; use a darkness that also counts strong red as ink
    darkness = np.clip(255 - gray.astype(np.int16) + np.clip(redness, 0, None), 0, 255).astype(np.uint8)
    lo, hi = np.percentile(darkness, [10, 99.5])
    if hi - lo < 40:
        return None
    t, _ = cv2.threshold(darkness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = max(t, lo + 0.35 * (hi - lo))
    return (darkness > t).astype(np.uint8), redness


def _index_components(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, int] | None:
    """(rank mask, suit mask, number of rank components) from the ink of a corner, or None."""
    h, w = mask.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    comps = []
    for i in range(1, n):
        x, y, cw, ch, area = stats[i]
        if area < 12 or ch < 0.08 * h or ch > 0.5 * h or cw > 0.8 * w:
            continue
        if x == 0 and cw < 0.1 * w or y == 0 and ch < 0.1 * h:  # sliver of the card's own edge
            continue
        comps.append((i, x, y, cw, ch))
    if len(comps) < 2:
        return None
    # the rank: the component whose top-left lies nearest the corner, plus same-line neighbours ("10")
    first = min(comps, key=lambda c: c[2] + 0.6 * c[1])
    _, fx, fy, fw, fh = first
    group = [first]
    for c in comps:
        if c is first:
            continue
        _, x, y, cw, ch = c
        overlap = min(fy + fh, y + ch) - max(fy, y)
        gap = max(x - (fx + fw), fx - (x + cw))
        if overlap > 0.6 * min(fh, ch) and 0.6 < ch / fh < 1.6 and gap < 0.5 * fh:
            group.append(c)
    rx0 = min(c[1] for c in group)
    rx1 = max(c[1] + c[3] for c in group)
    ry1 = max(c[2] + c[4] for c in group)
    below = [c for c in comps if c not in group and c[2] >= ry1 - 0.15 * fh
             and min(rx1, c[1] + c[3]) - max(rx0, c[1]) > 0.3 * min(rx1 - rx0, c[3])
             and c[2] - ry1 < 1.2 * fh]
    if not below:
        return None
    suit = min(below, key=lambda c: c[2])
    rank_mask = np.isin(labels, [c[0] for c in group]).astype(np.uint8)
    return rank_mask, (labels == suit[0]).astype(np.uint8), len(group)


def read_corner(card: np.ndarray) -> CornerRead | None:
    """Read the index in the top-left corner of a rectified portrait card (BGR)."""
    h, w = card.shape[:2]
    corner = card[: int(h * CORNER_H), : int(w * CORNER_W)]
    ink = _ink_mask(corner)
    if ink is None:
        return None
    mask, redness = ink
    parts = _index_components(mask)
    if parts is None:
        return None
    rank_mask, suit_mask, n_parts = parts
    rank_probs, rank_sim = _class_probs(glyphs.glyph_feature(rank_mask), glyphs.rank_references(), len(glyphs.RANKS))
    # "10" is the only rank printed as two glyphs side by side
    ten = glyphs.RANKS.index("10")
    prior = np.full(len(glyphs.RANKS), 0.15 if n_parts == 2 else 1.0)
    prior[ten] = 1.0 if n_parts == 2 else 0.5
    rank_probs = rank_probs * prior / (rank_probs * prior).sum()
    suit_probs, _ = _class_probs(glyphs.glyph_feature(suit_mask), glyphs.suit_references(), len(glyphs.SUITS))
    ink_pixels = (rank_mask | suit_mask).astype(bool)
    paper = redness[mask == 0]
    red = float(np.median(redness[ink_pixels])) - float(np.median(paper)) > 25
    colour = np.array([0.0, 1.0, 1.0, 0.0]) if red else np.array([1.0, 0.0, 0.0, 1.0])
    suit_probs = suit_probs * colour + 1e-4
    suit_probs /= suit_probs.sum()
    if rank_sim < MIN_SIMILARITY:
        rank_probs = rank_probs * 0.5
    return CornerRead(rank_probs, suit_probs, rank_sim, red)


def card_candidates(card: np.ndarray) -> list[tuple[str, float]]:
    """(label, probability) best first for a rectified card, read at both index corners.

    Empty when no index could be read at either corner. Probabilities of the two corners are
    averaged, so corners that disagree leave no label confident.
    """
    reads = [r for r in (read_corner(card), read_corner(cv2.rotate(card, cv2.ROTATE_180))) if r is not None]
    if not reads:
        return []
    rank = np.mean([r.rank_probs for r in reads], axis=0)
    suit = np.mean([r.suit_probs for r in reads], axis=0)
    if len(reads) == 1:  # one corner only: be less sure
        rank, suit = rank * 0.85, suit * 0.95
    joint = np.outer(rank, suit)
    order = np.argsort(joint.ravel())[::-1][:5]
    out = []
    for k in order:
        ri, si = divmod(int(k), len(glyphs.SUITS))
        out.append((glyphs.RANKS[ri] + glyphs.SUITS[si], float(joint.ravel()[k])))
    return out
