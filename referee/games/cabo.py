"""Cabo / Cambio refereed from what the table shows (RULES.md §2): the game's public module.

Design. Rat-a-Tat Cat's standard-deck cousins are one game module, ``cabo``, whose presets ``cabo_2e``,
``cabo_1e`` and ``cambio_common`` are plain data (``cabo_presets``: the CAB-V switches each changes from the
Cabo 2nd edition). The "four hidden cards" family core is shared with Rat-a-Tat Cat by import, not copied:

* ``hidden4_entry.Entry`` — how any entry of the family is applied: overridable checks and refusals
  (GEN-5), flags, overrides and the table's decision on a flag, and what a card seen face up teaches the
  referee (GEN-3 conservation, GEN-4 consistency, GEN-6 private notes). Rat-a-Tat Cat's entry class and
  Cabo's both subclass it (it was moved out of ``ratatat_apply`` unchanged);
* ``ratatat_state.Token`` (a card as the referee knows it) and ``next_seat``; Rat-a-Tat Cat's tie switch
  and its winners (``ratatat_scoring.round_winners``, RTC-V1, CAB-A4), with the same choices and words;
* the log, overrides, undo and corrections (``log``), the JSON form (``jsonform``), the forms helpers.

Rat-a-Tat Cat itself (the family's ``rtc_classic``) stays its own module: its deck, Draw 2 and reveal-time
replacement of power cards have no Cabo counterpart, and its transcripts, snapshots and engine version
must not change. The Cabo parts are plain data too: the decks, the value map (CAB-V2) and the power map
(Peek, Spy, blind Swap, look-and-swap; CAB-7, CAB-V14) are tables in ``cabo_cards``.

The referee never sees the deck: a card is a :class:`Token` whose value is public, privately noted by the
players who saw it, or unknown (None in Python, "unknown" in JSON, valid wherever a card is entered).
A layout is a tuple of places; a place may be empty (matched or snapped away) and layouts grow (a wrong
claim, a penalty card). Entries and their JSON form are in ``cabo_moves``.

Where RULES.md §2 is silent or leaves a choice, the engine follows this default:

* CAB-1: the Cabo deck seats 2–5 players (the 1st edition's box; the 2nd edition's says 2–4), a standard
  deck 2–8. Any card may start the discard pile (Cabo has no power cards, only cards with powers).
* CAB-2 ``nearest_two``: the square is numbered 1 2 / 3 4 from the far row, so the two nearest cards are
  places 3 and 4.
* CAB-3: a card taken from the discard pile must go into a layout, so a player with no cards may not take
  it. A drawn card whose power has nothing to act on (no card to look at or swap) can only be discarded.
* CAB-5: the claimed cards are named as they are turned up; if a card was not entered, the entry says
  whether they matched (``matched``). The card kept takes the place the player names among the matched ones
  (default the first). 2nd edition, wrong claim: the cards stay face up, the card kept is added, and one
  penalty card per claimed card beyond two (RULES.md's reading of the change list, ⚠). 1st edition, wrong
  claim ("no penalty"; RULES.md is silent on the card in hand): the cards go back face down, now known to
  all, and the card in hand is discarded. A set is "equal" by rank, as for snapping (both kings are kings).
* CAB-6: a snap is open from the moment a player's move puts a card on the discard pile (not the turned-up
  first card, nor a card left by a reshuffle) until the next move of the player whose turn it is (GEN-7;
  resolving the discard's own power is part of the discard, so the snap stays open through it: RULES.md is
  silent, this is its default reading of CAB-3(a) and CAB-7), or the first card turned up at the reveal, or a
  good snap. Each player may try once per discard (a wrong
  snap ends that player's chance). The snapped card is named; if not entered, the entry says whether it
  matched. After snapping another player's card the snapper enters ``give`` (which of their own cards
  fills the gap) before anything else; a snapper with no cards left gives nothing. Penalty cards come from
  the draw pile, face down, into the first empty place (or a new place at the end); if the draw pile is
  empty the penalty is short and play goes on. The last discard of a round may still be snapped until the
  first card is turned up.
* The reveal (CAB-40): a layout is turned up whole (``reveal`` with every card, place by place) or one
  card at a time (``reveal`` with ``slot``); a card lying face up with a known value (CAB-4) needs no
  turning up, and "unknown" is fine for any card the table already knows. The round is scored once every
  layout is up and every flag raised at the reveal is decided (GEN-5). ``legal_moves`` fills in the cards
  the table already knows (the discard top, a known card leaving a layout, a known card snapped or turned
  up); the rest are left unknown for the player to name.
* CAB-K3: a face-up card that is swapped goes face down in its new place, but what the table knew of it
  moves with it (RTC-K4).
* CAB-20: one call per round; with ``call_timing = end_of_turn`` the call comes right after one's turn,
  as in Rat-a-Tat Cat.
* CAB-21: the caller's cards may still be looked at (a Spy, the look of a look-and-swap), but not swapped,
  snapped or given to; the caller may not snap either (a snap changes the snapper's cards).
* CAB-22: with deck-out on, the round ends when a turn ends with the draw pile empty (during the last turns
  after a call too); the caller, if any, is scored as a caller.
* CAB-40/41/44, CAB-V9: round winners are the lowest round scores under the tie switch; presets set it to
  match the scoring (2nd edition ``caller_wins_ties``, 1st ``all_lowest``, Cambio
  ``all_lowest_except_caller``). 1st edition: every player tied on the lowest sum scores 0, a tied caller
  included. Kamikaze needs exactly four cards worth 12, 12, 13, 13, and replaces the caller's bonus.
* CAB-43: the reset to 50 is applied after the round's scores are added, before checking for "over 100";
  the game ends when any total is over 100 and the lowest total wins; equal lowest totals share the win.
* CAB-45: a tie after the totals goes to the seat nearest the last dealer's left; if one player would both
  play first and deal, the player on their right deals.
* CAB-V12 ``rounds`` (Cambio): 4 rounds by default (RULES.md's INF default), lowest total wins, ties share.
"""
from __future__ import annotations

