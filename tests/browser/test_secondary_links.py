"""A link drawn as a secondary button looks like one (grey, not the green of the main action), and a
place chosen in a claim stands out from the places not chosen (Chromium at 390x844, the real server)."""
from __future__ import annotations

import pytest

from referee import store

from .conftest import wait_for_subscribers
from .test_cabo_round import seated

pytestmark = pytest.mark.browser


def background(locator) -> str:
    return locator.evaluate("el => getComputedStyle(el).backgroundColor")


def test_claim_places_chosen_and_not_chosen_look_different(live_server, phone, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben"], {})  # Cabo 2nd edition: claims allowed
    ana = seated(phone, live_server, match, "Ana")
    wait_for_subscribers(match.id, 1, timeout=20.0)
    ana.link("Turn up the top card")
    assert ana.button("5", "#pick") == 200
    assert ana.button("Draw from the pile") == 200
    main = ana.page.locator("#actions").get_by_role("link", name="Place 1", exact=True)
    claim = ana.page.locator("#actions").get_by_role("link", name="Claim a set of equal cards")
    assert background(claim) != background(main)  # a secondary action is not drawn as the main one
    ana.link("Claim a set of equal cards")
    ana.page.locator("#pick").get_by_role("link", name="Place 1").click()
    ana.page.locator("#pick a[aria-pressed='true']").wait_for()
    chosen = ana.page.locator("#pick a[aria-pressed='true']")
    other = ana.page.locator("#pick a[aria-pressed='false']").first
    assert background(chosen) != background(other)
    assert chosen.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
