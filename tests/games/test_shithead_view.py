"""What a Shithead phone's pickers offer (``shithead_view``): for a swap before play (SH-3), the face-up
card to give up is one of the seat's own face-up cards, and the card put face up from the hand is any card
that hand may still hold (its known cards, and while some of it is unseen, every card the table has not
seen all copies of, GEN-3): never a card lying face up, its own or another player's."""
from __future__ import annotations

import os
import sys
import pytest

sys.path.insert(0, os.path.dirname(__file__))
from shithead_helpers import go  # noqa: E402

from referee.games import shithead as sh  # noqa: E402
from referee.games.base import Ruling  # noqa: E402
from referee.games.shithead_rules import deck, natural  # noqa: E402

MOM, DAD = 0, 1
MOM_UP, DAD_UP = ("KD", "5S", "9H"), ("4C", "6D", "JS")


def _set_up(rules=None, dad_up=DAD_UP, players=("Mom", "Dad")):
    state = sh.new_match(players, rules)
    for seat, cards in ((MOM, MOM_UP), (DAD, dad_up)):
        state = go(state, sh.FaceUp(seat, cards))
    return state


def _swap(state, seat=DAD, name="Dad"):
    return sh.view(state, seat)["choices"][name]["swap"]


def test_SH_3_the_swap_offers_the_seats_own_face_up_cards_and_no_face_up_card_as_a_hand_card():
    swap = _swap(_set_up())
    assert swap["out"] == ["4C", "6D", "JS"]
    assert not set(swap["card"]) & set(MOM_UP + DAD_UP)
    assert set(swap["card"]) == set(sh.cards(_set_up())) - set(MOM_UP + DAD_UP)
    assert len(swap["card"]) == 46


def test_SH_3_after_a_swap_the_card_taken_into_the_hand_may_go_face_up_again_and_the_one_put_face_up_may_not():
    state = go(_set_up(), sh.Swap(DAD, "2C", "4C"))
    swap = _swap(state)
    assert swap["out"] == ["2C", "6D", "JS"]
    assert "4C" in swap["card"] and "2C" not in swap["card"]
    assert sh.view(state, MOM)["choices"]["Mom"]["swap"]["card"].count("4C") == 0  # Dad's hand holds it


def test_SH_K4_a_hand_the_table_knows_whole_offers_only_its_known_cards():
    state = go(_set_up(), sh.Swap(DAD, "2C", "4C"), sh.Swap(DAD, "2H", "6D"), sh.Swap(DAD, "2S", "JS"))
    assert state.seats[DAD].unknown == 0
    assert sorted(_swap(state)["card"]) == ["4C", "6D", "JS"]


def test_SH_V9_with_two_decks_a_card_face_up_may_have_its_twin_in_the_hand():
    players = ("Mom", "Dad", "Cy", "Di", "Ed", "Flo")
    state = _set_up(players=players)
    assert state.decks == 2
    swap = _swap(state)
    assert "4C" in swap["card"] and "KD" in swap["card"]


def test_GEN_14_a_face_up_card_nobody_entered_is_offered_as_unknown():
    swap = _swap(_set_up(dad_up=(None, "6D", "JS")))
    assert swap["out"] == ["unknown", "6D", "JS"]


def test_SH_V7_and_SH_2_no_swap_is_offered_without_swapping_before_the_face_up_cards_or_once_play_started():
    assert "swap" in sh.view(_set_up(), DAD)["choices"]["Dad"]
    assert "swap" not in sh.view(_set_up({"faceup_swap_allowed": False}), DAD)["choices"].get("Dad", {})
    assert "swap" not in sh.view(sh.new_match(("Mom", "Dad")), DAD)["choices"].get("Dad", {})
    started = go(_set_up(), sh.Start(DAD, "4H"))
    assert all("swap" not in c for c in sh.view(started, DAD)["choices"].values())


@pytest.mark.parametrize("rules", [{}, {"jokers": True}])
def test_SH_3_every_swap_the_picker_offers_is_accepted(rules):
    """Each face-up card offered with each hand card offered: the referee accepts every pair."""
    state = go(_set_up(rules), sh.Swap(DAD, "2C", "4C"))
    swap = _swap(state)
    for out in swap["out"]:
        for card in swap["card"]:
            try:
                after, _ = sh.apply(state, sh.Swap(DAD, card, None if out == "unknown" else out))
            except Ruling as ruling:  # pragma: no cover - the failure says which
                pytest.fail(f"{card} for {out}: {ruling.rule} {ruling.message}")
            copies = deck(after.decks, after.rules)
            assert all(n <= copies[c] for c, n in after.seen().items()), (card, out)  # GEN-3 holds
            assert card in after.seats[DAD].faceup


