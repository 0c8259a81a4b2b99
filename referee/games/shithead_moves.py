"""Shithead entries: small immutable values, their JSON form and how they are said.

Cards are standard-deck codes ("10H", "QS", "JOKER"); ``None`` is a card nobody entered (GEN-14). A
play is a set of cards of one rank (SH-13); a joker's rank is the play's ``rank``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from . import entry_parse
from .base import Correct, EntryError, Override, ResolveFlag, Undo, show
from .cards import RANKS, card_name, sentence_start, standard_deck
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
#: Every card any table may name: the parse is lenient, the engine checks the match's own deck.
ANY_DECK: Mapping[str, int] = standard_deck(jokers=4, copies=3)


def _rank(value: Any, where: str, reading: entry_parse.Reading) -> str | None:
    if value is not None and value not in RANKS:
        raise EntryError(where, f"is a rank ({', '.join(RANKS)}), not {show(value)}")
    return value


_READERS: dict[Any, entry_parse.Reader] = {
    "seat": entry_parse.seat,
    **dict.fromkeys(_CARD_FIELDS, entry_parse.card),
    "cards": entry_parse.listed(entry_parse.card, MAX_CARDS, "cards"),
    "rank": _rank,
}


def parse_move(data: Any, players: tuple[str, ...], deck: Mapping[str, int] = ANY_DECK, where: str = "entry"):
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


def failed_words(who: str, failed: dict[str, Any]) -> str:
    """A table card that could not go on the pile (``shithead_apply.failed_play``), as what happened."""
    card, top, why = say_card(failed["card"]), failed.get("top"), failed.get("why", "SH-12")
    under = " under the 3s" if failed.get("under") else ""
    clause = ("cannot go" if top is None else f"may not burn the 7{under} at this table" if why == "SH-V15"
              else f"cannot go on the {top}{under}")
    if failed.get("zone") == "facedown":
        return (f"{who} turns over the face-down {card}, which {clause} ({why}), so {who} picks up the pile and "
                f"the {card} (SH-19).")
    if failed.get("takes", True):
        return (f"{who} plays the face-up {card}, which {clause} ({why}), so {who} picks up the pile and the "
                f"{card} (SH-18).")
    return (f"{who} plays the face-up {card}, which {clause} ({why}), so {who} picks up the pile and the {card} "
            "stays face up (SH-18).")


def describe(move: Any, players: tuple[str, ...], failed: dict[str, Any] | None = None) -> str:
    """One line in plain words, for the table's history; ``failed``: the play was of a table card that
    could not go on the pile (``shithead_apply.failed_play``), said as what happened."""
    who = players[move.seat] if getattr(move, "seat", None) is not None else "The table"
    if failed is not None and isinstance(move, Play):
        return failed_words(who, failed)
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
            return f"{who} {'accepts' if decision == 'accept' else 'dismisses'} the dispute (flag {flag})."
        case Undo():
            return f"{who} undoes the last entry."
        case Correct(target=target, entry=entry):
            return f"{who} corrects entry {target}: {describe(entry, players)}"
    return sentence_start(repr(move))  # pragma: no cover
