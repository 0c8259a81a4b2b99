"""A family's first evening: a whole three-round match on three phones, one shared phone and a spectator
(Chromium at 390x844 against the real server), through every problem such a table met, counting taps.

Ana, Ben and Cy each have a phone; the family tablet is "one phone for everyone"; Grandpa just watches.
Later Cy's battery dies and Cy continues on a new phone. Each numbered comment names the problem
(issue "The table app as a family meets it on its first evening") the step proves fixed.

    Round 1 (Cy deals): Ana notes her first peek; Ana 3 taps for a turn; Ben a Draw 2 sequence in 6 taps;
        the tablet plays Cy's turn and calls for him; reveals of 5 taps while another phone reveals;
        the tablet replaces Cy's revealed Peek from the draw pile; the result shows first.
    Round 2 (Ana deals): Cy's new phone takes over his seat; a correction with pickers; a refused reveal
        (a fifth 0) whose typed reason survives another phone's reveal; the override, its undo, again.
    Round 3 (Ben deals): a revealed card contradicts what the table knew: the round waits for the table's
        decision; the match, round by round; play again.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from referee import store
from referee.transcript import check, format_text, loads

from .conftest import wait_for_subscribers

pytestmark = pytest.mark.browser

OUT = Path(__file__).resolve().parents[2] / "benchmarks" / "out"
TIMEOUT = 10_000


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 120.0}


class Phone:
    """One phone and the taps made on it."""

    def __init__(self, page, name: str):
        self.page, self.name, self.taps = page, name, 0
        page.set_default_timeout(TIMEOUT)

    def tap(self, locator) -> None:
        locator.click()
        self.taps += 1

    def entry(self, locator) -> int:
        """A tap that posts an entry: the answer's status, after this phone's own doorbell."""
        with self.page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
            self.tap(locator)
        return answer.value.status

    def press(self, name: str) -> int:
        return self.entry(self.page.locator("#actions").get_by_role("button", name=name, exact=True))

    def open(self, name: str) -> None:
        self.tap(self.page.locator("#actions").get_by_role("link", name=name, exact=True))
        self.page.locator("#pick").wait_for()

    def choose(self, name: str) -> int:
        return self.entry(self.page.locator("#pick").get_by_role("button", name=name, exact=True).first)

    def call(self, seat: str) -> int:
        self.tap(self.page.locator("#actions summary", has_text="Call “Rat-a-Tat Cat!”"))
        return self.press(f"Yes, {seat} calls Rat-a-Tat Cat")

    def reveal_form(self, seat: str):
        return self.page.locator(f"form.reveal-form:has(input[name=for][value='{seat}'])")

    def pick_cards(self, seat: str, cards: dict[int, str]) -> None:
        for slot, card in cards.items():
            self.tap(self.reveal_form(seat).locator(f"label.chip:has(input[name=card{slot}][value='{card}'])"))

    def reveal(self, seat: str, cards: list[str]) -> int:
        self.pick_cards(seat, dict(enumerate(cards, start=1)))
        return self.entry(self.reveal_form(seat).get_by_role("button", name=f"Reveal {seat}"))

    def status(self, text: str) -> None:
        self.page.locator("#status", has_text=text).wait_for()

    def text(self, selector: str = "#screen") -> str:
        return self.page.locator(selector).inner_text()

    def get(self, path: str):
        """A GET with this phone's cookies (its seat), as its browser would make it."""
        origin = re.match(r"https?://[^/]+", self.page.url).group(0)
        return self.page.request.get(origin + path)

    def download(self, match_id: str) -> dict:
        response = self.get(f"/m/{match_id}/transcript.json")
        assert response.status == 200
        return response.json()


def join(phone, url: str, seat: str) -> Phone:
    p = Phone(phone(), seat)
    p.page.goto(url)
    p.page.locator("#seat-picker").get_by_role("button", name=seat, exact=True).click()
    p.page.locator("#seat-picker").wait_for(state="detached")
    return p