# --- The face-up cards (SH-2) and the starter's lowest card (SH-4) -----------------------------------------

def _faceup(state, seat, name):
    return sh.view(state, seat)["choices"][name].get("faceup")


def test_SH_2_the_face_up_form_offers_unknown_and_only_cards_not_seen_elsewhere():
    state = go(sh.new_match(("Mom", "Dad")), sh.FaceUp(MOM, MOM_UP))
    offer = _faceup(state, DAD, "Dad")
    assert offer[0] == "unknown"  # a card nobody could see (GEN-14)
    assert not set(offer) & set(MOM_UP)
    assert set(offer[1:]) == set(sh.cards(state)) - set(MOM_UP) and len(offer) == 1 + 49
    assert _faceup(state, MOM, "Mom") is None  # Mom's are entered


def test_SH_2_a_card_swapped_into_a_hand_is_not_offered_as_another_players_face_up_card():
    state = go(sh.new_match(("Mom", "Dad", "Cy")), sh.FaceUp(MOM, MOM_UP), sh.FaceUp(2, ("2C", "3C", "4C")),
               sh.Swap(MOM, "QH", "KD"))
    offer = _faceup(state, DAD, "Dad")
    assert "KD" not in offer and "QH" not in offer and "5S" not in offer and "unknown" in offer


def test_SH_V9_with_two_decks_a_face_up_card_may_have_its_twin_face_up_elsewhere():
    state = go(sh.new_match(("Mom", "Dad", "Cy", "Di", "Ed", "Flo")), sh.FaceUp(MOM, MOM_UP))
    assert "KD" in _faceup(state, DAD, "Dad")


@pytest.mark.parametrize("rules", [{}, {"jokers": True}])
def test_SH_2_every_face_up_card_the_form_offers_is_accepted(rules):
    state = go(sh.new_match(("Mom", "Dad"), rules), sh.FaceUp(MOM, MOM_UP), sh.Swap(MOM, "2C", "KD"))
    offer = _faceup(state, DAD, "Dad")
    for card in offer:
        c = None if card == "unknown" else card
        try:
            sh.apply(state, sh.FaceUp(DAD, (c, None, None)))
        except Ruling as ruling:  # pragma: no cover - the failure says which
            pytest.fail(f"{card}: {ruling.rule} {ruling.message}")


def _start(state, seat=DAD, name="Dad"):
    return sh.view(state, seat)["choices"][name].get("start")


def test_SH_4_the_starter_picker_offers_no_card_known_in_another_players_hand():
    """Mom swapped her K♦ into her hand and the 2♣ face up: Dad cannot show the K♦, nor any card face up."""
    state = go(_set_up(), sh.Swap(MOM, "2C", "KD"))
    offer = _start(state)
    assert "KD" not in offer, "the K♦ is known in Mom's hand"
    assert not set(offer) & {"2C", "5S", "9H", *DAD_UP}
    assert "QH" in offer and "JOKER" not in offer
    assert all(natural(c[:-1], state.rules) for c in offer)
    assert "KD" in _start(state, MOM, "Mom")  # Mom holds it


def test_SH_K4_a_hand_the_table_knows_whole_may_show_only_its_known_cards():
    state = go(_set_up(), sh.Swap(DAD, "5C", "4C"), sh.Swap(DAD, "5H", "6D"), sh.Swap(DAD, "5D", "JS"))
    assert state.seats[DAD].unknown == 0
    assert _start(state) == ["4C", "6D", "JS"]


def test_SH_V19_the_starter_may_show_an_own_face_up_card_with_hand_and_faceup():
    assert "4C" not in _start(_set_up())
    assert "4C" in _start(_set_up({"start_rank_zones": "hand_and_faceup"}))
    assert "KD" not in _start(_set_up({"start_rank_zones": "hand_and_faceup"}))  # Mom's, not Dad's


def test_SH_V11_only_the_dealers_left_is_offered_a_start_there():
    state = _set_up({"start_rank_rule": "dealer_left"})
    left = (state.dealer + 1) % 2
    names = ("Mom", "Dad")
    assert _start(state, left, names[left]) and _start(state, 1 - left, names[1 - left]) is None


@pytest.mark.parametrize("rules", [{}, {"jokers": True}, {"start_rank_zones": "hand_and_faceup"},
                                   {"three_is_normal": True}])
def test_SH_4_every_lowest_card_the_starter_picker_offers_is_accepted(rules):
    state = go(_set_up(rules), sh.Swap(MOM, "2C", "KD"))
    for card in _start(state):
        try:
            sh.apply(state, sh.Start(DAD, card))
        except Ruling as ruling:  # pragma: no cover - the failure says which
            pytest.fail(f"{card}: {ruling.rule} {ruling.message}")
