"""What one phone may enter through ``POST /m/<id>/entry`` beyond the entry itself: the second entry of a
one-tap pair (``then``), an override of a refused entry, the submission key, a photo attached; and a kept
photo's link. Each test failed before its fix (a tester reproduced each against a live server)."""
from __future__ import annotations

import html
import json

import numpy as np
import pytest

from referee import scans, store

from .test_play import HX, Phone, entry_count, text


def words(response) -> str:
    return html.unescape(text(response))


def moves(database, match_id) -> list[tuple[str, str | None]]:
    return [(e["entry"].get("move"), e["entry"].get("seat")) for e in store.entries(database, match_id)]


def device_of(phone: Phone) -> str:
    with phone.client.session_transaction() as session:
        return session["device"]


# --- 1. The second entry of a one-tap pair is this phone's own, as its forms offer it --------------------------


@pytest.fixture
def spite(app, database):
    """Spite & Malice, Ann and Bob each on their own phone; Bob's turn, a new pay-off top and a draw owed (he
    built his pay-off 2, then emptied his hand)."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann, bob = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    for phone, fields in [(ann, {"move": "top", "card": "9"}), (ann, {"move": "top", "card": "2", "for": "Bob"}),
                          (ann, {"move": "discard", "card": "7", "stack": "1"}),
                          (bob, {"move": "build", "source": "hand", "card": "A", "pile": "1"}),
                          (bob, {"move": "build", "source": "payoff", "card": "2", "pile": "1"}),
                          *((bob, {"move": "build", "source": "hand", "card": c, "pile": "1"}) for c in "3456")]:
        assert phone.post(**fields).status_code == 200, (fields, words(phone.post(**fields))[:300])
    return match, ann, bob


def test_another_players_turn_cannot_ride_on_a_top_through_then(spite, database):
    match, ann, bob = spite
    before = entry_count(database, match.id)
    assert ann.post(move="draw", **{"for": "Bob"}).status_code == 422  # SM-17: Bob's turn, not Ann's
    response = ann.post(move="top", card="5", then="draw", **{"for": "Bob"})
    assert 400 <= response.status_code < 500
    assert "cannot be followed by another in the same tap" in words(response)
    assert entry_count(database, match.id) == before  # neither: not the top alone either
    assert ("draw", "Bob") not in moves(database, match.id)[before:]
    # The top alone stands, from any phone; Bob's draw is his phone's to enter
    assert ann.post(move="top", card="5", **{"for": "Bob"}).status_code == 200
    assert bob.post(move="draw").status_code == 200
    assert moves(database, match.id)[before:] == [("top", "Bob"), ("draw", "Bob")]
    assert [e["device"] for e in store.entries(database, match.id)[before:]] == [device_of(ann), device_of(bob)]


def test_a_follow_up_only_after_the_moves_that_offer_it(app, database):
    """Rat-a-Tat Cat offers "then draw" after a Draw 2 and a discard during it: a reveal for another player, a
    call or a follow-up other than the draw carries no second entry."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    assert ana.post(move="turn_up", card="5").status_code == 200
    for phone, fields in [(ben, {"move": "reveal", "for": "Ana", "card1": "1", "card2": "2", "card3": "3",
                                 "card4": "4", "then": "draw"}),
                          (ana, {"move": "draw", "then": "draw"}),
                          (ana, {"move": "draw", "then": "call"})]:
        response = phone.post(**fields)
        assert response.status_code == 400 and "cannot be followed by another" in words(response), fields
    assert entry_count(database, match.id) == 1


