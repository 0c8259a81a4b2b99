"""What the referee knows of a Shithead match (RULES.md §4.11), as frozen values, and their JSON form.

Everything on the pile, burned or face up is public; a hand is a count plus the cards the table saw go
into it (picked up or swapped in, SH-K4); face-down cards are a count. A state never changes: an entry
works on a :class:`Draft` of it (the same fields, settable) and freezes the next state once at the end.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Mapping

from .base import Flag
from .jsonform import Form

NAME = "shithead"
TITLE = "Shithead"


@dataclass(frozen=True, slots=True)
class PileCard:
    card: str   # the code played
    rank: str   # the rank it acts as (a joker: the rank named, SH-A13)
    seat: int
    play: int   # the entry that played it


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's cards: a hand count with the cards known to be in it, face-up, face-down."""
    count: int
    known: tuple[str, ...] = ()                 # public cards within the hand (SH-K4), sorted
    faceup: tuple[str | None, ...] = (None, None, None)
    facedown: int = 3
    entered: bool = False                       # face-up cards entered (SH-2)

    @property
    def unknown(self) -> int:
        return self.count - len(self.known)

    def holds_cards(self) -> bool:
        return self.count > 0 or bool(self.faceup) or self.facedown > 0


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The play that may still be added to (SH-41): who, which rank, what the refill drew."""
    seat: int
    rank: str
    play: int
    drawn: int
    skips: int


@dataclass(frozen=True, slots=True)
class GameResult:
    number: int
    order: tuple[int, ...]          # finishing order (seats)
    shithead: int | None            # last_is_loser: the last player with cards
    winner: int | None = None       # first_out_wins: the first out

    def to_dict(self, players: tuple[str, ...]) -> dict[str, Any]:
        return {"number": self.number, "order": [players[s] for s in self.order],
                "shithead": None if self.shithead is None else players[self.shithead],
                "winner": None if self.winner is None else players[self.winner]}


@dataclass(frozen=True, slots=True)
class State:
    players: tuple[str, ...]
    rules: Mapping[str, Any]
    decks: int
    dealer: int
    number: int                         # the game of the evening, from 1
    phase: str                          # setup | play | over
    seats: tuple[Seat, ...]
    stock: int
    pile: tuple[PileCard, ...] = ()
    burned: tuple[str, ...] = ()
    turn: int | None = None
    direction: int = 1
    starter: int | None = None
    declared: str | None = None         # the starter's declared lowest card (SH-4)
    first_played: bool = False
    out: tuple[int, ...] = ()           # finishing order of this game
    last: LastPlay | None = None
    last_entry: int | None = None       # the entry that last changed the pile or the turn
    reminders: tuple[tuple[str, str], ...] = ()  # (rule, words) the referee owes the table now
    history: tuple[GameResult, ...] = ()
    tally: tuple[int, ...] = ()
    over: bool = False
    winners: tuple[int, ...] = ()
    outcome: str = ""
    flags: tuple[Flag, ...] = ()
    overrides: tuple[tuple[int, str, str, int | None, str, tuple[int, ...]], ...] = ()
    version: int = 0
    # Where the table saw each public card go, for a ruling to point at (SH-K5, GEN-13): the entry that
    # put each burned card on the pile (beside ``burned``), and (seat, "faceup" or "hand", card, entry)
    # for each face-up card and each known hand card
    burned_at: tuple[int, ...] = ()
    placed: tuple[tuple[int, str, str, int], ...] = ()

    def active(self) -> tuple[int, ...]:
        """Seats still in this game (SH-50)."""
        out = self.out
        return tuple(s for s in range(len(self.players)) if s not in out)

    def seen(self) -> Counter:
        """Every card the table has seen and can place: pile, burned, face up, known in hands."""
        cards: list[str | None] = [p.card for p in self.pile]
        cards += self.burned
        for s in self.seats:
            cards += s.faceup
            cards += s.known
        c = Counter(cards)
        del c[None]  # a face-up card nobody entered
        return c

    def sightings(self, card: str) -> int:
        """How many copies of ``card`` the table has seen (``seen()[card]``, without counting the rest)."""
        n = self.burned.count(card)
        for p in self.pile:
            if p.card == card:
                n += 1
        for s in self.seats:
            n += s.faceup.count(card) + s.known.count(card)
        return n


STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))
_state_values = attrgetter(*STATE_FIELDS)
_SLOT_SETTERS = tuple(State.__dict__[name].__set__ for name in STATE_FIELDS)
SEAT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Seat))
_seat_values = attrgetter(*SEAT_FIELDS)


def reseat(seat: Seat, **changes: Any) -> Seat:
    """``seat`` with ``changes`` (``dataclasses.replace``, without its per-call overhead)."""
    values = dict(zip(SEAT_FIELDS, _seat_values(seat)))
    values.update(changes)
    return Seat(**values)


class Draft:
    """The next state while one entry is applied: a :class:`State`'s fields, settable, read by the same
    rule functions; :meth:`freeze` makes the State once the entry is done (a refused entry is dropped)."""

    def __init__(self, state: State):
        self.load(state)

    def load(self, state: State) -> None:
        self.__dict__.update(zip(STATE_FIELDS, _state_values(state)))

    def freeze(self) -> State:
        """The State of these fields. Each slot is filled directly (what the frozen ``__init__`` does,
        without its ``object.__setattr__`` per field); the fields are in order since ``load`` set them."""
        values = self.__dict__
        if len(values) != len(STATE_FIELDS):
            raise TypeError(f"not fields of a State: {sorted(set(values) - set(STATE_FIELDS))}")
        state = object.__new__(State)
        for put, value in zip(_SLOT_SETTERS, values.values()):
            put(state, value)
        return state

    active = State.active
    seen = State.seen
    sightings = State.sightings


FORM = Form({Flag: (Flag.to_dict, Flag.from_dict)})


def state_to_dict(state: State) -> dict[str, Any]:
    return FORM.to_dict(state)


def state_from_dict(data: dict[str, Any]) -> State:
    return FORM.from_dict(State, data)
