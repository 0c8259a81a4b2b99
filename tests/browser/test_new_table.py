"""Real Chromium: the new-table form's rule sets and its Customise switches; the rules page."""

from __future__ import annotations

import pytest

from referee import store

pytestmark = pytest.mark.browser


@pytest.fixture
def app_config(app_config):
    return {**app_config, "GAMES": {"ratatat": "Rat-a-Tat Cat"}}


def test_a_rule_set_fills_the_switches_and_only_the_switches_that_apply_show(live_server, phone):
    page = phone()
    page.goto(live_server.url + "/new/ratatat")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Bo")
    assert not page.locator("#rule-draw2_mode").is_visible()  # folded under Customise
    page.get_by_text("As told on Hebrew Wikipedia").click()
    page.get_by_text("Customise the house rules").click()
    assert page.locator("#rule-draw2_mode").input_value() == "seed_two_turns"
    assert page.locator("#rule-seed_reveal_then_choose").input_value() == "true"
    assert page.locator("#rule-rounds_n").is_visible()
    assert not page.locator("#rule-minutes").is_visible()
    assert not page.locator("#rule-elimination_threshold").is_visible()
    page.locator("#rule-game_end_mode").select_option("timed")
    assert page.locator("#rule-minutes").is_visible() and not page.locator("#rule-rounds_n").is_visible()
    page.locator("#rule-minutes").fill("45")
    page.locator("#rule-tie_policy").select_option(label="nobody wins the round")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(live_server.url + "/m/*")
    match_id = page.url.rsplit("/", 1)[1]
    from referee.db import connect

    db = connect(live_server.app.config["DATABASE"])
    try:
        match = store.get_match(db, match_id)
    finally:
        db.close()
    assert match.rules == {"draw2_mode": "seed_two_turns", "seed_reveal_then_choose": True,
                           "game_end_mode": "timed", "minutes": 45, "tie_policy": "no_winner"}
    assert [m for m in page.console_messages if "Content Security Policy" in m] == []


def test_a_rule_link_opens_the_rule_highlighted(live_server, phone):
    page = phone()
    page.goto(live_server.url + "/rules/ratatat#RTC-34")
    target = page.locator("#RTC-34")
    assert "Draw 2" in target.inner_text()
    assert target.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"  # :target marks it
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
