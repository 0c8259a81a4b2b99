"""What a screen reader is told after a redraw (static/announce.js), in Chromium against the real server:
a dispute raised at the reveal is said on every phone, the one whose entry raised it and the others."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from referee import store, tables

from .conftest import wait_for_subscribers
from .test_languages import reveal, seated

pytestmark = pytest.mark.browser

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "flag-at-reveal.json"


def test_GEN_4_a_dispute_raised_at_the_reveal_is_said_on_every_phone(live_server, phone, database):
    """Ana reveals, and a card of hers shows other than the table knew it (GEN-4): Ana's phone, which sent
    the reveal, and Ben's, updated live, both say that a dispute is open and what it is about (the disputes
    were never said: only the entry and the status were)."""
    data = json.loads(EXAMPLE.read_text())
    match = store.create_match(database, data["game"], data["players"], data.get("rules") or {})
    for version, entry in enumerate(data["entries"][:6]):  # to Ana's reveal
        tables.append(database, match.id, version, entry, None)
    ana = seated(phone, live_server, match, "Ana", "en-US")
    ben = seated(phone, live_server, match, "Ben", "en-US")
    wait_for_subscribers(match.id, 2)
    assert reveal(ana, "Ana", data["entries"][6]["cards"], "Reveal Ana") == 200
    for p in (ana, ben):
        expect(p.page.locator("#announcer")).to_contain_text("1 dispute to decide")
        said = p.page.locator("#announcer").text_content()
        assert "Flagged (GEN-4)" in said and "was known to be" in said, said



def test_the_status_and_the_last_entry_are_said_by_the_announcer_alone(live_server, phone, database):
    """After another phone's entry, the turn and the entry are said once, by the one region that is never
    redrawn: no live region inside the redrawn screen holds them too (a screen reader said the last entry
    twice, once from the announcer and once from the status section's own live region)."""
    data = json.loads(EXAMPLE.read_text())
    match = store.create_match(database, data["game"], data["players"], data.get("rules") or {})
    tables.append(database, match.id, 0, data["entries"][0], None)
    ana = seated(phone, live_server, match, "Ana", "en-US")
    ben = seated(phone, live_server, match, "Ben", "en-US")
    wait_for_subscribers(match.id, 2)
    ana.page.get_by_role("button", name="Take the 2 from the discard pile").click()
    expect(ben.page.locator("#announcer")).to_contain_text("Last entry")
    live = ben.page.evaluate("""() => [...document.querySelectorAll('#screen [aria-live]')]
        .filter(el => el.querySelector('#status, #last-entry')).map(el => el.className)""")
    assert live == []
