"""The shared phone at the reveal, read as a screen reader reads it (Chromium's accessibility tree): every
player's reveal form is on one screen, and each slot's group (Cabo: each place's list) is named with its
player, so "Slot 1" is never heard four times over without saying whose."""
from __future__ import annotations

import pytest

from .test_accessibility import replayed

pytestmark = pytest.mark.browser


def _shared(phone, live_server, match_id: str):
    page = phone()
    page.set_default_timeout(10_000)
    page.goto(f"{live_server.url}/m/{match_id}")
    page.get_by_role("button", name="One phone for everyone").click()
    page.wait_for_selector(".reveal-block")
    return page


def test_each_slot_group_says_whose_it_is(live_server, phone, database):
    match = replayed(database, "plain-round.json", 7)  # the reveal, Ana's and Ben's forms
    page = _shared(phone, live_server, match.id)
    for name in ("Ana", "Ben"):
        block = page.locator(f"#reveal-{name}")
        for slot in range(1, 5):
            group = block.get_by_role("group", name=f"{name}'s slot {slot}", exact=True)
            assert group.count() == 1, (name, slot)
            assert group.get_by_role("radio").count() > 0
    for slot in range(1, 5):
        assert page.get_by_role("group", name=f"Slot {slot}", exact=True).count() == 0


def test_each_cabo_place_says_whose_it_is(live_server, phone, database):
    match = replayed(database, "cabo-scoring.json", 6)  # the reveal, Ana's, Ben's and Cy's forms
    page = _shared(phone, live_server, match.id)
    for name in ("Ana", "Ben", "Cy"):
        block = page.locator(f"#reveal-{name}")
        for place in range(1, 5):
            assert block.get_by_role("combobox", name=f"{name}'s place {place}").count() == 1, (name, place)
