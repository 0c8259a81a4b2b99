"""The append-only event log: matches and their entries.

The log is the truth and is never edited in place.  A match's `version` is the
`seq` of its last entry (0 for a new match).  `append` is the only writer:
it checks the caller's expected version, applies the move with a game's pure
`apply_fn` and commits the entry, all inside one `BEGIN IMMEDIATE` transaction,
and only after COMMIT calls the caller's `notify` (the live doorbell).

The store knows no game: callers pass `apply_fn(state, entry) -> state` (which
may raise, e.g. the engine's `Ruling`; the exception propagates untouched and
nothing is saved) and `replay_fn(match, entries) -> state` that rebuilds the
state from the log.  The entry applied is the stored JSON parsed back, so what
is accepted is exactly what every later replay will see.  States are immutable
values, cached per process by (database, match id, version) so a move does not
replay the whole log.

Snapshots: a `replay_fn` may also offer `snapshot_tag(match)`, `dump(state)`
and `resume(match, body, rest)`.  Then every SNAPSHOT_EVERY entries the state
is kept in the `snapshots` table under that tag (the engine's version), and
opening a match restores the newest snapshot and replays only the entries after
it.  Snapshots are a cache: one with another tag, or that fails to restore, is
passed over, and the whole log is replayed instead.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import sqlite3
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

from sqlite_utils import Database

logger = logging.getLogger(__name__)

ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"  # no 0/o, 1/i/l
ID_LENGTH = 8
JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I, O
JOIN_CODE_LENGTH = 4

ApplyFn = Callable[[Any, dict], Any]
ReplayFn = Callable[["Match", list[dict]], Any]
NotifyFn = Callable[[str, int], None]

MAX_ENTRY_BYTES = 4096  # an entry's stored JSON, in UTF-8
MAX_KEY_LENGTH = 64  # a client key longer than this is stored as its digest (`bounded_key`)
HASHED_KEY = "#"  # the first character of a stored digest: a key sent with it is stored as a digest too
MAX_ENTRY_DEPTH = 12  # nesting of lists and objects in one entry
SNAPSHOT_EVERY = 16  # entries between snapshots: opening a match replays at most 15
SNAPSHOTS_KEPT = 3  # per match: older ones are dropped

"""Called after COMMIT when a caller of `append` passes no `notify` (set by `referee.tables` to the
live doorbell, for callers that do not pass one yet). The store itself imports no notifier."""


class UnknownMatch(LookupError):
    """No match with this id (views answer 404)."""

    def __init__(self, match_id: str):
        super().__init__(f"No match {match_id!r}")
        self.match_id = match_id


class StaleVersion(Exception):
    """The match moved on since the client's screen was drawn (views answer 409)."""

    def __init__(self, match_id: str, expected: int, current: int):
        super().__init__(f"Match {match_id} is at version {current}, not {expected}")
        self.match_id = match_id
        self.expected = expected
        self.current = current


class KeyReused(Exception):
    """A client key already in the match's log for another entry, or sent by another phone (views answer
    409): a key answers "already done" only to the phone that made that same entry with it."""

    def __init__(self, match_id: str, seq: int):
        super().__init__(f"Match {match_id}: that client key was used for entry {seq}")
        self.match_id = match_id
        self.seq = seq


class UnstorableEntry(ValueError):
    """An entry the log will not hold, e.g. text that is not valid Unicode (views answer 4xx;
    nothing is saved)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class EntryTooLarge(UnstorableEntry):
    """An entry too long or too deeply nested to store."""


class NeedsFullLog(Exception):
    """Raised by an `apply_fn` when the state it was given (restored from a snapshot) does not reach
    back far enough for this entry: `append` then rebuilds the state from the whole log and applies
    the entry again."""


@dataclass(frozen=True)
class Match:
    id: str
    game: str
    players: list
    rules: dict
    version: int
    join_code: str | None
    created_at: str
    rematch_of: str | None = None  # the match this one is a rematch of
    dealer: int | None = None  # the seat that deals the first game (None: the game's default)


@dataclass(frozen=True)
class Appended:
    """Result of `append`: `seq` is the entry's seq (with `follow` entries, the first's), `version` and
    `state` the match's after it (after the last).  For a duplicate client_key, `seq` is the earlier
    entry's seq and `version`/`state` are the match's current ones."""

    match_id: str
    seq: int
    version: int
    state: Any
    duplicate: bool = False


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str:
    """Canonical compact JSON (sorted keys) as stored in the log."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def bounded_key(key: str | None) -> str | None:
    """A client key as stored: as sent when it is short, else its SHA-256 digest (never cut: two long keys
    that differ only past their first characters must not collide). A key sent with `HASHED_KEY` first is
    stored as a digest too, so no key sent can equal another's digest. Keys stored before were cut to
    64 characters; replaying never reads them."""
    if key is None or (len(key) <= MAX_KEY_LENGTH and not key.startswith(HASHED_KEY)):
        return key
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return HASHED_KEY + digest[:MAX_KEY_LENGTH - len(HASHED_KEY)]


