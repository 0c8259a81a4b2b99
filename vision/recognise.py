"""Find, rectify and identify every card in a photo; teach a deck from labelled photos."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from . import glyphs, index_finder, index_net, pips, standard
from .detect import find_cards, outermost, whiteness
from .errors import UploadError
from .index_search import _suppress, find_indices, inside, merge_pairs
from .rectify import (CARD_H, CARD_W, FORESHORTENED, OutlinedCard, apparent_aspect, card_image, order_portrait, rectify,
                      turned_quarter)
from .taught import References
from .types import ACCEPT, CardRead

DECKS = ("standard", "ratatat")
OUTLINE_SLACK = 0.12  # an index this far (as a share of the card's size) outside an outline is its card's
MAX_OUTLINES = 24  # outlines read per photo, the likeliest cards first (a tiled floor makes many)
USUAL_ASPECT = (1.18, 1.8)  # a card's outline seen from above, perspective and rounding included
PAPER_CHECK_SIDE = 320  # px, the copy on which paper outside the cards found is looked for
PAPER_ELSEWHERE = 0.05  # ... and more than this share of a card's area of it means: search for indices
PAPER_SLACK = 0.04  # ... outside the outlines grown this much (a found outline can fall short of the card)
PANELS_SHARE = 0.03  # unread outlines covering less of a photo whose edges are card margin: panels of its face
FIND_INDICES_LEARNT = True  # the index finder network's proposals are read too (vision.index_finder)


class TeachError(UploadError):
    """The teaching photo does not show the cards the caller named."""


ACCEPT_CLEAR = 0.3  # a standard card's index read this sure is answered when nothing else comes near:
CLEAR_MARGIN = 8.0  # ... the next label inside `allowed` under 1/CLEAR_MARGIN of it (not a 6 or a 9)


def decide(candidates: list[tuple[str, float]], allowed: Iterable[str] | None,
           clear: bool = False) -> tuple[str | None, float]:
    """Pick the label to report: the best candidate inside `allowed` that is confident enough. When the
    best of all lies outside `allowed` and is confident enough itself, only another suit of its rank
    may be answered instead (a suit misread), never another rank (unknown then). With
    `clear` (the standard deck's index reader), a less sure best candidate is answered too when it
    stands clear of every other (a blurred or small index read as one label, the rest near nothing);
    a 6 or a 9 never is, as its orientation evidence holds it below ACCEPT when it disagrees."""
    allowed_set = None if allowed is None else set(allowed)
    inside = [(label, conf) for label, conf in candidates
              if allowed_set is None or _allowed(label, allowed_set)]
    if not inside:
        return None, 0.0
    if candidates[0][1] >= ACCEPT and inside[0] != candidates[0] and _rank(inside[0][0]) != _rank(candidates[0][0]):
        return None, inside[0][1]  # surely a card the table rules out: unknown, never another rank instead
    label, conf = inside[0]
    if conf >= ACCEPT:
        return label, conf
    runner_up = inside[1][1] if len(inside) > 1 else 0.0
    if clear and conf >= ACCEPT_CLEAR and conf >= CLEAR_MARGIN * runner_up and label[:-1] not in ("6", "9"):
        return label, conf
    return None, conf


def _rank(label: str) -> str:
    """A standard card's rank ("10H" -> "10"); any other label (a joker, a Rat-a-Tat face) is its own."""
    return label[:-1] if len(label) > 1 and label[-1] in "SHDC" else label


def _allowed(label: str, allowed: set[str]) -> bool:
    """`allowed` may hold full labels ("QS") or rank-only ones ("Q*")."""
    return label in allowed or (label[:-1] + "*") in allowed


def _identify(card: np.ndarray, deck: str, references: References | None,
              both_corners: bool = False) -> list[tuple[str, float]]:
    return _identify_many([card], deck, references, [both_corners])[0]


def _identify_many(cards: list[np.ndarray | OutlinedCard], deck: str, references: References | None,
                   both_corners: list[bool]) -> list[list[tuple[str, float]]]:
    """Candidates for each rectified card (or outline, warped where looked at): taught references
    first, then (standard deck) the index reader, whose network reads every card's corners in
    one batch."""
    out: list[list[tuple[str, float]]] = [[] for _ in cards]
    if references is not None and len(references):
        out = [references.candidates(card_image(card)) for card in cards]
    if deck == "standard":
        todo = [i for i, c in enumerate(out) if not c or c[0][1] < ACCEPT]
        corners = standard.corner_reads_many([cards[i] for i in todo])
        for i, reads in zip(todo, corners):
            cands = standard.card_candidates(cards[i], both_corners[i], reads)
            if not both_corners[i]:
                cands = pips.checked(cands, cards[i], reads)
            out[i] = cands or out[i]
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
    cands = _identify_many([OutlinedCard(image, q) for q in quads], deck, references, unusual)
    redo = [i for i, c in enumerate(cands) if not (c and c[0][1] >= ACCEPT) and aspects[i] < FORESHORTENED]
    others = [turned_quarter(quads[i]) for i in redo]
    again = _identify_many([OutlinedCard(image, q) for q in others], deck, references, [True] * len(redo))
    for i, other, other_cands in zip(redo, others, again):
        if other_cands and (not cands[i] or other_cands[0][1] > cands[i][0][1]):
            quads[i], cands[i] = other, other_cands
    # a joker's stacked letters read in a square or a strip: the edges of a big pip or a panel (a
    # drawn ace's spade was read so at both corners), not a card, whose outline has a card's shape
    cands = [[] if odd and deck == "standard" and c and c[0][0] == "JOKER" else c for c, odd in zip(cands, unusual)]
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
    A dark photo where nothing was read is read once more with its lightness turned over: a
    card with a dark face (light ink on black) then reads as an ordinary one (see `_dark_face`).
    """
    if deck not in DECKS:
        raise ValueError(f"unknown deck {deck!r}; expected one of {DECKS}")
    allowed = None if allowed is None else list(allowed)
    reads = _ways_up(image, _recognise(image, deck, references, allowed), deck, references)
    if deck == "standard" and not any(r.label for r in reads) and _is_dark(image):
        turned = _dark_face(_recognise(lightness_turned(image), deck, references, allowed))
        if any(r.label for r in turned):
            return _too_small(turned)
    return _too_small(reads)


def _ways_up(image: np.ndarray, reads: list[CardRead], deck: str, references: References | None) -> list[CardRead]:
    """Which way up each card read by a taught deck lies (``CardRead.turned``): a row photographed from
    across the table lies upside down, its places the other way round (``vision.rows``)."""
    if deck == "standard" or references is None or not len(references) or sum(1 for r in reads if r.label) < 2:
        return reads  # a lone card has no order to keep (``vision.rows.upside_down`` asks two faces or more)
    out = []
    for r in reads:
        if r.label is not None:
            quad = order_portrait(np.asarray(r.outline, np.float32))
            r = CardRead(r.label, r.confidence, r.outline, r.alternatives, r.anchor,
                         turned=references.turned(rectify(image, quad), r.label))
        out.append(r)
    return out


MIN_CARD_HEIGHT = 56  # px: a card shorter than this in the photo has index glyphs of a few pixels


def _too_small(reads: list[CardRead]) -> list[CardRead]:
    """Cards too small in the photo to read surely (a tiny photo, a card far away), left unknown with their
    guesses: at this size a reader's "sure" is no better than a guess (a 200-pixel photo of four cards read
    K♣ at 84% where the card was A♠). Measured: the smallest card read right on the real photos is 78 px
    tall (busy-train at 504 px), on the drawn scenes 178 px."""
    out = []
    for r in reads:
        q = np.asarray(r.outline, np.float32).reshape(4, 2)
        height = max(float(np.linalg.norm(q[0] - q[1])), float(np.linalg.norm(q[1] - q[2])))
        out.append(r if r.label is None or height >= MIN_CARD_HEIGHT else
                   CardRead(None, r.confidence, r.outline, r.alternatives, r.anchor, r.turned))
    return out


DARK_PHOTO = 64  # a photo whose median grey is under this may be a card with a dark face
LIGHT_INK_SUITS = "HD"  # ... read with its lightness turned over, only a coloured (red) suit's ink tells its suit


def _is_dark(image: np.ndarray) -> bool:
    small = image[::4, ::4]
    return float(np.median(cv2.cvtColor(np.ascontiguousarray(small), cv2.COLOR_BGR2GRAY))) < DARK_PHOTO


def lightness_turned(image: np.ndarray) -> np.ndarray:
    """The photo with light and dark swapped and colours kept (Lab lightness L -> 255 - L)."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    lab[..., 0] = 255 - lab[..., 0]
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def _dark_face(reads: list[CardRead]) -> list[CardRead]:
    """Reads of a lightness-turned photo as answers: white ink turned black looks like a black
    suit's whatever its suit was (a white diamond reads as a spade), so only a red suit is
    answered; any other label stays unknown, with its guess among the alternatives."""
    return [r if r.label and r.label[-1] in LIGHT_INK_SUITS else CardRead(None, r.confidence, r.outline, r.alternatives, r.anchor)
            for r in reads]


