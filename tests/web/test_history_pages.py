"""A long match's history comes a page at a time (``play.HISTORY_PAGE`` entries): the latest page first,
the page holding an entry when a ruling links to it, and links to the pages before and after; a seat
change shows on one page only. A hostile ``at`` is the latest page."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from referee import store, tables
from referee.views.play import HISTORY_PAGE

from .test_play import HX, Phone

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "server_bench.py"


def _script(n: int) -> list:
    spec = importlib.util.spec_from_file_location("server_bench", BENCH)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return [entry for _, entry in bench.make_script(n)], bench.PLAYERS, bench.RULES


@pytest.fixture
def long_match(app, database):
    entries, players, rules = _script(2 * HISTORY_PAGE + 50)
    match = store.create_match(database, "ratatat", players, rules)
    for version, entry in enumerate(entries):
        store.append(database, match.id, version, entry, None, tables.feed, replay_fn=tables.replay)
    return match, len(entries)


def numbers(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li class="(?:stands|gone)" id="e(\d+)"', page)]


def test_the_latest_page_comes_first_and_each_page_links_to_the_next(app, long_match):
    match, total = long_match
    phone = Phone(app, match.id, "1")
    latest = phone.client.get(f"{phone.url}/history").get_data(as_text=True)
    assert numbers(latest) == list(range(total - HISTORY_PAGE, total))
    assert f"Entries {total - HISTORY_PAGE} to {total - 1} of {total}" in latest
    assert f'href="/m/{match.id}/history?at={total - HISTORY_PAGE - 1}">Earlier entries' in latest
    assert "Later entries" not in latest
    earlier = phone.client.get(f"{phone.url}/history?at={total - HISTORY_PAGE - 1}").get_data(as_text=True)
    assert numbers(earlier) == list(range(total - 2 * HISTORY_PAGE, total - HISTORY_PAGE))  # no entry twice
    first = phone.client.get(f"{phone.url}/history?at=0").get_data(as_text=True)
    assert numbers(first) == list(range(total - 2 * HISTORY_PAGE)) and "Earlier entries" not in first
    assert f'href="/m/{match.id}/history?at={total - 2 * HISTORY_PAGE}">Later entries' in first
    assert numbers(phone.client.get(f"{phone.url}/history?at=7").get_data(as_text=True)) == numbers(first)


@pytest.mark.parametrize("at", ["x", "-3", "99999999", "1e3", "", "3.5"])
def test_a_hostile_at_shows_the_latest_page(app, long_match, at):
    match, total = long_match
    response = app.test_client().get(f"/m/{match.id}/history", query_string={"at": at})
    assert response.status_code == 200 and numbers(response.get_data(as_text=True))[-1] == total - 1


def test_a_seat_change_shows_once_on_the_page_of_its_time(app, long_match):
    match, total = long_match
    phone = Phone(app, match.id, "1")
    assert phone.client.post(f"{phone.url}/seat", data={"seat": "2"}, headers=HX).status_code == 303
    latest = phone.client.get(f"{phone.url}/history").get_data(as_text=True)
    first = phone.client.get(f"{phone.url}/history?at=0").get_data(as_text=True)
    assert latest.count('class="seat-change"') == 1 and 'class="seat-change"' not in first  # Ben's phone took Cy's


def test_a_link_to_an_earlier_entry_opens_its_page(app, long_match):
    match, _ = long_match
    phone = Phone(app, match.id, "0")
    page = phone.client.get(f"{phone.url}/history?at=3").get_data(as_text=True)
    assert 'id="e3"' in page
    for href in re.findall(r'<a href="([^"]*#e(\d+))">(?:undid|corrected at)', page):
        assert href[0].startswith("#e") or "?at=" in href[0]


def test_the_history_is_headed_round_by_round(app, database, long_match):
    """Each round's entries under its heading ("Round 2"), on every page: a family asking what happened in
    round 2 no longer counts entries (the history was one flat list)."""
    match, count = long_match
    phone = Phone(app, match.id, "0")
    page = phone.client.get(f"/m/{match.id}/history").get_data(as_text=True)
    marks = [(m.start(), int(m.group(1))) for m in re.finditer(r'<li class="round-mark"><h2>Round (\d+)</h2>', page)]
    entries = [(m.start(), int(m.group(1))) for m in re.finditer(r'<li class="(?:stands|gone)" id="e(\d+)"', page)]
    assert marks and marks[0][0] < entries[0][0]  # the page opens with its first entry's round
    rounds = [r for _, r in marks]
    assert rounds == list(range(rounds[0], rounds[0] + len(rounds))) and len(rounds) >= 2
    # every entry under the round it was made in: one more than the rounds finished before it
    finished, heading = {}, None
    log = tables.start(store.get_match(database, match.id))
    for position, row in enumerate(store.entries(database, match.id)):
        finished[position] = len(log.state.history) + 1
        log = tables.replay_one(log, row["entry"], position)
    for at, number in entries:
        heading = max((r for start, r in marks if start < at), default=None)
        assert heading == finished[number], number
    first = phone.client.get(f"/m/{match.id}/history?at=0").get_data(as_text=True)
    assert re.search(r'<li class="round-mark"><h2>Round 1</h2></li>\s*<li class="stands" id="e0"', first)


def test_a_game_of_games_is_headed_game_by_game(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben"], {})
    phone = Phone(app, match.id, "0")
    store.append(database, match.id, 0, {"move": "faceup", "seat": "Ana", "cards": ["4S", "9D", "AS"]}, None,
                 tables.feed, replay_fn=tables.replay)
    page = phone.client.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert '<li class="round-mark"><h2>Game 1</h2></li>' in page and "Round 1" not in page


def test_an_entry_made_after_the_match_ended_is_under_its_last_round_not_a_new_one(app, database):
    """A one-round match, over; the shared phone then undoes the last reveal. The history headed that undo
    "Round 2", a round the match never had: an entry made after the end belongs to the last round."""
    from .test_home import finished_match

    match = finished_match(database)
    shared = Phone(app, match.id, "shared")
    assert shared.post(move="undo").status_code == 200
    page = shared.client.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert re.findall(r"<h2>(Round \d+)</h2>", page) == ["Round 1"]
    assert "undid #7" in page
