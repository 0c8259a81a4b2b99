"""Where card indices lie in a photo: a small fully convolutional network (a learned proposal finder).

The index search (vision.index_search) pairs dark marks into "rank above suit" candidates and
reads the likeliest few; on a busy card (the ten pips of a 10, a face card's art) the pips'
pairs can use up every place before a real index is tried. This network looks at the whole
photo, shrunk to at most INPUT_SIDE px, and marks every cell (STRIDE px) where a rank's
centre lies, with the direction from rank to suit ("down" the card) and the rank's height.
Each peak is framed on the rank's own pixels found there (`snap`), cut out as the index
reader expects a corner and read by the search reader, framed three ways as the index search
does; a read is kept only when it is sure and the card reader puts the same rank and suit
first (two networks trained apart agreeing: on busy-train's tuning part this kept out a
newspaper's print read as a 10 and a blurred 9 read as a J).

The network is trained only on table scenes drawn in code (`scene`, below: cards whose indices
are drawn in the machine's many fonts, spread, in rows, fanned and overlapping, from above
and at a seated player's angle), by vision.train_index_finder; never on a photo.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .glyphs import RANKS
from .index_net import _net
from .index_search import RANK_HEIGHT, IndexHit, _inside_any, halved_towards, read_candidates

MODEL_PATH = Path(__file__).parent / "models" / "index_finder.onnx"
INPUT_SIDE = 448  # long side of the copy the network looks at (px)
STRIDE = 4  # px of that copy per output cell
PEAK = 0.35  # a cell this sure (and the surest of its neighbours) is a proposal
REFRAME = (0.8, 1.25)  # a proposal read at no framing of its own is read again with its rank this much taller
# (the network's guess of the rank's height is off on a small or blurred index; wider framings, 0.7-1.4,
# read one card more in the drawn scenes and one wrong on busy-train's tuning part)
MAX_PROPOSALS = 8  # proposals read per photo, surest first (16 read the same cards on the tuning parts and the drawn scenes)
MIN_RANK_PX = 4.0  # a rank under this height (px, in the network's copy) is not read
BORDER_SHARE = 0.4  # a proposal nearer the photo's edge than this share of its rank's height is passed over
RANK_WIDTH = 16 / RANK_HEIGHT  # a typical rank's width as a share of its height


def prepare(image: np.ndarray, side: int = INPUT_SIDE) -> tuple[np.ndarray, float]:
    """The network's input for a BGR image: shrunk to at most `side` px (halved while more than
    twice too large, then bilinear: INTER_AREA's non-integer path costs 10 ms on a 1600 px
    photo, this 2.5), as `normalise` gives it; and the factor."""
    h, w = image.shape[:2]
    f = min(1.0, side / max(h, w))
    size = (max(1, int(round(w * f))), max(1, int(round(h * f))))
    small = halved_towards(image, size)
    if small.shape[1] != size[0] or small.shape[0] != size[1]:
        small = cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    return normalise(small), f


def normalise(small: np.ndarray) -> np.ndarray:
    """(1, 3, h, w) float32 of a BGR image, padded to a multiple of STRIDE × 4 and scaled by
    its own brightness and contrast (over all channels)."""
    m = STRIDE * 4
    ph, pw = -small.shape[0] % m, -small.shape[1] % m
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    mean, std = cv2.meanStdDev(small)
    mu = float(mean.mean())
    sd = float(np.sqrt((std ** 2 + (mean - mu) ** 2).mean()))
    x = np.stack(cv2.split(small)).astype(np.float32)
    x -= mu
    x *= 1.0 / (sd + 8.0)
    return x[None]


def maps(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(heat (h, w) 0..1, down (h, w, 2), rank height in photo px (h, w), factor) per output cell."""
    x, f = prepare(image)
    out = _net(str(MODEL_PATH)).run(None, {"image": x})[0][0]
    heat = 1 / (1 + np.exp(-out[0]))
    down = out[1:3].transpose(1, 2, 0)
    down = down / (np.linalg.norm(down, axis=2, keepdims=True) + 1e-6)
    height = np.exp(out[3]) * 8.0 / f
    return heat, down, height, f


def proposals(image: np.ndarray, known: list[np.ndarray] = ()) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    """(rank centre (photo px), down vector, rank height (photo px), heat) of the likeliest index
    places, surest first; places inside the `known` outlines are passed over."""
    heat, down, height, f = maps(image)
    peaks = (heat >= PEAK) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    if not len(ys):
        return []
    order = np.argsort(-heat[ys, xs])
    ys, xs = ys[order], xs[order]
    centres = np.stack([(xs + 0.5) * STRIDE / f, (ys + 0.5) * STRIDE / f], axis=1)
    keep = ~_inside_any(centres, known) if len(known) else np.ones(len(ys), bool)
    keep &= height[ys, xs] * f >= MIN_RANK_PX
    margin = (BORDER_SHARE * height[ys, xs])[:, None]  # a rank cut by the photo's edge is not read
    keep &= np.all((centres >= margin) & (centres <= np.float32(image.shape[1::-1]) - 1 - margin), axis=1)
    out = []
    for y, x, c in zip(ys[keep], xs[keep], centres[keep]):
        out.append((c, down[y, x].astype(np.float64), float(height[y, x]), float(heat[y, x])))
        if len(out) >= MAX_PROPOSALS:
            break
    return out