def _recognise(image: np.ndarray, deck: str, references: References | None, allowed: list[str] | None) -> list[CardRead]:
    """recognise, on the photo as it is."""
    reads = []
    unread: list[np.ndarray] = []  # outlines where no index was read (a card seen only by its index may be one)
    for quad, cands in _read_outlines(image, find_cards(image), deck, references):
        if deck == "standard" and not cands:
            unread.append(quad)
            continue  # a white rectangle without any index: not shown to be a card
        label, conf = decide(cands, allowed)
        if label is None and not USUAL_ASPECT[0] <= apparent_aspect(quad) <= USUAL_ASPECT[1]:
            unread.append(quad)  # a square or a strip not read as a card: a floor tile, a panel
            continue
        reads.append(CardRead(label, conf, quad, cands))
    reads = same_label_overlapping(nested(reads))
    close_up = None
    if reads and all(_panel_of(r.outline, _whole_frame(image)) for r in reads):
        # perhaps a close-up whose outlines found are all panels of its face (the frame round a 4's
        # pips, read as an ace at its corners): the card is the whole photo when it is read, at both
        # corners unless the photo's edges are card margin
        quad = order_portrait(_whole_frame(image))
        cands = _identify(rectify(image, quad), deck, references, both_corners=not frame_is_card(image))
        label, conf = decide(cands, allowed)
        if label is not None:
            return [CardRead(label, conf, quad, cands)]
    # perhaps a close-up, the whole photo one card: nothing read. With outlines found but none read
    # in a photo whose edges are not card margin (a crop inside the card's margin), the whole photo
    # is a card only when read at both corners; edges of card margin make it a close-up (panels of
    # the card's face, such as an index box, outlined)
    if not any(r.label for r in reads):
        margin_round = frame_is_card(image)
        quad = order_portrait(_whole_frame(image))
        card = rectify(image, quad)
        cands = _identify(card, deck, references, both_corners=bool(reads) and not margin_round)
        label, conf = decide(cands, allowed)
        if label is None and deck == "standard":
            cands = standard.close_up_candidates(card) or cands  # an index larger or smaller than usual
            label, conf = decide(cands, allowed)
        if label is not None:
            return [CardRead(label, conf, quad, cands)]  # read at both corners: surer than any index alone
        if margin_round and (len(reads) == 1 or (reads and _panels(image, reads))
                              or (not reads and (cands or deck != "standard"))):
            close_up = CardRead(label, conf, quad, cands)  # as ``teach`` takes a one-card photo
            reads = []
    if deck == "standard":
        reads = _second_copies(_cleared(_with_index_hits(image, reads, allowed, unread)
                                        or ([close_up] if close_up else []), allowed))
    return reads or ([close_up] if close_up else [])


