"""What the referee knows of a Rat-a-Tat Cat match (RULES.md §1), as frozen values, and their JSON form.

A :class:`State` and everything in it is immutable: states are shared between threads by the store's
cache and every entry makes a new one. ``apply`` changes a *draft* (:func:`draft`): a Round or State
whose fields may be assigned and whose piles are lists, frozen again by :func:`freeze`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from .base import Flag
from .ratatat_cards import RTC_DECKS
from .jsonform import Form

NAME = "ratatat"
TITLE = "Rat-a-Tat Cat"


@dataclass(frozen=True, slots=True)
class Token:
    """One physical card as the referee knows it (GEN-2)."""

    value: str | None = None            # the public value, None while unknown
    seen: int | None = None             # entry at which the public value was observed
    notes: tuple[tuple[int, str, int], ...] = ()  # private sightings: (seat, value, entry)
    origin: str = "deal"                # how it reached its zone: deal | draw | discard | reveal
    origin_entry: int | None = None
    face_up: bool = False               # lies face up in a row (RTC-V8 outer_face_up)

    def noted_by(self, seat: int) -> str | None:
        for who, value, _ in reversed(self.notes):
            if who == seat:
                return value
        return None

    def to_list(self) -> list[Any]:
        return [self.value, self.seen, [list(n) for n in self.notes], self.origin, self.origin_entry,
                self.face_up]

    @classmethod
    def from_list(cls, data: list[Any]) -> Token:
        return cls(data[0], data[1], tuple(tuple(n) for n in data[2]), data[3], data[4], data[5])


HIDDEN = Token()


@dataclass(frozen=True, slots=True)
class RoundResult:
    number: int
    dealer: int
    seats: tuple[int, ...]
    caller: int | None
    cards: Mapping[int, tuple[str, ...]]  # seat -> the four values revealed
    scores: Mapping[int, int]
    winners: tuple[int, ...]
    explanation: str
    tiebreak: bool = False

    def to_dict(self, players: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The JSON form; with ``players``, seats are named (score sheets, views)."""
        if not players:
            return FORM.to_dict(self)
        return {"number": self.number, "dealer": players[self.dealer], "seats": [players[s] for s in self.seats],
                "caller": None if self.caller is None else players[self.caller],
                "cards": {players[s]: list(c) for s, c in self.cards.items()},
                "scores": {players[s]: v for s, v in self.scores.items()},
                "winners": [players[s] for s in self.winners], "explanation": self.explanation,
                "tiebreak": self.tiebreak}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RoundResult:
        return FORM.from_dict(cls, d)


@dataclass(frozen=True, slots=True)
class Round:
    """One round's zones and turn pointer."""

    number: int
    dealer: int
    seats: tuple[int, ...]                 # the seats playing this round
    draw: int                              # cards left in the draw pile
    discard: tuple[Token, ...]             # bottom first
    rows: tuple[tuple[Token, ...], ...]    # by seat; empty for a seat not playing
    turn: int | None
    step: str                              # start | holding | peek | swap | reveal
    pending: Token | None                  # the card in hand
    pending_from: str | None               # draw | discard
    power: str | None                      # the power being resolved
    d2_left: int
    d2_active: bool
    d2_turn: bool
    extra_turns: int
    caller: int | None
    final_left: int
    turns_done: int
    call_window: int | None                # the seat that may still call at the end of its turn
    d2_over_seat: int | None
    awaiting_turn_up: bool
    revealed: frozenset[int]
    to_replace: tuple[tuple[int, int], ...]  # (seat, slot) of revealed power cards
    peeked: frozenset[int]
    played: frozenset[int]
    conflicts: tuple[tuple[Any, ...], ...]  # GEN-6: (seat, noted, at, value, seen at[, owner, slot])
    tiebreak: bool
    first_entry: int = 0                   # the round's first entry (what a transcript download redacts)
    reveal_flags_from: int | None = None   # len(state.flags) when the reveal began: later flags hold it
    swaps: tuple[tuple[int, int, int, int], ...] = ()  # (seat, slot, target, target slot) of each Swap, in order
    returned: str | None = None            # a power card just turned up, back into the draw pile (RTC-5)

    def to_dict(self) -> dict[str, Any]:
        return FORM.to_dict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Round:
        return FORM.from_dict(cls, d)


