"""At the reveal the shared phone shows every player's reveal form at once: each slot's (Cabo: each place's)
control is named with its player ("Ana's slot 1"), so a screen reader's list of form controls tells the
players' forms apart."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from referee import store, tables

from .test_play import Phone, text

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _replayed(database, transcript: str, count: int):
    data = json.loads((EXAMPLES / transcript).read_text())
    match = store.create_match(database, data["game"], data["players"], data.get("rules") or {})
    version = 0
    for entry in data["entries"][:count]:
        version = tables.append(database, match.id, version, {k: v for k, v in entry.items() if k != "note"},
                                None).version
    return match


def _blocks(page: str) -> dict[str, str]:
    return dict(re.findall(r'<div class="reveal-block" id="reveal-(\w+)">(.*?)</form>', page, re.S))


def test_each_slot_of_each_players_reveal_is_named_with_the_player(app, database):
    match = _replayed(database, "plain-round.json", 7)  # Ana called; Ben's last turn done: the reveal
    shared = Phone(app, match.id, "shared")
    blocks = _blocks(text(shared.client.get(f"/m/{match.id}")))
    assert sorted(blocks) == ["Ana", "Ben"]
    for name, block in blocks.items():
        legends = re.findall(r"<legend>([^<]*)", block)
        assert [html.unescape(legend).strip() for legend in legends] == [f"{name}'s slot {i}" for i in range(1, 5)]


def test_each_place_of_each_players_cabo_reveal_is_named_with_the_player(app, database):
    match = _replayed(database, "cabo-scoring.json", 6)  # Ana called; Ben and Cy played: the reveal
    shared = Phone(app, match.id, "shared")
    blocks = _blocks(text(shared.client.get(f"/m/{match.id}")))
    assert sorted(blocks) == ["Ana", "Ben", "Cy"]
    for name, block in blocks.items():
        labels = re.findall(r'<label class="card-pick">([^<]*)', block)
        assert [html.unescape(label).strip() for label in labels] == [f"{name}'s place {i}" for i in range(1, 5)]
