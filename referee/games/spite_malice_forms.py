"""Spite & Malice entries from a phone's form: which fields each entry has and whose entry it is.

A build is one form (``move=build``, ``source=hand|payoff|side2``, ``card=7H`` or ``card=7``, ``pile=1``):
the screen gathers it in two taps, the card or pile top first, then the building pile (a picker)."""
from __future__ import annotations

from typing import Any, Mapping

from .base import EntryError
from .forms import Whole, begin_entry, copy_fields, entrant, log_form
from .spite_malice_moves import GAME_MOVES, MAX_DRAW, MAX_PLACE

TEXT_FIELDS = ("card", "source")
NUMBER_FIELDS = {"pile": Whole(1, MAX_PLACE, "pile"), "stack": Whole(1, MAX_PLACE, "stack"),
                 "count": Whole(0, MAX_DRAW, "count")}
#: Entries naming whose cards they are, made from any phone (a pay-off top is on the table for all).
FOR_MOVES = ("top", "start")


def entry_from_form(form: Mapping[str, str], players: tuple[str, ...], seat: int | None, *,
                    shared: bool = False, turn: int | None = None) -> dict[str, Any]:
    """The entry a form describes. ``seat`` is the phone's own seat; on the shared phone the form's
    ``for`` names who acts (default: whoever's turn it is)."""
    move, meta = begin_entry(form, players, seat, entry_from_form, turn)
    if meta is not None:
        return meta
    if move not in GAME_MOVES:
        raise EntryError("move", f"{move[:20]!r} is not an entry of Spite & Malice.")
    entry: dict[str, Any] = {"move": move, "seat": entrant(form, players, seat, move, shared=shared, turn=turn,
                                                           for_moves=FOR_MOVES, seatless_acts_for_turn=True)}
    copy_fields(form, entry, texts=TEXT_FIELDS, text_limit=12)
    copy_fields(form, entry, numbers=NUMBER_FIELDS)
    return entry


def entry_to_form(entry: Mapping[str, Any]) -> dict[str, str]:
    """The form a phone posts for ``entry`` (its JSON form); ``entry_from_form`` reads it back."""
    form = log_form(entry, entry_to_form)
    if form is not None:
        return form
    form = {"move": str(entry["move"])}
    if entry.get("seat") is not None:
        form["for"] = str(entry["seat"])
    for name in (*TEXT_FIELDS, *NUMBER_FIELDS):
        if entry.get(name) is not None:
            form[name] = str(entry[name])
    return form
