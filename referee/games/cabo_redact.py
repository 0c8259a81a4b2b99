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

from .cabo_state import reveal_complete
from .redaction import redact_entry

_PRIVATE = {"peek": ("seen",), "look_swap": ("seen", "target_seen")}


def redact(state: Any, entries: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """``entries`` (their JSON form, as stored) as the seat ``viewer`` (None: a spectator) may see them,
    given ``state``, the state after them."""
    r = state.round
    if r is None or reveal_complete(r):
        return list(entries)
    start = min(max(r.first_entry, 0), len(entries))
    return list(entries[:start]) + [redact_entry(state, e, viewer, start, hide_private) for e in entries[start:]]


def hide_private(state: Any, entry: dict[str, Any]) -> dict[str, Any]:
    """Another seat's entry with its private sightings made unknown."""
    move = entry.get("move")
    hidden = {k: "unknown" for k in _PRIVATE.get(move, ()) if entry.get(k) not in (None, "unknown")}
    if hidden:
        return {**entry, **hidden}
    if move == "initial_peek" and isinstance(entry.get("seen"), list):
        return {**entry, "seen": ["unknown"] * len(entry["seen"])}
    if move == "draw" and not entry.get("shown") and entry.get("card") not in (None, "unknown"):
        return {**entry, "card": "unknown"}
    return entry
