"""Every route of the app, given hostile fields (unicode digits, huge numbers, deep JSON, control
characters), from a seated phone, the shared phone and a watcher, answers below 500."""
from __future__ import annotations

import html
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import i18n, store

PLAYERS = ["Ana", "Ben", "Cy"]
HX = {"Origin": "http://localhost", "HX-Request": "true"}
HOSTILE = ["²", "٣", "9" * 5000, "[" * 100_000, '{"a":' * 5000, "\x00", "\x1b[2J", "-1", "1e9", " 1", "",
           "x" * 5000, "Ana\u200b", "0x10", "١٢", "NaN", "true", "null", "{}", "[]", "🂡", "\ud7ff"]


def _routes(match_id: str) -> list[tuple[str, str]]:
    m = f"/m/{match_id}"
    return [("POST", f"{m}/entry"), ("POST", f"{m}/seat"), ("POST", f"{m}/again"), ("POST", f"{m}/scan"),
            ("POST", "/join"), ("POST", "/new"), ("POST", "/decks"),
            ("GET", f"{m}/pick"), ("GET", f"{m}/screen"), ("GET", f"{m}/correct/0"), ("GET", f"{m}/watch"),
            ("GET", f"{m}/history"), ("GET", f"{m}/transcript.json"), ("GET", "/new"),
            ("GET", f"{m}/end"), ("POST", f"{m}/end")]


FIELDS = ["move", "version", "key", "slot", "out", "card", "target", "target_slot", "seen", "for", "flag",
          "decision", "reason", "rule", "entry", "target_entry", "card1", "card4", "shown", "slots", "seen1",
          "then", "attach", "c_move", "c_for", "c_slot", "c_card", "seat", "confirm", "code", "game",
          "player1", "player2", "preset", "tie_policy", "rounds_n", "name", "kind", "field", "shown",
          "v"]


def test_every_route_answers_hostile_fields_below_500(app, database):
    """Hypothesis over every route and field, with unicode digits, huge numbers and deep JSON."""
    match = store.create_match(database, "ratatat", PLAYERS)
    shared = app.test_client()  # first: once a phone holds a seat, the shared phone would take it over
    assert shared.post(f"/m/{match.id}/seat", data={"seat": "shared"}, headers=HX).status_code == 303
    seated = app.test_client()
    assert seated.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX).status_code == 303
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


# --- A number field out of its range says what the field allows (each failed before its fix) -------------

OUT_OF_RANGE = ["-1", "0", "99", "1.5", "abc", "", "9" * 30, "9" * 5000]
SLOT = "A slot must be a place from 1 to 4."
PLACE = "A place in a row must be a number from 1 to 60."
# (game, the form without the number, the number's field, the range it may hold, what a refused value is told)
NUMBER_FIELDS = [
    ("ratatat", {"move": "replace", "out": "5"}, "slot", (1, 4), SLOT),
    ("ratatat", {"move": "peek"}, "slot", (1, 4), SLOT),
    ("ratatat", {"move": "swap"}, "target_slot", (1, 4), SLOT),
    ("ratatat", {"move": "initial_peek"}, "slots", (1, 4), SLOT),
    ("ratatat", {"move": "correct", "target_entry": "0", "reason": "wrong slot", "c_move": "replace",
                 "c_for": "Ana"}, "c_slot", (1, 4), SLOT),
    ("cabo", {"move": "replace"}, "slot", (1, 60), PLACE),
    ("cabo", {"move": "swap", "target": "Ben"}, "target_slot", (1, 60), PLACE),
    ("cabo", {"move": "initial_peek"}, "slots", (1, 60), PLACE),
    ("spite_malice", {"move": "build", "source": "hand", "card": "7"}, "pile", (1, 99),
     "A building pile must be a number from 1 to 99."),
    ("spite_malice", {"move": "discard", "card": "7"}, "stack", (1, 99), "A side stack must be a number from 1 to 99."),
    ("spite_malice", {"move": "draw"}, "count", (0, 20), "The number of cards drawn must be from 0 to 20."),
    ("ratatat", {"move": "resolve_flag", "decision": "accept"}, "flag", (0, 1_000_000),
     "The number of a flag must be from 0 to 1000000."),
    ("shithead", {"move": "correct", "reason": "wrong card", "c_move": "play", "c_for": "Ana", "c_cards": "4C"},
     "target_entry", (0, 1_000_000), "The number of an entry must be from 0 to 1000000."),
]


