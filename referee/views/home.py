"""Home page: start a table (game, players, house rules by preset or one by one), join one by code or
link, show the QR; and play again with the same players and house rules."""

from __future__ import annotations
from flask_babel import gettext
from ..i18n_rules import entry_problem_text, ruling_text, switch_label

import segno
from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from markupsafe import Markup

from ..db import get_db
from ..games import get_game
from ..games.base import EntryError, Ruling, changed_rules, resolve_rules
from ..games.rulebook import applies, describe_switch
from .. import people
from ..people import PeopleError
from ..store import create_match, find_match_by_code, find_rematch, get_match, recent_matches
from .nights import link_table, table_group

bp = Blueprint("home", __name__)

MAX_NUMBER = 100_000  # no house-rule number needs more
TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def join_url() -> str:
    """The address phones should open: the LAN URL `referee serve` printed,
    else the one this browser used."""
    return current_app.config.get("JOIN_URL") or request.host_url


def qr_svg(url: str) -> Markup:
    """Inline SVG QR code (no inline styles or scripts, so CSP holds)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=5, title=url, svgclass="qr", lineclass=None, omitsize=True))


@bp.get("/")
def index():
    return _home()


def _home(status: int = 200, **problem):
    url = join_url()
    db = get_db()
    recent = [(m, _finished(db, m)) for m in recent_matches(db, 8)]
    return render_template("home.html", join_url=url, qr=qr_svg(url), games=current_app.config["GAMES"],
                           recent=recent, **problem), status


def _finished(db, match) -> str | None:
    """How far a recent table's match is: "finished", "ended early" (the table ended it), "playing", "left"
    (nothing entered for ``nights.LEFT_AFTER``: left unfinished); None when its log could not be read. A family tells the tables still being played from the others."""
    from .. import store, tables

    try:
        log = store.state_at(db, match, tables.replay)
        result = log.game.result(log.state)
    except Exception:  # noqa: BLE001 - a table whose log does not replay is still listed, without a status
        return None
    if result.get("ended_early"):
        return "ended early"
    if result.get("over"):
        return "finished"
    from ..nights import left_unfinished

    return "left" if left_unfinished(db, [match.id]) else "playing"


@bp.get("/healthz")
def healthz():
    get_db().execute("SELECT 1").fetchone()
    return {"ok": True}


@bp.post("/join")
def join():
    code = request.form.get("code", "")
    match = find_match_by_code(get_db(), code) if code.strip() else None
    if match is None:  # the home page again, the code typed kept in its field to mend it
        return _home(404, code=code.strip()[:12], join_problem=gettext(
            "No table has the code %(code)s. Check the code shown on the table's screen.", code=repr(code.strip()[:12])))
    return redirect(url_for("play.table", match_id=match.id), code=303)


@bp.get("/j/<code>")
def join_link(code: str):
    """The link (and QR) a table shows: straight to its seat picker."""
    match = find_match_by_code(get_db(), code)
    if match is None:
        abort(404, description=gettext("No table has that code. Check the link on the table's screen."))
    return redirect(url_for("play.table", match_id=match.id), code=303)


def _engine(game: str):
    if game not in current_app.config["GAMES"]:
        abort(404, description=gettext("There is no such game here. Pick one on the home page."))
    return get_game(game)


class FormProblem(Exception):
    """A field of the new-table form that cannot be read: said in words, answered 422 on the form."""


def parse_players(form) -> tuple[list[str], list[str]]:
    """(names, what was typed): blank fields are skipped; the engine normalises or refuses the rest."""
    typed = [n[:200] for n in form.getlist("player")[:20]]
    names = [n.strip() for n in form.getlist("player") if n.strip()]
    if not names and form.get("players"):
        names = [line.strip() for line in form["players"].splitlines() if line.strip()]
    return names, typed  # the engine normalises and refuses names (base.normalise_name)


def parse_rules(engine, form) -> dict:
    """House rules from the form: every switch the form sets, read as its type."""
    rules = {}
    for variant in engine.VARIANTS:
        raw = form.get(variant.key)
        if raw is None or raw == "" or variant.derived:  # a derived switch follows from the players
            continue
        raw = raw.strip()
        if variant.choices and isinstance(variant.default, bool):
            if raw.lower() not in TRUE + FALSE:
                raise FormProblem(gettext("%(switch)s: choose one of the choices offered.", switch=switch_label(variant)))
            rules[variant.key] = raw.lower() in TRUE
        elif variant.choices:
            offered = {str(choice): choice for choice in variant.choices}  # 3, "auto", None as the form says them
            if raw not in offered:
                raise FormProblem(gettext("%(switch)s: choose one of the choices offered (%(key)s).", switch=switch_label(variant), key=variant.key))
            rules[variant.key] = offered[raw]
        elif raw.lower() == "off" and variant.allow_none:
            rules[variant.key] = None
        else:
            top = min(variant.maximum, MAX_NUMBER)
            if (not (raw.isascii() and raw.isdigit()) or len(raw) > 6
                    or not variant.minimum <= int(raw) <= top):  # the switch's own range, said whole
                raise FormProblem(gettext("%(switch)s: enter a whole number from %(min)s to %(max)s.",
                                          switch=switch_label(variant), min=variant.minimum, max=top))
            rules[variant.key] = int(raw)
    return rules


def presets_for(game: str) -> tuple:
    return tuple(get_game(game).PRESETS)


def preset_rules(game: str, form) -> tuple[str, dict]:
    """The preset chosen on the form (the game's first, its publisher's rules, when none) and its switches."""
    presets = {p.key: p for p in presets_for(game)}
    if not presets:
        return "", {}
    key = form.get("preset") or next(iter(presets))
    if key not in presets:
        raise FormProblem(gettext("Choose one of the rule sets offered."))
    return key, dict(presets[key].rules)


def render_form(game: str, engine, chosen: dict, preset: str, players: list[str], error: str | None):
    try:
        rules = resolve_rules(engine.VARIANTS, chosen)
    except EntryError:
        rules = resolve_rules(engine.VARIANTS, {})
    presets = [(p, resolve_rules(engine.VARIANTS, p.rules)) for p in presets_for(game)]
    from .nights import table_form_context

    return render_template("new_table.html", **table_form_context(request.form if request.method == "POST" else None), game=game, engine=engine, defaults=rules, preset=preset,
                           presets=presets, players=players + [""] * max(0, 4 - len(players)), error=error,
                           describe=describe_switch, applies=applies,
                           applies_when=engine.APPLIES_WHEN)


@bp.get("/new/<game>")
def new_table(game: str):
    engine = _engine(game)
    presets = presets_for(game)
    return render_form(game, engine, {}, presets[0].key if presets else "", [], None)


@bp.post("/new/<game>")
def create_table(game: str):
    engine = _engine(game)
    typed: list[str] = []
    chosen: dict = {}
    preset = ""
    try:
        names, typed = parse_players(request.form)
        preset, chosen = preset_rules(game, request.form)
        chosen.update(parse_rules(engine, request.form))
        state = engine.new_match(tuple(names), chosen)
        people.check_one_seat_each(get_db(), state.players)
        group_id = table_group(request.form)
        if (group_id is not None and not (request.form.get("new_group") or "").strip()
                and request.form.get("group") == request.form.get("group_offered")
                and people.strangers_to(get_db(), group_id, state.players)):
            raise FormProblem(gettext(
                "None of these players has played in %(group)s before: is this table for %(group)s? If it is, tap "
                "“Create the table” again; if not, choose “No group” or another group.",
                group=people.get_group(get_db(), group_id).name))
    except (FormProblem, Ruling, EntryError, PeopleError) as err:
        message = (f"{err.rule}: {ruling_text(err.rule, err.message)}" if isinstance(err, Ruling)
                   else entry_problem_text(err.message) if isinstance(err, EntryError)
                   else f"{err.field}: {err.message}" if isinstance(err, PeopleError) else str(err))
        return render_form(game, engine, chosen, preset, typed, message), 422  # every name typed, shown again
    match = create_match(get_db(), game, list(state.players), changed_rules(engine.VARIANTS, state.rules))
    link_table(match, group_id)
    return redirect(url_for("play.table", match_id=match.id), code=303)


@bp.post("/tables")
def create_table_legacy():
    """The home page's quick form: a game and players, default house rules."""
    game = request.form.get("game", "")
    return create_table(game)