SECOND_COPY_SURE = 0.9  # a card answered twice in one photo: each copy but the surest needs this much


def _second_copies(reads: list[CardRead]) -> list[CardRead]:
    """Reads answering a card already answered in the photo, held unknown unless sure: two copies of
    one card lie on a table only when several decks are shuffled together (Spite & Malice), far
    less often than a misread (an 8♠ half under a 10♣, read as the 10♠ found elsewhere)."""
    surest: dict[str, int] = {}
    for i, r in enumerate(reads):
        if r.label is not None and (r.label not in surest or r.confidence > reads[surest[r.label]].confidence):
            surest[r.label] = i
    return [r if r.label is None or surest[r.label] == i or r.confidence >= SECOND_COPY_SURE
            else CardRead(None, r.confidence, r.outline, r.alternatives, r.anchor) for i, r in enumerate(reads)]


def _cleared(reads: list[CardRead], allowed: list[str] | None) -> list[CardRead]:
    """The standard deck's cards still unknown once every way of reading them was tried, answered
    where their best label stands clear of every other (`decide` with `clear`). Only now: a label
    given earlier would stop the surer reads that follow (the whole photo as one card, the indices
    inside an outline)."""
    out = []
    for read in reads:
        if read.label is None and read.alternatives:
            label, conf = decide(read.alternatives, allowed, clear=True)
            if label is not None:
                read = CardRead(label, conf, read.outline, read.alternatives, anchor=read.anchor)
        out.append(read)
    return out


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
    """Load the index readers and the index finder, draw the suit references and import what numpy
    imports on first use, now, not under the first photo."""
    blank = [np.zeros((index_net.INPUT_SIZE[1], index_net.INPUT_SIZE[0], 3), np.uint8)]
    index_net.read_patches(blank)
    index_net.read_patches(blank, search=True)
    index_finder.maps(np.zeros((64, 64, 3), np.uint8))
    glyphs.suit_references()
    np.median(np.zeros(2))  # numpy imports numpy.ma at its first median: 15–35 ms of the first photo's time


