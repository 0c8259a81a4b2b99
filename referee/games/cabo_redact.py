"""What one phone may download of a Cabo / Cambio log (GEN-6): in the round in progress, another seat's
private sightings become "unknown" — the card drawn unseen, a Peek or Spy, the first look, the two cards
of a look-and-swap — inside overrides and corrections too. Entries of finished rounds are whole, and so
is a round whose cards are all turned up (its private notes have been checked against them).

Redacted entries replay to the same public state: a private value only adds a private note, and no
ruling on any entry reads a private note (snaps, matching claims and powers are decided on the cards
turned up for everyone, CAB-K2), so nothing else changes.
"""
from __future__ import annotations

from typing import Any

from .base import EntryError, seat_index
from .cabo_state import reveal_complete

_PRIVATE = {"peek": ("seen",), "look_swap": ("seen", "target_seen")}


def redact(state: Any, entries: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """``entries`` (their JSON form, as stored) as the seat ``viewer`` (None: a spectator) may see them,
    given ``state``, the state after them."""
    r = state.round
    if r is None or reveal_complete(r):
        return list(entries)
    start = min(max(r.first_entry, 0), len(entries))
    return list(entries[:start]) + [_redact(state, e, viewer, start) for e in entries[start:]]


def _seat(state: Any, entry: dict[str, Any]) -> int | None:
    try:
        return seat_index(entry.get("seat"), state.players, "seat")
    except EntryError:
        return None


def _redact(state: Any, entry: Any, viewer: int | None, start: int) -> Any:
    if not isinstance(entry, dict):
        return entry
    move = entry.get("move")
    if move in ("override", "correct") and isinstance(entry.get("entry"), dict):
        target = entry.get("target")
        if move == "correct" and (not isinstance(target, int) or target < start):
            return entry  # corrects an entry of a finished round: that round is whole
        return {**entry, "entry": _redact(state, entry["entry"], viewer, start)}
    seat = _seat(state, entry)
    if seat is not None and seat == viewer:
        return entry
    hidden = {k: "unknown" for k in _PRIVATE.get(move, ()) if entry.get(k) not in (None, "unknown")}
    if hidden:
        return {**entry, **hidden}
    if move == "initial_peek" and isinstance(entry.get("seen"), list):
        return {**entry, "seen": ["unknown"] * len(entry["seen"])}
    if move == "draw" and not entry.get("shown") and entry.get("card") not in (None, "unknown"):
        return {**entry, "card": "unknown"}
    return entry
