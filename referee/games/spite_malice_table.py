"""Spite & Malice at the table: the deck and what photos are for, the result, and a phone's download — the
parts of the game interface (``interface.Game``) the web layer, scans and ``referee check`` use."""
from __future__ import annotations

from typing import Any, Mapping

from .base import EntryError, changed_rules, seat_index
from .cards import RANKS, SUITS
from .interface import ScanSpec
from .spite_malice_rules import VARIANTS, VALUES, deck
from .spite_malice_state import State

#: Bumped whenever replaying a log could give another state (the store's snapshots are then rebuilt).
ENGINE_VERSION = 8  # 3: a discard onto a side stack past the next new one (a gap: 9 of 4) is refused outright
# (SM-18), an override of it no longer stands; one stack more than the most may still be let stand;
# 4: who starts (SM-7) names the pay-off tops as cards (Q♠), not as codes (QS); 5: the state keeps the entries
# that put each pile's cards there (a ruling points at them); 6: SM-K2 and SM-20 name cards as cards (9♠);
# 7: the pay-off tops turned up at the deal are owed under SM-3 (the deal), not SM-15 (a built top's next);
# 8: SM-43 between games says "shuffle all the decks together" (three or four players shuffle three decks)
TEMPLATES = "spite_malice"
#: Entries whose second step is a picker: the card of a pay-off top, a build (source, card, pile), a discard.
PICK_MOVES = ("top", "build", "discard", "build_any")  # build_any: a build that fits no pile, to be ruled on
#: Entries every player may make at the same moment, each for their own seat (the reveal, a first look):
#: one made at a version another seat's such entry has moved on is still applied (server).
SIMULTANEOUS = ("top",)
#: Entries that claim something of the whole table (who starts when the tops cannot say, SM-7): any seated
#: phone may take one back, not only the phone that made it.
CLAIMS = ("start",)
#: The standard deck is read out of the box; no deck of its own to teach.
DECKS: dict[str, dict[str, Any]] = {}
DECK_KINDS = ("standard",)
_SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def cards(state: State) -> list[str]:
    """This match's card codes, in picker order: by building rank (A to Q, then the wild K), then suit."""
    have = deck(state.decks, state.rules)
    return [r + s for r in RANKS for s in SUITS] + (["JOKER"] if "JOKER" in have else [])


def card_label(card: str | None) -> str:
    """A card on a button: "10♥", "Q♠", "7" (a rank entered without its suit), "Joker", "unknown"."""
    if card is None:
        return "unknown"
    if card == "JOKER":
        return "Joker"
    if card in VALUES:
        return card
    return card[:-1] + _SUIT_SIGNS.get(card[-1], card[-1])


def scan_spec(state: State, purpose: Mapping[str, str]) -> ScanSpec | None:
    """One card: a pay-off top (whose, from the form's ``for``), or the card of a build or a discard."""
    move = purpose.get("move", "")
    if move == "top":
        try:
            seat = seat_index(purpose.get("for", ""), state.players, "for")
        except EntryError:
            return ScanSpec(cards=1, move=move)
        return ScanSpec(cards=1, seat=seat, move=move)
    if move in ("build", "discard"):
        return ScanSpec(cards=1, move=move)
    return None


def result(state: State) -> dict[str, Any]:
    """Each game's winner, how it ended and its points, and the match's totals (§3.10 S1-S5)."""
    players = state.players
    totals = state.totals or (0,) * len(players)
    order = sorted(range(len(players)), key=lambda s: (-totals[s], s))
    return {
        # GEN-11: every switch off its default, and always the tie policy (what an empty stock does)
        "house_rules": {"stock_exhaustion": state.rules["stock_exhaustion"], **changed_rules(VARIANTS, state.rules)},
        "rounds": [h.to_dict(players) for h in state.history],
        "totals": {players[s]: totals[s] for s in range(len(players))},
        "standings": [{"player": players[s], "total": totals[s]} for s in order],
        "over": state.over,
        "winners": [players[s] for s in state.winners],
        "outcome": state.outcome,
    }


def redact(state: State, entries: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """A phone's download: whole, since every card entered at a Spite & Malice table is face up (SM-K9)."""
    return list(entries)
