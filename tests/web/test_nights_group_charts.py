"""The group page's standings and charts agree: Cabo and Cambio are rule sets of one game, so each table of
standings is named by its game and its rule set, and each has its own chart of the same matches — a player
who won the Cabo match of the night shows that win in the Cabo chart."""
from __future__ import annotations

import html
import re

from referee import games, nights, people, store, tables
from tests.web.nights_helpers import example, play, renamed

CAMBIO = dict(next(p for p in games.get_game("cabo").PRESETS if p.key == "cambio_common").rules)
# each round: the caller, then every player's cards (Ana's the lowest: she wins every round)
ROUND = {"Ana": ["AS", "2S", "3S", "4S"], "Ben": ["9H", "9D", "8C", "8D"], "Cy": ["10H", "10D", "QC", "JD"]}
SPARE = ["5C", "6C", "7C", "5D", "6D", "7D"]  # drawn and discarded at once by the others


def _cambio_match(database, group_id) -> store.Match:
    """A whole Cambio match (its four rounds) played through the table, as the phones enter it: each round
    the first player to act calls, the others draw and discard, then everyone reveals."""
    game = games.get_game("cabo")
    match = store.create_match(database, "cabo", list(ROUND), CAMBIO)
    nights.link_match(database, match, group_id)
    version = 0

    def enter(entry):
        nonlocal version
        version = tables.append(database, match.id, version, entry, None).version

    for _ in range(CAMBIO.get("rounds_n", 4)):
        enter({"move": "turn_up", "card": "KC"})
        spare = iter(SPARE)
        called = False
        while True:
            state = store.state_at(database, store.get_match(database, match.id), tables.replay, tables.feed).state
            seat = game.to_act(state)
            if seat is None:
                break
            name = state.players[seat]
            if not called:
                enter({"seat": name, "move": "call"})
                called = True
                continue
            if name == state.players[state.round.caller]:
                break
            card = next(spare)
            enter({"seat": name, "move": "draw", "card": card})
            enter({"seat": name, "move": "discard", "card": card})
        for name, cards in ROUND.items():
            enter({"seat": name, "move": "reveal", "cards": cards})
    match = store.get_match(database, match.id)
    result = game.result(store.state_at(database, match, tables.replay, tables.feed).state)
    assert result["over"] and result["winners"] == ["Ana"], result
    return match


def _charts(page: str) -> list[tuple[str, dict[str, str]]]:
    """Each standings card's heading, its chart's title and the chart's bars (player: wins)."""
    out = []
    for card in page.split('<section class="card standings-card">')[1:]:
        card = card.split("</section>", 1)[0]
        heading = html.unescape(re.search(r"<h2>(.*?)</h2>", card, re.S)[1].strip())
        bars = dict(re.findall(r"<rect[^>]*><title>([^<]*): (\d+)</title></rect>", card))
        title = re.search(r'<title id="[^"]+-title">(.*?)</title>', card, re.S)
        title = html.unescape(title[1]) if title else None  # no chart under this table
        out.append((heading, title, {html.unescape(k): v for k, v in bars.items()}))
    return out


def test_each_standings_table_is_named_by_its_rule_set_and_charted_with_its_own_matches(client, database):
    club = people.find_or_create_group(database, "Club")
    play(database, example("cabo-scoring"), club.id)  # Cabo's own rules: Cy wins
    _cambio_match(database, club.id)  # Cambio: Ana wins, twice
    _cambio_match(database, club.id)
    page = client.get(f"/nights/g/{club.id}").get_data(as_text=True)
    cards = _charts(page)
    assert [c[0] for c in cards] == ["Cabo / Cambio — Cambio (standard deck, common rules)",
                                     "Cabo / Cambio — Cabo, 2nd edition (Bezier Games)"]  # most matches first
    (cambio, cambio_title, cambio_bars), (cabo, cabo_title, cabo_bars) = cards
    assert cambio_title.startswith("Matches won on the night of ") and cambio_title.endswith(": " + cambio)
    assert cabo_title is not None and cabo_title.endswith(": " + cabo)
    assert cambio_bars == {"Ana": "2", "Ben": "0", "Cy": "0"}
    assert cabo_bars == {"Cy": "1", "Ana": "0", "Ben": "0"}  # Cy won the Cabo match: never a 0 here
    assert page.count('id="wins-by-night"') == 1 and 'id="wins-by-night-2"' in page  # one id each
    # the tables' own words (a screen reader's caption) say the same
    assert "Cabo / Cambio — Cabo, 2nd edition (Bezier Games) standings" in html.unescape(page)
    # and the filters name the rule sets as the tables do
    assert html.unescape(page).count("Cabo / Cambio — Cambio (standard deck, common rules) (2)") == 1


def test_a_nights_page_charts_that_night_and_its_players_only(client, database):
    """The standings of one night come with that night's wins (a bar for each player who played then), not
    every night's running wins with players who were not there."""
    from datetime import datetime, timezone

    club = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), club.id, datetime(2026, 11, 20, 21, 0, tzinfo=timezone.utc))
    play(database, renamed(example("flag-at-reveal"), {"Ana": "Cy"}), club.id,
         datetime(2026, 11, 27, 21, 0, tzinfo=timezone.utc))
    night = next(n for n in nights.group_nights(database, club.id) if n.day == "2026-11-20")
    whole = _charts(client.get(f"/nights/g/{club.id}").get_data(as_text=True))
    assert whole[0][1].startswith("Matches won, night by night")
    page = client.get(f"/nights/g/{club.id}?night={night.id}").get_data(as_text=True)
    assert "<h3>That night</h3>" in page and "Across the nights" not in page
    (_, title, bars), = _charts(page)
    assert title.startswith("Matches won on the night of ")
    assert set(bars) == {"Ana", "Ben"}  # Cy played on the 27th only
