"""Shithead at the table: the deck and what photos are for, the result, and a phone's download — the
parts of the game interface (``interface.Game``) the web layer, scans and ``referee check`` use."""
from __future__ import annotations

from typing import Any, Mapping

from .base import changed_rules
from .cards import RANKS, SUITS
from .interface import ScanSpec, photo_spec
from .shithead_rules import FACE_UP, VARIANTS, deck, say_card
from .shithead_state import State

#: Bumped whenever replaying a log could give another state (the store's snapshots are then rebuilt).
ENGINE_VERSION = 6  # 2: reminders and outcomes say cards as the table does (7♣); 3: SH-V1 and SH-40 words
# 4: the state marks where each public card went (SH-K5 points at those entries); refusals list the cards that
# go on anything under the table's house rules (SH-V2, V4, V5, V15)
# 5: a swap naming a card seen elsewhere is refused by GEN-3 in words of the swap (was SH-K5, a rule of plays; an
# override recorded as SH-K5 still stands, with the new words), and a face-up card nobody entered, named by a
# swap, counts before the hand card is looked for (the same card on both sides is one copy too many)
# 6: face-up cards entered, or a lowest card shown to start, that conservation rules out are refused by GEN-3 in
# words of the face-up cards or of the card shown (was SH-K5, a rule of plays; an override recorded as SH-K5
# still stands, with the new words)
TEMPLATES = "shithead"
#: Entries whose second step is a picker: the cards of a play, the face-up cards, a swap.
PICK_MOVES = ("play", "faceup", "swap", "start", "interrupt", "add", "play_any")  # play_any: cards that do not fit
#: Entries every player may make at the same moment, each for their own seat (the reveal, a first look):
#: one made at a version another seat's such entry has moved on is still applied (server).
SIMULTANEOUS = ("faceup",)
#: Entries that claim something of the whole table (who holds the lowest card and starts, SH-4): any seated
#: phone may take one back, not only the phone that made it (a wrong claim is the table's to undo).
CLAIMS = ("start",)
#: The disputes about such a claim: deciding one does not change who starts (the claim stands as entered);
#: the table undoes the claim and the right player claims (SH-4).
CLAIM_DISPUTES = ("SH-K7",)
#: The standard deck is read out of the box; no deck of its own to teach.
DECKS: dict[str, dict[str, Any]] = {}
DECK_KINDS = ("standard",)


def cards(state: State) -> list[str]:
    """This match's card codes, in picker order: by rank (A high at the end), then suit."""
    order = {r: i for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))}
    have = deck(state.decks, state.rules)
    out = [r + s for r in sorted(RANKS, key=order.__getitem__) for s in SUITS]
    return out + (["JOKER"] if "JOKER" in have else [])


def card_label(card: str | None) -> str:
    """A card on a button: "10♥", "Q♠", "Joker", "unknown"."""
    return say_card(card)


def scan_spec(state: State, purpose: Mapping[str, str]) -> ScanSpec | None:
    """One photo of a player's three face-up cards, or of the cards of a play (one card each)."""
    return photo_spec(state, purpose, {"faceup": lambda _state, _seat: FACE_UP},
                      ("play", "interrupt", "add", "swap", "start"))


def result(state: State) -> dict[str, Any]:
    """Each game's finishing order and Shithead, and the evening's tally (§4.12 H1, H2)."""
    players = state.players
    lowest_best = state.rules["end_mode"] == "last_is_loser"
    order = sorted(range(len(players)), key=lambda s: (state.tally[s] if lowest_best else -state.tally[s], s))
    standings = [{"player": players[s], "total": state.tally[s]} for s in order]
    winners = [players[s] for s in state.winners]
    if lowest_best and state.over and len(state.history) == 1:
        # One game: nobody wins it, the Shithead loses (SH-51), and the others keep the places they went out
        # in (§4.12 H1); the tally's shared top (H2) speaks of an evening of games.
        game = state.history[0]
        seats = [*game.order, *([game.shithead] if game.shithead is not None else [])]
        seats += [s for s in range(len(players)) if s not in seats]
        standings = [{"player": players[s], "total": state.tally[s], "place": i + 1} for i, s in enumerate(seats)]
        winners = []
    return {
        "house_rules": changed_rules(VARIANTS, state.rules),
        "rounds": [h.to_dict(players) for h in state.history],
        "totals": {players[s]: state.tally[s] for s in range(len(players))},
        "standings": standings,
        "over": state.over,
        "winners": winners,
        "outcome": state.outcome,
    }


def redact(state: State, entries: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """A phone's download: whole, since nothing entered at a Shithead table is private (SH-K4)."""
    return list(entries)
