"""What one phone may download of a Rat-a-Tat Cat log (GEN-6, RTC-K11, RTC-K12).

Entries of the round in progress keep only what the viewer may know: another seat's peeks (Peek,
initial peek) and the card another seat drew unseen become "unknown", inside overrides and
corrections too. Entries of finished rounds are whole, and so is a round whose cards are all revealed
(its private notes have been checked against the revealed cards, GEN-6). Redacted entries replay to
the same public state: a private value only adds a private note, which changes no ruling on anyone
else's entry (GEN-6). The one ruling a note does make is on its own drawer (a drawn power card put into
a row, RTC-15 / RTC-30); when the table overrode it, the override told everyone, and that draw is kept.
"""
from __future__ import annotations

from typing import Any

from .base import EntryError
from .cards import parse_card
from .ratatat_cards import is_power
from .ratatat_state import reveal_complete
from .redaction import entry_seat, redact_entry

_WHOLE_RULES = ("RTC-15", "RTC-30")  # an override of these on a Replace tells the table the card was a power


def redact(state: Any, entries: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """``entries`` (their JSON form, as stored) as the seat ``viewer`` (None: a spectator) may see them,
    given ``state``, the state after them."""
    r = state.round
    if r is None or reveal_complete(r):
        return list(entries)
    start = min(max(r.first_entry, 0), len(entries))
    current = entries[start:]
    shown = _disclosed_draws(state, current)
    out = list(entries[:start])
    for i, entry in enumerate(current):
        out.append(entry if i in shown else redact_entry(state, entry, viewer, start, hide_private))
    return out


def hide_private(state: Any, entry: dict[str, Any]) -> dict[str, Any]:
    """Another seat's entry with its private sightings made unknown."""
    move = entry.get("move")
    if move == "peek" and entry.get("seen") not in (None, "unknown"):
        return {**entry, "seen": "unknown"}
    if (move == "initial_peek" and isinstance(entry.get("seen"), list)
            and state.rules.get("initial_peek") != "outer_face_up"):  # RTC-V8: face up, everyone saw them
        return {**entry, "seen": ["unknown"] * len(entry["seen"])}
    if (move == "draw" and not entry.get("shown") and not state.rules["seed_reveal_then_choose"]
            and entry.get("card") not in (None, "unknown")):
        return {**entry, "card": "unknown"}
    return entry


def _innermost(entry: Any) -> Any:
    while isinstance(entry, dict) and entry.get("move") == "override":
        entry = entry.get("entry")
    return entry


def _disclosed_draws(state: Any, entries: list[Any]) -> set[int]:
    """Draws whose power card the table was told of: the drawer put it into a row under an override
    of RTC-15 or RTC-30 (a rule that refused the Replace only because of that card)."""
    out: set[int] = set()
    last_draw: dict[int, int] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            continue
        inner = _innermost(entry)
        if not isinstance(inner, dict):
            continue
        seat = entry_seat(state, inner)
        if inner.get("move") == "draw" and seat is not None:
            try:
                card = parse_card(inner.get("card"), state.deck, "card")
            except EntryError:
                card = None
            if is_power(card):
                last_draw[seat] = i
            else:
                last_draw.pop(seat, None)
        elif (inner.get("move") == "replace" and entry.get("move") == "override"
              and entry.get("rule") in _WHOLE_RULES and seat in last_draw):
            out.add(last_draw[seat])
    return out
