"""Shithead entries: small immutable values, their JSON form and how they are said.

Cards are standard-deck codes ("10H", "QS", "JOKER"); ``None`` is a card nobody entered (GEN-14). A
play is a set of cards of one rank (SH-13); a joker's rank is the play's ``rank``.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, Mapping

from .base import (MAX_ENTRY_NUMBER, MAX_NAME, MAX_TEXT, Correct, EntryError, Override, ResolveFlag,
                   Undo, seat_index, show)
from .cards import RANKS, card_name, parse_card, sentence_start, standard_deck
from .shithead_rules import say_card, say_cards

MAX_CARDS = 16  # cards in one entry: 8 of a rank with two decks, plus jokers, with room to spare


@dataclass(frozen=True, slots=True)
class FaceUp:
    """The three cards a player was dealt face up (SH-2), entered at the start."""
    seat: int
    cards: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Swap:
    """Before play (SH-3): hand card ``card`` goes face up; face-up card ``out`` goes into the hand."""
    seat: int
    card: str | None = None
    out: str | None = None


@dataclass(frozen=True, slots=True)
class Start:
    """The player who starts, with the lowest card they declare (SH-4); ends the swapping."""
    seat: int
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """One or more cards of one rank onto the pile, from the player's active zone (SH-10, SH-16)."""
    seat: int
    cards: tuple[str | None, ...]
    rank: str | None = None


@dataclass(frozen=True, slots=True)
class Pickup:
    """The whole pile into the hand (SH-14)."""
    seat: int


@dataclass(frozen=True, slots=True)
class Interrupt:
    """Out of turn: cards that complete four of a kind on top of the pile (SH-40)."""
    seat: int
    cards: tuple[str | None, ...]
    rank: str | None = None


@dataclass(frozen=True, slots=True)
class Add:
    """The player who just played adds a card of the same rank they just drew (SH-41)."""
    seat: int
    cards: tuple[str | None, ...]
    rank: str | None = None


MOVES: dict[str, type] = {
    "faceup": FaceUp, "swap": Swap, "start": Start, "play": Play, "pickup": Pickup,
    "interrupt": Interrupt, "add": Add,
    "override": Override, "resolve_flag": ResolveFlag, "undo": Undo, "correct": Correct,
}
MOVE_NAMES = {cls: name for name, cls in MOVES.items()}
GAME_MOVES = tuple(n for n in MOVES if n not in ("override", "resolve_flag", "undo", "correct"))

_CARD_FIELDS = {"card", "out"}
_TEXT_FIELDS = {"reason": MAX_TEXT, "rule": MAX_NAME, "decision": MAX_NAME}
_ALLOWED_EXTRA = {"move": None, "note": MAX_TEXT, "at": MAX_NAME}
MAX_NESTING = 3
#: Every card any table may name: the parse is lenient, the engine checks the match's own deck.
ANY_DECK: Mapping[str, int] = standard_deck(jokers=4, copies=3)


def _text(value: Any, where: str, limit: int) -> str:
    if not isinstance(value, str):
        raise EntryError(where, "is text")
    if len(value) > limit:
        raise EntryError(where, f"is at most {limit} characters, not {len(value)}")
    return value.strip()


