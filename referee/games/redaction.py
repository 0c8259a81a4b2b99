"""What the games that keep private sightings share when a phone downloads a log (GEN-6): the wrapping of
overrides and corrections, and a seat's own entries left whole. Each game says which values of another
seat's entry are private (``hide``)."""
from __future__ import annotations

from typing import Any, Callable

from .base import EntryError, seat_index


def entry_seat(state: Any, entry: dict[str, Any]) -> int | None:
    """The seat an entry is by, or None (no seat, or not one of this table's)."""
    try:
        return seat_index(entry.get("seat"), state.players, "seat")
    except EntryError:
        return None


def redact_entry(state: Any, entry: Any, viewer: int | None, start: int,
                 hide: Callable[[Any, dict[str, Any]], dict[str, Any]]) -> Any:
    """``entry`` (stored JSON form, of the round that began at entry ``start``) as seat ``viewer`` may see
    it: an override or a correction of this round redacted inside, the viewer's own entries whole, and
    another seat's entry as ``hide(state, entry)`` gives it."""
    if not isinstance(entry, dict):
        return entry
    move = entry.get("move")
    if move in ("override", "correct") and isinstance(entry.get("entry"), dict):
        target = entry.get("target")
        if move == "correct" and (not isinstance(target, int) or target < start):
            return entry  # corrects an entry of a finished round: that round is whole
        return {**entry, "entry": redact_entry(state, entry["entry"], viewer, start, hide)}
    seat = entry_seat(state, entry)
    if seat is not None and seat == viewer:
        return entry
    return hide(state, entry)
