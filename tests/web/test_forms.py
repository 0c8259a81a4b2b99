"""Forms become entries (referee/views/forms.py): every field bounded, a hostile value is a 400 with a
message; and every route of the app, given hostile fields, answers below 500."""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import store
from referee.views.forms import FormError, entry_from_form, number

PLAYERS = ["Ana", "Ben", "Cy"]
HX = {"Origin": "http://localhost", "HX-Request": "true"}
HOSTILE = ["²", "٣", "9" * 5000, "[" * 100_000, '{"a":' * 5000, "\x00", "\x1b[2J", "-1", "1e9", " 1", "",
           "x" * 5000, "Ana\u200b", "0x10", "١٢", "NaN", "true", "null", "{}", "[]", "🂡", "\ud7ff"]


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 5000, "-1", "1.5", "0x10", "١٢"])
def test_numbers_are_plain_digits_of_sane_size(raw):
    with pytest.raises(FormError):
        number({"slot": raw}, "slot")


def test_a_number_field_left_empty_is_absent():
    assert number({}, "slot") is None and number({"slot": "3"}, "slot") == 3


def test_initial_peek_keeps_what_was_seen():
    entry = entry_from_form({"move": "initial_peek", "slots": "1,4", "seen1": "3", "seen2": "8"}, PLAYERS, 0)
    assert entry == {"move": "initial_peek", "seat": "Ana", "slots": [1, 4], "seen": ["3", "8"]}


def test_initial_peek_with_hostile_slots_is_a_400():
    for slots in ("²", "9" * 5000, "1,²"):
        with pytest.raises(FormError):
            entry_from_form({"move": "initial_peek", "slots": slots}, PLAYERS, 0)


def test_deep_json_in_an_override_is_a_400_not_a_crash():
    for raw in ("[" * 100_000, '{"move":' * 3000, "x" * 5000):
        with pytest.raises(FormError):
            entry_from_form({"move": "override", "rule": "GEN-7", "entry": raw}, PLAYERS, 0)


def test_an_override_is_made_by_the_phone_that_posts_it_whatever_seat_it_names():
    entry = entry_from_form({"move": "override", "rule": "GEN-7", "seat": "Cy",
                             "entry": '{"move": "draw", "seat": "Cy"}', "reason": "Cy was away"}, PLAYERS, 1)
    assert entry["seat"] == "Ben" and entry["entry"] == {"move": "draw", "seat": "Cy"}


def test_the_shared_phone_enters_for_the_player_its_button_names():
    entry = entry_from_form({"move": "call", "for": "Ana"}, PLAYERS, None, shared=True, turn=1)
    assert entry == {"move": "call", "seat": "Ana"}
    assert entry_from_form({"move": "draw"}, PLAYERS, None, shared=True, turn=1)["seat"] == "Ben"
    with pytest.raises(FormError):
        entry_from_form({"move": "draw", "for": "Zed"}, PLAYERS, None, shared=True, turn=1)


def test_a_seated_phone_cannot_enter_a_turn_for_another_player():
    assert entry_from_form({"move": "draw", "for": "Cy"}, PLAYERS, 0)["seat"] == "Ana"


def test_a_correction_is_built_from_the_same_fields_as_the_original():
    entry = entry_from_form({"move": "correct", "target_entry": "2", "reason": "slot 3 really",
                             "c_move": "replace", "c_for": "Ana", "c_slot": "3", "c_out": "8"}, PLAYERS, 1)
    assert entry == {"move": "correct", "target": 2, "reason": "slot 3 really", "seat": "Ben",
                     "entry": {"move": "replace", "seat": "Ana", "slot": 3, "out": "8"}}
    with pytest.raises(FormError):
        entry_from_form({"move": "correct", "target_entry": "2", "c_move": "correct"}, PLAYERS, 1)
    with pytest.raises(FormError):
        entry_from_form({"move": "correct", "c_move": "draw", "c_for": "Ana"}, PLAYERS, 1)


def _routes(match_id: str) -> list[tuple[str, str]]:
    m = f"/m/{match_id}"
    return [("POST", f"{m}/entry"), ("POST", f"{m}/seat"), ("POST", f"{m}/again"), ("POST", f"{m}/scan"),
            ("POST", "/join"), ("POST", "/new"), ("POST", "/decks"),
            ("GET", f"{m}/pick"), ("GET", f"{m}/screen"), ("GET", f"{m}/correct/0"), ("GET", f"{m}/watch"),
            ("GET", f"{m}/history"), ("GET", f"{m}/transcript.json"), ("GET", "/new")]


FIELDS = ["move", "version", "key", "slot", "out", "card", "target", "target_slot", "seen", "for", "flag",
          "decision", "reason", "rule", "entry", "target_entry", "card1", "card4", "shown", "slots", "seen1",
          "then", "attach", "c_move", "c_for", "c_slot", "c_card", "seat", "confirm", "code", "game",
          "player1", "player2", "preset", "tie_policy", "rounds_n", "name", "kind", "field", "shown",
          "v"]


def test_every_route_answers_hostile_fields_below_500(app, database):
    """Hypothesis over every route and field, with unicode digits, huge numbers and deep JSON."""
    match = store.create_match(database, "ratatat", PLAYERS)
    seated = app.test_client()
    assert seated.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX).status_code == 303
    shared = app.test_client()
    assert shared.post(f"/m/{match.id}/seat", data={"seat": "shared"}, headers=HX).status_code == 303
    watcher = app.test_client()
    values = st.one_of(st.sampled_from(HOSTILE + ["0", "1", "4", "5", "draw", "turn_up", "reveal", "correct",
                                                  "override", "Ana", "shared", "watch", "ratatat"]),
                       st.text(max_size=20))

    @settings(max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "200")), deadline=None, database=None)
    @given(route=st.sampled_from(_routes(match.id)), who=st.sampled_from([seated, shared, watcher]),
           fields=st.dictionaries(st.sampled_from(FIELDS), values, max_size=6))
    def hit(route, who, fields):
        method, path = route
        if method == "GET":
            response = who.get(path, query_string=fields, headers=HX)
        else:
            response = who.post(path, data=fields, headers=HX)
        assert response.status_code < 500, (route, fields, response.status_code)

    hit()
