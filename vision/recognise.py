"""Find, rectify and identify every card in a photo; teach a deck from labelled photos."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from . import glyphs, index_net, standard
from .detect import find_cards, outermost, whiteness
from .errors import UploadError
from .index_search import find_indices, inside, merge_pairs
from .rectify import CARD_H, CARD_W, FORESHORTENED, apparent_aspect, order_portrait, rectify, turned_quarter
from .taught import References
from .types import ACCEPT, CardRead

DECKS = ("standard", "ratatat")
OUTLINE_SLACK = 0.12  # an index this far (as a share of the card's size) outside an outline is its card's
MAX_OUTLINES = 24  # outlines read per photo, the likeliest cards first (a tiled floor makes many)
USUAL_ASPECT = (1.18, 1.8)  # a card's outline seen from above, perspective and rounding included
PAPER_CHECK_SIDE = 320  # px, the copy on which paper outside the cards found is looked for
PAPER_ELSEWHERE = 0.05  # ... and more than this share of a card's area of it means: search for indices


class TeachError(UploadError):
    """The teaching photo does not show the cards the caller named."""


def decide(candidates: list[tuple[str, float]], allowed: Iterable[str] | None) -> tuple[str | None, float]:
    """Pick the label to report: the best candidate inside `allowed` that is confident enough."""
    allowed_set = None if allowed is None else set(allowed)
    for label, conf in candidates:
        if allowed_set is not None and not _allowed(label, allowed_set):
            continue
        return (label, conf) if conf >= ACCEPT else (None, conf)
    return None, 0.0


def _allowed(label: str, allowed: set[str]) -> bool:
    """`allowed` may hold full labels ("QS") or rank-only ones ("Q*")."""
    return label in allowed or (label[:-1] + "*") in allowed


def _identify(card: np.ndarray, deck: str, references: References | None,
              both_corners: bool = False) -> list[tuple[str, float]]:
    return _identify_many([card], deck, references, [both_corners])[0]


def _identify_many(cards: list[np.ndarray], deck: str, references: References | None,
                   both_corners: list[bool]) -> list[list[tuple[str, float]]]:
    """Candidates for each rectified card: taught references first, then (standard deck) the
    index reader, whose network reads every card's corners in one batch."""
    out: list[list[tuple[str, float]]] = [[] for _ in cards]
    if references is not None and len(references):
        out = [references.candidates(card) for card in cards]
    if deck == "standard":
        todo = [i for i, c in enumerate(out) if not c or c[0][1] < ACCEPT]
        corners = standard.corner_reads_many([cards[i] for i in todo])
        for i, reads in zip(todo, corners):
            out[i] = standard.card_candidates(cards[i], both_corners[i], reads) or out[i]
    return out


def _read_outlines(image: np.ndarray, quads: list[np.ndarray], deck: str, references: References | None
                   ) -> list[tuple[np.ndarray, list[tuple[str, float]]]]:
    """Each outline ordered as read, with its card's candidates. Seen from a low angle, a card
    lying along the line of sight looks wider than tall: when an outline's shape leaves it open
    which sides are the long ones and the first reading is not sure, the card is read the
    other way too and the surer reading kept. An outline of a shape a card seen from above
    does not have (a square, a long strip) is read only at both corners: it may be a panel of a
    card's face. At most MAX_OUTLINES are read, the likeliest cards first."""
    quads = [order_portrait(q) for q in quads[:MAX_OUTLINES]]
    aspects = [apparent_aspect(q) for q in quads]
    unusual = [not USUAL_ASPECT[0] <= a <= USUAL_ASPECT[1] for a in aspects]
    cands = _identify_many([rectify(image, q) for q in quads], deck, references, unusual)
    redo = [i for i, c in enumerate(cands) if not (c and c[0][1] >= ACCEPT) and aspects[i] < FORESHORTENED]
    others = [turned_quarter(quads[i]) for i in redo]
    again = _identify_many([rectify(image, q) for q in others], deck, references, [True] * len(redo))
    for i, other, other_cands in zip(redo, others, again):
        if other_cands and (not cands[i] or other_cands[0][1] > cands[i][0][1]):
            quads[i], cands[i] = other, other_cands
    return list(zip(quads, cands))


def _whole_frame(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])


