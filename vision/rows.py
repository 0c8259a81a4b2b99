"""Which slot of a row each card found lies in (a player's four cards, laid in a row).

Cards found are not simply numbered left to right: when one is not found, the cards after it
would slide into the wrong slots. Positions along the row decide instead. The row's direction is
that of the cards' centres (or across the photo for a lone card); the pitch (centre to centre)
is the smallest gap between neighbours, divided by the number of slots it spans (a pitch is at
least a card's width and typically a quarter more); and when the cards found span fewer slots
than the row has, the missing ones go where the photo has room for them, the row centred in it.
"""

from __future__ import annotations

import numpy as np

TYPICAL_PITCH = 1.25  # centre to centre, in card widths, for cards laid a little apart
MIN_PITCH = 0.9  # cards of a row can touch, but do not lie over each other
STEEP = 0.5  # a row whose direction has less than this across the photo runs down it (steeper than 60°)


def _axis(centres: np.ndarray, quads: list[np.ndarray]) -> np.ndarray:
    """Unit direction of the row: pointing right on screen, or down when the row runs more down the
    photo than across it (a photo taken turned a quarter: the cards then lie on their sides)."""
    if len(centres) < 2:
        u = _across(quads)
    else:
        _, _, vt = np.linalg.svd(centres - centres.mean(axis=0))
        u = vt[0]
        # a steep "row" of two upright cards is more likely two cards askew than a column
        if len(centres) == 2 and abs(u[0]) < 0.5 and abs(_across(quads)[0]) >= 0.5:
            u = np.array([1.0, 0.0])
    if abs(u[0]) < STEEP:
        return u if u[1] >= 0 else -u
    return u if u[0] >= 0 else -u


def _across(quads: list[np.ndarray]) -> np.ndarray:
    """The direction across the cards (along their short sides), the median over ``quads``: the way a
    row of them runs."""
    sides = []
    for q in quads:
        a, b = q[1] - q[0], q[2] - q[1]
        side = a if np.hypot(*a) <= np.hypot(*b) else b
        side = side / max(float(np.hypot(*side)), 1e-9)
        pointing = side[0] if abs(side[0]) >= abs(side[1]) else side[1]  # right, or down when steep
        sides.append(side if pointing >= 0 else -side)
    u = np.median(np.array(sides), axis=0)
    return u / max(float(np.hypot(*u)), 1e-9)


def runs_down(outlines: list[np.ndarray]) -> bool:
    """Whether a row of these outlines runs down the photo rather than across it (``place_in_row``
    then numbers its slots from the top: which end is the player's left the photo cannot tell)."""
    if not outlines:
        return False
    quads = [np.asarray(q, float).reshape(4, 2) for q in outlines]
    if len(quads) == 4 and _square_of_four(quads) is not None:
        return False
    centres = np.array([q.mean(axis=0) for q in quads])
    return abs(_axis(centres, quads)[0]) < STEEP


def upside_down(turned: list[bool | None]) -> bool:
    """Whether a row lies upside down in its photo (taken from across the table), from each card's
    ``CardRead.turned``: at least two cards say so and none says upright. The player's left is then
    the photo's right: ``place_in_row``'s slots are taken the other way round. A face's way up is the
    way it lay when taught: a deck taught from cards lying every which way says "turned" of some
    upright cards, and a row whose faces disagree keeps the photo's order (reversed on a majority,
    an upright row of three faces taught upside down and one taught upright was read backwards)."""
    up, down = sum(1 for t in turned if t is False), sum(1 for t in turned if t is True)
    return down >= 2 and up == 0


def _pitch(gaps: np.ndarray, width: float, slots: int) -> float:
    """Centre-to-centre distance of neighbouring slots, from the smallest gap between cards found."""
    smallest = float(gaps.min())
    spans = [m for m in range(1, slots) if smallest / m >= MIN_PITCH * width] or [1]
    return min((smallest / m for m in spans), key=lambda p: abs(p - TYPICAL_PITCH * width))


OFF_LINE = 0.5  # a card whose centre lies further than this share of its height off the row's line is not in it


