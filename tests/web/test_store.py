"""The append-only log: versions, idempotency, rulings, concurrency, crashes."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import store
from referee.db import connect, migrate


@pytest.fixture
def match(database):
    return store.create_match(database, "tally", ["Ann", "Bo"], {"target": 10})


def add(database, match_id, version, n, tally, key=None, **kw):
    return store.append(
        database, match_id, version, {"n": n}, key, tally.apply, replay_fn=tally.replay, notify=lambda m, v: None, **kw
    )


def test_create_and_get_match(database, match):
    loaded = store.get_match(database, match.id)
    assert loaded == match
    assert loaded.version == 0 and loaded.players == ["Ann", "Bo"] and loaded.rules == {"target": 10}
    assert len(match.id) == store.ID_LENGTH
    assert set(match.id) <= set(store.ID_ALPHABET)
    assert store.find_match_by_code(database, f"  {match.join_code.lower()} ") == match
    code = match.join_code
    for typed in (f"{code[:2]} {code[2:]}", f"{code[:2].lower()}-{code[2:]}", " ".join(code), f"{code}\t"):
        assert store.find_match_by_code(database, typed) == match, typed
    assert store.find_match_by_code(database, code[:3]) is None
    assert store.find_match_by_code(database, "????") is None


def test_unknown_match(database, tally):
    with pytest.raises(store.UnknownMatch):
        store.get_match(database, "nope")
    with pytest.raises(store.UnknownMatch):
        add(database, "nope", 0, 1, tally)


def test_append_records_entry_and_bumps_version(database, match, tally):
    rung = []
    result = store.append(
        database, match.id, 0, {"n": 3}, "k1", tally.apply, replay_fn=tally.replay,
        seat=1, device="dev-a", notify=lambda m, v: rung.append((m, v)),
    )
    assert (result.seq, result.version, result.state, result.duplicate) == (1, 1, 3, False)
    assert rung == [(match.id, 1)]
    assert store.get_match(database, match.id).version == 1
    [row] = store.entries(database, match.id)
    assert row["seq"] == 1 and row["entry"] == {"n": 3} and row["seat"] == 1
    assert row["device"] == "dev-a" and row["client_key"] == "k1" and row["created_at"]


def test_stale_version_carries_current(database, match, tally):
    add(database, match.id, 0, 1, tally)
    with pytest.raises(store.StaleVersion) as caught:
        add(database, match.id, 0, 1, tally)
    assert (caught.value.expected, caught.value.current) == (0, 1)
    assert len(store.entries(database, match.id)) == 1


def test_ruling_propagates_untouched_and_saves_nothing(database, match, tally):
    rung = []
    with pytest.raises(tally.Refused, match="total would be -5"):
        store.append(database, match.id, 0, {"n": -5}, "k", tally.apply, replay_fn=tally.replay,
                     notify=lambda m, v: rung.append(v))
    assert store.entries(database, match.id) == []
    assert store.get_match(database, match.id).version == 0
    assert rung == []
    assert not database.conn.in_transaction
    # the refused client_key was not consumed
    assert add(database, match.id, 0, 5, tally, key="k").version == 1


def test_duplicate_client_key_is_applied_once(database, match, tally):
    first = add(database, match.id, 0, 4, tally, key="form-1")
    add(database, match.id, 1, 2, tally, key="form-2")
    again = add(database, match.id, 0, 4, tally, key="form-1")  # resubmitted with its old version
    assert again.duplicate and again.seq == first.seq == 1
    assert again.version == 2 and again.state == 6
    assert [e["entry"]["n"] for e in store.entries(database, match.id)] == [4, 2]


def test_same_client_key_in_other_match_is_independent(database, match, tally):
    other = store.create_match(database, "tally", ["Cy"])
    add(database, match.id, 0, 1, tally, key="same")
    assert not add(database, other.id, 0, 1, tally, key="same").duplicate


def test_unserialisable_entry_is_rejected_before_locking(database, match, tally):
    with pytest.raises(TypeError):
        store.append(database, match.id, 0, {"n": object()}, None, tally.apply, replay_fn=tally.replay)
    assert not database.conn.in_transaction


def test_state_cache_avoids_replaying(database, match, tally):
    replays = []

    def counting_replay(m, log):
        replays.append(len(log))
        return tally.replay(m, log)

    store.state_cache.clear()
    for version in range(5):
        store.append(database, match.id, version, {"n": 1}, None, tally.apply,
                     replay_fn=counting_replay, notify=lambda m, v: None)
    assert replays == [0]  # only the very first move replayed (an empty log)
    store.state_cache.clear()
    assert store.state_at(database, store.get_match(database, match.id), counting_replay) == 5
    assert replays == [0, 5]


def test_state_cache_is_bounded():
    cache = store.StateCache(maxsize=2)
    for i in range(3):
        cache.put(("db", "m", i), i)
    assert cache.get(("db", "m", 0)) == (False, None)
    assert cache.get(("db", "m", 2)) == (True, 2)


def test_export_match_is_json(database, match, tally):
    add(database, match.id, 0, 2, tally, key="a")
    exported = json.loads(json.dumps(store.export_match(database, match.id)))
    assert exported["id"] == match.id and exported["version"] == 1
    assert exported["entries"][0]["entry"] == {"n": 2}


def test_entries_cannot_be_edited_in_place(database, match, tally):
    add(database, match.id, 0, 2, tally)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        database.execute("UPDATE entries SET entry = '{}'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        database.execute("DELETE FROM entries")


def test_two_threads_same_version_exactly_one_wins(app, match, tally):
    path = app.config["DATABASE"]
    barrier = threading.Barrier(2)
    outcomes = []

    def contender(n):
        db = connect(path)
        try:
            barrier.wait()
            outcomes.append(add(db, match.id, 0, n, tally, key=f"t{n}"))
        except store.StaleVersion as exc:
            outcomes.append(exc)
        finally:
            db.close()

    threads = [threading.Thread(target=contender, args=(n,)) for n in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    wins = [o for o in outcomes if isinstance(o, store.Appended)]
    stale = [o for o in outcomes if isinstance(o, store.StaleVersion)]
    assert len(wins) == 1 and len(stale) == 1
    assert stale[0].current == 1
    db = connect(path)
    try:
        assert len(store.entries(db, match.id)) == 1
    finally:
        db.close()


class NoNegative(Exception):
    pass


def never_negative(total, entry):
    if total + entry["n"] < 0:
        raise NoNegative(entry["n"])
    return total + entry["n"]


@settings(max_examples=40)
@given(moves=st.lists(st.integers(min_value=-6, max_value=6), max_size=25))
def test_log_replays_to_the_same_state(tmp_path_factory, moves):
    """Whatever moves are tried, the log holds exactly the accepted ones and
    replaying it from scratch gives the state append returned."""
    db = connect(tmp_path_factory.mktemp("prop") / "p.sqlite")
    migrate(db.conn.execute("PRAGMA database_list").fetchone()[2])
    replay = store.fold(lambda m: 0, never_negative)
    try:
        match = store.create_match(db, "tally", ["Ann"])
        version, expected_total, accepted = 0, 0, []
        for n in moves:
            try:
                result = store.append(db, match.id, version, {"n": n}, None, never_negative,
                                      replay_fn=replay, notify=lambda m, v: None)
            except NoNegative:
                assert expected_total + n < 0
                continue
            version, expected_total = result.version, expected_total + n
            accepted.append(n)
            assert result.state == expected_total
        assert [e["entry"]["n"] for e in store.entries(db, match.id)] == accepted
        assert replay(store.get_match(db, match.id), [{"n": n} for n in accepted]) == expected_total
    finally:
        db.close()


CRASH_SCRIPT = textwrap.dedent(
    """
    import sys
    from referee import store
    from referee.db import connect

    def apply(total, entry):
        return total + entry["n"]

    replay = store.fold(lambda m: 0, apply)
    db = connect(sys.argv[1])
    match_id = sys.argv[2]
    version = 0
    while True:
        version = store.append(db, match_id, version, {"n": 1, "pad": "x" * 200}, f"key-{version}",
                               apply, replay_fn=replay, notify=lambda m, v: None).version
        print(version, flush=True)
    """
)


@pytest.mark.slow
def test_sigkill_mid_burst_keeps_every_acknowledged_append(tmp_path):
    path = tmp_path / "crash.sqlite"
    migrate(path)
    db = connect(path)
    match_id = store.create_match(db, "tally", ["Ann"]).id
    db.close()
    proc = subprocess.Popen(
        [sys.executable, "-c", CRASH_SCRIPT, str(path), match_id], stdout=subprocess.PIPE, text=True
    )
    acknowledged = 0
    try:
        for line in proc.stdout:
            acknowledged = int(line)
            if acknowledged >= 150:
                break
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=10)
        proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    assert acknowledged >= 150
    db = connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        log = store.entries(db, match_id)
        seqs = [e["seq"] for e in log]
        assert seqs == list(range(1, len(seqs) + 1))  # contiguous, nothing torn
        assert len(seqs) >= acknowledged
        assert store.get_match(db, match_id).version == len(seqs)
    finally:
        db.close()


# --- Seat claims ---------------------------------------------------------------------------------


def test_claiming_a_seat_says_who_held_it_before(database, match):
    assert store.seat_holder(database, match.id, 0) is None
    assert store.claim_seat(database, match.id, 0, "phone-a") is None
    assert store.seat_holder(database, match.id, 0) == "phone-a"
    assert store.claim_seat(database, match.id, 0, "phone-b") == "phone-a"  # taken over
    assert store.seat_holder(database, match.id, 0) == "phone-b"
    assert store.claim_seat(database, match.id, 1, "phone-a") is None
    assert store.claim_seat(database, match.id, 1, "phone-a") == "phone-a"  # again: nothing new recorded
    claims = store.seat_claims(database, match.id)
    assert [(c["seat"], c["device"], c["previous_device"]) for c in claims] == [
        (0, "phone-a", None), (0, "phone-b", "phone-a"), (1, "phone-a", None)]
    assert all(c["claimed_at"] for c in claims)


def test_releasing_a_seat_is_recorded_and_only_its_holder_can(database, match):
    store.claim_seat(database, match.id, 0, "phone-a")
    store.claim_seat(database, match.id, 0, "phone-b")
    assert store.release_seat(database, match.id, 0, "phone-a") is False  # no longer holds it
    assert store.seat_holder(database, match.id, 0) == "phone-b"
    assert store.release_seat(database, match.id, 0, "phone-b") is True
    assert store.seat_holder(database, match.id, 0) is None
    assert store.seat_claims(database, match.id)[-1]["device"] is None
    assert store.seat_claims(database, match.id)[-1]["previous_device"] == "phone-b"
    assert store.claim_seat(database, match.id, 0, "phone-c") is None  # free again


def test_seat_claims_are_per_match_and_checked(database, match):
    other = store.create_match(database, "tally", ["Cy"])
    store.claim_seat(database, match.id, 0, "phone-a")
    assert store.seat_holder(database, other.id, 0) is None and store.seat_claims(database, other.id) == []
    for seat in (2, -1, "0", True, None):
        with pytest.raises(store.UnknownSeat):
            store.claim_seat(database, match.id, seat, "phone-a")
    for device in ("", None, "x" * 65, 7):
        with pytest.raises(ValueError):
            store.claim_seat(database, match.id, 1, device)
    with pytest.raises(store.UnknownMatch):
        store.claim_seat(database, "nope", 0, "phone-a")
    assert not database.conn.in_transaction
    assert len(store.seat_claims(database, match.id)) == 1


def test_seat_claims_cannot_be_edited_in_place(database, match):
    store.claim_seat(database, match.id, 0, "phone-a")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        database.execute("UPDATE seat_claims SET device = 'phone-z'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        database.execute("DELETE FROM seat_claims")


def test_who_holds_a_seat_is_cached_and_forgotten_on_every_claim_and_release(database, match):
    store.claim_seat(database, match.id, 0, "phone-a")
    assert store.seat_holder(database, match.id, 0) == "phone-a"
    queries = []
    database.conn.set_trace_callback(queries.append)
    try:
        assert store.seat_holder(database, match.id, 0) == "phone-a"
        assert not any("seat_claims" in q for q in queries)  # answered from the cache
        store.claim_seat(database, match.id, 0, "phone-b")
        assert store.seat_holder(database, match.id, 0) == "phone-b"
        store.release_seat(database, match.id, 0, "phone-b")
        assert store.seat_holder(database, match.id, 0) is None
    finally:
        database.conn.set_trace_callback(None)


def test_the_seat_cache_is_per_database_file(tmp_path):
    holders = []
    for name in ("one.sqlite", "two.sqlite"):
        migrate(tmp_path / name)
        db = connect(tmp_path / name)
        try:
            match = store.Match("same-id", "tally", ["Ann"], {}, 0, None, store.now())
            db.conn.execute("INSERT INTO matches (id, game, players, created_at) VALUES (?, 'tally', '[\"Ann\"]', ?)",
                            (match.id, match.created_at))
            db.conn.commit()
            if name == "one.sqlite":
                store.claim_seat(db, match.id, 0, "phone-one")
            holders.append(store.seat_holder(db, match.id, 0))
        finally:
            db.close()
    assert holders == ["phone-one", None]


def test_a_holder_read_while_a_claim_commits_is_not_cached():
    cache = store.HolderCache()
    key = ("file", "m", 0)
    generation = cache.generation  # a reader starts its query...
    cache.forget(key)  # ...a claim commits meanwhile...
    cache.put(key, "phone-old", generation)  # ...and what the reader read is not kept
    assert cache.get(key) is store.HolderCache._MISSING
    cache.put(key, "phone-new", cache.generation)
    assert cache.get(key) == "phone-new"


def test_the_seat_cache_is_bounded():
    cache = store.HolderCache(maxsize=3)
    for n in range(5):
        cache.put(("file", f"m{n}", 0), f"phone-{n}", cache.generation)
    assert cache.get(("file", "m0", 0)) is store.HolderCache._MISSING
    assert cache.get(("file", "m4", 0)) == "phone-4"


def test_a_hostile_seat_value_leaves_the_cache_working(database, match):
    with pytest.raises(store.UnknownSeat):
        store.claim_seat(database, match.id, [0], "phone-a")
    store.claim_seat(database, match.id, 0, "phone-a")
    assert store.seat_holder(database, match.id, 0) == "phone-a"


def test_two_threads_claiming_while_others_read_end_with_the_last_claim(app, match):
    path = app.config["DATABASE"]
    stop = threading.Event()
    errors = []

    def read():
        db = connect(path)
        try:
            while not stop.is_set():
                store.seat_holder(db, match.id, 0)
        except Exception as err:  # noqa: BLE001
            errors.append(err)
        finally:
            db.close()

    def claim(device):
        db = connect(path)
        try:
            for _ in range(30):
                store.claim_seat(db, match.id, 0, device)
        finally:
            db.close()

    readers = [threading.Thread(target=read) for _ in range(3)]
    for thread in readers:
        thread.start()
    claimers = [threading.Thread(target=claim, args=(d,)) for d in ("phone-a", "phone-b")]
    for thread in claimers:
        thread.start()
    for thread in claimers:
        thread.join()
    stop.set()
    for thread in readers:
        thread.join()
    db = connect(path)
    try:
        last = store.seat_claims(db, match.id)[-1]["device"]
        assert not errors and store.seat_holder(db, match.id, 0) == last
    finally:
        db.close()


# --- Rematches -----------------------------------------------------------------------------------


def test_a_rematch_is_found_from_its_match(database, match):
    assert store.find_rematch(database, match.id) is None
    again = store.create_match(database, "tally", ["Bo", "Ann"], {"target": 10}, rematch_of=match.id)
    assert again.rematch_of == match.id and again.id != match.id
    assert store.get_match(database, again.id) == again
    assert store.find_rematch(database, match.id) == again
    assert store.get_match(database, match.id).rematch_of is None
    # a second request gets the first rematch, not another match
    assert store.create_match(database, "tally", ["Bo", "Ann"], rematch_of=match.id) == again
    assert database.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 2


def test_two_phones_asking_for_a_rematch_at_once_get_the_same_one(app, match):
    path = app.config["DATABASE"]
    barrier = threading.Barrier(4)
    made = []

    def phone():
        db = connect(path)
        try:
            barrier.wait()
            made.append(store.create_match(db, "tally", ["Ann", "Bo"], rematch_of=match.id))
        finally:
            db.close()

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(made) == 4 and len({m.id for m in made}) == 1
    db = connect(path)
    try:
        assert db.conn.execute("SELECT count(*) FROM matches WHERE rematch_of = ?", (match.id,)).fetchone()[0] == 1
    finally:
        db.close()


# --- What the log will hold ----------------------------------------------------------------------


def test_an_entry_over_the_size_bound_is_refused_and_nothing_saved(database, match, tally):
    with pytest.raises(store.EntryTooLarge, match="at most 4,096"):
        store.append(database, match.id, 0, {"n": 1, "note": "n" * 450_000}, "k", tally.apply,
                     replay_fn=tally.replay, notify=lambda m, v: None)
    with pytest.raises(store.EntryTooLarge, match="nested"):
        add_raw(database, match.id, {"n": 1, "x": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}, tally)
    with pytest.raises(store.UnstorableEntry, match="Unicode"):
        add_raw(database, match.id, {"n": 1, "x": "\ud800"}, tally)
    assert store.entries(database, match.id) == [] and not database.conn.in_transaction
    assert add(database, match.id, 0, 1, tally, key="k").version == 1  # the key was not consumed
    deep_enough = {"n": 1, "x": [[[[[[[[[[1]]]]]]]]]]}  # 11 levels: stored
    assert add_raw(database, match.id, deep_enough, tally, version=1).version == 2


def add_raw(database, match_id, entry, tally, version=0):
    return store.append(database, match_id, version, entry, None, tally.apply, replay_fn=tally.replay,
                        notify=lambda m, v: None)


def test_the_entry_applied_is_the_one_stored_parsed_back(database, match):
    seen = []

    def apply(total, entry):
        seen.append(entry)
        return total + len(entry["cards"])

    store.append(database, match.id, 0, {"cards": ("5", "6"), "by": {1: "one"}}, None, apply,
                 replay_fn=store.fold(lambda m: 0, apply), notify=lambda m, v: None)
    assert seen == [{"cards": ["5", "6"], "by": {"1": "one"}}]  # a list, a string key: as replays see it
    assert store.entries(database, match.id)[0]["entry"] == seen[0]


def test_append_rings_only_the_notifier_it_is_given(database, match, tally):
    from referee import live

    add_raw(database, match.id, {"n": 1}, tally)  # no notifier at all: nothing to ring, no error
    rung = []
    subscription = live.broker.subscribe(match.id)
    try:
        store.append(database, match.id, 1, {"n": 1}, None, tally.apply, replay_fn=tally.replay,
                     notify=lambda m, v: rung.append(("given", v)))
        store.append(database, match.id, 2, {"n": 1}, None, tally.apply, replay_fn=tally.replay)
        assert subscription.empty()  # the store never rings the live doorbell on its own
    finally:
        live.broker.unsubscribe(match.id, subscription)
    assert rung == [("given", 2)]


def test_a_stored_entry_python_cannot_parse_reads_as_unreadable(database, match):
    with database.conn:
        database.conn.execute("INSERT INTO entries (match_id, seq, entry, created_at) VALUES (?, 1, ?, 'x')",
                              (match.id, "[" * 100_000 + "]" * 100_000))
    [row] = store.entries(database, match.id)
    assert row["entry"] == {"move": "unreadable", "bytes": 200_000}


# --- Snapshots -----------------------------------------------------------------------------------


@pytest.fixture
def every_8(monkeypatch):
    """Snapshots every 8 entries, so the tests stay short."""
    monkeypatch.setattr(store, "SNAPSHOT_EVERY", 8)


class SnapshotTally:
    """The tally as a replay with snapshots (the protocol `tables.Replay` follows), counting the
    entries it replays."""

    def __init__(self, tag="tally/1"):
        self.tag, self.replayed, self.restored = tag, 0, 0

    def __call__(self, match, log):
        self.replayed += len(log)
        return sum(e["n"] for e in log)

    def snapshot_tag(self, match):
        return self.tag

    def dump(self, state):
        return json.dumps({"total": state})

    def resume(self, match, body, rest):
        total = json.loads(body)["total"]
        self.restored += 1
        self.replayed += len(rest)
        return total + sum(e["entry"]["n"] for e in rest)


def fill(database, match_id, n, replay, start=0):
    for version in range(start, start + n):
        store.append(database, match_id, version, {"n": 1}, None, lambda t, e: t + e["n"], replay_fn=replay,
                     notify=lambda m, v: None)


def snapshot_seqs(database, match_id):
    return [r[0] for r in database.conn.execute("SELECT seq FROM snapshots WHERE match_id = ? ORDER BY seq",
                                                (match_id,))]


def test_opening_a_long_match_replays_only_what_follows_its_snapshot(database, match, every_8):
    replay = SnapshotTally()
    fill(database, match.id, 3 * store.SNAPSHOT_EVERY + 5, replay)
    assert snapshot_seqs(database, match.id) == [store.SNAPSHOT_EVERY * k for k in (1, 2, 3)]
    store.state_cache.clear()
    replay.replayed = 0
    assert store.state_at(database, store.get_match(database, match.id), replay) == 3 * store.SNAPSHOT_EVERY + 5
    assert (replay.restored, replay.replayed) == (1, 5)


def test_only_the_newest_snapshots_are_kept(database, match, every_8):
    fill(database, match.id, (store.SNAPSHOTS_KEPT + 2) * store.SNAPSHOT_EVERY, SnapshotTally())
    assert len(snapshot_seqs(database, match.id)) == store.SNAPSHOTS_KEPT


def test_a_snapshot_of_another_engine_version_is_ignored_and_rebuilt(database, match, every_8):
    fill(database, match.id, store.SNAPSHOT_EVERY + 3, SnapshotTally("tally/1"))
    store.state_cache.clear()
    newer = SnapshotTally("tally/2")
    assert store.state_at(database, store.get_match(database, match.id), newer) == store.SNAPSHOT_EVERY + 3
    assert (newer.restored, newer.replayed) == (0, store.SNAPSHOT_EVERY + 3)
    tags = database.conn.execute("SELECT tag, seq FROM snapshots WHERE match_id = ?", (match.id,)).fetchall()
    assert tags == [("tally/2", store.SNAPSHOT_EVERY + 3)]  # rebuilt at the version opened, the old one gone
    store.state_cache.clear()
    assert store.state_at(database, store.get_match(database, match.id), newer) == store.SNAPSHOT_EVERY + 3
    assert newer.restored == 1


def test_a_corrupt_snapshot_falls_back_to_an_older_one_then_to_the_log(database, match, every_8):
    replay = SnapshotTally()
    fill(database, match.id, 2 * store.SNAPSHOT_EVERY + 1, replay)
    with database.conn:
        database.conn.execute("UPDATE snapshots SET body = '{not json' WHERE seq = ?", (2 * store.SNAPSHOT_EVERY,))
    store.state_cache.clear()
    replay.replayed = replay.restored = 0
    assert store.state_at(database, store.get_match(database, match.id), replay) == 2 * store.SNAPSHOT_EVERY + 1
    assert (replay.restored, replay.replayed) == (1, store.SNAPSHOT_EVERY + 1)  # from the older snapshot
    with database.conn:
        database.conn.execute("UPDATE snapshots SET body = '[]'")
    store.state_cache.clear()
    replay.replayed = replay.restored = 0
    assert store.state_at(database, store.get_match(database, match.id), replay) == 2 * store.SNAPSHOT_EVERY + 1
    assert replay.replayed == 2 * store.SNAPSHOT_EVERY + 1  # the whole log


def test_an_entry_reaching_past_the_snapshot_is_applied_to_the_whole_log(database, match, every_8):
    replay = SnapshotTally()
    fill(database, match.id, store.SNAPSHOT_EVERY + 2, replay)
    store.state_cache.clear()
    states = []

    def needs_history(total, entry):
        states.append(total)
        if len(states) == 1:
            raise store.NeedsFullLog()
        return total + entry["n"]

    done = store.append(database, match.id, store.SNAPSHOT_EVERY + 2, {"n": 5}, None, needs_history,
                        replay_fn=replay, notify=lambda m, v: None)
    assert states == [store.SNAPSHOT_EVERY + 2] * 2 and done.state == store.SNAPSHOT_EVERY + 7
    assert replay.restored == 1 and replay.replayed >= store.SNAPSHOT_EVERY + 2  # the whole log, once more


# --- Another process's entries, another process's seat claims ------------------------------------------


def test_a_state_is_caught_up_from_an_earlier_cached_one_with_the_appends_apply(database, match, tally):
    """A process that did not write the newest entries (a screen process) applies only those to the state
    it has: the same state `append` cached, without a replay."""
    replay = SnapshotTally()
    fill(database, match.id, 5, replay)
    store.state_cache.clear()
    assert store.state_at(database, store.get_match(database, match.id), replay) == 5  # cached at version 5
    for version in range(5, 8):  # entries written meanwhile by "another process": not in this cache
        database.conn.execute("INSERT INTO entries (match_id, seq, entry, created_at) VALUES (?, ?, ?, ?)",
                              (match.id, version + 1, '{"n":2}', store.now()))
        database.conn.execute("UPDATE matches SET version = ? WHERE id = ?", (version + 1, match.id))
    database.conn.commit()
    replay.replayed = replay.restored = 0
    applied = []

    def apply(total, entry):
        applied.append(entry)
        return total + entry["n"]

    current = store.get_match(database, match.id)
    assert store.state_at(database, current, replay, apply) == 11
    assert applied == [{"n": 2}] * 3 and (replay.replayed, replay.restored) == (0, 0)
    assert store.state_at(database, current, replay, apply) == 11 and len(applied) == 3  # now cached


def test_catching_up_never_reads_past_the_version_asked_for(database, match, tally):
    replay = SnapshotTally()
    fill(database, match.id, 3, replay)
    store.state_cache.clear()
    at_1 = dataclasses.replace(store.get_match(database, match.id), version=1)
    assert store.state_at(database, at_1, replay) == 1
    at_2 = dataclasses.replace(at_1, version=2)  # the match as a request read it, before entry 3 was committed
    assert store.state_at(database, at_2, replay, lambda total, entry: total + entry["n"]) == 2


def test_an_entry_that_does_not_apply_to_the_cached_state_falls_back_to_the_log(database, match, tally):
    replay = SnapshotTally()
    fill(database, match.id, 4, replay)
    store.state_cache.clear()
    assert store.state_at(database, dataclasses.replace(store.get_match(database, match.id), version=2), replay) == 2
    replay.replayed = 0

    def refuses(total, entry):
        raise tally.Refused("not from here")

    assert store.state_at(database, store.get_match(database, match.id), replay, refuses) == 4
    assert replay.replayed == 4  # replayed the log instead


def test_a_state_too_far_behind_is_not_caught_up_entry_by_entry(database, match, every_8):
    replay = SnapshotTally()
    fill(database, match.id, 2 * store.SNAPSHOT_EVERY + 3, replay)
    store.state_cache.clear()
    store.state_at(database, dataclasses.replace(store.get_match(database, match.id), version=1), replay)
    replay.replayed = replay.restored = 0
    applied = []
    assert store.state_at(database, store.get_match(database, match.id), replay,
                          lambda t, e: applied.append(e) or t + e["n"]) == 2 * store.SNAPSHOT_EVERY + 3
    assert applied == [] and (replay.restored, replay.replayed) == (1, 3)  # from the newest snapshot


def test_the_state_cache_knows_the_newest_version_it_still_holds():
    cache = store.StateCache(maxsize=2)
    cache.put(("db", "m", 3), "three")
    cache.put(("db", "m", 5), "five")
    assert cache.newest("db", "m", 9) == (5, "five")
    assert cache.newest("db", "m", 5) is None  # only versions before the one asked for
    cache.put(("db", "other", 1), "x")
    cache.put(("db", "other", 2), "y")  # evicts m@3 and m@5
    assert cache.newest("db", "m", 9) is None
    cache.clear()
    assert cache.newest("db", "other", 9) is None


def test_a_reading_process_forgets_seat_holders_when_the_writer_claims_or_releases():
    counter = bytearray(8)  # stands in for the shared memory of `referee serve`'s processes
    writer, reader = store.HolderCache(), store.HolderCache()
    writer.share(counter, writer=True)
    reader.share(counter, writer=False)
    key = ("file", "m", 0)
    reader.put(key, "phone-a", reader.generation)
    assert reader.get(key) is store.HolderCache._MISSING  # it had never seen the counter: nothing kept
    reader.put(key, "phone-a", reader.generation)
    assert reader.get(key) == "phone-a"
    generation = reader.generation  # a reader's query starts...
    writer.forget(key)  # ...the writer's claim commits...
    assert reader.get(key) is store.HolderCache._MISSING  # ...and the reader forgets before answering
    reader.put(key, "phone-old", generation)
    assert reader.get(key) is store.HolderCache._MISSING  # what it read before the claim is not kept
    reader.put(key, "phone-b", reader.generation)
    writer.clear()
    assert reader.get(key) is store.HolderCache._MISSING
    writer.unshare(counter)
    reader.unshare(counter)


def test_the_seat_holder_follows_claims_made_through_another_connection(database, match):
    """The writer's claim, seen by a reader with its own cache (as a screen process sees the serving
    process's claims)."""
    counter = bytearray(8)
    reader = store.HolderCache()
    reader.share(counter, writer=False)
    store.holder_cache.share(counter, writer=True)
    try:
        store.claim_seat(database, match.id, 0, "phone-a")
        key = (store._db_key(database), match.id, 0)
        reader.get(key)
        reader.put(key, "phone-a", reader.generation)
        store.claim_seat(database, match.id, 0, "phone-b")
        assert reader.get(key) is store.HolderCache._MISSING
    finally:
        store.holder_cache.unshare(counter)


