"""Playing at a table: the screen of one seat, entries posted from it, rulings, history, export.

A phone sends an intent (the entry's move and fields) and the version its screen showed; the server
validates it with the engine inside the store's transaction, appends it, commits, then rings the
doorbell. The answer is always a fresh screen for that phone:

* 200 — accepted; 409 — someone moved first (nothing saved, the fresh screen shows why);
* 422 — the rules refuse it: the ruling (rule ID, plain words, entries involved) and nothing saved;
* 400 — a malformed form, 403 — a spectator or another player's seat.
"""
from __future__ import annotations

import dataclasses
import json
import secrets
from typing import Any
from urllib.parse import urlencode

from flask import (Blueprint, Response, abort, redirect, render_template, request, session,
                   url_for)
from jinja2 import pass_context
from markupsafe import Markup, escape

from .. import scans, store, tables, transcript
from ..db import get_db
from ..games.base import EntryError, Ruling
from ..games.rulebook import rule_text
from ..security import device_id, seat_for

bp = Blueprint("play", __name__, url_prefix="/m/<match_id>")


@bp.errorhandler(tables.GameNotInstalled)
def game_not_installed(err: tables.GameNotInstalled):
    from ..security import render_error

    return render_error(404, str(err))

SHARED = "shared"
MAX_REASON = 300

# Which form fields an entry may carry, and how each is read.
_INT_FIELDS = ("slot", "target_slot", "flag", "target_entry")
_TEXT_FIELDS = ("card", "out", "seen", "target", "decision", "reason", "rule")


# --- Who is this phone? ----------------------------------------------------------------------


def is_shared(match_id: str) -> bool:
    return match_id in session.get("shared", [])


def _remember(key: str, match_id: str, on: bool) -> None:
    ids = [m for m in session.get(key, []) if m != match_id]
    if on:
        ids.append(match_id)
    session[key] = ids[-50:]
    session.permanent = True


def set_shared(match_id: str, shared: bool) -> None:
    _remember("shared", match_id, shared)


def is_watching(match_id: str) -> bool:
    return match_id in session.get("watching", [])


def acting_seat(match_id: str, log) -> int | None:
    """The seat this phone enters for: its own, or, on a shared device, whoever is to act."""
    seat = seat_for(match_id)
    if seat is not None or not is_shared(match_id):
        return seat
    r = log.state.round
    return r.turn if r is not None else None


# --- Loading ---------------------------------------------------------------------------------


def load(match_id: str):
    db = get_db()
    match = store.get_match(db, match_id)
    log = store.state_at(db, match, tables.replay)
    return db, match, log


def screen_context(match, log, ruling: Ruling | None = None, notice: str = "",
                   entry: dict | None = None) -> dict[str, Any]:
    game = log.game
    seat = seat_for(match.id)
    shared = is_shared(match.id)
    acting = acting_seat(match.id, log)
    view = game.view(log.state, acting)
    table_moves = ([game.move_to_dict(m, log.state.players) for m in game.legal_moves(log.state, None)]
                   if seat is not None or shared else [])
    history = store.entries(get_db(), match.id) if ruling is not None else []
    return {
        "match": match, "view": view, "seat": seat, "shared": shared, "acting": acting,
        "watching": is_watching(match.id),
        "me": match.players[acting] if acting is not None else None,
        "moves": view["legal"] if acting is not None else [], "table_moves": table_moves,
        "ruling": ruling, "notice": notice, "refused": entry,
        "rules_summary": rules_summary(match, view, game.VARIANTS),
        "involved": _involved(ruling, history, log), "variants": game.VARIANTS,
        "key": secrets.token_urlsafe(12), "can_undo": bool(log.positions()) and (seat is not None or shared),
        "deck": list(log.state.deck), "rule_text": rule_text,
        "labels": {v: card_label(v) for v in log.state.deck},
        "join_link": join_link(match),
        "entry_url": url_for("play.post_entry", match_id=match.id),
        "pick_url": url_for("play.pick", match_id=match.id),
    }


@bp.app_template_global()
@pass_context
def entry_form(context, match, key: str, fields: dict, text: str, cls: str = "") -> Markup:
    """One whole entry as a form of hidden fields and a button (built in Python: a screen has many)."""
    url = escape(context["entry_url"])
    hidden = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in fields.items())
    client_key = escape(f"{key}-{'-'.join(str(v) for v in fields.values())}")
    return Markup(
        f'<form method="post" action="{url}" hx-post="{url}" hx-target="#screen" hx-swap="innerHTML" '
        f'hx-disabled-elt="find button" class="entry-form">'
        f'<input type="hidden" name="version" value="{match.version}">'
        f'<input type="hidden" name="key" value="{client_key}">{hidden}'
        f'<button type="submit" class="{escape(cls)}">{escape(text)}</button></form>')


@bp.app_template_global()
def pick_href(base: str, **args) -> str:
    """A link to the card picker: cheaper than ``url_for`` for the many buttons of a screen."""
    return base + "?" + urlencode({k: v for k, v in args.items() if v is not None and v != ""})


