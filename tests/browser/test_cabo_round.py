"""A Cambio round on three phones (Chromium at 390x844, the real server), every entry made by tapping:
the turn-up, a first look noted privately, a draw put into a place, a snap race (two phones snap the same
discard: exactly one is saved, the other phone is told which entry came first), the give, a Peek, a
discard, the call, the last turns and the reveal, scored on every phone. No screen is wider than the phone."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee import store

from .conftest import wait_for_subscribers

pytestmark = pytest.mark.browser

TIMEOUT = 10_000
OUT = Path(__file__).resolve().parents[2] / "benchmarks" / "out"
NAMES = ("Ana", "Ben", "Cy")
CAMBIO = {"deck": "standard_jokers", "initial_look": "nearest_two", "matching_exchange": "off",
          "snap_enabled": True, "discard_taken_face_up": False, "round_score": "plain",
          "tie_policy": "all_lowest_except_caller", "kamikaze": False, "exact_100_reset": "off",
          "game_end": "rounds", "deck_out_ends_round": False, "next_round_order": "clockwise", "rounds_n": 1}


@pytest.fixture
def app_config(app_config):
    return {**app_config, "SSE_MAX_LIFETIME": 120.0}


class Phone:
    def __init__(self, page, name: str):
        self.page, self.name = page, name
        page.set_default_timeout(TIMEOUT)

    def entry(self, tap) -> int:
        with self.page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/entry")) as answer:
            tap()
        return answer.value.status

    def link(self, name: str, where: str = "#actions") -> None:
        self.page.locator(where).get_by_role("link", name=name, exact=True).first.click()
        self.page.locator("#pick").wait_for()

    def button(self, name: str, where: str = "#actions") -> int:
        return self.entry(self.page.locator(where).get_by_role("button", name=name, exact=True).click)

    def card(self, name: str) -> int:
        """A standard-deck card: its rank, then the card (the joker directly)."""
        if name != "Joker":
            self.page.locator("#pick").get_by_role("link", name=name[:-1], exact=True).click()
            self.page.locator(f"#pick[data-pick*='rank={name[:-1]}']").wait_for()
        return self.button(name, "#pick")

    def fits(self) -> None:
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (self.name, width)


def seated(phone, live_server, match, name: str) -> Phone:
    """A phone that joined by the table's code and took ``name``'s seat."""
    p = Phone(phone(), name)
    p.page.goto(f"{live_server.url}/j/{match.join_code}")
    p.page.wait_for_url(f"**/m/{match.id}")
    p.page.locator("#seat-picker").get_by_role("button", name=name, exact=True).click()
    p.page.locator("#seat-picker").wait_for(state="detached")
    return p


def test_a_cambio_round_on_three_phones_with_a_snap_race(live_server, phone, database):
    match = store.create_match(database, "cabo", list(NAMES), CAMBIO)
    phones = [seated(phone, live_server, match, name) for name in NAMES]
    ana, ben, cy = phones
    for p in phones:
        p.page.locator("#screen [data-version='0']").wait_for()
    wait_for_subscribers(match.id, 3, timeout=20.0)
    version = 0

    def synced():
        for p in phones:
            p.page.locator(f"#screen [data-version='{version}']").wait_for()

    def step(status):
        nonlocal version
        assert status == 200
        version += 1
        synced()

    ana.link("Turn up the top card")
    step(ana.card("5♥"))
    peek = ana.page.locator("details.peek-note")
    peek.locator("summary").click()
    peek.locator("select[name='seen1']").select_option(label="2♣")
    peek.locator("select[name='seen2']").select_option(label="K♥")
    step(ana.entry(peek.get_by_role("button", name="Save my look").click))
    assert "2♣" in ana.page.locator("#rows").inner_text() and "2♣" not in ben.page.locator("#rows").inner_text()
    step(ana.button("Draw from the pile"))
    ana.link("Place 1")
    step(ana.card("9♠"))
    for p in phones:
        p.page.locator("#snap").get_by_role("link", name="Snap!").wait_for()
        p.fits()
    for p in (ben, cy):  # a snap is a race: a screen reader hears it is open
        p.page.wait_for_function("document.getElementById('announcer').textContent.includes('Snap open on the 9')")
    OUT.mkdir(parents=True, exist_ok=True)
    ben.page.screenshot(path=str(OUT / "cabo-snap-open.png"), full_page=True)

    # The race: Cy's snap is on its way, held in the network, while Ben's reaches the server first.
    cy.link("Snap!", "#snap")
    cy.link("Place 4", "#pick")
    held = []
    cy.page.route("**/entry", lambda route: held.append(route))
    cy.page.locator("#pick").get_by_role("link", name="9", exact=True).click()
    cy.page.locator("#pick[data-pick*='rank=9']").wait_for()
    cy.page.locator("#pick").get_by_role("button", name="9♦", exact=True).click()
    while not held:
        cy.page.wait_for_timeout(20)
    ben.link("Snap!", "#snap")
    ben.link("Cy's place 2", "#pick")
    assert ben.card("9♣") == 200
    cy.page.locator(f"#screen [data-version='{version + 1}']").wait_for()
    with cy.page.expect_response(lambda r: r.url.endswith("/entry")) as late:
        held[0].continue_()
    cy.page.unroute("**/entry")
    assert late.value.status == 409
    notice = cy.page.locator(".notice", has_text="Someone else entered something first")
    notice.wait_for()
    assert "Ben snaps Cy's place 2" in notice.inner_text()
    assert store.get_match(database, match.id).version == version + 1
    cy.page.screenshot(path=str(OUT / "cabo-snap-lost.png"), full_page=True)
    version += 1
    synced()

    step(ben.button("My place 1"))
    step(ben.button("Draw from the pile"))
    ben.link("Show it and use its power")
    step(ben.button("7♦", "#pick"))  # only the cards with a power are offered
    ben.link("Place 3")
    step(ben.card("4♠"))
    assert "4♠" in ben.page.locator("#rows").inner_text() and "4♠" not in ana.page.locator("#rows").inner_text()
    step(cy.button("Draw from the pile"))
    cy.link("Discard it face up")
    step(cy.card("3♦"))
    ana.page.locator("#actions summary", has_text="Call “Cambio!”").click()
    step(ana.button("Yes, Ana calls Cambio"))
    step(ben.button("Draw from the pile"))
    ben.link("Discard it face up")
    step(ben.card("2♥"))
    step(cy.button("Draw from the pile"))
    cy.link("Place 1")
    step(cy.card("6♣"))

    for p, cards in ((ana, ("A♠", "3♣", "2♣", "K♥")), (ben, ("10♦", "4♠", "Joker")), (cy, ("7♣", "Q♥", "8♥", "K♠"))):
        form = p.page.locator(f"#reveal-{p.name} form")
        for i, label in enumerate(cards, start=1):
            form.locator(f"select[name='card{i}']").select_option(label=label)
        p.fits()
        step(p.entry(form.get_by_role("button", name=f"Reveal {p.name}").click))
    for p in phones:
        p.page.locator("#last-round h2", has_text="Ana wins").wait_for()
        assert re.search(r"Match over", p.page.locator("#status").inner_text())
        p.fits()
    outcome = ben.page.locator(".status .outcome").inner_text()
    said = ben.page.locator("#announcer").text_content()  # the match's winner first, then the round's result
    assert said.startswith("Last entry: Cy reveals") and "Match over. " in said  # Cy's reveal, then what it did
    assert outcome in said and said.index("Match over") < said.index(outcome) < said.index("Round 1: Ana wins")
    assert ".." not in said
    ana.page.screenshot(path=str(OUT / "cabo-round-over.png"), full_page=True)
    assert store.get_match(database, match.id).version == version