def _notice(response) -> str:
    found = re.search(r'<div class="notice" role="status">(.*?)</div>', response.get_data(as_text=True), re.S)
    return html.unescape(found.group(1)) if found else ""


@pytest.mark.parametrize("game, form, field, allowed, words", NUMBER_FIELDS,
                         ids=[f"{game}-{form['move']}-{field}" for game, form, field, _, _ in NUMBER_FIELDS])
def test_a_number_out_of_its_fields_range_says_what_the_field_allows(app, database, game, form, field, allowed,
                                                                     words):
    """-1 is a whole number: a form sending it for a slot is told which slots there are, not that it is no
    whole number; so are 0, 99, 1.5, "abc" and a number of 5,000 digits, on every game's entry form (a
    value in range is the engine's to judge, an empty field is missing)."""
    match = store.create_match(database, game, PLAYERS)
    phone = app.test_client()
    assert phone.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX).status_code == 303
    version = "0"
    if "target_entry" in form:  # a correction of entry 0: it is made first (of an entry never made, that is said)
        assert phone.post(f"/m/{match.id}/entry", data={"version": "0", "move": "turn_up", "card": "5"},
                          headers=HX).status_code == 200
        version = "1"
    for value in OUT_OF_RANGE:
        response = phone.post(f"/m/{match.id}/entry", data={"version": version, **form, field: value}, headers=HX)
        said = _notice(response)
        if value == "" and response.status_code == 200:  # left empty: the default (a first look at 1 and 4)
            continue
        assert 400 <= response.status_code < 500, (value[:12], response.status_code, said)
        assert "must be a whole number" not in said, (value[:12], said)
        in_range = value.isdigit() and len(value) < 8 and allowed[0] <= int(value) <= allowed[1]
        if value and not in_range:
            assert response.status_code == 400 and words in said, (value[:12], said)
        elif response.status_code == 400:  # an empty field, or a number the engine's reading refuses
            assert said, value


def test_shithead_cards_of_no_deck_say_so(app, database):
    """Shithead's entries hold cards, not numbers: whatever the card field holds, a 4xx that says it is no card."""
    match = store.create_match(database, "shithead", PLAYERS)
    phone = app.test_client()
    assert phone.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX).status_code == 303
    for value in OUT_OF_RANGE:
        response = phone.post(f"/m/{match.id}/entry", data={"version": "0", "move": "faceup", "cards": value},
                              headers=HX)
        said = _notice(response)
        assert 400 <= response.status_code < 500, (value[:12], response.status_code)
        assert "whole number" not in said
        if value:
            assert "is not a card of this deck" in said, (value[:12], said)


@pytest.mark.parametrize("lang, words", [("he", "מקום חייב להיות מספר מ־\u20601 עד 4."),
                                         ("it", "Il posto deve essere un numero da 1 a 4.")])
def test_a_slot_out_of_range_is_said_in_the_phones_language(app, database, lang, words):
    match = store.create_match(database, "ratatat", PLAYERS)
    phone = app.test_client()
    assert phone.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX).status_code == 303
    phone.set_cookie(i18n.COOKIE, lang)
    response = phone.post(f"/m/{match.id}/entry", data={"version": "0", "move": "peek", "slot": "-1"}, headers=HX)
    assert response.status_code == 400
    assert words in _notice(response) and "must be" not in _notice(response)
