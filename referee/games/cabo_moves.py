"""Cabo / Cambio entries: small immutable values, their JSON form and how they are said.

An entry is what a person at the table records. ``None`` stands for a card nobody entered (GEN-14,
"unknown" in JSON). Places are numbered from 1 within a layout (CAB-1; see ``cabo_state``).

The entries (JSON ``move``): ``turn_up``, ``initial_peek``, ``draw``, ``take_discard``, ``replace``,
``match`` (a matching exchange, CAB-5), ``discard``, ``power`` (show the drawn card and use its power),
``peek`` (a Peek at one's own card or a Spy at another's), ``swap`` (a blind Swap, or none),
``look_swap`` (look at two cards, then swap them or not), ``snap`` (out of turn, CAB-6), ``give`` (the
card a snapper gives for another player's snapped card), ``call``, ``reshuffle``, ``reveal``; and the
log's ``override``, ``resolve_flag``, ``undo``, ``correct``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Mapping

from . import entry_parse
from .base import Correct, EntryError, Override, ResolveFlag, Undo
from .cabo_cards import card_words, label, rank, sentence_card
from .cabo_rules import MAX_SLOTS
from .cards import card_name


@dataclass(frozen=True, slots=True)
class TurnUp:
    """The top card of the draw pile is turned face up to start the discard pile (CAB-1)."""
    card: str | None
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class InitialPeek:
    """A player looks once, secretly, at two of their own cards before their first turn (CAB-2)."""
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
    """Take the top card of the discard pile (CAB-3b)."""
    seat: int
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Replace:
    """The card in hand goes into place ``slot``; the card that was there (``out``) is discarded."""
    seat: int
    slot: int
    out: str | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """A matching exchange (CAB-5): the cards in ``slots`` are turned up as a set of equal cards, showing
    ``cards``; if they all match they are discarded and the card in hand takes place ``slot`` (default the
    first of them). ``matched`` says the outcome when a card was not entered. ``out``: the card in hand a
    failed claim puts face up onto the discard pile (1st edition, CAB-V4 no_penalty), None if not named."""
    seat: int
    slots: tuple[int, ...]
    cards: tuple[str | None, ...] = ()
    slot: int | None = None
    matched: bool | None = None
    out: str | None = None


@dataclass(frozen=True, slots=True)
class Discard:
    """The drawn card goes face up onto the discard pile, its power unused (CAB-3a)."""
    seat: int
    card: str | None = None


@dataclass(frozen=True, slots=True)
class UsePower:
    """Show the drawn card, discard it and use its power (CAB-3a, CAB-7)."""
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class Peek:
    """A Peek at one's own card, or a Spy at another player's (``target``); ``seen`` stays private."""
    seat: int
    slot: int
    target: int | None = None
    seen: str | None = None


@dataclass(frozen=True, slots=True)
class Swap:
    """A blind Swap: the card in ``owner``'s place ``slot`` (default the swapper's) changes places with
    ``target``'s place ``target_slot``. No places: no swap."""
    seat: int
    slot: int | None = None
    target: int | None = None
    target_slot: int | None = None
    owner: int | None = None


@dataclass(frozen=True, slots=True)
class LookSwap:
    """Look at one's own card in ``slot`` and ``target``'s card in ``target_slot`` (``seen`` and
    ``target_seen`` stay private), then swap them (``swap``) or not."""
    seat: int
    slot: int
    target: int
    target_slot: int
    swap: bool = False
    seen: str | None = None
    target_seen: str | None = None


@dataclass(frozen=True, slots=True)
class Snap:
    """Out of turn (CAB-6): ``seat`` throws the card in ``owner``'s place ``slot`` (default their own)
    onto the fresh discard, showing ``card``; ``matched`` says the outcome when a card was not entered."""
    seat: int
    slot: int
    owner: int | None = None
    card: str | None = None
    matched: bool | None = None


@dataclass(frozen=True, slots=True)
class Give:
    """After snapping another player's card, the snapper gives them the card in their own place ``slot``,
    face down, to fill the gap (CAB-6)."""
    seat: int
    slot: int


@dataclass(frozen=True, slots=True)
class Call:
    """"Cabo!" / "Cambio!" — the call that starts the others' last turns (CAB-20)."""
    seat: int


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """The empty draw pile is remade from the discard pile, its top card staying face up (CAB-22)."""
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """A player's cards turned face up at the end of the round, place by place (empty places left out),
    or the one card in place ``slot``; "unknown" is fine for a card whose value the table already knows."""
    seat: int
    cards: tuple[str | None, ...]
    slot: int | None = None