_rules_html: dict[tuple[str, bool], str] = {}


def rules_summary(match, view: dict, variants) -> Markup:
    """The house rules in force, as HTML; cached, since a match's rules never change (GEN-11)."""
    key = (match.id, match.version == 0)
    html = _rules_html.get(key)
    if html is None:
        if len(_rules_html) > 2048:
            _rules_html.clear()
        html = _rules_html[key] = render_template("table/_rules.html", view=view, variants=variants,
                                                  open=match.version == 0)
    return Markup(html)


def card_label(card: str) -> str:
    """A card's name on a button."""
    return {"DRAW2": "Draw 2", "SUPERPEEK": "Super Peek", "PEEK": "Peek", "SWAP": "Swap"}.get(card, card)


def join_link(match) -> str:
    """The link other phones open to join this table (the LAN address when serving)."""
    from .home import join_url

    return join_url().rstrip("/") + url_for("home.join_link", code=match.join_code)


def _involved(ruling: Ruling | None, history: list[dict], log) -> list[str]:
    """The entries a ruling points at, said in words (GEN-13)."""
    if ruling is None:
        return []
    out = []
    for position in ruling.entries:
        if position is None or not 0 <= position < len(history):
            continue
        entry = history[position]["entry"]
        try:
            move = log.game.parse_move(entry, log.state.players, log.state.rules)
            words = log.game.describe(move, log.state.players)
        except EntryError:
            words = json.dumps(entry)
        out.append(f"Entry {position}: {words}")
    return out


def render_screen(match, log, status: int = 200, **extra) -> Response:
    ctx = screen_context(match, log, **extra)
    if request.headers.get("HX-Request") == "true":
        body = render_template("table/_screen.html", **ctx)
    else:
        body = render_template("table/page.html", **ctx)
    response = Response(body, status=status)
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response


# --- Pages -----------------------------------------------------------------------------------


@bp.get("")
def table(match_id: str):
    device_id()
    _, match, log = load(match_id)
    return render_screen(match, log)


@bp.get("/screen")
def screen(match_id: str):
    """The fragment each phone re-GETs when the doorbell rings: its own view only. A phone that
    already shows this version (the doorbell of its own entry) gets 204, so a picker it has just
    opened stays open."""
    _, match, log = load(match_id)
    if request.args.get("shown_version") == str(match.version):
        return Response(status=204)
    ctx = screen_context(match, log)
    response = Response(render_template("table/_screen.html", **ctx))
    response.headers["Vary"] = "HX-Request, Cookie"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/seat")
def choose_seat(match_id: str):
    """Show the seat picker again (for a phone that chose to watch, or wants another seat)."""
    _remember("watching", match_id, False)
    return redirect(url_for("play.table", match_id=match_id), code=303)


@bp.get("/watch")
def watch(match_id: str):
    """The spectator link: this phone watches, read-only (a seat it held is released)."""
    from ..security import bind_seat

    store.get_match(get_db(), match_id)
    bind_seat(match_id, None)
    set_shared(match_id, False)
    _remember("watching", match_id, True)
    return redirect(url_for("play.table", match_id=match_id), code=303)


@bp.post("/seat")
def take_seat(match_id: str):
    """Bind this phone to a seat, to the shared-device mode, or to watching."""
    from ..security import bind_seat

    match = store.get_match(get_db(), match_id)
    choice = request.form.get("seat", "")
    set_shared(match_id, choice == SHARED)
    _remember("watching", match_id, choice == "watch")
    if choice in ("watch", SHARED):
        bind_seat(match_id, None)
    else:
        try:
            seat = int(choice)
        except ValueError:
            abort(400, description="Choose a seat from the list.")
        if not 0 <= seat < len(match.players):
            abort(422, description="That seat does not exist at this table.")
        bind_seat(match_id, seat)
    return redirect(url_for("play.table", match_id=match_id), code=303)


@bp.get("/invite")
def invite(match_id: str):
    """The join link and its QR code, to show the other phones."""
    from .home import qr_svg

    match = store.get_match(get_db(), match_id)
    link = join_link(match)
    from .home import join_url

    watch_link = join_url().rstrip("/") + url_for("play.watch", match_id=match.id)
    return render_template("table/invite.html", match=match, link=link, qr=qr_svg(link), watch_link=watch_link)


@bp.get("/pick")
def pick(match_id: str):
    """The second step of an entry: choose a card or a target (a fragment of buttons)."""
    _, match, log = load(match_id)
    acting = acting_seat(match_id, log)
    if acting is None:
        abort(403, description="You are watching this table. Take a seat to play.")
    fields = {k: v for k, v in request.args.items() if k in ("move", "slot", "field", "target", "seat")}
    if fields.get("move") not in ("turn_up", "replace", "discard", "peek", "swap", "reveal_draw", "take_discard"):
        abort(400, description="Nothing to choose for that entry.")
    ctx = screen_context(match, log)
    ctx.update(pick=fields)
    if request.headers.get("HX-Request") == "true":
        return render_template("table/_pick.html", **ctx)
    return render_template("table/pick_page.html", **ctx)


