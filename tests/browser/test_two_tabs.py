"""Two tabs of one phone on the same table (Chromium, the real server): an entry made in one tab reaches
the other live, as another phone's would; the tab that made it is not redrawn by its own doorbell."""
from __future__ import annotations

import pytest

from referee import store

from .conftest import wait_for_subscribers
from .test_scan_live import seated

pytestmark = pytest.mark.browser


def test_an_entry_made_in_one_tab_reaches_the_phones_other_tab(live_server, phone, database):
    match = store.create_match(database, "spite_malice", ["Ana", "Ben"], {"payoff_size": 5})
    first = seated(phone, live_server, match, "Ana")
    second = first.context.new_page()
    second.goto(f"{live_server.url}/m/{match.id}")
    second.wait_for_load_state("load")
    wait_for_subscribers(match.id, 2)
    first.get_by_text("Enter your pay-off top").click()
    with first.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
        first.locator("#pick button", has_text="8").first.click()
    assert answer.value.status == 200
    first.locator("#screen [data-version='1']").wait_for()
    second.locator("#screen [data-version='1']").wait_for()  # before: it stayed at the pay-off top, version 0
    assert "Enter your pay-off top" not in second.locator("#actions").inner_text()
