"""A table made by "Play again" says how the matches played before at it ended, the first first, each
linked to its table: an evening of games, each a table of its own, reads as one evening."""
from __future__ import annotations

import json
import re
from pathlib import Path

from referee import store, tables

ORIGIN = {"Origin": "http://localhost"}
EXAMPLE = json.loads((Path(__file__).resolve().parents[2] / "docs" / "examples" / "plain-round.json").read_text())


def played(database, match) -> None:
    version = 0
    for entry in EXAMPLE["entries"]:
        version = tables.append(database, match.id, version, entry, None).version


def again(client, match_id: str) -> str:
    response = client.post(f"/m/{match_id}/again", headers=ORIGIN)
    assert response.status_code == 303
    return response.headers["Location"].rstrip("/").split("/")[-1]


def earlier(page: str) -> list[str]:
    found = re.search(r'<section class="card" id="earlier">(.*?)</section>', page, re.S)
    return re.findall(r'<li><a href="(/m/[^"]+)">(.*?)</a></li>', found.group(1)) if found else []


def test_each_play_again_lists_the_matches_before_it_in_order(client, database):
    first = store.create_match(database, EXAMPLE["game"], EXAMPLE["players"], EXAMPLE["rules"])
    assert earlier(client.get(f"/m/{first.id}").get_data(as_text=True)) == []  # a first table: nothing before
    played(database, first)
    second = store.get_match(database, again(client, first.id))
    listed = earlier(client.get(f"/m/{second.id}").get_data(as_text=True))
    log = store.state_at(database, store.get_match(database, first.id), tables.replay)
    assert listed == [(f"/m/{first.id}", log.game.result(log.state)["outcome"])]
    played(database, second)
    third = again(client, second.id)
    listed = earlier(client.get(f"/m/{third}").get_data(as_text=True))
    assert [url for url, _ in listed] == [f"/m/{first.id}", f"/m/{second.id}"]
