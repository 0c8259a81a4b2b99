"""How a posted form becomes an entry in its transcript form (seats by name, cards by code): the fields
every game reads the same way, and the entries about the log itself (override, correction, undo, a
flag's decision). Each game's ``entry_from_form`` reads its own entries with these helpers.

Every field is bounded and checked here, so a hostile form is an :class:`EntryError` naming the field
(the web layer answers 400 with its message), never a crash: numbers are ASCII digits of sane size
(``int("²")`` and 5,000-digit numbers are refused before Python sees them), text is cut to its length,
the one JSON field (the refused entry an override lets stand, written by the server into the ruling's
form) is size-capped and parsed defensively. The engine then checks what the entry means.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .base import MAX_ENTRY_NUMBER, EntryError

MAX_REASON = 300
UNREADABLE = "The entry is not readable."  # an override whose entry is not one
MAX_TEXT = 40
MAX_JSON = 4000
_DIGITS = re.compile(r"[0-9]{1,7}")

#: Entries about the log itself: recorded with the seat of the phone that made them.
LOG_MOVES = ("undo", "resolve_flag", "correct", "override")
CORRECT_PREFIX = "c_"

EntryFromForm = Callable[..., dict[str, Any]]


#: What a refused value of a whole-number field is told, by what the field means (the web layer says these
#: again in the phone's language: referee/i18n_rulings.py reads each by its shape).
WHOLE_WORDS = {
    "slot": "A slot must be a place from %(low)s to %(high)s.",
    "place": "A place in a row must be a number from %(low)s to %(high)s.",
    "pile": "A building pile must be a number from %(low)s to %(high)s.",
    "stack": "A side stack must be a number from %(low)s to %(high)s.",
    "count": "The number of cards drawn must be from %(low)s to %(high)s.",
    "entry": "The number of an entry must be from %(low)s to %(high)s.",
    "flag": "The number of a flag must be from %(low)s to %(high)s.",
}


@dataclass(frozen=True, slots=True)
class Whole:
    """What a whole-number field may hold: ``low``..``high``, a ``what`` of WHOLE_WORDS."""
    low: int
    high: int
    what: str

    def words(self) -> str:
        return WHOLE_WORDS[self.what] % {"low": self.low, "high": self.high}


ENTRY_NUMBER = Whole(0, MAX_ENTRY_NUMBER, "entry")
FLAG_NUMBER = Whole(0, MAX_ENTRY_NUMBER, "flag")


def number(form: Mapping[str, str], name: str, allowed: Whole | None = None) -> int | None:
    """An optional whole number field: plain digits only. With ``allowed``, any other value (-1, 0 for a
    slot, 1.5, a number of 5,000 digits) is refused by saying what the field holds."""
    raw = form.get(name, "")
    if raw == "":
        return None
    value = int(raw.strip()) if _DIGITS.fullmatch(raw.strip()) else None
    if allowed is not None:
        if value is None or not allowed.low <= value <= allowed.high:
            raise EntryError(name, allowed.words())
        return value
    if value is None:
        raise EntryError(name, f"{name} must be a whole number.")
    return value


def text(form: Mapping[str, str], name: str, limit: int = MAX_TEXT) -> str:
    """A text field, refused when longer than ``limit`` (never cut short without a word)."""
    raw = form.get(name, "")
    if len(raw) > limit:
        what = "A reason" if name == "reason" else "That field"
        raise EntryError(name, f"{what} has at most {limit} characters, not {len(raw)}.")
    return raw


def player(form: Mapping[str, str], name: str, players: tuple[str, ...] | list[str]) -> str | None:
    """A player named by a form field, or None if the field is empty."""
    raw = form.get(name, "")
    if raw == "":
        return None
    if raw not in players:
        raise EntryError(name, f"{raw[:MAX_TEXT]!r} is not a player at this table.")
    return raw


def refused_entry(raw: str) -> dict[str, Any]:
    """The entry an override lets stand (the server wrote it into the ruling's form as JSON)."""
    if not raw or len(raw) > MAX_JSON:
        raise EntryError("entry", "The entry is missing or too long.")
    try:
        inner = json.loads(raw)
    except (ValueError, RecursionError):
        raise EntryError("entry", UNREADABLE) from None
    if not isinstance(inner, dict):
        raise EntryError("entry", UNREADABLE)
    return inner


def by(players: tuple[str, ...] | list[str], seat: int | None) -> dict[str, Any]:
    """Who made an entry about the log: the phone's own seat, whatever the form says."""
    return {} if seat is None else {"seat": players[seat]}


def log_entry(form: Mapping[str, str], players: tuple[str, ...], seat: int | None,
              game_entry: EntryFromForm, turn: int | None = None) -> dict[str, Any] | None:
    """An entry about the log (override, correction, undo, a flag's decision), or None for a game's own
    entry. ``game_entry`` reads the corrected entry, from the same fields as the original, prefixed
    ``c_`` (the correction page shows the original entry's pickers)."""
    move = form.get("move", "")
    if move == "override":
        return _override(form, players, seat)
    if move == "undo":
        return {"move": "undo", **by(players, seat)}
    if move == "resolve_flag":
        entry: dict[str, Any] = {"move": "resolve_flag", **by(players, seat)}
        flag = number(form, "flag", FLAG_NUMBER)
        if flag is not None:
            entry["flag"] = flag
        if form.get("decision", ""):
            entry["decision"] = text(form, "decision")
        if form.get("reason", ""):
            entry["reason"] = text(form, "reason", MAX_REASON)
        if form.get("about", ""):  # the dispute as the phone showed it (base.flag_about)
            entry["about"] = text(form, "about", 20)
        return entry
    if move != "correct":
        return None
    target = number(form, "target_entry", ENTRY_NUMBER)
    if target is None:
        raise EntryError("target_entry", "Which entry is corrected?")
    correction = {"move": "correct", "target": target, **by(players, seat)}
    if "entry" in form and CORRECT_PREFIX + "move" not in form:  # a client that sends the entry itself
        return {**correction, "entry": refused_entry(form["entry"]), "reason": _reason(form)}
    inner_form = {k[len(CORRECT_PREFIX):]: v for k, v in form.items() if k.startswith(CORRECT_PREFIX)}
    if inner_form.get("move", "") in (*LOG_MOVES, ""):
        raise EntryError("c_move", "Say what really happened instead.")
    named = player(inner_form, "for", players)
    inner_seat = players.index(named) if named is not None else None
    return {**correction, "entry": game_entry(inner_form, players, inner_seat, shared=False, turn=turn),
            "reason": _reason(form)}


def _reason(form: Mapping[str, str]) -> str:
    """Why an override or a correction: the log keeps it beside who made it, so it is asked for."""
    reason = text(form, "reason", MAX_REASON)
    if not reason.strip():
        raise EntryError("reason", "Say why: an override or a correction is recorded with its reason.")
    return reason


def _override(form: Mapping[str, str], players: tuple[str, ...], seat: int | None) -> dict[str, Any]:
    """Let a refused entry stand (GEN-5), with the reason it is recorded with. A refused correction is let
    stand as a correction whose entry is overridden (an override holds a table entry, and the correction
    still replaces its target)."""
    inner = refused_entry(form.get("entry", ""))
    rule, reason = text(form, "rule", 20), _reason(form)
    if inner.get("move") == "correct" and isinstance(inner.get("entry"), dict):
        return {"move": "correct", "target": inner.get("target"), "reason": reason,
                "entry": {"move": "override", "rule": rule, "entry": inner["entry"], "reason": reason},
                **by(players, seat)}
    return {"move": "override", "rule": rule, "entry": inner, "reason": reason, **by(players, seat)}


def begin_entry(form: Mapping[str, str], players: tuple[str, ...], seat: int | None,
                game_entry: EntryFromForm, turn: int | None = None) -> tuple[str, dict[str, Any] | None]:
    """Every game's first step: the form's move, and the whole entry when it is about the log
    (``log_entry``), else None for the game to read its own fields."""
    move = form.get("move", "")
    if not move or len(move) > 20:
        raise EntryError("move", "The form names no entry.")
    return move, log_entry(form, players, seat, game_entry, turn)


def entrant(form: Mapping[str, str], players: tuple[str, ...], seat: int | None, move: str, *,
            shared: bool, turn: int | None, for_moves: tuple[str, ...] = (), table_moves: tuple[str, ...] = (),
            seatless_acts_for_turn: bool = False) -> str | None:
    """Whose entry it is, by name; None for an entry of the whole table (``table_moves``).

    An entry of ``for_moves`` names whose cards they are (``for``, from any phone; default: the phone's
    own seat). Any other is the phone's own seat's, or on the shared phone ``for``'s (default: whoever's
    turn it is). With ``seatless_acts_for_turn`` a phone without a seat enters like the shared phone."""
    named = player(form, "for", players)
    if move in table_moves:
        return None
    if move in for_moves and named is not None:
        return named
    if move in for_moves and not seatless_acts_for_turn:
        if seat is None:
            raise EntryError("for", "Whose cards are these?")
        return players[seat]
    acting = seat
    if shared or (seat is None and seatless_acts_for_turn):
        acting = players.index(named) if named is not None else turn
    if acting is None:
        raise EntryError("for", "Whose entry is this? Take a seat, or name the player." if seatless_acts_for_turn
                         else "It is nobody's turn: there is nothing to enter for a player now.")
    return players[acting]


def copy_fields(form: Mapping[str, str], entry: dict[str, Any], *,
                numbers: tuple[str, ...] | Mapping[str, Whole] = (), texts: tuple[str, ...] = (),
                text_limit: int = MAX_TEXT) -> dict[str, Any]:
    """The form's whole-number and text fields that are filled in, copied into ``entry``; ``numbers`` may
    map each field to what it holds (``Whole``)."""
    for name in numbers:
        value = number(form, name, numbers.get(name) if isinstance(numbers, Mapping) else None)
        if value is not None:
            entry[name] = value
    for name in texts:
        if form.get(name, "") != "":
            entry[name] = text(form, name, text_limit)
    return entry


def log_form(entry: Mapping[str, Any], game_form: Callable[[Mapping[str, Any]], dict[str, str]]
             ) -> dict[str, str] | None:
    """The form for an entry about the log (what ``log_entry`` reads), or None for a game's own entry."""
    move = entry.get("move")
    if move not in LOG_MOVES:
        return None
    form: dict[str, str] = {"move": str(move)}
    if move == "override":
        form.update(rule=str(entry.get("rule", "")), entry=json.dumps(entry.get("entry"), ensure_ascii=False))
    elif move == "resolve_flag":
        form.update(flag=str(entry.get("flag", "")), decision=str(entry.get("decision", "")))
        if entry.get("about"):
            form["about"] = str(entry["about"])
    elif move == "correct":
        form["target_entry"] = str(entry.get("target", ""))
        form.update({CORRECT_PREFIX + k: v for k, v in game_form(entry.get("entry") or {}).items()})
    if entry.get("reason"):
        form["reason"] = str(entry["reason"])
    return form
