"""Spite & Malice entries: small immutable values, their JSON form and how they are said.

Cards are standard-deck codes ("7H", "QS", "JOKER") or bare ranks ("7", "Q": suits do not matter in this
game, so a rank button will do); ``None`` is a card nobody entered (GEN-14, written "unknown"). Places are
1-based as the table counts them: building pile 1, 2, 3 (``pile``), side stack 1..4 (``stack``). A source
is ``"hand"``, ``"payoff"``, ``"side<k>"`` (the top of one's own side stack k) or ``"pile<k>"`` (a building
pile, never a legal source: SM-19).

============  ===============================================================================
entry         JSON form (example)
============  ===============================================================================
top           ``{"move": "top", "seat": "Ann", "card": "9H"}`` a pay-off top turned face up
start         ``{"move": "start", "seat": "Ann"}`` who starts, when the tops cannot say (SM-7)
draw          ``{"move": "draw", "seat": "Ann", "count": 2}`` cards drawn from the stock (count
              may be left out: the number owed)
build         ``{"move": "build", "seat": "Ann", "source": "side2", "card": "JH", "pile": 1}``
discard       ``{"move": "discard", "seat": "Ann", "card": "4S", "stack": 3}`` ends the turn
============  ===============================================================================
"""
from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any, Mapping

from . import entry_parse
from .base import Correct, EntryError, Override, ResolveFlag, Undo, show
from .cards import card_name, sentence_start
from .spite_malice_rules import ANY_CARD
from .spite_malice_table import card_label as say

MAX_PLACE = 99   # building piles or side stacks one entry may name
MAX_DRAW = 20    # cards one draw entry may name


@dataclass(frozen=True, slots=True)
class Top:
    """A pay-off top turned face up (at the deal, after a pay-off build, after a reshuffle), entered."""
    seat: int
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Start:
    """Who starts, when the pay-off tops cannot decide (unknown tops, or a coin flip, SM-7, SM-V9)."""
    seat: int


@dataclass(frozen=True, slots=True)
class Draw:
    """Cards drawn from the stock into the hand (SM-10, SM-16, SM-V5); None: the number owed."""
    seat: int
    count: int | None = None


@dataclass(frozen=True, slots=True)
class Build:
    """One card onto building pile ``pile`` (a free place starts a pile), from ``source`` (SM-11)."""
    seat: int
    pile: int
    source: str = "hand"
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """One card onto one's own side stack ``stack``: the end of the turn (SM-17, SM-18)."""
    seat: int
    stack: int
    card: str | None = None
    source: str = "hand"


MOVES: dict[str, type] = {
    "top": Top, "start": Start, "draw": Draw, "build": Build, "discard": Discard,
    "override": Override, "resolve_flag": ResolveFlag, "undo": Undo, "correct": Correct,
}
MOVE_NAMES = {cls: name for name, cls in MOVES.items()}
GAME_MOVES = tuple(n for n in MOVES if n not in ("override", "resolve_flag", "undo", "correct"))

_NUMBERS = {"pile": (1, MAX_PLACE), "stack": (1, MAX_PLACE), "count": (0, MAX_DRAW)}
_SOURCE = re.compile(r"(hand|payoff|side([1-9][0-9]?)|pile([1-9][0-9]?))")


def source_parts(source: str) -> tuple[str, int | None]:
    """("side", 2) for "side2"; ("hand", None) for "hand"."""
    m = _SOURCE.fullmatch(source)
    if m is None:  # pragma: no cover - parse_move lets only these through
        raise ValueError(source)
    if m.group(2):
        return "side", int(m.group(2))
    if m.group(3):
        return "pile", int(m.group(3))
    return source, None


def _number(low: int, high: int) -> entry_parse.Reader:
    """A whole number from ``low`` to ``high`` (digits as text too); null where the field is optional."""
    def read(value: Any, where: str, reading: entry_parse.Reading) -> int | None:
        if value is None and not reading.required:
            return None
        if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value.strip()) <= 3:
            # (ASCII only: "²" and "٣" are digits to str.isdigit, and int() refuses the first)
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise EntryError(where, f"is a whole number from {low} to {high}, not {show(value)}")
        return value
    return read


