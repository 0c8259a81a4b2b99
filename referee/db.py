"""SQLite access: one sqlite-utils Database per request, plus schema migrations.

Every connection runs in WAL mode with a busy timeout, synchronous=FULL (an
acknowledged move survives a crash or power cut) and foreign keys enforced.
Migrations use `sqlite_utils.Migrations`; they only ever append, so a newer
Referee opens an older database file and brings it up to date.

Connections are reused: opening one (pragmas, the WAL check) costs more than most
requests' queries, so a request checks out its worker thread's idle connection and
gives it back at teardown (any transaction it left open rolled back). A connection
is only ever used by one request at a time; each thread keeps at most one idle
connection (for the last file it used), and it is closed when the thread ends, when
the thread moves to another file, or by `close_idle`.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
import time
import weakref
from pathlib import Path

import click
from flask import Flask, current_app, g
from sqlite_utils import Database, Migrations

BUSY_TIMEOUT_MS = 10_000
SQLITE_HEADER = b"SQLite format 3\x00"
RESTORE_HINT = ("if it is Referee's database, put a backup in its place (`referee restore BACKUP --db {path}`), "
                "or use another file (--db)")

migrations = Migrations("referee")


@migrations()
def m001_matches_and_entries(db: Database) -> None:
    """Matches and their append-only event log."""
    db.execute(
        """
        CREATE TABLE matches (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            players TEXT NOT NULL DEFAULT '[]',   -- JSON list
            rules TEXT NOT NULL DEFAULT '{}',     -- JSON object
            version INTEGER NOT NULL DEFAULT 0,   -- = seq of the last entry
            join_code TEXT UNIQUE,
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE entries (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seq INTEGER NOT NULL,
            entry TEXT NOT NULL,                  -- JSON object
            seat INTEGER,
            device TEXT,
            client_key TEXT,
            created_at TEXT NOT NULL,
            PRIMARY KEY (match_id, seq),
            UNIQUE (match_id, client_key)
        )
        """
    )
    # The log is the truth: entries are never edited in place.
    db.execute(
        """
        CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries
        BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END
        """
    )
    db.execute(
        """
        CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries
        BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END
        """
    )


@migrations()
def m002_decks_and_photos(db: Database) -> None:
    """Taught decks (card references for recognition) and photos a player chose to keep."""
    db.execute(
        """
        CREATE TABLE decks (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,                   -- which recogniser: ratatat | standard
            refs BLOB,                            -- vision.References.to_bytes()
            faces TEXT NOT NULL DEFAULT '{}',     -- JSON: label -> photos taught
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE photos (
            id INTEGER PRIMARY KEY,
            match_id TEXT NOT NULL REFERENCES matches(id),
            version INTEGER NOT NULL,             -- the match version the photo was taken at
            jpeg BLOB NOT NULL,
            created_at TEXT NOT NULL
        )
        """
    )


@migrations()
def m003_seat_claims_and_rematches(db: Database) -> None:
    """Which phone holds which seat (an append-only record of claims and releases), and the match a
    rematch was started from (unique: two phones asking for a rematch at once get the same one)."""
    db.execute(
        """
        CREATE TABLE seat_claims (
            id INTEGER PRIMARY KEY,               -- the order claims were made in
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            device TEXT,                          -- NULL: the seat was released
            claimed_at TEXT NOT NULL,
            previous_device TEXT                  -- who held the seat just before
        )
        """
    )
    db.execute("CREATE INDEX seat_claims_by_seat ON seat_claims (match_id, seat, id)")
    db.execute(
        """
        CREATE TRIGGER seat_claims_no_update BEFORE UPDATE ON seat_claims
        BEGIN SELECT RAISE(ABORT, 'seat claims are append-only'); END
        """
    )
    db.execute(
        """
        CREATE TRIGGER seat_claims_no_delete BEFORE DELETE ON seat_claims
        BEGIN SELECT RAISE(ABORT, 'seat claims are append-only'); END
        """
    )
    db.execute("ALTER TABLE matches ADD COLUMN rematch_of TEXT")
    db.execute("CREATE UNIQUE INDEX matches_rematch_of ON matches (rematch_of)")


@migrations()
def m004_snapshots(db: Database) -> None:
    """Snapshots of match states, a cache to open long matches without replaying their whole log.
    Unlike the log they may be replaced or dropped; `tag` names the engine version that made them."""
    db.execute(
        """
        CREATE TABLE snapshots (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seq INTEGER NOT NULL,                 -- the state after this entry
            tag TEXT NOT NULL,                    -- game and engine version
            body TEXT NOT NULL,                   -- JSON, as the engine's replay dumps it
            created_at TEXT NOT NULL,
            PRIMARY KEY (match_id, tag, seq)
        )
        """
    )


@migrations()
def m005_people_groups_and_nights(db: Database) -> None:
    """Lasting player profiles (their renames and merges kept as append-only events), groups of
    friends, game nights, which profile sat in which seat of a match, and per-match summaries for
    the standings (a cache: rebuilt from the log whenever a match's version moves on)."""
    db.execute(
        """
        CREATE TABLE groups (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE,        -- the name with case and invisible characters folded
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE profiles (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,                   -- the current name (from profile_events)
            merged_into INTEGER REFERENCES profiles(id),  -- another profile of the same person
            canonical_id INTEGER NOT NULL,        -- where merges lead (itself when not merged)
            created_at TEXT NOT NULL
        )
        """
    )
    db.execute(
        """
        CREATE TABLE profile_events (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,                   -- create | rename | merge | unmerge
            profile_id INTEGER NOT NULL REFERENCES profiles(id),
            other_id INTEGER REFERENCES profiles(id),  -- merge: the profile it was merged into
            name TEXT,                            -- create, rename: the name
            undoes INTEGER REFERENCES profile_events(id),  -- unmerge: the merge it undoes
            created_at TEXT NOT NULL
        )
        """
    )
    for action in ("UPDATE", "DELETE"):
        db.execute(
            f"""
            CREATE TRIGGER profile_events_no_{action.lower()} BEFORE {action} ON profile_events
            BEGIN SELECT RAISE(ABORT, 'profile events are append-only'); END
            """
        )
    db.execute(
        """
        CREATE TABLE nights (
            id INTEGER PRIMARY KEY,
            group_id INTEGER NOT NULL REFERENCES groups(id),
            day TEXT NOT NULL,                    -- YYYY-MM-DD: the evening it began
            created_at TEXT NOT NULL,
            UNIQUE (group_id, day)
        )
        """
    )
    db.execute("ALTER TABLE matches ADD COLUMN group_id INTEGER REFERENCES groups(id)")
    db.execute("ALTER TABLE matches ADD COLUMN night_id INTEGER REFERENCES nights(id)")
    db.execute("CREATE INDEX matches_by_group ON matches (group_id, night_id)")
    db.execute(
        """
        CREATE TABLE match_seats (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            profile_id INTEGER NOT NULL REFERENCES profiles(id),
            PRIMARY KEY (match_id, seat)
        )
        """
    )
    db.execute("CREATE INDEX match_seats_by_profile ON match_seats (profile_id)")
    db.execute(
        """
        CREATE TABLE match_summaries (
            match_id TEXT PRIMARY KEY REFERENCES matches(id),
            version INTEGER NOT NULL,             -- the match version it was computed at
            tag TEXT NOT NULL,                    -- the summary format and the game's engine version
            game TEXT NOT NULL,
            rules_key TEXT NOT NULL,              -- the house rules off their defaults, as JSON
            over INTEGER NOT NULL,
            rounds TEXT NOT NULL DEFAULT '[]'     -- JSON: each round's score by seat (charts)
        )
        """
    )
    db.execute(
        """
        CREATE TABLE seat_summaries (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            place INTEGER NOT NULL,               -- 1 = first; tied players share a place
            won INTEGER NOT NULL,                 -- 1: won the match alone
            tied INTEGER NOT NULL,                -- 1: shared the win
            total INTEGER NOT NULL,
            extras TEXT NOT NULL DEFAULT '{}',    -- JSON: the game's own counters
            PRIMARY KEY (match_id, seat)
        )
        """
    )


@migrations()
def m006_summaries_as_columns(db: Database) -> None:
    """The per-match summaries made quick to add up: each seat's row carries its match's group, night,
    game, house rules and profile, and every counter in a column of its own. The summaries are a cache
    of the log: the old ones are dropped and computed again on the next look."""
    db.execute("DROP TABLE seat_summaries")
    db.execute("DROP TABLE match_summaries")
    db.execute(
        """
        CREATE TABLE match_summaries (
            match_id TEXT PRIMARY KEY REFERENCES matches(id),
            version INTEGER NOT NULL,             -- the match version it was computed at
            tag TEXT NOT NULL,                    -- the summary format and the game's engine version
            group_id INTEGER,
            night_id INTEGER,
            game TEXT NOT NULL,
            rules_key TEXT NOT NULL,              -- the house rules off their defaults, as JSON
            over INTEGER NOT NULL,
            rounds TEXT NOT NULL DEFAULT '[]'     -- JSON: each round's score by seat (charts)
        )
        """
    )
    db.execute("CREATE INDEX match_summaries_by_group ON match_summaries (group_id, night_id)")
    db.execute(
        """
        CREATE TABLE seat_summaries (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            group_id INTEGER,
            night_id INTEGER,
            game TEXT NOT NULL,
            rules_key TEXT NOT NULL,
            over INTEGER NOT NULL,
            profile_id INTEGER,                   -- who sat there (merges are followed when adding up)
            place INTEGER NOT NULL,               -- 1 = first; tied players share a place
            won INTEGER NOT NULL,                 -- 1: won the match alone
            tied INTEGER NOT NULL,                -- 1: shared the win
            total INTEGER NOT NULL,               -- the game's result tally
            rounds INTEGER NOT NULL DEFAULT 0,    -- rounds scored in points, and their counters
            round_points INTEGER NOT NULL DEFAULT 0,
            best_round INTEGER,
            rounds_won INTEGER NOT NULL DEFAULT 0,
            rounds_tied INTEGER NOT NULL DEFAULT 0,
            calls INTEGER NOT NULL DEFAULT 0,
            calls_won INTEGER NOT NULL DEFAULT 0,
            disputes INTEGER,                     -- NULL: the game keeps no flags
            games INTEGER NOT NULL DEFAULT 0,     -- games of an evening (Shithead, Spite & Malice)
            games_won INTEGER NOT NULL DEFAULT 0,
            shitheads INTEGER NOT NULL DEFAULT 0,
            placed INTEGER NOT NULL DEFAULT 0,    -- games with a finishing place, and their sum
            place_points INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (match_id, seat)
        )
        """
    )
    db.execute("CREATE INDEX seat_summaries_by_group ON seat_summaries (group_id, night_id)")
    db.execute("CREATE INDEX seat_summaries_by_profile ON seat_summaries (profile_id)")


@migrations()
def m007_standings_totals(db: Database) -> None:
    """Each person's all-time totals per group, game and house rules, added up from the seat summaries
    whenever one of theirs is saved (in the same transaction), so a group's standings read a few rows
    however many nights it has played; and indexes for a night's standings and the charts."""
    db.execute(
        """
        CREATE TABLE standings_totals (
            group_id INTEGER,                     -- NULL: matches of no group
            game TEXT NOT NULL,
            rules_key TEXT NOT NULL,
            profile_id INTEGER,
            matches INTEGER NOT NULL, won INTEGER NOT NULL, tied INTEGER NOT NULL,
            place_sum INTEGER NOT NULL, total INTEGER NOT NULL,
            rounds INTEGER, round_points INTEGER, best_round INTEGER, rounds_won INTEGER, rounds_tied INTEGER,
            calls INTEGER, calls_won INTEGER, disputes INTEGER, games INTEGER, games_won INTEGER,
            shitheads INTEGER, placed INTEGER, place_points INTEGER
        )
        """
    )
    db.execute("CREATE UNIQUE INDEX standings_totals_key ON standings_totals (group_id, game, rules_key, profile_id)")
    db.execute("CREATE INDEX seat_summaries_for_totals ON seat_summaries (group_id, game, rules_key, profile_id)")
    db.execute("CREATE INDEX seat_summaries_for_charts ON seat_summaries"
               " (group_id, game, rules_key, over, night_id, profile_id, won, tied)")
    db.execute("CREATE INDEX match_summaries_for_counts ON match_summaries (group_id, game, rules_key, over)")
    db.execute("CREATE INDEX match_summaries_for_freshness ON match_summaries (group_id, tag, version)")
    db.execute("CREATE INDEX matches_for_freshness ON matches (group_id, game, version)")
    db.execute("DELETE FROM seat_summaries")  # computed again on the next look, with their totals
    db.execute("DELETE FROM match_summaries")


@migrations()
def m008_match_dealer(db: Database) -> None:
    """Who deals a match's first game, when not its game's default: a rematch of Shithead is dealt by the
    last game's Shithead (SH-53). NULL: the game's default dealer."""
    db.execute("ALTER TABLE matches ADD COLUMN dealer INTEGER")


_made_dirs: set[str] = set()


def connect(path: str | os.PathLike) -> Database:
    """Open (creating if needed) the SQLite file with Referee's pragmas: a new connection, which the
    caller closes. Requests use `get_db` instead."""
    parent = str(Path(path).parent)
    if parent not in _made_dirs:
        Path(parent).mkdir(parents=True, exist_ok=True)
        _made_dirs.add(parent)
    # check_same_thread=False: a pooled connection may be closed by `close_idle` from another
    # thread; it is still used by one request at a time.
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")  # the busy timeout is set by connect's timeout
    database = Database(conn)
    _wal(database)
    conn.execute("PRAGMA synchronous = FULL")
    return database


def _wal(database: Database, attempts: int = 40) -> None:
    """WAL, once per file (it is a property of the file). Several threads opening a new file at once may
    each try to switch it: SQLite answers the later ones "database is locked" at once, busy timeout or
    not, and by then the file is switched (or soon will be): they look again instead of failing."""
    conn = database.conn
    for attempt in range(attempts):
        if conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
            return
        try:
            database.enable_wal()
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or attempt == attempts - 1:
                raise
            time.sleep(0.025)


class _Slot:
    """A thread's idle connection (at most one), and the file it is on."""

    __slots__ = ("path", "database", "__weakref__")

    def __init__(self) -> None:
        self.path: str | None = None
        self.database: Database | None = None


_local = threading.local()
_slots: weakref.WeakSet[_Slot] = weakref.WeakSet()  # every live thread's slot, for close_idle
_pool_lock = threading.Lock()


def _slot() -> _Slot:
    slot = getattr(_local, "slot", None)
    if slot is None:
        slot = _local.slot = _Slot()
        with _pool_lock:
            _slots.add(slot)
    return slot


def checkout(path: str | os.PathLike) -> Database:
    """A connection to `path` for the caller alone: this thread's idle one if it is on the same
    file, else a new one. Give it back with `checkin` (or close it)."""
    path = str(path)
    slot = _slot()
    with _pool_lock:
        database, slot.database = slot.database, None
        same = slot.path == path
    if database is not None:
        if same:
            return database
        database.close()  # this thread moved to another file: at most one idle connection
    return connect(path)


def checkin(database: Database, path: str | os.PathLike) -> None:
    """Give back a connection from `checkout`: any transaction left open is rolled back, then it is
    kept as this thread's idle connection (closed instead if the thread already has one)."""
    try:
        if database.conn.in_transaction:
            database.conn.rollback()
    except sqlite3.Error:
        _close_quietly(database)
        return
    slot = _slot()
    with _pool_lock:
        if slot.database is None:
            slot.path, slot.database = str(path), database
            return
    database.close()


def close_idle(path: str | os.PathLike | None = None) -> int:
    """Close the idle connections of every thread (to `path` only, if given); returns how many."""
    with _pool_lock:
        found = []
        for slot in list(_slots):
            if slot.database is not None and (path is None or slot.path == str(path)):
                found.append(slot.database)
                slot.database = None
    for database in found:
        _close_quietly(database)
    return len(found)


def _close_quietly(database: Database) -> None:
    try:
        database.close()
    except sqlite3.Error:
        pass


class DatabaseProblem(click.ClickException):
    """A database file (or its folder) that cannot be used, said in one line with what to do; the command
    exits with status 2, as for a usage error, and no traceback."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(self.format_message(), err=True)


def sqlite_problem(path: str | os.PathLike, pragma: str = "quick_check") -> str | None:
    """What is wrong with the SQLite file at ``path`` in a few words (cannot be read, not an SQLite
    database, damaged), or None when it opens and ``PRAGMA quick_check`` (or ``integrity_check``) finds
    it intact. Opened read-only: nothing is written. An empty file is a new, empty database."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError as err:
        return f"cannot be read ({err.strerror or err})"
    if not head:
        return None
    if head != SQLITE_HEADER:
        return "not an SQLite database"
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        return f"cannot be opened ({err})"
    try:
        verdict = [r[0] for r in conn.execute(f"PRAGMA {pragma}")]
    except sqlite3.DatabaseError as err:
        return f"damaged ({err})"
    finally:
        conn.close()
    if verdict != ["ok"]:
        return f"damaged ({'; '.join(verdict[:3])})"
    return None


def storage_trouble(err: BaseException) -> str | None:
    """Whether an SQLite error says the computer cannot store anything: "full" (the disk is full),
    "readonly" (the file, its folder or the disk cannot be written, or failed to); None for any other
    error (a bug, a damaged file...)."""
    if not isinstance(err, sqlite3.OperationalError):
        return None
    words = str(err).lower()
    if "disk is full" in words:
        return "full"
    if "readonly" in words or "read-only" in words or "disk i/o error" in words or "unable to open database" in words:
        return "readonly"
    return None


def describe_error(path: str | os.PathLike, err: sqlite3.Error) -> str:
    """An SQLite error met while opening or upgrading the database, as one line for the operator."""
    trouble = storage_trouble(err)
    if trouble == "full":
        return f"{path}: cannot be written: the disk is full ({err}). Free some space, then start again."
    if trouble == "readonly":
        return (f"{path}: cannot be written ({err}). The file and its folder must be writable by this user "
                "(SQLite keeps its journal beside the file).")
    return f"{path}: damaged or not a Referee database ({err}); {RESTORE_HINT.format(path=path)}."


def _writable(path: Path, folder: bool) -> str | None:
    """Why ``path`` (a file, or a folder to create files in) cannot be written, or None: tried for real
    (permissions, a read-only disk, an administrator's rights alike)."""
    try:
        if folder:
            with tempfile.TemporaryFile(dir=path):
                pass
        else:
            with open(path, "r+b"):
                pass
    except OSError as err:
        return err.strerror or str(err)
    return None


def check_database(path: str | os.PathLike, *, create: bool = True, write: bool = True,
                   pragma: str = "quick_check") -> None:
    """Raise DatabaseProblem (one line: which file or folder, what is wrong, what to do) unless ``path``
    can serve as Referee's database: with ``create`` a missing file (and its folder) is made later,
    else it must exist; with ``write`` the file, its ``-wal``/``-shm`` files and its folder must be
    writable (SQLite writes its journal beside the file); an existing file must be an intact SQLite
    database (``PRAGMA quick_check``: about 5 ms for 3,000 entries) of Referee's, or empty."""
    path = Path(path)
    folder = path.parent
    if not path.exists():
        if not create:
            raise DatabaseProblem(f"No database at {path}. Check --db (`referee init-db --db PATH` makes a new one).")
        if not folder.is_dir():
            if folder.exists():
                raise DatabaseProblem(f"{folder} is not a folder: the database {path} cannot be made there.")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise DatabaseProblem(f"Cannot make the folder {folder} for the database ({err.strerror or err}). "
                                      "Use a database in another folder (--db).") from None
    if write:
        why = _writable(folder, folder=True)
        if why:
            raise DatabaseProblem(f"Cannot write in the folder {folder} ({why}): SQLite keeps its journal beside "
                                  f"the database {path.name}, so the folder must be writable too. Give this user "
                                  "write access to it, or use a database in another folder (--db).")
        for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            if file.exists():
                why = _writable(file, folder=False)
                if why:
                    raise DatabaseProblem(f"Cannot write {file} ({why}). Make it writable by this user "
                                          f"(chmod u+w {file}), or use another file (--db).")
    if not path.exists():
        return
    what = sqlite_problem(path, pragma)
    if what:
        raise DatabaseProblem(f"{path}: {what}; {RESTORE_HINT.format(path=path)}.")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.Error as err:
        raise DatabaseProblem(describe_error(path, err)) from None
    finally:
        conn.close()
    if names and "_sqlite_migrations" not in names:
        raise DatabaseProblem(f"{path}: an SQLite database of another program (no Referee tables). "
                              "Use another file (--db).")


def migrate_checked(path: str | os.PathLike) -> list[str]:
    """`migrate`, an SQLite error said as DatabaseProblem (for the command line)."""
    try:
        return migrate(path)
    except sqlite3.Error as err:
        raise DatabaseProblem(describe_error(path, err)) from None


def migrate(path: str | os.PathLike) -> list[str]:
    """Apply pending migrations to the file at `path`; return their names."""
    database = connect(path)
    try:
        pending = [m.name for m in migrations.pending(database)]
        migrations.apply(database)
        return pending
    finally:
        database.close()


def get_db() -> Database:
    """The request's Database: checked out on first use, given back at teardown. Two requests
    never hold the same connection at once."""
    context_g = g._get_current_object()  # (one look-up of the context, not one per attribute)
    database = context_g.__dict__.get("db")
    if database is None:
        path = current_app.config["DATABASE"]
        database = context_g.db = checkout(path)
        context_g.db_path = path
    return database


def close_db(exc: BaseException | None = None) -> None:
    """Teardown: roll back what the request left open and give the connection back."""
    context_g = g._get_current_object()
    database = context_g.__dict__.pop("db", None)
    if database is not None:
        checkin(database, context_g.__dict__.pop("db_path", None) or current_app.config["DATABASE"])


#: The --db option's help, for every command that takes one: the default is not relative to the folder the
#: command runs in (a host running `referee export` from their home folder was told "no database").
DB_HELP = ("SQLite file (default: referee.sqlite in the folder $REFEREE_INSTANCE names, else in the folder "
           "'instance' beside Referee's own code, whatever folder the command runs in).")


@click.command("init-db")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), help=DB_HELP)
def init_db_command(db_path: str | None) -> None:
    """Create the database or bring its schema up to date."""
    from . import create_app

    overrides = {"MIGRATE_ON_START": False}
    if db_path:
        overrides["DATABASE"] = os.path.abspath(db_path)
    app = create_app(overrides)
    path = app.config["DATABASE"]
    check_database(path)  # one line and status 2, never a traceback, for a file that cannot be used
    applied = migrate_checked(path)
    click.echo(f"Database ready: {path} ({len(applied)} migration(s) applied)")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    if app.config.get("MIGRATE_ON_START", True):
        migrate(app.config["DATABASE"])
