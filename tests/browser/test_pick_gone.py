"""What a phone had started to enter, taken away by another phone's entry (a snap closed by the next
player's draw), is not dropped without a word: the phone says so with that entry's words, and the keyboard
that was in the picker lands on them; a button taken away leaves the keyboard on the turn heading
(Chromium at 390x844, the real server)."""
from __future__ import annotations

import pytest

from referee import store

from .conftest import wait_for_subscribers
from .test_cabo_round import CAMBIO, NAMES, seated

pytestmark = pytest.mark.browser


def _ana_replacing_her_place_1(live_server, phone, database):
    """A Cambio table on three phones: Ana has turned up a 5♥, drawn, and opened the card out of her place 1."""
    match = store.create_match(database, "cabo", list(NAMES), CAMBIO)
    ana, ben, cy = (seated(phone, live_server, match, name) for name in NAMES)
    wait_for_subscribers(match.id, 3, timeout=20.0)
    ana.link("Turn up the top card")
    assert ana.card("5♥") == 200
    assert ana.button("Draw from the pile") == 200
    ana.link("Place 1")
    return match, ana, ben, cy


def test_a_snap_picker_closed_by_the_next_turn_is_said_so(live_server, phone, database):
    match, ana, ben, cy = _ana_replacing_her_place_1(live_server, phone, database)
    assert ana.card("9♠") == 200
    cy.page.locator("#snap").get_by_role("link", name="Snap!").wait_for()
    cy.link("Snap!", "#snap")
    cy.link("Place 4", "#pick")
    assert cy.page.evaluate("document.getElementById('pick').contains(document.activeElement)")
    ben.page.locator("#screen [data-version='3']").wait_for()
    assert ben.button("Draw from the pile") == 200  # the next player's move: no snap any more (CAB-6)
    note = cy.page.locator("#flash .pick-gone")
    note.wait_for()
    words = note.inner_text()
    assert "can no longer be entered" in words and "Last entry: Ben draws" in words, words
    assert cy.page.locator("#pick").count() == 0
    assert cy.page.evaluate("document.activeElement.classList.contains('pick-gone')")
    # Only the phone whose picker went is told.
    assert ana.page.locator("#pick").count() == 0 and ben.page.locator("#flash .pick-gone").count() == 0
    # The next entry from another phone makes the notice stale: it goes, the keyboard to the turn heading.
    ben.link("Place 2")
    assert ben.card("4♣") == 200
    cy.page.locator("#flash .pick-gone").wait_for(state="detached")
    cy.page.wait_for_function("document.activeElement && document.activeElement.id === 'status'")


def test_a_button_taken_away_by_another_phones_entry_leaves_the_keyboard_on_the_turn_heading(live_server, phone,
                                                                                             database):
    """Ana's keyboard is on her "Draw from the pile" when the phone for everyone makes that draw for her: her
    redrawn screen has no such button, and the keyboard lands on the turn heading, not the top of the page."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    ana = seated(phone, live_server, match, "Ana")
    tablet = live_server.app.test_client()
    hx = {"Origin": "http://localhost", "HX-Request": "true"}
    tablet.post(f"/m/{match.id}/seat", data={"seat": "shared"}, headers=hx)
    assert tablet.post(f"/m/{match.id}/entry", data={"version": "0", "move": "turn_up", "card": "5"},
                       headers=hx).status_code == 200
    wait_for_subscribers(match.id, 1, timeout=20.0)
    ana.page.locator("#screen [data-version='1']").wait_for()
    draw = ana.page.locator("#actions").get_by_role("button", name="Draw from the pile")
    draw.focus()
    assert tablet.post(f"/m/{match.id}/entry", data={"version": "1", "move": "draw", "for": "Ana"},
                       headers=hx).status_code == 200
    ana.page.locator("#screen [data-version='2']").wait_for()
    ana.page.wait_for_function("document.activeElement && document.activeElement.id === 'status'")


def test_a_player_taking_her_seat_takes_her_first_look_off_the_phone_for_everyone(live_server, phone, database):
    """The tablet offers a first look for every player who plays on it; Nora then sits down with her own
    phone. The doorbell rings at the same version: the tablet's screen was drawn for the same version and the
    same "phone for everyone", so it was answered "nothing changed" and kept offering Nora's first look (a
    tap refused, 403) until reloaded."""
    from .test_cabo_round import CAMBIO

    match = store.create_match(database, "cabo", ["Grandpa", "Ben", "Nora"], CAMBIO)
    tablet = phone()
    tablet.goto(f"{live_server.url}/m/{match.id}")
    tablet.get_by_role("button", name="One phone for everyone").click()
    tablet.locator("#seat-picker").wait_for(state="detached")
    wait_for_subscribers(match.id, 1, timeout=20.0)
    look = tablet.locator("#actions").get_by_text("Note Nora's first look")
    assert look.count() == 1
    seated(phone, live_server, match, "Nora")
    look.wait_for(state="detached")
    assert tablet.locator("#actions").get_by_text("Note Ben's first look").count() == 1


def test_a_phone_whose_own_entry_was_saved_but_its_answer_lost_is_told_it_was_saved(live_server, phone, database):
    """Ana's replacement reaches the referee and is saved, but its answer is lost on the way back (the Wi-Fi
    dropped): the doorbell of her own entry redraws her screen without the picker. She is told her entry was
    saved, with its words (she was told another phone's entry had taken her choice away, and would have
    entered it again, or undone it)."""
    match, ana, _, _ = _ana_replacing_her_place_1(live_server, phone, database)

    def lost(route):
        route.fetch()  # the referee gets it and saves it ...
        route.abort("internetdisconnected")  # ... and its answer never arrives

    ana.page.locator("#pick").get_by_role("link", name="9", exact=True).click()
    ana.page.locator("#pick[data-pick*='rank=9']").wait_for()
    ana.page.route("**/entry", lost)
    ana.page.locator("#pick").get_by_role("button", name="9♠", exact=True).click()
    note = ana.page.locator("#flash .pick-gone")
    note.wait_for()
    words = note.inner_text()
    assert "Your entry was saved" in words and "Last entry: Ana" in words, words
    assert "another phone" not in words
    assert len(store.entries(database, match.id)) == 3
