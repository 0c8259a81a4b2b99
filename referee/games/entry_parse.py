"""An entry's JSON form read into a move value, the same way for every game.

What every entry shares is checked here: an object with a known ``move``, no field its move does not
have, the notes people may add (``note``, ``at``), the reason, rule and decision of the entries about
the log, the numbers of earlier entries and flags, and overrides and corrections nested at most
MAX_NESTING deep. Each game gives one reader per field name (a slot, a card, a list of cards...), so
whatever a hostile transcript holds ends as an :class:`EntryError` naming the field at fault, never a
crash, and every entry accepted replays.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, Callable, Mapping

from .base import MAX_ENTRY_NUMBER, MAX_NAME, MAX_TEXT, Correct, EntryError, ResolveFlag, seat_index, show
from .cards import parse_card

MAX_NESTING = 3  # overrides and corrections inside one another
TEXT_LIMITS = {"reason": MAX_TEXT, "rule": MAX_NAME, "decision": MAX_NAME, "about": MAX_NAME}
EXTRA = {"move": None, "note": MAX_TEXT, "at": MAX_NAME}  # text for people, ignored
_NUMBERED = {(Correct, "target"), (ResolveFlag, "flag")}


@dataclass(frozen=True, slots=True)
class Reading:
    """What a field's reader may need: the table's players, the deck, and whether the field is required."""
    players: tuple[str, ...]
    deck: Mapping[str, int]
    required: bool = True


Reader = Callable[[Any, str, Reading], Any]
"""(the field's value, where it is, the reading) -> the value read; raises EntryError."""


def text(value: Any, where: str, limit: int) -> str:
    if not isinstance(value, str):
        raise EntryError(where, "is text")
    if len(value) > limit:
        raise EntryError(where, f"is at most {limit} characters, not {len(value)}")
    return value.strip()


def seat(value: Any, where: str, reading: Reading) -> int | None:
    """A player by name or 0-based index; null where the field is optional."""
    if value is None and not reading.required:
        return None
    return seat_index(value, reading.players, where)


def card(value: Any, where: str, reading: Reading) -> str | None:
    return parse_card(value, reading.deck, where)


def boolean(value: Any, where: str, reading: Reading) -> bool:
    if not isinstance(value, bool):
        raise EntryError(where, "is true or false")
    return value


def place(most: int, noun: str = "slot") -> Reader:
    """A slot (or place) numbered 1..``most``; null where the field is optional."""
    def read(value: Any, where: str, reading: Reading) -> int | None:
        if value is None and not reading.required:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most:
            raise EntryError(where, f"a {noun} is a number from 1 to {most}, not {show(value)}")
        return value
    return read


def listed(item: Reader, most: int, things: str) -> Reader:
    """A list of at most ``most`` values, each read by ``item``, as a tuple."""
    def read(value: Any, where: str, reading: Reading) -> tuple:
        if not isinstance(value, list) or len(value) > most:
            raise EntryError(where, f"is a list of at most {most} {things}")
        each = Reading(reading.players, reading.deck)  # an item of a list is never null
        return tuple(item(v, f"{where}[{i}]", each) for i, v in enumerate(value))
    return read


def _entry_number(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ENTRY_NUMBER:
        raise EntryError(where, f"is the number of an earlier entry or flag (0–{MAX_ENTRY_NUMBER:,}), "
                                f"not {show(value)}")
    return value


def _text_field(limit: int) -> Reader:
    return lambda value, where, reading: text(value, where, limit)


def parse_entry(data: Any, moves: Mapping[str, type], readers: Mapping[Any, Reader], players: tuple[str, ...],
                deck: Mapping[str, int], where: str = "entry", check: Callable[[Any, str], None] | None = None,
                _depth: int = 0):
    """An entry's JSON form -> a move value of one of ``moves`` (name -> dataclass).

    ``readers`` maps a field name, or a (class, field name) pair where one move's field differs, to its
    reader; the reason, rule and decision fields, the nested entry and the entry and flag numbers are
    read here. ``check(move, where)``, if given, is a game's own check of each move read (nested ones too)."""
    if not isinstance(data, dict):
        raise EntryError(where, "an entry is a JSON object with a \"move\" field")
    name = data.get("move")
    cls = moves.get(name) if isinstance(name, str) else None
    if cls is None:
        raise EntryError(f"{where}.move", f"{show(name)} is not an entry of this game ({', '.join(moves)})")
    known = {f.name for f in fields(cls)}
    for key in data:
        if key not in known and key not in EXTRA:
            raise EntryError(f"{where}.{show(key)[1:-1]}", f"{show(key)} is not a field of a {name!r} entry")
        if EXTRA.get(key) is not None:
            text(data[key], f"{where}.{key}", EXTRA[key])
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        at = f"{where}.{f.name}"
        if (cls, f.name) in _NUMBERED:
            kwargs[f.name] = _entry_number(data.get(f.name), at)
            continue
        if f.name not in data:
            if f.default is MISSING:
                raise EntryError(at, "is missing")
            continue
        value = data[f.name]
        if f.name == "entry":
            inner = value.get("move") if isinstance(value, dict) else None
            if inner in ("undo", "correct"):
                raise EntryError(f"{at}.move", f"an override or a correction holds a table entry, not {inner!r}")
            if inner == "override" and _depth >= MAX_NESTING - 1:
                raise EntryError(at, f"overrides and corrections nest at most {MAX_NESTING} deep")
            kwargs[f.name] = parse_entry(value, moves, readers, players, deck, at, check, _depth + 1)
            continue
        read = readers.get((cls, f.name)) or readers.get(f.name)
        if read is None and f.name in TEXT_LIMITS:
            read = _text_field(TEXT_LIMITS[f.name])
        if read is None:  # pragma: no cover - a game lists a reader for each of its fields
            raise AssertionError(f"{cls.__name__}.{f.name}")
        kwargs[f.name] = read(value, at, Reading(players, deck, f.default is MISSING))
    if cls is ResolveFlag and kwargs.get("decision") not in ("accept", "override"):
        raise EntryError(f"{where}.decision", "is \"accept\" or \"override\"")
    move = cls(**kwargs)
    if check is not None:
        check(move, where)
    return move
