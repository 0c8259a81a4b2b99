"""Cabo / Cambio at the table: who acts, the cards and what photos are for, and the result — the parts of
the game interface (``interface.Game``) the web layer, scans and ``referee check`` use."""
from __future__ import annotations

from typing import Any, Mapping

from .base import changed_rules
from .cabo_cards import CABO_DECK, DECKS as CARD_DECKS, label
from .cabo_rules import VARIANTS
from .cabo_state import places
from .cabo_view import legal_moves, snap_moves
from .cards import RANKS, SUITS
from .interface import ScanSpec, photo_spec

#: Bumped whenever replaying a log could give another state (the store's snapshots are then rebuilt).
ENGINE_VERSION = 11  # 3: a seat's notes on one card are one claim at the reveal (its last), one GEN-4 at most;
# 4: the round keeps its exchanges of places (a first look noted late lands on the dealt card, CAB-2);
# 5: a snap that matched keeps the rank of the discard's top (CAB-6): a take naming another rank is refused
# 6: a snap stays open while the discard's power is resolved (CAB-6); a wrong snap records where its penalty went;
# 7: a GEN-3 ruling (and an override of it) points at the entries where the copies known were seen;
# 8: a GEN-3 ruling says "1 is already known" (not "1 are");
# 9: a match of one round is won on the "lowest total after 1 round" (not "1 rounds");
# 10: a GEN-3 ruling at a reveal says how many of the copies known are its own;
# 11: why a match ended is said without brackets inside its brackets ("over 100 and the lowest total wins, CAB-43")
TEMPLATES = "cabo"
#: Entries whose second step is a picker (a card, a place, a target).
PICK_MOVES = ("turn_up", "take_discard", "replace", "match", "discard", "power", "peek", "swap", "look_swap",
              "snap", "give", "draw")
#: Picker moves whose ``slot`` is a list of places ("1,3": the places of a matching claim, tapped one by one).
PICK_LISTS = ("match",)
#: Entries every player may make at the same moment, each for their own seat (the reveal, a first look):
#: one made at a version another seat's such entry has moved on is still applied (server).
SIMULTANEOUS = ("reveal", "initial_peek")
#: Entries a photo can fill in: one card, or a player's layout at the reveal.
SCAN_MOVES = ("turn_up", "take_discard", "replace", "discard", "power", "peek", "snap", "reveal")
#: The Cabo deck is taught once on the home page and read by the taught-deck recogniser (vision's
#: "ratatat", which needs references); a standard deck (Cambio) needs no teaching.
DECKS: dict[str, dict[str, Any]] = {
    "cabo": {"title": "Cabo deck (0 to 13)", "faces": (*CABO_DECK, "BACK"), "recogniser": "ratatat"},
}
DECK_KINDS = ("cabo", "standard")


def deck_kind(state: Any) -> str:
    """The deck this match's cards come from, as the scanner knows decks: the Cabo deck (taught once on the
    home page, CAB-V1), or a standard deck, read out of the box."""
    return "cabo" if state.rules["deck"] == "cabo52" else "standard"


def to_act(state: Any) -> int | None:
    """Whose turn it is; None between rounds, at the reveal and after the match."""
    r = state.round
    return r.turn if r is not None else None


def may_act(state: Any) -> tuple[int, ...]:
    """The turn first; then whoever owes a card for a snap, may still call (CAB-V7 end of turn), or may
    snap the fresh discard (CAB-6)."""
    r = state.round
    if r is None:
        return ()
    seats: list[int] = [] if r.turn is None else [r.turn]
    if r.give_owed is not None:
        return (r.give_owed[0],)
    if r.call_window is not None and r.call_window not in seats:
        seats.append(r.call_window)
    for s in r.seats:
        if s not in seats and snap_moves(state, s):
            seats.append(s)
    return tuple(seats)


def cards(state: Any) -> list[str]:
    """The card codes of this match's deck, in picker order: the Cabo deck 0 to 13; a standard deck by
    suit, ace to king, then the joker."""
    deck = CARD_DECKS[state.rules["deck"]]
    if state.rules["deck"] == "cabo52":
        return list(deck)
    return [r + s for s in SUITS for r in RANKS] + (["JOKER"] if "JOKER" in deck else [])


def card_label(card: str | None) -> str:
    """A card on a button: "7", "10♥", "K♠", "Joker", "unknown"."""
    return label(card)


def scan_spec(state: Any, purpose: Mapping[str, str]) -> ScanSpec | None:
    """A photo for a reveal holds a player's layout, place by place; for any other card entry, one card."""
    return photo_spec(state, purpose, {"reveal": _layout_size}, SCAN_MOVES)


def _layout_size(state: Any, seat: int) -> int:
    return len(places(state.round.rows[seat])) if state.round is not None else 0


def result(state: Any) -> dict[str, Any]:
    """Round scores, winners and match standings (by player name), as ``referee check`` prints them."""
    players = state.players
    order = sorted(range(len(players)), key=lambda s: (state.totals[s], s))
    house_rules = {"tie_policy": state.rules["tie_policy"], **changed_rules(VARIANTS, state.rules)}
    return {
        "house_rules": house_rules,  # GEN-11: every switch off its default, and always the tie rule
        "rounds": [h.to_dict(players) for h in state.history],
        "totals": {players[s]: state.totals[s] for s in range(len(players))},
        "standings": [{"player": players[s], "total": state.totals[s], "reset_used": s in state.resets_used}
                      for s in order],
        "over": state.over,
        "winners": [players[s] for s in state.winners],
        "outcome": state.outcome,
    }


__all__ = ["ENGINE_VERSION", "TEMPLATES", "PICK_MOVES", "PICK_LISTS", "DECKS", "DECK_KINDS", "deck_kind", "to_act", "may_act", "cards",
           "card_label", "scan_spec", "result", "legal_moves"]
