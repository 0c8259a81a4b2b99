"""The store's submission keys and one tap's entries appended together (`store.append`'s ``follow``), on the
pure tally game: a key answers "already done" only to the device that made that entry with it, long keys
never collide, and the entries of one tap all stand or none does."""
from __future__ import annotations

import pytest

from referee import store


@pytest.fixture
def match(database):
    return store.create_match(database, "tally", ["Ann", "Bo"], {})


def add(database, match_id, version, n, tally, key=None, device="dev-a", follow=(), rung=None):
    return store.append(database, match_id, version, {"n": n}, key, tally.apply, replay_fn=tally.replay,
                        device=device, follow=[({"n": m}, k) for m, k in follow],
                        notify=(lambda m, v: rung.append(v)) if rung is not None else (lambda m, v: None))


def totals(database, match_id):
    return [e["entry"]["n"] for e in store.entries(database, match_id)]


def test_a_key_is_a_duplicate_only_for_the_same_device_and_entry(database, match, tally):
    assert not add(database, match.id, 0, 3, tally, key="k").duplicate
    again = add(database, match.id, 0, 3, tally, key="k")
    assert again.duplicate and again.seq == 1 and again.state == 3
    with pytest.raises(store.KeyReused):
        add(database, match.id, 1, 3, tally, key="k", device="dev-b")  # another phone
    with pytest.raises(store.KeyReused):
        add(database, match.id, 1, 4, tally, key="k")  # another entry
    assert totals(database, match.id) == [3]
    assert store.get_match(database, match.id).version == 1


def test_long_keys_are_kept_whole_by_their_digest(database, match, tally):
    one, two = "x" * 64 + "1", "x" * 64 + "2"
    add(database, match.id, 0, 1, tally, key=one)
    assert not add(database, match.id, 1, 2, tally, key=two).duplicate  # cut to 64, they were one key
    assert add(database, match.id, 1, 2, tally, key=two).duplicate
    keys = [e["client_key"] for e in store.entries(database, match.id)]
    assert keys == [store.bounded_key(one), store.bounded_key(two)] and len(set(keys)) == 2
    assert all(len(k) <= store.MAX_KEY_LENGTH and k.startswith(store.HASHED_KEY) for k in keys)
    assert store.bounded_key("short") == "short" and store.bounded_key("x" * 64) == "x" * 64
    assert store.bounded_key(keys[0]) != keys[0]  # a digest sent as a key is no other key's digest
    assert store.bounded_key(None) is None


def test_the_entries_of_one_tap_stand_together(database, match, tally):
    rung: list[int] = []
    done = add(database, match.id, 0, 2, tally, key="t", follow=[(3, "t-then")], rung=rung)
    assert (done.seq, done.version, done.state, done.duplicate) == (1, 2, 5, False)
    assert totals(database, match.id) == [2, 3] and rung == [2]
    assert [e["client_key"] for e in store.entries(database, match.id)] == ["t", "t-then"]
    assert store.state_at(database, store.get_match(database, match.id), lambda m, log: -1) == 5  # cached
    again = add(database, match.id, 0, 2, tally, key="t", follow=[(3, "t-then")])
    assert again.duplicate and again.seq == 1 and totals(database, match.id) == [2, 3]


def test_a_refused_second_entry_saves_neither(database, match, tally):
    rung: list[int] = []
    with pytest.raises(tally.Refused):
        add(database, match.id, 0, 2, tally, key="t", follow=[(-9, "t-then")], rung=rung)
    assert totals(database, match.id) == [] and rung == []
    assert store.get_match(database, match.id).version == 0
    # the keys were not consumed
    assert add(database, match.id, 0, 2, tally, key="t", follow=[(1, "t-then")]).version == 2


def test_a_second_entrys_key_in_use_saves_neither(database, match, tally):
    add(database, match.id, 0, 1, tally, key="used")
    with pytest.raises(store.KeyReused):
        add(database, match.id, 1, 2, tally, key="fresh", follow=[(3, "used")])
    assert totals(database, match.id) == [1]
