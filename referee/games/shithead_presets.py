"""Ready-made Shithead house rules for the new-table form: the seed (Hebrew Wikipedia) first, then the
common rules of pagat and English Wikipedia (RULES.md §4.8), and the seed's own variants."""
from __future__ import annotations

from .interface import Preset

PRESETS: tuple[Preset, ...] = (
    Preset("seed", "As told on Hebrew Wikipedia",
           "2 resets, 3 is transparent, 10 burns, 7 and under, 8 skips, four of a kind burns, out-of-turn "
           "fours with 3 or more players; face-up cards one at a time; the last player with cards is the "
           "Shithead.", {}),
    Preset("common", "Common rules (pagat, Wikipedia)",
           "As on Hebrew Wikipedia, but face-up cards of one rank go together, and a face-up card that cannot go stays "
           "on the table while you pick up the pile.",
           {"faceup_play": "same_rank_set", "faceup_fail_takes_card": False}),
    Preset("quiet", "No interrupting",
           "Hebrew Wikipedia's rules without out-of-turn plays, for a calmer table.", {"interrupts": False}),
    Preset("first_out", "First out wins",
           "Hebrew Wikipedia's other aim: the game stops when the first player goes out, and that player wins.",
           {"end_mode": "first_out_wins"}),
    Preset("evening", "An evening of five games",
           "Five games in a row; each game's Shithead deals the next and gets a point; fewest points is best.",
           {"games": 5}),
)