def test_a_draw2_and_its_draw_stand_together_from_a_seat_and_from_the_shared_phone(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    shared = Phone(app, match.id, "shared")  # first: it takes no seat a phone holds
    ana = Phone(app, match.id, "0")
    assert ana.post(move="turn_up", card="5").status_code == 200
    assert ana.post(move="draw").status_code == 200
    answer = ana.post(key="k-d2", move="power", card="DRAW2", then="draw")
    assert answer.status_code == 200, words(answer)[:400]
    stored = store.entries(database, match.id)
    assert [(e["entry"]["move"], e["entry"]["seat"], e["device"]) for e in stored[2:]] == [
        ("power", "Ana", device_of(ana)), ("draw", "Ana", device_of(ana))]
    assert [e["client_key"] for e in stored[2:]] == ["k-d2", "k-d2-draw"]
    # the same tap sent again is the same two entries, applied once
    assert ana.post(version=2, key="k-d2", move="power", card="DRAW2", then="draw").status_code == 200
    assert entry_count(database, match.id) == 4
    # the shared phone names whose entries they are, and the second is the same player's
    answer = shared.post(move="discard", card="7", then="draw", **{"for": "Ana"})
    assert answer.status_code == 200, words(answer)[:400]
    assert moves(database, match.id)[4:] == [("discard", "Ana"), ("draw", "Ana")]


def test_a_refused_second_entry_leaves_neither(table_ratatat, database):
    """Both or neither: a Peek used "then draw" is refused at the draw (RTC-13, the peek comes first), and
    the Peek is not saved alone either; the ruling offers no override of a pair."""
    match, ana = table_ratatat
    before = entry_count(database, match.id)
    response = ana.post(move="power", card="PEEK", then="draw")
    assert response.status_code == 422 and "RTC-13" in words(response)
    assert "Nothing was saved" in words(response) and 'name="move" value="override"' not in text(response)
    assert entry_count(database, match.id) == before
    assert ana.post(move="power", card="PEEK").status_code == 200  # alone, it stands


@pytest.fixture
def table_ratatat(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    ana = Phone(app, match.id, "0")
    assert ana.post(move="turn_up", card="5").status_code == 200
    assert ana.post(move="draw").status_code == 200
    return match, ana


# --- 2. An override lets stand only what this phone could have entered itself ----------------------------------


@pytest.fixture
def ratatat(app, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bob"], {"rounds_n": 1})
    shared = Phone(app, match.id, "shared")  # first: it takes no seat a phone holds
    ann, bob = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    assert ann.post(move="turn_up", card="5").status_code == 200
    return match, ann, bob, shared


def test_an_override_of_another_seats_entry_is_refused(ratatat, database):
    match, ann, bob, _ = ratatat
    response = bob.post(move="override", rule="RTC-40", reason="x", entry=json.dumps({"move": "call", "seat": "Ann"}))
    assert response.status_code == 403
    assert "Only Ann's phone can let Ann's refused entry stand" in words(response)
    assert ("call", "Ann") not in [(e["entry"].get("entry", {}).get("move"), e["entry"].get("entry", {}).get("seat"))
                                   for e in store.entries(database, match.id)]
    assert entry_count(database, match.id) == 1


def test_an_override_of_ones_own_or_on_the_shared_phone_or_of_cards_anyone_enters_is_not_refused_for_its_seat(
        ratatat, database):
    match, ann, bob, shared = ratatat
    refused = bob.post(move="draw")  # Ann's turn: refused, and Bob's screen offers to let it stand
    assert refused.status_code == 422 and 'name="move" value="override"' in text(refused)
    answer = bob.post(move="override", rule="GEN-7", reason="Ann let Bob go first",
                      entry=json.dumps({"move": "draw", "seat": "Bob"}))
    assert answer.status_code == 200, words(answer)[:400]
    assert store.entries(database, match.id)[-1]["entry"]["entry"] == {"move": "draw", "seat": "Bob"}
    # the shared phone enters for everyone: its override of Ann's entry is the rules' to judge, not refused as hers
    answer = shared.post(move="override", rule="RTC-40", reason="x", entry=json.dumps({"move": "call", "seat": "Ann"}))
    assert answer.status_code != 403 and "Only Ann's phone" not in words(answer)
    # a reveal names whose cards they are, from any phone: its override is not another seat's entry
    answer = bob.post(move="override", rule="RTC-30", reason="x", entry=json.dumps(
        {"move": "reveal", "seat": "Ann", "cards": ["1", "2", "3", "4"]}))
    assert answer.status_code != 403 and "Only Ann's phone" not in words(answer)


# --- 4. A kept photo's id beyond SQLite's integers names nothing ------------------------------------------------


@pytest.mark.parametrize("photo", ["9223372036854775808", "9223372036854775807", "9" * 40, "0"])
def test_a_huge_photo_id_is_404(ratatat, photo):
    match, ann, _, _ = ratatat
    response = ann.client.get(f"/m/{match.id}/photo/{photo}.jpg")
    assert response.status_code == 404


# --- 5. A submission key answers "already done" only to its own phone, for its own entry ------------------------


def test_a_key_reused_by_another_phone_or_for_another_entry_is_409(ratatat, database):
    match, ann, bob, _ = ratatat
    assert ann.post(key="tap-1", move="draw").status_code == 200
    assert ann.post(version=1, key="tap-1", move="draw").status_code == 200  # sent again: applied once
    assert entry_count(database, match.id) == 2
    for phone, fields in [(bob, {"move": "draw"}),  # the same form, another phone
                          (ann, {"move": "replace", "slot": "1", "out": "7"})]:  # another entry
        response = phone.post(key="tap-1", **fields)
        assert response.status_code == 409, (fields, words(response)[:300])
        assert "That button was already used for another entry: the table has moved on." in words(response)
    assert entry_count(database, match.id) == 2
    assert ann.post(key="tap-2", move="replace", slot="1", out="7").status_code == 200


def test_long_keys_that_differ_only_at_their_end_do_not_collide(ratatat, database):
    match, ann, _, _ = ratatat
    common = "k" * 80
    assert ann.post(key=common + "-draw", move="draw").status_code == 200
    assert ann.post(key=common + "-replace", move="replace", slot="1", out="7").status_code == 200
    assert moves(database, match.id)[1:] == [("draw", "Ann"), ("replace", "Ann")]
    keys = [e["client_key"] for e in store.entries(database, match.id)[1:]]
    assert len(set(keys)) == 2 and all(len(k) <= store.MAX_KEY_LENGTH for k in keys)
    # the same long key again is the same tap: applied once
    assert ann.post(version=2, key=common + "-replace", move="replace", slot="1", out="7").status_code == 200
    assert entry_count(database, match.id) == 3


# --- 6. Only a scan taken at this table is kept with its entry --------------------------------------------------


def _scan(owner: str, place: str) -> str:
    return scans.scans.put(np.full((40, 30, 3), 200, np.uint8), [], owner=owner, place=place).token


def test_only_a_photo_taken_at_this_match_is_attached(app, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bob"], {"rounds_n": 1})
    other = store.create_match(database, "ratatat", ["Ann", "Bob"], {"rounds_n": 1})
    ann = Phone(app, match.id, "0")
    me = device_of(ann)
    teaching, elsewhere = _scan(me, "teach:1"), _scan(me, f"{other.id}:turn_up:")
    assert ann.post(move="turn_up", card="5", attach=teaching).status_code == 200
    assert ann.post(move="draw", attach=elsewhere).status_code == 200
    assert scans.kept_photos(database, match.id) == {}
    here = _scan(me, f"{match.id}:replace:")
    assert ann.post(move="replace", slot="1", out="7", attach=here).status_code == 200
    assert list(scans.kept_photos(database, match.id)) == [3]
    assert scans.attach(database, match.id, 3, _scan(me, f"{match.id}x:turn_up:"), owner=me) is False
    assert scans.attach(database, match.id, 3, _scan("", ""), owner=me) is False
