"""Entries: JSON form both ways, and the plain-words line of the history."""
from __future__ import annotations

import pytest

from referee.games.base import Correct, EntryError, Override, ResolveFlag, Undo
from referee.games.cards import RTC_DECKS
from referee.games.ratatat_moves import (InitialPeek, Peek, Replace, Reveal, Swap, TurnUp, describe,
                                         move_to_dict, parse_move)

PLAYERS = ("Ana", "Ben")
DECK = RTC_DECKS["classic_54"]

MOVES = [TurnUp("5"), TurnUp(None), InitialPeek(0, (1, 4), ("3", None)), Replace(1, 2, "9"),
         Peek(0, 1, 1, "4"), Swap(0), Swap(0, 1, 1, 4), Reveal(1, ("1", "PEEK", "0", "9")),
         Override(Replace(0, 3, "8"), "GEN-3", "bent card", 1), ResolveFlag(0, "accept", "fine", 0),
         Undo(0, "mis-tap"), Correct(3, Replace(0, 2, "7"), "wrong slot", 1)]


@pytest.mark.parametrize("move", MOVES, ids=lambda m: type(m).__name__)
def test_json_round_trip(move):
    data = move_to_dict(move, PLAYERS)
    assert parse_move(data, PLAYERS, DECK) == move
    assert describe(move, PLAYERS)


def test_names_in_the_json_form():
    assert move_to_dict(Swap(0, 1, 1, 4), PLAYERS) == {"move": "swap", "seat": "Ana", "slot": 1,
                                                      "target": "Ben", "target_slot": 4}
    assert describe(Swap(0, 1, 1, 4), PLAYERS) == "Ana swaps slot 1 with Ben's slot 4."


@pytest.mark.parametrize("data,field", [
    ({"move": "resolve_flag", "flag": 0, "decision": "maybe"}, "entry.decision"),
    ({"move": "correct", "target": -1, "entry": {"move": "turn_up", "card": "1"}}, "entry.target"),
    ({"move": "power", "seat": "Ana", "card": "unknown"}, "entry.card"),
    ({"move": "initial_peek", "seat": "Ana", "slots": [1, 4], "seen": "34"}, "entry.seen"),
    ({"move": "draw", "seat": "Ana", "shown": "yes"}, "entry.shown"),
])
def test_malformed_entries(data, field):
    with pytest.raises(EntryError) as info:
        parse_move(data, PLAYERS, DECK)
    assert info.value.field == field
