"""What people type and what the screens say, on a phone (Chromium at 390x844, the real server): a reason of
300 characters without a space (a pasted link) and a 40-letter name wrap instead of widening the page; the
Spite & Malice pickers keep their words whole; a rule ID is never cut at its hyphen; a lone Undo has no divider above it; the Hebrew standings'
headings break between words at 320 px."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from referee import people, store, tables

from .test_round import Phone

pytestmark = pytest.mark.browser

LINK = "https://example.com/" + "x" * 280  # 300 characters, the most a reason holds, not one space
NAME = "Bartholomew" + "x" * 29  # 40 letters, the longest name
FITS = "document.scrollingElement.scrollWidth <= window.innerWidth"
WIDTH = "document.scrollingElement.scrollWidth"
#: The words of the text inside an element that a line break cuts in two ("Pay-" / "off", "(new" / ")").
BROKEN_WORDS = """(el) => {
  const out = [], walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) out.push(m[0]);
    }
  }
  return out;
}"""
#: How many lines an element's text takes.
LINES = """(el) => { const r = document.createRange(); r.selectNodeContents(el);
  return new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top))).size; }"""


def seated(phone, live_server, match, name: str, locale: str = "en-US") -> Phone:
    player = Phone(phone(locale), name)
    player.page.goto(f"{live_server.url}/m/{match.id}")
    player.page.locator("#seat-picker").get_by_role("button", name=name, exact=True).click()
    player.page.locator("#seat-picker").wait_for(state="detached")
    return player


def entered(database, match, *entries: tuple[int, dict]) -> None:
    for seat, entry in entries:
        tables.append(database, match.id, store.get_match(database, match.id).version, entry, None, seat=seat)


def spite_malice(database, players=("Ann", "Bob"), **rules) -> store.Match:
    """Ann's pay-off top an A, Bob's a 4: Bob starts, and builds his A from the hand."""
    match = store.create_match(database, "spite_malice", list(players), {"payoff_size": 5, **rules})
    ann, bob = players
    entered(database, match, (0, {"move": "top", "seat": ann, "card": "A"}),
            (1, {"move": "top", "seat": bob, "card": "4"}),
            (1, {"move": "build", "seat": bob, "source": "hand", "card": "A", "pile": 1}))
    return match


def test_GEN_5_a_reason_without_spaces_wraps_on_a_phone(live_server, phone, database):
    """An override and a correction, each with a 300-character link for a reason, by a player with a
    40-letter name: the history, the correction page and the table screen (its Undo naming that player)
    stay 390 px wide; the reason wraps inside its row."""
    match = spite_malice(database, ("Ann", NAME))
    entered(database, match,
            (1, {"move": "override", "rule": "SM-12", "reason": LINK, "seat": NAME,
                 "entry": {"move": "build", "seat": NAME, "source": "hand", "card": "7", "pile": 1}}),
            (0, {"move": "correct", "target": 0, "reason": LINK, "seat": "Ann",
                 "entry": {"move": "top", "seat": "Ann", "card": "2"}}))
    player = seated(phone, live_server, match, NAME)
    page = player.page
    page.goto(f"{live_server.url}/m/{match.id}/history")
    assert page.evaluate(FITS) and page.evaluate(WIDTH) <= 390, page.evaluate(WIDTH)
    for number in (3, 4):  # the override's reason, the correction's
        reason, row = page.locator(f"#e{number} .reason"), page.locator(f"#e{number}").bounding_box()
        assert LINK in reason.inner_text()
        assert reason.bounding_box()["x"] + reason.bounding_box()["width"] <= row["x"] + row["width"] + 1
    page.goto(f"{live_server.url}/m/{match.id}/correct/0")
    assert page.locator("#correct-form").is_visible()
    assert page.evaluate(FITS) and page.evaluate(WIDTH) <= 390, page.evaluate(WIDTH)
    page.goto(f"{live_server.url}/m/{match.id}")
    page.locator("#actions").wait_for()
    assert page.evaluate(FITS) and page.evaluate(WIDTH) <= 390, page.evaluate(WIDTH)


def test_SM_pickers_keep_their_words_whole_on_a_phone(live_server, phone, database):
    """The "does not fit" picker: "Pile 1 (on A)" and "Start a new pile" in at most two lines, the "Pay-off"
    chip whole; the discard's "Side 1 (new)" too (it was cut after "(new")."""
    match = spite_malice(database)
    player = seated(phone, live_server, match, "Bob")
    page = player.page
    for query, buttons in (("move=build_any&seat=Bob", "#pick .slots-grid button"),
                           ("move=build&seat=Bob&source=hand&card=K", "#pick .slots-grid button"),
                           ("move=discard&seat=Bob", "#pick .slots-grid button")):
        page.goto(f"{live_server.url}/m/{match.id}/pick?{query}")
        found = page.locator(buttons)
        assert found.count() >= 2, query
        for i in range(found.count()):
            button = found.nth(i)
            assert button.evaluate(BROKEN_WORDS) == [], (query, button.inner_text())
            assert button.evaluate(LINES) <= 2, (query, button.inner_text())
        assert page.evaluate(WIDTH) <= 390
    page.goto(f"{live_server.url}/m/{match.id}/pick?move=build_any&seat=Bob")
    chips = page.locator("#pick .card-choice .chip span")
    assert chips.count() > 13
    for i in range(chips.count()):
        assert chips.nth(i).evaluate(BROKEN_WORDS) == [], chips.nth(i).inner_text()


