"""Connections, pragmas, per-request handling and schema migrations."""

from __future__ import annotations

import sqlite3

from click.testing import CliRunner
from sqlite_utils import Migrations

from referee import db as dbmod
from referee.cli import main


def test_connection_pragmas(tmp_path):
    database = dbmod.connect(tmp_path / "sub" / "x.sqlite")  # creates parent folder
    try:
        pragma = lambda name: database.conn.execute(f"PRAGMA {name}").fetchone()[0]  # noqa: E731
        assert pragma("journal_mode") == "wal"
        assert pragma("foreign_keys") == 1
        assert pragma("busy_timeout") == dbmod.BUSY_TIMEOUT_MS
        assert pragma("synchronous") == 2  # FULL
    finally:
        database.close()


def test_migrate_creates_schema_and_is_idempotent(tmp_path):
    path = tmp_path / "m.sqlite"
    assert dbmod.migrate(path) == ["m001_matches_and_entries", "m002_decks_and_photos",
                                   "m003_seat_claims_and_rematches", "m004_snapshots"]
    assert dbmod.migrate(path) == []
    database = dbmod.connect(path)
    try:
        assert {"matches", "entries", "_sqlite_migrations"} <= set(database.table_names())
        assert database["entries"].pks == ["match_id", "seq"]
    finally:
        database.close()


def test_foreign_keys_are_enforced(app, database):
    try:
        database.execute(
            "INSERT INTO entries (match_id, seq, entry, created_at) VALUES ('ghost', 1, '{}', 'now')"
        )
    except sqlite3.IntegrityError as exc:
        assert "FOREIGN KEY" in str(exc)
    else:
        raise AssertionError("an entry for a missing match was accepted")


def test_newer_version_opens_older_database(tmp_path):
    """A database made by this version is upgraded in place by a later one
    (modelled by the same migration set plus one more migration)."""
    path = tmp_path / "old.sqlite"
    dbmod.migrate(path)
    database = dbmod.connect(path)
    database.execute(
        "INSERT INTO matches (id, game, created_at) VALUES ('abc', 'tally', '2026-01-01T00:00:00Z')"
    )
    later = Migrations("referee")
    later()(dbmod.m001_matches_and_entries)

    @later()
    def m002_add_match_title(db):
        db["matches"].add_column("title", str)

    assert [m.name for m in later.pending(database)] == ["m002_add_match_title"]
    later.apply(database)
    row = database.execute("SELECT id, game, title FROM matches").fetchone()
    database.close()
    assert row == ("abc", "tally", None)


def test_get_db_is_per_request_and_closed_at_teardown(app):
    with app.app_context():
        first = dbmod.get_db()
        assert dbmod.get_db() is first
        assert first.execute("SELECT count(*) FROM matches").fetchone() == (0,)
    try:
        first.execute("SELECT 1")
    except sqlite3.ProgrammingError as exc:
        assert "closed" in str(exc)
    else:
        raise AssertionError("connection still open after teardown")


def test_init_db_command(tmp_path):
    path = tmp_path / "cli.sqlite"
    result = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert result.exit_code == 0, result.output
    assert "4 migration(s) applied" in result.output and str(path) in result.output
    again = CliRunner().invoke(main, ["init-db", "--db", str(path)])
    assert "0 migration(s) applied" in again.output


def test_this_version_opens_a_database_of_the_first_version(tmp_path):
    """A file made before decks and photos existed is upgraded in place, its matches kept."""
    path = tmp_path / "v1.sqlite"
    first = Migrations("referee")
    first()(dbmod.m001_matches_and_entries)
    database = dbmod.connect(path)
    first.apply(database)
    database.execute("INSERT INTO matches (id, game, players, created_at) VALUES "
                     "('abc', 'ratatat', '[\"Ann\", \"Bo\"]', '2026-01-01T00:00:00Z')")
    database.conn.commit()
    database.close()
    assert dbmod.migrate(path) == ["m002_decks_and_photos", "m003_seat_claims_and_rematches", "m004_snapshots"]
    database = dbmod.connect(path)
    assert database.execute("SELECT players, rematch_of FROM matches WHERE id = 'abc'").fetchone() == (
        '["Ann", "Bo"]', None)
    assert database["decks"].exists() and database["photos"].exists() and database["seat_claims"].exists()
    database.close()
