"""The matches played before at a table, one "Play again" after another: how each ended, said on the table
screen, so that an evening of games reads as one evening (the Shithead of each game, who won each match)
where each game is a table of its own."""
from __future__ import annotations

from typing import Any

from flask import current_app, url_for

from .. import store, tables
from ..i18n import lang
from ..i18n_rules import outcome_words

LIMIT = 12  # earlier matches said, at most (the latest)

_said: dict[tuple, dict[str, Any]] = {}


def earlier_matches(db, match) -> list[dict[str, Any]]:
    """The finished matches this one is a rematch of, the first played first: ``words`` (how it ended, in
    the phone's language) and ``url`` (its table)."""
    out: list[dict[str, Any]] = []
    seen = {match.id}
    current = match
    while current.rematch_of and current.rematch_of not in seen and len(out) < LIMIT:
        seen.add(current.rematch_of)
        try:
            current = store.get_match(db, current.rematch_of)
        except store.UnknownMatch:
            break
        said = _outcome(db, current)
        if said is not None:
            out.append(said)
    out.reverse()
    return out


def _outcome(db, match) -> dict[str, Any] | None:
    key = (current_app.config["DATABASE"], match.id, match.version, lang())
    found = _said.get(key)
    if found is None:
        try:
            log = store.state_at(db, match, tables.replay)
            view = log.game.view(log.state, None)
        except Exception:  # noqa: BLE001 - a match whose log does not replay is left out, not a 500
            return None
        if not view.get("over"):
            return None
        if len(_said) >= 1024:
            _said.clear()
        found = _said[key] = {"words": outcome_words(view), "url": url_for("play.table", match_id=match.id)}
    return found
