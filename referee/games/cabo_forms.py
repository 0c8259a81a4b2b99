"""Cabo / Cambio entries from a phone's form: which fields each entry has and whose entry it is.

A list of places is one field, "1,3"; a list of cards is ``card1``, ``card2``… (a reveal, a matching
claim) or ``seen1``, ``seen2`` (the first look); true is "1". Out-of-turn entries (a snap, the card given
for it, a call at the end of one's turn) are the phone's own seat's; on the shared phone ``for`` names
who acts (default: whoever's turn it is).
"""
from __future__ import annotations

from typing import Any, Mapping

from .cabo_rules import MAX_SLOTS
from .forms import MAX_REASON, Whole, begin_entry, copy_fields, entrant, log_form, number, text

PLACE = Whole(1, MAX_SLOTS, "place")
INT_FIELDS = {"slot": PLACE, "target_slot": PLACE}
TEXT_FIELDS = ("card", "out", "seen", "target_seen", "target", "owner")
BOOL_FIELDS = ("shown", "swap")
#: Entries of the whole table: nobody's turn, no seat recorded.
TABLE_MOVES = ("turn_up", "reshuffle")
#: Entries naming whose cards they are, made from any phone at the table.
FOR_MOVES = ("reveal",)
#: Entries with a list of cards, ``card1``…
CARD_LISTS = ("reveal", "match")


def _places(raw: str) -> list[int]:
    out = []
    for part in raw.split(",")[:MAX_SLOTS]:
        value = number({"slot": part}, "slot", PLACE)
        if value is not None:
            out.append(value)
    return out


def entry_from_form(form: Mapping[str, str], players: tuple[str, ...], seat: int | None, *,
                    shared: bool = False, turn: int | None = None) -> dict[str, Any]:
    """The entry a form describes. ``seat`` is the phone's own seat (None on the shared phone); on the
    shared phone, the form's ``for`` names who acts (default: whoever's turn it is)."""
    move, meta = begin_entry(form, players, seat, entry_from_form, turn)
    if meta is not None:
        return meta
    entry: dict[str, Any] = {"move": move}
    who = entrant(form, players, seat, move, shared=shared, turn=turn, for_moves=FOR_MOVES, table_moves=TABLE_MOVES)
    if who is not None:
        entry["seat"] = who
    copy_fields(form, entry, numbers=INT_FIELDS, texts=TEXT_FIELDS)
    for name in BOOL_FIELDS:
        if form.get(name) == "1":
            entry[name] = True
    if form.get("matched") in ("1", "0"):
        entry["matched"] = form["matched"] == "1"
    if form.get("reason", "") != "":
        entry["reason"] = text(form, "reason", MAX_REASON)
    if "slots" in form:
        entry["slots"] = _places(form["slots"])
    elif any(f"place{i}" in form for i in range(1, MAX_SLOTS + 1)):  # places chosen one by one (a first
        # look at any two, CAB-V3; a correction's ticked places)
        entry["slots"] = _places(",".join(form.get(f"place{i}", "") for i in range(1, MAX_SLOTS + 1)))
    if move in CARD_LISTS:
        found = [text(form, f"card{i}", 12) or "unknown" for i in range(1, MAX_SLOTS + 1) if f"card{i}" in form]
        if found or move == "reveal":
            entry["cards"] = found
    if move == "initial_peek":
        entry.setdefault("slots", [])
        seen = [text(form, f"seen{i}", 12) or "unknown" for i in range(1, len(entry["slots"]) + 1)]
        entry.pop("seen", None)
        if any(card != "unknown" for card in seen):  # nothing noted: no list of unknowns
            entry["seen"] = seen
    return entry


def entry_to_form(entry: Mapping[str, Any]) -> dict[str, str]:
    """The form a phone posts for ``entry`` (its JSON form); ``entry_from_form`` reads it back."""
    form = log_form(entry, entry_to_form)
    if form is not None:
        return form
    form = {"move": str(entry["move"])}
    if "seat" in entry and entry["seat"] is not None:
        form["for"] = str(entry["seat"])
    for name in (*INT_FIELDS, *TEXT_FIELDS, "reason"):
        if entry.get(name) is not None and not isinstance(entry.get(name), list):
            form[name] = str(entry[name])
    for name in BOOL_FIELDS:
        if entry.get(name):
            form[name] = "1"
    if entry.get("matched") is not None:
        form["matched"] = "1" if entry["matched"] else "0"
    if "slots" in entry:
        form["slots"] = ",".join(str(s) for s in entry["slots"])
    if entry["move"] in CARD_LISTS:
        form.update({f"card{i}": str(c) for i, c in enumerate(entry.get("cards", ()), start=1)})
    if entry["move"] == "initial_peek":
        form.update({f"seen{i}": str(c) for i, c in enumerate(entry.get("seen", ()), start=1)})
    return form