def _with_index_hits(image: np.ndarray, reads: list[CardRead], allowed: list[str] | None,
                     unread: list[np.ndarray] = ()) -> list[CardRead]:
    """Add the cards seen only by their index (fanned or overlapping, no outline found).

    An index on a card identified by its outline belongs to that card (whose reader has seen
    both corners); the outline is grown a little for this, as a found outline can fall short
    of the card's edge. Indices inside an outline left unknown replace that unknown read (the
    outline may hold two overlapping cards, or the reader saw one corner only). A card found
    by its index takes, as its outline, an outline found around that index of about the size
    the index implies (one whose corners were not read), else the outline guessed from the
    index's position and size."""
    sure = [(r, _sure_label(r)) for r in reads]
    sure = [(r, label) for r, label in sure if label]  # identified, or surely read as a card ruled out here
    grown = [_grow(r.outline, OUTLINE_SLACK) for r, _ in sure]
    if grown and len(grown) == len(reads) and not _paper_elsewhere(image, [_grow(r.outline, PAPER_SLACK) for r in reads]):
        return reads  # every card found is identified, and no card's paper shows anywhere else
    heights = [max(np.linalg.norm(r.outline[0] - r.outline[3]), np.linalg.norm(r.outline[0] - r.outline[1]))
               for r, _ in sure]
    outlines = [r.outline for r, _ in sure]  # marks in the slack around them are read (see _belongs)
    found = find_indices(image, float(np.median(heights)) if heights else None, outlines)
    named = [(_grow(r.outline, OUTLINE_SLACK), label, r.outline) for r, label in sure]
    if FIND_INDICES_LEARNT:  # indices the mark pairing passed over (its places used up by a busy card's pips)
        standing = [h for h in found if not any(_belongs(h, g, lab, outline) for g, lab, outline in named)]
        found = found + _suppress(index_finder.find(image, outlines, standing))
    hits = merge_pairs([h for h in found if not any(_belongs(h, g, lab, outline) for g, lab, outline in named)
                        and not any(lab == h.label and (_covers(g, h.outline()) or _covers(h.outline(), g))
                                    for g, lab, _ in named)])
    kept = [r for r in reads if (_sure_label(r) or not any(inside(h.centre, r.outline) for h in hits))
            and not any(_panel_of(r.outline, h.outline()) for h in hits)]
    spare = list(unread) + [r.outline for r in reads if not _sure_label(r)]
    ends = _ends_of_one_card(hits, spare)
    doubted = set(ends.values())
    for i, hit in enumerate(hits):
        if i in ends:
            continue  # the other end of a card whose ends disagree, kept as that card
        label, conf = decide(hit.alternatives, allowed)
        alternatives = hit.alternatives
        if i in doubted:  # both ends' guesses, neither answered
            other = hits[next(j for j, k in ends.items() if k == i)]
            alternatives = sorted(hit.alternatives + other.alternatives, key=lambda a: -a[1])
            label = None
        kept.append(CardRead(label, conf, _outline_around(hit, spare), alternatives,
                             anchor=hit.centre + hit.down * hit.scale * 45))  # just below the index's suit
    return kept


PANEL_SHARE = 0.5  # an outline lying inside a card found by its index, at most this share of its size ...
PANEL_OFF_CENTRE = 0.1  # ... and centred on it, within this share of its height


