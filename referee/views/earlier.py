"""The matches played before at a table, one "Play again" after another: how each ended, said on the table
screen, so that an evening of games reads as one evening (the Shithead of each game, who won each match)
where each game is a table of its own, and a running tally across them (Shithead points, or matches won)."""
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
        found = _said[key] = {"words": outcome_words(view), "url": url_for("play.table", match_id=match.id),
                              "points": _points(view), "counts": _counts(view)}
    return found


def _counts(view: dict) -> str:
    """What a match adds to the tally across "Play again": Shithead's own tally (a point for each game's
    Shithead, or for each game's first out, as the table chose), or a match won."""
    if view.get("game") == "shithead":
        return "wins" if view.get("rules", {}).get("end_mode") == "first_out_wins" else "shithead"
    return "matches"


def _points(view: dict) -> dict[str, int]:
    players = view.get("players") or []
    if view.get("game") == "shithead":
        return {name: int(points) for name, points in zip(players, view.get("tally") or [])}
    winners = {players[w] if isinstance(w, int) and 0 <= w < len(players) else w for w in view.get("winners") or []}
    return {name: int(name in winners) for name in players}


def running_tally(earlier: list[dict[str, Any]], view: dict) -> dict[str, Any] | None:
    """The tally across the matches played at this table one "Play again" after another, this one
    included once it is over (``view``, its table as this phone sees it): ``counts`` ("shithead", "wins"
    or "matches"), ``matches`` (how many) and ``rows`` ([name, points], best first). None with no match played
    before this one, or where they counted differently (a house rule changed). Right after "Play again"
    the tally is the matches before, not zeros: the new table carries the points on."""
    done = list(earlier)
    if view.get("over"):
        done.append({"points": _points(view), "counts": _counts(view)})
    if not earlier or len({d["counts"] for d in done}) != 1:
        return None
    totals: dict[str, int] = {}
    for d in done:
        for name, points in d["points"].items():
            totals[name] = totals.get(name, 0) + points
    counts = done[0]["counts"]
    rows = sorted(totals.items(), key=lambda item: item[1], reverse=counts != "shithead")
    return {"counts": counts, "matches": len(done), "rows": [list(row) for row in rows]}
