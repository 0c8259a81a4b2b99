"""A table (match): who sits where, and the live-updating screen placeholder.

The real game screens replace `_screen.html` once the engines land; the
pattern stays: the page subscribes to /m/<id>/events and re-GETs its own
screen fragment on each `changed` doorbell.
"""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..db import get_db
from ..security import bind_seat, device_id, seat_for
from ..store import entries, export_match, get_match

bp = Blueprint("match", __name__, url_prefix="/m/<match_id>")


def screen_context(match_id: str) -> dict:
    database = get_db()
    match = get_match(database, match_id)
    seat = seat_for(match_id)
    return {
        "match": match,
        "seat": seat,
        "player": match.players[seat] if seat is not None and seat < len(match.players) else None,
        "log_length": len(entries(database, match_id)),
    }


@bp.get("")
def table(match_id: str):
    device_id()
    return render_template("match.html", **screen_context(match_id))


@bp.get("/screen")
def screen(match_id: str):
    """The fragment each phone re-GETs when the doorbell rings."""
    return render_template("_screen.html", **screen_context(match_id))


@bp.post("/seat")
def take_seat(match_id: str):
    """Bind this phone to a seat (or to watching) in its signed session."""
    match = get_match(get_db(), match_id)
    choice = request.form.get("seat", "")
    if choice == "watch":
        bind_seat(match_id, None)
    else:
        try:
            seat = int(choice)
        except ValueError:
            abort(400, description="Choose a seat from the list.")
        if not 0 <= seat < len(match.players):
            abort(422, description="That seat does not exist at this table.")
        bind_seat(match_id, seat)
    return redirect(url_for("match.table", match_id=match_id), code=303)


@bp.get("/log.json")
def log_json(match_id: str):
    """The whole match as JSON (row + append-only log), for export."""
    return export_match(get_db(), match_id)
