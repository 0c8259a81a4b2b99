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


def tally_across(page: str) -> tuple[str, list[tuple[str, str]]] | None:
    found = re.search(r'<h3 id="tally-across">(.*?)</h3>\s*<table[^>]*>(.*?)</table>', page, re.S)
    if not found:
        return None
    return found.group(1), re.findall(r"<th><bdi>(.*?)</bdi></th><td class=\"num\">(\d+)</td>", found.group(2))


def shithead_table(database, shithead: str, rematch_of: str | None = None):
    from tests.web.test_nights_match_results import _finished_shithead

    match = store.create_match(database, "shithead", ["Ana", "Ben", "Noa"], {}, rematch_of=rematch_of)
    version = 0
    for entry in _finished_shithead(shithead):
        version = tables.append(database, match.id, version, entry, None).version
    return match


def test_SH_51_the_shithead_points_add_up_across_play_again(client, database):
    """Three one-game Shithead tables, one "Play again" after another: Ben is the Shithead twice, Noa once.
    The third table, over, counts all three, fewest first; before it is over, the first two."""
    first = shithead_table(database, "Ben")
    assert tally_across(client.get(f"/m/{first.id}").get_data(as_text=True)) is None  # nothing played before it
    # right after "Play again" the new table carries Ben's point on (it showed 0 for everyone)
    fresh = store.get_match(database, again(client, first.id))
    heading, rows = tally_across(client.get(f"/m/{fresh.id}").get_data(as_text=True))
    assert heading == "Shithead points, 1 match at this table" and rows == [("Ana", "0"), ("Noa", "0"), ("Ben", "1")]
    second = shithead_table(database, "Noa", rematch_of=first.id)
    heading, rows = tally_across(client.get(f"/m/{second.id}").get_data(as_text=True))
    assert heading == "Shithead points, all 2 matches at this table"
    assert rows == [("Ana", "0"), ("Ben", "1"), ("Noa", "1")]
    third = store.get_match(database, again(client, second.id))
    heading, rows = tally_across(client.get(f"/m/{third.id}").get_data(as_text=True))
    assert heading == "Shithead points, all 2 matches at this table"  # the third is not over yet
    version = 0
    from tests.web.test_nights_match_results import _finished_shithead
    for entry in _finished_shithead("Ben"):
        version = tables.append(database, third.id, version, entry, None).version
    heading, rows = tally_across(client.get(f"/m/{third.id}").get_data(as_text=True))
    assert heading == "Shithead points, all 3 matches at this table"
    assert rows == [("Ana", "0"), ("Noa", "1"), ("Ben", "2")]


def test_matches_won_add_up_across_play_again(client, database):
    first = store.create_match(database, EXAMPLE["game"], EXAMPLE["players"], EXAMPLE["rules"])
    played(database, first)
    second = store.get_match(database, again(client, first.id))
    played(database, second)
    heading, rows = tally_across(client.get(f"/m/{second.id}").get_data(as_text=True))
    log = store.state_at(database, store.get_match(database, first.id), tables.replay)
    winners = [EXAMPLE["players"][seat] for seat in log.game.view(log.state, None)["winners"]]
    assert winners and heading == "Matches won, all 2 matches at this table"
    assert dict(rows) == {name: "2" if name in winners else "0" for name in EXAMPLE["players"]}
    assert rows[0][0] in winners  # most wins first
