"""Shithead (Palace, Karma) refereed from what the table shows (RULES.md §4): the game's public module.

The referee never sees a hand or a face-down card: a hand is a count plus the cards the table saw go
into it. ``apply`` validates one entry and returns the next state and its events (burns, draws, skips
and who plays next are worked out for the table), or raises a :class:`Ruling` (state unchanged).

The engine lives in ``shithead_state`` (frozen state, JSON form), ``shithead_logic`` (the pile's rules),
``shithead_apply`` (the deal and entries), ``shithead_view`` (who acts, what a seat sees and may enter),
``shithead_moves`` (entries), ``shithead_table`` (cards, photos, result); this module gathers the names
of the game interface (``interface.Game``).
"""
from __future__ import annotations

import sys
from typing import Any, Mapping

from . import rulebook as _rulebook
from .base import EntryError, Flag, Override, ResolveFlag, Ruling  # noqa: F401
from .shithead_apply import apply, deal, failed_play, new_match, next_dealer  # noqa: F401
from .shithead_forms import entry_from_form, entry_to_form  # noqa: F401
from .shithead_moves import (Add, FaceUp, Interrupt, Pickup, Play, Start, Swap, describe,  # noqa: F401
                             move_to_dict, parse_move as _parse_move)
from .shithead_presets import PRESETS  # noqa: F401
from .shithead_rulebook import HOUSE_RULE_WORDS, RULE_BOOK  # noqa: F401
from .shithead_rules import (APPLIES_WHEN, MAX_PLAYERS, MIN_PLAYERS, NUMBER_WORDS, VARIANTS,  # noqa: F401
                             WORDS as SWITCH_WORDS)
from .shithead_state import NAME, TITLE, State, state_from_dict, state_to_dict  # noqa: F401
from .shithead_table import (CLAIM_DISPUTES, CLAIMS, DECK_KINDS, DECKS, ENGINE_VERSION, PICK_MOVES, SIMULTANEOUS, TEMPLATES,  # noqa: F401
                             card_label, cards, redact, result, scan_spec)
from .shithead_view import can_add, can_interrupt, combos, legal_moves, may_act, still_possible, to_act, view  # noqa: F401


def parse_move(data: Any, players: tuple[str, ...], rules: Mapping[str, Any] | None = None,
               where: str = "entry"):
    """An entry's JSON form -> a move (any standard card or joker; the engine checks the match's deck)."""
    return _parse_move(data, players, where=where)


def rule_text(rule: str, rules: Mapping[str, Any] | None = None) -> str:
    """A rule this game can cite (its own or a general one), in plain words; "" if unknown. With the
    table's ``rules``, as they read under its house rules (SH-12 without the 3 under SH-V1)."""
    return _rulebook.house_rule_words(HOUSE_RULE_WORDS, rule, rules) or _rulebook.rule_text(rule, sys.modules[__name__])
