"""A score that became another reads "27 → 37" in every language: in Hebrew (right to left) the arrow still
points from the sum to the score, never "37 → 27" — the round's result ("30 → 40": the caller's sum plus 10)
and the match's "100 → 50" (CAB-43) alike."""
from __future__ import annotations

import pytest

from .test_accessibility import replayed
from .test_languages import seated

pytestmark = pytest.mark.browser

# The left edges of the first occurrence of each of two pieces of a text, as the screen draws them.
PIECES = """([selector, first, second]) => {
  const el = document.querySelector(selector), node = el.firstChild, text = node.textContent;
  const left = (piece) => { const r = document.createRange(), at = text.indexOf(piece);
    r.setStart(node, at); r.setEnd(node, at + piece.length); return r.getBoundingClientRect().left; };
  return {text, first: left(first), second: left(second), arrow: left("→")};
}"""


@pytest.mark.parametrize("locale", ["he-IL", "en-US"])
def test_the_arrow_points_from_the_sum_to_the_score(live_server, phone, database, locale):
    match = replayed(database, "cabo-scoring.json", None)  # round 4: Ben called on 30 and scores 40
    page = seated(phone, live_server, match, "Ana", locale).page
    page.locator("#last-round small.muted").first.wait_for()
    cell = page.locator("#last-round td.num", has=page.locator("small.muted")).first
    small, score = cell.locator("small").bounding_box(), cell.locator("strong").bounding_box()
    assert cell.locator("small").inner_text().strip() == "30 →" and cell.locator("strong").inner_text() == "40"
    assert small["x"] + small["width"] <= score["x"] + 1, (small, score)  # 30 → 40, left to right
    tag = page.evaluate(PIECES, ["#all-rounds .reset-notes .tag", "100", "50"])
    assert tag["first"] < tag["arrow"] < tag["second"], tag  # 100 → 50, never 50 → 100
    # said under the table, the note leaves every column of scores in sight (beside a score it cut the last)
    assert page.locator("#all-rounds .scroll-x").evaluate("(el) => el.scrollWidth <= el.clientWidth")
