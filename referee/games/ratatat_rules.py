"""Rat-a-Tat Cat house rules: every RTC-V switch of RULES.md §1.9 with its default."""
from __future__ import annotations

from .base import Variant

TIE_POLICIES = ("all_lowest", "all_lowest_except_caller", "no_winner", "caller_wins_ties")

VARIANTS: tuple[Variant, ...] = (
    Variant("tie_policy", "RTC-V1", "Round ties", "all_lowest", TIE_POLICIES,
            help="Who wins a round when several players share the lowest score."),
    Variant("draw2_mode", "RTC-V2", "Draw 2", "official_forfeit", ("official_forfeit", "seed_two_turns"),
            help="Official: using the first card forfeits the second draw. Seed: two extra turns."),
    Variant("draw2_source", "RTC-V3", "Draw 2 draws from", "draw_pile_only",
            ("draw_pile_only", "discard_allowed")),
    Variant("power_from_discard", "RTC-V4", "Power card on the discard pile", "forbidden",
            ("forbidden", "allowed_no_power"), help="May a power card be taken from the discard pile?"),
    Variant("power_into_row", "RTC-V5", "Drawn power card into the row", "allowed", ("allowed", "forbidden")),
    Variant("power_use_optional", "RTC-V6", "Using a drawn power is optional", True, (True, False)),
    Variant("peek_scope", "RTC-V7", "Peek looks at", "own", ("own", "any_table_card")),
    Variant("initial_peek", "RTC-V8", "Initial peek", "outer_private",
            ("outer_private", "outer_face_up", "any_two")),
    Variant("call_timing", "RTC-V9", "When to call", "end_of_turn", ("end_of_turn", "instead_of_turn")),
    Variant("min_rotations_before_call", "RTC-V10", "Full rounds of turns before a call", 0),
    Variant("caller_protected_after_call", "RTC-V11", "Caller's cards locked after the call", False,
            (False, True)),
    Variant("reveal_replacement_source", "RTC-V12", "Power cards at reveal replaced from", "draw_pile",
            ("draw_pile", "discard_pile")),
    Variant("reshuffle_keeps_top_discard", "RTC-V13", "Reshuffle keeps the top discard", False,
            (False, True)),
    Variant("game_end_mode", "RTC-V14", "The match ends", "rounds", ("rounds", "timed", "elimination")),
    Variant("rounds_n", "RTC-V14", "Rounds in the match", 3, minimum=1),
    Variant("minutes", "RTC-V14", "Minutes (timed match)", 60, minimum=1),
    Variant("elimination_threshold", "RTC-V15", "Out at", 100, minimum=1),
    Variant("elimination_inclusive", "RTC-V15", "Out on reaching the threshold exactly", True, (True, False)),
    Variant("edition", "RTC-V16", "Edition", "classic_54", ("classic_54", "deluxe_65")),
    Variant("dealer_rotation", "RTC-V17", "Next dealer", "clockwise", ("clockwise", "loser_deals", "fixed")),
    Variant("stalemate_rotations", "RTC-V18", "Stalemate after full rounds of turns", None, minimum=1,
            allow_none=True),
    Variant("game_tie_break", "RTC-V19", "Match ties", "shared", ("shared", "extra_round")),
    Variant("seed_reveal_then_choose", "RTC-V20", "Drawn card shown, then choose", False, (False, True)),
)

MIN_PLAYERS = 2
MAX_PLAYERS = 6
SLOTS = 4