def _panel_of(outline: np.ndarray, card: np.ndarray) -> bool:
    """True when `outline` lies in the middle of the card outlined by `card` (an index hit's, or a
    close-up's whole photo) and is much smaller: a panel of that card's face (the frame round a 4's
    pips, read as an ace at its corners), not a card. A card lying on another and partly covered
    shows a smaller outline too, but seldom just in its middle."""
    area = cv2.contourArea(np.float32(outline))
    height = max(np.linalg.norm(card[0] - card[3]), np.linalg.norm(card[0] - card[1]))
    off = np.linalg.norm(np.mean(outline, axis=0) - np.mean(card, axis=0))
    return area < PANEL_SHARE * cv2.contourArea(np.float32(card)) and off < PANEL_OFF_CENTRE * height \
        and _covers(card, outline, 0.85)


def _sure_label(read: CardRead) -> str | None:
    """The card a read names: its label, or, for one left unknown because the table rules it out (a joker
    where the deck has none), the card it was surely read as. Marks inside such a card are its own (a
    joker's stacked J is not a jack's index)."""
    if read.label:
        return read.label
    if read.alternatives and read.alternatives[0][1] >= ACCEPT:
        return read.alternatives[0][0]
    return None


def _belongs(hit, grown: np.ndarray, label: str, outline: np.ndarray) -> bool:
    """An index hit inside a read card's grown outline is that card's, unless it lies beyond the
    outline itself (in the slack the outline is grown by) and reads another card: there it is the
    index of the card under it, as in a fan, whose indices show just beside the next card's edge."""
    if not inside(hit.centre, grown):
        return False
    return hit.label == label or inside(hit.centre, outline)


def _outline_around(hit, outlines: list[np.ndarray]) -> np.ndarray:
    """The outline found around an index hit whose area is nearest the one its index implies
    (within a factor of 2.5), else the outline guessed from the index."""
    k = _outline_index(hit, outlines)
    return hit.outline() if k is None else np.float32(outlines[k])


def _outline_index(hit, outlines: list[np.ndarray]) -> int | None:
    """Which of the outlines `_outline_around` takes for the hit; None for the guessed one."""
    area = cv2.contourArea(hit.outline())
    best, best_ratio = None, 2.5
    for k, quad in enumerate(outlines):
        if not inside(hit.centre, quad):
            continue
        ratio = max(cv2.contourArea(np.float32(quad)) / area, area / max(cv2.contourArea(np.float32(quad)), 1e-6))
        if ratio < best_ratio:
            best, best_ratio = k, ratio
    return best


ENDS_APART = (200, 330)  # card units along a card between its two indices (235 on a 200×280 card; more seen low)
ENDS_ACROSS = 190  # ... and at most this far across it (150 usually; a design may print both on one side)


def _card_length_apart(a, b) -> bool:
    """True when hit b lies where a card's other index lies, seen from hit a: a card's length down
    it, and not further across than a card's width (two cards overlapping turned round lie closer)."""
    k = (a.scale + b.scale) / 2
    offset = b.centre - a.centre
    right = np.array([a.down[1], -a.down[0]])
    return ENDS_APART[0] * k <= float(offset @ a.down) <= ENDS_APART[1] * k and abs(float(offset @ right)) <= ENDS_ACROSS * k


def _ends_of_one_card(hits: list, outlines: list[np.ndarray]) -> dict[int, int]:
    """Hits read as two different cards that are the two ends of one card: they point opposite
    ways, lie a card's length apart and take the same found outline as their card. {the later hit: the earlier one}: the card
    is one, in doubt (its two corners disagree), never answered as either or as two."""
    places = [_outline_index(hit, outlines) for hit in hits]
    pairs: dict[int, int] = {}
    for j, b in enumerate(hits):
        for i in range(j):
            a = hits[i]
            if places[i] is not None and places[i] == places[j] and i not in pairs and a.label != b.label \
                    and float(a.down @ b.down) < -0.6 and _card_length_apart(a, b):
                pairs[j] = i
                break
    return pairs


def _covers(outline: np.ndarray, other: np.ndarray, share: float = 0.4) -> bool:
    """True when `outline` covers more than `share` of the quad `other` (an index hit's guessed
    outline lying mostly on a card already read: seen at a steep angle, its index can fall just
    outside the card's outline)."""
    inter, _ = cv2.intersectConvexConvex(np.float32(outline), np.float32(other))
    return inter > share * cv2.contourArea(np.float32(other))


