"""axe-core (shipped inside axe-playwright-python, never fetched) on every screen in Chromium, in English,
Hebrew and Italian: no serious or critical violation (WCAG A/AA rules: contrast, names, labels, landmarks,
ARIA, language attributes...). The tables are the documented transcripts (docs/examples) replayed to a
few states each: the deal, mid-round, the reveal, a dispute, the match over."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe

from referee import store, tables
from referee.games.base import Ruling

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
LOCALES = {"en": "en-US", "he": "he-IL", "it": "it-IT"}
# (transcript, how many of its entries, a name for the report)
STATES = [
    ("plain-round.json", 0, "ratatat-deal"),
    ("plain-round.json", 4, "ratatat-mid-round"),
    ("plain-round.json", 7, "ratatat-reveal"),
    ("flag-at-reveal.json", None, "ratatat-dispute"),
    ("three-rounds.json", None, "ratatat-match-over"),
    ("draw2-chain.json", 3, "ratatat-draw2"),
    ("shithead-burn-four.json", 2, "shithead-setup"),
    ("shithead-burn-four.json", None, "shithead-play"),
    ("spite-malice-king-chain.json", 1, "spite-malice-deal"),
    ("spite-malice-king-chain.json", None, "spite-malice-play"),
    ("cabo-scoring.json", 3, "cabo-mid-round"),
]


def replayed(database, transcript: str, count: int | None):
    data = json.loads((EXAMPLES / transcript).read_text())
    match = store.create_match(database, data["game"], data["players"], data.get("rules") or {})
    entries = data["entries"] if count is None else data["entries"][:count]
    version = 0
    for entry in entries:
        entry = {k: v for k, v in entry.items() if k != "note"}
        try:
            version = tables.append(database, match.id, version, entry, None).version
        except Ruling:  # the transcripts show refusals too: those entries were never stored
            continue
    return match


def serious(page) -> list[str]:
    results = Axe().run(page, options={"resultTypes": ["violations"],
                                       "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a",
                                                                             "wcag21aa", "best-practice"]}})
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("lang", list(LOCALES))
def test_no_serious_or_critical_violation_on_any_screen(live_server, phone, database, lang):
    matches = {name: replayed(database, transcript, count) for transcript, count, name in STATES}
    page = phone(LOCALES[lang])
    url = live_server.url
    problems: dict[str, list[str]] = {}

    def check(name: str, path: str | None = None) -> None:
        if path is not None:
            page.goto(url + path)
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == lang, name
        found = serious(page)
        if found:
            problems[name] = found

    page.set_content('<html lang="en"><head><title>t</title></head><body><main><img src="x.png"><button></button></main></body></html>')
    assert len(serious(page)) == 2  # axe runs, and would see an image and a button with no name
    check("home", "/")
    for game in ("ratatat", "shithead", "spite_malice", "cabo"):
        check(f"new-table-{game}", f"/new/{game}")
        check(f"rules-{game}", f"/rules/{game}")
    check("decks", "/decks")
    page.fill("input[name=name]", "Nonna")
    page.locator("form[action='/decks'] button[type=submit]").click()
    page.wait_for_url("**/decks/*")
    check("teach-deck")
    check("not-found", "/m/nosuchtable")

    first = next(iter(matches.values()))
    check("seat-picker", f"/m/{first.id}")
    check("invite", f"/m/{first.id}/invite")
    check("watch", f"/m/{first.id}/watch")
    for name, match in matches.items():
        page.goto(f"{url}/m/{match.id}")
        if page.locator("#seat-picker").count():
            page.locator("#seat-picker button[value=shared]").click()
            page.locator("#seat-picker").wait_for(state="detached")
        check(f"table-{name}")
        link = page.locator("#actions a.button[hx-get*='/pick']").first
        if link.count():
            link.click()
            page.locator("#pick").wait_for()
            check(f"pick-{name}")
        check(f"history-{name}", f"/m/{match.id}/history")
        correct = page.locator("a[href*='/correct/']").first
        if correct.count():
            correct.click()
            page.wait_for_url("**/correct/*")
            check(f"correct-{name}")
        check(f"table-rules-{name}", f"/m/{match.id}/rules")
    # The large-type view of a table in the middle of a round
    check("large-type", f"/m/{matches['ratatat-mid-round'].id}?large=1")
    assert not problems, json.dumps(problems, indent=1, ensure_ascii=False)
