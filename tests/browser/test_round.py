"""A whole Rat-a-Tat Cat round on three phones (Chromium at 390x844, real waitress).

Ana creates the table with the /new form, Ben joins by the code on the home page, Cy by the
table's /j/<code> link. Every entry is made by tapping, and after each one another phone is checked
to have updated live, through the SSE doorbell and its own re-GET, without reloading.

The round (Cy deals, so Ana plays first; tie policy "all_lowest_except_caller"):

    Ben turns up a 5                                   discard: 5
    Ana draws, puts it in slot 2, an 8 comes out       discard: 8
    Ben takes the 8, puts it in slot 1, a 7 comes out  discard: 7
    Cy draws a Swap and swaps his slot 1 with Ana's 3  discard: Swap
    Ana draws, discards a 9, calls                     discard: 9   (2 turns left)
    Ben draws, discards a 6                            discard: 6   (1 turn left)
    Cy draws, puts it in slot 4, a 3 comes out         discard: 3   -> reveal
    reveal: Ana 1 2 4 0 = 7; Ben 8 3 5 9 = 25; Cy 2 Peek 1 0, the Peek replaced by a 4 = 7
    Ana (the caller) and Cy tie on 7: under this tie policy the caller loses the tie, Cy wins.

Along the way: a stale tab of Ana's (its live stream cut) posts after the table moved on (409), and a
reveal that would show a fifth 8 is refused (422, GEN-3) with nothing saved.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import store

from .conftest import wait_for_subscribers

pytestmark = pytest.mark.browser

OUT = Path(__file__).resolve().parents[2] / "benchmarks" / "out"
TIMEOUT = 10_000  # ms for any single wait


@pytest.fixture
def app_config(app_config):
    """Streams that outlive the test's waits, so no doorbell waits out a reconnect (the stale tab
    covers catching up)."""
    return {**app_config, "SSE_MAX_LIFETIME": 60.0}



class Phone:
    """One player's phone: a page plus the taps a player makes on it."""

    def __init__(self, page, name: str):
        self.page, self.name = page, name
        self.reloads = 0
        page.set_default_timeout(TIMEOUT)

    def count_navigations(self) -> None:
        """From now on, any navigation of the main frame counts as a reload."""
        self.page.on("framenavigated", lambda frame: self._navigated(frame))

    def _navigated(self, frame) -> None:
        if frame == self.page.main_frame:
            self.reloads += 1

    # what the phone shows -------------------------------------------------------------------
    def status(self, text: str) -> None:
        self.page.locator("#status", has_text=text).wait_for()

    def discard_top(self, card: str) -> None:
        self.page.locator("#rows .piles .face", has_text=re.compile(rf"^{re.escape(card)}$")).wait_for()

    def version(self, version: int) -> None:
        self.page.locator(f"#screen [data-version='{version}']").wait_for()

    # taps ------------------------------------------------------------------------------------
    def _entry(self, tap) -> int:
        """Tap something that posts an entry; return the HTTP status. The answer is this phone's
        fresh screen; its own doorbell asks for nothing more (test_pages.py checks that)."""
        with self.page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
            tap()
        return answer.value.status

    def press(self, name: str) -> int:
        """An entry that is a single button (Draw, Call, Use Swap, Take the N ...)."""
        button = self.page.locator("#actions").get_by_role("button", name=name, exact=True)
        return self._entry(button.click)

    def open(self, link: str) -> None:
        """A link that opens a picker (Turn up, Slot N, Discard it face up, My slot N ...)."""
        self.page.locator("#actions").get_by_role("link", name=link, exact=True).click()
        self.page.locator("#pick").wait_for()

    def choose(self, name: str) -> int:
        """A button in the open picker: a card, or a swap target."""
        pick = self.page.locator("#pick")
        button = pick.get_by_role("button", name=name, exact=True).first
        return self._entry(button.click)

    def reveal(self, seat: str, cards: list[str]) -> int:
        """Tap each slot's card in the reveal's card grids, then Reveal."""
        form = self.page.locator(f"form.reveal-form:has(input[name=for][value='{seat}'])")
        for i, card in enumerate(cards, start=1):
            form.locator(f"label.chip:has(input[name=card{i}][value='{card}'])").click()
        return self._entry(form.get_by_role("button", name=f"Reveal {seat}").click)

    def call(self) -> int:
        """Rat-a-Tat Cat! asks first: the call, then the confirmation."""
        self.page.locator("#actions summary", has_text="Call “Rat-a-Tat Cat!”").click()
        return self.press(f"Yes, {self.name} calls Rat-a-Tat Cat")


