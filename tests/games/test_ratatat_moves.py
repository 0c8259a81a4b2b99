"""Entries: JSON form both ways, and the plain-words line of the history."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games import ratatat as R
from referee.games.base import Correct, EntryError, Override, ResolveFlag, Ruling, Undo
from referee.games.log import Log
from referee.games.ratatat_cards import RTC_DECKS
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
    # the words of the buttons that decide a dispute (Accept, Dismiss), and the cards as the table names them
    assert describe(ResolveFlag(0, "override", "", 1), PLAYERS) == "Ben dismisses the dispute (flag 0)."
    assert describe(ResolveFlag(0, "accept", "", 1), PLAYERS) == "Ben accepts the dispute (flag 0)."
    assert describe(Reveal(1, ("DRAW2", "3", "PEEK", "1")), PLAYERS) == "Ben reveals Draw 2, 3, Peek, 1."


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


def _wrapped(depth: int, inner: dict | None = None) -> dict:
    entry = inner or {"move": "draw", "seat": "Ben"}
    for _ in range(depth):
        entry = {"move": "override", "rule": "GEN-7", "entry": entry}
    return entry


def test_overrides_nest_at_most_three_deep():
    assert isinstance(parse_move(_wrapped(3), PLAYERS, DECK).entry.entry, Override)
    for depth in (4, 487):
        with pytest.raises(EntryError) as info:
            parse_move(_wrapped(depth), PLAYERS, DECK)
        assert info.value.field == "entry.entry.entry.entry" and "at most 3" in info.value.message


@pytest.mark.parametrize("data,field", [
    ({"move": "override", "rule": "GEN-7", "reason": "x" * 301, "entry": {"move": "draw", "seat": 1}}, "entry.reason"),
    ({"move": "override", "rule": "R" * 41, "entry": {"move": "draw", "seat": 1}}, "entry.rule"),
    ({"move": "draw", "seat": "Ana", "note": "n" * 301}, "entry.note"),
    ({"move": "draw", "seat": "Ana", "note": ["not", "text"]}, "entry.note"),
    ({"move": "draw", "seat": "Ana", "at": "9" * 41}, "entry.at"),
    ({"move": "draw", "seat": "A" * 10_000}, "entry.seat"),
    ({"move": "draw", "seat": True}, "entry.seat"),
    ({"move": "draw", "seat": 10 ** 4000}, "entry.seat"),
    ({"move": "turn_up", "card": 10 ** 4000}, "entry.card"),
    ({"move": "turn_up", "card": "\u00b2"}, "entry.card"),  # a unicode digit is not a card
    ({"move": "turn_up", "card": "5" * 41}, "entry.card"),
    ({"move": "replace", "seat": "Ana", "slot": True}, "entry.slot"),
    ({"move": "replace", "seat": "Ana", "slot": 1.0}, "entry.slot"),
    ({"move": "correct", "target": 1_000_001, "entry": {"move": "turn_up", "card": "1"}}, "entry.target"),
    ({"move": "correct", "target": True, "entry": {"move": "turn_up", "card": "1"}}, "entry.target"),
    ({"move": "correct", "target": 0, "entry": {"move": "undo"}}, "entry.entry.move"),
    ({"move": "override", "rule": "GEN-13", "entry": {"move": "correct", "target": 0,
                                                      "entry": {"move": "undo"}}}, "entry.entry.move"),
    ({"move": "resolve_flag", "flag": -1, "decision": "accept"}, "entry.flag"),
    ({"move": "reveal", "seat": "Ana", "cards": ["1"] * 5}, "entry.cards"),
    ({"move": "initial_peek", "seat": "Ana", "slots": [1] * 1000}, "entry.slots"),
    ({"move": {"nested": "move"}}, "entry.move"),
])
def test_hostile_fields_are_entry_errors_naming_the_field(data, field):
    with pytest.raises(EntryError) as info:
        parse_move(data, PLAYERS, DECK)
    assert info.value.field == field and len(info.value.message) < 300


_SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(-3, 12) | st.floats()
            | st.text(max_size=8) | st.sampled_from(["Ana", "Ben", "ana", "5", "peek", "unknown", "\u00b2",
                                                     "accept", "override", "GEN-7", "RTC-34", "9" * 50])
            | st.integers(10 ** 30, 10 ** 60))
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
_FIELDS = ("seat", "slot", "card", "out", "seen", "target", "target_slot", "from_slot", "slots", "cards",
           "shown", "reason", "rule", "decision", "flag", "entry", "note", "at")


@st.composite
def hostile_entries(draw, depth=0):
    """Entries shaped almost like real ones: a real move name, some real fields with hostile values."""
    entry = {"move": draw(st.sampled_from(list(__import__("referee.games.ratatat_moves",
                                                            fromlist=["MOVES"]).MOVES)) | _JSON)}
    for key in draw(st.lists(st.sampled_from(_FIELDS), max_size=5, unique=True)):
        if key == "entry" and depth < 6 and draw(st.booleans()):
            entry[key] = draw(hostile_entries(depth + 1))
        else:
            entry[key] = draw(_JSON)
    return entry


@settings(max_examples=300, deadline=None, suppress_health_check=(HealthCheck.too_slow,))
@given(hostile_entries())
def test_hostile_entries_raise_only_entry_errors_and_accepted_ones_replay(data):
    text = json.dumps(data)  # what a phone or a transcript sends
    try:
        move = parse_move(json.loads(text), PLAYERS, DECK)
    except EntryError as err:
        assert err.field.startswith("entry") and len(err.message) < 300
        return
    again = parse_move(json.loads(json.dumps(move_to_dict(move, PLAYERS))), PLAYERS, DECK)
    assert again == move
    log = Log.start(R, R.new_match(PLAYERS))
    for state_log in (log, log.feed(TurnUp("5"), 0)[0]):
        try:
            state_log.feed(move)  # refused or accepted: never another exception
        except Ruling:
            pass
