"""Who is this phone at a table: a player's seat, the shared phone ("one phone for everyone"), or a watcher.

The phone's choice lives in its signed session cookie (``security.bind_seat``); which phone holds a seat
lives in the store (``seat_claims``, append-only), so that taking over a held seat is a recorded act and
the phone that held it learns it lost the seat: a session naming a seat another phone has claimed since
counts as watching.

Taking a seat checks who holds it and claims it in one write transaction (`sit`), so that of two phones
tapping a free seat at once one sits and the other is asked whether to take it over.
"""
from __future__ import annotations
from flask_babel import gettext

from flask import abort, g, make_response, render_template, request, session

from . import store
from .db import get_db
from .security import REMEMBERED_TABLES, bind_seat, device_id, seat_for


def _remember(key: str, match_id: str, on: bool) -> None:
    ids = [m for m in session.get(key, []) if m != match_id]
    if on:
        ids.append(match_id)
    session[key] = ids[-REMEMBERED_TABLES:]
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
    """The device holding ``seat``, if it is another phone than this one. What it answered is remembered
    for the request: `sit` takes the seat only from that holder (see there)."""
    holder = store.seat_holder(get_db(), match_id, seat)
    _seen()[(match_id, seat)] = holder
    return holder if holder not in (None, session.get("device")) else None


#: The place in ``seat_claims`` where a phone's turning into the phone for everyone is recorded (for the
#: history: it may then enter for every seat no other phone holds); sitting down again gives it up.
SHARED_SEAT = -1

_ANYONE = object()  # `holder_of` was not asked in this request: `sit` takes the seat from whoever holds it


def _seen() -> dict:
    """The holders `holder_of` answered in this request, by (match, seat)."""
    seen = g.get("referee_seat_holders_seen")
    if seen is None:
        seen = g.referee_seat_holders_seen = {}
    return seen


def held_by_a_phone(match_id: str, seat: int) -> bool:
    """Whether a phone holds ``seat`` now, or entered anything from it at this table — this one included (a
    player's own phone turned into the phone for everyone and passed round): the phone for everyone then
    shows none of that seat's private notes (they were made on that player's own phone; taking the seat,
    which is recorded, shows them). A phone that sat there by mistake and left without entering anything
    does not count: the phone for everyone goes on noting for that seat."""
    db = get_db()
    if store.seat_holder(db, match_id, seat) is not None:
        return True
    return _entered_from(db.conn, match_id, seat) is not None


def _entered_from(conn, match_id: str, seat: int, other_than: str | None = None) -> str | None:
    """A device, other than ``other_than``, that made an entry while holding ``seat`` (None: none did)."""
    row = conn.execute("SELECT device FROM entries WHERE match_id = ? AND seat = ? AND device IS NOT NULL"
                       " AND device IS NOT ? LIMIT 1", (match_id, seat, other_than)).fetchone()
    return row[0] if row else None


def used_elsewhere(match_id: str, seat: int) -> str | None:
    """Whether another phone than this one holds ``seat`` ("held") or entered anything from it ("used"),
    read at once: what that seat's player noted there (a first look, a peek) shows on the phone that takes
    it, so the phone is asked first either way. A seat another phone only sat in for a moment is free."""
    mine = device_id() or ""
    db = get_db()
    if store.seat_holder(db, match_id, seat) not in (None, mine):
        return "held"
    return "used" if _entered_from(db.conn, match_id, seat, other_than=mine) else None


def _holders(conn, match_id: str) -> dict[int, str | None]:
    """Who holds each seat of the match that was ever claimed (None: released), read inside a transaction."""
    rows = conn.execute("SELECT seat, device FROM seat_claims WHERE id IN"
                        " (SELECT MAX(id) FROM seat_claims WHERE match_id = ? GROUP BY seat)", (match_id,))
    return {seat: device for seat, device in rows}


def _record(conn, match_id: str, seat: int, device: str | None, previous: str | None) -> None:
    conn.execute("INSERT INTO seat_claims (match_id, seat, device, claimed_at, previous_device) VALUES (?, ?, ?, ?, ?)",
                 (match_id, seat, device, store.now(), previous))


def sit(match_id: str, seat: int) -> str | None:
    """Bind this phone to ``seat`` (recorded); returns the device that held it before, if another.

    Who holds the seat is checked and the claim written in one write transaction, against the holder the
    phone was shown (what `holder_of` answered in this request; when it was not asked, the seat is taken
    from whoever holds it): if another phone has claimed the seat since, nothing
    is taken and the phone is asked again, with the take-over page (409) — of two phones tapping a free
    seat at once, one sits and the other is asked. Any other seat this phone holds (the shared phone's)
    is given up in the same transaction."""
    db = get_db()
    device = device_id()
    match = store.get_match(db, match_id)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(match.players):
        raise store.UnknownSeat(match_id, seat)
    expected = _seen().get((match_id, seat), _ANYONE)
    try:
        with store.write_transaction(db) as conn:
            holders = _holders(conn, match_id)
            previous = holders.get(seat)
            moved_on = expected is not _ANYONE and previous not in (expected, device)
            if not moved_on:
                if previous != device:
                    _record(conn, match_id, seat, device, previous)
                for other, holder in holders.items():
                    if other != seat and holder == device:
                        _record(conn, match_id, other, None, device)
    finally:
        store.holder_cache.clear()
    if moved_on:  # another phone sat down first: asked, as for any seat held
        _ask_first(match, seat)
    bind_seat(match_id, seat)
    _remember("shared", match_id, False)
    _remember("watching", match_id, False)
    return previous if previous != device else None


def stand_up(match_id: str, mode: str) -> None:
    """Leave a seat: ``mode`` is "shared" (this phone serves the whole table), "watch" or "choose"; every
    seat this phone holds is given up, in one write transaction. The shared phone is a helper beside the
    seated phones (the family tablet in the middle of the table): it takes no seat from them."""
    device = device_id()
    if not is_shared(match_id) and phone_seat(match_id) is None and mode != "shared":
        _leave(match_id, mode)  # holds no seat: nothing to give up
        return
    if is_shared(match_id) and mode == "shared":
        return  # already the phone for everyone
    try:
        with store.write_transaction(get_db()) as conn:
            for s, holder in _holders(conn, match_id).items():
                if holder == device:
                    _record(conn, match_id, s, None, device)
            if mode == "shared":
                _record(conn, match_id, SHARED_SEAT, device, None)
    finally:
        store.holder_cache.clear()
    _leave(match_id, mode)


def _leave(match_id: str, mode: str) -> None:
    bind_seat(match_id, None)
    _remember("shared", match_id, mode == "shared")
    _remember("watching", match_id, mode == "watch")


def _ask_first(match, seat: int):
    """Answer with the take-over page (409) for ``seat``, which another phone holds."""
    abort(make_response(render_template("table/take_over.html", match=match, seat=seat,
                                        name=match.players[seat], held=True), 409))


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
