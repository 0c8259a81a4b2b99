"""Identify a standard-deck card from the corner index of its rectified image.

The index (rank above suit) sits in the top-left corner of a portrait card and, rotated,
in the bottom-right one; both are read by the index network (vision.index_net), since the card
may be upside down and a thumb may cover one. The two corners are independent evidence and
must agree. On number cards whose suit is still in doubt, the big pips in the middle are read
too (they are far larger than the index symbol), against suits drawn in code (vision.glyphs).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import glyphs, index_net
from .detect import connected_components, percentiles_u8
from .rectify import CARD_H, CARD_W, OutlinedCard, card_image
from .types import ACCEPT

CORNER_W, CORNER_H = 0.26, 0.36  # share of card width/height where the index lies
SUIT_SHARPNESS = 120.0  # softmax temperature on the pips' cosine similarities to drawn suits
SINGLE_CORNER = 0.9  # weight of a card read at one corner only (the other covered or cut off)
AGREE_FIRM = 0.95  # a corner this sure of its rank is confirmed by the other corner's agreeing
AGREE_FLOOR = 0.2  # top choice, if that gives it at least this much
JOKER_CONFIDENCE = 0.9  # both corners show a joker's stacked letters
SIX, NINE = glyphs.RANKS.index("6"), glyphs.RANKS.index("9")
TURNABLE = {SIX: NINE, NINE: SIX}  # ranks that read as each other upside down
PIPS = {SIX: 6, NINE: 9}
TURNED_DOUBT = 0.5  # a 6 or 9 whose orientation evidence disagrees is held at most this sure
PIPS_CHECK_BELOW = 0.99  # an index less sure of its suit than this is checked against the pips (at 0.95,
# a design's big heart read as a diamond at both corners, 0.96, was answered 10D; measured paired,
# the drawn scenes read the same, seated p95 58.6 -> 60.7 ms, the others within noise)
NUMBER_RANKS = {"2", "3", "4", "5", "6", "7", "8", "9", "10"}  # cards with big pips in the middle
PIPS_RED = 50  # red minus the larger of green and blue in the pips, white-balanced (red designs 81-140,
# black ones 0-16 on mixed-designs' tuning part)
CLOSE_UP_SCALES = (0.75, 1.4, 1.8)  # corners read again, this much narrower or wider, in an unread close-up
CLOSE_UP_ACCEPT = 0.85  # ... answered from such a scale only this sure: a second guess at where the index
# lies (chosen on mixed-designs' tuning part: the ten close-ups it answered were 0.89-1.0 sure when
# right, and the one wrong, a club read as a spade at both corners, 0.83)
MIRROR_GAP = 0.08  # a gap in the ink this share of the corner's width parts an index from what lies left of it
MIRROR_LINE = 0.03  # ink down a column of the corner at most this share of its height is a line across it
MIRROR_LEAD = 0.07  # paper framed left of an index read at the top-right corner (as the reader was taught)
NO_INDEX, JOKER = index_net.CLASSES.index("NONE"), index_net.CLASSES.index("JOKER")


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
                 sharpness: float = SUIT_SHARPNESS) -> tuple[np.ndarray, float]:
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


def _middle_ink(card: np.ndarray) -> tuple[tuple[int, int], np.ndarray, np.ndarray] | None:
    """The middle of a rectified card, where the big pips lie (its top-left corner in the card,
    the region, and its ink mask), or None when it is blank."""
    h, w = card.shape[:2]
    y0, x0 = int(h * 0.05), int(w * 0.1)
    region = card[y0:h - y0, x0:w - x0]
    mask = _ink_mask(region)
    return None if mask is None else ((y0, x0), region, mask)


def _pip_marks(card_shape: tuple[int, ...], origin: tuple[int, int], mask: np.ndarray, stats: np.ndarray,
               aspect: tuple[float, float] = (0.55, 1.5)) -> np.ndarray:
    """Which connected components (`stats` of the middle's ink `mask`, whose top-left corner lies
    at `origin` in the card) may be big pips: a pip's size, width over height within `aspect`, not
    cut by the middle's edge, and not where the index lies."""
    h, w = card_shape[:2]
    y0, x0 = origin
    rh, rw = mask.shape
    x, y, cw, ch, area = (stats[:, k].astype(np.float64) for k in range(5))
    cx, cy = x0 + x + cw / 2, y0 + y + ch / 2
    index = (np.minimum(cx, w - cx) < CORNER_W * w * 0.7) & (np.minimum(cy, h - cy) < CORNER_H * h)
    keep = (0.003 * h * w <= area) & (area <= 0.06 * h * w) & (aspect[0] * ch <= cw) & (cw <= aspect[1] * ch) \
        & (x > 0) & (y > 0) & (x + cw < rw) & (y + ch < rh) & ~index
    keep[0] = False  # the background
    return keep


