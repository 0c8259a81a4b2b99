"""Game nights: the evenings a group plays, each holding any number of matches of any game.

The clock lives here (never in the engines): a match started tonight belongs to tonight's night of its
group, made the first time it is needed. An evening runs past midnight: a match started before
``EVENING_ENDS_AT`` in the morning belongs to the night before.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from sqlite_utils import Database

from . import people, store
from .store import Match, now, write_transaction

EVENING_ENDS_AT = 6  # o'clock, local time: a match started before it belongs to the night before
ZONE_COOKIE = "referee_tz"  # the time zone the phone is set to (static/local_time.js): the table's evening


def phone_now(zone: str | None) -> datetime | None:
    """Now, in the time zone a phone named (its IANA name, e.g. "Europe/Rome"); None when it named none
    this machine knows. A Raspberry Pi keeps UTC: the table's own zone says which evening it is."""
    if not isinstance(zone, str) or not 0 < len(zone) <= 64 or not zone.isascii():
        return None
    try:
        from zoneinfo import ZoneInfo

        return datetime.now(ZoneInfo(zone))
    except (KeyError, ValueError, OSError):  # unknown (ZoneInfoNotFoundError), malformed, or a path
        return None


@dataclass(frozen=True)
class Night:
    id: int
    group_id: int
    day: str  # YYYY-MM-DD, the evening it began

    @property
    def title(self) -> str:
        return night_title(self.day)


def night_title(day: str) -> str:
    """"Tuesday 1 December 2026"."""
    try:
        d = date.fromisoformat(day)
    except ValueError:
        return day
    return f"{d:%A} {d.day} {d:%B %Y}"


def evening_of(moment: datetime | None = None) -> str:
    """The day (YYYY-MM-DD) of the evening ``moment`` (default: now, local time) belongs to."""
    moment = moment or datetime.now().astimezone()
    return (moment - timedelta(hours=EVENING_ENDS_AT)).date().isoformat()


def night_of_match(day: str | None, created_at: str) -> str:
    """The night (YYYY-MM-DD) a match belongs to, as every screen says it: its group's night (``day``),
    else the evening its start belongs to, local time (``created_at`` is kept in UTC: a match started at
    1 am on Saturday belongs to Friday's night, never to the UTC date)."""
    if day:
        return day
    try:
        moment = datetime.fromisoformat(created_at)
    except (TypeError, ValueError):
        return str(created_at or "")[:10]
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return evening_of(moment.astimezone())


LEFT_AFTER = timedelta(hours=12)  # a match not over that nobody has entered anything in for this long was left


def left_unfinished(db: Database, match_ids: list[str], moment: datetime | None = None) -> set[str]:
    """Which of ``match_ids`` (matches not over) nobody has entered anything in for ``LEFT_AFTER``, counted
    from their last entry (or their start): left unfinished, no longer "still being played"."""
    if not match_ids:
        return set()
    moment = moment or datetime.now(timezone.utc)
    marks = ",".join("?" * len(match_ids))
    rows = db.conn.execute(f"SELECT m.id, coalesce(max(e.created_at), m.created_at) FROM matches m LEFT JOIN entries e"
                           f" ON e.match_id = m.id WHERE m.id IN ({marks}) GROUP BY m.id", list(match_ids))
    out = set()
    for match_id, stamp in rows:
        try:
            last = datetime.fromisoformat(str(stamp))
        except ValueError:
            continue
        if last.tzinfo is None:
            last = last.replace(tzinfo=timezone.utc)
        if moment - last >= LEFT_AFTER:
            out.add(match_id)
    return out


def moment_utc(stamp: str | None) -> str | None:
    """A stored timestamp as the moment it names, in ISO 8601 UTC ("2026-12-05T02:59:57Z": a ``<time
    datetime>`` the phone writes again in its own time zone); a stamp without a zone was kept in UTC
    (``store.now``). None for a stamp that names no moment."""
    try:
        moment = datetime.fromisoformat(str(stamp))
    except (TypeError, ValueError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).replace(tzinfo=None).isoformat(timespec="seconds") + "Z"


