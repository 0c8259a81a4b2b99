"""A link drawn as a button that opens a picker in place is pressed with Space, as a button is, and the
page does not scroll (static/buttons.js; Chromium, the real server)."""
from __future__ import annotations

import pytest

from referee import store

from .test_cabo_round import seated
from .test_keep_form import first_turn

pytestmark = pytest.mark.browser


def test_space_on_a_link_drawn_as_a_button_opens_its_picker_without_scrolling(live_server, phone, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    ana = seated(phone, live_server, match, "Ana")
    page = ana.page
    page.set_viewport_size({"width": 390, "height": 500})  # room to scroll
    link = page.locator("#actions").get_by_role("link", name="Turn up the top card")
    link.focus()
    before = page.evaluate("window.scrollY")
    page.keyboard.press("Space")
    page.locator("#pick").wait_for()
    assert page.evaluate("window.scrollY") == before


def test_not_yet_closes_the_call_without_entering_anything(live_server, phone, database):
    """A call tapped by mistake: beside "Yes, Ana calls" only the undo of her discard stood, which a player
    backing out would press. "Not yet" closes the question and gives the focus back to the call."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    ana = seated(phone, live_server, match, "Ana")
    first_turn(ana)
    page = ana.page
    call = page.locator("details.confirm summary")
    call.click()
    asked = page.locator("details.confirm")
    assert asked.evaluate("d => d.open")
    entries = len(store.entries(database, match.id))
    page.get_by_role("button", name="Not yet").click()
    assert not asked.evaluate("d => d.open")
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    assert len(store.entries(database, match.id)) == entries
