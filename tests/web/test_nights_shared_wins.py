"""A shared win is a win on every nights page (RTC-55: a Rat-a-Tat Cat match that ends level at the top is a
shared win). The group's standings count it under "Won" and say it was shared, as the chart under them, a
player's page and head to head count it; the standings rank by matches won, then by wins alone."""
from __future__ import annotations

import html
import re

from referee import people, stats
from tests.web.nights_helpers import TIED_ROUND, example, play, renamed

TABLE = '{"rounds_n":1}'  # TIED_ROUND's house rules (and flag-at-reveal's): one table of standings


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment))).strip()


def _standings(page: str) -> dict[str, dict[str, str]]:
    """The first table of standings on a page: {player: {heading: cell}}, as the page shows them."""
    table = re.search(r'<table class="standings".*?</table>', page, re.S)[0]
    headings = [_text(h) for h in re.findall(r'<th scope="col"[^>]*>(.*?)</th>', table, re.S)]
    rows = {}
    for row in re.findall(r"<tr[^>]*>(?:<td class=\"rank\">|<th scope=\"row\").*?</tr>", table, re.S):
        cells = [_text(c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        rows[cells[headings.index("Player")]] = dict(zip(headings, cells))  # (a person's own page: no rank)
    return rows


def _bars(page: str) -> dict[str, str]:
    """The bars of the first chart of matches won: {player: wins}."""
    card = page.split('<section class="card standings-card">')[1]
    return {html.unescape(k): v for k, v in re.findall(r"<rect[^>]*><title>([^<]*): (\d+)</title></rect>", card)}


def test_a_shared_win_counts_under_won_in_the_standings_as_in_the_chart_beside_them(client, database):
    club = people.find_or_create_group(database, "Club")
    play(database, TIED_ROUND, club.id)  # Ana and Ben level on 10 at the end: a shared win
    page = client.get(f"/nights/g/{club.id}").get_data(as_text=True)
    rows = _standings(page)
    assert "Tied" not in rows["Ana"]  # no column that counts the same win again under another name
    assert rows["Ana"]["Won"] == rows["Ben"]["Won"] == "1 (1 shared)"
    assert _bars(page) == {"Ana": "1", "Ben": "1"}  # "Across the nights": the same one match won
    assert "“Won” counts shared wins too" in html.unescape(page)
    # both are first: both rows stand out, not only the one listed first
    firsts = re.findall(r'<tr class="first"><td class="rank">1</td><th scope="row" class="who"><a [^>]*>(\w+)<', page)
    assert sorted(firsts) == ["Ana", "Ben"]


def test_every_nights_page_counts_a_shared_win_as_one_match_won(client, database):
    club = people.find_or_create_group(database, "Club")
    play(database, TIED_ROUND, club.id)
    ana, ben = people.find_profile(database, "Ana"), people.find_profile(database, "Ben")
    group = client.get(f"/nights/g/{club.id}").get_data(as_text=True)
    player = client.get(f"/nights/p/{ana.id}").get_data(as_text=True)
    h2h = client.get("/nights/h2h", query_string={"a": ana.id, "b": ben.id}).get_data(as_text=True)
    assert _standings(group)["Ana"]["Won"].split()[0] == "1"
    assert _standings(player)["Ana"]["Won"] == "1 (1 shared)"  # the player's own standings
    assert "won (shared)" in player  # the player's history
    form = re.search(r'<table class="chart-data">.*?</table>', player, re.S)[0]
    assert re.findall(r"<tr><td>[\d-]+</td><td>(\d+)</td><td>(\d+)</td></tr>", form) == [("1", "1")]
    cells = [_text(c) for c in re.findall(r"<td>(.*?)</td>", re.search(r"<tbody>.*?</tbody>", h2h, re.S)[0], re.S)]
    assert cells[-2:] == ["1 (1 shared)", "1 (1 shared)"]  # "Ana won", "Ben won"


def test_standings_rank_by_matches_won_then_by_wins_alone(database):
    club = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), club.id)  # Ana wins alone over Ben
    play(database, renamed(TIED_ROUND, {"Ana": "Cy", "Ben": "Dee"}), club.id)  # Cy and Dee share a win
    for _ in range(2):  # Eli and Fay share two
        play(database, renamed(TIED_ROUND, {"Ana": "Eli", "Ben": "Fay"}), club.id)
    (table,) = [t for t in stats.standings(database, stats.Scope(club.id)) if t.rules_key == TABLE]
    rows = {r["name"]: (r["rank"], r["won"], r["shared"]) for r in table.rows}
    assert rows == {"Eli": (1, 2, 2), "Fay": (1, 2, 2),  # most matches won, shared or not
                    "Ana": (3, 1, 0),  # then one won alone ahead of one shared
                    "Cy": (4, 1, 1), "Dee": (4, 1, 1), "Ben": (6, 0, 0)}
    assert [r["name"] for r in table.rows] == ["Eli", "Fay", "Ana", "Cy", "Dee", "Ben"]
    assert [k for k, _ in table.columns][:3] == ["matches", "won", "avg_place"]


def test_head_to_head_counts_a_shared_win_as_won_and_says_it_was_shared(database):
    club = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), club.id)  # Ana alone
    play(database, TIED_ROUND, club.id)  # shared
    ana, ben = people.find_profile(database, "Ana").id, people.find_profile(database, "Ben").id
    (table,) = stats.head_to_head(database, ana, ben)["tables"]
    assert (table["a_won"], table["a_shared"], table["b_won"], table["b_shared"]) == (2, 1, 1, 1)