def random_id(length: int = ID_LENGTH, alphabet: str = ID_ALPHABET) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


class StateCache:
    """A small thread-safe LRU of immutable states keyed by (db, match, version). It also knows the
    newest version it holds of each match (`newest`), from which a later state can be reached by
    applying the entries in between."""

    def __init__(self, maxsize: int = 512):
        self.maxsize = maxsize
        self._items: OrderedDict[tuple, Any] = OrderedDict()
        self._newest: dict[tuple, int] = {}  # (db, match) -> the highest version put
        self._lock = threading.Lock()

    def get(self, key: tuple) -> tuple[bool, Any]:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return True, self._items[key]
        return False, None

    def put(self, key: tuple, state: Any) -> None:
        with self._lock:
            self._items[key] = state
            self._items.move_to_end(key)
            match = key[:2]
            if self._newest.get(match, -1) < key[2]:
                self._newest[match] = key[2]
            while len(self._items) > self.maxsize:
                old = self._items.popitem(last=False)[0]
                if self._newest.get(old[:2]) == old[2]:
                    del self._newest[old[:2]]

    def newest(self, db_key: str, match_id: str, before: int) -> tuple[int, Any] | None:
        """(version, state) of the newest state held for the match below version `before`, if any."""
        with self._lock:
            version = self._newest.get((db_key, match_id))
            if version is None or version >= before:
                return None
            key = (db_key, match_id, version)
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return version, self._items[key]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._newest.clear()


state_cache = StateCache()


def _db_key(db: Database) -> str:
    """Which database file a connection is on (remembered on the Database object)."""
    key = getattr(db, "referee_key", None)
    if key is None:
        row = db.conn.execute("PRAGMA database_list").fetchone()
        key = row[2] or f"memory:{id(db.conn)}"
        db.referee_key = key
    return key


_MATCH_COLUMNS = "id, game, players, rules, version, join_code, created_at, rematch_of, dealer"


def _match_from_row(row: tuple) -> Match:
    return Match(
        id=row[0],
        game=row[1],
        players=json.loads(row[2]),
        rules=json.loads(row[3]),
        version=row[4],
        join_code=row[5],
        created_at=row[6],
        rematch_of=row[7],
        dealer=row[8],
    )


def create_match(db: Database, game: str, players: Iterable, rules: dict | None = None, *,
                 rematch_of: str | None = None, dealer: int | None = None) -> Match:
    """Start a new match at version 0 with a fresh short id and join code; ``dealer``: the seat that deals
    its first game, when not the game's default (a rematch, SH-53).

    With `rematch_of`, at most one rematch of that match ever exists: when two phones ask at once,
    the second insert meets the unique index and both callers get the first one.
    """
    for _ in range(20):
        match = Match(
            id=random_id(),
            game=game,
            players=list(players),
            rules=dict(rules or {}),
            version=0,
            join_code=random_id(JOIN_CODE_LENGTH, JOIN_CODE_ALPHABET),
            created_at=now(),
            rematch_of=rematch_of,
            dealer=dealer,
        )
        try:
            with db.atomic():
                db.conn.execute(
                    f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (match.id, match.game, dumps(match.players), dumps(match.rules), 0, match.join_code,
                     match.created_at, rematch_of, dealer),
                )
            return match
        except sqlite3.IntegrityError:
            if rematch_of is not None:
                first = find_rematch(db, rematch_of)
                if first is not None:
                    return first
            continue  # id or join code collision: draw again
    raise RuntimeError("could not allocate a unique match id")


