"""What the referee knows of a Cabo / Cambio match (RULES.md §2), as frozen values, and their JSON form.

A card is a :class:`Token` (Rat-a-Tat Cat's, GEN-2): its public value, the private sightings of the
players who saw it, how it came where it is, whether it lies face up. A layout (``rows[seat]``) is a
tuple of *places* numbered from 1: a card keeps its place for the round (CAB-1); a place whose card was
matched or snapped away is empty (None) until a card fills it (a card given for a snap fills the gap it
was given for; a card added to a layout takes its first empty place, or a new place at the end).

``apply`` changes a *draft* (:func:`draft`): the Round and State with assignable fields and list piles,
frozen again by :func:`freeze`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Mapping

from .base import Flag
from .cabo_cards import DECKS
from .jsonform import Form
from .ratatat_state import Token

NAME = "cabo"
TITLE = "Cabo / Cambio"

HIDDEN = Token()


@dataclass(frozen=True, slots=True)
class RoundResult:
    number: int
    dealer: int
    seats: tuple[int, ...]
    caller: int | None
    cards: Mapping[int, tuple[str, ...]]  # seat -> the cards revealed, place by place
    sums: Mapping[int, int]               # seat -> the points of those cards
    scores: Mapping[int, int]             # seat -> what the round adds to the total (CAB-40..42)
    winners: tuple[int, ...]
    explanation: str
    kamikaze: int | None = None           # the seat that ended on 12, 12, 13, 13 (CAB-42)
    reset: tuple[int, ...] = ()           # seats whose total of exactly 100 dropped to 50 (CAB-43)
    deck_out: bool = False                # the round ended because the draw pile ran out (CAB-22)

    def to_dict(self, players: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The JSON form; with ``players``, seats are named (score sheets, views)."""
        if not players:
            return FORM.to_dict(self)
        return {"number": self.number, "dealer": players[self.dealer], "seats": [players[s] for s in self.seats],
                "caller": None if self.caller is None else players[self.caller],
                "cards": {players[s]: list(c) for s, c in self.cards.items()},
                "sums": {players[s]: v for s, v in self.sums.items()},
                "scores": {players[s]: v for s, v in self.scores.items()},
                "winners": [players[s] for s in self.winners], "explanation": self.explanation,
                "kamikaze": None if self.kamikaze is None else players[self.kamikaze],
                "reset": [players[s] for s in self.reset], "deck_out": self.deck_out}


@dataclass(frozen=True, slots=True)
class Round:
    """One round's zones and turn pointer."""

    number: int
    dealer: int
    seats: tuple[int, ...]                        # the seats playing this round
    draw: int                                     # cards left in the draw pile
    discard: tuple[Token, ...]                    # bottom first
    rows: tuple[tuple[Token | None, ...], ...]    # by seat, place by place; None is an empty place
    turn: int | None
    step: str                                     # start | holding | peek | spy | swap | look_swap | reveal
    pending: Token | None                         # the card in hand
    pending_from: str | None                      # draw | discard
    power: str | None                             # the power being resolved
    caller: int | None
    final_left: int                               # turns left after the call (CAB-20)
    turns_done: int
    call_window: int | None                       # call_timing end_of_turn: who may still call
    awaiting_turn_up: bool
    revealed: frozenset[int]
    peeked: frozenset[int]
    played: frozenset[int]
    conflicts: tuple[tuple[Any, ...], ...]  # GEN-6: (seat, noted, at, value, seen at[, owner, slot])
    snap_top: int | None                          # the discard a snap may land on (its index), CAB-6
    snap_tried: frozenset[int]                    # seats that snapped wrongly onto it
    give_owed: tuple[int, int, int] | None        # (snapper, owner, place) after snapping another's card
    deck_out: bool                                # the draw pile ran out and ended the round (CAB-22)
    scoring: bool                                 # a reveal was entered: no more snaps (CAB-6)
    first_entry: int = 0                          # the round's first entry (what a download redacts)
    reveal_flags_from: int | None = None          # len(state.flags) when the reveal began
    swaps: tuple[tuple[int, int, int, int], ...] = ()  # (seat, place, seat, place) of each exchange of two
    # places, in order: a Swap, a look-and-swap that swapped, a card given into a snapped gap (CAB-6)
    snap_rank: tuple[int, str] | None = None  # (the snap's entry, the rank) of a card that matched the discard
    # it was snapped onto, entered without its suit: the table saw its rank (CAB-6); None: unknown


