"""What the referee knows of a Spite & Malice match (RULES.md §3.9), as frozen values, and their JSON form.

Public: every pay-off top and count, every building pile and side stack (all face up), the stock count,
the hand counts, and the cards of stacks set aside. Hidden, and never asked for: hand contents, the cards
under a pay-off top, the stock order (SM-K9). A card value nobody entered is ``None`` (GEN-14). A State
never changes: an entry builds the next one through a :class:`Draft` (or ``dataclasses.replace``).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from itertools import repeat
from operator import attrgetter, call
from typing import Any, Mapping

from .base import Flag
from .jsonform import Form
from .spite_malice_rules import deck_size, ranks_of

NAME = "spite_malice"
TITLE = "Spite & Malice"

Stack = tuple[str | None, ...]  # bottom card first; None: a card nobody entered


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's cards: the pay-off pile (a count and its face-up top), the hand (a count), and the
    side stacks (fixed places 1..max_side_stacks, each bottom first; an empty place is ``()``)."""
    payoff: int
    hand: int
    sides: tuple[Stack, ...]
    top: str | None = None     # the face-up pay-off top, as entered (None: unknown)
    top_owed: bool = True      # a new top is face up but not yet entered (SM-15, SM-K8)
    sides_from: tuple[tuple[int, ...], ...] = ()  # the entries that put each side stack's cards there

    def side_entry(self, k: int) -> tuple[int, ...]:
        """The entry that put side stack ``k``'s top card there, for a ruling to point at (GEN-10)."""
        return _last_of(self.sides_from, k - 1)

    def side_count(self) -> int:
        return sum(1 for s in self.sides if s)


@dataclass(frozen=True, slots=True)
class GameResult:
    number: int
    winner: int | None           # None: a draw
    how: str                     # payoff (SM-40) | exhaustion (SM-41)
    payoff_left: tuple[int, ...]
    points: int

    def to_dict(self, players: tuple[str, ...]) -> dict[str, Any]:
        return {"number": self.number, "winner": None if self.winner is None else players[self.winner],
                "how": self.how, "payoff_left": {players[i]: n for i, n in enumerate(self.payoff_left)},
                "points": self.points,
                "scores": {players[i]: (self.points if i == self.winner else 0) for i in range(len(players))}}


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[str, ...]
    rules: Mapping[str, Any]
    decks: int
    number: int                         # the game of the match, from 1
    phase: str                          # setup | play | over
    seats: tuple[Seat, ...]
    stock: int
    center: tuple[Stack, ...] = ()      # building piles by place (1-based on the table); () is a free place
    center_from: tuple[tuple[int, ...], ...] = ()  # the entries that built each pile's cards, by place
    held: tuple[str | None, ...] = ()   # completed piles set aside (SM-V13), in the order they completed
    completed: int = 0                  # piles completed this game
    turn: int | None = None
    owed: int = 0                       # cards the player in turn must draw now (SM-10, SM-16, SM-V5)
    owed_rule: str = ""                 # why: SM-10 | SM-16 | SM-V5
    ending: bool = False                # the discard is made; the end-of-turn refill is owed (SM-V5)
    ended: int | None = None            # the seat whose turn just ended with a discard (SM-17, SM-K4)
    starter: int | None = None
    last_entry: int | None = None       # the entry that last changed the table
    reminders: tuple[tuple[str, str], ...] = ()  # (rule, words) the referee owes the table now
    history: tuple[GameResult, ...] = ()
    totals: tuple[int, ...] = ()
    over: bool = False
    winners: tuple[int, ...] = ()
    outcome: str = ""
    flags: tuple[Flag, ...] = ()
    overrides: tuple[tuple[int, str, str, int | None, str, tuple[int, ...]], ...] = ()
    version: int = 0

    def face_up(self) -> list[str | None]:
        return cards_face_up(self.center, self.held, self.seats)

    def seen(self) -> Counter:
        """Every card the table can place now, by code (GEN-3, SM-K7): the building piles, the side
        stacks, the pay-off tops and the piles set aside. A pile shuffled into the stock is unseen again."""
        c = Counter(self.face_up())
        del c[None]  # a card nobody entered
        return c

    def seen_ranks(self) -> Counter:
        c = Counter(ranks_of(self.face_up()))
        del c[None]  # a card nobody entered
        return c

    def live_stacks(self) -> int:
        return sum(1 for s in self.center if s)