MOVES: dict[str, type] = {
    "turn_up": TurnUp, "initial_peek": InitialPeek, "draw": Draw, "take_discard": TakeDiscard,
    "replace": Replace, "match": Match, "discard": Discard, "power": UsePower, "peek": Peek, "swap": Swap,
    "look_swap": LookSwap, "snap": Snap, "give": Give, "call": Call, "reshuffle": Reshuffle,
    "reveal": Reveal,
    "override": Override, "resolve_flag": ResolveFlag, "undo": Undo, "correct": Correct,
}
MOVE_NAMES = {cls: name for name, cls in MOVES.items()}

_SEAT_FIELDS = {"seat", "target", "owner"}
_SLOT_FIELDS = {"slot", "target_slot"}
_CARD_FIELDS = {"card", "out", "seen", "target_seen"}
_BOOL_FIELDS = {"shown", "swap"}


def _matched(value: Any, where: str, reading: entry_parse.Reading) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise EntryError(where, "is true, false or null")
    return value


_PLACE = entry_parse.place(MAX_SLOTS, "place")
_READERS: dict[Any, entry_parse.Reader] = {
    **dict.fromkeys(_SEAT_FIELDS, entry_parse.seat),
    **dict.fromkeys(_SLOT_FIELDS, _PLACE),
    **dict.fromkeys(_CARD_FIELDS, entry_parse.card),
    **dict.fromkeys(_BOOL_FIELDS, entry_parse.boolean),
    "slots": entry_parse.listed(_PLACE, MAX_SLOTS, "places"),
    "cards": entry_parse.listed(entry_parse.card, MAX_SLOTS, "cards"),
    (InitialPeek, "seen"): entry_parse.listed(entry_parse.card, MAX_SLOTS, "cards"),
    "matched": _matched,
}


def all_match(move: Match) -> bool:
    """Whether a matching claim held (CAB-5), as the rules decide it: every card shown of one rank, or, where a
    card shown was not named, as the entry says (True when it does not say)."""
    if move.cards and all(c is not None for c in move.cards):
        return len({rank(c) for c in move.cards}) == 1
    return move.matched is not False


def parse_move(data: Any, players: tuple[str, ...], deck: Mapping[str, int], where: str = "entry"):
    """An entry's JSON form → a move value; raises :class:`EntryError` naming the field at fault, and
    nothing else, however hostile the entry (`entry_parse`)."""
    return entry_parse.parse_entry(data, MOVES, _READERS, players, deck, where, _check)


def _check(move: Any, where: str) -> None:
    if type(move) is UsePower and move.card is None:
        raise EntryError(f"{where}.card", "name the card shown")


def move_to_dict(move: Any, players: tuple[str, ...]) -> dict[str, Any]:
    """A move value → its JSON form (seats by name, unknown cards as "unknown")."""
    out: dict[str, Any] = {"move": MOVE_NAMES[type(move)]}
    for f in fields(move):
        value = getattr(move, f.name)
        if f.name in _SEAT_FIELDS and not isinstance(move, Correct):
            if value is not None:
                out[f.name] = players[value]
        elif f.name == "slots":
            out[f.name] = list(value)
        elif f.name == "cards":
            if value or isinstance(move, Reveal):
                out[f.name] = [card_name(v) for v in value]
        elif isinstance(move, InitialPeek) and f.name == "seen":
            if value:
                out[f.name] = [card_name(v) for v in value]
        elif f.name in _CARD_FIELDS:
            if value is not None or (f.name in ("card", "out") and not isinstance(move, Match)):
                out[f.name] = card_name(value)
        elif f.name == "entry":
            out[f.name] = move_to_dict(value, players)
        elif f.name in _BOOL_FIELDS:
            if value:
                out[f.name] = True
        elif value is not None and value != "":
            out[f.name] = value
    return out


def penalty_words(given: int, places: Any) -> str:
    """The penalty cards a wrong snap cost, in words ("a penalty card (place 5)")."""
    if not given:
        return "no penalty card (the draw pile is empty)"
    if given == 1:
        return f"a penalty card (place {places[0]})" if places else "a penalty card"
    at = f" (places {', '.join(map(str, places[:-1]))} and {places[-1]})" if len(places) > 1 else ""
    return f"{given} penalty cards{at}"


