"""Rat-a-Tat Cat's entries from a phone's form: which fields each entry has and whose entry it is."""
from __future__ import annotations

from typing import Any, Mapping

from .forms import MAX_REASON, Whole, begin_entry, copy_fields, entrant, log_form, number, text
from .ratatat_rules import SLOTS

SLOT = Whole(1, SLOTS, "slot")
INT_FIELDS = {"slot": SLOT, "target_slot": SLOT}
TEXT_FIELDS = ("card", "out", "seen", "target")
#: Entries of the whole table: nobody's turn, no seat recorded.
TABLE_MOVES = ("turn_up", "reshuffle", "time_up", "stalemate")
#: Entries naming whose cards they are, made from any phone at the table.
FOR_MOVES = ("reveal", "reveal_draw")


def entry_from_form(form: Mapping[str, str], players: tuple[str, ...], seat: int | None, *,
                    shared: bool = False, turn: int | None = None) -> dict[str, Any]:
    """The entry a form describes. ``seat`` is the phone's own seat (None on the shared phone or a
    seated phone's table-wide entry); on the shared phone, the form's ``for`` names who acts
    (default: whoever's turn it is)."""
    move, meta = begin_entry(form, players, seat, entry_from_form, turn)
    if meta is not None:
        return meta
    entry: dict[str, Any] = {"move": move}
    who = entrant(form, players, seat, move, shared=shared, turn=turn, for_moves=FOR_MOVES, table_moves=TABLE_MOVES)
    if who is not None:
        entry["seat"] = who
    copy_fields(form, entry, numbers=INT_FIELDS, texts=TEXT_FIELDS)
    if form.get("reason", "") != "":
        entry["reason"] = text(form, "reason", MAX_REASON)
    if move == "reveal":
        entry["cards"] = [text(form, f"card{i}", 12) or "unknown" for i in range(1, SLOTS + 1)]
        entry.pop("card", None)
    if move == "initial_peek":
        slots = [number({"slot": s}, "slot", SLOT) for s in form.get("slots", "1,4").split(",")[:SLOTS]]
        entry["slots"] = [s for s in slots if s is not None] or [1, SLOTS]
        seen = [text(form, f"seen{i}", 12) or "unknown" for i in range(1, len(entry["slots"]) + 1)]
        if any(card != "unknown" for card in seen):  # nothing noted: no list of unknowns
            entry["seen"] = seen
    if move == "draw" and form.get("shown") == "1":
        entry["shown"] = True
    return entry


def entry_to_form(entry: Mapping[str, Any]) -> dict[str, str]:
    """The form a phone posts for ``entry`` (its JSON form): what the screens' buttons and pickers send.
    ``entry_from_form`` reads it back to the same entry."""
    form = log_form(entry, entry_to_form)
    if form is not None:
        return form
    form = {"move": str(entry["move"])}
    if "seat" in entry and entry["seat"] is not None:
        form["for"] = str(entry["seat"])
    for name in (*INT_FIELDS, *TEXT_FIELDS, "reason"):
        if entry.get(name) is not None:
            form[name] = str(entry[name])
    if entry["move"] == "reveal":
        form.update({f"card{i}": str(c) for i, c in enumerate(entry.get("cards", ()), start=1)})
    if entry["move"] == "initial_peek":
        form["slots"] = ",".join(str(s) for s in entry.get("slots", ()))
        form.update({f"seen{i}": str(c) for i, c in enumerate(entry.get("seen", ()), start=1)})
        form.pop("seen", None)
    if entry.get("shown"):
        form["shown"] = "1"
    return form
