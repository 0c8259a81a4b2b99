"""A card drawn from the pile may be noted by the drawer (RTC-K12: it is theirs alone): one more tap, the
card; their phone shows it held and, once put into a place, as "only you know this"; no other phone, and
no other phone's transcript, has it. The phone for everyone offers no such note."""
from __future__ import annotations

import json

import pytest

from referee import store

from .test_cabo_table import CAMBIO, CaboPhone, rows_of


def transcript(phone) -> str:
    return phone.client.get(f"{phone.url}/transcript.json").get_data(as_text=True)


@pytest.mark.parametrize("rules, turned, drawn, first_pick", [
    ({"rounds_n": 1}, "5", "7", {}),          # Rat-a-Tat Cat: the cards 0 to 9 and the power cards at once
    (CAMBIO, "5H", "7S", {"rank": "7"}),     # Cambio, a standard deck: the rank, then the suit
], ids=["ratatat", "cambio"])
def test_RTC_K12_the_drawer_notes_the_card_drawn_and_only_their_phone_knows_it(app, database, rules, turned, drawn,
                                                                      first_pick):
    game = "cabo" if rules is CAMBIO else "ratatat"
    match = store.create_match(database, game, ["Ana", "Ben"], rules)
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ana.ok(move="turn_up", card=turned)
    assert "Draw and note the card (only you will see it)" in ana.screen()
    picker = ana.pick(move="draw", field="card", **first_pick)
    assert "Which card did you draw? (only you will see this)" in picker and f'value="{drawn}"' in picker
    screen = ana.ok(move="draw", card=drawn)
    assert "holds a card from the draw pile" in screen and "only you know this" in screen
    assert "only you know this" not in ben.screen()
    assert json.dumps(drawn) in transcript(ana) and json.dumps(drawn) not in transcript(ben)
    screen = ana.ok(move="replace", slot="2", out="8" if game == "ratatat" else "8D")
    assert "only you know this" in rows_of(screen) if game == "cabo" else "only you know this" in screen
    assert "only you know this" not in ben.screen()


def test_the_phone_for_everyone_offers_no_private_note_of_a_draw(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    shared = CaboPhone(app, match.id, "shared")
    shared.ok(move="turn_up", card="5")
    screen = shared.screen()
    assert "Draw from the pile" in screen and "Draw and note the card" not in screen


def test_RTC_K12_the_draws_of_a_draw_2_may_be_noted_too(app, database):
    """Ana shows a Draw 2 (RTC-34): "Use the Draw 2, draw and note the card" notes the first card drawn on
    her phone alone; "Discard it and draw again", with the next card noted, notes the second. Ben's phone and
    transcript have neither; the phone for everyone may not note them (403, nothing stored)."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ana.ok(move="turn_up", card="5")
    ana.ok(move="draw")
    screen = ana.screen()
    assert "Use the Draw 2, draw and note the card (only you will see it)" in screen
    assert 'name="then_card" value="4"' in screen
    screen = ana.ok(move="power", card="DRAW2", then="draw", then_card="4")
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "draw", "seat": "Ana", "card": "4"}
    assert "only you know this" in screen and "only you know this" not in ben.screen()
    picker = ana.pick(move="discard", field="card", then="draw")
    assert "…and note the card you draw next (only you will see it)" in picker and 'name="then_card"' in picker
    ana.ok(move="discard", card="4", then="draw", then_card="6")
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "draw", "seat": "Ana", "card": "6"}
    assert '"6"' in transcript(ana) and '"6"' not in transcript(ben)
    shared = CaboPhone(app, match.id, "shared")
    before = len(store.entries(database, match.id))
    refused = shared.post(move="replace", slot="1", out="9", **{"for": "Ana"})
    assert refused.status_code == 200  # (the tablet may enter Ana's replace: nothing private in it)
    shared.ok(move="draw", **{"for": "Ben"})
    shared.ok(move="discard", card="3", **{"for": "Ben"})
    ana.ok(move="draw")
    assert "Use the Draw 2, draw and note" not in shared.screen()
    refused = shared.post(move="power", card="DRAW2", then="draw", then_card="2", **{"for": "Ana"})
    assert refused.status_code == 403 and "A card drawn is noted only on the drawer" in refused.get_data(as_text=True)
    assert len(store.entries(database, match.id)) == before + 4
