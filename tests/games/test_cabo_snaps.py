"""Cambio's snap (CAB-6) after a power, a wrong snap said as what happened, and a GEN-4 at the reveal that
says whose place the card lies in."""
from __future__ import annotations

from referee.games import cabo as C
from referee.games.cabo_apply import failed_play
from referee.games.cabo_moves import (Call, Discard, Draw, LookSwap, Peek, Reveal, Snap, Swap, TakeDiscard, TurnUp,
                                      UsePower, describe)

from .cabo_helpers import ANA, BEN, CY, match, play, refused

MOM, DAD = ANA, BEN


def test_CAB_T13_a_snap_stays_open_while_the_power_of_the_discard_is_resolved():
    """Mom discards the 7♣ for its Peek and sees her 7♦ at place 2: once the Peek is entered she may still
    snap it (CAB-6: the 7♣ still lies on top; the next turn has not begun, GEN-7)."""
    state = play(match(3, "cambio_common"), TurnUp(None), Draw(MOM, "7C"), UsePower(MOM, "7C"),
                 Peek(MOM, 2, None, "7D"))
    assert state.round.turn == DAD and state.round.step == "start" and state.round.snap_top is not None
    assert any(isinstance(m, Snap) for m in C.legal_moves(state, MOM))
    state = play(state, Snap(MOM, 2, None, "7D"))
    assert state.round.rows[MOM][1] is None and state.round.discard[-1].value == "7D"
    # the next turn closes it, as before
    later = play(match(3, "cambio_common"), TurnUp(None), Draw(MOM, "7C"), UsePower(MOM, "7C"),
                 Peek(MOM, 2, None, "7D"), Draw(DAD))
    assert refused(later, Snap(MOM, 2, None, "7D")).rule == "CAB-6"
    assert not any(isinstance(m, Snap) for m in C.legal_moves(later, MOM))


def test_CAB_6_a_snap_stays_open_after_a_spy_a_swap_and_a_look_and_swap():
    base = play(match(3, "cambio_common"), TurnUp(None))
    for power, resolve in (("9S", Peek(MOM, 1, DAD)), ("JS", Swap(MOM, 1, DAD, 1)), ("JH", Swap(MOM)),
                           ("KS", LookSwap(MOM, 1, DAD, 1, True))):
        state = play(base, Draw(MOM, power), UsePower(MOM, power), resolve)
        assert state.round.snap_top is not None, power
        state = play(state, Snap(CY, 3, None, power[:-1] + "D"))
        assert state.round.rows[CY][2] is None, power


def test_CAB_6_the_snap_still_closes_with_a_call_instead_of_a_turn():
    state = play(match(3, "cambio_common"), TurnUp(None), Draw(MOM, "7C"), UsePower(MOM, "7C"), Peek(MOM, 2),
                 Call(DAD))
    assert refused(state, Snap(MOM, 2, None, "7D")).rule == "CAB-6"


def test_CAB_T14_a_wrong_snap_is_said_as_what_happened():
    """Dad snaps his own place 1, a J♠, onto the 7♣: it goes back and he takes a penalty card (place 5)."""
    state = play(match(3, "cambio_common"), TurnUp(None), Draw(MOM, "7C"), Discard(MOM, "7C"))
    move = Snap(DAD, 1, None, "JS")
    failed = failed_play(state, move)
    assert failed is not None and failed["kind"] == "wrong_snap" and failed["places"] == [5]
    players = state.players
    assert describe(move, players) == "Ben snaps their own place 1 (a J♠) onto the discard pile."  # as entered
    assert describe(move, players, failed) == ("Ben snaps their own place 1 (a J♠), which does not match the 7♣: it "
                                               "goes back, and Ben takes a penalty card (place 5) (CAB-6).")
    other = Snap(DAD, 2, CY, "QH")
    assert describe(other, players, failed_play(state, other)) == (
        "Ben snaps Cy's place 2 (a Q♥), which does not match the 7♣: it goes back, and Ben takes a penalty card "
        "(place 5) (CAB-6).")
    blind = Snap(DAD, 1, None, None, False)
    assert describe(blind, players, failed_play(state, blind)) == (
        "Ben snaps their own place 1 (an unknown card), which does not match the 7♣: it goes back, and Ben takes a "
        "penalty card (place 5) (CAB-6).")
    assert failed_play(state, Snap(DAD, 1, None, "7D")) is None  # a good snap is said as entered
    assert failed_play(state, Draw(DAD)) is None
    assert failed_play(state, Snap(DAD, 9, None, "JS")) is None  # refused: said as entered


def test_CAB_4_GEN_4_at_the_reveal_names_whose_place_it_is():
    """Dad's place 4 was seen as a 9 when he put it back (entry 5), but shows an 8 at the reveal."""
    state = play(match(2, "cambio_common"), TurnUp(None), Draw(MOM), Discard(MOM, "2C"), TakeDiscard(DAD, "2C"))
    state = play(state, C.Replace(DAD, 4, "9S"))  # the 9♠ goes to the discard pile
    state = play(state, Draw(MOM), Discard(MOM, "3C"), TakeDiscard(DAD, "3C"), C.Replace(DAD, 1, None))
    # Dad's place 4 holds the 2♣ the table saw him take
    state = play(state, Call(MOM), Draw(DAD), Discard(DAD, "4C"))
    assert state.round.step == "reveal"
    state, events = C.apply(state, Reveal(DAD, ("5S", "6S", "7S", "8S")))
    flags = [e for e in events if e["kind"] == "flag" and e["rule"] == "GEN-4"]
    assert flags and all("Ben's place" in f["message"] for f in flags), flags
    assert any(f["message"].startswith("The card in Ben's place 4 was known to be 2♣ (entry ") for f in flags)
