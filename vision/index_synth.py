"""Synthetic corner-index patches: the training data of the index reader (vision.index_net).

A patch is what vision.standard crops from a rectified 200×280 card: its top-left
INDEX_BOX, where a standard deck prints the rank above a small suit. Patches are drawn in
code: a rank in one of the machine's TrueType/OpenType fonts (or OpenCV's Hershey fonts),
a suit from a font or drawn, on paper whose rounded corner shows some table, with what lies
beside an index on real cards (a big pip, a face card's frame, art), then warped, blurred,
lit, tinted, noised and JPEG-compressed the way a phone photo of a small card is. About one
patch in six shows no index at all (table, blank paper, art, text), one in thirty a joker's
stacked "JOKER".

The fonts are the Latin text fonts found under FONT_DIRS; on Debian they come from the
packages listed in docs/vision.md. Pillow renders them (training only: the served app never
imports this module).
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .glyphs import RANKS, SUITS, suit_shape
from .index_net import CLASSES, INDEX_BOX, INPUT_SIZE
from .synth import background

SCALE = 2  # patches are drawn at twice the size, then shrunk (anti-aliasing)
BIG_INDEX = 0.12  # share of indices drawn large (a jumbo index, or a photo cropped inside the margin)

FONT_DIRS = [
    "/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation",
    "/usr/share/fonts/truetype/freefont", "/usr/share/fonts/truetype/crosextra",
    "/usr/share/fonts/opentype/urw-base35", "/usr/share/fonts/opentype/linux-libertine",
    "/usr/share/texmf/fonts/opentype/public/tex-gyre", "/usr/share/fonts/truetype/noto",
]
# wider: more weights (thin to black), condensed and geometric sans, slab, didone, old-style and
# rounded faces (Debian packages listed in docs/vision.md); their italics are left out
MORE_FONT_DIRS = [f"/usr/share/fonts/truetype/{d}" for d in (
    "adf", "andika", "averia-gwf", "beteckna", "charis", "clear-sans", "cmu", "croscore",
    "fonts-century-catalogue", "fonts-oldstandard", "gentiumplus", "karla", "lato", "lindenhill", "manrope",
    "open-sans", "opendin", "play", "quicksand", "roboto/unhinted", "roboto/unhinted/RobotoTTF", "tuffy",
    "vollkorn")] + [f"/usr/share/fonts/opentype/{d}" for d in (
    "bebas-neue", "cabin", "cantarell", "comic-neue", "dosis", "ebgaramond", "inter", "junction",
    "league-spartan", "quattrocento", "roboto/slab", "solid-mirage", "yanone-kaffeesatz")]
_SLANTED = ("Italic", "Oblique", "italic", "CondIt", "Script", "cmunti", "cmunbi", "cmunsi", "cmuntx",
            "cmunit", "cmunbl", "cmunci", "cmuno")
# symbol, script and non-Latin faces: no card index looks like them
_SKIP = ("D050000L", "StandardSymbols", "Z003", "chorus", "Math", "LinBiolinum_K", "Initials",
         "Mono", "Cursor", "cursor")
_NOTO_LATIN = ("NotoSans-", "NotoSerif-", "NotoSansDisplay-", "NotoSerifDisplay-")
_SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
TEXT = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789&.-"
RED_INKS = [(40, 30, 200), (30, 20, 170), (50, 40, 220), (60, 50, 190), (20, 30, 150)]


def font_files() -> list[str]:
    files = []
    for folder in FONT_DIRS:
        for path in sorted(glob.glob(os.path.join(folder, "*.[ot]tf"))):
            name = os.path.basename(path)
            if any(s in name for s in _SKIP):
                continue
            if "noto" in folder and not name.startswith(_NOTO_LATIN):
                continue
            files.append(path)
    for folder in MORE_FONT_DIRS:
        for path in sorted(glob.glob(os.path.join(folder, "*.[ot]tf"))):
            name = os.path.basename(path)
            if not any(s in name for s in _SKIP + _SLANTED):
                files.append(path)
    return files


def _render_pil(path: str, text: str, size: int = 96) -> np.ndarray | None:
    """Tight binary-ish mask (uint8 0..255) of `text` in the font at `path`, or None."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(path, size)
    box = font.getbbox(text)
    if box[2] - box[0] < 2 or box[3] - box[1] < 2:
        return None
    img = Image.new("L", (box[2] - box[0] + 8, box[3] - box[1] + 8), 0)
    ImageDraw.Draw(img).text((4 - box[0], 4 - box[1]), text, fill=255, font=font)
    return _tight(np.asarray(img))


