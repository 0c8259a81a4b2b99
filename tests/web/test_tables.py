"""A match's state is its log replayed: snapshots restore the same Log, undo and corrections that reach
past a snapshot rebuild from the whole log, stored entries that no longer apply are skipped, and
`tables.append` records and announces an entry. Real engine, real SQLite file."""
from __future__ import annotations

import random

import pytest

from referee import live, store, tables
from referee.games import ratatat as game
from referee.games.base import Correct, EntryError, Undo
from referee.games.ratatat_sim import Table

PLAYERS = ("Ana", "Ben", "Cy", "Dee")


@pytest.fixture(autouse=True)
def every_8(monkeypatch):
    """Snapshots every 8 entries, so short matches cross several."""
    monkeypatch.setattr(store, "SNAPSHOT_EVERY", 8)


def play(n: int, seed: int = 3) -> list[dict]:
    """``n`` entries a careful table would make, in their stored (transcript) form."""
    table = Table(PLAYERS, {"rounds_n": 1000}, random.Random(seed), check=False)
    out = []
    while len(out) < n:
        move = table.choose()
        new, _ = game.apply(table.state, move, len(out))
        table.accept(move, new)
        out.append(game.move_to_dict(move, PLAYERS))
    return out


@pytest.fixture
def long_match(database):
    match = store.create_match(database, "ratatat", list(PLAYERS), {"rounds_n": 1000})
    for version, entry in enumerate(play(45)):
        tables.append(database, match.id, version, entry, None)
    return store.get_match(database, match.id)


def opened(database, match_id):
    """The log as a freshly started server opens it (state cache empty)."""
    store.state_cache.clear()
    return store.state_at(database, store.get_match(database, match_id), tables.replay)


def whole(database, match_id):
    return store.replay_all(database, store.get_match(database, match_id), tables.replay)


def same_log(a, b) -> bool:
    return a.state == b.state and a.positions() == b.positions() and a.fed == b.fed and a.refused == b.refused


def test_a_snapshot_restores_the_log_the_whole_replay_gives(database, long_match):
    log = opened(database, long_match.id)
    root = log.head
    while root.parent is not None:
        root = root.parent
    assert root.state is None and root.behind  # restored: what stood before the snapshot has no state
    assert same_log(log, whole(database, long_match.id))
    assert log.head.move == whole(database, long_match.id).head.move


def test_undo_after_a_restart_steps_back_past_the_snapshot(database, long_match):
    match = long_match
    for _ in range(12):  # further back than the newest snapshot (every 8 entries)
        store.state_cache.clear()
        done = tables.append(database, match.id, match.version, game.move_to_dict(Undo(), PLAYERS), None)
        match = store.get_match(database, match.id)
        assert same_log(done.state, whole(database, match.id))
        assert same_log(opened(database, match.id), done.state)
    assert len(done.state.positions()) == 45 - 12


def test_a_correction_after_a_restart_replays_from_the_corrected_entry(database, long_match):
    entries = [e["entry"] for e in store.entries(database, long_match.id)]
    target = 3
    fixed = game.parse_move(entries[target], PLAYERS, {"rounds_n": 1000})
    correction = game.move_to_dict(Correct(target, fixed, "as it was, to check", 0), PLAYERS)
    opened(database, long_match.id)  # the cache holds a log restored from a snapshot
    done = tables.append(database, long_match.id, long_match.version, correction, None)
    after = whole(database, long_match.id)
    assert same_log(done.state, after) and after.positions() == list(range(45))
    assert same_log(opened(database, long_match.id), after)


def test_snapshots_of_another_engine_version_are_ignored(database, long_match, monkeypatch):
    old_tag = tables.replay.snapshot_tag(long_match)
    monkeypatch.setattr(game, "ENGINE_VERSION", "next", raising=False)
    new_tag = tables.replay.snapshot_tag(long_match)
    assert new_tag != old_tag
    assert same_log(opened(database, long_match.id), whole(database, long_match.id))
    tags = {r[0] for r in database.conn.execute("SELECT tag FROM snapshots")}
    assert tags == {new_tag}  # rebuilt from the log under the new engine's tag


def test_a_snapshot_of_the_json_format_before_is_passed_over(database, long_match):
    """Format 1 kept the body as JSON under a tag ending in "/1": such a snapshot (a file from before) is
    not read as this format's; the log is replayed and the next snapshot is this format's."""
    body = store.dumps({"state": {}, "positions": [], "fed": 0, "move": None, "refused": []})
    old_tag = f"ratatat/{game.ENGINE_VERSION}/1"
    with database.conn:
        database.conn.execute("DELETE FROM snapshots")
        database.conn.execute("INSERT INTO snapshots (match_id, seq, tag, body, created_at) VALUES (?, ?, ?, ?, ?)",
                              (long_match.id, 40, old_tag, body, store.now()))
    assert same_log(opened(database, long_match.id), whole(database, long_match.id))
    tags = {r[0] for r in database.conn.execute("SELECT tag FROM snapshots")}
    assert tags == {tables.replay.snapshot_tag(long_match)} and old_tag not in tags
    assert isinstance(database.conn.execute("SELECT body FROM snapshots").fetchone()[0], bytes)


