"""Backups of the database file, taken and restored with SQLite's online backup API.

``backup`` copies the live file page by page inside one read transaction: in WAL mode the server goes
on writing meanwhile, and the copy is the database as it stood at one commit (never half an entry).
It is written to a temporary file beside the destination, checked (``PRAGMA integrity_check``) and
only then renamed into place.

``restore`` first checks the file: an SQLite database, intact, with Referee's tables and only
migrations this Referee knows (a backup from a newer Referee is refused). The current file is kept
beside itself (``*.before-restore-<time>.sqlite``), then the backup is copied over it through the
same API and its schema brought up to date.

A restore never happens under a running server: ``referee serve`` holds a shared lock on a file beside
the database (``<database>.serving.lock``, ``flock``) for as long as it runs, and ``restore`` takes the
same lock exclusively, without waiting, before it touches anything; while a server holds it, the restore
is refused. The operating system lets the lock go when the server's process ends, however it ends, so a
crashed server never leaves a stale lock behind (the file itself stays, empty and harmless). Two
servers on one database may both hold it; a server started during a restore is refused.
"""
from __future__ import annotations

import contextlib
import os
import sqlite3
from datetime import datetime
from pathlib import Path

from . import db as dbmod

try:
    import fcntl
except ImportError:  # not on Windows: there the serving lock is not taken (see serving_lock)
    fcntl = None

REQUIRED_TABLES = ("matches", "entries", "_sqlite_migrations")
HEADER = b"SQLite format 3\x00"


class BackupProblem(Exception):
    """A backup that cannot be taken, or a file that is not a Referee backup (said in words)."""


def lock_path(db_path: str | os.PathLike) -> Path:
    """The lock file beside the database that a running server holds."""
    db_path = Path(db_path).absolute()
    return db_path.with_name(f"{db_path.name}.serving.lock")


def serving_lock(db_path: str | os.PathLike, *, wait: bool = True):
    """Taken by ``referee serve`` for as long as it runs (keep the returned file open): a shared lock
    on the database's lock file, which a restore cannot take while it is held. With ``wait`` a server
    started during a restore waits for it to end; without, it raises BackupProblem at once."""
    path = lock_path(db_path)
    handle = open(path, "a+b")
    if fcntl is None:
        return handle
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        handle.close()
        raise BackupProblem(f"{db_path}: a restore is replacing this database; start the server once it is done")
    return handle


@contextlib.contextmanager
def not_serving(db_path: str | os.PathLike):
    """While no server uses the database: the lock file held exclusively for the block (taken without
    waiting); raises BackupProblem when a running server holds it."""
    path = lock_path(db_path)
    if not path.parent.is_dir() or fcntl is None:
        yield
        return
    with open(path, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BackupProblem(f"{db_path}: `referee serve` is using this database. Stop the server (Ctrl+C in "
                                "its window), then restore; the phones can join again once it is back.") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _copy(source: sqlite3.Connection, dest: sqlite3.Connection) -> None:
    with dest:
        source.backup(dest)  # every page in one step: one read transaction, one consistent state


def check(path: str | os.PathLike) -> dict:
    """Whether ``path`` is a Referee database that this version can open: returns what it holds
    (matches, entries, migrations); raises BackupProblem saying what is wrong."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(HEADER))
    except OSError as err:
        raise BackupProblem(f"{path}: cannot be read ({err.strerror or err})") from None
    if head != HEADER:
        raise BackupProblem(f"{path}: not an SQLite database")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as err:
        raise BackupProblem(f"{path}: cannot be opened ({err})") from None
    try:
        try:
            verdict = [r[0] for r in conn.execute("PRAGMA integrity_check")]
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as err:
            raise BackupProblem(f"{path}: damaged ({err})") from None
        if verdict != ["ok"]:
            raise BackupProblem(f"{path}: damaged ({'; '.join(verdict[:3])})")
        missing = [t for t in REQUIRED_TABLES if t not in names]
        if missing:
            raise BackupProblem(f"{path}: not a Referee database (no table {', '.join(missing)})")
        applied = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations WHERE migration_set = 'referee'")]
        known = {m.name for m in dbmod.migrations._migrations} if hasattr(dbmod.migrations, "_migrations") else None
        if known is not None:
            unknown = [name for name in applied if name not in known]
            if unknown:
                raise BackupProblem(f"{path}: made by a newer Referee (schema {', '.join(unknown)}); "
                                    "restore it with that version")
        matches = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
        entries = conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    finally:
        conn.close()
    return {"matches": matches, "entries": entries, "migrations": applied}


def backup(db_path: str | os.PathLike, dest: str | os.PathLike) -> dict:
    """Copy the database at ``db_path`` (which may be in use) to ``dest``; returns ``check(dest)``."""
    db_path, dest = Path(db_path), Path(dest)
    if not db_path.exists():
        raise BackupProblem(f"{db_path}: no such database")
    if dest.resolve() == db_path.resolve():
        raise BackupProblem(f"{dest}: that is the database itself")
    tmp = dest.with_name(f".{dest.name}.part")
    tmp.unlink(missing_ok=True)
    source = sqlite3.connect(db_path, timeout=dbmod.BUSY_TIMEOUT_MS / 1000)
    try:
        target = sqlite3.connect(tmp)
        try:
            _copy(source, target)
            target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
        finally:
            target.close()
    except sqlite3.Error as err:
        tmp.unlink(missing_ok=True)
        raise BackupProblem(f"the backup failed: {err}") from None
    finally:
        source.close()
    try:
        found = check(tmp)
    except BackupProblem:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, dest)
    return found


def restore(backup_path: str | os.PathLike, db_path: str | os.PathLike) -> dict:
    """Check ``backup_path``, keep the current database beside itself, copy the backup over it and
    bring its schema up to date; refused (BackupProblem) while a server uses the database. Returns ``check``'s figures and ``kept`` (the old file's copy)."""
    found = check(backup_path)
    db_path = Path(db_path)
    kept = None
    with not_serving(db_path):  # refused while `referee serve` uses the database
        if db_path.exists():
            kept = db_path.with_name(f"{db_path.stem}.before-restore-{datetime.now():%Y%m%d-%H%M%S}.sqlite")
            backup(db_path, kept)
        source = sqlite3.connect(f"file:{Path(backup_path)}?mode=ro", uri=True)
        try:
            target = dbmod.connect(db_path)
            try:
                _copy(source, target.conn)
            finally:
                target.close()
        finally:
            source.close()
        dbmod.close_idle(db_path)
        dbmod.migrate(db_path)
    return {**found, "kept": str(kept) if kept else None}
