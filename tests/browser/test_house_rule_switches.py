"""Real Chromium: on the new-table form, every house-rule switch that matters only under some value of
another switch shows exactly while that value is chosen — for every game, whatever the value's spelling
(a yes/no switch's options are "true"/"false") — and what it is set to reaches the table's rules."""
from __future__ import annotations

import pytest

from referee import store
from referee.games import get_game

pytestmark = pytest.mark.browser

GAMES = ("ratatat", "cabo", "shithead", "spite_malice")


def spelled(value) -> str:
    """A value as the form's options spell it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("game", GAMES)
def test_every_dependent_switch_shows_when_the_switch_it_depends_on_allows_it(live_server, phone, game):
    engine = get_game(game)
    assert engine.APPLIES_WHEN, game
    page = phone()
    page.goto(f"{live_server.url}/new/{game}")
    page.get_by_text("Customise the house rules").click()
    for key, (owner, values) in engine.APPLIES_WHEN.items():
        wanted = {spelled(v) for v in values}
        options = page.locator(f"#rule-{owner} option").evaluate_all("els => els.map(e => e.value)")
        assert wanted <= set(options), (key, owner, wanted, options)  # the values exist as the form spells them
        for value in options:
            page.locator(f"#rule-{owner}").select_option(value)
            shown = page.locator(f"#rule-{key}").is_visible()
            assert shown == (value in wanted), (game, key, owner, value)
    assert [m for m in page.console_messages if m.startswith("error")] == []


def test_choosing_cambio_shows_its_number_of_rounds_and_the_table_plays_two(live_server, phone, database):
    """The play-tester's table: Cambio, Customise, "after a number of rounds" — the number shows at once
    (the rule set chose it, no switch was touched), and 2 rounds is what the table then plays."""
    page = phone()
    page.goto(f"{live_server.url}/new/cabo")
    page.get_by_label("Player 1", exact=True).fill("Ana")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.locator("input[name=preset][value=cambio_common]").check()
    page.get_by_text("Customise the house rules").click()
    assert page.locator("#rule-game_end").input_value() == "rounds"
    for key in ("rounds_n", "red_king", "black_king", "joker_value", "ace_value", "snap_penalty", "look_and_swap"):
        assert page.locator(f"#rule-{key}").is_visible(), key
    page.locator("#rule-rounds_n").fill("2")
    page.locator("#rule-snap_penalty").select_option("2")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(live_server.url + "/m/*")
    match = store.get_match(database, page.url.rsplit("/", 1)[1])
    assert match.rules["deck"] == "standard_jokers" and match.rules["game_end"] == "rounds"
    assert match.rules["rounds_n"] == 2 and match.rules["snap_penalty"] == 2
    # back to Cabo's own deck: the standard deck's card values hide again
    page.goto(f"{live_server.url}/new/cabo")
    page.get_by_text("Customise the house rules").click()
    page.locator("input[name=preset][value=cambio_common]").check()
    assert page.locator("#rule-joker_value").is_visible()
    page.locator("input[name=preset][value=cabo_2e]").check()
    assert not page.locator("#rule-joker_value").is_visible() and not page.locator("#rule-rounds_n").is_visible()
