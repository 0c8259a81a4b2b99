"""Shithead's entries from a phone's form: which fields each entry has and whose entry it is. The
cards of a play travel as one comma-separated field (``cards=7H,7S``), as ticked chips (``cards``
repeated), or one per slot (``card1``..: a row of face-up cards read from a photo)."""
from __future__ import annotations

from typing import Any, Mapping

from .base import EntryError
from .forms import begin_entry, entrant, log_form, text
from .shithead_moves import GAME_MOVES, MAX_CARDS

TEXT_FIELDS = ("card", "out", "rank")
#: Entries naming whose cards they are, made from any phone (face-up cards are on the table for all).
FOR_MOVES = ("faceup",)
CARD_LIST_MOVES = ("faceup", "play", "interrupt", "add")
NO_CARD = "none"  # a slot of ``card1``.. answered "no card here" (a correction's room for a card left out)


def entry_from_form(form: Mapping[str, str], players: tuple[str, ...], seat: int | None, *,
                    shared: bool = False, turn: int | None = None) -> dict[str, Any]:
    """The entry a form describes. ``seat`` is the phone's own seat; on the shared phone the form's
    ``for`` names who acts (default: whoever's turn it is)."""
    move, meta = begin_entry(form, players, seat, entry_from_form, turn)
    if meta is not None:
        return meta
    if move not in GAME_MOVES:
        raise EntryError("move", f"{move[:20]!r} is not an entry of Shithead.")
    entry: dict[str, Any] = {"move": move, "seat": entrant(form, players, seat, move, shared=shared, turn=turn,
                                                           for_moves=FOR_MOVES, seatless_acts_for_turn=True)}
    cards = _cards(form)
    if not cards and move in ("play", "interrupt", "add"):  # a tap on "Play them" with no card ticked
        raise EntryError("cards", "No card was chosen: tap the card or cards played, then the button.")
    if cards or move in CARD_LIST_MOVES:
        entry["cards"] = cards
    for name in TEXT_FIELDS:
        if form.get(name, "") != "":
            entry[name] = text(form, name)
    return entry


def _cards(form: Mapping[str, str]) -> list[str]:
    """The cards a form names: ``cards`` (comma-separated, or repeated by ticked chips), else ``card1``,
    ``card2``... (a row read from a photo; an untapped slot is "unknown", one answered NO_CARD is left out)."""
    getlist = getattr(form, "getlist", None)
    raw = ",".join(v[:400] for v in getlist("cards")[:MAX_CARDS + 1]) if getlist else text(form, "cards", 400)
    cards = [c.strip()[:12] for c in raw.split(",") if c.strip()]
    if not cards and form.get("card1", "") != "":
        cards = [text(form, f"card{i}", 12) or "unknown" for i in range(1, MAX_CARDS + 2) if f"card{i}" in form]
        cards = [c for c in cards if c != NO_CARD]
    if len(cards) > MAX_CARDS:
        raise EntryError("cards", f"At most {MAX_CARDS} cards in one entry.")
    return cards


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