def test_SM_40_a_lone_undo_on_the_end_screen_has_no_divider_above_it(live_server, phone, database):
    """Ann builds her last pay-off card and wins: her phone's actions hold only the Undo, with no empty
    strip and divider line above it."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5, "match_target": None})
    cards = ["K", "2", "3", "4", "5"]
    entries = [(0, {"move": "top", "seat": "Ann", "card": "K"}), (1, {"move": "top", "seat": "Bob", "card": "2"})]
    for i, card in enumerate(cards):
        entries.append((0, {"move": "build", "seat": "Ann", "source": "payoff", "card": card, "pile": 1}))
        if i + 1 < len(cards):
            entries.append((0, {"move": "top", "seat": "Ann", "card": cards[i + 1]}))
    entered(database, match, *entries)
    page = seated(phone, live_server, match, "Ann").page
    undo = page.locator("#actions .undo")
    undo.wait_for()
    assert "Match over" in page.locator("#status").inner_text()
    assert undo.evaluate("(el) => getComputedStyle(el).borderTopWidth") == "0px"
    assert undo.evaluate("(el) => el.getBoundingClientRect().top - el.parentElement.getBoundingClientRect().top") <= 20


def test_the_hebrew_standings_headings_break_between_words_at_320_px(live_server, phone, database):
    """At 320 px in Hebrew the group's standings keep each heading's words whole ("משחקים" on one line): the
    table scrolls inside its card instead."""
    from tests.web.nights_helpers import TIED_ROUND, example, play

    club = people.find_or_create_group(database, "Friday club")
    for transcript in (example("flag-at-reveal"), TIED_ROUND, example("three-rounds")):
        play(database, transcript, club.id)
    page = phone("he-IL")
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{live_server.url}/nights/g/{club.id}")
    headings = page.locator("table.standings thead th")
    assert headings.count() > 5
    for i in range(headings.count()):
        assert headings.nth(i).evaluate(BROKEN_WORDS) == [], headings.nth(i).inner_text()
    assert page.evaluate(WIDTH) <= 320


def test_a_rule_id_is_never_cut_at_its_hyphen(live_server, phone):
    """Squeezed to three letters wide, the rule book's "SM-12" stays on one line (it was cut as "SM-" / "12")."""
    page = phone("en-US")
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{live_server.url}/rules/spite_malice")
    rule = page.locator("dt.rule-id", has_text="SM-12").first
    assert rule.inner_text() == "SM-12"
    assert rule.evaluate("(el) => { el.style.width = '3ch'; return el.getBoundingClientRect().height < "
                         "1.5 * parseFloat(getComputedStyle(el).lineHeight); }")


def test_SM_19_a_source_chosen_under_not_from_the_hand_stays_in_sight_after_the_refusal(live_server, phone, database):
    """Bob ends his turn with his pay-off 4 on a side stack, chosen under "Not from the hand?": refused
    (SM-19). The form comes back as he left it, and the fold holding the source he chose is open (it was
    folded, the pay-off still chosen out of sight, so his next discard from the hand was refused too)."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    entered(database, match, (0, {"move": "top", "seat": "Ann", "card": "A"}),
            (1, {"move": "top", "seat": "Bob", "card": "4"}))
    page = seated(phone, live_server, match, "Bob").page
    page.get_by_role("link", name="End the turn: a hand card onto a side stack").click()
    form = page.locator("#pick form")
    form.locator("summary", has_text="Not from the hand?").click()
    form.locator("label.chip", has_text="Pay-off").click()
    form.locator("label.chip", has_text=re.compile(r"^4$")).click()
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        form.get_by_role("button", name="Side 1 (new)").click()
    assert answer.value.status == 422
    page.locator("#ruling", has_text="SM-19").wait_for()
    fold = page.locator("#pick details.other-source")
    assert fold.evaluate("d => d.open")
    assert page.locator("#pick input[name=source][value=payoff]").is_checked()


def test_a_rounds_cards_stay_on_one_line_beside_a_callers_name_at_390_px(live_server, phone, database):
    """Grandma called and won round 1: on Leo's phone her four cards wrapped three and one under them (read as
    two rows of the table), beside her name, its "called" tag and star. Each player's four cards keep one
    line, in slot order; the name wraps instead."""
    players = ["Grandma", "Dad", "Mia", "Leo"]
    match = store.create_match(database, "ratatat", players)
    entries = [(0, {"move": "turn_up", "card": "5"}), (0, {"move": "draw", "seat": "Grandma"}),
               (0, {"move": "discard", "seat": "Grandma", "card": "9"}), (0, {"move": "call", "seat": "Grandma"})]
    for seat, name in enumerate(players[1:], 1):
        entries += [(seat, {"move": "draw", "seat": name}), (seat, {"move": "discard", "seat": name, "card": "8"})]
    hands = {"Grandma": ["1", "2", "5", "0"], "Dad": ["2", "3", "4", "3"], "Mia": ["2", "1", "7", "6"],
             "Leo": ["4", "2", "0", "4"]}
    entries += [(seat, {"move": "reveal", "seat": name, "cards": hands[name]}) for seat, name in enumerate(players)]
    entered(database, match, *entries)
    page = seated(phone, live_server, match, "Leo").page
    rows = page.locator("#last-round td.faces")
    expect(rows).to_have_count(4)
    for i in range(4):
        tops = rows.nth(i).evaluate("(el) => new Set([...el.children].map(c => Math.round(c.getBoundingClientRect().top))).size")
        assert tops == 1, f"row {i + 1}'s cards take {tops} lines"
    assert page.evaluate(FITS)