def test_a_reading_process_keeps_no_snapshot_outside_an_append(database, match, every_8, monkeypatch):
    fill(database, match.id, store.SNAPSHOT_EVERY + 2, SnapshotTally())
    database.conn.execute("DELETE FROM snapshots")
    database.conn.commit()
    store.state_cache.clear()
    monkeypatch.setattr(store, "writes_snapshots", False)
    assert store.state_at(database, store.get_match(database, match.id), SnapshotTally()) == store.SNAPSHOT_EVERY + 2
    assert snapshot_seqs(database, match.id) == []


# --- Group commit -------------------------------------------------------------------------------------


def _group(app, database, jobs, first_blocks=True):
    """Run `jobs` (match_id, version, n, key) as concurrent appends from their own threads and
    connections: the first holds the writer (its apply waits) until every other one is queued, so they
    are committed together. Returns (outcomes by job, COMMITs issued, notifications in order)."""
    path = app.config["DATABASE"]
    queued, release = threading.Event(), threading.Event()
    outcomes: dict[int, object] = {}
    commits, rung = [], []
    writer = store._writer_lock(store._db_key(database))

    def apply(total, entry):
        if entry.get("hold") and not release.is_set():
            queued.set()
            assert release.wait(20)
        if entry["n"] == 666:
            raise NoNegative("refused")
        return total + entry["n"]

    def notify(match_id, version):
        check = connect(path)  # rung only once the entry is committed: another connection sees it
        try:
            assert store.get_match(check, match_id).version >= version
        finally:
            check.close()
        rung.append((match_id, version))

    def run(i, match_id, version, n, key):
        db = connect(path)
        db.conn.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
        try:
            entry = {"n": n, **({"hold": True} if i == 0 and first_blocks else {})}
            outcomes[i] = store.append(db, match_id, version, entry, key, apply, replay_fn=lambda m, log: 0,
                                       notify=notify)
        except Exception as err:  # noqa: BLE001
            outcomes[i] = err
        finally:
            db.close()

    threads = [threading.Thread(target=run, args=(i, *job)) for i, job in enumerate(jobs)]
    threads[0].start()
    assert queued.wait(20)
    for queued_before, thread in enumerate(threads[1:]):
        thread.start()  # one at a time: they queue in this order
        _wait_for(lambda: len(writer.queue) == queued_before + 1)
    release.set()
    for thread in threads:
        thread.join(30)
    return outcomes, len(commits), rung


