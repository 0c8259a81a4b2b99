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
from shithead_helpers import ARI, BEA, CAL, DOV, go, refused, table  # noqa: E402

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


# --- A swap before play (SH-3) naming a card the table has already seen elsewhere (GEN-3) ---------------

def _set_up(dad_faceup=("4C", "6D", "JS")):
    """Mom's face-up K♦ 5♠ 9♥ (entry 0) and Dad's (entry 1); nobody has started: the swaps are open."""
    state = sh.new_match(("Mom", "Dad"))
    for move in (sh.FaceUp(MOM, ("KD", "5S", "9H")), sh.FaceUp(DAD, dad_faceup)):
        state, _ = sh.apply(state, move)
    return state


def test_SH_T30_a_swap_putting_face_up_a_hand_card_seen_elsewhere_is_refused_as_a_swap():
    """Every K♦ lies face up before Mom: Dad cannot have one in the hand to swap face up. Conservation
    (GEN-3) refuses it, in words of the swap: SH-K5 and its rule speak of a play, and nothing is played."""
    ruling = refused(_set_up(), sh.Swap(DAD, "KD", "4C"))
    assert ruling.rule == "GEN-3" and ruling.overridable
    assert ruling.message == ("Every K♦ is already somewhere else on the table (Mom's face-up cards), so Dad has none "
                              "in the hand to swap face up: this must be a mis-tap or a misread photo.")
    assert ruling.entries == (2, 0)  # the swap refused, then Mom's face-up cards
    assert "play" not in sh.rule_text(ruling.rule).lower()


def test_SH_T30_a_swap_putting_face_up_one_of_the_players_own_face_up_cards_is_refused_as_a_swap():
    ruling = refused(_set_up(), sh.Swap(DAD, "6D", "4C"))
    assert ruling.rule == "GEN-3"
    assert ruling.message == ("Every 6♦ is already somewhere else on the table (Dad's face-up cards), so Dad has none "
                              "in the hand to swap face up: this must be a mis-tap or a misread photo.")
    assert ruling.entries == (2, 1)


def test_SH_T30_a_face_up_card_nobody_entered_named_by_a_swap_is_checked_as_a_swap():
    """Dad's first face-up card was never entered: the swap that takes it into the hand names it, and the
    K♦ Mom shows face up cannot be it."""
    state = _set_up((None, "6D", "JS"))
    ruling = refused(state, sh.Swap(DAD, "2C", "KD"))
    assert ruling.rule == "GEN-3" and ruling.overridable
    assert ruling.message == ("Every K♦ is already somewhere else on the table (Mom's face-up cards), so the face-up "
                              "card Dad takes into the hand cannot be one: this must be a mis-tap or a misread photo.")
    assert ruling.entries == (2, 0)
    after = go(state, sh.Swap(DAD, "2C", "QH"))
    assert after.seats[DAD].faceup == ("2C", "6D", "JS") and after.seats[DAD].known == ("QH",)


def test_GEN_3_a_swap_of_a_face_up_card_nobody_entered_for_the_same_card_from_the_hand_is_one_copy_too_many():
    """One deck, one Q♥: the face-up card nobody entered turns out to be the Q♥ taken into the hand, so the
    card put face up from the hand cannot be a Q♥ as well (before, both were accepted: two Q♥s)."""
    ruling = refused(_set_up((None, "6D", "JS")), sh.Swap(DAD, "QH", "QH"))
    assert ruling.rule == "GEN-3"
    assert ruling.message == ("Every Q♥ is already somewhere else on the table (Dad's face-up cards), so Dad has none "
                              "in the hand to swap face up: this must be a mis-tap or a misread photo.")


def test_GEN_5_a_refused_swap_may_be_let_stand_and_an_old_logs_SH_K5_override_still_stands():
    from referee.games.base import Override

    state, events = sh.apply(_set_up(), Override(sh.Swap(DAD, "KD", "4C"), "GEN-3", "a second deck's K♦", MOM))
    eid, rule, _, _, message, entries = state.overrides[-1]
    assert rule == "GEN-3" and "swap face up" in message and entries == (2, 0)
    assert state.seats[DAD].faceup == ("KD", "6D", "JS") and state.seats[DAD].known == ("4C",)
    # a log written before engine version 5 overrode the same swap as SH-K5: replayed, it stands
    old, _ = sh.apply(_set_up(), Override(sh.Swap(DAD, "KD", "4C"), "SH-K5", "a second deck's K♦", MOM))
    assert old.seats == state.seats and old.overrides[-1][1] == "SH-K5"


# --- Face-up cards entered (SH-2) and the lowest card shown to start (SH-4), ruled out by GEN-3 -------------

def test_SH_T30_a_face_up_card_seen_elsewhere_is_refused_by_GEN_3_in_words_of_the_face_up_cards():
    """Mom's K♦ lies face up (entry 0): none of Dad's face-up cards can be a K♦. Conservation (GEN-3)
    refuses it, saying what is being entered, not SH-K5's "cannot be played", and points at entry 0."""
    state = go(sh.new_match(("Mom", "Dad")), sh.FaceUp(MOM, ("KD", "5S", "9H")))
    ruling = refused(state, sh.FaceUp(DAD, ("4C", "KD", "JS")))
    assert ruling.rule == "GEN-3" and ruling.overridable
    assert ruling.message == ("Every K♦ is already somewhere else on the table (Mom's face-up cards), so none of Dad's "
                              "face-up cards can be one: this must be a mis-tap or a misread photo.")
    assert ruling.entries == (1, 0)  # the entry refused, then Mom's face-up cards
    assert "play" not in ruling.message and "play" not in sh.rule_text(ruling.rule).lower()