def same_label_overlapping(reads: list[CardRead]) -> list[CardRead]:
    """Two outlines read as the same card that overlap by more than a quarter are one card (two
    outlines of it found, or one of its face's panels): the surer read is kept."""
    order = sorted(range(len(reads)), key=lambda i: -reads[i].confidence)
    kept: list[int] = []
    for i in order:
        r = reads[i]
        twin = r.label is not None and any(
            reads[k].label == r.label and _covers(reads[k].outline, r.outline, 0.25) or
            reads[k].label == r.label and _covers(r.outline, reads[k].outline, 0.25) for k in kept)
        if not twin:
            kept.append(i)
    return [reads[i] for i in sorted(kept)]


def _paper_elsewhere(image: np.ndarray, outlines: list[np.ndarray]) -> bool:
    """True when white, card-like paper in one piece of more than PAPER_ELSEWHERE of a card shows
    outside the given card outlines: a card (or a part of one, under another) may lie there.
    Measured on a small copy: a quick check that spares the index search on a table of cards
    lying apart. Specks of white on a textured table (carpet, a lit grain) are no card: every
    search that changed a read had a piece of at least a tenth of a card."""
    h, w = image.shape[:2]
    f = min(1.0, PAPER_CHECK_SIDE / max(h, w))
    small = cv2.resize(image, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_LINEAR)
    paper = (whiteness(small) > 150).astype(np.uint8)
    for quad in outlines:
        cv2.fillPoly(paper, [np.round(quad * f).astype(np.int32)], 0)
    card_area = float(np.median([cv2.contourArea(np.float32(q)) for q in outlines])) * f * f
    n, _, stats, _ = cv2.connectedComponentsWithStats(paper, connectivity=8)
    return n > 1 and int(stats[1:, cv2.CC_STAT_AREA].max()) > PAPER_ELSEWHERE * card_area


