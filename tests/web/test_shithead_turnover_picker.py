"""Shithead's "Which card did you turn over?" picker (a face-down card, or a face-up card nobody entered): with one
deck it leaves out the cards the table sees elsewhere (the pile, the burned cards, every face-up card, the cards
known to be in a hand), as the lowest-card picker leaves out the face-up cards; with two decks a card stays while
a copy of it is unseen. The referee still checks the card entered (SH-K5)."""
from __future__ import annotations

import re

from referee import store

from .test_shithead_table import FACEUP, ShPhone, set_up

EVERY_CARD = {r + s for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A") for s in "SHDC"}


def offered(phone, seat: str) -> set[str]:
    picker = phone.pick(move="play", seat=seat, field="unseen")
    assert "turn over?" in picker
    return set(re.findall(r'<input type="hidden" name="cards" value="([^"]+)">', picker))


def test_one_deck_leaves_out_the_pile_the_face_up_cards_and_the_known_hand_cards(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {})
    ana, ben, cy = (ShPhone(app, match.id, str(i)) for i in range(3))
    set_up(ana, ben, cy)
    face_up = {c for cards in FACEUP.values() for c in cards}
    cards = offered(ana, "Ana")
    assert cards == EVERY_CARD - face_up, sorted(EVERY_CARD - face_up - cards)
    assert ana.post_cards(["4C"], move="play", rank="4").status_code == 200
    assert ben.post_cards(["8S"], move="play").status_code == 200
    cards = offered(ana, "Ana")
    assert "4C" not in cards and "8S" not in cards  # on the pile
    assert cards == EVERY_CARD - face_up - {"4C", "8S"}
    assert ana.post(move="pickup").status_code == 200  # the pile's cards are now known in Ana's hand (SH-K4)
    for phone, seat in ((ben, "Ben"), (ana, "Ben"), (cy, "Ben")):  # Ben's turn: his picker, on any phone
        cards = offered(phone, seat)
        assert "4C" not in cards and "8S" not in cards and cards == EVERY_CARD - face_up - {"4C", "8S"}


def test_one_deck_leaves_out_the_burned_cards(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {})
    ana, ben, cy = (ShPhone(app, match.id, str(i)) for i in range(3))
    set_up(ana, ben, cy)
    face_up = {c for cards in FACEUP.values() for c in cards}
    assert ana.post_cards(["4C"], move="play", rank="4").status_code == 200
    assert ben.post_cards(["10H"], move="play").status_code == 200  # the 10 burns the pile (SH-13)
    cards = offered(ana, "Ben")
    assert "4C" not in cards and "10H" not in cards  # burned: out of the game
    assert cards == EVERY_CARD - face_up - {"4C", "10H"}


def test_one_deck_with_jokers_keeps_the_joker_while_a_copy_is_unseen(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {"jokers": True})
    ana, ben, cy = (ShPhone(app, match.id, str(i)) for i in range(3))
    assert ana.post_cards(["JOKER", "KD", "AH"], move="faceup").status_code == 200
    assert ben.post_cards(["5H", "6S", "QD"], move="faceup").status_code == 200
    assert cy.post_cards(FACEUP["Cy"], move="faceup").status_code == 200
    assert ana.post(move="start", card="4C").status_code == 200  # Ana's turn: her picker is open
    assert "JOKER" in offered(ana, "Ana")  # a joker is face up; its second copy may still be face down
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {"jokers": True})
    ana, ben, cy = (ShPhone(app, match.id, str(i)) for i in range(3))
    assert ana.post_cards(["JOKER", "KD", "AH"], move="faceup").status_code == 200
    assert ben.post_cards(["JOKER", "6S", "QD"], move="faceup").status_code == 200
    assert cy.post_cards(FACEUP["Cy"], move="faceup").status_code == 200
    assert ana.post(move="start", card="4C").status_code == 200
    cards = offered(ana, "Ana")
    assert "JOKER" not in cards and "KD" not in cards and "6S" not in cards


def test_two_decks_offer_every_card(app, database):
    players = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]  # six players: two decks (SH-V9)
    match = store.create_match(database, "shithead", players, {})
    ana = ShPhone(app, match.id, "0")
    for name, cards in {**FACEUP, "Dee": ["2S", "3S", "5S"], "Eve": ["2H", "3H", "5D"],
                        "Fay": ["2D", "3D", "5C"]}.items():
        assert ana.post_cards(cards, move="faceup", **{"for": name}).status_code == 200
    assert ana.post(move="start", card="4C").status_code == 200  # Ana's turn: her picker is open
    assert offered(ana, "Ana") >= EVERY_CARD  # a 9♠ is face up; the other deck's may be turned over
