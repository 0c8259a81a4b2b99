"""Lasting player profiles and groups of friends.

A profile is a person who plays over many evenings. Its history is the append-only table
``profile_events`` (create, rename, unrename, merge, unmerge); the ``profiles`` table is what those events add
up to (the current name, the profile a merge leads to), kept in the same transaction as each event.
A rename is undone by another event (``unrename``), as a merge is (``unmerge``): nothing is edited in place.
Two profiles of one person are merged (the merge is an event, and undoing it is another); a merged
profile's matches count for the profile it was merged into, wherever it leads.

Names follow the table's rules (``games.base.normalise_name``): two profiles that are not merged
never have names the table could not tell apart.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from sqlite_utils import Database

from .games.base import EntryError, name_key, normalise_name
from .store import now, write_transaction


def _english(message: str, fields: dict[str, Any]) -> str:
    return message % fields if fields else message


# How a refusal is said: English here; the web layer installs the phone's language (referee.i18n), so this
# module needs no Flask. Called with the English message (its catalogue key) and its fields.
TRANSLATE: Callable[[str, dict[str, Any]], str] = _english


class Said(str):
    """Words for the player: equal to their English, and said through ``TRANSLATE`` when shown (``str()``,
    ``%s``, an f-string), so a page in Hebrew or Italian shows them in its language."""

    def __new__(cls, message: str, **fields: Any) -> Said:
        said = super().__new__(cls, _english(message, fields))
        said.key, said.fields = message, fields
        return said

    def __str__(self) -> str:
        try:
            return TRANSLATE(self.key, self.fields)
        except Exception:  # noqa: BLE001 - a refusal is always said, in English at worst
            return _english(self.key, self.fields)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


FIELDS = {"name": Said("name"), "group": Said("group"), "profile": Said("player"), "into": Said("player to merge into"),
          "players": Said("Players")}


class PeopleError(ValueError):
    """A rename, merge or group the table cannot have: ``field`` names the field at fault, ``message`` says
    why (both :class:`Said`: English, and the phone's language on a page)."""

    def __init__(self, field: str, message: str):
        field = FIELDS.get(field, field)
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass(frozen=True)
class Profile:
    id: int
    name: str
    merged_into: int | None
    canonical_id: int


@dataclass(frozen=True)
class Group:
    id: int
    name: str


_PROFILE = "SELECT id, name, merged_into, canonical_id FROM profiles"


def _profile(row) -> Profile:
    return Profile(row[0], row[1], row[2], row[3])


_NAME_PROBLEMS = (  # normalise_name's words (games/base.py), read back to be said in the phone's language
    (r"a player's name is text", "a player's name is text"),
    (r"a name has at most (?P<num>\d+) characters", "a name has at most %(num)s characters"),
    (r"a name cannot hold the control or format character (?P<char>U\+[0-9A-F]+)",
     "a name cannot hold the control or format character %(char)s"),
    (r"a player needs a name that shows", "a player needs a name that shows"),
)


def _name(value, field: str) -> str:
    try:
        return normalise_name(value, field)
    except EntryError as err:
        for pattern, words in _NAME_PROBLEMS:
            found = re.fullmatch(pattern, err.message)
            if found:
                if field == "group" and words == "a player needs a name that shows":
                    words = "a group needs a name that shows"
                raise PeopleError(field, Said(words, **found.groupdict())) from None
        raise PeopleError(field, err.message) from None


def _messages() -> None:  # pragma: no cover - never called: normalise_name's words, for extraction
    Said("a player's name is text")
    Said("a name has at most %(num)s characters", num=40)
    Said("a name cannot hold the control or format character %(char)s", char="U+200B")
    Said("a player needs a name that shows")
    Said("a group needs a name that shows")


# --- Reading -----------------------------------------------------------------------------------


def get_profile(db: Database, profile_id: int) -> Profile | None:
    row = db.conn.execute(f"{_PROFILE} WHERE id = ?", (profile_id,)).fetchone()
    return _profile(row) if row else None


def profiles(db: Database, *, merged: bool = False) -> list[Profile]:
    """Every profile by name (those merged into another only with ``merged``)."""
    where = "" if merged else " WHERE merged_into IS NULL"
    return [_profile(r) for r in db.conn.execute(f"{_PROFILE}{where} ORDER BY name COLLATE NOCASE, id")]


def find_profile(db: Database, name: str) -> Profile | None:
    """The profile (not merged into another) whose name the table would take for ``name``."""
    key = name_key(name)
    for row in db.conn.execute(f"{_PROFILE} WHERE merged_into IS NULL"):
        if name_key(row[1]) == key:
            return _profile(row)
    return None


def profile_events(db: Database, profile_id: int) -> list[dict]:
    """What happened to a profile, oldest first: its own events and the merges into it, each undone merge
    too (an ``unmerge`` names the merge it undoes: its other profile is that merge's), with the names of
    both profiles as they are now (``profile_name``, ``other_name``)."""
    rows = db.conn.execute(
        "SELECT e.id, e.kind, e.profile_id, COALESCE(e.other_id, m.other_id), e.name, e.undoes, e.created_at,"
        " p.name, o.name FROM profile_events e LEFT JOIN profile_events m ON m.id = e.undoes"
        " LEFT JOIN profiles p ON p.id = e.profile_id LEFT JOIN profiles o ON o.id = COALESCE(e.other_id, m.other_id)"
        " WHERE e.profile_id = ? OR e.other_id = ? OR m.other_id = ? ORDER BY e.id", (profile_id,) * 3)
    keys = ("id", "kind", "profile_id", "other_id", "name", "undoes", "created_at", "profile_name", "other_name")
    return [dict(zip(keys, r)) for r in rows]


def merged_from(db: Database, profile_id: int) -> list[Profile]:
    """The profiles merged into this one (directly)."""
    return [_profile(r) for r in db.conn.execute(f"{_PROFILE} WHERE merged_into = ? ORDER BY id", (profile_id,))]


def groups(db: Database) -> list[Group]:
    return [Group(*r) for r in db.conn.execute("SELECT id, name FROM groups ORDER BY name COLLATE NOCASE, id")]


def get_group(db: Database, group_id: int) -> Group | None:
    row = db.conn.execute("SELECT id, name FROM groups WHERE id = ?", (group_id,)).fetchone()
    return Group(*row) if row else None


def group_members(db: Database, group_id: int) -> list[Profile]:
    """The people (merges followed) who finished a match of the group (from the standings' totals)."""
    rows = db.conn.execute(
        f"{_PROFILE} WHERE id IN (SELECT p.canonical_id FROM standings_totals t JOIN profiles p ON p.id = t.profile_id"
        " WHERE t.group_id = ?) ORDER BY name COLLATE NOCASE, id", (group_id,))
    return [_profile(r) for r in rows]


def known_players(db: Database, group_id: int | None = None, limit: int = 16, recent: int = 300) -> list[Profile]:
    """The people (merges followed) who sat at the latest tables of the group (of any group with
    None), the most recent first: the players the new-table form offers to tap."""
    where, args = ("WHERE group_id = ?", [group_id]) if group_id is not None else ("", [])
    rows = db.conn.execute(
        f"{_PROFILE} p JOIN (SELECT c.canonical_id AS cid, max(m.created_at) AS last FROM"
        f" (SELECT id, created_at FROM matches {where} ORDER BY created_at DESC LIMIT ?) m"
        " JOIN match_seats s ON s.match_id = m.id JOIN profiles c ON c.id = s.profile_id GROUP BY c.canonical_id)"
        " k ON k.cid = p.id ORDER BY k.last DESC, p.name COLLATE NOCASE LIMIT ?", [*args, recent, limit])
    return [_profile(r) for r in rows]


def strangers_to(db: Database, group_id: int, names) -> bool:
    """Whether none of ``names`` has sat at a table of the group, which has players: a table of other
    people put in the group by the form's last choice, left as it was (its standings would count them)."""
    rows = db.conn.execute(
        "SELECT DISTINCT p.name, c.name FROM matches m JOIN match_seats s ON s.match_id = m.id"
        " JOIN profiles p ON p.id = s.profile_id JOIN profiles c ON c.id = p.canonical_id WHERE m.group_id = ?",
        (group_id,)).fetchall()
    known = {name_key(n) for row in rows for n in row}
    return bool(known) and not any(name_key(n) in known for n in names)


# --- Writing -----------------------------------------------------------------------------------


def _event(conn, kind: str, profile_id: int, *, other_id: int | None = None, name: str | None = None,
           undoes: int | None = None) -> int:
    cur = conn.execute("INSERT INTO profile_events (kind, profile_id, other_id, name, undoes, created_at)"
                       " VALUES (?, ?, ?, ?, ?, ?)", (kind, profile_id, other_id, name, undoes, now()))
    return cur.lastrowid


def _taken(conn, name: str, but: int | None = None) -> int | None:
    key = name_key(name)
    for pid, other in conn.execute("SELECT id, name FROM profiles WHERE merged_into IS NULL"):
        if pid != but and name_key(other) == key:
            return pid
    return None


def _holder_name(conn, pid: int) -> str:
    """The name a player already has, as the table writes it (a clash is said with it: "Ada", not the
    "ada" typed)."""
    return conn.execute("SELECT name FROM profiles WHERE id = ?", (pid,)).fetchone()[0]


def _create(conn, name: str) -> int:
    pid = conn.execute("INSERT INTO profiles (name, canonical_id, created_at) VALUES (?, 0, ?)",
                       (name, now())).lastrowid
    conn.execute("UPDATE profiles SET canonical_id = ? WHERE id = ?", (pid, pid))
    _event(conn, "create", pid, name=name)
    return pid


def profile_ids_for(conn, names: Iterable[str]) -> list[int]:
    """Inside a write transaction: the profile of each name (found by name, or made)."""
    out = []
    for name in names:
        found = _profile_of(conn, name)
        out.append(found if found is not None else _create(conn, name))
    return out


def _profile_of(conn, name: str) -> int | None:
    """The profile a typed name is: one in use by that name, else one merged into another (the name
    still counts for its person), else the one that had this name before a rename (Ana renamed "Ana
    Silva" is still found by "Ana"; the latest to have had it), else None."""
    found = _taken(conn, name)
    key = name_key(name)
    if found is None:
        found = next((pid for pid, other in conn.execute(
            "SELECT id, name FROM profiles WHERE merged_into IS NOT NULL ORDER BY id") if name_key(other) == key), None)
    if found is None:
        found = next((pid for pid, other in conn.execute(
            "SELECT profile_id, name FROM profile_events WHERE kind IN ('create', 'rename', 'unrename')"
            " AND name IS NOT NULL ORDER BY id DESC") if name_key(other) == key), None)
    return found


def _person_of(conn, name: str) -> int | None:
    """The person a typed name stands for (where its profile's merges lead), or None."""
    found = _profile_of(conn, name)
    return None if found is None else _canonical(conn, found)


def check_one_seat_each(db: Database, names: Iterable[str]) -> None:
    """Refuse a table at which one person would sit twice: two names typed that are one person's
    profiles (merged), which would count that match twice in the standings."""
    seen: dict[int, str] = {}
    for name in names:
        person = _person_of(db.conn, name)
        if person is None:
            continue
        if person in seen:
            raise PeopleError("players", Said(
                "%(one)s and %(other)s are the same player (their profiles were merged): one seat each.",
                one=seen[person], other=name))
        seen[person] = name


def create_profile(db: Database, name) -> Profile:
    name = _name(name, "name")
    with write_transaction(db) as conn:
        taken = _taken(conn, name)
        if taken is not None:
            raise PeopleError("name", Said("There is already a player called %(name)s.",
                                           name=_holder_name(conn, taken)))
        pid = _create(conn, name)
    return get_profile(db, pid)


def rename(db: Database, profile_id: int, new_name) -> Profile:
    """Give a profile a new name (recorded); refused if another player has that name."""
    name = _name(new_name, "name")
    with write_transaction(db) as conn:
        row = conn.execute("SELECT merged_into FROM profiles WHERE id = ?", (profile_id,)).fetchone()
        if row is None:
            raise PeopleError("profile", Said("There is no such player."))
        taken = _taken(conn, name, but=profile_id) if row[0] is None else None
        if taken is not None:
            raise PeopleError("name", Said("There is already a player called %(name)s.",
                                           name=_holder_name(conn, taken)))
        conn.execute("UPDATE profiles SET name = ? WHERE id = ?", (name, profile_id))
        _event(conn, "rename", profile_id, name=name)
    return get_profile(db, profile_id)


def _names_standing(conn, profile_id: int) -> list[tuple[int, str]]:
    """The profile's names that stand, oldest first, as (event id, name): its create, then each rename
    not undone (an ``unrename`` names the rename it undoes; the last name standing is the current one)."""
    stack: list[tuple[int, str]] = []
    for eid, kind, name, undoes in conn.execute(
            "SELECT id, kind, name, undoes FROM profile_events WHERE profile_id = ? AND kind IN"
            " ('create', 'rename', 'unrename') ORDER BY id", (profile_id,)):
        if kind == "unrename":
            stack = [item for item in stack if item[0] != undoes]
        else:
            stack.append((eid, name))
    return stack


def last_rename(db: Database, profile_id: int) -> tuple[int, str] | None:
    """(the rename that gave the profile its current name, the name it had before), if one stands."""
    stack = _names_standing(db.conn, profile_id)
    return (stack[-1][0], stack[-2][1]) if len(stack) > 1 else None


def undo_rename(db: Database, profile_id: int) -> Profile:
    """Give the profile back the name it had before its last rename: an ``unrename`` event naming the
    rename it undoes (the rename stays in the record). Refused when there is no rename to undo, or when
    the old name is now another player's."""
    with write_transaction(db) as conn:
        row = conn.execute("SELECT merged_into FROM profiles WHERE id = ?", (profile_id,)).fetchone()
        if row is None:
            raise PeopleError("profile", Said("There is no such player."))
        found = last_rename(db, profile_id)
        if found is None:
            raise PeopleError("name", Said("This player has no rename to undo."))
        event, name = found
        if row[0] is None and _taken(conn, name, but=profile_id) is not None:
            raise PeopleError("name", Said("There is already a player called %(name)s: rename one of them first.",
                                           name=name))
        conn.execute("UPDATE profiles SET name = ? WHERE id = ?", (name, profile_id))
        _event(conn, "unrename", profile_id, name=name, undoes=event)
    return get_profile(db, profile_id)


def _recompute_canonical(conn) -> None:
    """Where each profile's merges lead (a small table: recomputed whole)."""
    parent = dict(conn.execute("SELECT id, merged_into FROM profiles"))
    for pid in parent:
        seen, at = {pid}, pid
        while parent[at] is not None and parent[at] not in seen:
            at = parent[at]
            seen.add(at)
        conn.execute("UPDATE profiles SET canonical_id = ? WHERE id = ? AND canonical_id != ?", (at, pid, at))


def _canonical(conn, profile_id: int) -> int | None:
    row = conn.execute("SELECT canonical_id FROM profiles WHERE id = ?", (profile_id,)).fetchone()
    return row[0] if row else None


def tablemates(db: Database, profile_id: int) -> set[int]:
    """The people (canonical ids) who sat at a table with this person, the person among them: none of them
    can be merged into this one (``merge`` refuses it)."""
    rows = db.conn.execute(
        "SELECT DISTINCT pb.canonical_id FROM profiles me JOIN profiles pa ON pa.canonical_id = me.canonical_id"
        " JOIN match_seats a ON a.profile_id = pa.id JOIN match_seats b ON b.match_id = a.match_id"
        " JOIN profiles pb ON pb.id = b.profile_id WHERE me.id = ?", (profile_id,)).fetchall()
    return {row[0] for row in rows}


def merge(db: Database, profile_id: int, into_id: int) -> int:
    """Merge ``profile_id`` into ``into_id`` (two profiles of one person); returns the merge event's id.
    Refused when they are the same person already, or sat at the same table (then they are two people)."""
    with write_transaction(db) as conn:
        source, target = _canonical(conn, profile_id), _canonical(conn, into_id)
        if source is None:
            raise PeopleError("profile", Said("There is no such player."))
        if target is None:
            raise PeopleError("into", Said("There is no such player to merge into."))
        if source == target:
            raise PeopleError("into", Said("These are already the same player."))
        together = conn.execute(
            "SELECT a.match_id FROM match_seats a JOIN profiles pa ON pa.id = a.profile_id"
            " JOIN match_seats b ON b.match_id = a.match_id JOIN profiles pb ON pb.id = b.profile_id"
            " WHERE pa.canonical_id = ? AND pb.canonical_id = ? LIMIT 1", (source, target)).fetchone()
        if together is not None:
            raise PeopleError("into", Said("These two played at the same table, so they are two people."))
        conn.execute("UPDATE profiles SET merged_into = ? WHERE id = ?", (target, source))
        event = _event(conn, "merge", source, other_id=target)
        _recompute_canonical(conn)
    return event


def last_merge(db: Database, profile_id: int) -> int | None:
    """The merge event that merged this profile into another, if it stands."""
    row = db.conn.execute(
        "SELECT e.id FROM profile_events e JOIN profiles p ON p.id = e.profile_id WHERE e.profile_id = ?"
        " AND e.kind = 'merge' AND p.merged_into = e.other_id AND NOT EXISTS (SELECT 1 FROM profile_events u"
        " WHERE u.undoes = e.id) ORDER BY e.id DESC LIMIT 1", (profile_id,)).fetchone()
    return row[0] if row else None


def unmerge(db: Database, profile_id: int) -> None:
    """Undo the merge of ``profile_id`` into another (a new event; the merge stays in the record).
    Refused when its name is now another player's (rename one of them first)."""
    with write_transaction(db) as conn:
        event = last_merge(db, profile_id)
        if event is None:
            raise PeopleError("profile", Said("This player is not merged into another."))
        name = conn.execute("SELECT name FROM profiles WHERE id = ?", (profile_id,)).fetchone()[0]
        if _taken(conn, name) is not None:
            raise PeopleError("name", Said("There is already a player called %(name)s: rename one of them first.",
                                           name=name))
        conn.execute("UPDATE profiles SET merged_into = NULL WHERE id = ?", (profile_id,))
        _event(conn, "unmerge", profile_id, undoes=event)
        _recompute_canonical(conn)


def find_or_create_group(db: Database, name) -> Group:
    name = _name(name, "group")
    with write_transaction(db) as conn:
        row = conn.execute("SELECT id, name FROM groups WHERE name_key = ?", (name_key(name),)).fetchone()
        if row is None:
            gid = conn.execute("INSERT INTO groups (name, name_key, created_at) VALUES (?, ?, ?)",
                               (name, name_key(name), now())).lastrowid
            return Group(gid, name)
    return Group(*row)