@bp.post("/m/<match_id>/again")
def play_again(match_id: str):
    """A new match with the same game, players and house rules; every phone that asks gets the same one,
    and keeps its seat (or its shared or watching mode) unless another phone took that seat in the new match
    first: then it chooses there, where taking a held seat asks first."""
    from ..seats import holder_of, is_shared, is_watching, phone_seat, sit, stand_up

    db = get_db()
    match = get_match(db, match_id)
    rematch = find_rematch(db, match_id)
    if rematch is None:
        from .. import store, tables

        log = store.state_at(db, match, tables.replay)
        if not log.state.over:
            abort(409, description=gettext("This match is still being played: play again once it is over."))
        next_dealer = getattr(log.game, "next_dealer", None)  # e.g. Shithead's: the Shithead deals (SH-53)
        dealer = next_dealer(log.state) if next_dealer is not None else None
        rematch = create_match(db, match.game, match.players, match.rules, rematch_of=match.id, dealer=dealer)
        from ..nights import link_match, match_group
        from .nights import phone_now

        link_match(db, rematch, match_group(db, match.id)[0], phone_now())  # the same group, tonight's night
        from .. import live

        live.publish(match_id, live.SeatsChanged(match.version))  # every other phone is offered the new game
    seat = phone_seat(match_id)
    if seat is not None and holder_of(rematch.id, seat) is not None:
        pass  # another phone sat there first in the new match: this one picks, and taking it over asks
    elif seat is not None:
        sit(rematch.id, seat)
    elif is_shared(match_id):
        stand_up(rematch.id, "shared")
    elif is_watching(match_id):
        stand_up(rematch.id, "watch")
    return redirect(url_for("play.table", match_id=rematch.id), code=303)
