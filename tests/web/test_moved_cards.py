"""A player's own phone says plainly when another player's entry moved their face-down cards (a swap, a
look-and-swap, a card snapped away and the card given for it), until they have played again."""
from __future__ import annotations

import re

from referee import store

from .test_cabo_table import CAMBIO, CaboPhone
from .test_play import Phone, text


def moved(screen: str) -> str:
    found = re.search(r'<div class="notice moved" id="cards-moved">(.*?)</div>', screen, re.S)
    return found.group(1) if found else ""


def test_RTC_32_a_swap_is_said_on_the_phone_whose_card_moved_until_its_next_turn(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    ana, ben, cy = (Phone(app, match.id, str(seat)) for seat in range(3))
    screen = lambda phone: text(phone.client.get(f"/m/{match.id}/screen", headers={"HX-Request": "true"}))  # noqa: E731
    for phone, fields in [(ana, {"move": "turn_up", "card": "5"}), (ana, {"move": "draw"}),
                          (ana, {"move": "replace", "slot": "2", "out": "8"}),
                          (ben, {"move": "draw"}), (ben, {"move": "power", "card": "SWAP"}),
                          (ben, {"move": "swap", "slot": "1", "target": "Ana", "target_slot": "3"})]:
        assert phone.post(**fields).status_code == 200, fields
    said = moved(screen(ana))
    assert "Your cards were moved since your last turn" in said
    assert "Ben swaps" in said and "Ana" in said and 'href="/m/%s/history?at=5#e5"' % match.id in said
    # Ben made the swap and Cy's cards did not move: neither is told anything.
    assert moved(screen(ben)) == "" and moved(screen(cy)) == ""
    cy.post(move="draw")
    cy.post(move="discard", card="7")
    # Ana's own turn starts: still said while she plays it (she decides where her card goes) …
    ana.post(move="draw")
    assert "Ben swaps" in moved(screen(ana))
    ana.post(move="discard", card="6")
    # … and no longer once she has played (it stayed until the next player's entry)
    assert moved(screen(ana)) == ""
    ben.post(move="draw")
    assert moved(screen(ana)) == ""


def test_CAB_6_CAB_7_a_snap_of_your_card_the_card_given_for_it_and_a_look_and_swap_are_said(app, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben", "Cy"], CAMBIO)
    ana, ben, cy = (CaboPhone(app, match.id, str(seat)) for seat in range(3))
    ana.ok(move="turn_up", card="5H")
    ana.ok(move="draw")
    ana.ok(move="power", card="KS")
    cy.ok(move="snap", slot="1", owner="Ben", card="KC")
    said = moved(ben.screen())
    assert "Cy snaps Ben&#39;s place 1" in said and "gives" not in said
    cy.ok(move="give", slot="4")
    said = moved(ben.screen())
    assert said.index("Cy gives the card in their place 4") < said.index("Cy snaps Ben&#39;s place 1")  # latest first
    ana.ok(move="look_swap", slot="3", target="Ben", target_slot="2", seen="QH", target_seen="2D", swap="1")
    said = moved(ben.screen())
    assert said.count("<li>") == 3 and "Ana looks at their place 3 and Ben&#39;s place 2, and swaps them" in said
    assert "Q♥" not in said and "2♦" not in said  # what Ana saw stays on Ana's phone
    # Cy snapped and gave; Ana's cards moved only by her own entry: nothing to say to either.
    assert moved(cy.screen()) == "" and moved(ana.screen()) == ""


def test_CAB_7_a_look_that_keeps_the_cards_where_they_are_moves_nothing(app, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ana.ok(move="turn_up", card="5H")
    ana.ok(move="draw")
    ana.ok(move="power", card="KS")
    ana.ok(move="look_swap", slot="3", target="Ben", target_slot="2", seen="QH", target_seen="2D")
    assert moved(ben.screen()) == ""
