"""The Cabo / Cambio presets (RULES.md §2.3): plain data, each naming only the switches it changes from
the Cabo 2nd edition (the switches' defaults, ``cabo_rules.VARIANTS``).

The family's fourth preset, ``rtc_classic``, is Rat-a-Tat Cat itself (``referee.games.ratatat``): its
own deck, Draw 2 and reveal-time replacement of power cards, on the same family core
(``hidden4_entry``), with its transcripts and snapshots unchanged.
"""
from __future__ import annotations

from .interface import Preset

PRESETS: tuple[Preset, ...] = (
    Preset("cabo_2e", "Cabo, 2nd edition (Bezier Games)",
           "The Cabo deck (0 to 13). Look at any two cards. Swap a set of equal cards for the card you keep; a "
           "wrong claim keeps them face up, plus the new card. Cards taken from the discard pile stay face up. "
           "Call instead of a turn; the caller scores 0 with the lowest sum, ties too, else the sum plus 10. "
           "Kamikaze. Exactly 100 drops to 50 once; over 100 ends the match. The round also ends when the draw "
           "pile runs out.", {}),
    Preset("cabo_1e", "Cabo, 1st edition",
           "The Cabo deck. Swap a set of equal cards for the card you keep; a wrong claim only loses that card. "
           "The lowest sum scores 0, a caller who is not lowest pays 5 more. Kamikaze. Exactly 100 drops to 50 "
           "every time; over 100 ends the match. An empty draw pile is remade from the discard pile.",
           {"matching_exchange": "no_penalty", "discard_taken_face_up": False, "round_score": "cabo_1e",
            "tie_policy": "all_lowest", "exact_100_reset": "unlimited", "deck_out_ends_round": False}),
    Preset("cambio_common", "Cambio (standard deck, common rules)",
           "A standard deck with two jokers: a red king scores minus 1, a joker 0, a black king 13. Look at the "
           "two cards nearest you. Snap a card of the same rank onto any fresh discard, out of turn; a wrong "
           "snap costs a card. Jacks and queens swap blind, black kings look and swap. Call instead of a turn; "
           "the caller's cards are locked and a caller who ties loses. Four rounds, lowest total wins.",
           {"deck": "standard_jokers", "initial_look": "nearest_two", "matching_exchange": "off",
            "snap_enabled": True, "discard_taken_face_up": False, "round_score": "plain",
            "tie_policy": "all_lowest_except_caller", "kamikaze": False, "exact_100_reset": "off",
            "game_end": "rounds", "deck_out_ends_round": False, "next_round_order": "clockwise"}),
)

BY_KEY: dict[str, Preset] = {p.key: p for p in PRESETS}
DEFAULT = "cabo_2e"
