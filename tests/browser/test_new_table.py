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


def test_the_groups_players_are_tapped_into_the_player_fields(live_server, phone, database):
    """Tap a known player: the name goes to the first empty field; tap again: it comes off. Typing a
    name marks its button too, and the buttons follow the group chosen."""
    from referee import people
    from tests.web.nights_helpers import TIED_ROUND, play, renamed

    club = people.find_or_create_group(database, "Club")
    play(database, renamed(TIED_ROUND, {"Ana": "Ana", "Ben": "Ben"}), club.id)
    play(database, renamed(TIED_ROUND, {"Ana": "Cy", "Ben": "Dee"}), club.id)
    other = people.find_or_create_group(database, "Cousins")
    play(database, renamed(TIED_ROUND, {"Ana": "Eve", "Ben": "Flo"}), other.id)
    page = phone()
    page.goto(live_server.url + "/new/ratatat")
    page.locator("select[name=group]").select_option(label="Club")
    known = page.locator("#known-players")
    assert known.is_visible()
    assert known.locator("button.known:visible").all_inner_texts() == ["Cy", "Dee", "Ana", "Ben"]  # latest first
    field = [page.get_by_label(f"Player {i}", exact=True) for i in range(1, 5)]
    known.get_by_role("button", name="Dee").click()
    known.get_by_role("button", name="Ana").click()
    assert [f.input_value() for f in field] == ["Dee", "Ana", "", ""]
    assert known.get_by_role("button", name="Dee").get_attribute("aria-pressed") == "true"
    known.get_by_role("button", name="Dee").click()  # again: off the table
    assert [f.input_value() for f in field] == ["", "Ana", "", ""]
    assert known.get_by_role("button", name="Dee").get_attribute("aria-pressed") == "false"
    field[2].fill("cy")  # typed: the same player to the table
    assert known.get_by_role("button", name="Cy").get_attribute("aria-pressed") == "true"
    known.get_by_role("button", name="Ben").click()  # the first empty field
    assert [f.input_value() for f in field] == ["Ben", "Ana", "cy", ""]
    page.locator("select[name=group]").select_option(label="Cousins")
    assert known.locator("button.known:visible").all_inner_texts() == ["Eve", "Flo"]
    page.locator("select[name=group]").select_option(label="Club")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(live_server.url + "/m/*")
    match = store.get_match(database, page.url.rsplit("/", 1)[1])
    assert list(match.players) == ["Ben", "Ana", "cy"]
    assert [p.name for p in people.known_players(database, club.id)][:3] == ["Ana", "Ben", "Cy"]  # the same people
    assert [m for m in page.console_messages if "Content Security Policy" in m or "TypeError" in m] == []


def test_a_refused_form_takes_the_keyboard_to_why_it_was_refused(live_server, phone):
    """Two names the table cannot tell apart: the page comes back with the names typed and the refusal
    focused, so a screen reader says it first."""
    page = phone()
    page.goto(live_server.url + "/new/ratatat")
    page.get_by_label("Player 1", exact=True).fill("Mom")
    page.get_by_label("Player 2", exact=True).fill("mom ")
    page.get_by_role("button", name="Create the table").click()
    page.locator("#form-error").wait_for()
    assert "the same name to the table" in page.locator("#form-error").inner_text()
    assert page.evaluate("document.activeElement.id") == "form-error"
    assert page.get_by_label("Player 1", exact=True).input_value() == "Mom"