def _night(row) -> Night:
    return Night(row[0], row[1], row[2])


def night_for(conn, group_id: int, day: str) -> int:
    """Inside a write transaction: the group's night of ``day`` (made if needed)."""
    row = conn.execute("SELECT id FROM nights WHERE group_id = ? AND day = ?", (group_id, day)).fetchone()
    if row is not None:
        return row[0]
    return conn.execute("INSERT INTO nights (group_id, day, created_at) VALUES (?, ?, ?)",
                        (group_id, day, now())).lastrowid


def get_night(db: Database, night_id: int) -> Night | None:
    row = db.conn.execute("SELECT id, group_id, day FROM nights WHERE id = ?", (night_id,)).fetchone()
    return _night(row) if row else None


def tonight(db: Database, group_id: int, moment: datetime | None = None) -> Night | None:
    """Tonight's night of the group if it has begun (a match was started tonight), else None."""
    row = db.conn.execute("SELECT id, group_id, day FROM nights WHERE group_id = ? AND day = ?",
                          (group_id, evening_of(moment))).fetchone()
    return _night(row) if row else None


def group_nights(db: Database, group_id: int) -> list[Night]:
    """The group's nights, newest first."""
    rows = db.conn.execute("SELECT id, group_id, day FROM nights WHERE group_id = ? ORDER BY day DESC",
                           (group_id,))
    return [_night(r) for r in rows]


def link_match(db: Database, match: Match, group_id: int | None, moment: datetime | None = None) -> None:
    """Record who sat in each seat (profiles found by name, or made) and, with a group, that the match
    belongs to the group and to tonight's night."""
    with write_transaction(db) as conn:
        ids = people.profile_ids_for(conn, match.players)
        conn.executemany("INSERT OR IGNORE INTO match_seats (match_id, seat, profile_id) VALUES (?, ?, ?)",
                         [(match.id, seat, pid) for seat, pid in enumerate(ids)])
        if group_id is not None:
            night = night_for(conn, group_id, evening_of(moment))
            conn.execute("UPDATE matches SET group_id = ?, night_id = ? WHERE id = ?", (group_id, night, match.id))


def match_group(db: Database, match_id: str) -> tuple[int | None, int | None]:
    row = db.conn.execute("SELECT group_id, night_id FROM matches WHERE id = ?", (match_id,)).fetchone()
    return (row[0], row[1]) if row else (None, None)


def last_group(db: Database) -> int | None:
    """The group of the newest match that has one (the new-table form's choice by default)."""
    row = db.conn.execute("SELECT group_id FROM matches WHERE group_id IS NOT NULL"
                          " ORDER BY created_at DESC, rowid DESC LIMIT 1").fetchone()
    return row[0] if row else None


def ended_early(db: Database, matches: list[Match]) -> dict[str, dict]:
    """How each of ``matches`` the table ended early ended, by match id (``ended`` of its view: who ended it,
    after how many rounds, whether it has a result); a match still being played, or ended by its own rules,
    is not in it. A match ended after a round was completed counts in the standings as finished (its result
    is ``over``); ended before any was, it has no result and counts for nobody: no match played, no win
    (games/ending.py)."""
    from . import tables  # imported when needed: the stats import this module
    from .games.ending import MOVE, is_ended

    out: dict[str, dict] = {}
    ended = store.with_move(db, [m.id for m in matches], MOVE)  # the others need no replay
    for match in matches:
        if match.id not in ended:
            continue
        try:
            log = store.state_at(db, match, tables.replay, tables.feed)
        except tables.GameNotInstalled:
            continue
        if is_ended(log.state):  # (not ended, then undone: the match went on)
            out[match.id] = log.game.view(log.state, None).get("ended")
    return out