def test_a_snapshot_keeps_what_a_correction_set_aside(database):
    """The entries a correction set aside (``Log.refused``) are part of the snapshot: after a restart the
    history still knows them (the correction lands on a snapshot's entry: every 8th)."""
    from referee.games.ratatat_moves import Discard, Draw, Replace, TurnUp, UsePower

    players = ("Ana", "Ben")
    match = store.create_match(database, "ratatat", list(players), {})
    moves = [TurnUp("5"), Draw(0), UsePower(0, "DRAW2"), Draw(0), Replace(0, 1, "8"), Draw(1), Discard(1, "2"),
             Correct(2, UsePower(0, "PEEK"), "it was a Peek", 1)]
    for version, move in enumerate(moves):
        done = tables.append(database, match.id, version, game.move_to_dict(move, players), None)
    assert [p for p, _, _ in done.state.refused] == [3, 4, 5, 6]
    assert database.conn.execute("SELECT seq FROM snapshots WHERE match_id = ?", (match.id,)).fetchone()[0] == 8
    restored = opened(database, match.id)
    assert same_log(restored, whole(database, match.id)) and restored.refused == done.state.refused


def test_a_stored_entry_that_no_longer_applies_is_skipped_and_positions_kept(database):
    match = store.create_match(database, "ratatat", list(PLAYERS), {"rounds_n": 1000})
    entries = play(20)
    stored = [*entries[:5], {"move": "fly"}, {"move": "draw", "seat": "Dee"}, *entries[5:]]
    with database.conn:
        for seq, entry in enumerate(stored, start=1):
            database.conn.execute("INSERT INTO entries (match_id, seq, entry, created_at) VALUES (?, ?, ?, ?)",
                                  (match.id, seq, store.dumps(entry), store.now()))
        database.conn.execute("UPDATE matches SET version = ? WHERE id = ?", (len(stored), match.id))
    log = opened(database, match.id)
    assert log.positions() == [0, 1, 2, 3, 4, *range(7, 22)]
    assert [(p, rule) for p, rule, _ in log.refused] == [(5, tables.SKIPPED_RULE), (6, "GEN-7")]
    done = tables.append(database, match.id, len(stored), game.move_to_dict(Undo(), PLAYERS), None)
    assert done.state.positions() == [0, 1, 2, 3, 4, *range(7, 21)]


def test_append_announces_the_entry_on_the_live_doorbell(database):
    match = store.create_match(database, "ratatat", list(PLAYERS), {"rounds_n": 1})
    doorbell = live.broker.subscribe(match.id)
    try:
        done = tables.append(database, match.id, 0, {"move": "turn_up", "card": "5"}, "k", seat=0, device="d")
        assert doorbell.get_nowait() == done.version == 1
    finally:
        live.broker.unsubscribe(match.id, doorbell)
    assert store.entries(database, match.id)[0]["device"] == "d"


def test_append_refuses_unstorable_and_unreadable_entries_as_malformed(database):
    match = store.create_match(database, "ratatat", list(PLAYERS), {"rounds_n": 1})
    with pytest.raises(EntryError, match="at most"):
        tables.append(database, match.id, 0, {"move": "turn_up", "card": "5", "note": "n" * 450_000}, None)
    with pytest.raises(EntryError, match="Unicode"):
        tables.append(database, match.id, 0, {"move": "turn_up", "card": "\ud800"}, None)
    with pytest.raises(EntryError):
        tables.append(database, match.id, 0, {"move": "turn_up", "card": "\u0663"}, None)
    assert store.entries(database, match.id) == []


def test_an_entry_the_engine_cannot_read_is_refused_not_an_error(database):
    log = tables.start(store.create_match(database, "ratatat", list(PLAYERS)))
    entry: dict = {"move": "draw", "seat": "Ana"}
    for _ in range(5000):
        entry = {"move": "override", "rule": "RTC-13", "entry": entry, "reason": "x", "seat": "Ana"}
    with pytest.raises(EntryError):
        tables.checked_feed(log, entry)


def test_a_snapshot_taken_just_after_a_correction_still_lets_undo_take_it_back(database, long_match):
    """The 48th entry (a snapshot's) is a correction: a freshly started server still knows the next undo
    takes the correction back (the snapshot is not used for it: the whole log is)."""
    match = long_match
    for _ in range(2):
        tables.append(database, match.id, match.version, game.move_to_dict(Undo(), PLAYERS), None)
        match = store.get_match(database, match.id)
    entries = [e["entry"] for e in store.entries(database, match.id)]
    fixed = game.parse_move(entries[3], PLAYERS, {"rounds_n": 1000})
    tables.append(database, match.id, match.version,
                  game.move_to_dict(Correct(3, fixed, "as it was, to check", 0), PLAYERS), None)
    match = store.get_match(database, match.id)
    assert match.version == 48 and whole(database, match.id).undo_target() == 47
    assert opened(database, match.id).undo_target() == 47
    done = tables.append(database, match.id, match.version, game.move_to_dict(Undo(), PLAYERS), None)
    assert same_log(done.state, whole(database, match.id)) and done.state.undone[-1] == (48, 47)
