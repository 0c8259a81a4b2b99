"""Identify a standard-deck card from the corner index of its rectified image.

The index (rank above suit) sits in the top-left corner of a portrait card and, rotated,
in the bottom-right one; both are read (the card may be upside down, a thumb may cover one).
Ink is separated from paper inside the corner, the rank is the component group nearest the
corner, the suit the component below it; each is compared against rendered references
(vision.glyphs). Red or black is measured, not guessed from the shape; the suit's outline
notches and, on number cards, the big pips add to its shape. Letters stacked in a column at
both corners read as a joker.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import glyphs

CORNER_W, CORNER_H = 0.26, 0.36  # share of card width/height searched for the index
RANK_SHARPNESS = 40.0  # softmax temperatures applied to cosine similarities;
SUIT_SHARPNESS = 120.0  # suit symbols are all compact blobs, so their similarities lie closer
MIN_SIMILARITY = 0.55
SINGLE_CORNER = 0.6  # weight of a card read at one corner only (measured: far less reliable)
AGREE_FIRM = 0.95  # a corner this sure of its rank is confirmed by the other corner's agreeing
AGREE_FLOOR = 0.2  # top choice, if that gives it at least this much
JOKER_CONFIDENCE = 0.9  # both corners show a vertical word
INK_BIASES = (0.0, 0.15, -0.12)  # ink thresholds tried, as shares of the corner's contrast


@dataclass
class CornerRead:
    rank_probs: np.ndarray  # over glyphs.RANKS
    suit_probs: np.ndarray  # over glyphs.SUITS, already restricted by colour
    red: bool
    joker: bool = False


def _colour_mask(red: bool) -> np.ndarray:
    """Which of glyphs.SUITS (S H D C) a red or a black symbol can be."""
    return np.array([0.0, 1.0, 1.0, 0.0]) if red else np.array([1.0, 0.0, 0.0, 1.0])


def _class_probs(feature: np.ndarray, refs: tuple[np.ndarray, np.ndarray],
                 sharpness: float = RANK_SHARPNESS) -> tuple[np.ndarray, float]:
    """Softmax over classes of each class's best reference similarity; and that best similarity."""
    feats, starts = refs
    sims = feats @ feature.astype(np.float32)
    best = np.maximum.reduceat(sims, starts)
    e = np.exp((best - best.max()) * sharpness)
    return e / e.sum(), float(best.max())


def _notch_probs(mask: np.ndarray) -> np.ndarray:
    """Suit likelihoods (over glyphs.SUITS) from where the outline bends inwards.

    A club has deep notches on both sides between its lobes, a heart one at the top centre;
    spades and diamonds have neither (a spade only where its stem joins). This survives blur
    that makes the filled shapes look alike.
    """
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    x, y, w, h = cv2.boundingRect(contour)
    side = top = 0.0
    if len(contour) >= 5:
        hull = cv2.convexHull(contour, returnPoints=False)
        try:
            defects = cv2.convexityDefects(contour, hull)
        except cv2.error:  # a self-touching outline
            defects = None
        for _, _, far, depth in ([] if defects is None else defects.reshape(-1, 4)):
            fx, fy = (contour[far][0] - (x, y)) / (w, h)
            d = depth / 256 / max(w, h)
            if 0.2 < fy < 0.65 and abs(fx - 0.5) > 0.08:
                side = max(side, d)
            if fy < 0.35 and abs(fx - 0.5) < 0.2:
                top = max(top, d)
    club = 1 / (1 + np.exp(-(side - 0.08) / 0.02))
    heart = 1 / (1 + np.exp(-(top - 0.06) / 0.015))
    return np.array([1 - club, heart, 1 - heart, club]) + 0.02


