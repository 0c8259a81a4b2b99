"""Cabo / Cambio house rules: every CAB-V switch of RULES.md §2.3 with its default (the Cabo 2nd edition,
the publisher's current rules), and its words.

Keys, defaults and choice values are part of the transcript format: never change them. RULES.md's
``value_map`` (CAB-V2) is split into one switch per card whose value varies (the Cabo deck's values are
printed on it); ``swap_power_scope`` and ``look_and_swap`` are the two halves of CAB-V14; ``tie_policy``
is Rat-a-Tat Cat's tie switch (RTC-V1, CAB-A4), with the same choices and words; ``next_round_order``
is CAB-45 (the winner plays first) or the plain deal to the left.
"""
from __future__ import annotations

from typing import Any

from .base import Variant
from .ratatat_rules import TIE_POLICIES, WORDS as RTC_WORDS

VARIANTS: tuple[Variant, ...] = (
    Variant("deck", "CAB-V1", "The deck", "cabo52", ("cabo52", "standard_jokers", "standard"),
            help="The Cabo deck (0 to 13), or a standard deck with or without its two jokers (Cambio)."),
    Variant("red_king", "CAB-V2", "A red king (heart or diamond) scores", -1, (-1, 0, -2),
            help="What the kings of hearts and diamonds are worth with a standard deck."),
    Variant("black_king", "CAB-V2", "A black king (spade or club) scores", 13, (13, 20),
            help="What the kings of spades and clubs are worth with a standard deck."),
    Variant("joker_value", "CAB-V2", "A joker scores", 0, (0, -1),
            help="What a joker is worth when the jokers are in the deck."),
    Variant("ace_value", "CAB-V2", "An ace scores", 1, (1, 0),
            help="What an ace is worth with a standard deck."),
    Variant("initial_look", "CAB-V3", "At the start, each player looks at", "any_two",
            ("any_two", "nearest_two"),
            help="The one secret look before the first turn: any two of your cards (Cabo), or the two "
                 "nearest you (Cambio)."),
    Variant("matching_exchange", "CAB-V4", "Swapping a set of equal cards for the card kept", "penalty",
            ("penalty", "no_penalty", "off"),
            help="Whether a player may throw two or more equal cards for the card they keep, and what a "
                 "wrong claim costs."),
    Variant("snap_enabled", "CAB-V5", "Snapping", False, (False, True),
            help="Whether anyone may throw a card of the same rank onto a fresh discard, out of turn."),
    Variant("snap_penalty", "CAB-V5", "A wrong snap costs", 1, (1, 2),
            help="How many face-down cards from the draw pile a wrong snap costs."),
    Variant("discard_taken_face_up", "CAB-V6", "A card taken from the discard pile", True, (True, False),
            help="Whether it stays face up in front of its new owner for the rest of the round (Cabo 2nd "
                 "edition)."),
    Variant("call_timing", "CAB-V7", "A player calls", "instead_of_turn", ("instead_of_turn", "end_of_turn"),
            help="When “Cabo” or “Cambio” may be called."),
    Variant("caller_lock", "CAB-V8", "The caller's cards after the call", True, (True, False),
            help="Whether the caller's cards are locked: nobody may swap, snap or change them."),
    Variant("round_score", "CAB-V9", "A round is scored", "cabo_2e", ("cabo_2e", "cabo_1e", "plain"),
            help="How the caller's result changes the round's scores."),
    Variant("tie_policy", "CAB-V9", "Ties in a round", "caller_wins_ties", TIE_POLICIES,
            help="Who wins a round when several players share the lowest score (the same switch as in "
                 "Rat-a-Tat Cat)."),
    Variant("kamikaze", "CAB-V10", "Kamikaze (12, 12, 13 and 13)", True, (True, False),
            help="Whether a player ending a round with exactly 12, 12, 13 and 13 scores 0 and gives everyone "
                 "else 50."),
    Variant("exact_100_reset", "CAB-V11", "A total of exactly 100", "once", ("once", "unlimited", "off"),
            help="Whether a total of exactly 100 drops to 50, and how often."),
    Variant("game_end", "CAB-V12", "The match ends", "over_100", ("over_100", "rounds"),
            help="When a total goes over 100, or after a number of rounds; the lowest total wins."),
    Variant("rounds_n", "CAB-V12", "Number of rounds", 4, minimum=1, maximum=100,
            help="How many rounds the match lasts; the lowest total wins."),
    Variant("deck_out_ends_round", "CAB-V13", "When the draw pile runs out", True, (True, False),
            help="Whether the round ends there (Cabo 2nd edition), or the discard pile is shuffled into a new "
                 "draw pile."),
    Variant("swap_power_scope", "CAB-V14", "A blind Swap exchanges", "own_other", ("own_other", "any_two"),
            help="One of your cards with another player's card, or any two cards of two different players."),
    Variant("look_and_swap", "CAB-V14", "Look-and-swap cards (standard deck)", "black_kings",
            ("black_kings", "queens", "all_kings", "off"),
            help="Which cards let a player look at one of their own cards and another player's card, then "
                 "swap them or not."),
    Variant("next_round_order", "CAB-45", "The next round", "winner_first", ("winner_first", "clockwise"),
            help="Who plays first in the next round: the last round's winner, while its loser deals (Cabo), "
                 "or the player left of the next dealer."),
)