def counted(phone: Phone, action) -> int:
    before = phone.taps
    action()
    return phone.taps - before


def test_a_three_round_match_on_the_first_evening(live_server, phone, database):
    OUT.mkdir(parents=True, exist_ok=True)
    ana = Phone(phone(), "Ana")
    ana.page.goto(live_server.url + "/")
    ana.page.get_by_role("link", name="New Rat-a-Tat Cat table").click()
    for i, name in enumerate(["Ana", "Ben", "Cy"], start=1):
        ana.page.get_by_label(f"Player {i}", exact=True).fill(name)
    ana.page.get_by_role("button", name="Create the table").click()
    ana.page.wait_for_url(re.compile(r"/m/[a-z0-9]{8}$"))
    match = store.get_match(database, ana.page.url.rsplit("/", 1)[1])
    assert match.rules.get("rounds_n", 3) == 3
    url = f"{live_server.url}/m/{match.id}"
    ana.page.locator("#seat-picker").get_by_role("button", name="Ana", exact=True).click()
    ben = join(phone, url, "Ben")
    cy = join(phone, url, "Cy")
    tablet = Phone(phone(), "tablet")
    tablet.page.goto(url)
    tablet.page.get_by_role("button", name="One phone for everyone").click()
    grandpa = Phone(phone(), "Grandpa")
    grandpa.page.goto(f"{url}/watch")  # the spectator link asks first: a link changes nothing (GET is safe)
    grandpa.page.get_by_role("button", name="Just watch").click()
    assert "You are watching" in grandpa.text()
    wait_for_subscribers(match.id, 5)

    def synced(*phones):
        """Until these phones show the table as it is (their doorbells have rung)."""
        version = store.get_match(database, match.id).version
        for p in phones:
            p.page.locator(f"#screen [data-version='{version}']").wait_for()

    # === Round 1 ===================================================================================
    ben.open("Turn up the top card")
    # 11. the card grid lines up: "0" sits on the same row as 1–3
    tops = [ben.page.locator("#pick").get_by_role("button", name=n, exact=True).bounding_box()["y"]
            for n in ("0", "1", "2", "3")]
    assert max(tops) - min(tops) < 1, tops
    assert "Didn't see" not in ben.text("#pick")  # a card turned up is face up: everyone saw it
    for name in ("Ana", "Ben", "Cy"):  # every row numbers its slots, 1-4 from the owner's left
        assert ana.page.locator(f".row[data-player={name}] .slot-number").all_inner_texts() == ["1", "2", "3", "4"]
    assert ben.choose("5") == 200
    ana.status("Your turn, Ana")

    # 1. the first-peek note is kept: private badges on Ana's row, on Ana's phone only
    ana.tap(ana.page.locator("summary", has_text="Note your first peek"))
    note = ana.page.locator("form[data-draft=peek-note-form]")
    ana.tap(note.locator("fieldset").nth(0).locator("label.chip:has(input[value='3'])"))
    ana.tap(note.locator("fieldset").nth(1).locator("label.chip:has(input[value='8'])"))
    assert ana.entry(note.get_by_role("button", name="Save my peek")) == 200
    ana.page.locator(".row[data-player=Ana] .mine", has_text="8").wait_for()
    seen = ana.page.locator(".row[data-player=Ana] .mine").all_inner_texts()  # read aloud "only you know this: 3"
    assert [t.rsplit(":", 1)[-1].strip() for t in seen] == ["3", "8"] and all("only you know this" in t for t in seen)
    assert ben.page.locator(".mine").count() == 0 and grandpa.page.locator(".mine").count() == 0
    assert ana.download(match.id)["entries"][1]["seen"] == ["3", "8"]
    # 6. mid-round, a download holds only what that phone may see
    assert grandpa.download(match.id)["entries"][1].get("seen") != ["3", "8"]
    assert ben.download(match.id)["entries"][1].get("seen") != ["3", "8"]

    # a plain turn: 3 taps
    taps = counted(ana, lambda: (ana.press("Draw from the pile"), ana.open("Slot 2"), ana.choose("8")))
    assert taps == 3
    ben.status("Your turn, Ben")

    # a Draw 2 sequence: draw, use it (and draw), discard the first card (and draw again), keep the second
    def draw2():
        assert ben.press("Draw from the pile") == 200
        assert ben.press("Use Draw 2 and draw") == 200
        ben.page.locator("#actions").get_by_role("link", name="Discard it and draw again").wait_for()
        ben.open("Discard it and draw again")
        assert ben.choose("7") == 200
        ben.page.locator("#actions").get_by_role("link", name="Slot 1").wait_for()
        ben.open("Slot 1")
        assert ben.choose("6") == 200
    assert counted(ben, draw2) <= 6
    cy.status("Your turn, Cy")

    # 2. the shared tablet plays Cy's turn, then offers "Rat-a-Tat Cat!" to Cy, who just finished
    tablet.status("Your turn, Cy")
    assert tablet.press("Draw from the pile") == 200
    tablet.open("Discard it face up")
    assert "Didn't see" not in tablet.text("#pick")
    assert tablet.choose("9") == 200
    tablet.status("Your turn, Ana")
    assert tablet.call("Cy") == 200
    for p in (ana, ben, grandpa):
        p.page.locator("#final-turns", has_text="Cy called Rat-a-Tat Cat — 2 turns left").wait_for()
    for p, card in ((ana, "4"), (ben, "2")):
        synced(p)
        assert p.press("Draw from the pile") == 200
        p.open("Discard it face up")
        assert p.choose(card) == 200
    for p in (ana, ben, cy, tablet):
        p.status("Round 1: reveal")

    # 3. reveal choices survive another phone's reveal; a reveal takes 5 taps
    before = ana.taps
    ana.pick_cards("Ana", {1: "3", 2: "1", 3: "2"})
    assert ben.reveal("Ben", ["4", "0", "5", "9"]) == 200
    ana.page.locator(".row[data-player=Ben] .face", has_text="9").wait_for()  # Ana's screen was redrawn
    checked = [ana.reveal_form("Ana").locator(f"input[name=card{i}]:checked").get_attribute("value")
               for i in (1, 2, 3)]
    assert checked == ["3", "1", "2"]
    ana.pick_cards("Ana", {4: "8"})
    assert ana.entry(ana.reveal_form("Ana").get_by_role("button", name="Reveal Ana")) == 200
    assert ana.taps - before == 5
    assert tablet.reveal("Cy", ["PEEK", "1", "2", "0"]) == 200
    # 2. the tablet replaces Cy's revealed Peek from the draw pile
    tablet.open("Replace Cy's slot 1 from the draw pile")
    assert tablet.choose("6") == 200
    for p in (ana, ben, cy, grandpa):
        p.page.locator("#last-round").wait_for()
    # the round's result comes first, before the next round's turn-up
    order = ana.page.evaluate("""() => ['#last-round', '#actions'].map(s =>
        document.querySelector(s).getBoundingClientRect().top)""")
    assert order[0] < order[1]
    ana.status("Round 2")

    # === Round 2 (Ana deals, Ben plays first) ==========================================================
    # 6. Cy's new phone takes over his seat: asked first, the old phone is told, the history records it
    cy2 = Phone(phone(), "Cy")
    cy2.page.goto(url)
    cy2.page.locator("#seat-picker").get_by_role("button", name="Cy", exact=True).click()
    cy2.page.locator("#take-over").wait_for()
    cy2.page.get_by_role("button", name="Take over Cy's seat").click()
    cy2.page.locator("#status").wait_for()
    cy.page.locator(".notice", has_text="Another phone has taken Cy's seat").wait_for()
    assert cy.page.locator("#actions").count() == 0
    wait_for_subscribers(match.id, 6)

    # 3. a note half made survives another phone's entry: Cy's first-peek note is open with one card tapped
    cy2.tap(cy2.page.locator("summary", has_text="Note your first peek"))
    cy_note = cy2.page.locator("form[data-draft=peek-note-form]")
    cy2.tap(cy_note.locator("fieldset").nth(0).locator("label.chip:has(input[value='0'])"))
    ana.open("Turn up the top card")
    assert ana.choose("4") == 200
    cy2.page.locator("#rows .piles .face", has_text="4").wait_for()  # Cy's screen was redrawn
    assert cy_note.is_visible()
    assert cy_note.locator("input[name=seen1]:checked").get_attribute("value") == "0"
    ben.status("Your turn, Ben")
    # ... and so does a picker: Ben's is open when Cy saves the note
    assert ben.press("Draw from the pile") == 200
    ben.open("Slot 3")
    cy2.tap(cy_note.locator("fieldset").nth(1).locator("label.chip:has(input[value='5'])"))
    assert cy2.entry(cy_note.get_by_role("button", name="Save my peek")) == 200
    synced(ben)
    ben.page.locator("#pick").wait_for()
    assert "Which card came out of slot 3?" in ben.text("#pick")
    assert ben.choose("7") == 200
    assert ben.call("Ben") == 200
    # 8. the slot was really 4: corrected in the history with the same pickers, no numbers or JSON typed
    ben.tap(ben.page.locator(".links").get_by_role("link", name="History"))
    row = ben.page.locator("li.stands", has_text="Ben puts the card into slot 3")
    number = int(row.get_attribute("id")[1:])
    assert f"#{number}" in row.inner_text()
    ben.tap(row.get_by_role("link", name="Correct"))
    form = ben.page.locator("#correct-form")
    assert form.locator("textarea").count() == 0 and "Entry number" not in form.inner_text()
    ben.tap(form.locator("fieldset", has_text="Slot").first.locator("label.chip:has(input[value='4'])"))
    form.get_by_label("Why (recorded)").fill("it went into slot 4")
    ben.tap(form.get_by_role("button", name="Record the correction"))
    ben.page.wait_for_url(url)
    cy2.status("Your turn, Cy")
    for p, card in ((cy2, "1"), (ana, "2")):
        synced(p)
        assert p.press("Draw from the pile") == 200
        p.open("Discard it face up")
        assert p.choose(card) == 200
    for p in (ana, ben, cy2):
        p.status("Round 2: reveal")

    assert ben.reveal("Ben", ["0", "0", "3", "7"]) == 200
    # a fifth 0 is refused (GEN-3); the reason Cy types survives Ana's reveal on her phone
    assert cy2.reveal("Cy", ["0", "0", "0", "5"]) == 422
    cy2.page.locator("#ruling", has_text="Refused (GEN-3)").wait_for()
    assert cy2.page.locator("#ruling a.rule-id").get_attribute("href").endswith("/rules#GEN-3")
    cy2.page.locator("#override-reason").fill("a 0 from the old deck")
    assert ana.reveal("Ana", ["1", "2", "6", "8"]) == 200
    cy2.page.locator(".row[data-player=Ana] .face", has_text="6").wait_for()
    assert cy2.page.locator("#override-reason").input_value() == "a 0 from the old deck"
    assert cy2.entry(cy2.page.get_by_role("button", name="Let it stand: override GEN-3 (recorded)")) == 200
    # 8. the override undone (by Cy's phone: another seat's phone is not offered it) reads as undone in the
    # history, with its number
    cy2.page.locator("#actions .undo button", has_text="overrides GEN-3").wait_for()
    shown = cy2.page.locator("#screen [data-version]").get_attribute("data-version")
    ana.page.locator(f"#screen [data-version='{shown}']").wait_for()
    assert ana.page.locator("#actions .undo button", has_text="overrides GEN-3").count() == 0
    assert cy2.entry(cy2.page.locator("#actions .undo button")) == 200
    history = ana.get(f"/m/{match.id}/history").text()
    override_row = re.search(r'<li class="(\w+)" id="e(\d+)">\s*<span class="num">#\d+</span>\s*'
                             r'<span class="words">Cy overrides GEN-3', history)
    assert override_row and override_row.group(1) == "gone"
    assert "Another phone took over <bdi>Cy</bdi>'s seat." in history and "it went into slot 4" in history
    assert cy2.reveal("Cy", ["0", "0", "0", "5"]) == 422
    cy2.page.locator("#override-reason").fill("the old deck's 0, agreed")
    assert cy2.entry(cy2.page.get_by_role("button", name="Let it stand: override GEN-3 (recorded)")) == 200
    ana.page.locator("#last-round h2", has_text="Round 2").wait_for()

    # === Round 3 (Ben deals, Cy plays first) ===========================================================
    ben.open("Turn up the top card")
    assert ben.choose("6") == 200
    cy2.status("Your turn, Cy")
    assert cy2.press("Take the 6 from the discard pile") == 200
    cy2.open("Slot 2")
    assert cy2.choose("5") == 200
    assert cy2.call("Cy") == 200
    for p, card in ((ana, "7"), (ben, "9")):
        synced(p)
        assert p.press("Draw from the pile") == 200
        p.open("Discard it face up")
        assert p.choose(card) == 200
    for p in (ana, ben, cy2):
        p.status("Round 3: reveal")
    assert ana.reveal("Ana", ["1", "1", "2", "3"]) == 200
    assert ben.reveal("Ben", ["4", "4", "5", "2"]) == 200
    # 7. Cy's slot 2 was known to be the 6 he took; it is revealed as a 7: flagged, and the round waits
    assert cy2.reveal("Cy", ["1", "7", "0", "2"]) == 200
    for p in (ana, ben, cy2, grandpa):
        p.status("Round 3: decide the dispute")
    disputes = ana.page.locator("#disputes")
    assert "Flagged (GEN-4)" in disputes.inner_text() and "Accept" in disputes.inner_text()
    order = ana.page.evaluate("""() => ['#status', '#disputes', '#rows'].map(s =>
        document.querySelector(s).getBoundingClientRect().top)""")
    assert order == sorted(order)  # "decide the dispute" (the page's h1), the dispute under it, then the table
    assert ana.page.locator("#last-round h2", has_text="Round 3").count() == 0  # not scored yet
    ana.page.evaluate("window.scrollTo(0, 0)")
    ana.page.screenshot(path=str(OUT / "dispute-screen.png"))
    disputes.get_by_label("What the table decided (recorded)").fill("Cy mixed up his cards")
    assert ana.entry(disputes.get_by_role("button", name="Accept")) == 200

    # the match, round by round, and play again
    for p in (ana, ben, cy2, grandpa):
        p.status("Match over")
    rounds = ana.page.locator("#all-rounds tbody tr")
    assert rounds.count() == 3
    ana.page.screenshot(path=str(OUT / "match-over.png"), full_page=True)

    # 9. referee check on the downloaded transcript lists every ruling with its status
    doc = ana.download(match.id)
    _, steps, report = check(loads(json.dumps(doc)))
    statuses = {(r["verdict"], r["rule"], r.get("status")) for r in report["rulings"]}
    assert ("reject", "GEN-3", "overridden") in statuses and ("flag", "GEN-4", "accepted") in statuses
    assert "GEN-3" in format_text(loads(json.dumps(doc)), steps, report)
    assert report["result"]["over"]

    ana.tap(ana.page.get_by_role("button", name="Play again: same players, same rules"))
    ana.page.wait_for_url(re.compile(r"/m/[a-z0-9]{8}$"))
    assert ana.page.url != url and "You enter for Ana" in ana.text()

    # every phone stayed on one page and no phone scrolls sideways
    for p in (ana, ben, cy2, tablet, grandpa):
        assert p.page.evaluate("document.documentElement.scrollWidth") <= 390