def test_SH_T30_a_face_up_card_known_in_a_hand_after_a_swap_points_at_the_swap():
    """Mom swapped her K♦ into her hand (entry 2): Dad's face-up cards cannot hold it either."""
    state = go(sh.new_match(("Mom", "Dad", "Cy")), sh.FaceUp(MOM, ("KD", "5S", "9H")),
               sh.FaceUp(2, ("2C", "3C", "4C")), sh.Swap(MOM, "QH", "KD"))
    ruling = refused(state, sh.FaceUp(DAD, ("KD", "6D", "JS")))
    assert ruling.rule == "GEN-3"
    assert ruling.message == ("Every K♦ is already somewhere else on the table (Mom's hand), so none of Dad's face-up "
                              "cards can be one: this must be a mis-tap or a misread photo.")
    assert ruling.entries == (3, 2)


def test_GEN_3_face_up_cards_naming_one_card_twice_are_more_than_the_deck_holds():
    """One deck, one J♠: three face-up cards naming it twice. Nothing else is seen, so "every J♠ is
    already somewhere else" would be untrue: the ruling says the entry names it too often."""
    ruling = refused(sh.new_match(("Mom", "Dad")), sh.FaceUp(DAD, ("JS", "JS", "4C")))
    assert ruling.rule == "GEN-3"
    assert ruling.message == ("Dad's face-up cards name J♠ more times than this table's deck holds: this must be a "
                              "mis-tap or a misread photo.")
    assert ruling.entries == (0,)


def test_GEN_3_with_two_decks_face_up_cards_naming_a_card_twice_with_its_twin_seen_say_where_the_twin_is():
    players = ("Mom", "Dad", "Cy", "Di", "Ed", "Flo")
    state = go(sh.new_match(players), sh.FaceUp(MOM, ("KD", "5S", "9H")))
    assert state.decks == 2
    assert go(state, sh.FaceUp(DAD, ("KD", "4C", "JS"))).seats[DAD].faceup == ("KD", "4C", "JS")  # the twin
    ruling = refused(state, sh.FaceUp(DAD, ("KD", "KD", "JS")))
    assert ruling.rule == "GEN-3"
    assert ruling.message == ("Dad's face-up cards name K♦ more times than this table's deck still holds (the others: "
                              "Mom's face-up cards): this must be a mis-tap or a misread photo.")
    assert ruling.entries == (1, 0)


def test_GEN_5_a_refused_face_up_card_may_be_let_stand_and_an_old_logs_SH_K5_override_still_stands():
    from referee.games.base import Override

    state = go(sh.new_match(("Mom", "Dad")), sh.FaceUp(MOM, ("KD", "5S", "9H")))
    move = sh.FaceUp(DAD, ("4C", "KD", "JS"))
    after, _ = sh.apply(state, Override(move, "GEN-3", "a second deck's K♦", MOM))
    eid, rule, _, _, message, entries = after.overrides[-1]
    assert rule == "GEN-3" and "none of Dad's face-up cards" in message and entries == (1, 0)
    assert after.seats[DAD].faceup == ("4C", "KD", "JS")
    # a log written before engine version 6 overrode the same entry as SH-K5: replayed, it stands
    old, _ = sh.apply(state, Override(move, "SH-K5", "a second deck's K♦", MOM))
    assert old.seats == after.seats and old.overrides[-1][1] == "SH-K5"


def _swapped():
    """Mom's face-up K♦ 5♠ 9♥ (entry 0), Dad's 4♣ 6♦ J♠ (entry 1); Mom swaps the 2♣ face up and takes the
    5♠ into her hand (entry 2)."""
    return go(sh.new_match(("Mom", "Dad")), sh.FaceUp(MOM, ("KD", "5S", "9H")), sh.FaceUp(DAD, ("4C", "6D", "JS")),
              sh.Swap(MOM, "2C", "5S"))


def test_SH_T30_a_lowest_card_known_in_another_hand_is_refused_by_GEN_3_in_words_of_the_card_shown():
    """The 5♠ went into Mom's hand at the swap (entry 2): Dad cannot show it to start."""
    ruling = refused(_swapped(), sh.Start(DAD, "5S"))
    assert ruling.rule == "GEN-3" and ruling.overridable
    assert ruling.message == ("Every 5♠ is already somewhere else on the table (Mom's hand), so the lowest card Dad "
                              "shows to start cannot be one: this must be a mis-tap or a misread photo.")
    assert ruling.entries == (3, 2)
    assert "play" not in ruling.message


def test_SH_T30_a_lowest_card_lying_face_up_is_refused_by_GEN_3_and_points_at_its_entry():
    ruling = refused(_swapped(), sh.Start(DAD, "4C"))  # Dad's own face-up 4♣ (start_rank_zones: hand)
    assert ruling.rule == "GEN-3"
    assert ruling.message == ("Every 4♣ is already somewhere else on the table (Dad's face-up cards), so the lowest "
                              "card Dad shows to start cannot be one: this must be a mis-tap or a misread photo.")
    assert ruling.entries == (3, 1)
    # Mom may show the 5♠ she holds: it is hers
    assert go(_swapped(), sh.Start(MOM, "5S")).declared == "5S"


def test_GEN_5_a_refused_lowest_card_may_be_let_stand_and_an_old_logs_SH_K5_override_still_stands():
    from referee.games.base import Override

    after, _ = sh.apply(_swapped(), Override(sh.Start(DAD, "5S"), "GEN-3", "a second deck's 5♠", DAD))
    assert after.overrides[-1][1] == "GEN-3" and after.declared == "5S" and after.phase == "play"
    old, _ = sh.apply(_swapped(), Override(sh.Start(DAD, "5S"), "SH-K5", "a second deck's 5♠", DAD))
    assert old.overrides[-1][1] == "SH-K5" and old.seats == after.seats and old.declared == "5S"