def recognise(image: np.ndarray, deck: str = "standard", references: References | None = None,
              allowed: Iterable[str] | None = None) -> list[CardRead]:
    """Every card found in a BGR image, each with a label or None ("unknown").

    deck "standard" reads the corner index (no teaching needed; taught references, if given,
    are tried first), and also finds cards whose outline is hidden (fanned, overlapping) by
    their index alone (vision.index_search); deck "ratatat" needs `references` (see teach) and otherwise reports
    every card as unknown. `allowed` restricts the answers to labels still possible; a read
    outside it falls to the next candidate inside it, or to unknown.
    A photo that is one card filling the frame (a close-up or a crop) is read as that card;
    it is reported when identified, or as unknown when its edges are card margin and something
    like an index or a taught face was seen.
    """
    if deck not in DECKS:
        raise ValueError(f"unknown deck {deck!r}; expected one of {DECKS}")
    allowed = None if allowed is None else list(allowed)
    reads = []
    for quad, cands in _read_outlines(image, find_cards(image), deck, references):
        if deck == "standard" and not cands:
            continue  # a white rectangle without any index: not shown to be a card
        label, conf = decide(cands, allowed)
        reads.append(CardRead(label, conf, quad, cands))
    reads = nested(reads)
    close_up = None
    # perhaps a close-up, the whole photo one card: nothing found, or only unread outlines in a
    # photo whose edges are card margin (panels of the card's face, such as an index box)
    frame_is_card = not any(r.label for r in reads) and _frame_is_card(image)
    if not reads or frame_is_card:
        quad = order_portrait(_whole_frame(image))
        cands = _identify(rectify(image, quad), deck, references)
        label, conf = decide(cands, allowed)
        if label is not None:
            return [CardRead(label, conf, quad, cands)]  # read at both corners: surer than any index alone
        if frame_is_card and (len(reads) == 1 or (not reads and (cands or deck != "standard"))):
            close_up = CardRead(label, conf, quad, cands)  # as ``teach`` takes a one-card photo
            reads = []
    if deck == "standard":
        reads = _with_index_hits(image, reads, allowed)
    return reads or ([close_up] if close_up else [])


def nested(reads: list[CardRead]) -> list[CardRead]:
    """Of two outlines one inside the other (a card, and a panel of its face or the block of its
    pips), one is the card: the outer one when it was read, else the inner one when that was
    read, else the outer one (unknown)."""
    areas = [cv2.contourArea(np.float32(r.outline)) for r in reads]
    drop = set()
    for i, inner in enumerate(reads):
        for j, outer in enumerate(reads):
            if i == j or areas[j] <= 1.3 * areas[i] or i in drop or j in drop:
                continue
            inter, _ = cv2.intersectConvexConvex(np.float32(inner.outline), np.float32(outer.outline))
            if inter > 0.85 * areas[i]:
                drop.add(j if inner.label and not outer.label else i)
    return [r for k, r in enumerate(reads) if k not in drop]


def warm_up() -> None:
    """Load the index network and draw the suit references now, not under the first photo."""
    index_net.read_patches([np.zeros((index_net.INPUT_SIZE[1], index_net.INPUT_SIZE[0], 3), np.uint8)])
    glyphs.suit_references()


def _with_index_hits(image: np.ndarray, reads: list[CardRead], allowed: list[str] | None) -> list[CardRead]:
    """Add the cards seen only by their index (fanned or overlapping, no outline found).

    An index on a card identified by its outline belongs to that card (whose reader has seen
    both corners); the outline is grown a little for this, as a found outline can fall short
    of the card's edge. Indices inside an outline left unknown replace that unknown read (the
    outline may hold two overlapping cards, or the reader saw one corner only)."""
    grown = [_grow(r.outline, OUTLINE_SLACK) for r in reads if r.label]
    if grown and len(grown) == len(reads) and not _paper_elsewhere(image, grown):
        return reads  # every card found is identified, and no card's paper shows anywhere else
    heights = [max(np.linalg.norm(r.outline[0] - r.outline[3]), np.linalg.norm(r.outline[0] - r.outline[1]))
               for r in reads if r.label]
    found = find_indices(image, float(np.median(heights)) if heights else None, grown)
    hits = merge_pairs([h for h in found if not any(inside(h.centre, g) for g in grown)])
    kept = [r for r in reads if r.label or not any(inside(h.centre, r.outline) for h in hits)]
    for hit in hits:
        label, conf = decide(hit.alternatives, allowed)
        kept.append(CardRead(label, conf, hit.outline(), hit.alternatives))
    return kept


