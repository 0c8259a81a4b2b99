"""What a phone had started to enter, taken away by another phone's entry (a snap closed by the next
player's draw), is not dropped without a word: the phone says so with that entry's words, and the keyboard
that was in the picker lands on them (Chromium at 390x844, the real server)."""
from __future__ import annotations

import pytest

from referee import store

from .conftest import wait_for_subscribers
from .test_cabo_round import CAMBIO, NAMES, seated

pytestmark = pytest.mark.browser


def test_a_snap_picker_closed_by_the_next_turn_is_said_so(live_server, phone, database):
    match = store.create_match(database, "cabo", list(NAMES), CAMBIO)
    ana, ben, cy = (seated(phone, live_server, match, name) for name in NAMES)
    wait_for_subscribers(match.id, 3, timeout=20.0)
    ana.link("Turn up the top card")
    assert ana.card("5♥") == 200
    assert ana.button("Draw from the pile") == 200
    ana.link("Place 1")
    assert ana.card("9♠") == 200
    cy.page.locator("#snap").get_by_role("link", name="Snap!").wait_for()
    cy.link("Snap!", "#snap")
    cy.link("Place 4", "#pick")
    assert cy.page.evaluate("document.getElementById('pick').contains(document.activeElement)")
    ben.page.locator("#screen [data-version='3']").wait_for()
    assert ben.button("Draw from the pile") == 200  # the next player's move: no snap any more (CAB-6)
    note = cy.page.locator("#flash .pick-gone")
    note.wait_for()
    words = note.inner_text()
    assert "can no longer be entered" in words and "Last entry: Ben draws" in words, words
    assert cy.page.locator("#pick").count() == 0
    assert cy.page.evaluate("document.activeElement.classList.contains('pick-gone')")
    # Only the phone whose picker went is told.
    assert ana.page.locator("#pick").count() == 0 and ben.page.locator("#flash .pick-gone").count() == 0