import sys
from typing import Any, Mapping

from . import rulebook as _rulebook
from .base import EntryError, Flag, Override, ResolveFlag, Ruling  # noqa: F401
from .cabo_apply import apply, deal, failed_play, new_match  # noqa: F401
from .hidden4_entry import cards_moved  # noqa: F401  (whose cards another's entry moved)
from .cabo_cards import DECKS as CARD_DECKS, points, power, rank  # noqa: F401
from .cabo_forms import entry_from_form, entry_to_form  # noqa: F401
from .cabo_moves import (Call, Discard, Draw, Give, InitialPeek, LookSwap, Match, Peek, Replace,  # noqa: F401
                         Reshuffle, Reveal, Snap, Swap, TakeDiscard, TurnUp, UsePower, describe, move_to_dict,
                         parse_move as _parse_move)
from .cabo_presets import PRESETS  # noqa: F401
from .cabo_redact import hide_private, redact  # noqa: F401
from .cabo_rulebook import HOUSE_RULE_WORDS, RULE_BOOK  # noqa: F401
from .cabo_rules import (APPLIES_WHEN, MAX_PLAYERS, MIN_PLAYERS, NUMBER_WORDS, VARIANTS,  # noqa: F401
                         WORDS as SWITCH_WORDS)
from .cabo_state import (NAME, TITLE, Round, RoundResult, State, Token, awaiting_flags,  # noqa: F401
                         reveal_complete, state_from_dict, state_to_dict)
from .cabo_table import (DECK_KINDS, DECKS, ENGINE_VERSION, PICK_LISTS, PICK_MOVES, SIMULTANEOUS, SCAN_MOVES, TEMPLATES, card_label,  # noqa: F401
                         cards, deck_kind, may_act, result, scan_spec, to_act)
from .cabo_view import legal_moves, still_possible, view, zone_counts  # noqa: F401

__all__ = ["NAME", "TITLE", "ENGINE_VERSION", "VARIANTS", "PRESETS", "State", "Token", "new_match", "apply",
           "legal_moves", "view", "parse_move", "move_to_dict", "describe", "state_to_dict", "state_from_dict",
           "redact", "hide_private", "awaiting_flags"]


def parse_move(data: Any, players: tuple[str, ...], rules: Mapping[str, Any] | None = None,
               where: str = "entry"):
    deck = CARD_DECKS[(rules or {}).get("deck", "cabo52")]
    return _parse_move(data, players, deck, where)


def rule_text(rule: str, rules: Mapping[str, Any] | None = None) -> str:
    """A rule this game can cite (its own or a general one), in plain words; "" if unknown. With the
    table's ``rules``, as they read under its house rules (CAB-7 names the powers of the table's deck)."""
    return _rulebook.house_rule_words(HOUSE_RULE_WORDS, rule, rules) or _rulebook.rule_text(rule, sys.modules[__name__])
