"""Backups of the database file, taken and restored with SQLite's online backup API.

``backup`` copies the live file page by page inside one read transaction: in WAL mode the server goes
on writing meanwhile, and the copy is the database as it stood at one commit (never half an entry).
It is written to a temporary file beside the destination, checked (``PRAGMA integrity_check``) and
only then renamed into place.

``restore`` first checks the file: an SQLite database, intact, with Referee's tables and only
migrations this Referee knows (a backup from a newer Referee is refused). The current file is kept
beside itself (``*.before-restore-<time>.sqlite``), then the backup is copied over it through the
same API and its schema brought up to date.

A restore never happens under a running server: ``referee serve`` holds a lock on a file beside
the database (``<database>.serving.lock``, ``flock``) for as long as it runs, and ``restore`` takes the
same lock exclusively, without waiting, before it touches anything; while a server holds it, the restore
is refused. The operating system lets the lock go when the server's process ends, however it ends, so a
crashed server never leaves a stale lock behind (the file itself stays, small and harmless). The server's
lock is exclusive too: a second server on the same database is refused (the two would serve one file,
but a move entered on one would never reach the other's phones live), and so is a server started during
a restore. Whoever holds the lock writes into the file what it is (server or restore, its pid and port),
so that the one refused can say who holds it.
"""
from __future__ import annotations

import contextlib
import json
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
HEADER = dbmod.SQLITE_HEADER


class BackupProblem(Exception):
    """A backup that cannot be taken, or a file that is not a Referee backup (said in words)."""


def lock_path(db_path: str | os.PathLike) -> Path:
    """The lock file beside the database that a running server holds (one per file, however it is named:
    symbolic links are followed)."""
    db_path = Path(db_path).resolve()
    return db_path.with_name(f"{db_path.name}.serving.lock")


def _holder(path: Path) -> dict:
    """What the lock file says of the process holding it (written once it had the lock); {} if nothing."""
    try:
        with open(path, "rb") as handle:
            found = json.loads(handle.read(4096) or b"{}")
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def _say_holder(handle, **what) -> None:
    """Write into the lock file (held) who holds it, for a process refused to say so."""
    try:
        handle.seek(0)
        handle.truncate(0)
        handle.write(json.dumps({**what, "pid": os.getpid()}).encode())
        handle.flush()
    except OSError:
        pass


def serving_lock(db_path: str | os.PathLike, *, wait: bool = True, port: int | None = None):
    """Taken by ``referee serve`` for as long as it runs (keep the returned file open): an exclusive lock
    on the database's lock file, which neither a restore nor a second server can take while it is held
    (two servers on one file would not see each other's moves live). With ``wait`` a server started
    during a restore waits for it to end; without, it raises BackupProblem at once, naming the server
    that holds the file (its pid and port) or the restore."""
    path = lock_path(db_path)
    handle = open(path, "a+b")
    if fcntl is None:
        return handle
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        handle.close()
        holder = _holder(path)
        if holder.get("what") == "restore":
            raise BackupProblem(f"{db_path}: a restore is replacing this database; start the server once it is done") \
                from None
        if holder.get("what") == "serve":
            where = f"pid {holder.get('pid')}" + (f", port {holder['port']}" if holder.get("port") else "")
            raise BackupProblem(f"{db_path}: another Referee is already serving this database ({where}). Phones "
                                "join that one; or stop it (Ctrl+C in its window) and start again.") from None
        raise BackupProblem(f"{db_path}: another Referee is using this database (a server, or a restore). "
                            "Stop it, or wait for the restore to end, then start again.") from None
    _say_holder(handle, what="serve", port=port)
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
            holder = _holder(path)
            where = (f" (pid {holder.get('pid')}" + (f", port {holder['port']})" if holder.get("port") else ")")
                     if holder.get("what") == "serve" else "")
            raise BackupProblem(f"{db_path}: `referee serve` is using this database{where}. Stop the server (Ctrl+C "
                                "in its window), then restore; the phones can join again once it is back.") from None
        _say_holder(handle, what="restore")
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
    if path.exists() and path.stat().st_size == 0:
        raise BackupProblem(f"{path}: an empty file, not a Referee database")
    what = dbmod.sqlite_problem(path, "integrity_check")
    if what:
        raise BackupProblem(f"{path}: {what}")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        try:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as err:
            raise BackupProblem(f"{path}: damaged ({err})") from None
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


def backup(db_path: str | os.PathLike, dest: str | os.PathLike, *, force: bool = False) -> dict:
    """Copy the database at ``db_path`` (which may be in use) to ``dest``; returns ``check(dest)``. An
    existing ``dest`` is replaced only if it is a Referee backup (an older one), or with ``force``."""
    db_path, dest = Path(db_path), Path(dest)
    if not db_path.exists():
        raise BackupProblem(f"No database at {db_path}")
    if not dest.parent.is_dir():
        raise BackupProblem(f"{dest}: the folder {dest.parent} does not exist")
    if dest.resolve() == db_path.resolve():
        raise BackupProblem(f"{dest}: that is the database itself")
    what = dbmod.sqlite_problem(db_path)
    if what:
        raise BackupProblem(f"{db_path}: {what}; there is nothing to back up")
    if dest.exists() and not force:
        try:
            check(dest)
        except BackupProblem:
            raise BackupProblem(f"{dest} already exists and is not a Referee backup: choose another name, or add "
                                "--force to overwrite it") from None
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
    if not db_path.parent.is_dir():
        raise BackupProblem(f"{db_path}: the folder {db_path.parent} does not exist")
    kept = None
    with not_serving(db_path):  # refused while `referee serve` uses the database
        if db_path.exists():
            kept = db_path.with_name(f"{db_path.stem}.before-restore-{datetime.now():%Y%m%d-%H%M%S}.sqlite")
            if dbmod.sqlite_problem(db_path) is None:
                backup(db_path, kept)
            else:  # damaged, or no database at all: kept as it is, byte for byte, and the backup takes its place
                dbmod.close_idle(db_path)
                for suffix in ("", "-wal", "-shm"):
                    if Path(f"{db_path}{suffix}").exists():
                        os.replace(f"{db_path}{suffix}", f"{kept}{suffix}")
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
