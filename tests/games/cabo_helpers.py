"""Small helpers to play scripted Cabo / Cambio rounds through the public engine API."""
from __future__ import annotations

import dataclasses

import pytest

from referee.games import cabo as C
from referee.games.base import Ruling
from referee.games.cabo_moves import Call, Discard, Draw, Reveal, TurnUp
from referee.games.cabo_presets import BY_KEY

ANA, BEN, CY, DEE, ELI, FAY = range(6)
NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")


def match(n: int = 3, preset: str = "cabo_2e", **rules):
    return C.new_match(NAMES[:n], {**BY_KEY[preset].rules, **rules})


def play(state, *moves):
    for move in moves:
        state, _ = C.apply(state, move)
    return state


def events(state, move):
    return C.apply(state, move)[1]


def refused(state, move) -> Ruling:
    """Apply ``move`` expecting a REJECT; also checks the state was left untouched."""
    before = C.state_to_dict(state)
    with pytest.raises(Ruling) as info:
        C.apply(state, move)
    assert C.state_to_dict(state) == before
    return info.value


def started(state, top=None):
    """The discard pile started (with an unknown card by default, so it counts against nothing)."""
    return play(state, TurnUp(top)) if state.round.awaiting_turn_up else state


def plain_turn(state, seat=None):
    """Draw a card nobody else sees and discard it unused."""
    seat = state.round.turn if seat is None else seat
    return play(state, Draw(seat), Discard(seat))


def to_reveal(state, caller=None):
    """Play plain turns until ``caller``'s turn, the call, then everyone else's last turn."""
    state = started(state)
    if caller is not None:
        while state.round.turn != caller:
            state = plain_turn(state)
        state = play(state, Call(caller))
    while state.round.step != "reveal":
        state = plain_turn(state)
    return state


def score_round(state, cards_by_seat, caller=None):
    """Play a minimal round (``caller`` calls) and turn up the given cards of every seat."""
    state = to_reveal(state, caller)
    for seat in state.round.seats:
        state = play(state, Reveal(seat, tuple(cards_by_seat[seat])))
    return state


def with_totals(state, totals, used=()):
    """The same match with other totals (to play the end of a long match quickly)."""
    return dataclasses.replace(state, totals=tuple(totals), resets_used=frozenset(used))


def row(state, seat):
    return state.round.rows[seat]


def values(state, seat):
    return [None if t is None else t.value for t in state.round.rows[seat]]
