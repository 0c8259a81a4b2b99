"""Who is this phone at a table: a player's seat, the shared phone ("one phone for everyone"), or a watcher.

The phone's choice lives in its signed session cookie (``security.bind_seat``); which phone holds a seat
lives in the store (``seat_claims``, append-only), so that taking over a held seat is a recorded act and
the phone that held it learns it lost the seat: a session naming a seat another phone has claimed since
counts as watching.
"""
from __future__ import annotations
from flask_babel import gettext

from flask import abort, request, session

from . import store
from .db import get_db
from .security import bind_seat, device_id, seat_for


def _remember(key: str, match_id: str, on: bool) -> None:
    ids = [m for m in session.get(key, []) if m != match_id]
    if on:
        ids.append(match_id)
    session[key] = ids[-50:]
    session.permanent = True


def is_htmx() -> bool:
    """The request comes from htmx (a fragment is answered), not a plain page load or form post."""
    return request.headers.get("HX-Request") == "true"


def is_shared(match_id: str) -> bool:
    return match_id in session.get("shared", [])


def is_watching(match_id: str) -> bool:
    return match_id in session.get("watching", [])


def phone_seat(match_id: str) -> int | None:
    """This phone's seat, or None when it has none — or when another phone has taken it over since."""
    seat = seat_for(match_id)
    if seat is None:
        return None
    holder = store.seat_holder(get_db(), match_id, seat)
    return seat if holder in (None, session.get("device")) else None


def lost_seat(match_id: str) -> int | None:
    """The seat this phone held until another phone took it over (None if that did not happen)."""
    seat = seat_for(match_id)
    if seat is None or phone_seat(match_id) is not None:
        return None
    return seat


def holder_of(match_id: str, seat: int) -> str | None:
    """The device holding ``seat``, if it is another phone than this one."""
    holder = store.seat_holder(get_db(), match_id, seat)
    return holder if holder not in (None, session.get("device")) else None


def sit(match_id: str, seat: int) -> str | None:
    """Bind this phone to ``seat`` (recorded); returns the device that held it before, if another."""
    device = device_id()
    previous = store.claim_seat(get_db(), match_id, seat, device)
    bind_seat(match_id, seat)
    _remember("shared", match_id, False)
    _remember("watching", match_id, False)
    return previous if previous != device else None


def stand_up(match_id: str, mode: str) -> None:
    """Leave a seat: ``mode`` is "shared" (this phone serves the whole table), "watch" or "choose"."""
    seat = phone_seat(match_id)
    if seat is not None:
        store.release_seat(get_db(), match_id, seat, device_id())
    bind_seat(match_id, None)
    _remember("shared", match_id, mode == "shared")
    _remember("watching", match_id, mode == "watch")


def can_enter(match_id: str) -> bool:
    """A seated phone or the shared phone may enter things; a watcher may not."""
    return is_shared(match_id) or phone_seat(match_id) is not None


_WATCHING = {  # what a watching phone is told, by what it tried
    "play": lambda: gettext("You are watching this table. Take a seat to play."),
    "correct an entry": lambda: gettext("You are watching this table. Take a seat to correct an entry."),
    "scan cards": lambda: gettext("You are watching this table. Take a seat to scan cards."),
}


def require_entrant(match_id: str, to: str = "play") -> None:
    """403 for a phone that only watches this table."""
    if not can_enter(match_id):
        abort(403, description=_WATCHING.get(to, _WATCHING["play"])())