@dataclass(frozen=True, slots=True)
class State:
    """A match: house rules, totals, finished rounds, the round in play and the flags raised."""

    players: tuple[str, ...]
    rules: Mapping[str, Any]
    version: int                                  # entries applied
    round: Round | None                           # None once the match is over
    totals: tuple[int, ...]
    history: tuple[RoundResult, ...]
    over: bool
    winners: tuple[int, ...]
    outcome: str
    flags: tuple[Flag, ...]
    resets_used: frozenset[int]                   # seats whose exact 100 already dropped to 50 (CAB-V11)
    overrides: tuple[tuple[int, str, str, int | None, str, tuple[int, ...]], ...] = ()

    @property
    def deck(self) -> Mapping[str, int]:
        return DECKS[self.rules["deck"]]


FORM = Form({Token: (Token.to_list, Token.from_list), Flag: (Flag.to_dict, Flag.from_dict)})


def state_to_dict(state: State) -> dict[str, Any]:
    """The whole state as JSON-ready data (for snapshots and round-trip tests)."""
    return {"game": NAME, **FORM.to_dict(state)}


def state_from_dict(d: dict[str, Any]) -> State:
    return FORM.from_dict(State, d)


def frozen_rules(rules: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(rules))


# --- Drafts: the working copy of one entry ------------------------------------------------------


class RoundDraft:
    """A Round being changed by one entry: the same fields, assignable; ``discard`` and the rows are
    lists."""

    __slots__ = Round.__slots__


class StateDraft:
    __slots__ = State.__slots__
    deck = State.deck


def _copier(cls: type, draft_cls: type):
    """A function copying every field of a ``cls`` into a new ``draft_cls``: the values read at once, each
    slot filled directly."""
    names = [f.name for f in dataclasses.fields(cls)]
    values = attrgetter(*names)
    setters = tuple(draft_cls.__dict__[n].__set__ for n in names)
    new = object.__new__

    def copy(src: Any) -> Any:
        d = new(draft_cls)
        for put, value in zip(setters, values(src)):
            put(d, value)
        return d
    return copy


_round_draft = _copier(Round, RoundDraft)
_state_draft = _copier(State, StateDraft)


def draft(state: State) -> StateDraft:
    """A working copy of ``state`` and of its round; ``state`` itself is left as it is."""
    s = _state_draft(state)
    r = state.round
    if r is not None:
        r = _round_draft(r)
        r.discard = list(r.discard)
        r.rows = [list(row) for row in r.rows]
        s.round = r
    return s


def freeze(s: StateDraft) -> State:
    """The draft, frozen in place (same slots, nothing copied)."""
    r = s.round
    if type(r) is RoundDraft:
        r.discard = tuple(r.discard)
        r.rows = tuple(map(tuple, r.rows))
        r.__class__ = Round
    s.__class__ = State
    return s


# --- Questions about a state ---------------------------------------------------------------------


def places(row: tuple[Token | None, ...] | list[Token | None]) -> list[int]:
    """The places (from 1) of a layout that hold a card."""
    return [i + 1 for i, t in enumerate(row) if t is not None]


def cards_in(row: tuple[Token | None, ...] | list[Token | None]) -> list[Token]:
    return [t for t in row if t is not None]


def top_rank(r: Round) -> str | None:
    """The rank of the discard pile's top card when only its rank is public: a card snapped onto the discard
    it matched, entered without its suit (CAB-6, CAB-K2); None when the top is known whole, or not at all.
    The fact is the snapped card's: it lasts while that card lies on top (a reshuffle leaves it there)."""
    if r.snap_rank is None or not r.discard:
        return None
    top = r.discard[-1]
    if top.value is not None or top.origin != "snap" or top.origin_entry != r.snap_rank[0]:
        return None
    return r.snap_rank[1]


def reveal_complete(r: Round) -> bool:
    """Every layout turned up (CAB-40)."""
    return r.step == "reveal" and len(r.revealed) == len(r.seats) and r.give_owed is None


def awaiting_flags(state: State) -> tuple[int, ...]:
    """The open flags raised during a fully revealed round's reveal: the round is scored once the table
    has decided each one (GEN-5)."""
    r = state.round
    if r is None or not reveal_complete(r) or r.reveal_flags_from is None:
        return ()
    return tuple(f.id for f in state.flags[r.reveal_flags_from:] if f.status == "open")
