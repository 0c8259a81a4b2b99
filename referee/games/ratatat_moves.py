"""Rat-a-Tat Cat entries: small immutable values, their JSON form and how they are said.

An entry is what a person at the table records. Card values a player saw are entered; ``None`` stands
for a card nobody entered (GEN-14). Slots are numbered 1–4 from the owner's left (RTC-4).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from . import entry_parse
from .base import Correct, EntryError, Override, ResolveFlag, Undo
from .cards import card_name, sentence_start
from .ratatat_cards import card_words
from .ratatat_rules import SLOTS
from .ratatat_table import card_label


@dataclass(frozen=True, slots=True)
class TurnUp:
    """The top card of the draw pile is turned face up to start the discard pile (RTC-5, RTC-18)."""
    card: str | None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class InitialPeek:
    """A player looks at two of their own cards before the first turn (RTC-6, RTC-V8)."""
    seat: int
    slots: tuple[int, ...]
    seen: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the top card of the draw pile; ``card`` is what the drawer saw, ``shown`` if the table saw it."""
    seat: int
    card: str | None = None
    shown: bool = False


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the top card of the discard pile (RTC-11); ``card`` names it if it had not been entered."""
    seat: int
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Replace:
    """The card in hand goes face down into ``slot``; the card that was there (``out``) is discarded."""
    seat: int
    slot: int
    out: str | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """The drawn card goes face up onto the discard pile, unused (RTC-13b)."""
    seat: int
    card: str | None = None


@dataclass(frozen=True, slots=True)
class UsePower:
    """Show the drawn power card, discard it and resolve its power (RTC-13c)."""
    seat: int
    card: str
    from_slot: int | None = None


@dataclass(frozen=True, slots=True)
class Peek:
    """Look at one card (RTC-31): ``target`` is the owner (default: the peeker); ``seen`` stays private."""
    seat: int
    slot: int
    target: int | None = None
    seen: str | None = None


@dataclass(frozen=True, slots=True)
class Swap:
    """Exchange an own card with another player's card, blind (RTC-32); no slots means no swap."""
    seat: int
    slot: int | None = None
    target: int | None = None
    target_slot: int | None = None


@dataclass(frozen=True, slots=True)
class Call:
    """"Rat-a-Tat Cat!" — the knock that starts the final turns (RTC-40)."""
    seat: int


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """The empty draw pile is remade from the discard pile (RTC-18)."""
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """A player's four cards turned face up at the end of the round (RTC-43)."""
    seat: int
    cards: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class RevealDraw:
    """A power card in ``slot`` replaced at the reveal by a card from the draw pile (RTC-44)."""
    seat: int
    slot: int
    card: str | None


@dataclass(frozen=True, slots=True)
class TimeUp:
    """A timed match's time is up: the current round is the last (RTC-52b)."""
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Stalemate:
    """End a round nobody calls, after the agreed number of full rotations (RTC-46, RTC-V18)."""
    seat: int | None = None


MOVES: dict[str, type] = {
    "turn_up": TurnUp, "initial_peek": InitialPeek, "draw": Draw, "take_discard": TakeDiscard,
    "replace": Replace, "discard": Discard, "power": UsePower, "peek": Peek, "swap": Swap,
    "call": Call, "reshuffle": Reshuffle, "reveal": Reveal, "reveal_draw": RevealDraw,
    "time_up": TimeUp, "stalemate": Stalemate,
    "override": Override, "resolve_flag": ResolveFlag, "undo": Undo, "correct": Correct,
}
MOVE_NAMES = {cls: name for name, cls in MOVES.items()}

# How each field is read: the kind of value and whether it may be left out.
_SEAT_FIELDS = {"seat", "target"}
_SLOT_FIELDS = {"slot", "target_slot", "from_slot"}
_CARD_FIELDS = {"card", "out", "seen"}
_READERS: dict[Any, entry_parse.Reader] = {
    **dict.fromkeys(_SEAT_FIELDS, entry_parse.seat),
    **dict.fromkeys(_SLOT_FIELDS, entry_parse.place(SLOTS)),
    **dict.fromkeys(_CARD_FIELDS, entry_parse.card),
    "slots": entry_parse.listed(entry_parse.place(SLOTS), SLOTS, "slot numbers"),
    "cards": entry_parse.listed(entry_parse.card, SLOTS, "cards"),
    (InitialPeek, "seen"): entry_parse.listed(entry_parse.card, SLOTS, "cards, one per slot"),
    "shown": entry_parse.boolean,
}


