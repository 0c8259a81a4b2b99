"""How a posted form becomes an entry in its transcript form (seats by name, cards by code).

Every field is bounded and checked here, so a hostile form gets a 400 with a message, never a 500:
numbers are ASCII digits of sane size (``int("²")`` and 5,000-digit numbers are refused before
Python sees them), text is cut to its length, the one JSON field (the refused entry an override
lets stand, written by the server into the ruling's form) is size-capped and parsed defensively.
The engine then checks what the entry means.
"""
from __future__ import annotations

import json
import re
from typing import Any, Mapping

from werkzeug.exceptions import BadRequest

MAX_REASON = 300
MAX_TEXT = 40
MAX_JSON = 4000
_DIGITS = re.compile(r"[0-9]{1,7}")

INT_FIELDS = ("slot", "target_slot", "flag")
TEXT_FIELDS = ("card", "out", "seen", "target", "decision", "rule")
# Entries of the whole table: nobody's turn, no seat recorded.
TABLE_MOVES = ("turn_up", "reshuffle", "time_up", "stalemate")
# Entries about the log itself: recorded with the seat of the phone that made them.
LOG_MOVES = ("undo", "resolve_flag", "correct", "override")
# Entries naming whose cards they are, made from any phone at the table.
FOR_MOVES = ("reveal", "reveal_draw")
CORRECT_PREFIX = "c_"


class FormError(BadRequest):
    """A malformed form: 400 with a message that names the field."""

    def __init__(self, message: str):
        super().__init__(description=message)


def number(form: Mapping[str, str], name: str) -> int | None:
    """An optional whole number field: plain digits only."""
    raw = form.get(name, "")
    if raw == "":
        return None
    if not _DIGITS.fullmatch(raw.strip()):
        raise FormError(f"{name} must be a whole number.")
    return int(raw.strip())


def text(form: Mapping[str, str], name: str, limit: int = MAX_TEXT) -> str:
    return form.get(name, "")[:limit]


def player(form: Mapping[str, str], name: str, players: list[str]) -> str | None:
    """A player named by a form field, or None if the field is empty."""
    raw = form.get(name, "")
    if raw == "":
        return None
    if raw not in players:
        raise FormError(f"{raw[:MAX_TEXT]!r} is not a player at this table.")
    return raw


def refused_entry(raw: str) -> dict[str, Any]:
    """The entry an override lets stand (the server wrote it into the ruling's form as JSON)."""
    if not raw or len(raw) > MAX_JSON:
        raise FormError("The entry to override is missing or too long.")
    try:
        inner = json.loads(raw)
    except (ValueError, RecursionError):
        raise FormError("The entry to override is not readable.") from None
    if not isinstance(inner, dict):
        raise FormError("The entry to override is not readable.")
    return inner


def entry_from_form(form: Mapping[str, str], players: list[str], seat: int | None, *,
                    shared: bool = False, turn: int | None = None) -> dict[str, Any]:
    """The entry a form describes. ``seat`` is the phone's own seat (None on the shared phone or a
    seated phone's table-wide entry); on the shared phone, the form's ``for`` names who acts
    (default: whoever's turn it is)."""
    move = form.get("move", "")
    if not move or len(move) > 20:
        raise FormError("The form names no entry.")
    if move == "correct":
        return _correction(form, players, seat, shared=shared, turn=turn)
    if move == "override":
        return {"move": "override", "rule": text(form, "rule", 20), "entry": refused_entry(form.get("entry", "")),
                "reason": text(form, "reason", MAX_REASON), **_by(players, seat)}
    entry: dict[str, Any] = {"move": move}
    named = player(form, "for", players)
    if move in FOR_MOVES:
        who = named if named is not None else players[seat] if seat is not None else None
        if who is None:
            raise FormError("Whose cards are these?")
        entry["seat"] = who
    elif move in LOG_MOVES:
        entry.update(_by(players, seat))
    elif move not in TABLE_MOVES:
        acting = seat
        if shared:
            acting = players.index(named) if named is not None else turn
        if acting is None:
            raise FormError("It is nobody's turn: there is nothing to enter for a player now.")
        entry["seat"] = players[acting]
    for name in INT_FIELDS:
        value = number(form, name)
        if value is not None:
            entry[name] = value
    for name in TEXT_FIELDS:
        if form.get(name, "") != "":
            entry[name] = text(form, name)
    if form.get("reason", "") != "":
        entry["reason"] = text(form, "reason", MAX_REASON)
    if move == "reveal":
        entry["cards"] = [text(form, f"card{i}", 12) or "unknown" for i in range(1, 5)]
        entry.pop("card", None)
    if move == "initial_peek":
        slots = [number({"slot": s}, "slot") for s in form.get("slots", "1,4").split(",")[:4]]
        entry["slots"] = [s for s in slots if s is not None] or [1, 4]
        entry["seen"] = [text(form, f"seen{i}", 12) or "unknown" for i in range(1, len(entry["slots"]) + 1)]
    if move == "draw" and form.get("shown") == "1":
        entry["shown"] = True
    return entry


def _by(players: list[str], seat: int | None) -> dict[str, Any]:
    """Who made an entry about the log: the phone's own seat, whatever the form says."""
    return {} if seat is None else {"seat": players[seat]}


def _correction(form: Mapping[str, str], players: list[str], seat: int | None, *, shared: bool,
                turn: int | None) -> dict[str, Any]:
    """A correction: the entry number and what really happened, from the same fields as the original
    entry, prefixed ``c_`` (the correction page shows the original entry's pickers)."""
    target = number(form, "target_entry")
    if target is None:
        raise FormError("Which entry is corrected?")
    if "entry" in form and CORRECT_PREFIX + "move" not in form:  # a client that sends the entry itself
        return {"move": "correct", "target": target, "entry": refused_entry(form["entry"]),
                "reason": text(form, "reason", MAX_REASON), **_by(players, seat)}
    inner_form = {k[len(CORRECT_PREFIX):]: v for k, v in form.items() if k.startswith(CORRECT_PREFIX)}
    if inner_form.get("move", "") in ("correct", "override", "undo", "resolve_flag", ""):
        raise FormError("Say what really happened instead.")
    inner_seat = players.index(inner_form["for"]) if player(inner_form, "for", players) else None
    inner = entry_from_form(inner_form, players, inner_seat, shared=False, turn=turn)
    return {"move": "correct", "target": target, "entry": inner, "reason": text(form, "reason", MAX_REASON),
            **_by(players, seat)}
