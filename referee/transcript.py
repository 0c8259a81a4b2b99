"""The table log as a document ("transcript"): a whole physical match in JSON, replayed by
``referee check``. The format is described in docs/transcripts.md.

    {"format": "referee-transcript/1", "game": "ratatat", "players": ["Ana", "Ben"],
     "rules": {"tie_policy": "all_lowest"}, "dealer": "Ben",
     "entries": [{"move": "turn_up", "card": "5"}, {"seat": "Ana", "move": "draw"}, ...]}
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .games import GAMES, get_game
from .games.base import EntryError, Ruling, changed_rules
from .games.log import Log, Step, replay, rulings

FORMAT = "referee-transcript/1"
_TOP_FIELDS = {"format", "game", "players", "rules", "dealer", "entries", "title", "date", "note",
               "exported_at", "match"}


class TranscriptError(ValueError):
    """Not a valid transcript: ``where`` names the field and position at fault."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True)
class Transcript:
    game: Any
    players: tuple[str, ...]
    rules: dict[str, Any]
    dealer: Any
    moves: list[Any]
    meta: dict[str, Any]

    def start(self):
        return self.game.new_match(self.players, self.rules, self.dealer)


def loads(text: str) -> Transcript:
    """Parse and validate a transcript; raises :class:`TranscriptError`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise TranscriptError(f"line {err.lineno} column {err.colno}", f"not valid JSON ({err.msg})") from None
    return from_data(data)


def from_data(data: Any) -> Transcript:
    if not isinstance(data, dict):
        raise TranscriptError("(top level)", "a transcript is a JSON object")
    for key in data:
        if key not in _TOP_FIELDS:
            raise TranscriptError(key, "is not a transcript field")
    if "format" in data and data["format"] != FORMAT:
        raise TranscriptError("format", f"expected {FORMAT!r}, not {data['format']!r}")
    name = data.get("game")
    if name not in GAMES:
        raise TranscriptError("game", f"{name!r} is not a game the referee knows ({', '.join(GAMES)})")
    game = get_game(name)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise TranscriptError("players", "a list of player names")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise TranscriptError("rules", "an object of house rules")
    entries = data.get("entries")
    if not isinstance(entries, list):
        raise TranscriptError("entries", "a list of entries")
    players_t = tuple(players)
    try:
        game.new_match(players_t, rules, data.get("dealer"))
    except EntryError as err:
        raise TranscriptError(err.field, err.message) from None
    except Ruling as ruling:
        raise TranscriptError("players", f"{ruling.rule}: {ruling.message}") from None
    moves = []
    for i, entry in enumerate(entries):
        try:
            moves.append(game.parse_move(entry, players_t, rules, where=f"entries[{i}]"))
        except EntryError as err:
            raise TranscriptError(err.field, err.message) from None
    meta = {k: data[k] for k in ("title", "date", "note", "match", "exported_at") if k in data}
    return Transcript(game, players_t, rules, data.get("dealer"), moves, meta)


def check(transcript: Transcript) -> tuple[Log, list[Step], dict[str, Any]]:
    """Replay a transcript: every ruling and the result, as ``referee check --json`` prints them."""
    log, steps = replay(transcript.game, transcript.start(), transcript.moves)
    found = rulings(log, steps)
    report = {"ok": not found, "rulings": found, "result": result(log.game, log.state)}
    return log, steps, report


def result(game: Any, state: Any) -> dict[str, Any]:
    """Round scores, winners and match standings (by player name)."""
    players = state.players
    rounds = [h.to_dict(players) for h in state.history]
    order = sorted(range(len(players)), key=lambda s: (state.totals[s], s))
    house_rules = {"tie_policy": state.rules["tie_policy"], **changed_rules(game.VARIANTS, state.rules)}
    return {
        "house_rules": house_rules,  # GEN-11: every switch off its default, and always the tie policy
        "rounds": rounds,
        "totals": {players[s]: state.totals[s] for s in range(len(players))},
        "standings": [{"player": players[s], "total": state.totals[s], "out": s in state.eliminated}
                      for s in order],
        "over": state.over,
        "winners": [players[s] for s in state.winners],
        "outcome": state.outcome,
    }


def dumps(game_name: str, players: tuple[str, ...], rules: dict[str, Any], dealer: Any,
          entries: list[dict[str, Any]], **meta: Any) -> str:
    """A transcript document for entries already in their JSON form (the app's export)."""
    doc: dict[str, Any] = {"format": FORMAT, "game": game_name, **meta, "players": list(players),
                           "rules": rules}
    if dealer is not None:
        doc["dealer"] = dealer
    doc["entries"] = entries
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def format_text(transcript: Transcript, steps: list[Step], report: dict[str, Any]) -> str:
    """The human-readable report of ``referee check``."""
    lines = []
    for r in report["rulings"]:
        status = f" [{r['status']}]" if r.get("status") and r["status"] != "open" else ""
        if r.get("status") == "overridden" and r["verdict"] == "reject":
            status = f" [overridden by {r['by'] or 'the table'}{': ' + r['reason'] if r['reason'] else ''}]"
        lines.append(f"entry {r['event']}: {r['verdict'].upper()} {r['rule']}: {r['message']}{status}")
    res = report["result"]
    for rnd in res["rounds"]:
        scores = ", ".join(f"{p} {v}" for p, v in rnd["scores"].items())
        lines.append(f"round {rnd['number']}: {scores} — {rnd['explanation']}")
    lines.append("totals: " + ", ".join(f"{p} {v}" for p, v in res["totals"].items()))
    lines.append(res["outcome"] if res["over"] else "match not finished")
    accepted = sum(1 for s in steps if s.accepted)
    lines.append(f"{len(steps)} entries, {accepted} accepted, {len(steps) - accepted} refused; "
                 f"{'no rulings' if report['ok'] else str(len(report['rulings'])) + ' ruling(s)'}")
    return "\n".join(lines)