def _ink_mask(region: np.ndarray) -> np.ndarray | None:
    """Binary ink mask of a region of a card; None if blank."""
    gray = cv2.cvtColor(region, cv2.COLOR_BGR2GRAY)
    b, g, r = cv2.split(region)
    # red ink is light in gray; use a darkness that also counts strong red as ink (saturating
    # uint8 arithmetic: 255 - gray + max(0, r - max(g, b)), at most 255)
    darkness = cv2.add(cv2.bitwise_not(gray), cv2.subtract(r, cv2.max(g, b)))
    lo, hi = percentiles_u8(darkness, [10, 99.5])
    if hi - lo < 40:
        return None
    t, _ = cv2.threshold(darkness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = max(t, lo + 0.35 * (hi - lo))
    return (darkness > t).astype(np.uint8)


def corner_reads(card: np.ndarray) -> list[CornerRead]:
    """Both index corners of a rectified portrait card (the top-left one, and the bottom-right one
    turned round) read by the index network; a corner where it sees no index is left out."""
    return corner_reads_many([card])[0]


def _corner_patches(card: np.ndarray | OutlinedCard, scale: float = 1.0) -> list[np.ndarray]:
    """The two index corners of a rectified card (or of an outline, warped there alone) at the
    index reader's input size; `scale` (rectified cards only) as in `index_net.index_patch`."""
    if isinstance(card, OutlinedCard):
        return [cv2.resize(c, index_net.INPUT_SIZE, interpolation=cv2.INTER_AREA)
                for c in card.corners(index_net.INDEX_BOX)]
    return [index_net.index_patch(card, scale), index_net.index_patch(cv2.rotate(card, cv2.ROTATE_180), scale)]


def corner_reads_many(cards: list[np.ndarray | OutlinedCard], scale: float = 1.0) -> list[list[CornerRead]]:
    """corner_reads of several cards, their corners read by the network in one batch."""
    patches = []
    for card in cards:
        patches += _corner_patches(card, scale)
    return _reads_of(patches, len(cards))


def _reads_of(patches: list[np.ndarray], count: int) -> list[list[CornerRead]]:
    """Each card's CornerReads from its two corner patches (patches 2i and 2i + 1), read in one batch."""
    classes, suits = index_net.read_patches(patches)
    # A card readable at one corner only has no second corner to check its read against: that
    # corner is read by the search reader too (taught indices of the usual size only, see
    # vision.index_net) and the two reads combined (geometric mean). Measured on the tuning
    # photos: busy-train 3 wrong answers → 2 (a trading card's picture read as a joker at one
    # corner is no longer answered), none right lost; mixed-designs 1 right more.
    seen = classes[:, NO_INDEX] < 0.5
    lone = [k for i in range(count) for k in (2 * i, 2 * i + 1) if seen[k] and not seen[k ^ 1]]
    if lone:
        strict_classes, strict_suits = index_net.read_patches([patches[k] for k in lone], search=True)
        classes, suits = classes.copy(), suits.copy()
        for k, cp, sp in zip(lone, strict_classes, strict_suits):
            c, s = np.sqrt(classes[k] * cp), np.sqrt(suits[k] * sp)
            classes[k], suits[k] = c / c.sum(), s / s.sum()
    out = []
    for i in range(count):
        reads = []
        for cp, sp in zip(classes[2 * i:2 * i + 2], suits[2 * i:2 * i + 2]):
            if cp[NO_INDEX] >= 0.5:
                continue
            red = float(sp[1] + sp[2]) > 0.5  # hearts, diamonds
            reads.append(CornerRead(cp[: len(glyphs.RANKS)], sp, red, joker=bool(cp[JOKER] >= 0.5)))
        out.append(reads)
    return out


def pip_suit_probs(card: np.ndarray, red: bool) -> np.ndarray | None:
    """Suit evidence from the big pips in the middle of a number card, or None.

    Pips are far larger than the index symbol, so their shape is clearer. Pips in the lower
    half are printed upside down. Used only when at least two pips agree, which face-card
    pictures seldom fake.
    """
    middle = _middle_ink(card)
    if middle is None:
        return None
    origin, _, mask = middle
    rh = mask.shape[0]
    _, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    votes = []
    for i in np.flatnonzero(_pip_marks(card.shape, origin, mask, stats)):
        x, y, cw, ch, _ = stats[i]
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


def pip_count(card: np.ndarray) -> int | None:
    """How many big pips of like size lie in the middle of a rectified card (outside its index
    corners), or None when the middle holds no such marks (a face card, a blank)."""
    middle = _middle_ink(card)
    if middle is None:
        return None
    origin, _, mask = middle
    _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    areas = stats[_pip_marks(card.shape, origin, mask, stats, aspect=(0.45, 1.6)), cv2.CC_STAT_AREA].tolist()
    if len(areas) < 2:
        return None
    median = float(np.median(areas))
    return sum(1 for a in areas if 0.5 * median <= a <= 2 * median)


def turned_check(rank: np.ndarray, card: np.ndarray | OutlinedCard, reads: list[CornerRead]) -> np.ndarray:
    """A 6 is a 9 turned round: a card read as either is answered only when its orientation
    evidence agrees — the pips counted in its middle, or both index corners (each read in the
    card's own orientation, opposite each other) putting the same rank first. Otherwise, and
    whenever the pips count the other rank, the rank is held below ACCEPT (unknown)."""
    top = int(np.argmax(rank))
    if top not in TURNABLE:
        return rank
    other = TURNABLE[top]
    count = pip_count(card_image(card))
    corners_agree = len(reads) == 2 and all(int(np.argmax(r.rank_probs)) == top for r in reads)
    if count == PIPS[top]:
        return rank
    if count == PIPS[other] or not corners_agree:
        rank = rank.copy()
        rank[top] = min(rank[top], TURNED_DOUBT)
    return rank


def card_candidates(card: np.ndarray | OutlinedCard, both_corners: bool = False,
                    reads: list[CornerRead] | None = None) -> list[tuple[str, float]]:
    """(label, confidence) best first for a rectified card, read at both index corners.

    Empty when no index could be read at either corner. The two corners are independent
    evidence: a label is only as likely as the geometric mean of its two reads, so corners that
    disagree leave nothing confident, and a single readable corner (the other hidden or
    blank) is discounted by SINGLE_CORNER, so it is answered only when the reader is sure. A corner
    sure of its rank (AGREE_FIRM) whose rank the other corner also puts first (with at least
    AGREE_FLOOR) is confirmed: the geometric mean is renormalised, up to the surer corner's
    own probability. With `both_corners`, a card is read only when both its corners are
    (an outline of unusual shape may be a panel of a card's face, not a card).
    """
    if reads is None:
        reads = corner_reads(card)
    if not reads or (both_corners and len(reads) < 2):
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
    rank = turned_check(rank, card, reads)
    if rank.max() >= 0.5 and suit.max() < PIPS_CHECK_BELOW:  # the suit decides whether to answer
        # the ink's colour as the corners read it together (one corner may see an outlined heart as black)
        red = float(suit @ _colour_mask(True)) > float(suit @ _colour_mask(False))
        pips = pip_suit_probs(card_image(card), red)
        if pips is not None:
            suit = _pips_weighed(suit, pips, reads)
    if glyphs.RANKS[int(np.argmax(rank))] in NUMBER_RANKS and _colour_mask(False)[int(np.argmax(suit))] \
            and pips_red(card):
        suit = suit * _colour_mask(True)  # red pips: a black suit read at the corners is no answer
    return labelled(rank, suit)


def pips_red(card: np.ndarray | OutlinedCard) -> bool:
    """True when the big pips in the middle of a rectified card (at least two marks of a pip's
    size and shape outside the index corners) are clearly red ink, white-balanced on the card's
    paper. Black or outlined pips, or none, give False: only red is told apart this way. Looked at
    on a copy of half the card's size (pips are large; a quarter of the work)."""
    half = (CARD_W // 2, CARD_H // 2)
    card = card.at(half) if isinstance(card, OutlinedCard) else cv2.resize(card, half, interpolation=cv2.INTER_AREA)
    middle = _middle_ink(card)
    if middle is None:
        return False
    origin, region, mask = middle
    _, labels, stats, _ = connected_components(mask)
    keep = _pip_marks(card.shape, origin, mask, stats)
    if keep.sum() < 2:
        return False
    ink = np.array(cv2.mean(region, mask=np.take(keep.astype(np.uint8), labels))[:3])
    paper = np.array(cv2.mean(region, mask=1 - mask)[:3]) + 1
    b, g, r = ink / paper * 200  # white-balanced on the paper
    return r - max(g, b) >= PIPS_RED


def _pips_weighed(suit: np.ndarray, pips: np.ndarray, reads: list[CornerRead]) -> np.ndarray:
    """The corners' suit weighed by the pips'. Where the corners disagree, pips sure of a suit
    (AGREE_FIRM) that a corner is sure of too confirm it, as an agreeing corner confirms a rank:
    renormalised, but never above that corner's own probability (a small heart blurred into a
    diamond at one corner, its big pips all hearts). Not when the other corner is as sure of
    another suit: two sure corners that disagree may be two cards in one outline (a tight fan)."""
    weighed = suit * pips / (suit * pips).sum() * suit.sum()
    top = int(np.argmax(pips))
    firm = [float(r.suit_probs[top]) for r in reads if int(np.argmax(r.suit_probs)) == top]
    contrary = [r for r in reads if int(np.argmax(r.suit_probs)) != top and r.suit_probs.max() >= AGREE_FIRM]
    if len(reads) == 2 and pips[top] >= AGREE_FIRM and firm and max(firm) >= AGREE_FIRM and not contrary:
        weighed = np.maximum(weighed, np.minimum(weighed / weighed.sum(), max(firm)))
    return weighed


def close_up_candidates(card: np.ndarray) -> list[tuple[str, float]]:
    """Candidates for a photo that is one card filling the frame and was not read with the index
    where it usually lies: a close-up or crop leaves the index's size open (a jumbo index, a crop
    inside the card's margin, or a margin wider than usual), so the corners are read again at
    each of CLOSE_UP_SCALES, and a scale counts only where both corners are read, in the card's
    own orientation, as one rank (`card_candidates` with both corners). Scales that answer two
    different cards (each at least ACCEPT) answer nothing; one card is answered at CLOSE_UP_ACCEPT."""
    found = []
    for reads in (corner_reads_many([card], scale)[0] for scale in CLOSE_UP_SCALES):
        if len(reads) == 2 and int(np.argmax(reads[0].rank_probs)) == int(np.argmax(reads[1].rank_probs)):
            found.append(card_candidates(card, True, reads))
    return agreed_scales(found) or mirrored_candidates(card)


def _mirrored_patch(card: np.ndarray) -> np.ndarray | None:
    """The top-right corner of a rectified card framed as the index reader frames a top-left one:
    from just left of the ink nearest the card's right edge (the index's left side: the last gap
    in the ink going leftward), the card's paper carried on past its right edge. None when the corner holds no such ink."""
    w, h = (round(v * s / base) for v, s, base in zip(index_net.INDEX_BOX, card.shape[1::-1], (CARD_W, CARD_H)))
    corner = card[:h, card.shape[1] - w:]
    mask = _ink_mask(corner)
    if mask is None:
        return None
    inked = np.flatnonzero(mask.sum(axis=0) > MIRROR_LINE * h)  # a line along the card's top edge is no index
    runs = np.split(inked, np.flatnonzero(np.diff(inked) > MIRROR_GAP * w) + 1) if len(inked) else []
    runs = [r for r in runs if len(r) > MIRROR_GAP * w]  # a line down the corner (the card's edge, a
    # frame round its picture) is no index, and read alone it looks like a joker's stacked letters
    if not runs:
        return None
    x0 = max(0, int(runs[-1][0]) - round(MIRROR_LEAD * w))
    paper = [int(v) for v in cv2.mean(corner, mask=1 - mask)[:3]]
    patch = cv2.copyMakeBorder(corner[:, x0:], 0, 0, 0, x0, cv2.BORDER_CONSTANT, value=paper)
    return cv2.resize(patch, index_net.INPUT_SIZE, interpolation=cv2.INTER_AREA)


def mirrored_candidates(card: np.ndarray) -> list[tuple[str, float]]:
    """Candidates for a close-up whose indices are printed top right and, turned round, bottom
    left (some designs mirror the usual corners): both such corners must be read as one rank."""
    patches = [_mirrored_patch(c) for c in (card, cv2.rotate(card, cv2.ROTATE_180))]
    if any(p is None for p in patches):
        return []
    reads = _reads_of(patches, 1)[0]
    if len(reads) < 2 or int(np.argmax(reads[0].rank_probs)) != int(np.argmax(reads[1].rank_probs)):
        return []
    return agreed_scales([card_candidates(card, True, reads)])


def agreed_scales(found: list[list[tuple[str, float]]]) -> list[tuple[str, float]]:
    """Of the candidates read at several scales, the surest scale's, when every scale sure of a card
    (ACCEPT) names the same one and the surest is at least CLOSE_UP_ACCEPT; else none."""
    sure = [cands for cands in found if cands and cands[0][1] >= ACCEPT]
    if not sure or len({cands[0][0] for cands in sure}) > 1:
        return []
    best = max(sure, key=lambda cands: cands[0][1])
    return best if best[0][1] >= CLOSE_UP_ACCEPT else []


def labelled(rank_probs: np.ndarray, suit_probs: np.ndarray, count: int = 5) -> list[tuple[str, float]]:
    """The `count` likeliest cards, (label, rank × suit probability) best first."""
    joint = np.outer(rank_probs, suit_probs).ravel()
    order = np.argsort(joint)[::-1][:count]
    return [(glyphs.RANKS[k // len(glyphs.SUITS)] + glyphs.SUITS[k % len(glyphs.SUITS)], float(joint[k]))
            for k in order]