def _source(value: Any, where: str, reading: entry_parse.Reading) -> str:
    if not isinstance(value, str) or _SOURCE.fullmatch(value.strip().lower()) is None:
        raise EntryError(where, f"is hand, payoff, side1, side2... or pile1, pile2..., not {show(value)}")
    return value.strip().lower()


_READERS: dict[Any, entry_parse.Reader] = {
    "seat": entry_parse.seat, "card": entry_parse.card, "source": _source,
    **{name: _number(low, high) for name, (low, high) in _NUMBERS.items()},
}


def parse_move(data: Any, players: tuple[str, ...], deck: Mapping[str, int] = ANY_CARD, where: str = "entry"):
    """An entry's JSON form -> a move value; raises :class:`EntryError` naming the field at fault."""
    return entry_parse.parse_entry(data, MOVES, _READERS, players, deck, where)


def move_to_dict(move: Any, players: tuple[str, ...]) -> dict[str, Any]:
    """A move value -> its JSON form (seats by name, unknown cards as "unknown")."""
    out: dict[str, Any] = {"move": MOVE_NAMES[type(move)]}
    for f in fields(move):
        value = getattr(move, f.name)
        if f.name == "seat":
            if value is not None:
                out[f.name] = players[value]
        elif f.name == "card":
            out[f.name] = card_name(value)
        elif f.name == "entry":
            out[f.name] = move_to_dict(value, players)
        elif value is not None and value != "":
            out[f.name] = value
    return out


def source_words(source: str, whose: str = "") -> str:
    kind, k = source_parts(source)
    own = f"{whose}'s " if whose else ""
    if kind == "hand":
        return "from the hand"
    if kind == "payoff":
        return f"from {own or 'the '}pay-off pile"
    if kind == "side":
        return f"from {own}side stack {k}"
    return f"from building pile {k}"


def describe(move: Any, players: tuple[str, ...], outcome: dict[str, Any] | None = None) -> str:
    """One line in plain words, for the table's history (each card as the screen names it: "K♥", "5"); with
    what a build came to (``spite_malice_apply.entry_outcome``), the rank it counted as and the pile it
    completed, and how many cards a draw of the cards owed drew."""
    if outcome and outcome.get("drew") is not None:
        return describe(Draw(move.seat, outcome["drew"]), players)
    if outcome and outcome.get("then"):
        return f"{describe(move, players)} {outcome['then']}"
    if outcome:
        said = describe(move, players)
        if outcome.get("counts_as"):
            said += f" It counts as {outcome['counts_as']}."
        if outcome.get("completed"):
            said += f" Pile {outcome['completed']} is complete."
        return said
    who = players[move.seat] if getattr(move, "seat", None) is not None else "The table"
    match move:
        case Top(card=card):
            return f"{who}'s pay-off top: {say(card)}."
        case Start():
            return f"{who} starts."
        case Draw(count=count):
            return f"{who} draws {'the cards owed' if count is None else count} from the stock."
        case Build(pile=pile, source=source, card=card):
            what = "the top card" if card is None and source != "hand" else say(card)
            return f"{who} builds {what} {source_words(source)} on pile {pile}."
        case Discard(stack=stack, card=card, source=source):
            extra = "" if source == "hand" else f" {source_words(source)}"
            return f"{who} discards {say(card)}{extra} onto side stack {stack}."
        case Override(entry=entry, rule=rule):
            return f"{who} overrides {rule}: {describe(entry, players)}"
        case ResolveFlag(flag=flag, decision=decision):
            return f"{who} {'accepts' if decision == 'accept' else 'dismisses'} the dispute (flag {flag})."
        case Undo():
            return f"{who} undoes the last entry."
        case Correct(target=target, entry=entry):
            return f"{who} corrects entry {target}: {describe(entry, players)}"
    return sentence_start(repr(move))  # pragma: no cover