def at_place(entries: tuple[tuple[int, ...], ...], i: int) -> tuple[int, ...]:
    """The entries of place ``i`` (0-based) of a seat's side stacks or the building piles."""
    return entries[i] if 0 <= i < len(entries) else ()


def _last_of(entries: tuple[tuple[int, ...], ...], i: int) -> tuple[int, ...]:
    return at_place(entries, i)[-1:]


def pile_entry(state: State, p: int) -> tuple[int, ...]:
    """The entry that built building pile ``p``'s top card, for a ruling to point at (GEN-10)."""
    return _last_of(state.center_from, p - 1)


def with_place(entries: tuple[tuple[int, ...], ...], i: int, now: tuple[int, ...],
               places: int) -> tuple[tuple[int, ...], ...]:
    """``entries`` by place, with place ``i`` (0-based) now ``now``, over ``places`` places."""
    out = list(entries[:places]) + [()] * max(0, places - len(entries))
    out[i] = now
    return tuple(out)


STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))
_state_values = attrgetter(*STATE_FIELDS)
_SLOT_SETTERS = tuple(State.__dict__[name].__set__ for name in STATE_FIELDS)
SEAT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Seat))
_seat_values = attrgetter(*SEAT_FIELDS)


def reseat(seat: Seat, **changes: Any) -> Seat:
    """``seat`` with ``changes`` (what ``dataclasses.replace`` gives, without its per-call cost)."""
    values = dict(zip(SEAT_FIELDS, _seat_values(seat)))
    values.update(changes)
    return Seat(**values)


class Draft:
    """The next state while one entry is applied: a :class:`State`'s fields, settable, read by the same
    code (and the same methods) as a State; :meth:`freeze` makes the State once the entry is done. A
    refused entry drops its draft: the state it started from is never touched."""

    def __init__(self, state: State):
        self.load(state)

    def load(self, state: State) -> None:
        """Every field from ``state`` (in field order, which :meth:`freeze` relies on)."""
        self.__dict__.update(zip(STATE_FIELDS, _state_values(state)))

    def freeze(self) -> State:
        """The State of these fields."""
        values = self.__dict__
        if len(values) != len(STATE_FIELDS):
            raise TypeError(f"not fields of a State: {sorted(set(values) - set(STATE_FIELDS))}")
        state = object.__new__(State)
        # What the frozen __init__ does, without its per-field calls: each slot filled by its descriptor
        # (the setters return None, so ``any`` runs them all).
        any(map(call, _SLOT_SETTERS, repeat(state), values.values()))
        return state

    face_up = State.face_up
    seen = State.seen
    seen_ranks = State.seen_ranks
    live_stacks = State.live_stacks


def cards_face_up(center: tuple[Stack, ...], held: tuple[str | None, ...],
                  seats: tuple[Seat, ...]) -> list[str | None]:
    """Every card the table can place, as entered (None: nobody entered it), in one order: the building
    piles, the piles set aside, then each seat's side stacks and its pay-off top (while it has a pile)."""
    cards: list[str | None] = [x for stack in center for x in stack]
    cards += held
    for s in seats:
        for stack in s.sides:
            cards += stack
        if s.top is not None and s.payoff > 0:
            cards.append(s.top)
    return cards


def zone_counts(state: State) -> dict[str, int]:
    """How many cards are where (GEN-1); they add up to the deck (GEN-3, SM-T22)."""
    out = {"stock": state.stock, "held": len(state.held),
           "center": sum(len(s) for s in state.center)}
    for i, s in enumerate(state.seats):
        out[f"payoff:{i}"] = s.payoff
        out[f"hand:{i}"] = s.hand
        out[f"sides:{i}"] = sum(len(x) for x in s.sides)
    return out


def total_cards(state: State) -> int:
    return deck_size(state.decks, state.rules)


FORM = Form({Flag: (Flag.to_dict, Flag.from_dict)})


def state_to_dict(state: State) -> dict[str, Any]:
    return FORM.to_dict(state)


def state_from_dict(data: dict[str, Any]) -> State:
    return FORM.from_dict(State, data)
