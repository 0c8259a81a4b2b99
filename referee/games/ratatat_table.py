"""Rat-a-Tat Cat at the table: who acts, the cards and what photos are for, and the result — the parts of
the game interface (``interface.Game``) the web layer, scans and ``referee check`` use."""
from __future__ import annotations

from typing import Any, Mapping

from .base import changed_rules
from .ratatat_cards import RTC_DECKS
from .interface import ScanSpec, photo_spec
from .ratatat_rules import SLOTS, VARIANTS

#: Bumped whenever replaying a log could give another state: the store's snapshots of older versions
#: are then ignored and rebuilt from the log.
ENGINE_VERSION = 10  # 2: a private note that agrees with the public value is not a second GEN-4 flag;
# 3: the round keeps its Swaps (a first peek noted late lands on the dealt card);
# 4: a seat's notes on one card are one claim at the reveal (its last);
# 5: a GEN-4 dispute over a private note says whose slot the card showed in;
# 6: a GEN-3 ruling (and an override of it) points at the entries where the copies known were seen;
# 7: a GEN-3 ruling says "1 is already known" (not "1 are");
# 8: a round tied by two says they "both" win (RTC-V1; "all" for three or more);
# 9: a GEN-3 ruling names a power card as printed ("3 × Swap", not "3 × SWAP");
# 10: a GEN-4 dispute says whose slot the card lies in; a GEN-3 ruling at a reveal says how many are its own
TEMPLATES = "ratatat"
#: Entries whose second step is a picker (a card, or a swap target).
PICK_MOVES = ("turn_up", "replace", "discard", "peek", "swap", "reveal_draw", "take_discard", "draw")
#: The second entry one tap may make after an entry (the form's ``then``), by the first entry's move: the
#: same player's draw after a Draw 2 is used, and after a card discarded while a Draw 2 still owes a draw.
#: The server reads no other ``then``, and the second is read as if the same phone had posted it.
FOLLOW_UPS: dict[str, tuple[str, ...]] = {"power": ("draw",), "discard": ("draw",)}
#: Entries every player may make at the same moment, each for their own seat (the reveal, a first look):
#: one made at a version another seat's such entry has moved on is still applied (server).
SIMULTANEOUS = ("reveal", "initial_peek")
#: Entries a photo can fill in.
SCAN_MOVES = ("turn_up", "replace", "discard", "take_discard", "reveal_draw", "reveal", "peek")
#: The decks a Rat-a-Tat Cat table's cards are read from (taught once, on the home page), by edition.
DECKS: dict[str, dict[str, Any]] = {
    "ratatat": {"title": "Rat-a-Tat Cat deck (classic)", "faces": (*RTC_DECKS["classic_54"], "BACK"),
                "recogniser": "ratatat"},
    "ratatat_deluxe": {"title": "Rat-a-Tat Cat deck (deluxe, with Super Peek)",
                       "faces": (*RTC_DECKS["deluxe_65"], "BACK"), "recogniser": "ratatat"},
}
DECK_KINDS = tuple(DECKS)
_LABELS = {"DRAW2": "Draw 2", "SUPERPEEK": "Super Peek", "PEEK": "Peek", "SWAP": "Swap"}


def to_act(state: Any) -> int | None:
    """Whose turn it is; None between rounds, at the reveal and after the match."""
    r = state.round
    return r.turn if r is not None else None


def may_act(state: Any) -> tuple[int, ...]:
    """The turn, and the player who just finished while they may still call (RTC-40)."""
    r = state.round
    if r is None:
        return ()
    seats = [] if r.turn is None else [r.turn]
    if r.call_window is not None and r.call_window not in seats:
        seats.append(r.call_window)
    return tuple(seats)


def cards(state: Any) -> list[str]:
    """The card codes of this match's edition (RTC-V16), numbers first, in picker order."""
    return list(RTC_DECKS[state.rules["edition"]])


def card_label(card: str | None) -> str:
    """A card's name on a button or in a sentence: "7", "Draw 2", "unknown"."""
    if card is None:
        return "unknown"
    return _LABELS.get(card, card)


def scan_spec(state: Any, purpose: Mapping[str, str]) -> ScanSpec | None:
    """A photo for a reveal holds a player's row of four; for any other card entry, one card."""
    return photo_spec(state, purpose, {"reveal": lambda _state, _seat: SLOTS}, SCAN_MOVES)


def result(state: Any) -> dict[str, Any]:
    """Round scores, winners and match standings (by player name), as ``referee check`` prints them."""
    players = state.players
    order = sorted(range(len(players)), key=lambda s: (state.totals[s], s))
    house_rules = {"tie_policy": state.rules["tie_policy"], **changed_rules(VARIANTS, state.rules)}
    return {
        "house_rules": house_rules,  # GEN-11: every switch off its default, and always the tie policy
        "rounds": [h.to_dict(players) for h in state.history],
        "totals": {players[s]: state.totals[s] for s in range(len(players))},
        "standings": [{"player": players[s], "total": state.totals[s], "out": s in state.eliminated}
                      for s in order],
        "over": state.over,
        "winners": [players[s] for s in state.winners],
        "outcome": state.outcome,
    }
