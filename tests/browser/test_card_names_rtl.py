"""Card names in Hebrew (right to left), in Chromium at a 320 px phone: a chip and a confirm button show
the rank before the suit ("7♥", not "♥7"), each card name being a left-to-right isolate."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from referee import store
from tests.web.cardphotos import standard_row_photo


pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}

#: Where the rank's last character and the suit are drawn, in the first text of ``el`` naming a card.
BOXES = """el => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = node.data.search(/[♠♥♦♣]/);
    if (at < 1) continue;
    const range = document.createRange();
    range.setStart(node, at - 1); range.setEnd(node, at);
    const rank = range.getBoundingClientRect();
    range.setStart(node, at); range.setEnd(node, at + 1);
    const suit = range.getBoundingClientRect();
    return {text: node.data, rank: [rank.left, rank.right], suit: [suit.left, suit.right],
            dir: getComputedStyle(el).direction};
  }
  return null;
}"""


@pytest.fixture
def hebrew_phone(browser):
    context = browser.new_context(viewport=NARROW, is_mobile=True, has_touch=True, device_scale_factor=2,
                                  locale="he-IL")
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def rank_before_suit(locator) -> dict:
    boxes = locator.evaluate(BOXES)
    assert boxes is not None and boxes["dir"] == "rtl", boxes
    assert boxes["rank"][1] <= boxes["suit"][0] + 0.5, boxes  # the rank is drawn left of its suit
    return boxes


def test_a_shithead_chip_reads_rank_then_suit_in_hebrew(live_server, hebrew_phone, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben"], {})
    page = hebrew_phone
    page.goto(f"{live_server.url}/m/{match.id}")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.click("#seat-picker button:has-text('Ana')")
    chip = page.locator("label.chip span", has_text="7♥").first
    expect(chip).to_be_visible()
    boxes = rank_before_suit(chip)
    assert boxes["text"] == "\u20667♥\u2069"
    rank_before_suit(page.locator("label.chip span", has_text="10♣").first)


def test_a_scanned_card_s_confirm_button_reads_rank_then_suit_in_hebrew(live_server, hebrew_phone, database,
                                                                         tmp_path):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    page = hebrew_phone
    page.goto(f"{live_server.url}/m/{match.id}")
    page.click("#seat-picker button:has-text('Ann')")
    page.locator("#actions a[href*='move=top']").first.click()
    photo = tmp_path / "king.jpg"
    photo.write_bytes(standard_row_photo(["KH"]))
    page.set_input_files("#pick .scan-form input[type=file]", str(photo))
    confirm = page.locator("button.confirm-scan")
    expect(confirm).to_be_visible()
    assert confirm.evaluate("b => b.scrollWidth <= b.clientWidth + 1")  # fits the narrow phone
    boxes = rank_before_suit(confirm)
    assert "\u2066K♥\u2069" in boxes["text"]


def test_chips_of_cards_run_left_to_right_in_hebrew_as_the_card_buttons_do(live_server, hebrew_phone, database):
    """The pay-off top's card buttons ran A…K left to right, the chips of another picker A…K right to left on
    the same Hebrew screen: chips of cards run left to right too, their legend still right to left."""
    match = store.create_match(database, "shithead", ["Ana", "Ben"], {})
    page = hebrew_phone
    page.goto(f"{live_server.url}/m/{match.id}")
    page.click("#seat-picker button:has-text('Ana')")
    chips = page.locator("fieldset.card-choice:not(.words)").first.locator("label.chip")
    expect(chips.first).to_be_visible()
    first, second = chips.nth(0).bounding_box(), chips.nth(1).bounding_box()
    assert abs(first["y"] - second["y"]) < 2 and first["x"] < second["x"], (first, second)
    legend = page.locator("fieldset.card-choice:not(.words) legend").first
    assert legend.evaluate("el => getComputedStyle(el).direction") == "rtl"
