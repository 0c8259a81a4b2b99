"""Home page: create a table, join one by code, show the join link/QR."""

from __future__ import annotations

import segno
from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from ..db import get_db
from ..store import create_match, find_match_by_code

bp = Blueprint("home", __name__)

MAX_PLAYERS = 8
MAX_NAME_LENGTH = 40


def join_url() -> str:
    """The address phones should open: the LAN URL `referee serve` printed,
    else the one this browser used."""
    return current_app.config.get("JOIN_URL") or request.host_url


def qr_svg(url: str) -> Markup:
    """Inline SVG QR code (no inline styles or scripts, so CSP holds)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=5, title=url, svgclass="qr", lineclass=None, omitsize=True))


@bp.get("/")
def index():
    url = join_url()
    return render_template("home.html", join_url=url, qr=qr_svg(url), games=current_app.config["GAMES"])


@bp.get("/healthz")
def healthz():
    get_db().execute("SELECT 1").fetchone()
    return {"ok": True}


@bp.post("/join")
def join():
    code = request.form.get("code", "")
    match = find_match_by_code(get_db(), code) if code.strip() else None
    if match is None:
        abort(404, description=f"No table has the code {code.strip()[:12]!r}. Check the code shown on the table's screen.")
    return redirect(url_for("match.table", match_id=match.id), code=303)


def parse_players(text: str) -> list[str]:
    names = [line.strip()[:MAX_NAME_LENGTH] for line in text.splitlines() if line.strip()]
    if not 1 <= len(names) <= MAX_PLAYERS:
        abort(422, description=f"Enter between 1 and {MAX_PLAYERS} player names, one per line.")
    return names


@bp.post("/tables")
def create_table():
    game = request.form.get("game", "")
    games = current_app.config["GAMES"]
    if game not in games:
        abort(422, description="Pick one of the games offered on the home page.")
    players = parse_players(request.form.get("players", ""))
    match = create_match(get_db(), game, players)
    return redirect(url_for("match.table", match_id=match.id), code=303)
