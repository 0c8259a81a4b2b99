"""Backups with SQLite's online backup API: consistent while entries keep arriving, checked before a
restore, and a restore that keeps the database it replaces."""
from __future__ import annotations

import os
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
        with pytest.raises(backup.BackupProblem) as err:  # nor a second server on the same database
            backup.serving_lock(path, wait=False, port=8001)
        assert "another Referee is already serving this database" in str(err.value)
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


def test_a_second_server_is_refused_naming_the_first(tmp_path, app):
    path = app.config["DATABASE"]
    held = backup.serving_lock(path, wait=False, port=8784)
    try:
        with pytest.raises(backup.BackupProblem) as err:
            backup.serving_lock(path, wait=False, port=8785)
        assert f"(pid {os.getpid()}, port 8784)" in str(err.value)
        link = tmp_path / "link.sqlite"
        link.symlink_to(path)
        with pytest.raises(backup.BackupProblem):  # the same file by another name
            backup.serving_lock(link, wait=False)
        copy = tmp_path / "b.sqlite"
        backup.backup(path, copy)
        with pytest.raises(backup.BackupProblem) as err:  # a restore names the server too
            backup.restore(copy, path)
        assert "port 8784" in str(err.value)
    finally:
        held.close()
    backup.serving_lock(path, wait=False).close()  # stopped: the next server starts


def test_backup_refuses_to_overwrite_a_file_that_is_not_a_backup(tmp_path, app):
    path = app.config["DATABASE"]
    precious = tmp_path / "precious.txt"
    precious.write_text("my notes\n")
    with pytest.raises(backup.BackupProblem) as err:
        backup.backup(path, precious)
    assert "is not a Referee backup" in str(err.value) and "--force" in str(err.value)
    assert precious.read_text() == "my notes\n"
    older = tmp_path / "older.sqlite"
    backup.backup(path, older)
    assert backup.backup(path, older)["matches"] == 0  # an older backup is replaced
    assert backup.backup(path, precious, force=True)["matches"] == 0
    assert backup.check(precious)["matches"] == 0


def test_backup_into_a_folder_that_does_not_exist(tmp_path, app):
    with pytest.raises(backup.BackupProblem) as err:
        backup.backup(app.config["DATABASE"], tmp_path / "nodir" / "b.sqlite")
    assert f"the folder {tmp_path / 'nodir'} does not exist" in str(err.value)


def test_backup_command_force_and_missing_folder(tmp_path, app):
    from click.testing import CliRunner

    from referee.cli import main

    path = app.config["DATABASE"]
    precious = tmp_path / "precious.txt"
    precious.write_text("my notes\n")
    refused = CliRunner().invoke(main, ["backup", str(precious), "--db", path])
    assert refused.exit_code == 2 and "not a Referee backup" in refused.output and "Traceback" not in refused.output
    assert precious.read_text() == "my notes\n"
    assert CliRunner().invoke(main, ["backup", str(precious), "--db", path, "--force"]).exit_code == 0
    nodir = CliRunner().invoke(main, ["backup", str(tmp_path / "nodir" / "b.sqlite"), "--db", path])
    assert nodir.exit_code == 2 and "does not exist" in nodir.output


def test_restore_over_a_damaged_database_keeps_it_aside(tmp_path, app, database):
    path = app.config["DATABASE"]
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id)
    good = tmp_path / "good.sqlite"
    backup.backup(path, good)
    database.close()
    dbmod.close_idle(path)
    broken = tmp_path / "broken.sqlite"
    broken.write_bytes(b"hello\n")
    done = backup.restore(good, broken)
    assert done["matches"] == 1 and done["kept"]
    assert open(done["kept"], "rb").read() == b"hello\n"  # kept byte for byte
    assert backup.check(broken)["matches"] == 1