def _tight(mask: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(mask > 60)
    if len(ys) == 0:
        return None
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _hershey(text: str, font: int, thickness: int) -> np.ndarray:
    (tw, th), base = cv2.getTextSize(text, font, 3.0, thickness)
    canvas = np.zeros((th + base + 20, tw + 20), np.uint8)
    cv2.putText(canvas, text, (10, th + 10), font, 3.0, 255, thickness, cv2.LINE_AA)
    return _tight(canvas)


def _distinct(masks: dict[str, np.ndarray]) -> bool:
    """Four different shapes: a font without suit symbols draws the same box for all four."""
    items = list(masks.values())
    return all(a.shape != b.shape or np.any(a != b) for k, a in enumerate(items) for b in items[k + 1:])


@dataclass
class Glyphs:
    ranks: list[dict[str, np.ndarray]]  # per font: rank -> mask
    suits: list[dict[str, np.ndarray]]  # per source: suit -> mask
    letters: list[dict[str, np.ndarray]]  # per font: letter -> mask (jokers, text)


@lru_cache(maxsize=1)
def glyph_bank() -> Glyphs:
    """Every rank, suit and capital letter in every usable font, as tight masks."""
    ranks, suits, letters = [], [], []
    missing = None
    for path in font_files():
        try:
            rendered = {r: _render_pil(path, r) for r in RANKS + ["1", "0"]}
        except OSError:
            continue
        if any(m is None for m in rendered.values()):
            continue
        ranks.append(rendered)
        letters.append({c: m for c in TEXT if (m := _render_pil(path, c)) is not None})
        if missing is None or missing[0] != path:
            missing = (path, _render_pil(path, "\ue000"))
        sym = {s: _render_pil(path, ch) for s, ch in _SUIT_CHARS.items()}
        if all(m is not None and (missing[1] is None or m.shape != missing[1].shape or
                                  np.any(m != missing[1])) for m in sym.values()) and _distinct(sym):
            suits.append(sym)
    for font in (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                 cv2.FONT_HERSHEY_TRIPLEX):
        for thickness in (3, 6, 9):
            ranks.append({r: _hershey(r, font, thickness) for r in RANKS + ["1", "0"]})
            letters.append({c: _hershey(c, font, thickness) for c in TEXT})
    for width in (0.7, 0.8, 0.9, 1.0):
        for lobe in (0.22, 0.26, 0.3):
            suits.append({s: suit_shape(s, width, size=96, lobe=lobe) * 255 for s in SUITS})
    return Glyphs(ranks, suits, letters)


def _weight(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same face printed lighter or bolder (thin and heavy indices), or in outline."""
    roll = rng.random()
    k = int(rng.integers(2, 6))
    if roll < 0.1:
        return cv2.erode(mask, np.ones((k, k), np.uint8))
    if roll < 0.22:
        return cv2.dilate(mask, np.ones((k, k), np.uint8))
    if roll < 0.25:
        return cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((k + 1, k + 1), np.uint8))
    return mask


def _rank_mask(bank: Glyphs, rank: str, rng: np.random.Generator) -> np.ndarray:
    return _weight(_rank_glyph(bank, rank, rng), rng)


def _rank_glyph(bank: Glyphs, rank: str, rng: np.random.Generator) -> np.ndarray:
    font = bank.ranks[int(rng.integers(len(bank.ranks)))]
    if rank != "10" or rng.random() < 0.3:
        return font[rank]
    one, zero = font["1"], font["0"]  # card indices set "10" tight, sometimes touching
    h = max(one.shape[0], zero.shape[0])
    one = cv2.resize(one, (max(1, int(one.shape[1] * h / one.shape[0])), h))
    zero = cv2.resize(zero, (max(1, int(zero.shape[1] * h / zero.shape[0])), h))
    gap = int(rng.uniform(-0.15, 0.25) * zero.shape[1])
    w = one.shape[1] + max(0, gap) + zero.shape[1]
    out = np.zeros((h, w + 2), np.uint8)
    out[:, :one.shape[1]] = one
    x = max(0, one.shape[1] + gap)
    out[:, x:x + zero.shape[1]] = np.maximum(out[:, x:x + zero.shape[1]], zero)
    return out


def _stamp(canvas: np.ndarray, mask: np.ndarray, x: float, y: float, w: float, h: float,
           colour: np.ndarray, shear: float = 0.0) -> None:
    """Paint `mask` scaled to w×h at (x, y) (top-left), alpha-blended in `colour`."""
    mh, mw = mask.shape
    H, W = canvas.shape[:2]
    x0, y0 = max(0, int(x - abs(shear) * h) - 2), max(0, int(y) - 2)
    x1, y1 = min(W, int(x + w + abs(shear) * h) + 3), min(H, int(y + h) + 3)
    if x1 <= x0 or y1 <= y0:
        return
    m = np.float32([[w / mw, shear * w / mw, x - x0], [0, h / mh, y - y0]])
    alpha = cv2.warpAffine(mask.astype(np.float32) / 255, m, (x1 - x0, y1 - y0),
                           flags=cv2.INTER_LINEAR)[..., None]
    region = canvas[y0:y1, x0:x1]
    region[:] = region * (1 - alpha) + colour * alpha


OTHER_INKS = [(40, 130, 30), (150, 60, 20), (40, 110, 170), (110, 40, 100), (30, 70, 110), (90, 90, 90)]
LIGHT_INKS = [(240, 240, 240), (200, 200, 205), (80, 170, 215), (60, 150, 200), (60, 60, 230), (70, 190, 70)]


def _ink(rng: np.random.Generator, red: bool, dark: bool = False) -> np.ndarray:
    """An ink colour; one in four is pale (worn print, or washed out by light in the photo). On a
    dark card: white, silver, gold, red or green. Some designs print in green, blue, gold, brown."""
    if dark:
        ink = np.array(LIGHT_INKS[int(rng.integers(len(LIGHT_INKS)))], np.float32) + rng.normal(0, 15, 3)
        return np.clip(ink * rng.uniform(0.75, 1.05), 0, 255)
    if rng.random() < 0.1:
        ink = np.array(OTHER_INKS[int(rng.integers(len(OTHER_INKS)))], np.float32) + rng.normal(0, 12, 3)
    elif red:
        ink = np.array(RED_INKS[int(rng.integers(len(RED_INKS)))], np.float32) + rng.normal(0, 12, 3)
    else:
        ink = np.full(3, rng.uniform(0, 60)) + rng.normal(0, 8, 3)
    if rng.random() < 0.25:
        fade = rng.uniform(0.2, 0.55)
        ink = ink + (np.array([235.0, 235.0, 245.0]) - ink) * fade
    return np.clip(ink, 0, 255)


def _smooth_field(rng: np.random.Generator, w: int, h: int, cells: int) -> np.ndarray:
    """Noise varying over about `cells` blobs across the patch, zero-mean, roughly unit spread."""
    small = rng.normal(0, 1, (max(2, cells * h // w), max(2, cells))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _paper(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, bool]:
    """The card's face, and whether it is dark. Most are white or tinted; some are aged
    (yellowed, stained, grained, as vintage designs and their scans are); a few are dark
    (black, navy, marbled, starry: designs printed in light ink)."""
    roll = rng.random()
    if roll < 0.07:
        tint = rng.uniform(0, 60, 3) * rng.uniform(0.3, 1.0)
        img = np.broadcast_to(np.float32(tint), (h, w, 3)) + _smooth_field(rng, w, h, 3)[..., None] * rng.uniform(0, 12)
        if rng.random() < 0.5:  # stars, speckle or marble veins
            speck = rng.random((h, w)) < rng.uniform(0.002, 0.03)
            img = img + cv2.GaussianBlur(speck.astype(np.float32), (0, 0), 1.0)[..., None] * rng.uniform(60, 200)
        return np.clip(img, 0, 255).astype(np.float32), True
    tint = np.array([rng.uniform(215, 255), rng.uniform(220, 255), rng.uniform(225, 255)], np.float32)
    if roll < 0.27:
        tint = np.array([rng.uniform(120, 215), rng.uniform(175, 235), rng.uniform(205, 250)], np.float32)
        img = np.broadcast_to(tint, (h, w, 3)) * (1 + _smooth_field(rng, w, h, int(rng.integers(2, 6)))[..., None]
                                                  * rng.uniform(0.02, 0.1))
        if rng.random() < 0.4:  # stains
            stain = np.clip(_smooth_field(rng, w, h, int(rng.integers(3, 8))) - rng.uniform(0.8, 1.6), 0, 1)
            img = img * (1 - stain[..., None] * np.float32([0.45, 0.35, 0.2]) * rng.uniform(0.5, 1.0))
        if rng.random() < 0.3:  # grain or fibres
            yy = np.arange(h, dtype=np.float32)[:, None] + _smooth_field(rng, w, h, 2) * 6
            img = img * (1 + np.sin(yy / rng.uniform(1.5, 4)) * rng.uniform(0.02, 0.07))[..., None]
        return np.clip(img, 0, 255).astype(np.float32), False
    return np.broadcast_to(tint, (h, w, 3)).copy(), False


def _table(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    kind = ["wood", "cloth", "carpet", "tiles", "mat", "plain"][int(rng.integers(6))]
    if kind == "plain":
        img = np.broadcast_to(rng.uniform(20, 240, 3), (h, w, 3)).astype(np.float32)
        img = img + rng.normal(0, 6, (h, w, 1))
    else:
        pool = _texture_pool()[kind]
        tex = pool[int(rng.integers(len(pool)))]
        y, x = int(rng.integers(tex.shape[0] - h + 1)), int(rng.integers(tex.shape[1] - w + 1))
        img = tex[y:y + h, x:x + w] * rng.uniform(0.5, 1.3, 3)
    return np.ascontiguousarray(img, np.float32)


@lru_cache(maxsize=1)
def _texture_pool() -> dict[str, list[np.ndarray]]:
    """A few large table textures of each kind, cropped at random (drawing one per patch is slow)."""
    rng = np.random.default_rng(12345)
    size = INDEX_BOX[0] * SCALE * 3, INDEX_BOX[1] * SCALE * 2
    return {kind: [background(kind, size, rng).astype(np.float32) for _ in range(8)]
            for kind in ("wood", "cloth", "carpet", "tiles", "mat")}


def _beside(canvas: np.ndarray, rng: np.random.Generator, bank: Glyphs, red: bool, s: int,
            dark: bool = False) -> None:
    """What lies right of and below the index on a real card: a big pip, a frame, art."""
    h, w = canvas.shape[:2]
    kind = rng.random()
    if kind < 0.4:  # a big pip, partly in the patch
        suit = SUITS[int(rng.integers(4))] if rng.random() < 0.2 else ("H" if red else "S")
        mask = bank.suits[int(rng.integers(len(bank.suits)))][suit]
        size = rng.uniform(22, 50) * s
        _stamp(canvas, mask, rng.uniform(30, 50) * s, rng.uniform(-10, 70) * s, size * rng.uniform(0.8, 1.0),
               size, _ink(rng, red, dark))
    elif kind < 0.7:  # a face card's frame, with some art inside
        x0, y0 = int(rng.uniform(28, 44) * s), int(rng.uniform(8, 30) * s)
        colour = rng.uniform(0, 255, 3)
        cv2.rectangle(canvas, (x0, y0), (w + 10, h + 10), colour.tolist(), max(1, int(rng.uniform(1, 3) * s)))
        for _ in range(int(rng.integers(0, 6))):
            c = (int(rng.uniform(x0, w)), int(rng.uniform(y0, h)))
            cv2.circle(canvas, c, int(rng.uniform(3, 14) * s), rng.uniform(0, 255, 3).tolist(), -1)
    elif kind < 0.8:  # a second, smaller symbol under the suit (some designs), or a courtesy pip
        mask = bank.suits[int(rng.integers(len(bank.suits)))]["H" if red else "S"]
        size = rng.uniform(8, 14) * s
        _stamp(canvas, mask, rng.uniform(30, 45) * s, rng.uniform(5, 20) * s, size, size, _ink(rng, red, dark))


def _index(canvas: np.ndarray, rng: np.random.Generator, bank: Glyphs, rank: str, suit: str,
           ex: float, ey: float, s: int, dark: bool = False) -> None:
    red = suit in "HD"
    ink = _ink(rng, red, dark)
    if rank in SUITS:  # a pip where a rank would be
        mask = bank.suits[int(rng.integers(len(bank.suits)))][rank]
    else:
        mask = _rank_mask(bank, rank, rng)
    # a quarter are large: a jumbo index, or a photo cropped inside the card's margin
    big = rng.random() < BIG_INDEX
    rh = rng.uniform(32, 56) if big else rng.uniform(15, 32)
    aspect = mask.shape[1] / mask.shape[0] * rng.uniform(0.6, 1.5)
    rw = min(rh * aspect, 52.0 if big else 44.0)
    x = ex + (rng.uniform(-1, 6) if big else rng.uniform(2, 9))
    y = ey + (rng.uniform(-1, 7) if big else rng.uniform(2, 13))
    shear = rng.uniform(-0.12, 0.12) if rng.random() < 0.3 else 0.0
    _stamp(canvas, mask, x * s, y * s, rw * s, rh * s, ink, shear)
    smask = bank.suits[int(rng.integers(len(bank.suits)))][suit]
    if rng.random() < 0.12:  # some designs print the suit in outline
        k = max(3, smask.shape[0] // 10)
        smask = cv2.morphologyEx(smask, cv2.MORPH_GRADIENT, np.ones((k, k), np.uint8))
    sh = rh * (rng.uniform(0.45, 0.9) if big else rng.uniform(0.5, 0.95))
    if not big and rw < 24 and rng.random() < 0.06:  # the suit beside the rank (some old patterns)
        sh = min(sh, 20.0)
        sw = sh * smask.shape[1] / smask.shape[0] * rng.uniform(0.85, 1.1)
        sx = x + rw + rng.uniform(0.5, 4)
        sy = y + rng.uniform(0, 0.5) * max(0.0, rh - sh)
    else:
        sy = y + rh + rng.uniform(0.5, 7)
        sh = min(sh, (INDEX_BOX[1] - sy) / 0.6)  # at least about 60% of the suit inside the patch
        sw = sh * smask.shape[1] / smask.shape[0] * rng.uniform(0.85, 1.1)
        sx = x + rw / 2 - sw / 2 + rng.uniform(-3, 3)
    _stamp(canvas, smask, sx * s, sy * s, sw * s, sh * s, ink)


def _joker(canvas: np.ndarray, rng: np.random.Generator, bank: Glyphs, ex: float, ey: float, s: int,
           dark: bool = False) -> None:
    font = bank.letters[int(rng.integers(len(bank.letters)))]
    ink = _ink(rng, rng.random() < 0.6, dark)
    lh = rng.uniform(8, 13) if rng.random() < 0.7 else rng.uniform(13, 18)
    x, y = ex + rng.uniform(3, 8), ey + rng.uniform(3, 10)
    for letter in "JOKER":
        m = font[letter]
        _stamp(canvas, m, x * s, y * s, lh * m.shape[1] / m.shape[0] * s, lh * s, ink)
        y += lh * rng.uniform(1.1, 1.35)


def _words(canvas: np.ndarray, rng: np.random.Generator, bank: Glyphs, s: int, strength: float = 1.0,
           ink: np.ndarray | None = None) -> None:
    """Printed text that is not an index (a book, a box, a brand name), at any angle; with a
    `strength` below 1, a faint watermark over whatever is there."""
    font = bank.letters[int(rng.integers(len(bank.letters)))]
    chars = [c for c in font if c in TEXT]
    if rng.random() < 0.4:
        chars = [c for c in chars if c.isupper()] or chars
    lh = rng.uniform(6, 30)
    ink = _ink(rng, rng.random() < 0.3) if ink is None else ink
    layer = np.zeros_like(canvas)
    y = rng.uniform(-10, 30)
    while y < canvas.shape[0] / s:
        x = rng.uniform(-15, 10)
        for _ in range(int(rng.integers(2, 8))):
            m = font[chars[int(rng.integers(len(chars)))]]
            w = lh * m.shape[1] / m.shape[0] * (0.6 if m.shape[1] < m.shape[0] * 0.4 else 1)
            _stamp(layer, m, x * s, y * s, w * s, lh * s, np.ones(3, np.float32))
            x += w * rng.uniform(1.05, 1.3)
        y += lh * rng.uniform(1.3, 3)
    angle = float(rng.choice([0, 90, 180, 270]) + rng.uniform(-30, 30))
    h, w = canvas.shape[:2]
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    a = cv2.warpAffine(layer[..., 0], rot, (w, h))[..., None] * strength
    canvas[:] = canvas * (1 - a) + ink * a


def _watermark(canvas: np.ndarray, rng: np.random.Generator, bank: Glyphs, s: int) -> None:
    """A stock photo's faint mark over the card: light or grey letters, or swirls."""
    ink = np.full(3, rng.uniform(120, 255), np.float32)
    if rng.random() < 0.6:
        _words(canvas, rng, bank, s, strength=rng.uniform(0.1, 0.35), ink=ink)
        return
    layer = np.zeros(canvas.shape[:2], np.float32)
    h, w = layer.shape
    for _ in range(int(rng.integers(1, 4))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        r = int(rng.uniform(4, 14) * s)
        for k in range(1, 4):
            cv2.ellipse(layer, c, (r * k // 3, r * k // 3), 0, rng.uniform(0, 90), rng.uniform(200, 330), 1.0,
                        max(1, s))
    a = layer[..., None] * rng.uniform(0.15, 0.4)
    canvas[:] = canvas * (1 - a) + ink * a


def _pattern(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """Stripes, a barcode, a card back's lattice, or the outline of something printed."""
    h, w = canvas.shape[:2]
    colour = rng.uniform(0, 200, 3)
    kind = int(rng.integers(3))
    if kind == 0:  # stripes or a barcode
        x = 0.0
        while x < w:
            bw = rng.uniform(1, 8)
            cv2.rectangle(canvas, (int(x), 0), (int(x + bw), h), colour.tolist(), -1)
            x += bw + rng.uniform(2, 14)
    elif kind == 1:  # a lattice
        step = rng.uniform(8, 24)
        for k in range(-40, 40):
            cv2.line(canvas, (int(k * step), 0), (int(k * step + h), h), colour.tolist(), 2)
            cv2.line(canvas, (int(k * step), 0), (int(k * step - h), h), colour.tolist(), 2)
    else:  # curves
        for _ in range(int(rng.integers(2, 7))):
            c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            cv2.ellipse(canvas, c, (int(rng.uniform(5, 60)), int(rng.uniform(5, 60))), rng.uniform(0, 180),
                        0, rng.uniform(90, 360), colour.tolist(), int(rng.integers(1, 6)))


def _corner_of_card(canvas: np.ndarray, rng: np.random.Generator, ex: float, ey: float, s: int) -> np.ndarray:
    """The table showing past the card's rounded corner and edges (the outline is never exact)."""
    h, w = canvas.shape[:2]
    r = rng.uniform(5, 16) * s
    x0, y0 = ex * s, ey * s
    card = np.zeros((h, w), np.uint8)
    pts = np.array([[x0 + r, y0], [w + 5, y0], [w + 5, h + 5], [x0, h + 5], [x0, y0 + r]], np.int32)
    cv2.fillPoly(card, [pts], 255)
    cv2.circle(card, (int(x0 + r), int(y0 + r)), int(r), 255, -1)
    alpha = cv2.GaussianBlur(card.astype(np.float32) / 255, (0, 0), 0.8 * s)[..., None]
    table = _table(rng, w, h)
    return table * (1 - alpha) + canvas * alpha


def _photo(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, tint, blur, resolution loss, noise and JPEG of a phone photo."""
    h, w = patch.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.normal(0, 0.5, 2)
    light = 1 + (gx * (xx / w - 0.5) + gy * (yy / h - 0.5)) * rng.uniform(0, 0.8)
    cast = rng.uniform(0.8, 1.2, 3) if rng.random() < 0.3 else rng.uniform(0.93, 1.07, 3)
    patch = patch * light[..., None] * rng.uniform(0.45, 1.1) * cast
    patch += rng.uniform(-20, 20)
    if rng.random() < 0.15:  # glare
        c = (rng.uniform(0, w), rng.uniform(0, h))
        g = np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * (rng.uniform(5, 25)) ** 2))
        patch = patch + g[..., None] * rng.uniform(60, 160)
    patch = np.clip(patch, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:  # the card was small in the photo: detail lost, then upscaled
        f = rng.uniform(0.3, 0.9)
        small = cv2.resize(patch, (max(4, int(w * f)), max(6, int(h * f))), interpolation=cv2.INTER_AREA)
        patch = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, 1.3)
    if sigma > 0.3:
        patch = cv2.GaussianBlur(patch, (0, 0), sigma)
    patch = np.clip(patch + rng.normal(0, rng.uniform(0, 8), patch.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", patch, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _misplace(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The rectified outline is a few pixels off, turned a little or seen in perspective."""
    h, w = patch.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = (src + rng.normal(0, 0.03, (4, 2)) * [w, h]).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(patch, m, (w, h), borderMode=cv2.BORDER_REPLICATE)


def sample(rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """(BGR patch INPUT_SIZE, rank class index into CLASSES, suit index into SUITS or -1)."""
    bank = glyph_bank()
    s = SCALE
    w, h = INDEX_BOX[0] * s, INDEX_BOX[1] * s
    canvas, dark = _paper(rng, w, h)
    ex, ey = (rng.uniform(-4, 6), rng.uniform(-4, 6)) if rng.random() < 0.7 else (rng.uniform(-2, 1), rng.uniform(-2, 1))
    roll = rng.random()
    rank_cls, suit_cls = CLASSES.index("NONE"), -1
    if roll < 0.64:
        rank = RANKS[int(rng.integers(len(RANKS)))]
        suit = SUITS[int(rng.integers(4))]
        _beside(canvas, rng, bank, suit in "HD", s, dark)
        _index(canvas, rng, bank, rank, suit, ex, ey, s, dark)
        rank_cls, suit_cls = RANKS.index(rank), SUITS.index(suit)
    elif roll < 0.67:
        _joker(canvas, rng, bank, ex, ey, s, dark)
        rank_cls = CLASSES.index("JOKER")
    elif roll < 0.70:
        _beside(canvas, rng, bank, rng.random() < 0.5, s, dark)  # a card corner with no index
    elif roll < 0.80:
        _words(canvas, rng, bank, s)
    elif roll < 0.85:  # the big pips of a number card framed like an index: pip above pip
        suit = SUITS[int(rng.integers(4))]
        _index(canvas, rng, bank, suit, suit, ex + rng.uniform(-4, 4), ey + rng.uniform(-6, 6), s, dark)
        _beside(canvas, rng, bank, suit in "HD", s, dark)
    elif roll < 0.90:  # an index turned over, or mostly outside the patch: not readable here
        suit = SUITS[int(rng.integers(4))]
        _beside(canvas, rng, bank, suit in "HD", s, dark)
        rank = RANKS[int(rng.integers(13))]
        if rng.random() < 0.5:
            _index(canvas, rng, bank, rank, suit, ex, ey, s, dark)
            canvas = np.ascontiguousarray(canvas[::-1, ::-1])
        elif rng.random() < 0.5:
            _index(canvas, rng, bank, rank, suit, ex, ey - rng.uniform(22, 35), s, dark)
        else:
            _index(canvas, rng, bank, rank, suit, ex - rng.uniform(20, 30), ey, s, dark)
    else:  # no card at all: table, a pattern, art filling the patch
        canvas = _table(rng, w, h)
        if rng.random() < 0.5:
            _pattern(canvas, rng)
        if rng.random() < 0.3:
            _beside(canvas, rng, bank, rng.random() < 0.5, s)
    if roll < 0.90 and rng.random() < 0.12:
        _watermark(canvas, rng, bank, s)
    if roll < 0.90 and rng.random() < 0.9:
        canvas = _corner_of_card(canvas, rng, ex, ey, s)
    patch = cv2.resize(np.clip(canvas, 0, 255).astype(np.uint8), INDEX_BOX, interpolation=cv2.INTER_AREA)
    patch = _photo(_misplace(patch, rng), rng)
    return cv2.resize(patch, INPUT_SIZE, interpolation=cv2.INTER_AREA), rank_cls, suit_cls


def batch(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n samples stacked: patches (n, h, w, 3) uint8, rank classes (n,), suit classes (n,)."""
    items = [sample(rng) for _ in range(n)]
    return (np.stack([i[0] for i in items]), np.array([i[1] for i in items]),
            np.array([i[2] for i in items]))
