""""One phone for everyone" beside phones that hold seats: the family tablet in the middle of the table is a
helper, not a take-over. It takes no seat, the seated phones keep playing, and a phone that was seated gives
its own seat up when it becomes the shared phone (in one write)."""

from __future__ import annotations

import re

import pytest

from referee import store

HX = {"Origin": "http://localhost", "HX-Request": "true"}
POST = {"Origin": "http://localhost"}


def sit(client, match_id: str, seat: str, **extra):
    return client.post(f"/m/{match_id}/seat", data={"seat": seat, **extra}, headers=POST)


def entry(client, match_id: str, **fields):
    screen = client.get(f"/m/{match_id}/screen").get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', screen).group(1)
    return client.post(f"/m/{match_id}/entry", data={"version": version, **fields}, headers=HX)


@pytest.fixture
def table(app, database):
    """Ann and Bob each hold their seat on their own phone; the first discard is turned up."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob", "Cy"], {"rounds_n": 1})
    ann, bob = app.test_client(), app.test_client()
    assert sit(ann, match.id, "0").status_code == 303 and sit(bob, match.id, "1").status_code == 303
    assert entry(ann, match.id, move="turn_up", card="5").status_code == 200
    return match, ann, bob


def test_the_shared_phone_takes_no_seat_from_the_phones_that_hold_them(app, database, table):
    match, ann, bob = table
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    assert len(store.seat_claims(database, match.id)) == 2  # nothing taken, nothing recorded
    assert entry(tablet, match.id, move="draw", **{"for": "Ann"}).status_code == 200  # it helps Ann...
    assert entry(ann, match.id, move="replace", slot="1", out="9").status_code == 200  # ... who plays on


def test_a_seated_phone_that_serves_everyone_gives_its_own_seat_up(app, database, table):
    match, ann, bob = table
    assert sit(bob, match.id, "shared").status_code == 303
    assert store.seat_holder(database, match.id, 1) is None  # Bob's seat is free for his phone again
    assert store.seat_holder(database, match.id, 0) is not None  # Ann's is still hers
    assert sit(app.test_client(), match.id, "1").status_code == 303  # taken without asking anyone