def parse_move(data: Any, players: tuple[str, ...], deck: Mapping[str, int], where: str = "entry"):
    """An entry's JSON form → a move value; raises :class:`EntryError` naming the field at fault,
    and nothing else, however hostile the entry (`entry_parse`)."""
    return entry_parse.parse_entry(data, MOVES, _READERS, players, deck, where, _check)


def _check(move: Any, where: str) -> None:
    if type(move) is UsePower and move.card is None:
        raise EntryError(f"{where}.card", "name the power card shown")


def move_to_dict(move: Any, players: tuple[str, ...]) -> dict[str, Any]:
    """A move value → its JSON form (seats by name, unknown cards as "unknown")."""
    out: dict[str, Any] = {"move": MOVE_NAMES[type(move)]}
    for f in fields(move):
        value = getattr(move, f.name)
        if f.name in _SEAT_FIELDS and not isinstance(move, Correct):
            if value is not None:
                out[f.name] = players[value]
        elif isinstance(value, tuple):
            if f.name == "slots":
                out[f.name] = list(value)
            elif value or f.name == "cards":
                out[f.name] = [card_name(v) for v in value]
        elif f.name in _CARD_FIELDS:
            if value is not None or f.name in ("card", "out"):
                out[f.name] = card_name(value)
        elif f.name == "entry":
            out[f.name] = move_to_dict(value, players)
        elif f.name == "shown":
            if value:
                out[f.name] = True
        elif value is not None and value != "":
            out[f.name] = value
    return out


def describe(move: Any, players: tuple[str, ...], outcome: dict[str, Any] | None = None) -> str:
    """One line in plain words, for the table's history; ``outcome`` as ``entry_outcome`` gives it."""
    who = players[move.seat] if getattr(move, "seat", None) is not None else "The table"
    match move:
        case TurnUp(card=card):
            return f"{sentence_start(card_words(card))} is turned up on the discard pile."
        case InitialPeek(seen=seen) if outcome and outcome.get("face_up"):
            shown = [card_words(card) for card in seen if card is not None]
            return (f"{who}'s outer cards are turned face up: {' and '.join(shown)}." if shown
                    else f"{who}'s outer cards are turned face up.")
        case InitialPeek(slots=slots):
            return f"{who} looks at slots {' and '.join(map(str, slots))}."
        case Draw(shown=shown, card=card):
            return f"{who} draws {card_words(card)} and shows it." if shown else f"{who} draws a card."
        case TakeDiscard():
            return f"{who} takes the top card of the discard pile."
        case Replace(slot=slot, out=out):
            return f"{who} puts the card into slot {slot} and discards {card_words(out)}."
        case Discard(card=card):
            return f"{who} discards {card_words(card)}."
        case UsePower(card=card):
            return f"{who} shows {card_words(card)} and uses it."
        case Peek(slot=slot, target=target):
            whose = "own" if target in (None, move.seat) else f"{players[target]}'s"
            return f"{who} peeks at {whose} slot {slot}."
        case Swap(slot=None):
            return f"{who} chooses not to swap."
        case Swap(slot=slot, target=target, target_slot=target_slot):
            return f"{who} swaps slot {slot} with {players[target]}'s slot {target_slot}."
        case Call():
            return f"{who} calls Rat-a-Tat Cat!"
        case Reshuffle():
            return "The discard pile is shuffled into a new draw pile."
        case Reveal(cards=cards):
            return f"{who} reveals {', '.join(card_label(c) for c in cards)}."
        case RevealDraw(slot=slot, card=card):
            return f"{who}'s slot {slot} power card is replaced by {card_words(card)}."
        case TimeUp():
            return "Time is up: this is the last round."
        case Stalemate():
            return "The table ends the round without a call (stalemate)."
        case Override(entry=entry, rule=rule):
            return f"{who} overrides {rule}: {describe(entry, players)}"
        case ResolveFlag(flag=flag, decision=decision):
            return f"{who} {'accepts' if decision == 'accept' else 'dismisses'} the dispute (flag {flag})."
        case Undo():
            return f"{who} undoes the last entry."
        case Correct(target=target, entry=entry):
            return f"{who} corrects entry {target}: {describe(entry, players)}"
    return repr(move)  # pragma: no cover
