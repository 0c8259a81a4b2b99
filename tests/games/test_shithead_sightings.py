"""SH-K5 / GEN-13: a card every copy of which the table has already seen elsewhere is refused, and the
ruling says where each copy is ("Mom's face-up cards", "the pile", "the burned cards", "Dad's hand") and
points at the entries that put them there."""
from __future__ import annotations

import os
import random
import sys
from collections import Counter

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from shithead_helpers import ARI, BEA, CAL, DOV, refused, table  # noqa: E402

from referee.games import shithead as sh  # noqa: E402

MOM, DAD = 0, 1


def _evening():
    """Mom and Dad's table: Mom's face-up K♦ 5♠ 9♥ (entry 0), Dad's 4♣ 6♦ J♠ (entry 1); Dad starts (entry 2)."""
    state = sh.new_match(("Mom", "Dad"))
    for move in (sh.FaceUp(MOM, ("KD", "5S", "9H")), sh.FaceUp(DAD, ("4C", "6D", "JS")), sh.Start(DAD, None)):
        state, _ = sh.apply(state, move)
    return state


def test_SH_T30_a_card_face_up_elsewhere_points_at_the_entry_that_put_it_there():
    ruling = refused(_evening(), sh.Play(DAD, ("KD",)))
    assert ruling.rule == "SH-K5" and ruling.overridable
    assert ruling.message == ("Every K♦ is already somewhere else on the table (Mom's face-up cards): this must be a "
                              "mis-tap or a misread photo.")
    assert ruling.entries == (3, 0)  # the entry refused, then Mom's face-up cards


def test_SH_T30_a_seven_burned_or_on_the_pile_points_at_the_play_that_put_it_there():
    state = _evening()
    for move in (sh.Play(DAD, ("7H",)), sh.Play(MOM, ("7S",)), sh.Play(DAD, ("10C",)), sh.Play(DAD, ("7D",))):
        state, _ = sh.apply(state, move)  # entries 3..6: 7♥ and 7♠ burned by the 10♣, then 7♦ on the pile
    burned = refused(state, sh.Play(MOM, ("7H",)))
    assert burned.rule == "SH-K5" and "(the burned cards)" in burned.message and burned.entries == (7, 3)
    on_pile = refused(state, sh.Play(MOM, ("7D",)))
    assert "(the pile)" in on_pile.message and on_pile.entries == (7, 6)


def test_SH_K5_each_copy_of_two_decks_is_pointed_at():
    state = table(6, plays=[(CAL, "QS")], burned=("QS",), turn=ARI)
    assert state.decks == 2
    ruling = refused(state, sh.Play(ARI, ("QS",)))
    assert ruling.rule == "SH-K5"
    assert ruling.message == ("Every Q♠ is already somewhere else on the table (the pile, the burned cards): this must "
                              "be a mis-tap or a misread photo.")


def test_SH_K5_a_card_picked_up_is_in_that_players_hand():
    state = _evening()
    for move in (sh.Play(DAD, ("AH",)), sh.Pickup(MOM)):
        state, _ = sh.apply(state, move)  # entry 4: Mom picks up the A♥
    ruling = refused(state, sh.Play(DAD, ("AH",)))
    assert "(Mom's hand)" in ruling.message and ruling.entries == (5, 4)
    state, _ = sh.apply(state, sh.Play(DAD, ("5C",)))  # Mom may play the A♥ she holds: it is hers
    state, _ = sh.apply(state, sh.Play(MOM, ("AH",)))
    assert not any(mark[2] == "AH" for mark in state.placed)


@pytest.mark.parametrize("seed", range(6))
def test_GEN_12_every_card_the_table_placed_is_marked_where_it_is(seed):
    """Over whole games, the marks follow the cards: each seat's face-up cards and known hand cards, and the
    burned cards, each with the entry that put it there."""
    from shithead_sim import Table

    rules = [{}, {"faceup_play": "same_rank_set", "faceup_fail_takes_card": False}, {"jokers": True},
             {"games": 2}, {"decks": 2}, {"three_is_normal": True}][seed]
    t = Table(("Ana", "Ben", "Cy", "Dov")[:2 + seed % 3], rules, seed)
    rng = random.Random(seed)
    for _ in range(3000):
        moves = t.honest_entries()
        if not moves:
            break
        t.enter(rng.choice(moves))
        s = t.state
        assert len(s.burned_at) == len(s.burned)
        for i, st in enumerate(s.seats):
            faceup = Counter(c for x, z, c, _ in s.placed if x == i and z == "faceup")
            hand = Counter(c for x, z, c, _ in s.placed if x == i and z == "hand")
            assert faceup == Counter(c for c in st.faceup if c is not None), (i, st, s.placed)
            assert hand == Counter(st.known), (i, st, s.placed)
        assert all(0 <= e < t.entries for *_, e in s.placed)


def test_an_unknown_place_is_still_said_without_an_entry():
    """A table laid out by hand has no entries to point at: the place is said all the same."""
    from referee.games.shithead_state import Seat

    state = table(plays=[(CAL, "7H"), (DOV, "7S")], burned=("7D",), seats={BEA: Seat(3, (), ("7C", "KD", "KS"), 3, True)})
    ruling = refused(state, sh.Play(ARI, ("7C",)))
    assert ruling.message == ("Every 7♣ is already somewhere else on the table (Bea's face-up cards): this must be a "
                              "mis-tap or a misread photo.")
    assert ruling.entries == (0,)


def test_GEN_5_an_overridden_SH_K5_is_recorded_once_with_its_entries():
    from referee.games.base import Override

    state, events = sh.apply(_evening(), Override(sh.Play(DAD, ("KD",)), "SH-K5", "a second deck's K♦", DAD))
    assert [e["kind"] for e in events].count("overridden") == 1
    eid, rule, _, _, message, entries = state.overrides[-1]
    assert rule == "SH-K5" and "(Mom's face-up cards)" in message and entries == (3, 0)
