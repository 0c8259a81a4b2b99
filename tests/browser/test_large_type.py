"""Large type on the narrowest phone (320×640, Chromium): a Rat-a-Tat Cat round played to its result with the
"Large type" switch on, the last reveal tapped on the phone. The round's result, the match's scores and, at
the end, the match round by round stay inside the page: nothing pushes it sideways (in English, and in
Hebrew and Italian, whose words are longer or run right to left)."""
from __future__ import annotations

import re

import pytest

from referee import store, tables

from .test_languages import reveal, seated

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}
# Three rounds of docs/examples/three-rounds.json, the players named as a table might name them.
NAMES = {"Ana": "Alessandra", "Ben": "Bartholomew", "Cy": "Cyrielle"}
LARGE = {"en-US": "Large type", "he-IL": "טקסט גדול", "it-IT": "Testo grande"}
REVEAL = {"en-US": "Reveal Cyrielle", "he-IL": "לחשוף את Cyrielle", "it-IT": "Scopri Cyrielle"}

OVERFLOW = """() => {
  const width = window.innerWidth, out = [];
  for (const el of document.querySelectorAll('main *')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > width + 0.5 || r.left < -0.5) && !el.closest('.scroll-x, .table-view, .result'))
      out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${el.className}: ${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  return {page: document.scrollingElement.scrollWidth, width, spilling: out.slice(0, 8)};
}"""


# Words that must not be cut: a score (a 10 split over two lines reads as a 1 and a 0), a player's name of
# one word beside the round's cards, the "called" tag. (The names heading the match round by round may wrap:
# the table stays whole on the screen.)
SPLIT = """(selector) => [...document.querySelectorAll(selector)].filter(el => {
  const range = document.createRange();
  range.selectNodeContents(el);
  const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
  return lines.size > 1;
}).map(el => el.textContent.trim())"""
WHOLE = ("#last-round td.num, #last-round th bdi, #last-round .tag, #standings td.num, #standings th bdi, "
         "#all-rounds td.num")


def fits(page, where: str) -> None:
    """Nothing of the page reaches past the viewport's width (a wide table scrolls inside its own card), and
    no score or name in the results is cut to fit."""
    found = page.evaluate(OVERFLOW)
    assert found["page"] <= found["width"] == NARROW["width"], (where, found)
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), (where, found)
    assert page.evaluate(SPLIT, WHOLE) == [], where


def _renamed(entry: dict) -> dict:
    return {**entry, "seat": NAMES[entry["seat"]]} if "seat" in entry else entry


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 60.0}


@pytest.mark.parametrize("locale", ["en-US", "he-IL", "it-IT"])
def test_a_round_result_and_the_scores_fit_320_px_in_large_type(live_server, phone, database, locale):
    import json
    from pathlib import Path

    example = json.loads((Path(__file__).resolve().parents[2] / "docs" / "examples" / "three-rounds.json").read_text())
    entries = [_renamed(e) for e in example["entries"]]
    match = store.create_match(database, "ratatat", list(NAMES.values()), example.get("rules") or {})
    for version, entry in enumerate(entries[:10]):  # round 1 to Cy's reveal, which Cy's phone taps
        tables.append(database, match.id, version, entry, None)
    cy = seated(phone, live_server, match, "Cyrielle", locale)
    page = cy.page
    page.set_viewport_size(NARROW)
    page.get_by_role("button", name=LARGE[locale]).click()
    page.wait_for_url(f"**/m/{match.id}")
    assert page.evaluate("document.documentElement.classList.contains('large')")
    fits(page, "the reveal")
    assert reveal(cy, "Cyrielle", entries[10]["cards"], REVEAL[locale]) == 200
    page.locator("#last-round").wait_for()
    assert re.search(r"\b1\b", page.locator("#last-round h2").inner_text())
    page.locator("#standings").wait_for()
    fits(page, "round 1's result and the match's scores")
    # a tag ("called") is read beside the large text, not left at small print's size
    tag, body = page.evaluate("""() => [parseFloat(getComputedStyle(document.querySelector('#last-round .tag')).fontSize),
                                        parseFloat(getComputedStyle(document.body).fontSize)]""")
    assert tag >= 0.7 * body, (tag, body)
    page.reload()  # as drawn whole, not by the answer to the tap
    page.locator("#last-round").wait_for()
    fits(page, "round 1's result, reloaded")
    for version, entry in enumerate(entries[11:], start=11):  # the other two rounds, to the end of the match
        tables.append(database, match.id, version, entry, None)
    page.reload()
    page.locator("#all-rounds").wait_for()
    assert page.evaluate("document.documentElement.classList.contains('large')")
    fits(page, "the match over, round by round, and the scores")
    page.goto(f"{live_server.url}/m/{match.id}/history")
    fits(page, "the history")