def _ink_mask(corner: np.ndarray, bias: float = 0.0) -> tuple[np.ndarray, np.ndarray] | None:
    """Binary ink mask of the corner, and its white-balanced redness map; None if blank.

    `bias` moves the threshold by that share of the contrast: up thins the ink (parts that
    touch come apart), down thickens it (faint strokes join up).
    """
    gray = cv2.cvtColor(corner, cv2.COLOR_BGR2GRAY)
    b, g, r = cv2.split(corner.astype(np.int16))
    # red ink is light in gray; use a darkness that also counts strong red as ink
    darkness = np.clip(255 - gray.astype(np.int16) + np.clip(r - np.maximum(g, b), 0, None), 0, 255).astype(np.uint8)
    # for telling red from black, white-balance on the paper (most of a corner) first:
    # under a tinted light, black ink must not come out red
    paper = np.percentile(corner.reshape(-1, 3), 75, axis=0) + 1.0
    b, g, r = cv2.split(corner * (paper.mean() / paper))
    redness = r - np.maximum(g, b)
    lo, hi = np.percentile(darkness, [10, 99.5])
    if hi - lo < 40:
        return None
    t, _ = cv2.threshold(darkness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = max(t, lo + 0.35 * (hi - lo)) + bias * (hi - lo)
    return (darkness > t).astype(np.uint8), redness


def _index_components(mask: np.ndarray) -> tuple[list[np.ndarray], np.ndarray] | None:
    """(rank glyph masks left to right, suit mask) from the ink of a corner, or None."""
    h, w = mask.shape
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    comps = []
    for i in range(1, n):
        x, y, cw, ch, area = stats[i]
        if area < 12 or ch < 0.08 * h or ch > 0.5 * h or cw > 0.8 * w:
            continue
        if x == 0 and y == 0 or x == 0 and cw < 0.1 * w or y == 0 and ch < 0.1 * h:
            continue  # the table beyond a rounded corner, or a sliver of the card's edge
        comps.append((i, x, y, cw, ch))
    if len(comps) < 2:
        return None
    # the rank: the component whose top-left lies nearest the corner, plus a same-line neighbour ("10")
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
    if len(group) > 2:
        return None
    group.sort(key=lambda c: c[1])
    rx0 = min(c[1] for c in group)
    rx1 = max(c[1] + c[3] for c in group)
    ry1 = max(c[2] + c[4] for c in group)
    below = [c for c in comps if c not in group and c[2] >= ry1 - 0.15 * fh
             and min(rx1, c[1] + c[3]) - max(rx0, c[1]) > 0.3 * min(rx1 - rx0, c[3])
             and c[2] - ry1 < 1.2 * fh]
    if not below:
        return None
    suit = min(below, key=lambda c: c[2])
    return [(labels == c[0]).astype(np.uint8) for c in group], (labels == suit[0]).astype(np.uint8)


def _is_vertical_word(mask: np.ndarray) -> bool:
    """True when the corner holds letters stacked in a column (a joker's "JOKER")."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h = mask.shape[0]
    letters = sorted((s for s in stats[1:] if 0.07 * h < s[3] < 0.2 * h and s[4] >= 12), key=lambda s: s[1])
    if len(letters) < 3:
        return False
    for top in letters[: len(letters) - 2]:
        column = [top]
        for s in letters:
            last = column[-1]
            same_column = min(last[0] + last[2], s[0] + s[2]) - max(last[0], s[0]) > 0.5 * min(last[2], s[2])
            if s[1] > last[1] + 0.6 * last[3] and s[1] - (last[1] + last[3]) < 0.9 * last[3] and same_column \
                    and 0.6 < s[3] / top[3] < 1.5:
                column.append(s)
        if len(column) >= 3:
            return True
    return False


def _rank_probs(parts: list[np.ndarray]) -> tuple[np.ndarray, float]:
    """Probabilities over glyphs.RANKS, and the best reference similarity."""
    refs = glyphs.rank_references()
    ten = glyphs.RANKS.index("10")
    if len(parts) == 2:  # only "10" is printed as two glyphs side by side
        left, sim_l = _class_probs(glyphs.glyph_feature(parts[0]), refs)
        right, sim_r = _class_probs(glyphs.glyph_feature(parts[1]), refs)
        # each part is judged against the best glyph it resembles: a narrow card "0" looks
        # much like a Q or an 8 on its own, but next to a "1" nothing else makes a rank
        p = np.full(len(glyphs.RANKS), 0.0)
        p[ten] = np.sqrt(left[glyphs.GLYPHS.index("1")] / left.max() * right[glyphs.GLYPHS.index("0")] / right.max())
        return p, min(sim_l, sim_r)
    probs, sim = _class_probs(glyphs.glyph_feature(parts[0]), refs)
    return probs[: len(glyphs.RANKS)], sim


def read_corner(card: np.ndarray) -> CornerRead | None:
    """Read the index in the top-left corner of a rectified portrait card (BGR).

    The ink is cut at the automatic threshold first; only when no index shows up there, a
    little above it (touching parts come apart) and below it (faint strokes join up).
    Choosing the best-matching cut instead was measured to let in more wrong reads.
    """
    h, w = card.shape[:2]
    corner = card[: int(h * CORNER_H), : int(w * CORNER_W)]
    for bias in INK_BIASES:
        read = _read_index(corner, bias)
        if read is not None:
            return read
    return None


def _read_index(corner: np.ndarray, bias: float) -> CornerRead | None:
    ink = _ink_mask(corner, bias)
    if ink is None:
        return None
    mask, redness = ink
    if _is_vertical_word(mask):
        return CornerRead(np.zeros(len(glyphs.RANKS)), np.zeros(len(glyphs.SUITS)), False, joker=True)
    parts = _index_components(mask)
    if parts is None:
        return None
    rank_parts, suit_mask = parts
    rank_mask = np.bitwise_or.reduce(rank_parts)
    rank_probs, rank_sim = _rank_probs(rank_parts)
    suit_probs, _ = _class_probs(glyphs.suit_feature(suit_mask), glyphs.suit_references(), SUIT_SHARPNESS)
    ink_pixels = (rank_mask | suit_mask).astype(bool)
    paper = redness[mask == 0]
    red = float(np.median(redness[ink_pixels])) - float(np.median(paper)) > 25
    suit_probs = suit_probs * _notch_probs(suit_mask) * _colour_mask(red) + 1e-4
    suit_probs /= suit_probs.sum()
    if rank_sim < MIN_SIMILARITY:
        rank_probs = rank_probs * 0.5
    return CornerRead(rank_probs, suit_probs, red)


def pip_suit_probs(card: np.ndarray, red: bool) -> np.ndarray | None:
    """Suit evidence from the big pips in the middle of a number card, or None.

    Pips are far larger than the index symbol, so their shape is clearer. Pips in the lower
    half are printed upside down. Used only when at least two pips agree, which face-card
    pictures seldom fake.
    """
    h, w = card.shape[:2]
    y0, x0 = int(h * 0.05), int(w * 0.1)
    region = card[y0:h - y0, x0:w - x0]
    ink = _ink_mask(region)
    if ink is None:
        return None
    mask = ink[0]
    rh, rw = mask.shape
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    votes = []
    for i in range(1, n):
        x, y, cw, ch, area = stats[i]
        if not 0.003 * h * w <= area <= 0.06 * h * w or not 0.55 <= cw / ch <= 1.5:
            continue
        if x == 0 or y == 0 or x + cw >= rw or y + ch >= rh:
            continue
        cx, cy = x0 + x + cw / 2, y0 + y + ch / 2
        if min(cx, w - cx) < CORNER_W * w * 0.7 and min(cy, h - cy) < CORNER_H * h:
            continue  # the index itself
        pip = (labels[y:y + ch, x:x + cw] == i).astype(np.uint8)
        if centroids[i][1] > rh * 0.55:
            pip = pip[::-1, ::-1]
        probs, _ = _class_probs(glyphs.suit_feature(pip), glyphs.suit_references(), SUIT_SHARPNESS)
        probs = probs * _notch_probs(pip) * _colour_mask(red) + 1e-4
        votes.append(probs / probs.sum())
    if len(votes) < 2:
        return None
    tops = [int(np.argmax(v)) for v in votes]
    best = max(set(tops), key=tops.count)
    if tops.count(best) < max(2, 0.7 * len(tops)):
        return None
    return np.mean(votes, axis=0)


def card_candidates(card: np.ndarray) -> list[tuple[str, float]]:
    """(label, confidence) best first for a rectified card, read at both index corners.

    Empty when no index could be read at either corner. The two corners are independent
    evidence: a label is only as likely as the geometric mean of its two reads, so corners that
    disagree leave nothing confident, and a single readable corner (the other hidden or
    blank) is discounted by SINGLE_CORNER, which keeps it below the acceptance level. A corner
    sure of its rank (AGREE_FIRM) whose rank the other corner also puts first (with at least
    AGREE_FLOOR) is confirmed: the geometric mean is renormalised, up to the surer corner's
    own probability.
    """
    reads = [r for r in (read_corner(card), read_corner(cv2.rotate(card, cv2.ROTATE_180))) if r is not None]
    if not reads:
        return []
    if all(r.joker for r in reads):  # a vertical word at every readable corner
        return [("JOKER", JOKER_CONFIDENCE * (1 if len(reads) == 2 else SINGLE_CORNER))]
    reads = [r for r in reads if not r.joker]  # a word at one corner only: take it as unreadable
    if len(reads) == 2:
        rank = np.sqrt(reads[0].rank_probs * reads[1].rank_probs)
        suit = np.sqrt(reads[0].suit_probs * reads[1].suit_probs)
        tops = [r.rank_probs.max() for r in reads]
        if np.argmax(reads[0].rank_probs) == np.argmax(reads[1].rank_probs) \
                and min(tops) >= AGREE_FLOOR and max(tops) >= AGREE_FIRM:
            # one corner is sure and the other puts the same rank first: that agreement is
            # evidence the geometric mean undersells, so renormalise it, but never above what
            # the firmer corner says (weaker agreements were measured to let in mistakes:
            # a design's 10 or J can look like a Q at both corners)
            rank = np.maximum(rank, np.minimum(rank / rank.sum(), max(tops)))
    else:
        rank, suit = reads[0].rank_probs * SINGLE_CORNER, reads[0].suit_probs
    if rank.max() >= 0.5 and suit.max() < 0.95:  # the suit decides whether to answer
        pips = pip_suit_probs(card, reads[0].red)
        if pips is not None:
            suit = suit * pips / (suit * pips).sum() * suit.sum()
    joint = np.outer(rank, suit).ravel()
    order = np.argsort(joint)[::-1][:5]
    out = []
    for k in order:
        ri, si = divmod(int(k), len(glyphs.SUITS))
        out.append((glyphs.RANKS[ri] + glyphs.SUITS[si], float(joint[k])))
    return out
