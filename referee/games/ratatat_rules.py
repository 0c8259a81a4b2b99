"""Rat-a-Tat Cat house rules: every RTC-V switch of RULES.md §1.9 with its default, and its words.

Keys, defaults and choice values are part of the transcript format: never change them. Labels, help
and ``WORDS`` are what people read, on the new-table form, the rules page and the table screen.
"""
from __future__ import annotations

from typing import Any

from .base import Variant

TIE_POLICIES = ("all_lowest", "all_lowest_except_caller", "no_winner", "caller_wins_ties")

VARIANTS: tuple[Variant, ...] = (
    Variant("tie_policy", "RTC-V1", "Ties in a round", "all_lowest", TIE_POLICIES,
            help="Who wins a round when several players share the lowest score."),
    Variant("draw2_mode", "RTC-V2", "Draw 2", "official_forfeit", ("official_forfeit", "seed_two_turns"),
            help="The publisher: draw up to two cards, and using the first one loses the second. "
                 "Hebrew Wikipedia: two whole extra turns in a row."),
    Variant("draw2_source", "RTC-V3", "Draw 2 cards come from", "draw_pile_only",
            ("draw_pile_only", "discard_allowed"),
            help="Whether a Draw 2 may take the top of the discard pile instead of drawing."),
    Variant("power_from_discard", "RTC-V4", "A power card on the discard pile", "forbidden",
            ("forbidden", "allowed_no_power"), help="Whether a power card thrown away may be picked up again."),
    Variant("power_into_row", "RTC-V5", "A drawn power card", "allowed", ("allowed", "forbidden"),
            help="Whether a power card just drawn may go into your row (it is swapped for a number card "
                 "at the end), or must be used or thrown away."),
    Variant("power_use_optional", "RTC-V6", "Using a drawn power", True, (True, False),
            help="Whether a player may throw a drawn power card away without using it."),
    Variant("peek_scope", "RTC-V7", "A Peek looks at", "own", ("own", "any_table_card"),
            help="Which cards a Peek may look at."),
    Variant("initial_peek", "RTC-V8", "At the start, each player looks at", "outer_private",
            ("outer_private", "outer_face_up", "any_two"),
            help="The one look before the first turn. Face up is the publisher's rule for younger players; "
                 "then only face-down cards may be swapped."),
    Variant("call_timing", "RTC-V9", "A player calls", "end_of_turn", ("end_of_turn", "instead_of_turn"),
            help="When “Rat-a-Tat Cat” may be called."),
    Variant("min_rotations_before_call", "RTC-V10", "Full rounds of turns before anyone may call", 0,
            help="0 lets anyone call from their first turn."),
    Variant("caller_protected_after_call", "RTC-V11", "The caller's cards after the call", False,
            (False, True), help="Whether the others may still swap the caller's cards in their last turns."),
    Variant("reveal_replacement_source", "RTC-V12", "At the end, power cards are replaced from", "draw_pile",
            ("draw_pile", "discard_pile"), help="Where the number card comes from that replaces each power "
                                                "card in a row when the cards are turned up."),
    Variant("reshuffle_keeps_top_discard", "RTC-V13", "When the draw pile runs out", False,
            (False, True), help="Whether the top discard stays out when the discard pile is shuffled."),
    Variant("game_end_mode", "RTC-V14", "The match ends", "rounds", ("rounds", "timed", "elimination"),
            help="The match ends after a number of rounds, after a set time, or when all but one player "
                 "are out."),
    Variant("rounds_n", "RTC-V14", "Number of rounds", 3, minimum=1,
            help="How many rounds the match lasts; the lowest total wins."),
    Variant("minutes", "RTC-V14", "Minutes of play", 60, minimum=1,
            help="When time is up the round being played is finished; the lowest total wins."),
    Variant("elimination_threshold", "RTC-V15", "A player is out at", 100, minimum=1,
            help="The total that puts a player out; the last player in wins."),
    Variant("elimination_inclusive", "RTC-V15", "Reaching exactly that total", True, (True, False),
            help="The box says reaching it puts you out; Wikipedia says only going over it does."),
    Variant("edition", "RTC-V16", "The deck", "classic_54", ("classic_54", "deluxe_65"),
            help="The classic 54-card deck, or the deluxe 65-card deck with Super Peek cards."),
    Variant("dealer_rotation", "RTC-V17", "Who deals the next round", "clockwise",
            ("clockwise", "loser_deals", "fixed"),
            help="The deal normally passes one seat to the left each round."),
    Variant("stalemate_rotations", "RTC-V18", "A round with no call", None, minimum=1,
            allow_none=True, help="Not in the publisher's rules: a way to stop a round nobody calls."),
    Variant("game_tie_break", "RTC-V19", "Players tied at the end of the match", "shared",
            ("shared", "extra_round"),
            help="What happens when players share the lowest total at the end of the match."),
    Variant("seed_reveal_then_choose", "RTC-V20", "A card drawn from the draw pile", False, (False, True),
            help="Hebrew Wikipedia's turn read literally: the drawn card is turned up, then the player takes it or "
                 "the top discard."),
)

