"""A finished match's page on the nights pages says what the match came to, for every game: a Shithead
game's finishing order and its Shithead (no points, so no chart: never "No round scored yet."), a Spite &
Malice game's winner and how it ended, a Cabo match's rounds and its winner."""
from __future__ import annotations

import html
import random
import re

import pytest

from referee import nights, people, store, tables
from referee.games import shithead as sh
from referee.games.shithead_moves import move_to_dict
from tests.games.shithead_sim import Table
from tests.web.nights_helpers import example, play


def _finished_shithead(shithead: str, names=("Ana", "Ben", "Noa")) -> list[dict]:
    """The entries of a whole Shithead game at an honest simulated table, one whose Shithead is ``shithead``."""
    for seed in range(50):
        table, rng, entries = Table(names, {}, seed), random.Random(seed), []
        while table.state.phase != "over" and len(entries) < 1500:
            options = table.honest_entries()
            if any(isinstance(m, sh.Play) for m in options):  # a voluntary pick-up is rare
                options = [m for m in options if not isinstance(m, sh.Pickup)] or options
            move = rng.choice(options)
            entries.append(move_to_dict(move, table.state.players))
            table.enter(move)
        last = table.state.history[-1] if table.state.history else None
        if table.state.phase == "over" and last and last.shithead is not None and names[last.shithead] == shithead:
            return entries
    raise AssertionError("no simulated game with that Shithead")


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.split("<main", 1)[1])))


@pytest.fixture
def club(database):
    return people.find_or_create_group(database, "Club")


def _shithead_match(database, club, shithead: str):
    """A finished Shithead match of Ana, Ben and Noa in the club, whose Shithead is ``shithead``."""
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Noa"], {})
    nights.link_match(database, match, club.id)
    version = 0
    for entry in _finished_shithead(shithead):
        version = tables.append(database, match.id, version, entry, None).version
    return match


def test_a_finished_shithead_match_shows_its_finishing_order_and_its_shithead(client, database, club):
    match = _shithead_match(database, club, "Noa")
    page = client.get(f"/nights/m/{match.id}").get_data(as_text=True)
    text = _text(page)
    assert "No round scored yet." not in text
    assert "Game 1: Noa is the Shithead" in text
    order = re.search(r'<ol class="finishing-order">(.*?)</ol>', page, re.S)[1]
    went_out = [html.unescape(n) for n in re.findall(r"<li><bdi>(.*?)</bdi></li>", order)]
    assert sorted(went_out) == ["Ana", "Ben"] and "Noa (Shithead)" in html.unescape(order)
    assert 'class="outcome"' in page and "Noa is the Shithead." in text  # how the match ended, as the table says it
    # and the night's page in the group leads to it
    night = database.execute("SELECT night_id FROM matches WHERE id = ?", (match.id,)).fetchone()[0]
    night_page = client.get(f"/nights/g/{club.id}", query_string={"night": night}).get_data(as_text=True)
    assert f'href="/nights/m/{match.id}"' in night_page


def test_a_finished_spite_and_malice_match_says_who_won_each_game_and_how(client, database, club):
    match = play(database, example("spite-malice-stock-out"), club.id)
    text = _text(client.get(f"/nights/m/{match.id}").get_data(as_text=True))
    assert "No round scored yet." not in text
    assert re.search(r"Game 1: Ann wins, \d+ points? The stock ran out\. Pay-off cards left: Ann \d+, Bob \d+\.", text)
    assert "Round by round" in text  # the points, game by game, charted


def test_a_finished_cabo_match_shows_its_rounds_and_its_winner(client, database, club):
    match = play(database, example("cabo-scoring"), club.id)
    page = client.get(f"/nights/m/{match.id}").get_data(as_text=True)
    text = _text(page)
    assert 'id="running-totals"' in page and "No round scored yet." not in text
    assert re.search(r"Cy wins the match with \d+", text)
    assert 'id="games"' not in page  # rounds scored in points: the chart says it all


def test_the_running_totals_end_on_the_match_totals_after_a_drop_from_100_to_50(database, club):
    """CAB-43: a total of exactly 100 drops to 50; the chart's running totals follow it."""
    from referee import stats

    match = play(database, example("cabo-scoring"), club.id)
    result, _ = stats.match_result(database, match)
    assert any(r.get("reset") for r in result["rounds"])  # the example has such a drop
    players, series = stats.running_totals(database, match)
    assert {name: values[-1] for name, values in zip(players, series)} == result["totals"]
    for name, values in zip(players, series):
        for r, after in zip(result["rounds"], values):
            if name in r["reset"]:
                assert after == 50


def test_a_shithead_table_of_standings_charts_the_times_shithead(client, database, club):
    """A game of Shithead has a loser, not a winner: its chart counts who was the Shithead, never a flat
    line of wins at nought."""
    _shithead_match(database, club, "Noa")
    page = html.unescape(client.get(f"/nights/g/{club.id}").get_data(as_text=True))
    assert "Times Shithead on the night of " in page and "Matches won on the night of" not in page
    bars = dict(re.findall(r"<rect[^>]*><title>([^<]*): (\d+)</title></rect>", page))
    assert bars == {"Noa": "1", "Ana": "0", "Ben": "0"}
