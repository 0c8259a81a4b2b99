"""Shithead tables laid out by hand for the SH-T cases: who holds what, the pile, whose turn."""
from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games import shithead as sh
from referee.games.base import Ruling
from referee.games.shithead_state import PileCard, Seat

NAMES = ("Ari", "Bea", "Cal", "Dov", "Eve", "Fin")
ARI, BEA, CAL, DOV = range(4)


def go(state, *moves):
    """The state after these moves, each accepted."""
    for move in moves:
        state, _ = sh.apply(state, move)
    return state


def refused(state, move) -> Ruling:
    """The ruling that refuses this move."""
    with pytest.raises(Ruling) as info:
        sh.apply(state, move)
    return info.value


def pile(*plays: tuple[int, str]) -> tuple[PileCard, ...]:
    """The pile from its plays, bottom first: (seat, "9H 9S") -> one play of those cards by that seat."""
    out = []
    for number, (seat, cards) in enumerate(plays):
        for card in cards.split():
            rank = card if card == "JOKER" else card[:-1]
            out.append(PileCard(card, rank, seat, -100 + number))
    return tuple(out)


def table(n: int = 4, rules: dict | None = None, *, turn: int = ARI, stock: int = 10, plays=(),
          seats: dict[int, Seat] | None = None, **changes) -> sh.State:
    """A game in play: every seat 3 unknown hand cards, 3 unknown face-up cards, 3 face down (``n`` may
    be the house rules, for 4 players)."""
    if isinstance(n, dict):
        n, rules = 4, n
    state = sh.new_match(NAMES[:n], rules)
    default = [Seat(3, (), (None, None, None), 3, True) for _ in range(n)]
    for seat, s in (seats or {}).items():
        default[seat] = s
    return replace(state, phase="play", turn=turn, starter=turn, first_played=True, stock=stock,
                   pile=pile(*plays), seats=tuple(default), **changes)


def play(state, seat: int, cards: str, rank: str | None = None):
    return sh.apply(state, sh.Play(seat, tuple(cards.split()), rank))


def entry(state, move):
    return sh.apply(state, move)
