"""Synthetic cards and table scenes, made in code.

Used by the tests (which must not depend on any photo files) and by the evaluation's
"composed scenes" mode: cards are drawn (standard deck) or taken from flat scans (a taught
deck), then placed with rotation and perspective on procedurally textured tables (wood,
cloth, carpet, tiles) under uneven light, glare, white-balance shifts, blur and noise.
"""

from __future__ import annotations

import cv2
import numpy as np

from .glyphs import suit_shape

CARD_SIZE = (250, 350)
RED, BLACK = (40, 30, 200), (25, 25, 25)
_PIP_ROWS = {  # (column, row) on a 3×7 grid for number cards
    "A": [(1, 3)], "2": [(1, 0), (1, 6)], "3": [(1, 0), (1, 3), (1, 6)],
    "4": [(0, 0), (2, 0), (0, 6), (2, 6)], "5": [(0, 0), (2, 0), (1, 3), (0, 6), (2, 6)],
    "6": [(0, 0), (2, 0), (0, 3), (2, 3), (0, 6), (2, 6)],
    "7": [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (0, 6), (2, 6)],
    "8": [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (1, 4.5), (0, 6), (2, 6)],
    "9": [(0, 0), (2, 0), (0, 2), (2, 2), (1, 3), (0, 4), (2, 4), (0, 6), (2, 6)],
    "10": [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 4), (2, 4), (1, 5), (0, 6), (2, 6)],
}