@bp.get("/history")
def history(match_id: str):
    db, match, log = load(match_id)
    rows = []
    for item in store.entries(db, match_id):
        try:
            move = log.game.parse_move(item["entry"], log.state.players, log.state.rules)
            words = log.game.describe(move, log.state.players)
        except EntryError:
            words = json.dumps(item["entry"])
        rows.append({**item, "words": words, "position": item["seq"] - 1,
                     "stands": item["seq"] - 1 in set(log.positions())})
    ctx = screen_context(match, log)
    ctx.update(rows=rows)
    return render_template("table/history.html", **ctx)


@bp.get("/transcript.json")
def download(match_id: str):
    """The match as a transcript: ``referee check`` on it gives the same rulings and scores."""
    db = get_db()
    match = store.get_match(db, match_id)
    body = transcript.dumps(match.game, tuple(match.players), match.rules, None,
                            [e["entry"] for e in store.entries(db, match_id)],
                            title=f"Table {match.join_code}", match=match.id, date=match.created_at[:10])
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="referee-{match.id}.json"'})


# --- Entries ---------------------------------------------------------------------------------


def entry_from_form(form, players: list[str], acting: int | None) -> dict[str, Any]:
    """The entry a form describes, in its transcript form; 400 on anything malformed."""
    move = form.get("move", "")
    if not move or len(move) > 20:
        abort(400, description="The form names no entry.")
    if move == "override":
        try:
            inner = json.loads(form.get("entry", ""))
        except ValueError:
            abort(400, description="The entry to override is not readable.")
        if not isinstance(inner, dict):
            abort(400, description="The entry to override is not readable.")
        return {"move": "override", "rule": form.get("rule", "")[:20], "entry": inner,
                "reason": form.get("reason", "")[:MAX_REASON], "seat": players[acting]}
    entry: dict[str, Any] = {"move": move}
    if move not in ("turn_up", "reshuffle", "time_up", "stalemate", "resolve_flag", "correct"):
        entry["seat"] = players[acting]
    if move in ("reveal", "reveal_draw", "resolve_flag", "undo", "correct"):
        if move in ("reveal", "reveal_draw") and form.get("for"):
            entry["seat"] = form["for"][:40]
        elif move in ("resolve_flag", "undo", "correct"):
            entry["seat"] = players[acting]
    for name in _INT_FIELDS:
        if name in form and form[name] != "":
            try:
                entry["target" if name == "target_entry" else name] = int(form[name])
            except ValueError:
                abort(400, description=f"{name} must be a number.")
    for name in _TEXT_FIELDS:
        if name in form and form[name] != "":
            entry[name] = form[name][:MAX_REASON if name == "reason" else 40]
    if move == "reveal":
        entry["cards"] = [form.get(f"card{i}", "")[:12] for i in range(1, 5)]
        entry.pop("card", None)
    if move == "initial_peek":
        entry["slots"] = [1, 4] if not form.get("slots") else [int(s) for s in form["slots"].split(",")
                                                                if s.strip().isdigit()][:4]
        entry["seen"] = [form.get("seen1", "unknown")[:12], form.get("seen2", "unknown")[:12]]
        entry.pop("seen", None)
    if move == "draw" and form.get("shown") == "1":
        entry["shown"] = True
    if move == "correct":
        try:
            entry["entry"] = json.loads(form.get("entry", ""))
        except ValueError:
            abort(400, description="The corrected entry is not readable.")
    return entry


@bp.post("/entry")
def post_entry(match_id: str):
    db, match, log = load(match_id)
    acting = acting_seat(match_id, log)
    if acting is None and not (is_shared(match_id) or seat_for(match_id) is not None):
        abort(403, description="You are watching this table. Take a seat to play.")
    if acting is None:  # a seated phone between rounds or after the match: table-wide entries only
        acting = seat_for(match_id) if seat_for(match_id) is not None else 0
    try:
        expected = int(request.form.get("version", ""))
    except ValueError:
        abort(400, description="The form is missing the version it was made for; reload the page.")
    key = request.form.get("key", "")[:64] or None
    entry = entry_from_form(request.form, match.players, acting)
    try:
        done = store.append(db, match_id, expected, entry, key, tables.feed, replay_fn=tables.replay,
                            seat=seat_for(match_id), device=device_id())
    except store.StaleVersion:
        match = store.get_match(db, match_id)
        log = store.state_at(db, match, tables.replay)
        return render_screen(match, log, 409, notice="Someone else entered something first: here is the table "
                                                      "as it is now. Nothing of yours was saved.")
    except Ruling as ruling:
        return render_screen(match, log, 422, ruling=ruling, entry=entry)
    except EntryError as err:
        return render_screen(match, log, 400, notice=f"That entry is not complete: {err.message} ({err.field}).")
    if request.form.get("attach") and not done.duplicate:
        scans.attach(db, match_id, done.seq, request.form["attach"])
    match = dataclasses.replace(match, version=done.version)
    if request.headers.get("HX-Request") != "true":
        return redirect(url_for("play.table", match_id=match_id), code=303)
    return render_screen(match, done.state)