def _override_records(data: list[list[Any]]) -> tuple[tuple[Any, ...], ...]:
    """(entry, rule, reason, seat, message, entries): older snapshots lack the last two."""
    return tuple((o[0], o[1], o[2], o[3], o[4] if len(o) > 4 else "",
                  tuple(o[5]) if len(o) > 5 else (o[0],)) for o in data)


@dataclass(frozen=True, slots=True)
class State:
    """A match: house rules, totals, finished rounds, the round in play and the flags raised."""

    players: tuple[str, ...]
    rules: Mapping[str, Any]
    version: int                           # entries applied
    round: Round | None                    # None once the match is over
    totals: tuple[int, ...]
    history: tuple[RoundResult, ...]
    eliminated: frozenset[int]
    over: bool
    winners: tuple[int, ...]
    outcome: str
    flags: tuple[Flag, ...]
    time_up: bool
    overrides: tuple[tuple[int, str, str, int | None, str, tuple[int, ...]], ...] = field(
        default=(), metadata={"read": _override_records})  # (entry, rule, reason, seat, message, entries)

    @property
    def deck(self) -> Mapping[str, int]:
        return RTC_DECKS[self.rules["edition"]]


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
    lists. Not a subclass: assigning to a frozen dataclass's subclass goes through its ``__setattr__``."""

    __slots__ = Round.__slots__


class StateDraft:
    """A State being changed by one entry; its ``round`` is a RoundDraft (or a newly dealt Round)."""

    __slots__ = State.__slots__
    deck = State.deck


def _copier(cls: type, draft_cls: type):
    """A function copying every field of a ``cls`` into a new ``draft_cls`` (generated, as dataclasses
    generates ``__init__``: a loop over the fields costs several times more, on every entry)."""
    names = [f.name for f in dataclasses.fields(cls)]
    body = "".join(f"    d.{n} = src.{n}\n" for n in names)
    scope = {"new": object.__new__, "Draft": draft_cls}
    exec(f"def copy(src):\n    d = new(Draft)\n{body}    return d\n", scope)  # noqa: S102 - field names only
    return scope["copy"]


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
    """The draft, frozen in place: piles become tuples, then the objects become a Round and a State
    (same slots, so nothing is copied)."""
    r = s.round
    if type(r) is RoundDraft:
        r.discard = tuple(r.discard)
        r.rows = tuple(map(tuple, r.rows))
        r.__class__ = Round
    s.__class__ = State
    return s


# --- Questions about a state ---------------------------------------------------------------------


def next_seat(seats: tuple[int, ...], after: int, n_players: int) -> int:
    """The next seat clockwise after ``after`` that plays this round."""
    for step in range(1, n_players + 1):
        seat = (after + step) % n_players
        if seat in seats:
            return seat
    raise AssertionError("a round always has players")  # pragma: no cover


def reveal_complete(r: Round) -> bool:
    """Every row revealed and every revealed power card replaced (RTC-43, RTC-44)."""
    return r.step == "reveal" and not r.to_replace and len(r.revealed) == len(r.seats)


def awaiting_flags(state: State) -> tuple[int, ...]:
    """The open flags that hold a fully revealed round back from scoring: those raised during its
    reveal, the GEN-6 private-note checks included (GEN-5). Flags raised earlier in the round do not
    hold it: play already went on past them."""
    r = state.round
    if r is None or not reveal_complete(r) or r.reveal_flags_from is None:
        return ()
    return tuple(f.id for f in state.flags[r.reveal_flags_from:] if f.status == "open")