def test_three_phones_play_a_whole_round(live_server, phone, database):
    OUT.mkdir(parents=True, exist_ok=True)
    # --- Ana creates the table on her phone --------------------------------------------------
    ana = Phone(phone(), "Ana")
    ana.page.goto(live_server.url + "/")
    ana.page.get_by_role("link", name="New Rat-a-Tat Cat table").click()
    for i, name in enumerate(["Ana", "Ben", "Cy"], start=1):
        ana.page.get_by_label(f"Player {i}", exact=True).fill(name)
    ana.page.get_by_text("Customise the house rules").click()
    ana.page.locator("select[name=tie_policy]").select_option("all_lowest_except_caller")
    ana.page.get_by_role("button", name="Create the table").click()
    ana.page.wait_for_url(re.compile(r"/m/[a-z0-9]{8}$"))
    match = store.get_match(database, ana.page.url.rsplit("/", 1)[1])
    code = ana.page.locator(".bar .code").inner_text().split()[-1]
    assert code == match.join_code
    ana.page.locator("#seat-picker").get_by_role("button", name="Ana", exact=True).click()
    ana.page.locator("#seat-picker").wait_for(state="detached")

    # --- Ben joins with the code from the home page, Cy with the link --------------------------
    ben = Phone(phone(), "Ben")
    ben.page.goto(live_server.url + "/")
    ben.page.fill("#code", code)
    ben.page.get_by_role("button", name="Join").click()
    ben.page.wait_for_url(f"**/m/{match.id}")
    ben.page.locator("#seat-picker").get_by_role("button", name="Ben", exact=True).click()
    ben.page.locator("#seat-picker").wait_for(state="detached")

    cy = Phone(phone(), "Cy")
    cy.page.goto(f"{live_server.url}/j/{code}")
    cy.page.wait_for_url(f"**/m/{match.id}")
    cy.page.locator("#seat-picker").get_by_role("button", name="Cy", exact=True).click()
    cy.page.locator("#seat-picker").wait_for(state="detached")

    phones = (ana, ben, cy)
    for p in phones:
        assert f"You enter for {p.name}" in p.page.locator("#screen").inner_text()
        p.count_navigations()
    wait_for_subscribers(match.id, 3)

    # --- Ben turns up the top card: a 5 ---------------------------------------------------------
    ben.open("Turn up the top card")
    assert "Which card was turned up?" in ben.page.locator("#pick").inner_text()
    assert ben.choose("5") == 200
    for p in phones:
        p.discard_top("5")
    ana.status("Your turn, Ana")
    cy.status("Ana's turn")

    # Ana keeps a second tab open whose live stream is cut: it will fall behind
    stale = ana.page.context.new_page()
    stale.set_default_timeout(TIMEOUT)
    stale.route("**/events**", lambda route: route.abort())
    stale.goto(f"{live_server.url}/m/{match.id}")
    stale.locator("#actions").get_by_role("button", name="Draw from the pile").wait_for()

    # --- Ana: draw, into slot 2; an 8 comes out ---------------------------------------------
    assert ana.press("Draw from the pile") == 200
    ben.page.locator("section.status", has_text="Ana holds a card from the draw pile").wait_for()
    ana.page.screenshot(path=str(OUT / "turn-screen.png"))  # the turn screen: slots, powers, discard
    ana.open("Slot 2")
    assert "Which card came out of slot 2?" in ana.page.locator("#pick").inner_text()
    assert ana.choose("8") == 200
    ben.discard_top("8")  # Ben's phone shows Ana's replaced card, live
    ben.status("Your turn, Ben")
    cy.status("Ben's turn")

    # --- the stale tab posts "Draw" made for version 1: 409, nothing saved ---------------------
    assert stale.locator("#screen [data-version='1']").count() == 1
    with stale.expect_response(lambda r: r.url.endswith("/entry")) as answer:
        stale.locator("#actions").get_by_role("button", name="Draw from the pile").click()
    assert answer.value.status == 409
    # the entries that came first were made on this same phone (another tab): said so, not "someone else"
    stale.locator(".notice", has_text="Your earlier entries were saved: Ana draws a card").wait_for()
    assert "This tap was not saved" in stale.locator(".notice").inner_text()
    assert stale.locator("#status").inner_text() == "Ben's turn"  # the fresh screen
    assert store.get_match(database, match.id).version == 3
    stale.close()

    # --- Ben takes the 8 from the discard pile, into slot 1; a 7 comes out -------------------
    assert ben.press("Take the 8 from the discard pile") == 200
    cy.discard_top("5")  # the 5 turned up is on top again
    cy.page.locator("section.status", has_text="Ben holds a card from the discard pile: 8").wait_for()
    ben.open("Slot 1")
    assert ben.choose("7") == 200
    cy.discard_top("7")
    cy.status("Your turn, Cy")
    ben_row = ben.page.locator(".row[data-player=Ben] .face").first
    assert ben_row.inner_text() == "8"  # a card taken from the discard pile is known to all

    # --- Cy draws a Swap, uses it: his slot 1 for Ana's slot 3 --------------------------------
    assert cy.press("Draw from the pile") == 200
    assert cy.press("Use Swap") == 200
    ana.discard_top("Swap")
    ana.page.locator("section.status", has_text="Cy uses Swap").wait_for()
    cy.open("My slot 1")
    assert "Swap your slot 1 with" in cy.page.locator("#pick").inner_text()
    assert cy.choose("Ana's slot 3") == 200
    ana.status("Your turn, Ana")
    ben.status("Ana's turn")
    # a Swap on the discard pile cannot be taken (RTC-12): Ana is not even offered it
    assert ana.page.get_by_role("button", name=re.compile("from the discard pile")).count() == 0

    # --- Ana draws, discards a 9 and calls ---------------------------------------------------
    assert ana.press("Draw from the pile") == 200
    ana.open("Discard it face up")
    assert ana.choose("9") == 200
    cy.discard_top("9")
    ben.status("Your turn, Ben")
    assert ana.call() == 200
    for p in (ben, cy):
        p.page.locator("#final-turns", has_text="Ana called Rat-a-Tat Cat — 2 turns left").wait_for()
    assert ben.page.locator(".row[data-player=Ana] .tag", has_text="called").count() == 1

    # --- the final turns: Ben discards a 6, Cy replaces slot 4 (a 3 comes out) -----------------
    assert ben.press("Draw from the pile") == 200
    ben.open("Discard it face up")
    assert ben.choose("6") == 200
    for p in (ana, cy):
        p.page.locator("#final-turns", has_text="1 turn left").wait_for()
    cy.status("Your turn, Cy")
    assert cy.press("Draw from the pile") == 200
    cy.open("Slot 4")
    assert cy.choose("3") == 200
    for p in phones:
        p.status("Round 1: reveal")
        p.discard_top("3")
    assert ana.page.locator("#final-turns").count() == 0

    # --- reveal: a fifth 8 is refused (GEN-3) and nothing is saved ----------------------------
    before = len(store.entries(database, match.id))
    version = store.get_match(database, match.id).version
    assert ana.reveal("Ana", ["8", "8", "8", "8"], ) == 422
    ruling = ana.page.locator("#ruling")
    ruling.wait_for()
    assert "Refused (GEN-3)" in ruling.inner_text() and "Nothing was saved" in ruling.inner_text()
    assert len(store.entries(database, match.id)) == before
    assert store.get_match(database, match.id).version == version
    ana.version(version)
    ben.version(version)

    # Ben's reveal form knows his slot 1 is the 8 he took from the discard pile
    ben_form = ben.page.locator("form.reveal-form:has(input[name=for][value='Ben'])")
    assert ben_form.locator("input[name=card1]:checked").get_attribute("value") == "8"

    assert ana.reveal("Ana", ["1", "2", "4", "0"]) == 200
    ben.version(version + 1)
    assert ana.page.locator("#ruling").count() == 0
    assert ben.reveal("Ben", ["8", "3", "5", "9"]) == 200
    cy.version(version + 2)
    assert cy.reveal("Cy", ["2", "PEEK", "1", "0"]) == 200
    ana.page.locator("#actions").get_by_role("link", name="Replace Cy's slot 2 from the draw pile").wait_for()

    # --- Cy's Peek is replaced from the draw pile: a 4. The round is scored. ------------------
    ben.open("Replace Cy's slot 2 from the draw pile")
    assert "Which card was drawn for Cy's slot 2?" in ben.page.locator("#pick").inner_text()
    assert ben.choose("4") == 200

    for p in phones:
        p.page.locator("#last-round").wait_for()
    result = ana.page.locator("#last-round")
    rows = {}
    for tr in result.locator("tbody tr").all():
        name = tr.locator("th").inner_text().split()[0]
        rows[name] = (tr.locator(".face").all_inner_texts(), int(tr.locator("td.num").inner_text()),
                      "winner" in (tr.get_attribute("class") or ""))
    assert rows == {
        "Ana": (["1", "2", "4", "0"], 7, False),
        "Ben": (["8", "3", "5", "9"], 25, False),
        "Cy": (["2", "4", "1", "0"], 7, True),
    }
    explanation = result.locator("p").inner_text()
    assert "Ana and Cy tie on 7" in explanation
    # the table's tie rule said in words, not by its setting's name (Cy's win is the row marked above)
    assert "all_lowest_except_caller" not in explanation and "RTC-V1" in explanation
    assert "the caller, Ana, loses the tie" in explanation
    assert "called" in result.locator("tr", has_text="Ana").locator(".tag").inner_text()
    standings = ben.page.locator("#standings").inner_text()
    assert re.search(r"Ana\s+7", standings) and re.search(r"Ben\s+25", standings) and re.search(r"Cy\s+7", standings)
    # the next round is dealt at once and waits for its turn-up
    for p in phones:
        p.status("Round 2")
    ben.page.evaluate("window.scrollTo(0, 0)")  # the round's result comes first
    ben.page.screenshot(path=str(OUT / "reveal-screen.png"))

    # every entry was live: no phone ever reloaded; the log holds exactly the accepted entries
    assert [p.reloads for p in phones] == [0, 0, 0]
    moves = [e["entry"]["move"] for e in store.entries(database, match.id)]
    assert moves == ["turn_up", "draw", "replace", "take_discard", "replace", "draw", "power", "swap",
                     "draw", "discard", "call", "draw", "discard", "draw", "replace",
                     "reveal", "reveal", "reveal", "reveal_draw"]
    for p in phones:
        assert [m for m in p.page.console_messages if "Content Security Policy" in m] == []
        assert p.page.evaluate("document.documentElement.scrollWidth") <= 390