def lay_of(outlines: list[np.ndarray]) -> str:
    """How the cards found lie: "square" (four in two rows of two, as Cambio deals them), "scattered" (a
    card's centre more than OFF_LINE of a card's height off the line through them: the places
    ``place_in_row`` gives are a guess) or "row"."""
    quads = [np.asarray(q, float).reshape(4, 2) for q in outlines]
    if len(quads) == 4 and _square_of_four(quads) is not None:
        return "square"
    if len(quads) < 3:
        return "row"
    centres = np.array([q.mean(axis=0) for q in quads])
    u = _axis(centres, quads)
    normal = np.array([-u[1], u[0]])
    off = np.abs((centres - centres.mean(axis=0)) @ normal)
    height = float(np.median([max(np.ptp(q @ u), np.ptp(q @ normal)) for q in quads]))
    return "scattered" if float(off.max()) > OFF_LINE * height else "row"


def place_in_row(outlines: list[np.ndarray], frame: tuple[int, int], slots: int = 4) -> list[int | None]:
    """For each slot, left to right, the index (into ``outlines``) of the card lying there, or None.

    ``frame`` is the photo's (width, height). With more cards than slots, the largest are placed.
    Four cards laid in a square (two rows of two, as Cambio deals them) are placed row by row: the
    far row's left and right, then the near row's.
    """
    if not outlines:
        return [None] * slots
    quads = [np.asarray(q, float).reshape(4, 2) for q in outlines]
    square = _square_of_four(quads) if slots == 4 else None
    if square is not None:
        return square
    chosen = sorted(range(len(quads)), key=lambda i: -abs(_area(quads[i])))[:slots]
    centres = np.array([quads[i].mean(axis=0) for i in chosen])
    u = _axis(centres, [quads[i] for i in chosen])
    t = centres @ u
    order = np.argsort(t)
    chosen, t = [chosen[i] for i in order], t[order]
    width = float(np.median([np.ptp(quads[i] @ u) for i in chosen]))
    w, h = frame
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], float) @ u
    lo, hi = float(corners.min()), float(corners.max())
    if len(chosen) == 1:  # a lone card: its slot is its quarter of the photo
        first = int(np.clip((t[0] - lo) // ((hi - lo) / slots), 0, slots - 1))
        out: list[int | None] = [None] * slots
        out[first] = chosen[0]
        return out
    gaps = np.diff(t)
    # two outlines with one centre (two reads of one place) make no pitch: a card's width then
    floor = max(MIN_PITCH * width, 1.0)
    pitch = _pitch(gaps, width, slots)
    pitch = pitch if pitch > 0 else floor
    steps = np.maximum(1, np.round(gaps / pitch)).astype(int)
    if steps.sum() + 1 > slots:  # spread wider than the row: the pitch is the row's length shared out
        pitch = max((t[-1] - t[0]) / (slots - 1), 1e-6)
        steps = np.maximum(1, np.round(gaps / pitch)).astype(int)
        while steps.sum() + 1 > slots and steps.max() > 1:
            steps[int(np.argmax(steps))] -= 1
    offsets = np.concatenate([[0], np.cumsum(steps)])
    span = int(offsets[-1]) + 1

    def fits(start: int) -> bool:  # every missing slot's centre lies inside the photo
        for j in range(slots):
            if j - start not in offsets:
                c = t[0] + (j - start) * pitch
                if not lo <= c <= hi:
                    return False
        return True

    def off_centre(start: int) -> float:
        row_centre = t[0] + ((slots - 1) / 2 - start) * pitch
        return abs(row_centre - (lo + hi) / 2)

    starts = range(slots - span + 1)
    start = min(starts, key=lambda s: (not fits(s), off_centre(s)))
    out = [None] * slots
    for index, offset in zip(chosen, offsets):
        out[start + int(offset)] = index
    return out


def _area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def _square_of_four(quads: list[np.ndarray]) -> list[int] | None:
    """Four cards in two rows of two (the photo upright, the far row at its top), in reading order; None
    when they do not lie so (a row, a fan, more or fewer cards)."""
    if len(quads) != 4:
        return None
    centres = [q.mean(axis=0) for q in quads]
    height = float(np.median([np.ptp(q[:, 1]) for q in quads]))
    width = float(np.median([np.ptp(q[:, 0]) for q in quads]))
    by_y = sorted(range(4), key=lambda i: centres[i][1])
    top, bottom = sorted(by_y[:2], key=lambda i: centres[i][0]), sorted(by_y[2:], key=lambda i: centres[i][0])
    rows_apart = min(centres[i][1] for i in bottom) - max(centres[i][1] for i in top) > 0.6 * height
    level = all(abs(centres[a][1] - centres[b][1]) < 0.4 * height for a, b in (top, bottom))
    side_by_side = all(abs(centres[a][0] - centres[b][0]) > 0.6 * width for a, b in (top, bottom))
    return [*top, *bottom] if rows_apart and level and side_by_side else None
