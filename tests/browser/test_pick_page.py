"""A card picker opened at its own address in Chromium ("open in new tab", or a tap on a picker link before the
scripts of a slow server loaded): once htmx has loaded on that page, tapping a card makes the entry and the
phone lands on the table (or sees the ruling), with no htmx:targetError."""
from __future__ import annotations

import re

import pytest

from referee import store

pytestmark = pytest.mark.browser

TIMEOUT = 10_000


def _seated(phone, live_server, match_id: str, name: str):
    page = phone()
    page.set_default_timeout(TIMEOUT)
    page.goto(f"{live_server.url}/m/{match_id}")
    page.locator("#seat-picker").get_by_role("button", name=name, exact=True).click()
    page.wait_for_selector(f"text=You enter for {name}")
    return page


def _open_alone(page, live_server, match_id: str, query: str) -> None:
    """The picker's own address, loaded as a whole page; then wait until htmx has set the page up."""
    page.goto(f"{live_server.url}/m/{match_id}/pick?{query}")
    page.wait_for_function("window.htmx !== undefined && document.readyState === 'complete'")
    page.wait_for_selector("#pick")


def _no_target_errors(page) -> None:
    assert not [m for m in page.console_messages if "targetError" in m], page.console_messages


def test_a_card_tapped_in_a_picker_opened_alone_is_entered_and_the_phone_is_at_the_table(live_server, phone,
                                                                                        database):
    match = store.create_match(database, "ratatat", ["Hana", "Ben"], {"rounds_n": 1})
    page = _seated(phone, live_server, match.id, "Hana")
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "power", "card": "PEEK"}):
        version = store.get_match(database, match.id).version
        answer = page.request.post(f"{live_server.url}/m/{match.id}/entry", form={"version": str(version), **fields},
                                   headers={"Origin": live_server.url, "HX-Request": "true"})
        assert answer.status == 200, fields
    _open_alone(page, live_server, match.id, "move=peek&slot=3&field=seen&seat=Hana")
    page.locator("#pick").get_by_role("button", name="7", exact=True).click()
    page.wait_for_selector("#pick", state="detached")
    page.wait_for_selector("#screen #screen-body #actions")  # the table's screen, its actions
    entries = store.entries(database, match.id)
    assert entries[-1]["entry"]["move"] == "peek" and entries[-1]["entry"]["seen"] == "7"
    assert page.evaluate("location.pathname") == f"/m/{match.id}"  # a reload opens the table
    assert "You enter for" in page.locator("#screen").inner_text()
    _no_target_errors(page)


def test_a_refused_tap_in_a_picker_opened_alone_shows_the_ruling_on_the_table(live_server, phone, database):
    # the discard is open (the card drawn is unknown), but a drawn power must be used here (RTC-V6)
    match = store.create_match(database, "ratatat", ["Hana", "Ben"], {"rounds_n": 1, "power_use_optional": False})
    page = _seated(phone, live_server, match.id, "Hana")
    for version, fields in enumerate(({"move": "turn_up", "card": "5"}, {"move": "draw"})):
        answer = page.request.post(f"{live_server.url}/m/{match.id}/entry", form={"version": str(version), **fields},
                                   headers={"Origin": live_server.url, "HX-Request": "true"})
        assert answer.status == 200, fields
    _open_alone(page, live_server, match.id, "move=discard")
    page.locator("#pick").get_by_role("button", name="Peek", exact=True).click()
    ruling = page.wait_for_selector("#screen #ruling")
    assert re.search(r"Refused \(RTC-30\): Under this table's rules \(RTC-V6\) a drawn power card must be used",
                     ruling.inner_text())
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["turn_up", "draw"]
    _no_target_errors(page)


def test_a_picker_opened_alone_for_an_entry_no_longer_open_says_so_and_leads_back(live_server, phone, database):
    """Ben's discard while it is Hana's turn (a link kept from earlier): no card to tap, the reason, and the
    link back to the table, which opens the table."""
    match = store.create_match(database, "ratatat", ["Hana", "Ben"], {"rounds_n": 1})
    page = _seated(phone, live_server, match.id, "Ben")
    answer = page.request.post(f"{live_server.url}/m/{match.id}/entry", form={"version": "0", "move": "turn_up",
                                                                             "card": "5"},
                               headers={"Origin": live_server.url, "HX-Request": "true"})
    assert answer.status == 200
    _open_alone(page, live_server, match.id, "move=discard")
    pick = page.locator("#pick")
    assert "That choice is no longer open" in pick.inner_text()
    assert pick.locator("button").count() == 0  # no card to tap
    pick.get_by_role("link", name="Back to the table").click()
    page.wait_for_selector("#pick", state="detached")
    page.wait_for_selector("#screen #screen-body #actions")
    assert "You enter for Ben" in page.locator("#screen").inner_text()
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["turn_up"]
    _no_target_errors(page)
