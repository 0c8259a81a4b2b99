"""A family's evening ends before its match: on a phone, "End the match now" from the table's menu, the page
that asks says what will count, one tap ends it after one round of Rat-a-Tat Cat, and every phone shows the
result of that round (the other phone by its live update)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee import store, tables

from .conftest import wait_for_subscribers
from .test_languages import seated

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "three-rounds.json"
ROUND_ONE = 11  # the example's first round, scored at its last reveal: Ana 7, Cy 12... (lowest wins)


def test_ending_a_rat_a_tat_cat_match_after_one_round_on_a_phone(live_server, phone, database):
    transcript = json.loads(EXAMPLE.read_text())
    match = store.create_match(database, "ratatat", transcript["players"], transcript.get("rules", {}))
    version = 0
    for entry in transcript["entries"][:ROUND_ONE + 2]:  # the first round, and the second begun
        version = tables.append(database, match.id, version, entry, None).version
    log = store.state_at(database, store.get_match(database, match.id), tables.replay)
    totals = log.game.result(log.state)["totals"]
    winner = min(totals, key=totals.get)

    ana = seated(phone, live_server, match, "Ana", "en-US").page
    ben = seated(phone, live_server, match, "Ben", "en-US").page
    wait_for_subscribers(match.id, 2)

    # the control is in the table's menu, not among the entry buttons
    link = ana.locator("nav.links").get_by_role("link", name="End the match now")
    assert ana.locator("#actions").get_by_text("End the match now").count() == 0
    link.click()
    ana.locator("#end-match").wait_for()
    assert "The 1 round completed counts" in ana.locator("#end-counts").inner_text()
    assert "The round in play is not scored." in ana.locator("#end-match").inner_text()
    assert ana.locator("#end-standings tr").count() == 3
    assert ana.evaluate("document.documentElement.scrollWidth") <= 390  # nothing scrolls sideways
    # the Wi-Fi drops as Ana confirms: the page says nothing was saved, and the button is there to tap again
    ana.route("**/end", lambda route: route.abort("internetdisconnected") if route.request.method == "POST"
              else route.continue_())
    ana.locator("#end-match").get_by_role("button", name="End the match now").click()
    ana.locator("#flash").get_by_text("Could not reach the referee: nothing was saved.").wait_for()
    assert store.get_match(database, match.id).version == version
    ana.unroute("**/end")
    ana.locator("#end-match").get_by_role("button", name="End the match now").click()

    ana.locator("#status").get_by_text("Match ended early").wait_for()
    said = ana.locator("#ended-early").inner_text()
    assert said == f"Ana ended the match early by agreement after 1 round. {winner}, first in the standings, wins."
    # the undo that would open the match again asks first
    ana.locator("#actions summary").get_by_text("Undo: Ana ended the match early by agreement after 1 round.").click()
    ana.locator("#actions").get_by_text("The match is over. Undoing this entry opens it again").wait_for()
    assert ana.locator("#actions").get_by_role("button", name="Yes, undo and open the match again").is_visible()
    ana.locator("#actions").get_by_role("button", name="Keep it over").click()
    assert not ana.locator("#actions").get_by_role("button", name="Yes, undo and open the match again").is_visible()
    assert ana.locator("nav.links").get_by_text("End the match now").count() == 0
    for name, total in totals.items():  # the match's standings are the first round's
        row = ana.locator("#standings tr", has=ana.locator(f"bdi:text-is('{name}')"))
        assert row.locator("td.num").inner_text() == str(total)

    # the other phone learns it by its live update
    ben.locator("#status").get_by_text("Match ended early").wait_for()
    assert ben.locator("#ended-early").inner_text() == said
    assert ana.evaluate("document.documentElement.scrollWidth") <= 390
    offline = ("ERR_INTERNET_DISCONNECTED", "htmx:sendError", "htmx:afterRequest")  # htmx logs the dropped post
    assert not [m for m in ana.console_messages if m.startswith("error") and not any(w in m for w in offline)]