@pytest.mark.parametrize("locale", ["en-US", "it-IT", "he-IL"])
def test_a_new_table_form_fits_320_px_in_large_type(live_server, browser, locale):
    """The new-table form (its presets, whose Italian words are long) in large type, in a 320 px window
    with a scroll bar of its own (a desktop browser made narrow): nothing spills."""
    context = browser.new_context(viewport=NARROW, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server.url}/new/ratatat")
    page.get_by_role("button", name=LARGE[locale]).click()
    page.wait_for_selector("html.large")
    page.goto(f"{live_server.url}/new/ratatat")
    found = page.evaluate(OVERFLOW.replace("main *", "body *").replace("window.innerWidth", "document.documentElement.clientWidth"))
    assert found["page"] <= found["width"] and not found["spilling"], found
    for details in page.locator("details").all():  # every house rule opened
        details.evaluate("d => d.open = true")
    found = page.evaluate(OVERFLOW.replace("main *", "body *").replace("window.innerWidth", "document.documentElement.clientWidth"))
    assert found["page"] <= found["width"] and not found["spilling"], found
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "it-IT"])
def test_the_skip_link_stays_out_of_sight_in_large_type_until_focused(live_server, browser, locale):
    """Its words take several lines in large type at 320 px: it was pushed up by a fixed height and its last
    line showed as a white box over the table's code."""
    context = browser.new_context(viewport=NARROW, locale=locale)
    page = context.new_page()
    page.goto(f"{live_server.url}/new/ratatat")
    page.get_by_role("button", name=LARGE[locale]).click()
    page.wait_for_selector("html.large")
    page.evaluate("window.scrollTo(0, 0)")
    skip = page.locator("a.skip")
    assert skip.bounding_box()["y"] + skip.bounding_box()["height"] <= 0
    skip.focus()
    assert skip.bounding_box()["y"] >= 0
    context.close()


def test_GEN_4_a_decided_dispute_fits_320_px_in_hebrew_large_type(live_server, phone, database):
    """The dispute decided at the reveal, on a 320 px Hebrew phone in large type: its heading ("Flagged
    (GEN-4)", translated) wraps between its words instead of widening the page past the screen (it was kept
    on one line with the rule ID, and the page grew to 378 px)."""
    import json
    from pathlib import Path

    example = json.loads((Path(__file__).resolve().parents[2] / "docs" / "examples" / "flag-at-reveal.json").read_text())
    match = store.create_match(database, "ratatat", example["players"], example.get("rules") or {})
    for version, entry in enumerate(example["entries"]):
        tables.append(database, match.id, version, entry, None)
    page = seated(phone, live_server, match, "Ben", "he-IL").page
    page.set_viewport_size(NARROW)
    page.get_by_role("button", name=LARGE["he-IL"]).click()
    page.wait_for_selector("html.large")
    heading = page.locator("#decided a.rule-id").first
    assert "GEN-4" in heading.inner_text()
    fits(page, "the dispute decided")


def test_large_type_is_larger_than_the_phone_s_own_large_text(live_server, browser):
    """A phone whose text is already set large (32 px): "Large type" makes it larger still, never smaller (it
    was a fixed 22 px)."""
    context = browser.new_context(viewport=NARROW, locale="en-US")
    page = context.new_page()
    context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 32}})
    page.goto(f"{live_server.url}/new/ratatat")
    size = "() => parseFloat(getComputedStyle(document.body).fontSize)"
    before = page.evaluate(size)
    assert before >= 32
    page.get_by_role("button", name=LARGE["en-US"]).click()
    page.wait_for_selector("html.large")
    assert page.evaluate(size) > before
    context.close()
