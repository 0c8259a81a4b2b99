"""Forms become Rat-a-Tat Cat entries (referee/games/forms.py, ratatat_forms.py): every field bounded,
a hostile value an EntryError naming the field."""
from __future__ import annotations

import pytest

from referee.games.base import EntryError
from referee.games.forms import number
from referee.games.ratatat_forms import entry_from_form

PLAYERS = ("Ana", "Ben", "Cy")


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 5000, "-1", "1.5", "0x10", "١٢"])
def test_numbers_are_plain_digits_of_sane_size(raw):
    with pytest.raises(EntryError):
        number({"slot": raw}, "slot")


def test_a_number_field_left_empty_is_absent():
    assert number({}, "slot") is None and number({"slot": "3"}, "slot") == 3


def test_initial_peek_keeps_what_was_seen():
    entry = entry_from_form({"move": "initial_peek", "slots": "1,4", "seen1": "3", "seen2": "8"}, PLAYERS, 0)
    assert entry == {"move": "initial_peek", "seat": "Ana", "slots": [1, 4], "seen": ["3", "8"]}


def test_initial_peek_with_hostile_slots_is_a_400():
    for slots in ("²", "9" * 5000, "1,²"):
        with pytest.raises(EntryError):
            entry_from_form({"move": "initial_peek", "slots": slots}, PLAYERS, 0)


def test_deep_json_in_an_override_is_a_400_not_a_crash():
    for raw in ("[" * 100_000, '{"move":' * 3000, "x" * 5000):
        with pytest.raises(EntryError):
            entry_from_form({"move": "override", "rule": "GEN-7", "entry": raw}, PLAYERS, 0)


def test_an_override_is_made_by_the_phone_that_posts_it_whatever_seat_it_names():
    entry = entry_from_form({"move": "override", "rule": "GEN-7", "seat": "Cy",
                             "entry": '{"move": "draw", "seat": "Cy"}', "reason": "Cy was away"}, PLAYERS, 1)
    assert entry["seat"] == "Ben" and entry["entry"] == {"move": "draw", "seat": "Cy"}


def test_the_shared_phone_enters_for_the_player_its_button_names():
    entry = entry_from_form({"move": "call", "for": "Ana"}, PLAYERS, None, shared=True, turn=1)
    assert entry == {"move": "call", "seat": "Ana"}
    assert entry_from_form({"move": "draw"}, PLAYERS, None, shared=True, turn=1)["seat"] == "Ben"
    with pytest.raises(EntryError):
        entry_from_form({"move": "draw", "for": "Zed"}, PLAYERS, None, shared=True, turn=1)


def test_a_seated_phone_cannot_enter_a_turn_for_another_player():
    assert entry_from_form({"move": "draw", "for": "Cy"}, PLAYERS, 0)["seat"] == "Ana"


def test_a_correction_is_built_from_the_same_fields_as_the_original():
    entry = entry_from_form({"move": "correct", "target_entry": "2", "reason": "slot 3 really",
                             "c_move": "replace", "c_for": "Ana", "c_slot": "3", "c_out": "8"}, PLAYERS, 1)
    assert entry == {"move": "correct", "target": 2, "reason": "slot 3 really", "seat": "Ben",
                     "entry": {"move": "replace", "seat": "Ana", "slot": 3, "out": "8"}}
    with pytest.raises(EntryError):
        entry_from_form({"move": "correct", "target_entry": "2", "c_move": "correct"}, PLAYERS, 1)
    with pytest.raises(EntryError):
        entry_from_form({"move": "correct", "c_move": "draw", "c_for": "Ana"}, PLAYERS, 1)