def _stamp(canvas: np.ndarray, shape: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    h, w = shape.shape
    region = canvas[y:y + h, x:x + w]
    region[shape[: region.shape[0], : region.shape[1]] > 0] = colour


def render_joker(size: tuple[int, int] = CARD_SIZE) -> np.ndarray:
    """A joker: "JOKER" stacked letter by letter in two corners, a jester's hat in the middle."""
    w, h = size
    card = np.full((h, w, 3), 248, np.uint8)
    for i, letter in enumerate("JOKER"):
        y = int(h * 0.08) + i * int(h * 0.075)
        cv2.putText(card, letter, (int(w * 0.05), y), cv2.FONT_HERSHEY_DUPLEX, h / 350 * 0.75, RED, 2, cv2.LINE_AA)
    card[h // 2:] = np.minimum(card[h // 2:], card[: h - h // 2][::-1, ::-1])
    cv2.fillConvexPoly(card, np.array([[w // 2, h // 3], [w // 3, h * 2 // 3], [w * 2 // 3, h * 2 // 3]]), (60, 60, 200))
    return card


def render_standard_card(rank: str, suit: str, font: int = cv2.FONT_HERSHEY_TRIPLEX,
                         size: tuple[int, int] = CARD_SIZE, index_scale: float = 1.0) -> np.ndarray:
    """A portrait card face (BGR) with the index in two corners, pips or a face panel;
    `index_scale` 1.5–2 draws a jumbo index."""
    w, h = size
    card = np.full((h, w, 3), 248, np.uint8)
    colour = RED if suit in "HD" else BLACK
    # corner index: rank above a small suit
    scale = h / 350 * 1.1 * index_scale
    thick = max(2, int(h / 110))
    (tw, th), _ = cv2.getTextSize(rank, font, scale, thick)
    index = np.zeros((int(th * 2.4) + 10, max(tw, int(th * 0.9)) + 6, 3), np.uint8)
    index[:] = 248
    cv2.putText(index, rank, (3, th + 3), font, scale, colour, thick, cv2.LINE_AA)
    pip = suit_shape(suit, 0.85, size=int(th * 0.9))
    _stamp(index, pip, (index.shape[1] - pip.shape[1]) // 2, th + 10, colour)
    ix, iy = int(w * 0.04), int(h * 0.03)
    card[iy:iy + index.shape[0], ix:ix + index.shape[1]] = index
    flipped = index[::-1, ::-1]
    card[h - iy - index.shape[0]:h - iy, w - ix - index.shape[1]:w - ix] = flipped
    # centre
    if rank in _PIP_ROWS:
        big = suit_shape(suit, 0.85, size=int(h * (0.3 if rank == "A" else 0.11)))
        for col, row in _PIP_ROWS[rank]:
            cx = int(w * (0.32 + 0.18 * col)) if rank != "A" else w // 2
            cy = int(h * (0.2 + 0.1 * row)) if rank != "A" else h // 2
            _stamp(card, big, cx - big.shape[1] // 2, cy - big.shape[0] // 2, colour)
    else:
        x0, y0, x1, y1 = int(w * 0.22), int(h * 0.14), int(w * 0.78), int(h * 0.86)
        cv2.rectangle(card, (x0, y0), (x1, y1), (160, 90, 30), 3)
        cv2.rectangle(card, (x0 + 6, y0 + 6), (x1 - 6, y1 - 6), (60, 170, 220), -1)
        cv2.circle(card, (w // 2, h // 3), int(w * 0.12), (90, 140, 230), -1)
        cv2.putText(card, rank, (w // 2 - 20, int(h * 0.65)), font, 2.0, colour, 4, cv2.LINE_AA)
    return card


def background(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table texture: 'wood', 'cloth', 'carpet', 'tiles' or 'mat'."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    noise = rng.normal(0, 1, (h, w)).astype(np.float32)
    if kind == "wood":
        warp = cv2.GaussianBlur(noise, (0, 0), 25) * 60
        grain = np.sin((yy + warp) / rng.uniform(4, 9)) * 0.5 + 0.5
        base = np.array([40, 85, 140], np.float32) * rng.uniform(0.7, 1.2)
        img = base * (0.7 + 0.3 * grain[..., None]) + noise[..., None] * 6
    elif kind == "cloth":
        weave = (np.sin(xx * 1.3) * np.sin(yy * 1.3)) * 10
        base = rng.choice([[60, 110, 30], [120, 60, 40], [90, 90, 140]]).astype(np.float32)
        img = base + weave[..., None] + noise[..., None] * 8
    elif kind == "carpet":
        speck = cv2.GaussianBlur(noise, (0, 0), 1.2) * 90
        img = np.array([110, 140, 160], np.float32) + speck[..., None]
    elif kind == "tiles":
        img = np.full((h, w, 3), 185, np.float32) + noise[..., None] * 5
        step = int(rng.integers(60, 120))
        img[(yy.astype(int) % step) < 4] = 110
        img[(xx.astype(int) % step) < 4] = 110
    else:  # mat
        img = np.full((h, w, 3), 25, np.float32) + noise[..., None] * 4
    return np.clip(img, 0, 255).astype(np.uint8)


def _card_mask(w: int, h: int) -> np.ndarray:
    """Rounded-corner alpha mask of a card."""
    mask = np.zeros((h, w), np.uint8)
    r = int(w * 0.06)
    cv2.rectangle(mask, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(mask, (0, r), (w, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    return mask


def place_cards(scene: np.ndarray, cards: list[np.ndarray], rng: np.random.Generator,
                perspective: float = 0.08) -> tuple[np.ndarray, list[np.ndarray]]:
    """Paste cards apart from each other at random angles; returns the scene and each card's quad."""
    h, w = scene.shape[:2]
    n = len(cards)
    cols = int(np.ceil(np.sqrt(n * w / h)))
    rows = int(np.ceil(n / cols))
    cell_w, cell_h = w / cols, h / rows
    slots = rng.permutation(rows * cols)[:n]
    out = scene.copy()
    quads = []
    for card, slot in zip(cards, slots):
        r, c = divmod(int(slot), cols)
        ch, cw = card.shape[:2]
        target_h = min(cell_h, cell_w * 1.4) * rng.uniform(0.55, 0.7)
        s = target_h / ch
        angle = rng.uniform(0, 2 * np.pi)
        centre = np.array([(c + 0.5) * cell_w, (r + 0.5) * cell_h]) + rng.uniform(-0.08, 0.08, 2) * (cell_w, cell_h)
        corners = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]]) * s
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quad = corners @ rot.T + centre
        quad += rng.uniform(-perspective, perspective, (4, 2)) * target_h * 0.5
        out = paste_card(out, card, quad)
        quads.append(quad.astype(np.float32))
    return out, quads


def paste_card(scene: np.ndarray, card: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The scene with `card` warped onto `quad` (corners clockwise from the card's top left),
    rounded corners and a soft shadow; later cards lie on top of earlier ones."""
    h, w = scene.shape[:2]
    ch, cw = card.shape[:2]
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    m = cv2.getPerspectiveTransform(src, np.asarray(quad, np.float32))
    warped = cv2.warpPerspective(card, m, (w, h), flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(_card_mask(cw, ch), m, (w, h)).astype(np.float32)[..., None] / 255
    shadow = cv2.GaussianBlur(alpha, (0, 0), 3).reshape(h, w, 1)  # soft, under the card
    out = (scene * (1 - 0.35 * shadow)).astype(np.float32)
    return (out * (1 - alpha) + warped * alpha).astype(np.uint8)


def photo_effects(image: np.ndarray, rng: np.random.Generator, blur: float = 1.0, glare: bool = True) -> np.ndarray:
    """Uneven light, optional glare spot, white-balance shift, blur and sensor noise."""
    h, w = image.shape[:2]
    img = image.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.3, 0.3, 2)
    light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    img *= light[..., None]
    img *= rng.uniform(0.85, 1.15, 3)  # white balance
    if glare:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.15) * max(w, h)
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)) * rng.uniform(40, 90)
        img += spot[..., None]
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img += rng.normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def compose_scene(cards: list[np.ndarray], rng: np.random.Generator, size: tuple[int, int] = (1600, 1200),
                  kind: str | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """A photo-like table scene holding `cards`; returns it and each card's quad."""
    kind = kind or str(rng.choice(["wood", "cloth", "carpet", "tiles"]))
    scene, quads = place_cards(background(kind, size, rng), cards, rng)
    return photo_effects(scene, rng, blur=float(rng.uniform(0.3, 1.5))), quads


def art_card(seed: int, text: str, blobs: int = 6) -> np.ndarray:
    """A colourful, distinct card face inside a white margin, like a taught deck's artwork."""
    rng = np.random.default_rng(seed)
    w, h = CARD_SIZE
    card = np.full((h, w, 3), 240, np.uint8)
    art = card[int(h * 0.18): int(h * 0.88), int(w * 0.1): int(w * 0.9)]
    for _ in range(blobs):
        colour = tuple(int(c) for c in rng.integers(0, 255, 3))
        centre = (int(rng.integers(20, art.shape[1] - 20)), int(rng.integers(20, art.shape[0] - 20)))
        axes = (int(rng.integers(15, 60)), int(rng.integers(15, 80)))
        cv2.ellipse(art, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    cv2.putText(card, text, (14, 45), cv2.FONT_HERSHEY_DUPLEX, 1.1, (120, 30, 120), 3)
    return card


def fanned_hand(cards: list[np.ndarray], rng: np.random.Generator, size: tuple[int, int] = (1600, 1200),
                kind: str = "cloth", step_deg: float = 12.0) -> np.ndarray:
    """A hand held fanned on a table: each card turned `step_deg` further about a pivot near its
    foot and laid over the one before, so only a strip with its top-left index shows."""
    w, h = size
    scene = background(kind, size, rng)
    ch, cw = cards[0].shape[:2]
    s = h * 0.5 / ch
    pivot = np.array([w / 2, h * 0.82])
    base = np.array([[-cw / 2, -ch * 0.85], [cw / 2, -ch * 0.85], [cw / 2, ch * 0.15], [-cw / 2, ch * 0.15]]) * s
    start = -step_deg * (len(cards) - 1) / 2 + rng.uniform(-10, 10)
    for i, card in enumerate(cards):
        a = np.deg2rad(start + i * step_deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        scene = paste_card(scene, card, base @ rot.T + pivot)
    return photo_effects(scene, rng, blur=0.8, glare=False)


# --- Scenes for measuring the outline finder: tables, views and layouts ---------------------------

TABLE_KINDS = ("dark-wood", "light-wood", "cloth", "felt", "patterned", "carpet", "tiles", "mat")
LAYOUTS = ("spread", "row", "fan", "overlap")


def table(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table top: the textures of ``background`` and ordinary ones besides (dark and light
    wood, green felt, a patterned cloth)."""
    w, h = size
    if kind in ("wood", "cloth", "carpet", "tiles", "mat"):
        return background(kind, size, rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    noise = rng.normal(0, 1, (h, w)).astype(np.float32)
    if kind in ("dark-wood", "light-wood"):
        warp = cv2.GaussianBlur(noise, (0, 0), 25) * 60
        grain = np.sin((yy + warp) / rng.uniform(4, 9)) * 0.5 + 0.5
        planks = (np.floor(xx / rng.uniform(180, 320)) % 2) * rng.uniform(-12, 12)
        base = (np.array([25, 45, 70]) if kind == "dark-wood" else np.array([120, 170, 205])) * rng.uniform(0.85, 1.1)
        img = base * (0.78 + 0.22 * grain[..., None]) + planks[..., None] + noise[..., None] * 4
    elif kind == "felt":
        fuzz = cv2.GaussianBlur(noise, (0, 0), 1.5) * 25
        base = np.array([rng.choice([[40, 110, 20], [110, 50, 20], [30, 30, 120]])], np.float32).reshape(3)
        img = base * rng.uniform(0.8, 1.2) + fuzz[..., None]
    elif kind == "patterned":  # a checked or flowered tablecloth
        step = rng.uniform(40, 90)
        check = ((np.floor(xx / step) + np.floor(yy / step)) % 2)[..., None]
        a, b = rng.uniform(30, 200, 3), rng.uniform(30, 200, 3)
        img = a * check + b * (1 - check) + noise[..., None] * 6
        for _ in range(int(w * h / 25000)):
            c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
            cv2.circle(img, c, int(rng.uniform(4, 14)), rng.uniform(0, 255, 3).tolist(), -1)
    else:
        raise ValueError(f"unknown table {kind!r}")
    return np.clip(img, 0, 255).astype(np.uint8)


def card_quad(centre: tuple[float, float], height: float, angle: float) -> np.ndarray:
    """Corners of a card `height` tall turned by `angle` (radians), clockwise from its top left."""
    w = height / 1.4
    corners = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]])
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    return (corners @ rot.T + centre).astype(np.float32)


def layout_quads(layout: str, n: int, size: tuple[int, int], rng: np.random.Generator,
                 angle: float | None = None) -> list[np.ndarray]:
    """Where n cards lie (each quad clockwise from the card's own top left), later ones on top:
    spread apart, in a row, fanned in a hand, or overlapping in a row so each index shows."""
    w, h = size
    base = rng.uniform(0, 2 * np.pi) if angle is None else angle
    if layout == "spread":
        cols = int(np.ceil(np.sqrt(n * w / h)))
        rows = int(np.ceil(n / cols))
        cw, chh = w / cols, h / rows
        height = min(chh, cw * 1.4) * rng.uniform(0.5, 0.62)
        quads = []
        for k, slot in enumerate(rng.permutation(rows * cols)[:n]):
            r, c = divmod(int(slot), cols)
            centre = ((c + 0.5) * cw + rng.uniform(-0.08, 0.08) * cw, (r + 0.5) * chh + rng.uniform(-0.08, 0.08) * chh)
            a = rng.uniform(0, 2 * np.pi) if angle is None else angle + rng.uniform(-0.15, 0.15)
            quads.append(card_quad(centre, height, a))
        return quads
    if layout == "row":
        height = min(h * 0.5, w / (n * 1.25 / 1.4 + 0.4))
        pitch = height / 1.4 * rng.uniform(1.15, 1.35)
        x0 = w / 2 - pitch * (n - 1) / 2
        a0 = 0.0 if angle is None else angle
        return [card_quad((x0 + i * pitch, h / 2 + rng.uniform(-0.04, 0.04) * height), height,
                          a0 + rng.uniform(-0.08, 0.08)) for i in range(n)]
    if layout == "overlap":
        height = h * 0.5
        pitch = height / 1.4 * rng.uniform(0.42, 0.55)
        x0 = w / 2 - pitch * (n - 1) / 2
        a0 = rng.uniform(-0.2, 0.2) if angle is None else angle
        return [card_quad((x0 + i * pitch, h / 2 + rng.uniform(-0.03, 0.03) * height), height,
                          a0 + rng.uniform(-0.04, 0.04)) for i in range(n)]
    if layout == "fan":
        height = h * 0.5
        step = np.deg2rad(rng.uniform(11, 15))
        pivot = np.array([w / 2, h * 0.82])
        start = -step * (n - 1) / 2 + rng.uniform(-0.15, 0.15)
        out = []
        for i in range(n):
            a = start + i * step
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            local = card_quad((0, -height * 0.35), height, 0.0)
            out.append((local @ rot.T + pivot).astype(np.float32))
        return out
    raise ValueError(f"unknown layout {layout!r}")


def seated_view(scene: np.ndarray, quads: list[np.ndarray], tilt: float, out_size: tuple[int, int]
                ) -> tuple[np.ndarray, list[np.ndarray]]:
    """The table seen from a seated player's eyes instead of from above: the far side (top of the
    photo) shrinks. `tilt` 0..1: 0 is from above, 0.5 the far edge seen about half as wide as
    the near one, and squashed by the same share. Returns the photo and the cards' quads in it."""
    h, w = scene.shape[:2]
    ow, oh = out_size
    near = 1 - 0.5 * tilt  # the near edge covers this share of the table's width ...
    # ... and the far edge all of it; the table's depth is squashed in the photo
    src = np.float32([[0, 0], [w, 0], [w * (1 + near) / 2, h], [w * (1 - near) / 2, h]])
    dst = np.float32([[0, 0], [ow, 0], [ow, oh], [0, oh]])
    m = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(scene, m, (ow, oh), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    moved = [cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float32), m).reshape(4, 2) for q in quads]
    return photo, moved


STANDARD_FONTS = (cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX,
                  cv2.FONT_HERSHEY_COMPLEX)


def standard_scene(labels: list[str], rng: np.random.Generator, layout: str = "spread", kind: str = "dark-wood",
                   tilt: float = 0.0, size: tuple[int, int] = (1600, 1200), angle: float | None = None,
                   font: int | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """A photo of standard cards (labels such as "9C") drawn in code on a table, laid out as
    `layout`, seen from above (tilt 0) or from a seated player's angle; and each card's true
    quad in it, clockwise from the card's own top left."""
    if tilt > 0:  # a larger stretch of table, of which the photo sees a trapezoid
        work = (int(size[0] * 1.25), int(size[1] * 1.6))
    else:
        work = size
    cards = []
    for lab in labels:
        f = font if font is not None else STANDARD_FONTS[int(rng.integers(len(STANDARD_FONTS)))]
        cards.append(render_joker() if lab == "JOKER" else render_standard_card(lab[:-1], lab[-1], font=f))
    if tilt > 0:  # lay the cards where the photo's trapezoid sees them
        inner = (int(work[0] * (1 - 0.5 * tilt) * 0.95), work[1])
        quads = [q + np.float32([(work[0] - inner[0]) / 2, 0])
                 for q in layout_quads(layout, len(cards), inner, rng, angle)]
    else:
        quads = layout_quads(layout, len(cards), work, rng, angle)
    scene = table(kind, work, rng)
    for card, quad in zip(cards, quads):
        scene = paste_card(scene, card, quad)
    if tilt > 0:
        scene, quads = seated_view(scene, quads, tilt, size)
    scene = photo_effects(scene, rng, blur=float(rng.uniform(0.3, 1.2)), glare=rng.random() < 0.5)
    return scene, quads
