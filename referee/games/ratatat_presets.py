"""Ready-made house rules for Rat-a-Tat Cat, offered as big choices on the new-table form.

Plain data: each preset names only the switches it changes from the publisher's rules (RULES.md §1.9);
where the seed (Hebrew Wikipedia) and common family play differ is RULES.md §1.8 and SOURCES.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Preset:
    key: str
    name: str
    description: str
    rules: dict[str, Any] = field(default_factory=dict)


PRESETS: tuple[Preset, ...] = (
    Preset("publisher", "The publisher's rules",
           "Gamewright's rule sheet: Draw 2 lets you draw twice, but using the first card loses the second; "
           "three rounds, lowest total wins."),
    Preset("seed", "As told on Hebrew Wikipedia",
           "Draw 2 gives two whole extra turns; the drawn card is turned face up, then you take it or the top "
           "discard.",
           {"draw2_mode": "seed_two_turns", "seed_reveal_then_choose": True}),
    Preset("family", "Common family rules",
           "As English Wikipedia tells it: only number cards go into your row, and you are out only when you "
           "go over 100; the last player in wins.",
           {"power_into_row": "forbidden", "game_end_mode": "elimination", "elimination_inclusive": False}),
    Preset("younger", "For younger players",
           "The publisher's rules, with the two outer cards turned face up for everyone to see at the start; "
           "only face-down cards can be swapped.",
           {"initial_peek": "outer_face_up"}),
    Preset("to100", "Out at 100",
           "The publisher's longer game: play round after round; reaching 100 puts you out, and the last "
           "player in wins.",
           {"game_end_mode": "elimination"}),
)

BY_KEY: dict[str, Preset] = {p.key: p for p in PRESETS}
DEFAULT = "publisher"
