"""Ready-made Spite & Malice house rules for the new-table form (RULES.md §3.6, §3.7): the common rules
first (pagat's, one game to the end, the rules' defaults otherwise), then the match to 50 points, the
seed taken literally (SM-A1), and the common app rules."""
from __future__ import annotations

from .interface import Preset

PRESETS: tuple[Preset, ...] = (
    Preset("pagat_match", "Common rules (pagat), a match to 50",
           "20-card pay-off piles, up to 3 building piles, 4 side stacks each, kings wild; the winner of a game scores 5 plus the other pay-off cards; game after game until a player has 50 points.", {}),
    Preset("pagat_game", "Common rules (pagat), one game",
           "20-card pay-off piles, up to 3 building piles, 4 side stacks each, kings wild (a king may start a "
           "pile), draw back to 5 at the start of your turn. The winner scores 5 plus the other pay-off cards; "
           "if the stock runs out, fewer pay-off cards wins.", {"match_target": None}),
    Preset("seed_literal", "As the Italian guide tells it",
           "One shared building pile, draw back to 5 right after your discard, no points: the first to empty "
           "their pay-off pile wins, or whoever has fewer left when the stock runs out.",
           {"max_center_stacks": 1, "refill_timing": "end_of_turn", "scoring": "none", "match_target": None}),
    Preset("app", "Common app rules",
           "A game the stock runs out on is a draw; the winner scores the cards left in the other pay-off "
           "pile; first to 50.", {"stock_exhaustion": "draw", "scoring": "cards_left"}),
    Preset("short", "A short game",
           "10-card pay-off piles, one game, otherwise the common rules.", {"payoff_size": 10, "match_target": None}),
)
