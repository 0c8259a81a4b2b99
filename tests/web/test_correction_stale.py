"""A correction made while the table plays on: entries of play made meanwhile do not stop it (it replays
them); an undo or another correction made meanwhile does, and then the correction page comes back over the
form as it was filled in, nothing typed lost. A correction that changes nothing (the back button bringing
back a form already posted) records nothing."""
from __future__ import annotations

import re

import pytest

from referee import store

from .test_play import HX, Phone, entry_count, text

POST = {"Origin": "http://localhost"}  # the correction page's form: a browser's plain post


@pytest.fixture
def table(app, database):
    """Ana's replace into slot 2, the 8 coming out, is entry 2; the correction page was opened at version 3."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "replace", "slot": "2", "out": "8"}):
        assert ana.post(**fields).status_code == 200
    return match, ana, ben


def correct(phone, version: int, key: str, out: str = "9", reason: str = "it was a 9"):
    data = {"version": version, "key": key, "move": "correct", "target_entry": "2", "c_move": "replace",
            "c_for": "Ana", "c_slot": "2", "c_out": out, "reason": reason}
    return phone.client.post(f"{phone.url}/entry", data=data, headers=POST)


def test_a_correction_made_while_another_phone_plays_is_recorded(table, database):
    match, ana, ben = table
    assert ben.post(move="draw").status_code == 200  # Ben plays while Ana fills in her correction at version 3
    response = correct(ana, 3, "k1")
    assert response.status_code == 303, text(response)[:400]
    last = store.entries(database, match.id)[-1]["entry"]
    assert last["move"] == "correct" and last["target"] == 2 and last["entry"]["out"] == "9"
    screen = text(ana.client.get(f"{ana.url}/screen", headers=HX))
    assert "Ben" in screen and "Discard pile" in screen  # Ben's draw replayed after the correction


def test_a_correction_overtaken_by_another_comes_back_as_typed(table, database):
    match, ana, ben = table
    assert correct(ben, 3, "k-ben", out="7", reason="Ben saw a 7").status_code == 303  # Ben corrects it first
    before = entry_count(database, match.id)
    response = correct(ana, 3, "k2", reason="it was a nine, not an eight")
    page = text(response)
    assert response.status_code == 409, page[:400]
    assert entry_count(database, match.id) == before
    assert "Someone else entered something first" in page and "Correct entry 2" in page
    assert "it was a nine, not an eight" in page  # the reason typed is kept
    assert re.search(r'name="c_out" value="9" required checked', page)  # and the card chosen


def test_a_correction_of_an_entry_undone_meanwhile_is_refused(table, database):
    match, ana, ben = table
    assert ana.post(move="undo").status_code == 200
    before = entry_count(database, match.id)
    response = correct(ana, 3, "k6")
    assert response.status_code == 422 and "cannot be corrected" in text(response)
    assert entry_count(database, match.id) == before


def test_the_same_correction_posted_twice_is_recorded_once(table, database):
    match, ana, ben = table
    assert correct(ana, 3, "k3").status_code == 303
    count = entry_count(database, match.id)
    # The back button brings the page back from the server (a new key, the version now) with the form as filled.
    response = correct(ana, count, "k4")
    assert response.status_code == 422
    assert "Entry 2 already says that: nothing was changed." in text(response)
    assert "it was a 9" in text(response)
    assert entry_count(database, match.id) == count
    # A correction that does change it again is recorded.
    assert correct(ana, count, "k5", out="7", reason="no, a 7").status_code == 303
    assert entry_count(database, match.id) == count + 1