def _paper_elsewhere(image: np.ndarray, outlines: list[np.ndarray]) -> bool:
    """True when white, card-like paper shows outside the given card outlines: a card (or a
    part of one, under another) may lie there. Measured on a small copy: a quick check that
    spares the index search on a table of cards lying apart."""
    h, w = image.shape[:2]
    f = min(1.0, PAPER_CHECK_SIDE / max(h, w))
    small = cv2.resize(image, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_LINEAR)
    paper = (whiteness(small) > 150).astype(np.uint8)
    for quad in outlines:
        cv2.fillPoly(paper, [np.round(quad * f).astype(np.int32)], 0)
    card_area = float(np.median([cv2.contourArea(np.float32(q)) for q in outlines])) * f * f
    return int(paper.sum()) > PAPER_ELSEWHERE * card_area


def _grow(quad: np.ndarray, share: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * (1 + share)


def _frame_is_card(image: np.ndarray) -> bool:
    """True for a flat scan or close-up: the photo's edges are card margin, not table."""
    h, w = image.shape[:2]
    m = max(2, int(min(h, w) * 0.03))
    white = whiteness(image)
    band = np.concatenate([white[:m].ravel(), white[-m:].ravel(), white[:, :m].ravel(), white[:, -m:].ravel()])
    return float(np.mean(band > 150)) > 0.6


def reading_order(quads: list[np.ndarray]) -> list[int]:
    """Indices of the cards (given by their outlines) in reading order: rows top to bottom (cards
    whose centres are within half a card height), each row left to right — how a row of four lies."""
    if not quads:
        return []
    quads = [np.asarray(q, float) for q in quads]
    centres = [q.mean(axis=0) for q in quads]
    height = np.median([np.ptp(q[:, 1]) for q in quads])
    order = sorted(range(len(quads)), key=lambda i: centres[i][1])
    rows: list[list[int]] = []
    for i in order:
        if rows and abs(centres[i][1] - centres[rows[-1][0]][1]) < height / 2:
            rows[-1].append(i)
        else:
            rows.append([i])
    return [i for row in rows for i in sorted(row, key=lambda i: centres[i][0])]


def teach(image: np.ndarray, labels: list[str], references: References | None = None) -> References:
    """References from a photo of cards named by the caller, in reading order.

    Reading order is by rows, top to bottom, and left to right within a row. A photo of a single
    card may also be a flat scan or close-up filling the frame (its edges are then card margin,
    not table). Adds to `references` when given.
    Raises TeachError when the number of cards found differs from the number of labels.
    """
    if not labels:
        raise TeachError("Name at least one card to teach.")
    if len(labels) == 1 and _frame_is_card(image):
        quads = [order_portrait(_whole_frame(image))]
    else:
        found = [order_portrait(q) for q in outermost(find_cards(image))]
        quads = [found[i] for i in reading_order(found)]
    if len(quads) != len(labels):
        raise TeachError(f"Found {len(quads)} card(s) in the photo but {len(labels)} name(s) were given; "
                         "photograph the cards apart from each other on a plain table.")
    out = References() if references is None else References(references.labels, references.features)
    for label, quad in zip(labels, quads):
        card = rectify(image, quad, (CARD_W, CARD_H))
        out.add(label, card)
    return out


def draw_overlay(image: np.ndarray, reads: list[CardRead], quality: int = 85) -> bytes:
    """JPEG of the photo with each card's outline and label drawn over it."""
    canvas = image.copy()
    scale = max(canvas.shape[:2]) / 1000
    for read in reads:
        colour = (60, 200, 60) if read.label else (0, 160, 255)
        pts = np.asarray(read.outline, np.int32)
        cv2.polylines(canvas, [pts], True, colour, max(2, int(3 * scale)), cv2.LINE_AA)
        text = f"{read.label} {read.confidence:.0%}" if read.label else "?"
        x, y = pts[:, 0].min(), max(pts[:, 1].min() - int(8 * scale), int(20 * scale))
        cv2.putText(canvas, text, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale + 0.3,
                    (0, 0, 0), max(3, int(6 * scale)), cv2.LINE_AA)
        cv2.putText(canvas, text, (int(x), int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale + 0.3,
                    colour, max(1, int(2 * scale)), cv2.LINE_AA)
    ok, buf = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()
