"""The correction page keeps what was filled in (the card chosen, the reason typed) across a reload of the
page, and forgets it once the correction is recorded (static/keep_form.js; Chromium, the real server)."""
from __future__ import annotations

import pytest

from referee import store

from .test_cabo_round import Phone

pytestmark = pytest.mark.browser


def first_turn(ana: Phone) -> None:
    """A Rat-a-Tat Cat round's first entries, tapped on Ana's phone: a 5 turned up, then her turn (entry 2:
    she draws, and puts the 8 drawn in her slot 2)."""
    ana.link("Turn up the top card")
    assert ana.button("5", "#pick") == 200
    assert ana.button("Draw from the pile") == 200
    ana.link("Slot 2")
    assert ana.button("8", "#pick") == 200


def test_a_correction_half_filled_in_survives_a_reload_and_is_forgotten_once_recorded(live_server, phone, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    ana = Phone(phone(), "Ana")
    ana.page.goto(f"{live_server.url}/m/{match.id}")
    ana.page.locator("#seat-picker").get_by_role("button", name="Ana", exact=True).click()
    ana.page.locator("#seat-picker").wait_for(state="detached")
    first_turn(ana)
    page = ana.page
    page.goto(f"{live_server.url}/m/{match.id}/correct/2")
    nine = page.locator('#correct-form input[name="c_out"][value="9"]')
    nine.check(force=True)
    page.locator('#correct-form input[name="reason"]').fill("it was a nine")
    page.reload()
    page.wait_for_load_state()
    assert page.locator('#correct-form input[name="c_out"][value="9"]').is_checked()
    assert page.locator('#correct-form input[name="reason"]').input_value() == "it was a nine"
    page.locator("#correct-form button[type=submit]").click()
    page.wait_for_url(f"**/m/{match.id}")
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["out"] == "9"
    page.goto(f"{live_server.url}/m/{match.id}/correct/2")  # the correction's own values now, nothing kept
    assert page.locator('#correct-form input[name="reason"]').input_value() == ""