def _wait_for(condition, timeout=20.0):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end
        time.sleep(0.005)


def test_appends_that_wait_for_the_writer_share_one_commit(app, database):
    matches = [store.create_match(database, "tally", ["Ann"]).id for _ in range(6)]
    outcomes, commits, rung = _group(app, database, [(m, 0, 1, None) for m in matches])
    assert all(isinstance(o, store.Appended) and o.version == 1 for o in outcomes.values())
    assert commits == 2  # the first alone, then the five that queued meanwhile, together
    assert sorted(rung) == sorted((m, 1) for m in matches)
    assert [store.get_match(database, m).version for m in matches] == [1] * 6


def test_in_a_shared_commit_each_entry_stands_or_falls_alone(app, database):
    ann, bo, cy = (store.create_match(database, "tally", ["Ann"]).id for _ in range(3))
    jobs = [(ann, 0, 1, "a0"),  # holds the writer
            (bo, 0, 2, "b0"), (bo, 1, 3, "b1"),  # the second sees the first, made in the same batch
            (bo, 1, 9, "stale"),  # stale by then
            (cy, 0, 666, "c0"),  # refused by the rules
            (bo, 0, 2, "b0"),  # the same key again: the earlier result, applied once
            (cy, 0, 4, "c1"),  # unaffected by the refusal before it
            ("nosuch", 0, 1, None)]
    outcomes, commits, rung = _group(app, database, jobs)
    assert commits == 2
    assert outcomes[1].version == 1 and outcomes[2].version == 2 and outcomes[2].state == 5
    assert isinstance(outcomes[3], store.StaleVersion) and outcomes[3].current == 2
    assert isinstance(outcomes[4], NoNegative)
    assert outcomes[5].duplicate and outcomes[5].seq == 1 and outcomes[5].state == 5
    assert outcomes[6].version == 1 and outcomes[6].state == 4
    assert isinstance(outcomes[7], store.UnknownMatch)
    assert [e["entry"]["n"] for e in store.entries(database, bo)] == [2, 3]
    assert [e["entry"]["n"] for e in store.entries(database, cy)] == [4]
    assert rung == [(ann, 1), (bo, 1), (bo, 2), (cy, 1)]  # accepted entries only, in order, after COMMIT
    assert store.state_at(database, store.get_match(database, bo), lambda m, log: -1) == 5  # cached


def test_a_claim_waits_for_the_appends_writing(app, database, match):
    """Seat claims take the same writer: one at a time with the appends' batches."""
    other = store.create_match(database, "tally", ["Ann"]).id
    writer = store._writer_lock(store._db_key(database))
    assert writer.acquire()
    claimed = threading.Event()

    def claim():
        db = connect(app.config["DATABASE"])
        try:
            store.claim_seat(db, other, 0, "phone-a")
            claimed.set()
        finally:
            db.close()

    thread = threading.Thread(target=claim)
    thread.start()
    assert not claimed.wait(0.3)
    assert not writer.acquire(blocking=False)
    writer.release()
    assert claimed.wait(10)
    thread.join(10)


def test_an_append_inside_a_transaction_fails_alone(app, database, match, tally):
    database.conn.execute("BEGIN")
    try:
        with pytest.raises(sqlite3.OperationalError):
            add(database, match.id, 0, 1, tally)
    finally:
        database.conn.execute("ROLLBACK")
    assert add(database, match.id, 0, 1, tally).version == 1
