"""A game night on three phones (Chromium at 390x844 against the real server): two short Rat-a-Tat Cat
matches in a new group on one night, then the group's standings and chart, found from the home page.

Set REFEREE_SHOTS to a folder to keep phone-sized screenshots of the standings and the chart."""
from __future__ import annotations

import os
import re

import pytest

from referee import store

from .conftest import wait_for_subscribers
from .test_accessibility import serious
from .test_first_evening import Phone, join

pytestmark = pytest.mark.browser


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 120.0}


def new_match(ana: Phone, live_server, database, group: str | None) -> store.Match:
    ana.page.goto(live_server.url + "/")
    ana.page.get_by_role("link", name="New Rat-a-Tat Cat table").click()
    for i, name in enumerate(["Ana", "Ben", "Cy"], start=1):
        ana.page.get_by_label(f"Player {i}", exact=True).fill(name)
    if group:
        ana.page.locator("input[name=new_group]").fill(group)
    ana.page.locator("summary", has_text="Customise the house rules").click()
    ana.page.locator("#rule-rounds_n").fill("1")
    ana.page.get_by_role("button", name="Create the table").click()
    ana.page.wait_for_url(re.compile(r"/m/[a-z0-9]{8}$"))
    ana.page.locator("#seat-picker").get_by_role("button", name="Ana", exact=True).click()
    ana.page.locator("#seat-picker").wait_for(state="detached")
    return store.get_match(database, ana.page.url.rsplit("/", 1)[1])


def play_round(ana: Phone, ben: Phone, cy: Phone, reveals: dict[str, list[str]]) -> None:
    """Ben turns up a 5; Ana draws, discards a 9 and calls; Ben and Cy take their last turns; reveals."""
    ben.open("Turn up the top card")
    assert ben.choose("5") == 200
    ana.status("Your turn, Ana")
    assert ana.press("Draw from the pile") == 200
    ana.open("Discard it face up")
    assert ana.choose("9") == 200
    assert ana.call("Ana") == 200
    for p, card in ((ben, "4"), (cy, "2")):
        p.status(f"Your turn, {p.name}")
        assert p.press("Draw from the pile") == 200
        p.open("Discard it face up")
        assert p.choose(card) == 200
    for p in (ana, ben, cy):
        p.status("Round 1: reveal")
    for p in (ana, ben, cy):
        assert p.reveal(p.name, reveals[p.name]) == 200
    for p in (ana, ben, cy):
        p.page.locator("#last-round").wait_for()


def test_two_matches_on_one_night_in_the_standings_and_the_chart(live_server, phone, database):
    ana = Phone(phone(), "Ana")
    first = new_match(ana, live_server, database, "Friday club")
    url = f"{live_server.url}/m/{first.id}"
    ben, cy = join(phone, url, "Ben"), join(phone, url, "Cy")
    wait_for_subscribers(first.id, 3)
    play_round(ana, ben, cy, {"Ana": ["0", "1", "2", "3"], "Ben": ["4", "4", "5", "5"], "Cy": ["6", "6", "7", "7"]})

    second = new_match(ana, live_server, database, None)  # the form offers the group played in last
    url = f"{live_server.url}/m/{second.id}"
    ben, cy = join(phone, url, "Ben"), join(phone, url, "Cy")
    wait_for_subscribers(second.id, 3)
    play_round(ana, ben, cy, {"Ana": ["4", "4", "5", "5"], "Ben": ["0", "1", "2", "3"], "Cy": ["6", "6", "7", "7"]})
    night = database.execute("SELECT night_id FROM matches WHERE id IN (?, ?)", (first.id, second.id)).fetchall()
    assert night[0] == night[1] and night[0][0] is not None

    page = cy.page
    page.locator("#night-standings").click()  # the finished table's screen leads to its night's standings
    page.wait_for_url(re.compile(r"/nights/g/\d+\?night=\d+$"))
    assert "Standings of the night of" in page.locator("main").inner_text()
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Standings, charts and every player's history").click()
    page.get_by_role("link", name="Friday club").click()
    table = page.locator("table.standings").first
    table.wait_for()
    assert "2 matches" in page.locator(".standings-card").first.inner_text()
    rows = {r.locator("th").inner_text(): r.locator("td").all_inner_texts() for r in table.locator("tbody tr").all()}
    assert set(rows) == {"Ana", "Ben", "Cy"}
    assert rows["Ana"][1:4] == ["2", "1", "1.5"] and rows["Ben"][1:4] == ["2", "1", "1.5"]  # matches, won, avg place
    assert rows["Cy"][1:3] == ["2", "0"]
    chart = page.locator("svg#wins-by-night")
    assert chart.locator("title").first.text_content().startswith("Matches won on the night of")
    bars = [t.text_content() for t in chart.locator("rect > title").all()]
    assert bars == ["Ana: 1", "Ben: 1", "Cy: 0"]  # one night: a bar for each player
    page.locator("summary", has_text="The figures of").click()
    assert page.locator("table.chart-data td").first.is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the phone
    shots = os.environ.get("REFEREE_SHOTS")
    if shots:
        os.makedirs(shots, exist_ok=True)
        page.screenshot(path=os.path.join(shots, "standings-phone.png"), full_page=True)
        chart.screenshot(path=os.path.join(shots, "chart-phone.png"))
    page.get_by_role("link", name="Ana").first.click()
    page.locator("svg#form").wait_for()
    assert "won" in page.locator("table.history").inner_text()
    if shots:
        page.screenshot(path=os.path.join(shots, "player-phone.png"), full_page=True)


