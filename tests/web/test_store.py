"""The append-only log: versions, idempotency, rulings, concurrency, crashes."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading

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
