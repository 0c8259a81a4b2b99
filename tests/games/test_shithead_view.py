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
from referee.games.shithead_rules import deck  # noqa: E402

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