def _grow(quad: np.ndarray, share: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * (1 + share)


def _panels(image: np.ndarray, reads: list[CardRead]) -> bool:
    """True when the unread outlines of a close-up are small details of its face (a flat scan of a
    Rat-a-Tat Cat 7 shows two), not cards: together under ``PANELS_SHARE`` of the photo."""
    h, w = image.shape[:2]
    covered = sum(abs(cv2.contourArea(np.asarray(r.outline, np.float32))) for r in reads)
    return covered < PANELS_SHARE * h * w


def frame_is_card(image: np.ndarray) -> bool:
    """True for a flat scan or close-up: the photo's edges are card margin, not table."""
    h, w = image.shape[:2]
    m = max(2, int(min(h, w) * 0.03))
    # whiteness is per pixel: measured on the four edge bands alone (the whole photo took 2-5 ms)
    band = np.concatenate([whiteness(np.ascontiguousarray(b)).ravel()
                           for b in (image[:m], image[-m:], image[:, :m], image[:, -m:])])
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


def teach(image: np.ndarray, labels: list[str], references: References | None = None,
          outlines: list[np.ndarray] | None = None) -> References:
    """References from a photo of cards named by the caller, in reading order.

    Reading order is by rows, top to bottom, and left to right within a row. A photo of a single
    card may also be a flat scan or close-up filling the frame (its edges are then card margin,
    not table). Adds to `references` when given.
    `outlines`, when given, are the cards' outlines in the order of `labels` (those of the photo
    shown back, numbered as the names were given): the cards are not looked for again.
    Raises TeachError when the number of cards found differs from the number of labels.
    """
    if not labels:
        raise TeachError("Name at least one card to teach.")
    if outlines is not None:
        if len(outlines) != len(labels):
            raise TeachError(f"{len(outlines)} card(s) outlined but {len(labels)} name(s) were given.")
        quads = [order_portrait(np.asarray(q, np.float32)) for q in outlines]
    elif len(labels) == 1 and frame_is_card(image):
        quads = [order_portrait(_whole_frame(image))]
    else:
        found = [order_portrait(q) for q in outermost(find_cards(image))]
        usual = [q for q in found if USUAL_ASPECT[0] <= apparent_aspect(q) <= USUAL_ASPECT[1]]
        if len(usual) == len(labels):  # a teaching photo is taken from above: squares are tiles
            found = usual
        quads = [found[i] for i in reading_order(found)]
    if len(quads) != len(labels):
        raise TeachError(f"Found {len(quads)} card(s) in the photo but {len(labels)} name(s) were given; "
                         "photograph the cards apart from each other on a plain table.")
    out = References() if references is None else References(references.labels, references.features)
    for label, quad in zip(labels, quads):
        card = rectify(image, quad, (CARD_W, CARD_H))
        out.add(label, card)
    return out


OVERLAY_TEXT_SHARE = 1 / 16  # label height as a share of the photo's width: >= 16 CSS px at a phone's width
NUMBER_PLATE = (110, 45, 0)  # BGR: a teaching photo's numbers, white on dark blue (not taken for a card's name)


def _label_parts(label: str | None) -> tuple[str, str | None]:
    """The text of a label and its suit (drawn as a shape: OpenCV's fonts have no ♠♥♦♣)."""
    if label is None:
        return "?", None
    if label != "JOKER" and len(label) > 1 and label[-1] in glyphs.SUITS and label[:-1] in glyphs.RANKS:
        return label[:-1], label[-1]
    return label, None


def draw_overlay(image: np.ndarray, reads: list[CardRead], quality: int = 85, numbered: bool = False) -> bytes:
    """JPEG of the photo with each card's outline drawn on it and its label on a plate at the
    card's centre (so a label cannot be taken for a neighbour's), sized to be read on a phone
    showing the whole photo at its width (the photo's width drawn at about 300 CSS px: the label is
    ``OVERLAY_TEXT_SHARE`` of it, whatever the photo's size); a card left unknown is outlined in orange
    with a "?". With ``numbered`` (a teaching photo) each plate holds the card's number instead, 1, 2, 3
    in the order of ``reads`` (the order of the form's fields), white on dark blue."""
    canvas = image.copy()
    long_side = max(canvas.shape[:2])
    line = max(2, int(long_side / 400))
    text_h = max(14, int(round(canvas.shape[1] * OVERLAY_TEXT_SHARE)))
    font = cv2.FONT_HERSHEY_DUPLEX
    font_scale = text_h / 22  # DUPLEX capitals are about 22 px tall at scale 1
    thick = max(1, int(text_h / 9))
    for read in reads:
        colour = (60, 200, 60) if read.label else (0, 160, 255)
        pts = np.round(np.asarray(read.outline, np.float32)).astype(np.int32)
        cv2.polylines(canvas, [pts], True, (0, 0, 0), line * 2 + 2, cv2.LINE_AA)  # a dark rim: seen on any table
        cv2.polylines(canvas, [pts], True, colour, line, cv2.LINE_AA)
    plates: list[tuple[int, int, int, int]] = []
    for number, read in enumerate(reads, 1):  # labels after every outline: no outline crosses a label
        colour = (60, 200, 60) if read.label else (0, 160, 255)
        text, suit = (str(number), None) if numbered else _label_parts(read.label)
        (tw, th), _ = cv2.getTextSize(text, font, font_scale, thick)
        sw = int(th * 0.9) if suit else 0
        gap = int(th * 0.25) if suit else 0
        pad = max(3, th // 4)
        w, h = tw + gap + sw + 2 * pad, th + 2 * pad
        cx, cy = np.asarray(read.outline, np.float32).mean(axis=0) if read.anchor is None else read.anchor
        x0 = int(np.clip(cx - w / 2, 0, max(0, canvas.shape[1] - w)))
        y0 = int(np.clip(cy - h / 2, 0, max(0, canvas.shape[0] - h)))
        for _ in range(6):  # plates of cards lying close together are set apart, not over each other
            hit = [p for p in plates if x0 < p[2] and p[0] < x0 + w and y0 < p[3] and p[1] < y0 + h]
            if not hit:
                break
            y0 = int(np.clip(max(p[3] for p in hit) + 2, 0, max(0, canvas.shape[0] - h)))
        plates.append((x0, y0, x0 + w, y0 + h))
        cv2.rectangle(canvas, (x0, y0), (x0 + w, y0 + h), NUMBER_PLATE if numbered else (255, 255, 255), -1)
        cv2.rectangle(canvas, (x0, y0), (x0 + w, y0 + h), colour, max(2, line))
        ink = (255, 255, 255) if numbered else (30, 30, 200) if suit in ("H", "D") else (20, 20, 20)
        cv2.putText(canvas, text, (x0 + pad, y0 + pad + th), font, font_scale, ink, thick, cv2.LINE_AA)
        if suit:
            shape = glyphs.suit_shape(suit, 0.85, size=sw)
            sx, sy = x0 + pad + tw + gap, y0 + pad + (th - shape.shape[0]) // 2
            region = canvas[sy:sy + shape.shape[0], sx:sx + shape.shape[1]]
            region[shape[:region.shape[0], :region.shape[1]] > 0] = ink
    ok, buf = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()