FITS = """() => {
  const width = window.innerWidth, out = [];
  for (const card of document.querySelectorAll('main .card')) {
    const r = card.getBoundingClientRect();
    if (r.left < 0 || r.right > width || card.scrollWidth > card.clientWidth) out.push(card.querySelector('h1, h2')?.textContent || card.className);
  }
  return {page: document.documentElement.scrollWidth, width, overflowing: out};
}"""

LAST_COLUMN_REACHABLE = """(wrapper) => {
  const box = wrapper.getBoundingClientRect();
  const cells = wrapper.querySelectorAll('thead th');
  const last = cells[cells.length - 1];
  last.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = last.getBoundingClientRect(), name = wrapper.querySelector('tbody th').getBoundingClientRect();
  return {scrolls: wrapper.scrollWidth > wrapper.clientWidth, inside: r.left >= box.left - 1 && r.right <= box.right + 1,
          nameShown: name.left >= box.left - 1 && name.right <= box.right + 1, text: last.textContent};
}"""


@pytest.mark.parametrize("locale", ["en-US", "he-IL"])
def test_wide_standings_scroll_inside_their_card_on_a_phone(live_server, phone, database, locale):
    """Rat-a-Tat Cat's standings have a dozen columns: on a 390 px phone every card stays within the
    screen, the table slides sideways inside its card to its last column, the names staying in view."""
    from referee import people
    from tests.web.nights_helpers import TIED_ROUND, example, play

    club = people.find_or_create_group(database, "Friday club with a rather long name")
    for transcript in (example("flag-at-reveal"), TIED_ROUND, example("three-rounds")):
        play(database, transcript, club.id)
    ana, ben = people.find_profile(database, "Ana"), people.find_profile(database, "Ben")
    page = phone(locale)
    shots = os.environ.get("REFEREE_SHOTS")
    for name, path in (("standings", f"/nights/g/{club.id}"), ("player", f"/nights/p/{ana.id}"),
                       ("h2h", f"/nights/h2h?a={ana.id}&b={ben.id}")):
        page.goto(live_server.url + path)
        fits = page.evaluate(FITS)
        assert fits["overflowing"] == [] and fits["page"] <= fits["width"] == 390, (name, fits)
        assert serious(page) == [], name  # axe: the scrolling regions are named and reachable by keyboard
        if shots:
            os.makedirs(shots, exist_ok=True)
            page.screenshot(path=os.path.join(shots, f"{name}-wide-{locale}.png"), full_page=True)
        if name == "h2h":
            continue
        wrapper = page.locator(".standings-card .scroll").first
        assert wrapper.get_attribute("tabindex") == "0"  # a keyboard can scroll it too
        seen = wrapper.evaluate(LAST_COLUMN_REACHABLE)
        assert seen["scrolls"] and seen["inside"] and seen["nameShown"], (name, seen)
        assert fits == page.evaluate(FITS)  # scrolling the table moved nothing else
        if shots and name == "standings":
            page.locator(".standings-card").first.screenshot(path=os.path.join(shots, f"standings-scrolled-{locale}.png"))


def test_the_counting_page_goes_on_by_itself_to_the_standings(live_server, phone, database):
    """An old database's first look: the page says how far the counting has got and asks again by
    itself, a batch at a time, until the standings show."""
    from referee import people
    from tests.web.nights_helpers import TIED_ROUND, example, play

    club = people.find_or_create_group(database, "Club")
    for transcript in (example("flag-at-reveal"), TIED_ROUND, example("three-rounds"), TIED_ROUND, TIED_ROUND):
        play(database, transcript, club.id)
    for table in ("standings_totals", "seat_summaries", "match_summaries"):  # as a schema upgrade leaves it
        database.execute(f"DELETE FROM {table}")
    live_server.app.config["STANDINGS_BATCH"] = 2
    page = phone()
    first = page.goto(f"{live_server.url}/nights/g/{club.id}")
    assert "Standings are being counted (2 of 5 matches)." in first.text()
    shots = os.environ.get("REFEREE_SHOTS")
    if shots:
        os.makedirs(shots, exist_ok=True)
        page.screenshot(path=os.path.join(shots, "standings-counting.png"))
    page.locator("table.standings").first.wait_for()
    assert page.locator(".standings-card").count() == 2 and "Club" in page.title()
    assert database.execute("SELECT count(*) FROM match_summaries").fetchone()[0] == 5
