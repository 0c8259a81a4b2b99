"""Spite & Malice ("Gatto e topo", "Cat and Mouse") refereed from what the table shows (RULES.md §3): the
game's public module.

The referee never sees a hand, the stock or the cards under a pay-off top: a hand is a count, and every
card the table names is face up as it is named (SM-K9). ``apply`` validates one entry and returns the next
state and its events (who starts, the draws owed, completed piles, the win, the end when the stock runs
out, points and the match), or raises a :class:`Ruling` (state unchanged).

Entries (JSON form in ``spite_malice_moves``): ``top`` (a pay-off top turned up, entered by any phone),
``start`` (who starts, when the tops cannot say), ``draw`` (cards from the stock; the count may be left
to the referee), ``build`` (one card from the hand, the pay-off top or a side-stack top onto a building
pile; a free place starts a pile) and ``discard`` (one hand card onto one's own side stack, ending the
turn); plus the log's override, correction, undo and flag decision.

Where RULES.md §3 is silent or leaves a choice, the engine follows its default and says so here:

* A card value nobody entered is unknown (GEN-14) everywhere: a pay-off top, a build, a discard. An
  unknown card built on a pile counts as the rank the pile needs (the pile's rank is its card count), and
  a claim against an unknown top is taken as the top's value. Checks that need the value are skipped.
* A card may be entered by its full code ("7H", from a photo) or by its bare rank ("7", a rank button):
  suits do not matter in this game. Both count against the 8 copies of a rank (SM-K7); full codes also
  against the 2 copies of a code (GEN-3).
* Draws are entries (``draw``), so the arithmetic of SM-K3 is checked: the engine works out the number
  owed (SM-10, SM-16, SM-V5), refuses building or discarding before the draw (overridable), and refuses a
  draw of another number (overridable; then the table's count stands).
* SM-K8: a pay-off build while the new top is not yet entered is refused (overridable); "unknown" is a
  valid top, which lets the build name the card.
* SM-41 (SM-A6 default): the game ends the moment a required draw exceeds the stock, that is right after
  the discard that hands the turn on (start-of-turn refill), or the discard itself (end-of-turn refill),
  or the build that empties the hand (SM-16); set-aside piles (SM-V13) are shuffled in first.
* SM-19: moves the referee cannot record (pay-off or side-stack card onto a side stack, a card off a
  building pile) are refused outright, not overridable: the card has to go back. Moves onto another
  player's piles cannot be entered at all (every entry names its player's own piles).
* SM-18 with fixed places: side stacks are places 1..max (SM-V3); an empty place may be reused. A discard
  onto any other place is refused outright, not overridable: the referee has no place to show it in.
  Building piles keep their places too: a completed pile frees its place, a new pile takes the first free
  place (or the place entered, if free).
* SM-V8 ``off`` plays a single game (as the switch table says), not "until the players agree" (SM-43's
  wording); with SM-V7 ``none`` there are no points, so every game is a match of its own.
* Three or four players (SM-V14) use three decks; the switch is set from the number of players. The winner
  of a pay-off game scores 5 + every other player's pay-off cards (``pagat_5_plus``) or that sum alone
  (``cards_left``); at stock exhaustion the fewest pay-off cards win, a tie for fewest is a draw, and
  ``difference`` scores the gap to the next fewest. RULES.md only speaks of two players here.
* SM-V10 ``redo``: only a king (or joker) top is shuffled back and turned again, not both tops. Under
  ``coin_flip`` (SM-V9) the table enters who won the toss; the start is checked to be one of the tied.
* SM-V11: jokers are wild like kings, kings stay wild; in the start comparison a joker counts as a king.
* SM-V12 ``same_or_one_lower`` (⚠ in RULES.md): a card on a non-empty side stack must be the same rank as
  its top or one lower; a king goes anywhere and anything goes on a king.
* SM-A9 (``payoff_compulsory``, off by default) is offered as a switch: a discard is refused while the
  known pay-off top fits straight on a pile.
* Nothing entered is private (a hand's cards are never asked for), so ``redact`` returns the log whole
  and every seat's view is the same table.

The engine lives in ``spite_malice_state`` (frozen state, JSON form), ``spite_malice_rules`` (switches,
deck, building ranks), ``spite_malice_apply`` (the deal and entries), ``spite_malice_view`` (who acts,
what a seat sees and may enter), ``spite_malice_moves`` (entries), ``spite_malice_table`` (cards, photos,
result), ``spite_malice_forms`` (phone forms); this module gathers the names of ``interface.Game``.
"""
from __future__ import annotations

import sys
from typing import Any, Mapping

from . import rulebook as _rulebook
from .base import EntryError, Flag, Override, ResolveFlag, Ruling  # noqa: F401
from .spite_malice_apply import apply, deal, entry_outcome, new_match, standing  # noqa: F401
from .spite_malice_forms import entry_from_form, entry_to_form  # noqa: F401
from .spite_malice_moves import (Build, Discard, Draw, Start, Top, describe, move_to_dict,  # noqa: F401
                                 parse_move as _parse_move)
from .spite_malice_presets import PRESETS  # noqa: F401
from .spite_malice_rulebook import HOUSE_RULE_WORDS, RULE_BOOK  # noqa: F401
from .spite_malice_rules import (APPLIES_WHEN, MAX_PLAYERS, MIN_PLAYERS, NUMBER_WORDS, VARIANTS,  # noqa: F401
                                 WORDS as SWITCH_WORDS)
from .spite_malice_state import NAME, TITLE, State, state_from_dict, state_to_dict, zone_counts  # noqa: F401
from .spite_malice_table import (CLAIMS, DECK_KINDS, DECKS, ENGINE_VERSION, PICK_MOVES, SIMULTANEOUS, TEMPLATES,  # noqa: F401
                                 card_label, cards, redact, result, scan_spec)
from .spite_malice_view import free_place, legal_moves, may_act, still_possible, to_act, view  # noqa: F401


def parse_move(data: Any, players: tuple[str, ...], rules: Mapping[str, Any] | None = None,
               where: str = "entry"):
    """An entry's JSON form -> a move (any standard card, bare rank or joker; the engine checks the deck)."""
    return _parse_move(data, players, where=where)


def rule_text(rule: str, rules: Mapping[str, Any] | None = None) -> str:
    """A rule this game can cite (its own or a general one), in plain words; "" if unknown. With the
    table's ``rules``, as they read under its house rules (SM-12 where a king may not start a pile)."""
    return _rulebook.house_rule_words(HOUSE_RULE_WORDS, rule, rules) or _rulebook.rule_text(rule, sys.modules[__name__])