def find_rematch(db: Database, match_id: str) -> Match | None:
    """The rematch started from `match_id`, if there is one."""
    row = db.conn.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE rematch_of = ?", (match_id,)).fetchone()
    return _match_from_row(row) if row else None


def get_match(db: Database, match_id: str) -> Match:
    """The match row; raises UnknownMatch."""
    row = db.conn.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        raise UnknownMatch(match_id)
    return _match_from_row(row)


def recent_matches(db: Database, limit: int = 10) -> list[Match]:
    """The newest matches first (for finding a table again on the home page)."""
    rows = db.conn.execute(f"SELECT {_MATCH_COLUMNS} FROM matches ORDER BY created_at DESC, rowid DESC LIMIT ?",
                           (limit,)).fetchall()
    return [_match_from_row(r) for r in rows]


def find_match_by_code(db: Database, join_code: str) -> Match | None:
    """Look a match up by its join code: case, spaces and dashes ignored (a code read out across the
    table is often typed as "AB CD" or "ab-cd")."""
    code = "".join((join_code or "").upper().replace("-", " ").split())
    row = db.conn.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE join_code = ?", (code,)).fetchone()
    return _match_from_row(row) if row else None


def _parse_stored(text: str) -> Any:
    """A stored entry's JSON; one this Python cannot read (nested past its recursion limit,
    stored before entries were bounded) comes back as an `unreadable` entry, never an error."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return {"move": "unreadable", "bytes": len(text.encode("utf-8", "replace"))}


def entries(db: Database, match_id: str, after: int = 0, upto: int | None = None) -> list[dict]:
    """The match's log in order (from seq `after` + 1, up to seq `upto` if given): dicts with seq,
    entry (parsed), seat, device, client_key, created_at.  Plain JSON-serialisable values, ready to
    export."""
    sql = "SELECT seq, entry, seat, device, client_key, created_at FROM entries WHERE match_id = ? AND seq > ?"
    args: tuple = (match_id, after)
    if upto is not None:
        sql += " AND seq <= ?"
        args += (upto,)
    rows = db.conn.execute(sql + " ORDER BY seq", args).fetchall()
    return [
        {"seq": r[0], "entry": _parse_stored(r[1]), "seat": r[2], "device": r[3], "client_key": r[4],
         "created_at": r[5]}
        for r in rows
    ]


def with_move(db: Database, match_ids: Iterable[str], move: str) -> set[str]:
    """The matches among ``match_ids`` with any stored ``move`` entry (undone or not): a cheap look before a
    replay (entries are stored as canonical JSON, ``dumps``)."""
    ids = list(dict.fromkeys(match_ids))
    needle = '"move":' + dumps(move)
    found: set[str] = set()
    for start in range(0, len(ids), 500):  # SQLite's limit on the values of one statement
        chunk = ids[start:start + 500]
        found.update(row[0] for row in db.conn.execute(
            f"SELECT DISTINCT match_id FROM entries WHERE match_id IN ({','.join('?' * len(chunk))})"
            " AND instr(entry, ?) > 0", (*chunk, needle)))
    return found


def only_by(db: Database, match_id: str, after: int, device: str | None) -> bool:
    """Whether every entry after version `after` was made by `device` (a phone's own doorbell)."""
    if device is None:
        return False
    row = db.conn.execute("SELECT count(*) FROM entries WHERE match_id = ? AND seq > ? AND device IS NOT ?",
                          (match_id, after, device)).fetchone()
    return row[0] == 0


def export_match(db: Database, match_id: str) -> dict:
    """The whole match (row + log) as one JSON-serialisable dict."""
    match = get_match(db, match_id)
    return {**match.__dict__, "entries": entries(db, match_id)}


def state_at(db: Database, match: Match, replay_fn: ReplayFn, apply_fn: ApplyFn | None = None) -> Any:
    """The state at `match.version`: from the cache; else, given the `apply_fn` that `append` uses,
    from an earlier state in the cache and the entries after it (as `append` made each of them:
    a process that did not write them catches up by one entry); else from the newest snapshot and
    the entries after it, else by replaying the whole log (and keeping a snapshot of the result)."""
    key = (_db_key(db), match.id, match.version)
    hit, state = state_cache.get(key)
    if hit:
        return state
    state = _from_cached(db, match, apply_fn) if apply_fn is not None else None
    if state is None:
        state = _from_snapshot(db, match, replay_fn)
    if state is None:
        state = replay_all(db, match, replay_fn)
        if match.version >= SNAPSHOT_EVERY:
            _keep_snapshot(db, match, match.version, state, replay_fn)
    state_cache.put(key, state)
    return state


def cached_state(db: Database, match: Match) -> Any:
    """The state at `match.version` if this process holds it in memory, else None (nothing is read)."""
    hit, state = state_cache.get((_db_key(db), match.id, match.version))
    return state if hit else None


def _from_cached(db: Database, match: Match, apply_fn: ApplyFn) -> Any:
    """The state at `match.version` from the newest cached state before it and the stored entries
    after that, each applied with `apply_fn` exactly as `append` applied it; None when no cached
    state is close enough or an entry does not apply (then the snapshot or the log decides)."""
    found = state_cache.newest(_db_key(db), match.id, match.version)
    if found is None or match.version - found[0] > SNAPSHOT_EVERY:
        return None
    version, state = found
    rows = entries(db, match.id, after=version, upto=match.version)
    if [r["seq"] for r in rows] != list(range(version + 1, match.version + 1)):
        return None
    try:
        for row in rows:
            state = apply_fn(state, row["entry"])
    except Exception:  # noqa: BLE001 - e.g. an entry reaching back past a snapshot: replay instead
        return None
    return state


def replay_all(db: Database, match: Match, replay_fn: ReplayFn) -> Any:
    """The state at `match.version` replayed from the first entry (no cache, no snapshot). Entries
    committed after `match` was read are left out: the state is cached under `match.version`."""
    return replay_fn(match, [e["entry"] for e in entries(db, match.id, upto=match.version)])


def _snapshot_tag(match: Match, replay_fn: ReplayFn) -> str | None:
    tag_fn = getattr(replay_fn, "snapshot_tag", None)
    return tag_fn(match) if tag_fn is not None else None


def _from_snapshot(db: Database, match: Match, replay_fn: ReplayFn) -> Any:
    """The state restored from the newest usable snapshot, or None."""
    tag = _snapshot_tag(match, replay_fn)
    if tag is None:
        return None
    rows = db.conn.execute(
        "SELECT seq, body FROM snapshots WHERE match_id = ? AND tag = ? AND seq <= ? ORDER BY seq DESC LIMIT ?",
        (match.id, tag, match.version, SNAPSHOTS_KEPT),
    ).fetchall()
    for seq, body in rows:
        try:
            return replay_fn.resume(match, body, entries(db, match.id, after=seq, upto=match.version))
        except Exception:  # noqa: BLE001 - a snapshot is only a cache: try an older one, then the log
            logger.info("snapshot %s@%s of match %s not used", tag, seq, match.id, exc_info=True)
    return None


writes_snapshots = True
"""False in a process that only reads the file (a screen process, docs/server.md): it never keeps a
snapshot outside an append, so the serving process stays the file's only writer."""


def _keep_snapshot(db: Database, match: Match, seq: int, state: Any, replay_fn: ReplayFn) -> None:
    """Store a snapshot of `state` (the state after entry `seq`) and drop the match's older ones.
    Inside a transaction (an append) it joins it; otherwise it writes only if no other writer of
    this process is busy (and never in a process that only reads, see `writes_snapshots`).
    Never raises: a missing snapshot costs a replay, nothing more."""
    tag = _snapshot_tag(match, replay_fn)
    if tag is None:
        return
    conn = db.conn
    try:
        if conn.in_transaction:
            _write_snapshot(conn, match.id, seq, tag, replay_fn.dump(state))
            return
        if not writes_snapshots:
            return
        body = replay_fn.dump(state)
        lock = _writer_lock(_db_key(db))
        if not lock.acquire(blocking=False):
            return  # another writer of this process is busy: this snapshot is left for later
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                _write_snapshot(conn, match.id, seq, tag, body)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        finally:
            lock.release()
    except Exception:  # noqa: BLE001
        logger.warning("could not keep a snapshot of match %s at %s", match.id, seq, exc_info=True)


def _write_snapshot(conn, match_id: str, seq: int, tag: str, body: str | bytes) -> None:
    conn.execute("INSERT OR REPLACE INTO snapshots (match_id, seq, tag, body, created_at) VALUES (?, ?, ?, ?, ?)",
                 (match_id, seq, tag, body, now()))
    conn.execute("DELETE FROM snapshots WHERE match_id = ? AND (tag != ? OR seq NOT IN (SELECT seq FROM snapshots"
                 " WHERE match_id = ? AND tag = ? ORDER BY seq DESC LIMIT ?))",
                 (match_id, tag, match_id, tag, SNAPSHOTS_KEPT))


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether lists/objects nest deeper than `limit` (iterative: no recursion on hostile input)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def encode_entry(entry: dict) -> tuple[str, Any]:
    """The entry's stored JSON and that JSON parsed back (what every replay will see).
    Raises EntryTooLarge or UnstorableEntry, or TypeError for values JSON cannot hold."""
    if _depth_exceeds(entry, MAX_ENTRY_DEPTH):
        raise EntryTooLarge(f"This entry is nested more than {MAX_ENTRY_DEPTH} levels deep.")
    payload = dumps(entry)
    try:
        size = len(payload.encode("utf-8"))
    except UnicodeEncodeError:
        raise UnstorableEntry("This entry holds text that is not valid Unicode.") from None
    if size > MAX_ENTRY_BYTES:
        raise EntryTooLarge(f"This entry is {size:,} bytes long; an entry holds at most {MAX_ENTRY_BYTES:,}.")
    return payload, json.loads(payload)


def fold(initial_fn: Callable[[Match], Any], apply_fn: ApplyFn) -> ReplayFn:
    """Build a replay_fn that folds `apply_fn` over the log from `initial_fn(match)`."""

    def replay(match: Match, log: list[dict]) -> Any:
        state = initial_fn(match)
        for entry in log:
            state = apply_fn(state, entry)
        return state

    return replay


def append(
    db: Database,
    match_id: str,
    expected_version: int,
    entry: dict,
    client_key: str | None,
    apply_fn: ApplyFn,
    *,
    replay_fn: ReplayFn,
    seat: int | None = None,
    device: str | None = None,
    notify: NotifyFn | None = None,
    follow: Iterable[tuple[dict, str | None]] = (),
) -> Appended:
    """Apply and record one entry atomically.

    Raises UnknownMatch, StaleVersion (match moved past `expected_version`),
    EntryTooLarge, TypeError (not JSON), or whatever `apply_fn` raises (nothing
    saved).  `apply_fn` is given the entry as stored and parsed back.  A
    `client_key` already in this match's log for the same entry from the same
    `device` returns the earlier result (duplicate=True) without applying again,
    even though its expected version is now stale; the key in use for another
    entry or by another device raises KeyReused (nothing saved).  Keys are
    stored bounded (`bounded_key`).  After COMMIT, `notify(match_id, version)`
    is called, if given (the store knows no doorbell: `tables.append` passes the
    live one).

    `follow`: (entry, client_key) pairs applied and recorded right after `entry`, in the same
    transaction: all of them stand, or none does (one tap that makes two entries).
    """
    payload, stored = encode_entry(entry)  # reject what cannot be stored before locking
    more = []
    for extra, key in follow:
        extra_payload, extra_stored = encode_entry(extra)
        more.append((extra_stored, extra_payload, bounded_key(key)))
    request = _Append(match_id, expected_version, stored, payload, bounded_key(client_key), apply_fn, replay_fn,
                      seat, device, notify, tuple(more))
    writer = _writer_lock(_db_key(db))
    with writer.cond:
        writer.queue.append(request)
        while writer.busy and not request.done:
            writer.cond.wait()
        lead = not request.done
        if lead:  # no writer busy: this thread commits every append waiting, its own among them
            writer.busy = True
            if db.conn.in_transaction:  # its own transaction fails at BEGIN: the others wait for the next
                writer.queue.remove(request)
                batch = [request]
            else:
                batch, writer.queue = writer.queue, []
    if lead:
        try:
            _commit_batch(db, batch)
        finally:
            writer.release()
    if request.error is not None:
        raise request.error
    return request.result


class _Append:
    """One append waiting for its writer (see `_Writer`), then its outcome."""

    __slots__ = ("match_id", "expected_version", "entry", "payload", "client_key", "apply_fn", "replay_fn", "seat",
                 "device", "notify", "more", "done", "result", "error")

    def __init__(self, match_id, expected_version, entry, payload, client_key, apply_fn, replay_fn, seat, device,
                 notify, more=()) -> None:
        self.match_id, self.expected_version, self.entry, self.payload = match_id, expected_version, entry, payload
        self.client_key, self.apply_fn, self.replay_fn = client_key, apply_fn, replay_fn
        self.seat, self.device, self.notify = seat, device, notify
        self.more = more  # (entry, payload, client key) of each entry recorded after this one, all or none
        self.done = False
        self.result: Appended | None = None
        self.error: BaseException | None = None


class _Writer:
    """This process's writers of one database file: one at a time (`busy`), handed over at once (SQLite
    would serialise them anyway, but its busy handler sleeps in steps of up to 100 ms while it waits;
    writers in other processes still meet the busy timeout).

    Group commit: appends that arrive while a writer is busy wait in `queue`, and the next of them to
    write commits them all in one transaction, each entry in its own savepoint (one entry refused,
    stale or failing leaves the others as they are), so that they share one COMMIT and its fsync
    (synchronous=FULL), which on a busy disk takes several milliseconds: appends per second are no
    longer bounded by one fsync each. Every caller still returns only after the COMMIT that holds
    its entry, and its doorbell rings after it."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.busy = False
        self.queue: list[_Append] = []

    def acquire(self, blocking: bool = True) -> bool:
        with self.cond:
            if self.busy and not blocking:
                return False
            while self.busy:
                self.cond.wait()
            self.busy = True
            return True

    def release(self) -> None:
        with self.cond:
            self.busy = False
            self.cond.notify_all()

    def __enter__(self) -> _Writer:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()


_writer_locks: dict[str, _Writer] = {}
_writer_locks_guard = threading.Lock()


def _writer_lock(key: str) -> _Writer:
    """The writers of one database file in this process (`_Writer`)."""
    with _writer_locks_guard:
        found = _writer_locks.get(key)
        if found is None:
            found = _writer_locks[key] = _Writer()
        return found


def _commit_batch(db: Database, batch: list[_Append]) -> None:
    """Apply and record `batch` (this thread holds the writer) in one transaction; every request gets
    its outcome. After COMMIT: the new states cached, then each accepted entry's doorbell, in order."""
    conn = db.conn
    states: dict[tuple[str, int], Any] = {}  # states made earlier in this batch, not committed yet
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for request in batch:
                conn.execute("SAVEPOINT entry")
                try:
                    request.result = _append_one(db, request, states)
                except BaseException as err:  # noqa: BLE001  (raised again in the request's own thread)
                    conn.execute("ROLLBACK TO entry")
                    request.error = err
                conn.execute("RELEASE entry")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except BaseException as err:  # noqa: BLE001  (nothing of the batch was saved)
        for request in batch:
            request.result, request.error = None, request.error or err
    else:
        key = _db_key(db)
        for request in batch:
            done = request.result
            if done is not None and not done.duplicate:
                state_cache.put((key, request.match_id, done.version), done.state)
        for request in batch:
            done = request.result
            if done is not None and not done.duplicate and request.notify is not None:
                try:
                    request.notify(request.match_id, done.version)
                except BaseException as err:  # noqa: BLE001  (the entry stands; its caller hears of it)
                    request.error = err
    finally:
        for request in batch:
            request.done = True


def _append_one(db: Database, request: _Append, states: dict) -> Appended:
    """One request of a batch, inside its savepoint (what one append did in its own transaction): its
    entry and the entries that follow it (`_Append.more`), each applied to the state the one before left."""
    conn = db.conn
    match_id = request.match_id
    row = conn.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        raise UnknownMatch(match_id)
    match = _match_from_row(row)
    writes = ((request.entry, request.payload, request.client_key), *request.more)
    earlier = _earlier_keys(conn, match_id, request.device, writes)
    if earlier is not None:
        state = states[(match_id, match.version)] if (match_id, match.version) in states else \
            state_at(db, match, request.replay_fn)
        return Appended(match_id, earlier, match.version, state, duplicate=True)
    if match.version != request.expected_version:
        raise StaleVersion(match_id, request.expected_version, match.version)
    state = states[(match_id, match.version)] if (match_id, match.version) in states else \
        state_at(db, match, request.replay_fn)
    version, made = match.version, {}
    for entry, payload, client_key in writes:
        try:
            new_state = request.apply_fn(state, entry)
        except NeedsFullLog:
            new_state = request.apply_fn(replay_all(db, replace(match, version=version), request.replay_fn), entry)
        seq = version + 1
        conn.execute(
            "INSERT INTO entries (match_id, seq, entry, seat, device, client_key, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (match_id, seq, payload, request.seat, request.device, client_key, now()),
        )
        conn.execute("UPDATE matches SET version = ? WHERE id = ? AND version = ?", (seq, match_id, version))
        if seq % SNAPSHOT_EVERY == 0:
            _keep_snapshot(db, match, seq, new_state, request.replay_fn)
        made[(match_id, seq)] = new_state
        state, version = new_state, seq
    states.update(made)  # only once every entry of the request stands (a refusal rolls all of them back)
    return Appended(match_id, match.version + 1, version, state)


def _earlier_keys(conn, match_id: str, device: str | None, writes: tuple) -> int | None:
    """The seq of the first entry when every keyed entry of `writes` is in the log already, made by
    `device` under the same key and as the same entry (a phone sending its tap again: a duplicate);
    None when none of the keys is in use. Raises KeyReused when a key is in use otherwise (another
    entry, another phone, or only some of the entries of one tap)."""
    found: list[int | None] = []
    for _, payload, client_key in writes:
        if client_key is None:
            continue
        row = conn.execute("SELECT seq, device, entry FROM entries WHERE match_id = ? AND client_key = ?",
                           (match_id, client_key)).fetchone()
        if row is not None and (row[1] != device or row[2] != payload):
            raise KeyReused(match_id, row[0])
        found.append(None if row is None else row[0])
    if not found or all(seq is None for seq in found):
        return None
    if any(seq is None for seq in found):
        raise KeyReused(match_id, next(seq for seq in found if seq is not None))
    return found[0]


# --- Seat claims: which phone holds which seat -------------------------------------------------

MAX_DEVICE_LENGTH = 64


class UnknownSeat(ValueError):
    """No such seat at this match (views answer 4xx)."""

    def __init__(self, match_id: str, seat: Any):
        super().__init__(f"Match {match_id} has no seat {seat!r}")
        self.match_id = match_id
        self.seat = seat


def write_transaction(db: Database):
    """One write transaction (BEGIN IMMEDIATE) under this process's writer lock for the file, for
    the tables beside the log (profiles, nights, summaries): ``with write_transaction(db) as conn:``."""
    return _immediate(db)


@contextmanager
def _immediate(db: Database):
    """One write transaction (BEGIN IMMEDIATE) under this process's writer lock for the file."""
    conn = db.conn
    with _writer_lock(_db_key(db)):
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


def _check_seat(conn, match_id: str, seat: Any) -> int:
    row = conn.execute("SELECT players FROM matches WHERE id = ?", (match_id,)).fetchone()
    if row is None:
        raise UnknownMatch(match_id)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(json.loads(row[0])):
        raise UnknownSeat(match_id, seat)
    return seat


def _holder(conn, match_id: str, seat: int) -> str | None:
    row = conn.execute("SELECT device FROM seat_claims WHERE match_id = ? AND seat = ? ORDER BY id DESC LIMIT 1",
                       (match_id, seat)).fetchone()
    return row[0] if row else None


def _check_device(device: Any) -> str:
    if not isinstance(device, str) or not device or len(device) > MAX_DEVICE_LENGTH:
        raise ValueError(f"A device id is a string of 1 to {MAX_DEVICE_LENGTH} characters.")
    return device


class HolderCache:
    """Who holds each seat, per process: `seat_holder` runs on nearly every request. Every claim and
    release in this process forgets the seat's entry after its COMMIT; a reader that queried while
    a claim was being made does not store what it read (the generation moved on). Only correct
    while this process is the only writer of the file (docs/server.md).

    Processes that only read the file (the screen processes of `referee serve`) follow the writer
    through a shared counter (`share`): the writer adds one after every claim and release, and a
    follower that sees it change forgets everything before it answers."""

    _MISSING = object()

    def __init__(self, maxsize: int = 4096):
        self.maxsize = maxsize
        self._items: OrderedDict[tuple, str | None] = OrderedDict()
        self._lock = threading.Lock()
        self.generation = 0
        self._written: list = []  # shared counters this process's claims add to
        self._followed = None  # the shared counter this process follows
        self._seen = 0
        self._count = 0

    def share(self, counter, *, writer: bool) -> None:
        """Add to (``writer``) or follow a shared 8-byte counter (a writable buffer, e.g. an mmap)."""
        with self._lock:
            if writer:
                self._written.append(counter)
                struct.pack_into("<Q", counter, 0, self._count)
            else:
                self._followed = counter
                self._seen = -1  # forget what was read before following

    def unshare(self, counter) -> None:
        with self._lock:
            self._written = [c for c in self._written if c is not counter]
            if self._followed is counter:
                self._followed = None

    def _bump(self) -> None:
        """A claim or release happened (under the lock)."""
        self.generation += 1
        self._count += 1
        for counter in self._written:
            struct.pack_into("<Q", counter, 0, self._count)

    def _follow(self) -> None:
        """Forget everything if the writer claimed or released a seat since (under the lock)."""
        if self._followed is not None:
            count = struct.unpack_from("<Q", self._followed, 0)[0]
            if count != self._seen:
                self._seen = count
                self._items.clear()
                self.generation += 1

    def get(self, key: tuple) -> Any:
        """The cached holder, or `HolderCache._MISSING`."""
        with self._lock:
            self._follow()
            value = self._items.get(key, self._MISSING)
            if value is not self._MISSING:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple, holder: str | None, generation: int) -> None:
        """Remember `holder`, read from the database while the cache was at `generation`."""
        with self._lock:
            if generation != self.generation:
                return  # a claim or release happened meanwhile: what was read may be stale
            self._items[key] = holder
            self._items.move_to_end(key)
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)

    def forget(self, key: tuple) -> None:
        with self._lock:
            self._bump()
            try:
                self._items.pop(key, None)
            except TypeError:  # a hostile seat value (a list...): nothing was cached under it
                pass

    def clear(self) -> None:
        with self._lock:
            self._bump()
            self._items.clear()


