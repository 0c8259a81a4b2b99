"""Backups with SQLite's online backup API: consistent while entries keep arriving, checked before a
restore, and a restore that keeps the database it replaces."""
from __future__ import annotations

import sqlite3
import threading

import pytest

from referee import backup, db as dbmod, people, stats, store, tables
from tests.web.nights_helpers import example, play


def _consistent(path) -> int:
    """Every match's version is its last entry (no entry without its match row, none half-written)."""
    conn = sqlite3.connect(path)
    try:
        bad = conn.execute("SELECT m.id FROM matches m LEFT JOIN (SELECT match_id, max(seq) AS top, count(*) AS n"
                           " FROM entries GROUP BY match_id) e ON e.match_id = m.id"
                           " WHERE m.version != coalesce(e.top, 0) OR coalesce(e.n, 0) != m.version").fetchall()
        assert bad == []
        return conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    finally:
        conn.close()


def test_backup_during_a_burst_of_entries_is_consistent(app, tmp_path):
    path = app.config["DATABASE"]
    stop = threading.Event()
    errors = []
    transcript = example("three-rounds")

    def burst():
        db = dbmod.connect(path)
        try:
            while not stop.is_set():
                match = store.create_match(db, "ratatat", transcript["players"])
                for i, entry in enumerate(transcript["entries"]):
                    tables.append(db, match.id, i, entry, None)
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)
        finally:
            db.close()

    writers = [threading.Thread(target=burst) for _ in range(2)]
    for w in writers:
        w.start()
    seen = []
    try:
        for i in range(6):
            copy = tmp_path / f"copy{i}.sqlite"
            found = backup.backup(path, copy)
            seen.append(_consistent(copy))
            assert found["entries"] == seen[-1]
    finally:
        stop.set()
        for w in writers:
            w.join()
    assert not errors
    assert seen == sorted(seen) and seen[-1] > 0  # the copies caught the log as it grew
    assert _consistent(path) >= seen[-1]


def test_a_backup_restores_with_the_same_standings_and_keeps_the_replaced_file(database, app, tmp_path):
    path = app.config["DATABASE"]
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id)
    before = [(r["name"], r["won"]) for t in stats.standings(database, stats.Scope(g.id)) for r in t.rows]
    backup.backup(path, tmp_path / "club.sqlite")
    play(database, example("flag-at-reveal"), g.id)  # after the backup: gone once restored
    database.close()
    dbmod.close_idle(path)
    done = backup.restore(tmp_path / "club.sqlite", path)
    assert done["matches"] == 1 and done["kept"]
    assert backup.check(done["kept"])["matches"] == 2
    again = dbmod.connect(path)
    try:
        after = [(r["name"], r["won"]) for t in stats.standings(again, stats.Scope(g.id)) for r in t.rows]
    finally:
        again.close()
    assert after == before


def test_restore_refuses_what_is_not_a_referee_backup(tmp_path, app):
    path = app.config["DATABASE"]
    not_sqlite = tmp_path / "notes.sqlite"
    not_sqlite.write_bytes(b"hello")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE x (y)").connection.close()
    damaged = tmp_path / "damaged.sqlite"
    backup.backup(path, damaged)
    data = bytearray(damaged.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # a page overwritten
    damaged.write_bytes(bytes(data))
    newer = tmp_path / "newer.sqlite"
    backup.backup(path, newer)
    conn = sqlite3.connect(newer)
    conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES ('referee', 'm999_future', 'x')")
    conn.commit()
    conn.close()
    for bad, words in ((not_sqlite, "not an SQLite database"), (other, "not a Referee database"),
                       (damaged, "damaged"), (newer, "newer Referee"), (tmp_path / "missing.sqlite", "cannot be read")):
        with pytest.raises(backup.BackupProblem) as err:
            backup.restore(bad, path)
        assert words in str(err.value)
    with pytest.raises(backup.BackupProblem):
        backup.backup(path, path)


def test_restore_is_refused_while_a_server_holds_the_database(tmp_path, app, database):
    path = app.config["DATABASE"]
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id)
    backup.backup(path, tmp_path / "club.sqlite")
    play(database, example("flag-at-reveal"), g.id)
    held = backup.serving_lock(path)  # what `referee serve` holds while it runs
    try:
        with pytest.raises(backup.BackupProblem) as err:
            backup.restore(tmp_path / "club.sqlite", path)
        assert "`referee serve` is using this database" in str(err.value)
        assert backup.check(path)["matches"] == 2  # untouched
        assert not list(tmp_path.glob("*.before-restore-*"))  # not even a copy kept
        second = backup.serving_lock(path, wait=False)  # a second server on the same database is not refused
        second.close()
    finally:
        held.close()  # the server stops: its lock goes with it
    database.close()
    dbmod.close_idle(path)
    assert backup.restore(tmp_path / "club.sqlite", path)["matches"] == 1


def test_a_server_is_not_started_while_a_restore_holds_the_database(tmp_path, app):
    path = app.config["DATABASE"]
    with backup.not_serving(path):
        with pytest.raises(backup.BackupProblem) as err:
            backup.serving_lock(path, wait=False)
        assert "a restore is replacing this database" in str(err.value)
    backup.serving_lock(path, wait=False).close()