# Each choice in words, to finish the switch's label: "Ties in a round: everyone on the lowest score wins".
WORDS: dict[str, dict[Any, str]] = {
    "tie_policy": {
        "all_lowest": "everyone on the lowest score wins the round",
        "all_lowest_except_caller": "everyone on the lowest score wins, but a caller who ties loses",
        "no_winner": "nobody wins the round",
        "caller_wins_ties": "the caller wins if they are among the lowest",
    },
    "draw2_mode": {
        "official_forfeit": "draw up to two cards; using the first one loses the second",
        "seed_two_turns": "two whole extra turns in a row",
    },
    "draw2_source": {"draw_pile_only": "the draw pile only",
                     "discard_allowed": "the draw pile or the discard pile"},
    "power_from_discard": {"forbidden": "cannot be taken",
                           "allowed_no_power": "may be taken into your row, with no power"},
    "power_into_row": {"allowed": "may go into your row", "forbidden": "must be used or thrown away"},
    "power_use_optional": {True: "is up to the player", False: "is a must"},
    "peek_scope": {"own": "one of your own cards", "any_table_card": "any card on the table"},
    "initial_peek": {"outer_private": "their two outer cards, secretly",
                     "outer_face_up": "their two outer cards, turned face up for all (younger players)",
                     "any_two": "any two of their cards, secretly"},
    "call_timing": {"end_of_turn": "at the end of their turn", "instead_of_turn": "instead of taking a turn"},
    "min_rotations_before_call": {0: "none"},
    "caller_protected_after_call": {False: "can still be swapped", True: "are locked, so nobody may swap them"},
    "reveal_replacement_source": {"draw_pile": "the draw pile", "discard_pile": "the discard pile"},
    "reshuffle_keeps_top_discard": {False: "the whole discard pile is shuffled into a new draw pile",
                                    True: "the top discard stays; the rest is shuffled into a new draw pile"},
    "game_end_mode": {"rounds": "after a number of rounds", "timed": "after a set time",
                      "elimination": "when all but one player are out"},
    "elimination_inclusive": {True: "puts a player out", False: "does not put a player out (only going over it)"},
    "edition": {"classic_54": "classic, 54 cards", "deluxe_65": "deluxe, 65 cards with Super Peeks"},
    "dealer_rotation": {"clockwise": "the next player to the left", "loser_deals": "whoever scored highest",
                        "fixed": "the same dealer all match"},
    "stalemate_rotations": {None: "goes on until someone calls"},
    "game_tie_break": {"shared": "share the win", "extra_round": "play one more round between them"},
    "seed_reveal_then_choose": {False: "is seen only by the player who drew it",
                                True: "is turned face up, then the player takes it or the top discard"},
}

# Number switches in words: (one, many), with {n} for the number.
NUMBER_WORDS: dict[str, tuple[str, str]] = {
    "min_rotations_before_call": ("{n} full round of turns", "{n} full rounds of turns"),
    "rounds_n": ("{n} round", "{n} rounds"),
    "minutes": ("{n} minute", "{n} minutes"),
    "elimination_threshold": ("{n} point", "{n} points"),
    "stalemate_rotations": ("may be stopped by agreement after {n} full round of turns",
                            "may be stopped by agreement after {n} full rounds of turns"),
}

# Switches that matter only when another switch has one of some values.
APPLIES_WHEN: dict[str, tuple[str, tuple[Any, ...]]] = {
    "rounds_n": ("game_end_mode", ("rounds",)),
    "minutes": ("game_end_mode", ("timed",)),
    "elimination_threshold": ("game_end_mode", ("elimination",)),
    "elimination_inclusive": ("game_end_mode", ("elimination",)),
}

MIN_PLAYERS = 2
MAX_PLAYERS = 6
SLOTS = 4