holder_cache = HolderCache()


def claim_seat(db: Database, match_id: str, seat: int, device: str) -> str | None:
    """`device` now holds `seat`; returns the device that held it before (None if it was free).

    Raises UnknownMatch, UnknownSeat or ValueError (a malformed device id). A device that already
    holds the seat claims it again without a new record (and gets its own id back)."""
    device = _check_device(device)
    try:
        with _immediate(db) as conn:
            seat = _check_seat(conn, match_id, seat)
            previous = _holder(conn, match_id, seat)
            if previous != device:
                conn.execute("INSERT INTO seat_claims (match_id, seat, device, claimed_at, previous_device)"
                             " VALUES (?, ?, ?, ?, ?)", (match_id, seat, device, now(), previous))
    finally:
        holder_cache.forget((_db_key(db), match_id, seat))
    return previous


def release_seat(db: Database, match_id: str, seat: int, device: str) -> bool:
    """`device` gives `seat` up (recorded as a claim by no device). Returns False, recording
    nothing, if `device` does not hold the seat (another phone took it over since)."""
    device = _check_device(device)
    try:
        with _immediate(db) as conn:
            seat = _check_seat(conn, match_id, seat)
            if _holder(conn, match_id, seat) != device:
                return False
            conn.execute("INSERT INTO seat_claims (match_id, seat, device, claimed_at, previous_device)"
                         " VALUES (?, ?, NULL, ?, ?)", (match_id, seat, now(), device))
    finally:
        holder_cache.forget((_db_key(db), match_id, seat))
    return True


def seat_holder(db: Database, match_id: str, seat: int) -> str | None:
    """The device holding `seat` now, or None if it is free (cached: see `HolderCache`)."""
    key = (_db_key(db), match_id, seat)
    holder = holder_cache.get(key)
    if holder is HolderCache._MISSING:
        generation = holder_cache.generation
        holder = _holder(db.conn, match_id, seat)
        holder_cache.put(key, holder, generation)
    return holder


def seat_claims(db: Database, match_id: str) -> list[dict]:
    """Every claim and release of the match's seats, in the order they were made."""
    rows = db.conn.execute("SELECT seat, device, claimed_at, previous_device FROM seat_claims WHERE match_id = ?"
                           " ORDER BY id", (match_id,)).fetchall()
    return [{"seat": r[0], "device": r[1], "claimed_at": r[2], "previous_device": r[3]} for r in rows]
