"""Home page: start a table (game, players, house rules), join one by code or link, show the QR."""

from __future__ import annotations

import segno
from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from ..db import get_db
from ..games import get_game
from ..games.base import EntryError, Ruling, resolve_rules
from ..store import create_match, find_match_by_code, recent_matches

bp = Blueprint("home", __name__)

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
    recent = recent_matches(get_db(), 8)
    return render_template("home.html", join_url=url, qr=qr_svg(url), games=current_app.config["GAMES"],
                           recent=recent)


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
    return redirect(url_for("play.table", match_id=match.id), code=303)


@bp.get("/j/<code>")
def join_link(code: str):
    """The link (and QR) a table shows: straight to its seat picker."""
    match = find_match_by_code(get_db(), code)
    if match is None:
        abort(404, description="No table has that code. Check the link on the table's screen.")
    return redirect(url_for("play.table", match_id=match.id), code=303)


def _engine(game: str):
    if game not in current_app.config["GAMES"]:
        abort(404, description="There is no such game here. Pick one on the home page.")
    return get_game(game)


def parse_players(form) -> list[str]:
    names = [n.strip()[:MAX_NAME_LENGTH] for n in form.getlist("player") if n.strip()]
    if not names and form.get("players"):
        names = [line.strip()[:MAX_NAME_LENGTH] for line in form["players"].splitlines() if line.strip()]
    return names


def parse_rules(engine, form) -> dict:
    """House rules from the form: every switch the form sets, read as its type."""
    rules = {}
    for variant in engine.VARIANTS:
        raw = form.get(variant.key)
        if raw is None or raw == "":
            continue
        if variant.choices and isinstance(variant.default, bool):
            rules[variant.key] = raw in ("true", "True", "1", "on")
        elif variant.choices:
            rules[variant.key] = raw
        elif raw == "off" and variant.allow_none:
            rules[variant.key] = None
        else:
            try:
                rules[variant.key] = int(raw)
            except ValueError:
                abort(422, description=f"{variant.label}: enter a whole number.")
    return rules


@bp.get("/new/<game>")
def new_table(game: str):
    engine = _engine(game)
    return render_template("new_table.html", game=game, engine=engine,
                           defaults=resolve_rules(engine.VARIANTS, {}), players=["", "", "", ""], error=None)


@bp.post("/new/<game>")
def create_table(game: str):
    engine = _engine(game)
    players = parse_players(request.form)
    rules = parse_rules(engine, request.form)
    try:
        engine.new_match(tuple(players), rules)
    except (Ruling, EntryError) as err:
        message = f"{err.rule}: {err.message}" if isinstance(err, Ruling) else err.message
        chosen = {**resolve_rules(engine.VARIANTS, {}), **rules}
        body = render_template("new_table.html", game=game, engine=engine, defaults=chosen,
                               players=players + [""] * max(0, 4 - len(players)), error=message)
        return body, 422
    match = create_match(get_db(), game, players, rules)
    return redirect(url_for("play.table", match_id=match.id), code=303)


@bp.post("/tables")
def create_table_legacy():
    """The home page's quick form: a game and players, default house rules."""
    game = request.form.get("game", "")
    return create_table(game)
