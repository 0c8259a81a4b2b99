"""What every game's module shares through the interface: the photo a move asks for (``photo_spec``)
and each game's ``scan_spec`` built on it."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from referee.games import GAMES, cabo, ratatat, shithead
from referee.games.cabo_moves import TurnUp
from referee.games.interface import ScanSpec, photo_spec

from .cabo_helpers import match, play

STATE = SimpleNamespace(players=("Ana", "Ben", "Cy"))
ROWS = {"reveal": lambda state, seat: 3 + seat}


def test_a_row_move_asks_for_the_named_seats_cards_and_a_single_move_for_one():
    assert photo_spec(STATE, {"move": "reveal", "for": "Ben"}, ROWS, ("draw",)) == ScanSpec(4, 1, "reveal")
    assert photo_spec(STATE, {"move": "draw"}, ROWS, ("draw",)) == ScanSpec(1, None, "draw")


@pytest.mark.parametrize("purpose", [{"move": "reveal"}, {"move": "reveal", "for": "Zed"},
                                     {"move": "reveal", "for": "9"}, {"move": "call"}, {}])
def test_a_row_for_nobody_at_the_table_or_a_move_without_a_photo_asks_for_nothing(purpose):
    assert photo_spec(STATE, purpose, ROWS, ("draw",)) is None


def test_a_row_never_asks_for_fewer_than_one_card():
    assert photo_spec(STATE, {"move": "reveal", "for": "Ana"}, {"reveal": lambda s, seat: 0}, ()).cards == 1


def test_each_game_asks_for_its_own_rows():
    """Rat-a-Tat Cat's row of four at the reveal, Shithead's three face-up cards, a Cabo layout's places
    (four when dealt, more after a penalty card)."""
    state = SimpleNamespace(players=("Ana", "Ben"))
    assert ratatat.scan_spec(state, {"move": "reveal", "for": "Ben"}) == ScanSpec(4, 1, "reveal")
    assert shithead.scan_spec(state, {"move": "faceup", "for": "Ana"}) == ScanSpec(3, 0, "faceup")
    assert shithead.scan_spec(state, {"move": "pickup"}) is None
    dealt = play(match(2), TurnUp("5"))
    assert cabo.scan_spec(dealt, {"move": "reveal", "for": "Ben"}) == ScanSpec(4, 1, "reveal")
    assert cabo.scan_spec(dealt, {"move": "snap"}) == ScanSpec(1, None, "snap")
    assert all(callable(game.scan_spec) for game in GAMES.values())