# Each choice in words, to finish the switch's label.
WORDS: dict[str, dict[Any, str]] = {
    "deck": {"cabo52": "the Cabo deck, 0 to 13 (52 cards)",
             "standard_jokers": "a standard deck with two jokers (54 cards)",
             "standard": "a standard deck without jokers (52 cards)"},
    "red_king": {-1: "minus 1", 0: "nothing", -2: "minus 2"},
    "black_king": {13: "13", 20: "20"},
    "joker_value": {0: "nothing", -1: "minus 1"},
    "ace_value": {1: "1", 0: "nothing"},
    "initial_look": {"any_two": "any two of their cards, secretly",
                     "nearest_two": "the two cards nearest them, secretly"},
    "matching_exchange": {"penalty": "allowed; a wrong claim keeps every card face up, plus the new one",
                          "no_penalty": "allowed; a wrong claim only loses the card kept",
                          "off": "not allowed"},
    "snap_enabled": {False: "not allowed", True: "allowed, out of turn"},
    "snap_penalty": {1: "one card", 2: "two cards"},
    "discard_taken_face_up": {True: "stays face up for the rest of the round", False: "goes face down"},
    "call_timing": {"instead_of_turn": "instead of taking a turn", "end_of_turn": "at the end of their turn"},
    "caller_lock": {True: "are locked", False: "can still be swapped or snapped"},
    "round_score": {"cabo_2e": "everyone scores their sum; a caller with the lowest sum (ties too) scores 0, "
                               "otherwise their sum plus 10",
                    "cabo_1e": "the lowest sum scores 0; a caller who is not lowest scores their sum plus 5",
                    "plain": "everyone scores their sum"},
    "tie_policy": dict(RTC_WORDS["tie_policy"]),
    "kamikaze": {True: "scores 0 and gives everyone else 50", False: "is just 50 points"},
    "exact_100_reset": {"once": "drops to 50, once per player", "unlimited": "drops to 50 every time",
                        "off": "stays at 100"},
    "game_end": {"over_100": "when a total goes over 100", "rounds": "after a number of rounds"},
    "deck_out_ends_round": {True: "the round ends", False: "the discard pile but its top card is shuffled "
                                                           "into a new draw pile"},
    "swap_power_scope": {"own_other": "one of your cards with another player's",
                         "any_two": "any two cards of two different players"},
    "look_and_swap": {"black_kings": "the black kings", "queens": "the queens", "all_kings": "every king",
                      "off": "none"},
    "next_round_order": {"winner_first": "starts with the last round's winner; its loser deals",
                         "clockwise": "starts left of the next dealer, the deal passing to the left"},
}

NUMBER_WORDS: dict[str, tuple[str, str]] = {
    "rounds_n": ("{n} round", "{n} rounds"),
}

# Switches that matter only when another switch has one of some values.
APPLIES_WHEN: dict[str, tuple[str, tuple[Any, ...]]] = {
    "red_king": ("deck", ("standard_jokers", "standard")),
    "black_king": ("deck", ("standard_jokers", "standard")),
    "ace_value": ("deck", ("standard_jokers", "standard")),
    "joker_value": ("deck", ("standard_jokers",)),
    "look_and_swap": ("deck", ("standard_jokers", "standard")),
    "snap_penalty": ("snap_enabled", (True,)),
    "rounds_n": ("game_end", ("rounds",)),
}

MIN_PLAYERS = 2
MAX_PLAYERS = 8
START_SLOTS = 4   # cards dealt to each player (CAB-1)
MAX_SLOTS = 60    # places a layout can ever have (it only grows by cards of the deck)