def failed_words(who: str, whose: str, move: Any, failed: dict[str, Any]) -> str:
    """A snap that did not match (``cabo_apply.failed_play``), as what happened (CAB-6)."""
    onto = failed.get("onto")
    top = f"the {label(onto)}" if onto is not None else "the discard"
    cost = penalty_words(failed.get("penalty", 0), failed.get("places") or ())
    return (f"{who} snaps {whose} place {move.slot} ({card_words(failed.get('card', move.card))}), which does not "
            f"match {top}: it goes back, and {who} takes {cost} (CAB-6).")


def describe(move: Any, players: tuple[str, ...], failed: dict[str, Any] | None = None) -> str:
    """One line in plain words, for the table's history; ``failed``: a snap that did not match
    (``cabo_apply.failed_play``), said as what happened."""
    who = players[move.seat] if getattr(move, "seat", None) is not None else "The table"
    if failed is not None and isinstance(move, Snap):
        return failed_words(who, "their own" if move.owner in (None, move.seat) else f"{players[move.owner]}'s",
                            move, failed)
    match move:
        case TurnUp(card=card):
            return f"{sentence_card(card)} is turned up on the discard pile."
        case InitialPeek(slots=slots):
            return f"{who} looks at places {' and '.join(map(str, slots))}."
        case Draw(shown=shown, card=card):
            return f"{who} draws {card_words(card)} and shows it." if shown else f"{who} draws a card."
        case TakeDiscard(card=None):
            return f"{who} takes the top card of the discard pile."
        case TakeDiscard(card=card):  # the card lay face up: the entry names what every seat saw (CAB-3)
            return f"{who} takes the top card of the discard pile, {card_words(card)}."
        case Replace(slot=slot, out=out):
            return f"{who} puts the card into place {slot} and discards {card_words(out)}."
        case Match(slots=slots, cards=cards, out=out):
            shown = f", showing {', '.join(label(c) for c in cards)}" if cards else ""
            lost = f", and discards {card_words(out)}" if out is not None else ""  # a failed claim (CAB-5, 1st ed.)
            failed = ": they do not all match (CAB-5)" if out is None and not all_match(move) else ""
            return f"{who} claims places {', '.join(map(str, slots))} match{shown}{lost}{failed}."
        case Discard(card=card):
            return f"{who} discards {card_words(card)}."
        case UsePower(card=card):
            return f"{who} shows {card_words(card)} and uses its power."
        case Peek(slot=slot, target=target):
            if target in (None, move.seat):
                return f"{who} peeks at their own place {slot}."
            return f"{who} spies on {players[target]}'s place {slot}."
        case Swap(slot=None):
            return f"{who} chooses not to swap."
        case Swap(slot=slot, target=target, target_slot=target_slot, owner=owner):
            whose = "their" if owner in (None, move.seat) else f"{players[owner]}'s"
            return f"{who} swaps {whose} place {slot} with {players[target]}'s place {target_slot}, unseen."
        case LookSwap(slot=slot, target=target, target_slot=target_slot, swap=swap):
            what = "swaps them" if swap else "keeps them where they are"
            return f"{who} looks at their place {slot} and {players[target]}'s place {target_slot}, and {what}."
        case Snap(slot=slot, owner=owner, card=card):
            whose = "their own" if owner in (None, move.seat) else f"{players[owner]}'s"
            return f"{who} snaps {whose} place {slot} ({card_words(card)}) onto the discard pile."
        case Give(slot=slot):
            return f"{who} gives the card in their place {slot} to fill the gap."
        case Call():
            return f"{who} calls!"  # “Cabo!” or “Cambio!”: the same call under either name
        case Reshuffle():
            return "The discard pile, all but its top card, is shuffled into a new draw pile."
        case Reveal(cards=cards, slot=None):
            return f"{who} reveals {', '.join(label(c) for c in cards) or 'no cards'}."
        case Reveal(cards=cards, slot=slot):
            return f"{who} turns up place {slot}: {', '.join(label(c) for c in cards)}."
        case Override(entry=entry, rule=rule):
            return f"{who} overrides {rule}: {describe(entry, players)}"
        case ResolveFlag(flag=flag, decision=decision):
            return f"{who} {'accepts' if decision == 'accept' else 'dismisses'} the dispute (flag {flag})."
        case Undo():
            return f"{who} undoes the last entry."
        case Correct(target=target, entry=entry):
            return f"{who} corrects entry {target}: {describe(entry, players)}"
    return repr(move)  # pragma: no cover
