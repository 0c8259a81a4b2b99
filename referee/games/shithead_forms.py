"""Shithead's entries from a phone's form: which fields each entry has and whose entry it is. The
cards of a play travel as one comma-separated field (``cards=7H,7S``)."""
from __future__ import annotations

from typing import Any, Mapping

from .base import EntryError
from .forms import MAX_REASON, log_entry, log_form, player, text
from .shithead_moves import GAME_MOVES, MAX_CARDS

TEXT_FIELDS = ("card", "out", "rank")


def entry_from_form(form: Mapping[str, str], players: tuple[str, ...], seat: int | None, *,
                    shared: bool = False, turn: int | None = None) -> dict[str, Any]:
    """The entry a form describes. ``seat`` is the phone's own seat; on the shared phone the form's
    ``for`` names who acts (default: whoever's turn it is)."""
    move = form.get("move", "")
    if not move or len(move) > 20:
        raise EntryError("move", "The form names no entry.")
    meta = log_entry(form, players, seat, entry_from_form, turn)
    if meta is not None:
        return meta
    if move not in GAME_MOVES:
        raise EntryError("move", f"{move[:20]!r} is not an entry of Shithead.")
    named = player(form, "for", players)
    acting = seat
    if shared or seat is None:
        acting = players.index(named) if named is not None else turn
    if acting is None:
        raise EntryError("for", "Whose entry is this? Take a seat, or name the player.")
    entry: dict[str, Any] = {"move": move, "seat": players[acting]}
    raw = text(form, "cards", 400)
    if raw or move in ("faceup", "play", "interrupt", "add"):
        cards = [c.strip() for c in raw.split(",") if c.strip()]
        if len(cards) > MAX_CARDS:
            raise EntryError("cards", f"At most {MAX_CARDS} cards in one entry.")
        entry["cards"] = cards
    for name in TEXT_FIELDS:
        if form.get(name, "") != "":
            entry[name] = text(form, name)
    return entry


def entry_to_form(entry: Mapping[str, Any]) -> dict[str, str]:
    """The form a phone posts for ``entry`` (its JSON form); ``entry_from_form`` reads it back."""
    form = log_form(entry, entry_to_form)
    if form is not None:
        return form
    form = {"move": str(entry["move"])}
    if entry.get("seat") is not None:
        form["for"] = str(entry["seat"])
    if "cards" in entry:
        form["cards"] = ",".join(str(c) for c in entry["cards"])
    for name in TEXT_FIELDS:
        if entry.get(name) is not None:
            form[name] = str(entry[name])
    return form
