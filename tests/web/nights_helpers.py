"""Known histories for the standings, export and backup tests: worked-example transcripts
(docs/examples) played into a real database through `tables.append`, as the phones would."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from referee import nights, store, tables

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

# A one-round Rat-a-Tat Cat match between Ana and Ben that ends level on 10 each.
TIED_ROUND = {
    "format": "referee-transcript/1", "game": "ratatat", "players": ["Ana", "Ben"], "rules": {"rounds_n": 1},
    "entries": [
        {"move": "turn_up", "card": "2"}, {"seat": "Ana", "move": "take_discard"},
        {"seat": "Ana", "move": "replace", "slot": 3, "out": "6"}, {"seat": "Ana", "move": "call"},
        {"seat": "Ben", "move": "draw"}, {"seat": "Ben", "move": "discard", "card": "8"},
        {"seat": "Ana", "move": "reveal", "cards": ["1", "0", "2", "7"]},
        {"seat": "Ben", "move": "reveal", "cards": ["4", "4", "0", "2"]},
    ],
}


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def renamed(transcript: dict, names: dict[str, str]) -> dict:
    """The transcript with its players renamed (in the header and every entry's seat)."""
    out = copy.deepcopy(transcript)
    out["players"] = [names.get(p, p) for p in out["players"]]
    for entry in out["entries"]:
        if isinstance(entry.get("seat"), str):
            entry["seat"] = names.get(entry["seat"], entry["seat"])
    if isinstance(out.get("dealer"), str):
        out["dealer"] = names.get(out["dealer"], out["dealer"])
    return out


def play(db, transcript: dict, group_id: int | None = None, moment=None, upto: int | None = None) -> store.Match:
    """A new match of the transcript's game, players and rules, linked to the group (tonight's night,
    or the night of `moment`), with its entries entered one by one."""
    match = store.create_match(db, transcript["game"], transcript["players"], transcript.get("rules", {}))
    nights.link_match(db, match, group_id, moment)
    for i, entry in enumerate(transcript["entries"][:upto]):
        tables.append(db, match.id, i, entry, None)
    return store.get_match(db, match.id)
