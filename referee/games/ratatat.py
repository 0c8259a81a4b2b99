"""Rat-a-Tat Cat refereed from what the table shows (RULES.md §1): the game's public module.

The referee never sees the deck: a card is a :class:`Token` whose value is public, privately noted by
the players who saw it, or unknown. ``apply`` validates one entry against the rules and the house rules,
and returns the next state and the events it caused, or raises a :class:`Ruling` (state unchanged).

The engine lives in ``ratatat_state`` (the frozen state and its JSON form), ``ratatat_apply`` (the deal
and applying entries), ``ratatat_view`` (what a seat sees and may enter), ``ratatat_moves`` (entries),
``ratatat_scoring`` and ``ratatat_redact``; this module gathers the names the rest of the app uses.
"""
from __future__ import annotations

from typing import Any, Mapping

from .base import EntryError, Flag, Override, ResolveFlag, Ruling  # noqa: F401
from .ratatat_cards import RTC_DECKS
from .ratatat_apply import apply, deal, entry_outcome, new_match  # noqa: F401
from .hidden4_entry import cards_moved  # noqa: F401  (whose cards another's entry moved)
from .ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace, Reshuffle, Reveal,  # noqa: F401
                            RevealDraw, Stalemate, Swap, TakeDiscard, TimeUp, TurnUp, UsePower,
                            describe, move_to_dict, parse_move as _parse_move)
from .ratatat_redact import hide_private, redact  # noqa: F401
from .ratatat_rules import MAX_PLAYERS, MIN_PLAYERS, SLOTS, VARIANTS  # noqa: F401
from .ratatat_state import (HIDDEN, NAME, TITLE, Round, RoundResult, State, Token,  # noqa: F401
                            awaiting_flags, reveal_complete, state_from_dict, state_to_dict)
from .ratatat_view import legal_moves, still_possible, view, zone_counts  # noqa: F401

# ENGINE_VERSION (the tag of the store's snapshots) comes with the game interface, at the bottom.
__all__ = ["NAME", "TITLE", "ENGINE_VERSION", "VARIANTS", "State", "Token", "new_match", "apply", "legal_moves",
           "view", "parse_move", "move_to_dict", "describe", "state_to_dict", "state_from_dict", "redact", "hide_private",
           "awaiting_flags"]


def parse_move(data: Any, players: tuple[str, ...], rules: Mapping[str, Any] | None = None,
               where: str = "entry"):
    deck = RTC_DECKS[(rules or {}).get("edition", "classic_54")]
    return _parse_move(data, players, deck, where)



# --- The game interface (interface.Game): the table, forms, rule book and house rules in words -------
from . import rulebook as _rulebook  # noqa: E402
from .ratatat_forms import entry_from_form, entry_to_form  # noqa: E402,F401
from .ratatat_presets import PRESETS  # noqa: E402,F401
from .ratatat_rulebook import HOUSE_RULE_WORDS, RULE_BOOK  # noqa: E402,F401
from .ratatat_rules import APPLIES_WHEN, NUMBER_WORDS, WORDS as SWITCH_WORDS  # noqa: E402,F401
from .ratatat_table import (DECK_KINDS, DECKS, ENGINE_VERSION, FOLLOW_UPS, PICK_MOVES, SIMULTANEOUS, TEMPLATES, card_label, cards, may_act,  # noqa: E402,F401
                            result, scan_spec, to_act)


def rule_text(rule: str, rules: Mapping[str, Any] | None = None) -> str:
    """A rule this game can cite (its own or a general one), in plain words; "" if unknown. With the
    table's ``rules``, as they read under its house rules (RTC-20 where calling is a turn)."""
    import sys

    return _rulebook.house_rule_words(HOUSE_RULE_WORDS, rule, rules) or _rulebook.rule_text(rule, sys.modules[__name__])
