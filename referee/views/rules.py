"""The rules pages: every rule of a game and the general rules, by ID, in plain words, with the house
rules; ``/m/<id>/rules`` marks what this table chose. ``rule_url``/``rule_link`` link a ruling to its rule."""

from __future__ import annotations
from flask_babel import gettext

from flask import Blueprint, abort, current_app, render_template, request, url_for
from markupsafe import Markup, escape

from .. import store
from ..db import get_db
from ..games import get_game
from ..games.base import EntryError, resolve_rules
from ..games.rulebook import GENERAL, applies, describe_switch, game_of

bp = Blueprint("rules", __name__)


def _game(game: str):
    if game not in current_app.config["GAMES"]:
        abort(404, description=gettext("There is no such game here. Pick one on the home page."))
    return get_game(game)


def _render(game: str, match=None, preset_key: str = ""):
    engine = _game(game)
    chosen = None
    preset = None
    if preset_key:  # a set of house rules the game offers (a preset): its switches marked
        preset = next((p for p in engine.PRESETS if p.key == preset_key), None)
        if preset is None:
            abort(404, description=gettext("There is no such set of house rules for this game."))
        chosen = resolve_rules(engine.VARIANTS, dict(preset.rules))
    if match is not None:
        try:
            chosen = resolve_rules(engine.VARIANTS, match.rules)
        except EntryError:
            abort(404, description=gettext("This table's house rules are not ones this referee knows."))
    groups: dict[str, list] = {}
    for v in engine.VARIANTS:
        groups.setdefault(v.rule, []).append(v)
    # a switch named after a rule the rule book states (Cabo's CAB-45) is linked to that rule's own entry
    stated = {rule for section in (*engine.RULE_BOOK, *GENERAL) for rule, _ in section.rules}
    return render_template("rules/page.html", game=game, engine=engine, sections=engine.RULE_BOOK, general=GENERAL,
                           switch_groups=groups, stated=stated, chosen=chosen, match=match, describe=describe_switch,
                           applies=applies, applies_when=engine.APPLIES_WHEN, preset=preset)


@bp.get("/rules/<game>")
def page(game: str):
    """Every rule of ``game``; with ``?preset=<key>``, one of its sets of house rules in words."""
    return _render(game, preset_key=request.args.get("preset", "")[:40])


@bp.get("/m/<match_id>/rules")
def match_rules(match_id: str):
    match = store.get_match(get_db(), match_id)
    return _render(match.game, match)


@bp.app_template_global()
def rule_url(rule_id: str, match_id: str | None = None) -> str:
    """Where a rule is explained: this table's rules page when ``match_id`` is given, else its game's."""
    if match_id:
        return url_for("rules.match_rules", match_id=match_id, _anchor=rule_id)
    return url_for("rules.page", game=game_of(rule_id), _anchor=rule_id)


@bp.app_template_global()
def rule_link(rule_id: str, match_id: str | None = None) -> Markup:
    """The rule ID as a link to its explanation (opens beside the table screen)."""
    return Markup('<a class="rule-link" href="{}" target="_blank" rel="noopener">{}</a>').format(
        rule_url(rule_id, match_id), escape(rule_id))


@bp.app_template_global()
def switch_applies(variant, rules: dict) -> bool:
    """Whether a house rule matters given the others (the minutes only in a timed match)."""
    return applies(variant, rules)


bp.add_app_template_global(describe_switch, "describe_switch")
