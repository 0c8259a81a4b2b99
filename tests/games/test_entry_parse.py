"""The checks every game's entries share (referee/games/entry_parse.py), through a small game of its own."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from referee.games import entry_parse as ep
from referee.games.base import Correct, EntryError, Override, ResolveFlag, Undo
from referee.games.cards import standard_deck

PLAYERS = ("Ana", "Ben")
DECK = standard_deck(jokers=2)


@dataclass(frozen=True, slots=True)
class Put:
    seat: int
    slot: int
    card: str | None = None
    target: int | None = None
    spot: int | None = None
    cards: tuple = ()


MOVES = {"put": Put, "override": Override, "resolve_flag": ResolveFlag, "undo": Undo, "correct": Correct}
READERS = {"seat": ep.seat, "target": ep.seat, "slot": ep.place(4), "spot": ep.place(4, "place"),
           "card": ep.card, "cards": ep.listed(ep.place(4), 3, "slot numbers")}


def parse(data, check=None):
    return ep.parse_entry(data, MOVES, READERS, PLAYERS, DECK, "entry", check)


def refused(data, check=None) -> EntryError:
    with pytest.raises(EntryError) as caught:
        parse(data, check)
    return caught.value


def test_a_well_formed_entry_is_read_into_its_move():
    assert parse({"move": "put", "seat": "Ben", "slot": 2, "card": "QS", "note": "a quiet one"}) == \
        Put(seat=1, slot=2, card="QS")


@pytest.mark.parametrize("data, field", [
    ([], "entry"),
    ({"move": "fly"}, "entry.move"),
    ({"move": "put", "seat": "Ana"}, "entry.slot"),
    ({"move": "put", "seat": "Ana", "slot": 1, "colour": "red"}, "entry.colour"),
    ({"move": "put", "seat": "Ana", "slot": 1, "note": "x" * 10_000}, "entry.note"),
    ({"move": "put", "seat": "Zed", "slot": 1}, "entry.seat"),
    ({"move": "put", "seat": "Ana", "slot": 5}, "entry.slot"),
    ({"move": "put", "seat": "Ana", "slot": True}, "entry.slot"),
    ({"move": "put", "seat": "Ana", "slot": 1, "cards": [1, None]}, "entry.cards[1]"),
    ({"move": "put", "seat": "Ana", "slot": 1, "cards": [1, 2, 3, 4]}, "entry.cards"),
    ({"move": "resolve_flag", "flag": 0, "decision": "maybe"}, "entry.decision"),
    ({"move": "correct", "target": -1, "entry": {"move": "put", "seat": "Ana", "slot": 1}}, "entry.target"),
    ({"move": "correct", "target": 2 ** 80, "entry": {}}, "entry.target"),
    ({"move": "override", "rule": "X-1", "entry": {"move": "undo"}}, "entry.entry.move"),
])
def test_each_malformed_field_is_named(data, field):
    assert refused(data).field == field


def test_a_field_no_entry_has_is_named_in_the_words_too():
    """The words stand on their own ("That entry is not complete: <why> (<field>)" on the screen)."""
    problem = refused({"move": "put", "seat": "Ana", "slot": 1, "colour": "red"})
    assert problem.message == "'colour' is not a field of a 'put' entry"


def test_optional_fields_may_be_null_but_a_required_one_may_not():
    assert parse({"move": "put", "seat": "Ana", "slot": 1, "target": None, "spot": None}).target is None
    assert "place" in str(refused({"move": "put", "seat": "Ana", "slot": 1, "spot": 9}))
    assert refused({"move": "put", "seat": None, "slot": 1}).field == "entry.seat"


def test_overrides_nest_only_so_deep():
    inner = {"move": "put", "seat": "Ana", "slot": 1}
    entry = inner
    for _ in range(ep.MAX_NESTING):
        entry = {"move": "override", "rule": "X-1", "entry": entry}
    assert isinstance(parse(entry), Override)
    deeper = {"move": "override", "rule": "X-1", "entry": entry}
    assert "nest at most" in str(refused(deeper))


def test_a_game_check_applies_to_nested_entries_too():
    def no_card(move, where):
        if type(move) is Put and move.card is None:
            raise EntryError(f"{where}.card", "name the card")

    nested = {"move": "override", "rule": "X-1", "entry": {"move": "put", "seat": "Ana", "slot": 1}}
    assert refused(nested, no_card).field == "entry.entry.card"