def parse_move(data: Any, players: tuple[str, ...], deck: Mapping[str, int] = ANY_DECK,
               where: str = "entry", _depth: int = 0):
    """An entry's JSON form -> a move value; raises :class:`EntryError` naming the field at fault."""
    if not isinstance(data, dict):
        raise EntryError(where, "an entry is a JSON object with a \"move\" field")
    name = data.get("move")
    cls = MOVES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise EntryError(f"{where}.move", f"{show(name)} is not an entry of this game ({', '.join(MOVES)})")
    known = {f.name for f in fields(cls)}
    for key in data:
        if key not in known and key not in _ALLOWED_EXTRA:
            raise EntryError(f"{where}.{show(key)[1:-1]}", f"is not a field of a {name!r} entry")
        if _ALLOWED_EXTRA.get(key) is not None:
            _text(data[key], f"{where}.{key}", _ALLOWED_EXTRA[key])
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        at = f"{where}.{f.name}"
        if (cls is Correct and f.name == "target") or (cls is ResolveFlag and f.name == "flag"):
            value = data.get(f.name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ENTRY_NUMBER:
                raise EntryError(at, f"is the number of an earlier entry or flag (0–{MAX_ENTRY_NUMBER:,}), "
                                     f"not {show(value)}")
            kwargs[f.name] = value
            continue
        if f.name not in data:
            if f.default is MISSING:
                raise EntryError(at, "is missing")
            continue
        value = data[f.name]
        if f.name == "seat":
            kwargs[f.name] = None if value is None and f.default is not MISSING else seat_index(value, players, at)
        elif f.name in _CARD_FIELDS:
            kwargs[f.name] = parse_card(value, deck, at)
        elif f.name == "cards":
            if not isinstance(value, list) or len(value) > MAX_CARDS:
                raise EntryError(at, f"is a list of at most {MAX_CARDS} cards")
            kwargs[f.name] = tuple(parse_card(v, deck, f"{at}[{i}]") for i, v in enumerate(value))
        elif f.name == "rank":
            if value is not None and value not in RANKS:
                raise EntryError(at, f"is a rank ({', '.join(RANKS)}), not {show(value)}")
            kwargs[f.name] = value
        elif f.name in _TEXT_FIELDS:
            kwargs[f.name] = _text(value, at, _TEXT_FIELDS[f.name])
        elif f.name == "entry":
            inner = value.get("move") if isinstance(value, dict) else None
            if inner in ("undo", "correct"):
                raise EntryError(f"{at}.move", f"an override or a correction holds a table entry, not {inner!r}")
            if inner == "override" and _depth >= MAX_NESTING - 1:
                raise EntryError(at, f"overrides and corrections nest at most {MAX_NESTING} deep")
            kwargs[f.name] = parse_move(value, players, deck, at, _depth + 1)
        else:  # pragma: no cover - every field kind is listed above
            raise AssertionError(f.name)
    if cls is ResolveFlag and kwargs.get("decision") not in ("accept", "override"):
        raise EntryError(f"{where}.decision", "is \"accept\" or \"override\"")
    return cls(**kwargs)


def move_to_dict(move: Any, players: tuple[str, ...]) -> dict[str, Any]:
    """A move value -> its JSON form (seats by name, unknown cards as "unknown")."""
    out: dict[str, Any] = {"move": MOVE_NAMES[type(move)]}
    for f in fields(move):
        value = getattr(move, f.name)
        if f.name == "seat":
            if value is not None:
                out[f.name] = players[value]
        elif f.name == "cards":
            out[f.name] = [card_name(c) for c in value]
        elif f.name in _CARD_FIELDS:
            out[f.name] = card_name(value)
        elif f.name == "entry":
            out[f.name] = move_to_dict(value, players)
        elif value is not None and value != "":
            out[f.name] = value
    return out


def cards_words(cards: tuple[str | None, ...], rank: str | None = None) -> str:
    """Cards as the table says them ("6♦ 6♥ 6♠", "Joker (as 7s)")."""
    text = say_cards(cards) or "nothing"
    return f"{text} (as {rank}s)" if rank and "JOKER" in cards else text


def _one(card: str | None) -> str:
    return "an unknown card" if card is None else say_card(card)


def describe(move: Any, players: tuple[str, ...]) -> str:
    """One line in plain words, for the table's history."""
    who = players[move.seat] if getattr(move, "seat", None) is not None else "The table"
    match move:
        case FaceUp(cards=cards):
            return f"{who}'s face-up cards: {cards_words(cards)}."
        case Swap(card=card, out=out):
            return f"{who} puts {_one(card)} face up and takes {_one(out)} into the hand."
        case Start(card=card):
            return f"{who} starts" + (f", lowest card {say_card(card)}." if card else ".")
        case Play(cards=cards, rank=rank):
            return f"{who} plays {cards_words(cards, rank)}."
        case Pickup():
            return f"{who} picks up the pile."
        case Interrupt(cards=cards, rank=rank):
            return f"{who} interrupts with {cards_words(cards, rank)}."
        case Add(cards=cards, rank=rank):
            return f"{who} adds the card just drawn: {cards_words(cards, rank)}."
        case Override(entry=entry, rule=rule):
            return f"{who} overrides {rule}: {describe(entry, players)}"
        case ResolveFlag(flag=flag, decision=decision):
            return f"{who} {'accepts' if decision == 'accept' else 'overrides'} flag {flag}."
        case Undo():
            return f"{who} undoes the last entry."
        case Correct(target=target, entry=entry):
            return f"{who} corrects entry {target}: {describe(entry, players)}"
    return sentence_start(repr(move))  # pragma: no cover
