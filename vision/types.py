"""Result types shared by the recognisers."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

ACCEPT = 0.7  # a label is given only at or above this confidence


@dataclass
class CardRead:
    """One card found in a photo.

    label: e.g. "10H", "QS", "JOKER", "7" or "PEEK"; None when the card is not identified surely.
    confidence: 0..1 for the label (or for the best guess when label is None).
    outline: 4 corner points (x, y) in the pixel coordinates of the image given to recognise(),
        clockwise on screen, starting on one of the card's short edges.
    alternatives: (label, confidence) best first, including the best guess.
    anchor: where the card shows, for its label in the photo shown back (a card found only by
        its index: beside that index); None for the outline's centre.
    turned: True when the card lies upside down in the photo (its face read the other way up: a
        taught deck whose faces are not the same both ways up), False upright, None not known (a
        standard card's two corners read alike either way, or a photo with one card read: a row's order
        is what it is for).
    """

    label: str | None
    confidence: float
    outline: np.ndarray
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    anchor: np.ndarray | None = None
    turned: bool | None = None

    def to_dict(self) -> dict:
        return {
            "label": self.label,
            "confidence": round(float(self.confidence), 4),
            "outline": [[round(float(x), 1), round(float(y), 1)] for x, y in self.outline],
            "alternatives": [[lab, round(float(c), 4)] for lab, c in self.alternatives],
        }