def rank_points(centre: np.ndarray, down: np.ndarray, height: float) -> np.ndarray:
    """Corner points of a rank of that height centred there (the pixels index_search frames)."""
    right = np.array([down[1], -down[0]])
    hw, hh = height * RANK_WIDTH / 2, height / 2
    return np.float32([centre + sx * right * hw + sy * down * hh for sx in (-1, 1) for sy in (-1, 1)])


def snap(image: np.ndarray, centre: np.ndarray, down: np.ndarray, height: float) -> np.ndarray:
    """The rank's own pixels near a proposal (the dark mark on pale paper whose centre lies
    nearest it, of about the height proposed; with a "10"'s other digit beside it), so the
    corner is framed on the glyph as the index search frames it; else the rank the proposal
    implies. (Looked for on a window shrunk so the rank was at most 20 px tall, 5 of 170
    cards fewer were read in the drawn scenes from above.)"""
    guess = rank_points(centre, down, height)
    r = int(np.ceil(height * 1.2)) + 2
    x0, y0 = max(0, int(centre[0]) - r), max(0, int(centre[1]) - r)
    win = image[y0:int(centre[1]) + r + 1, x0:int(centre[0]) + r + 1]
    if win.shape[0] < 5 or win.shape[1] < 5:
        return guess
    win = cv2.cvtColor(win, cv2.COLOR_BGR2GRAY)
    h = height
    k = max(3, int(h * 0.8) | 1)
    paper = cv2.dilate(win, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    ink = ((paper.astype(np.int16) - win.astype(np.int16) > 0.28 * paper) & (paper > 90)).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if n < 2:
        return guess
    local = centre - (x0, y0)
    side = np.maximum(stats[:, 2], stats[:, 3])
    dist = np.linalg.norm(cents - local, axis=1)
    ok = (np.arange(n) > 0) & (stats[:, 4] >= 4) & (side > 0.5 * h) & (side < 2.0 * h) & (dist < 0.5 * h)
    if not ok.any():
        return guess
    right = np.array([down[1], -down[0]])

    def pixels(c: int) -> np.ndarray:
        x, y, w, hh = stats[c, :4]
        ys, xs = np.nonzero(labels[y:y + hh, x:x + w] == c)
        return np.stack([xs + x, ys + y], axis=1).astype(np.float32)

    best = None
    for c in np.nonzero(ok)[0][np.argsort(dist[ok])]:
        pts = pixels(int(c))
        if 0.6 < (np.ptp(pts @ down) + 1) / h < 1.6 and np.ptp(pts @ right) + 1 <= 1.6 * h:
            best, best_c = pts, int(c)
            break
    if best is None:
        return guess
    rank_h = np.ptp(best @ down) + 1  # a "10": the other digit beside it, as tall, joins it
    off = cents - cents[best_c]
    beside = (np.abs(off @ down) < 0.3 * rank_h) & (np.abs(off @ right) > 0.2 * rank_h) \
        & (np.abs(off @ right) < 1.1 * rank_h) & (stats[:, 4] >= 4) & (side < 1.6 * rank_h)
    beside[[0, best_c]] = False
    for c in np.nonzero(beside)[0]:
        pts = pixels(int(c))
        if 0.6 < (np.ptp(pts @ down) + 1) / rank_h < 1.5:
            best = np.concatenate([best, pts])
            break
    return best + np.float32([x0, y0])


def find(image: np.ndarray, known: list[np.ndarray] = (), near: list[IndexHit] = ()) -> list[IndexHit]:
    """Sure index reads at the network's proposals (not inside `known` outlines, nor at an index
    already found in `near`), read as the index search reads its candidates, always with the card
    reader's agreement (`index_search.read_candidates`). A proposal read at neither of its framings
    (on the rank's own pixels, or as the network implies it) is read again framed as if its rank
    were taller or shorter (REFRAME)."""
    props = [p for p in proposals(image, known)
             if not any(np.linalg.norm(p[0] - h.centre) <= RANK_HEIGHT * h.scale for h in near)]
    if not props:
        return []
    # framed on the rank's own pixels, and as the network implies it (the mark snapped to may be another)
    cands = [(snap(image, c, d, h), d) for c, d, h, _ in props] + [(rank_points(c, d, h), d) for c, d, h, _ in props]
    hits = read_candidates(image, cands, checked=range(len(cands)))
    rest = [p for p in props if not any(np.linalg.norm(p[0] - h.centre) <= RANK_HEIGHT * h.scale for h in hits)]
    if rest and REFRAME:
        more = [(rank_points(c, d, h * z), d) for c, d, h, _ in rest for z in REFRAME]
        hits += read_candidates(image, more, checked=range(len(more)))
    return hits


# --- Training scenes, drawn in code ------------------------------------------------------------

CARD_UNITS = (200, 280)


def _card(rng: np.random.Generator, s: float) -> tuple[np.ndarray, list[tuple[float, float, float]]]:
    """A card face drawn at `s` px per card unit with its index (rank above suit) in two opposite
    corners, in one of the machine's fonts; and the rank centres and heights (card px) of the
    top-left index (the other is that turned half round)."""
    from . import index_synth as syn

    bank = syn.glyph_bank()
    w, h = int(CARD_UNITS[0] * s), int(CARD_UNITS[1] * s)
    paper, dark = syn._paper(rng, w, h)
    card = paper.copy()
    rank = RANKS[int(rng.integers(len(RANKS)))]
    suit = "SHDC"[int(rng.integers(4))]
    red = suit in "HD"
    ink = syn._ink(rng, red, dark)
    # the middle: pips, a face card's framed art, or a big ace
    if rng.random() < 0.35 or rank in "JQK":
        x0, y0 = rng.uniform(30, 45) * s, rng.uniform(25, 45) * s
        cv2.rectangle(card, (int(x0), int(y0)), (int(w - x0), int(h - y0)), rng.uniform(0, 255, 3).tolist(),
                      max(1, int(rng.uniform(1, 3) * s)))
        for _ in range(int(rng.integers(4, 14))):
            c = (int(rng.uniform(x0, w - x0)), int(rng.uniform(y0, h - y0)))
            colour = rng.uniform(0, 255, 3).tolist()
            if rng.random() < 0.5:
                cv2.circle(card, c, int(rng.uniform(3, 25) * s), colour, -1)
            else:
                cv2.line(card, c, (int(rng.uniform(x0, w - x0)), int(rng.uniform(y0, h - y0))), colour,
                         max(1, int(rng.uniform(1, 5) * s)))
        if rng.random() < 0.5:  # letters or a big rank in the art
            letters = bank.letters[int(rng.integers(len(bank.letters)))]
            ch = list(letters)[int(rng.integers(len(letters)))]
            size = rng.uniform(15, 40) * s
            syn._stamp(card, letters[ch], rng.uniform(x0, w - x0 - size), rng.uniform(y0, h - y0 - size),
                       size * 0.7, size, syn._ink(rng, red, dark))
    else:
        pip = bank.suits[int(rng.integers(len(bank.suits)))][suit]
        n = int(rng.integers(1, 11))
        size = rng.uniform(22, 40) * s if n > 1 else rng.uniform(40, 90) * s
        cols = 1 if n < 4 else 2 if n < 9 or rng.random() < 0.5 else 3
        rows = int(np.ceil(n / cols))
        for k in range(n):
            r, c = divmod(k, cols)
            cx = w / 2 + (c - (cols - 1) / 2) * rng.uniform(45, 60) * s
            cy = h / 2 + (r - (rows - 1) / 2) * min(45 * s, (h - 100 * s) / max(rows, 1))
            flip = r >= rows / 2 and rng.random() < 0.7
            m = pip[::-1, ::-1] if flip else pip
            syn._stamp(card, m, cx - size * 0.45, cy - size / 2, size * 0.9, size, ink)
    # the index, drawn once and turned half round for the opposite corner
    rh = rng.uniform(15, 34) if rng.random() < 0.9 else rng.uniform(34, 50)
    mask = syn._rank_mask(bank, rank, rng)
    rw = min(rh * mask.shape[1] / mask.shape[0] * rng.uniform(0.7, 1.4), 44.0)
    x, y = rng.uniform(3, 14), rng.uniform(4, 16)
    corner = np.ascontiguousarray(card[: int(130 * s), : int(90 * s)])
    corner[:] = paper[: corner.shape[0], : corner.shape[1]]
    syn._stamp(corner, mask, x * s, y * s, rw * s, rh * s, ink)
    smask = bank.suits[int(rng.integers(len(bank.suits)))][suit]
    sh = rh * rng.uniform(0.5, 0.95)
    sw = sh * smask.shape[1] / smask.shape[0]
    sy = y + rh + rng.uniform(0.5, 7)
    syn._stamp(corner, smask, (x + rw / 2 - sw / 2 + rng.uniform(-3, 3)) * s, sy * s, sw * s, sh * s, ink)
    card[: corner.shape[0], : corner.shape[1]] = corner
    card[h - corner.shape[0]:, w - corner.shape[1]:] = corner[::-1, ::-1]
    centre = ((x + rw / 2) * s, (y + rh / 2) * s, rh * s)
    out = [centre, (w - centre[0], h - centre[1], rh * s)]
    return np.clip(card, 0, 255).astype(np.uint8), out


def scene(rng: np.random.Generator, size: tuple[int, int] = (640, 480)
          ) -> tuple[np.ndarray, np.ndarray]:
    """A table scene of 1–7 cards drawn in code, and its visible indices: rows of (x, y, down x,
    down y, rank height px), the rank's centre in the scene."""
    from . import synth

    layout = synth.LAYOUTS[int(rng.integers(len(synth.LAYOUTS)))]
    kind = synth.TABLE_KINDS[int(rng.integers(len(synth.TABLE_KINDS)))]
    tilt = float(rng.choice([0.0, 0.0, rng.uniform(0.2, 0.6)]))
    n = int(rng.integers(1, 8))
    work = (int(size[0] * 1.25), int(size[1] * 1.6)) if tilt > 0 else size
    if tilt > 0:
        inner = (int(work[0] * (1 - 0.5 * tilt) * 0.95), work[1])
        quads = [q + np.float32([(work[0] - inner[0]) / 2, 0]) for q in synth.layout_quads(layout, n, inner, rng)]
    else:
        quads = synth.layout_quads(layout, n, work, rng)
    if layout != "spread" and rng.random() < 0.5:  # tighter or looser than the layouts' own
        c = np.mean([q.mean(axis=0) for q in quads], axis=0)
        k = rng.uniform(0.6, 1.0)
        quads = [(q - q.mean(axis=0)) + c + (q.mean(axis=0) - c) * k for q in quads]
    table = synth.table(kind, work, rng)
    marks = []
    for i, quad in enumerate(quads):
        height = float(np.linalg.norm(quad[3] - quad[0]))
        s = max(0.6, height / CARD_UNITS[1])
        card, centres = _card(rng, s)
        ch, cw = card.shape[:2]
        table = synth.paste_card(table, card, quad)
        m = cv2.getPerspectiveTransform(np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]]), np.float32(quad))
        for k, (cx, cy, rh) in enumerate(centres):
            sign = 1 if k == 0 else -1
            pts = np.float32([[cx, cy], [cx, cy + sign * rh / 2]]).reshape(-1, 1, 2)
            marks.append((i, cv2.perspectiveTransform(pts, m).reshape(2, 2), rh))
    if tilt > 0:
        table, moved = synth.seated_view(table, quads, tilt, size)
        src = np.float32([[0, 0], [work[0], 0], [work[0] * (1 + (1 - 0.5 * tilt)) / 2, work[1]],
                          [work[0] * (1 - (1 - 0.5 * tilt)) / 2, work[1]]])
        mv = cv2.getPerspectiveTransform(src, np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]]))
        marks = [(i, cv2.perspectiveTransform(p.reshape(-1, 1, 2), mv).reshape(2, 2), rh) for i, p, rh in marks]
        quads = moved
    photo = synth.photo_effects(table, rng, blur=float(rng.uniform(0.2, 1.4)), glare=rng.random() < 0.4)
    rows = []
    for i, p, _ in marks:
        c, half = p[0], p[1] - p[0]
        hpx = 2 * float(np.linalg.norm(half))
        if not (0 <= c[0] < size[0] and 0 <= c[1] < size[1]) or hpx < 2:
            continue
        above = quads[i + 1:]
        probe = np.float32([c, c + half, c - half])
        if len(above) and _inside_any(probe, [np.float32(q) for q in above]).any():
            continue  # covered by a card lying on it
        d = half / (np.linalg.norm(half) + 1e-9)
        rows.append((c[0], c[1], d[0], d[1], hpx))
    return photo, np.float32(rows).reshape(-1, 5)


def targets(marks: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(heat (h, w), regression (3, h, w): down x, down y, log(rank height / 8)) at STRIDE for
    an input of `shape` (h, w), from index marks in that input's pixels; the regression is
    meant only where the heat is above one half; the cell holding each rank's centre is 1."""
    h, w = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((h, w), np.float32)
    reg = np.zeros((3, h, w), np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for x, y, dx, dy, hp in marks:
        cx, cy = x / STRIDE - 0.5, y / STRIDE - 0.5
        sigma = max(0.7, 0.25 * hp / STRIDE)
        g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma * sigma))
        iy, ix = int(np.clip(round(cy), 0, h - 1)), int(np.clip(round(cx), 0, w - 1))
        g[iy, ix] = 1.0  # the cell the rank's centre falls in is the peak
        better = g > heat
        heat = np.maximum(heat, g)
        for k, v in enumerate((dx, dy, np.log(max(hp, 1.0) / 8.0))):
            reg[k][better] = v
    return heat, reg
