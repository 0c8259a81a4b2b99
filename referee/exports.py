"""A group's whole history out and in: JSON (matches as transcripts, with the profiles and nights) and
CSV (one row per player per round); and one transcript from another Referee brought in as a match.

Importing is idempotent: a match keeps its id (a transcript without one gets an id made from its
content), and a match already here is left as it is: the same content is said to be here already (and
in which group), other content under its id (players, entries, house rules, date, game) is refused with
what differs, never silently dropped (:class:`AlreadyHere` when nothing else came in). Profiles are found
by name (the table's rules), nights by their group and day, groups by name; a group is made only when a
match comes into it. An import file may be hostile: every problem is an :class:`ImportProblem` naming the
field at fault, and nothing is written unless the whole file reads.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlite_utils import Database

from . import nights, people, store, tables
from .games import GAMES, ending
from .games.base import EntryError, changed_rules, name_key, normalise_name, resolve_rules, seat_index, show
from .transcript import FORMAT as TRANSCRIPT_FORMAT
from .transcript import TranscriptError, check_date, first_dealer, from_data

FORMAT = "referee-group/1"
MAX_ITEMS = 100_000  # profiles, nights or matches in one file
MAX_ENTRIES = 20_000  # entries of one match (a long evening's match holds a few thousand; each is replayed)
MAX_FILE_ENTRIES = 60_000  # entries of every match of one file together: an import takes seconds, not minutes
_ID = re.compile(f"^[{store.ID_ALPHABET}]{{{store.ID_LENGTH}}}$")


class ImportProblem(ValueError):
    """Not a file Referee can import: ``field`` says where (``matches[3].transcript.entries[7]``)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class AlreadyHere(ImportProblem):
    """Nothing came in, and a match of the file is already here with other content (``refused``: the
    (field, message) of each such match; ``done``: what was here already with the same content)."""

    def __init__(self, refused: list[tuple[str, str]], done: "Imported"):
        super().__init__(*refused[0])
        self.refused = refused
        self.done = done


# --- Export ------------------------------------------------------------------------------------


def _group_matches(db: Database, group_id: int) -> list[store.Match]:
    rows = db.conn.execute("SELECT id FROM matches WHERE group_id = ? ORDER BY created_at, rowid", (group_id,))
    return [store.get_match(db, r[0]) for r in rows]


def transcript_of(db: Database, match: store.Match) -> dict[str, Any]:
    """The match as a transcript document (docs/transcripts.md), every entry as stored; a round still
    being played as a phone without a seat may see it (GEN-6: another seat's peeks left out)."""
    entries = [e["entry"] for e in store.entries(db, match.id, upto=match.version)]
    if match.game in GAMES:
        log = store.state_at(db, match, tables.replay, tables.feed)
        entries = log.game.redact(log.state, entries, None)
    # its day is the night it belongs to (a match started at 1 am, or in UTC the next day, is the evening's)
    night_id = nights.match_group(db, match.id)[1]
    day = db.conn.execute("SELECT day FROM nights WHERE id = ?", (night_id,)).fetchone() if night_id else None
    doc = {"format": TRANSCRIPT_FORMAT, "game": match.game, "match": match.id,
           "date": nights.night_of_match(day[0] if day else None, match.created_at),
           "players": list(match.players), "rules": dict(match.rules), "entries": entries}
    # who dealt the first game, as its screen said: the game's default dealer, or a rematch's loser (SH-53),
    # whose entries replay only from that deal
    dealer = first_dealer(match.game, match.players, match.rules, match.dealer)
    if dealer is None and match.dealer is not None:
        dealer = match.players[match.dealer]
    if dealer is not None:
        doc["dealer"] = dealer
    return doc


def export_group(db: Database, group_id: int) -> dict[str, Any]:
    group = people.get_group(db, group_id)
    if group is None:
        raise LookupError(f"no group {group_id}")
    matches = _group_matches(db, group_id)
    seats: dict[str, list[int]] = {}
    for match_id, seat, pid in db.conn.execute(
            "SELECT s.match_id, s.seat, s.profile_id FROM match_seats s JOIN matches m ON m.id = s.match_id"
            " WHERE m.group_id = ? ORDER BY s.match_id, s.seat", (group_id,)):
        seats.setdefault(match_id, []).append(pid)
    wanted = {pid for ids in seats.values() for pid in ids}
    every = {p.id: p for p in people.profiles(db, merged=True)}
    for pid in list(wanted):  # and the profiles their merges lead to
        at = every.get(pid)
        while at is not None and at.merged_into is not None and at.merged_into not in wanted:
            wanted.add(at.merged_into)
            at = every.get(at.merged_into)
    night_rows = db.conn.execute("SELECT id, day FROM nights WHERE group_id = ? ORDER BY day", (group_id,)).fetchall()
    night_of = dict(db.conn.execute("SELECT id, night_id FROM matches WHERE group_id = ?", (group_id,)).fetchall())
    return {
        "format": FORMAT,
        "group": {"name": group.name},
        "profiles": [{"id": p.id, "name": p.name, "merged_into": p.merged_into}
                     for p in sorted((every[i] for i in wanted if i in every), key=lambda p: p.id)],
        "nights": [{"id": nid, "day": day} for nid, day in night_rows],
        "matches": [{"night": night_of.get(m.id), "seats": seats.get(m.id, []), "created_at": m.created_at,
                     "transcript": transcript_of(db, m)} for m in matches],
    }


def _cell(value: Any) -> Any:
    """A spreadsheet never runs a name as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


CSV_COLUMNS = ("group", "night", "match", "game", "house_rules", "match_over", "round", "player", "profile",
               "score", "round_result", "finishing_place", "total", "match_result", "ended_early", "house_rules_words")
SHARED_WIN = "won (shared)"  # a round or a match won by more than one player: a win for each, as the pages say


def export_csv(db: Database, group_id: int) -> str:
    """One row per player per round of every match of the group (rounds as the game's result gives them:
    scored rounds, Shithead's games, Spite & Malice's games); a match the table ended before its own end
    is marked ``ended_early``."""
    from . import stats  # (stats imports this module's neighbours: imported when used)

    group = people.get_group(db, group_id)
    if group is None:
        raise LookupError(f"no group {group_id}")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    days = dict(db.conn.execute("SELECT id, day FROM nights WHERE group_id = ?", (group_id,)).fetchall())
    for match in _group_matches(db, group_id):
        if match.game not in GAMES:
            continue
        night_id = nights.match_group(db, match.id)[1]
        profile_names = dict(db.conn.execute(
            "SELECT s.seat, c.name FROM match_seats s JOIN profiles p ON p.id = s.profile_id"
            " JOIN profiles c ON c.id = p.canonical_id WHERE s.match_id = ?", (match.id,)).fetchall())
        log = store.state_at(db, match, tables.replay, tables.feed)
        res = log.game.result(log.state)
        rules = json.dumps(match.rules, sort_keys=True, ensure_ascii=False)
        rules_said = stats.rules_words(match.game, stats.rules_key(match.rules))  # "The publisher's rules", not "{}"
        rounds = res.get("rounds") or []
        # the running total after each round, as the standings count it (Cabo's 100 → 50 included); none for a
        # game scored without points
        _, series = stats.running_totals(db, match) if any("scores" in r for r in rounds) else ([], [])
        if any(len(values) != len(rounds) for values in series):
            series = []
        match_winners = res.get("winners") or [] if res.get("over") or res.get("ended_early") else []
        for number, rnd in enumerate(rounds):
            winners = rnd.get("winners")
            if winners is None:
                winners = [rnd["winner"]] if rnd.get("winner") else []
            order = rnd.get("order") or []
            for seat, name in enumerate(match.players):
                if name in winners:
                    verdict = "won" if len(winners) == 1 else SHARED_WIN
                elif rnd.get("shithead") == name:
                    verdict = "shithead"
                else:
                    verdict = ""
                place = order.index(name) + 1 if name in order else (len(order) + 1 if rnd.get("shithead") == name
                                                                      else "")
                won = "" if name not in match_winners else "won" if len(match_winners) == 1 else SHARED_WIN
                writer.writerow([_cell(v) for v in (
                    group.name, days.get(night_id, ""), match.id, match.game, rules, int(bool(res.get("over"))),
                    rnd.get("number", ""), name, profile_names.get(seat, name),
                    (rnd.get("scores") or {}).get(name, ""), verdict, place,
                    series[seat][number] if series else "", won, int(bool(res.get("ended_early"))), rules_said)])
    return out.getvalue()


# --- Import ------------------------------------------------------------------------------------


@dataclass
class _Match:
    id: str
    game: str
    players: tuple[str, ...]
    rules: dict
    entries: list[tuple[str, Any]]  # (stored JSON, parsed back)
    created_at: str
    dealer: int | None = None  # the seat that dealt the first game, when not the game's default
    night: Any = None
    seats: list[int] | None = None
    over: bool = False
    where: str = "match"  # where its id is in the file (what a refusal names)
    dated: bool = False  # the file gives its date (else it is today's, and not compared)


@dataclass
class Imported:
    group: people.Group | None  # the group named (None when there is none here: none was made for nothing)
    added: list[str] = field(default_factory=list)  # match ids
    skipped: list[str] = field(default_factory=list)  # already here, with the same content
    where: dict[str, str | None] = field(default_factory=dict)  # a skipped match's group here (None: no group)
    refused: list[tuple[str, str]] = field(default_factory=list)  # already here with other content: (field, words)
    continued: list[str] = field(default_factory=list)  # here, and played on in the file: its later entries came in

    def words(self) -> str:
        """"1 match imported (group Fam), 1 already here, in Night Crew": what came in, and where the matches
        already here are (the group the file named may not be theirs)."""
        added = f"{len(self.added)} match{'es' if len(self.added) != 1 else ''} imported"
        if self.added and self.group is not None:
            added += f" (group {self.group.name})"
        skipped = f"{len(self.skipped)} already here"
        if self.skipped:
            places = list(dict.fromkeys(self.where.get(m) or "" for m in self.skipped))
            names = [p for p in places if p] + (["no group"] if "" in places else [])
            skipped += ", in " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])
        said = f"{added}, {skipped}"
        if self.continued:
            said += f", {len(self.continued)} brought up to date (played on since it was exported)"
        return said


def _need(cond: bool, where: str, message: str) -> None:
    if not cond:
        raise ImportProblem(where, message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2 ** 53


def _content_id(doc: dict) -> str:
    digest = hashlib.sha256(store.dumps(doc).encode("utf-8", "replace")).digest()
    alphabet = store.ID_ALPHABET
    return "".join(alphabet[b % len(alphabet)] for b in digest[:store.ID_LENGTH])


def _read_match(doc: Any, where: str) -> _Match:
    """A transcript document checked (every entry parsed by its game) and replayed."""
    _need(isinstance(doc, dict), where, "a transcript is a JSON object")
    entries = doc.get("entries")
    _need(isinstance(entries, list) and len(entries) <= MAX_ENTRIES, f"{where}.entries",
          f"a list of at most {MAX_ENTRIES} entries")
    try:
        transcript = from_data(doc)
    except TranscriptError as err:
        raise ImportProblem(f"{where}.{err.where}", err.message) from None
    except (RecursionError, ValueError, TypeError) as err:
        raise ImportProblem(where, f"cannot be read ({type(err).__name__})") from None
    game = transcript.game
    try:
        rules = changed_rules(game.VARIANTS, resolve_rules(game.VARIANTS, transcript.rules))
    except EntryError as err:
        raise ImportProblem(f"{where}.{err.field}", err.message) from None
    stored = []
    for i, entry in enumerate(entries):
        try:
            stored.append(store.encode_entry(entry))
        except (store.UnstorableEntry, TypeError, ValueError) as err:
            raise ImportProblem(f"{where}.entries[{i}]", getattr(err, "message", "cannot be stored")) from None
    match_id = doc.get("match")
    where_id = f"{where}.match" if where != "(transcript)" else "match"
    if not (isinstance(match_id, str) and _ID.match(match_id)):
        match_id = _content_id({k: doc.get(k) for k in ("game", "players", "rules", "entries", "date")})
    created = doc.get("date")
    dated = isinstance(created, str) and len(created) <= 40 and created.isprintable()
    created = created if dated else store.now()
    # checked by from_data, which dealt the match from it
    dealer = None if transcript.dealer is None else seat_index(transcript.dealer, transcript.players, "dealer")
    over = _replays_over(game, transcript.players, rules, [e for _, e in stored], dealer)
    return _Match(match_id, game.NAME, tuple(transcript.players), rules, stored, created, dealer, over=over,
                  where=where_id, dated=dated)


def _replays_over(game, players, rules, entries, dealer: int | None = None) -> bool:
    log = tables.replay(store.Match("import", game.NAME, list(players), rules, len(entries), None, "",
                                    dealer=dealer), entries)
    return bool(log.game.result(log.state).get("over"))  # (the log's game knows a match ended early)


def _day(value: Any, where: str) -> str:
    _need(isinstance(value, str) and len(value) == 10, where, "a day written YYYY-MM-DD")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise ImportProblem(where, f"{value} is not a day of the calendar (YYYY-MM-DD)") from None
    return value


def _name(value: Any, where: str) -> str:
    try:
        return normalise_name(value, where)
    except EntryError as err:
        message = err.message
        if where.startswith("group") and message == "a player needs a name that shows":
            message = "a group needs a name that shows"  # the name checked is a group's
        raise ImportProblem(err.field, message) from None


def read(text: Any) -> dict:
    """The JSON of an import file; ImportProblem if it is not JSON (or nested past reading)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportProblem("(file)", "not a text file (expected UTF-8 JSON)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        first = text.lstrip("\ufeff").split("\n", 1)[0]
        if not first.lstrip().startswith(("{", "[")) and first.count(",") >= 2:  # a CSV export, kept for a sheet
            raise ImportProblem("(file)", "a CSV export: only a JSON export (referee export without --csv) or a "
                                          "transcript can be imported") from None
        raise ImportProblem(f"line {err.lineno} column {err.colno}", f"not valid JSON ({err.msg})") from None
    except (RecursionError, ValueError):
        raise ImportProblem("(top level)", "nested too deeply, or a number too long, to read") from None
    _need(isinstance(data, dict), "(top level)", "an export or a transcript is a JSON object")
    return data


def import_data(db: Database, data: dict, group_name: Any = None, day: Any = None,
                require_finished: bool = True) -> Imported:
    """Bring in a group's export (``referee-group/1``) or one transcript (``referee-transcript/1``, into
    ``group_name``'s night of ``day`` when given; it must be a finished match unless told otherwise)."""
    kind = data.get("format")
    if kind == TRANSCRIPT_FORMAT or (kind is None and "entries" in data):
        match = _read_match(data, "(transcript)")
        if require_finished and not match.over:
            last = match.entries[-1][1] if match.entries else None
            if isinstance(last, dict) and last.get("move") == ending.MOVE:  # ended, no round completed
                raise ImportProblem("entries", "this transcript's match was ended before any round was completed: "
                                               "it has no result to bring in")
            raise ImportProblem("entries", "this transcript's match is not finished: only a finished match is "
                                           "imported")
        group = None
        if group_name not in (None, ""):
            group = _name(group_name, "group")  # made only when the match comes into it (_write)
            match.night = _day(day, "night") if day not in (None, "") else match.created_at[:10] \
                if _valid_day(match.created_at[:10]) else nights.evening_of()
        return _write(db, group, [match], {}, [])
    _need(kind == FORMAT, "format", f"expected {FORMAT!r} or {TRANSCRIPT_FORMAT!r}, not {show(kind)}")
    for key in data:
        _need(key in ("format", "group", "profiles", "nights", "matches", "exported_at"), show(key)[1:-1],
              "is not a field of a group export")
    grp = data.get("group")
    _need(isinstance(grp, dict), "group", "an object with the group's name")
    name = _name(grp.get("name"), "group.name")
    profiles_in = data.get("profiles", [])
    _need(isinstance(profiles_in, list) and len(profiles_in) <= MAX_ITEMS, "profiles", "a list of profiles")
    profile_names: dict[int, str] = {}
    merges: list[tuple[int, int]] = []
    for i, p in enumerate(profiles_in):
        _need(isinstance(p, dict) and _is_int(p.get("id")), f"profiles[{i}].id", "a profile has a number id")
        _need(p["id"] not in profile_names, f"profiles[{i}].id", "two profiles have this id")
        profile_names[p["id"]] = _name(p.get("name"), f"profiles[{i}].name")
        into = p.get("merged_into")
        _need(into is None or _is_int(into), f"profiles[{i}].merged_into", "a profile id or null")
        if into is not None:
            merges.append((p["id"], into))
    for i, (pid, into) in enumerate(merges):
        _need(into in profile_names and into != pid, f"profiles.merged_into ({pid})", "names no other profile here")
    parent = dict(merges)
    for pid in parent:  # each chain of merges ends at a profile merged into no other
        seen, at = {pid}, parent[pid]
        while at in parent:
            _need(at not in seen, f"profiles.merged_into ({pid})", "the merges go round in a loop")
            seen.add(at)
            at = parent[at]
    nights_in = data.get("nights", [])
    _need(isinstance(nights_in, list) and len(nights_in) <= MAX_ITEMS, "nights", "a list of nights")
    night_days: dict[int, str] = {}
    for i, n in enumerate(nights_in):
        _need(isinstance(n, dict) and _is_int(n.get("id")), f"nights[{i}].id", "a night has a number id")
        night_days[n["id"]] = _day(n.get("day"), f"nights[{i}].day")
    matches_in = data.get("matches", [])
    _need(isinstance(matches_in, list) and len(matches_in) <= MAX_ITEMS, "matches", "a list of matches")
    transcripts = [item.get("transcript") for item in matches_in if isinstance(item, dict)]
    total = sum(len(doc["entries"]) for doc in transcripts
                if isinstance(doc, dict) and isinstance(doc.get("entries"), list))
    _need(total <= MAX_FILE_ENTRIES, "matches", f"at most {MAX_FILE_ENTRIES} entries in all, not {total}: export "
                                                "fewer nights at a time")
    matches = []
    for i, item in enumerate(matches_in):
        where = f"matches[{i}]"
        _need(isinstance(item, dict), where, "an object with a transcript")
        match = _read_match(item.get("transcript"), f"{where}.transcript")
        night = item.get("night")
        _need(night is None or (_is_int(night) and night in night_days), f"{where}.night", "names no night here")
        match.night = night_days.get(night) if night is not None else None
        seats = item.get("seats")
        if seats is not None:
            _need(isinstance(seats, list) and len(seats) == len(match.players)
                  and all(_is_int(s) and s in profile_names for s in seats), f"{where}.seats",
                  "one profile id of this file per player")
            _need(len({name_key(profile_names[s]) for s in seats}) == len(seats), f"{where}.seats",
                  "two seats name the same profile")
            match.seats = seats
        created = item.get("created_at")
        if created is not None:
            try:
                match.created_at = check_date(created, f"{where}.created_at")
                match.dated = True
            except TranscriptError as err:
                _need(False, err.where, err.message)
        matches.append(match)
    return _write(db, name, matches, profile_names, merges)


def _valid_day(text: str) -> bool:
    try:
        date.fromisoformat(text)
        return True
    except ValueError:
        return False


def _group_here(db: Database, m: _Match) -> str | None:
    row = db.conn.execute("SELECT g.name FROM matches m JOIN groups g ON g.id = m.group_id WHERE m.id = ?",
                          (m.id,)).fetchone()
    return row[0] if row else None


def _canonical(value: Any) -> str:
    try:
        return store.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _seated(entries: list, players) -> list[str]:
    """Entries compared by seat: each player's name, wherever an entry holds it, stands for its seat."""
    seat = {name: i for i, name in enumerate(players) if isinstance(name, str)}

    def by_seat(value: Any) -> Any:
        if isinstance(value, str):
            return {"seat#": seat[value]} if value in seat else value
        if isinstance(value, list):
            return [by_seat(v) for v in value]
        if isinstance(value, dict):
            return {k: by_seat(v) for k, v in value.items()}
        return value

    return [_canonical(by_seat(e)) for e in entries]


def _rules_of(game_name: str, rules: Any) -> str:
    game = GAMES.get(game_name)
    try:
        if game is not None:
            rules = changed_rules(game.VARIANTS, resolve_rules(game.VARIANTS, rules))
    except (EntryError, TypeError, ValueError, AttributeError):
        pass
    return _canonical(rules)


def _differences(db: Database, m: _Match) -> "str | CarriesOn | None":
    """What differs between the file's match and the match here under its id, in words ("" when nothing
    does: the same players, entries, house rules, and date when the file gives one); None when it is not
    here. The entries are compared as they are stored, and as this match's own transcript gives them (a
    round being played without another seat's peeks, GEN-6), so that its own export is the same."""
    try:
        here = store.get_match(db, m.id)
    except store.UnknownMatch:
        return None
    if here.game != m.game:
        return f"as a match of another game ({here.game})"
    said = []
    if list(here.players) != list(m.players):
        said.append(f"with other players ({', '.join(str(p) for p in here.players)})")
    stored = [e["entry"] for e in store.entries(db, here.id, upto=here.version)]
    mine = _seated([parsed for _, parsed in m.entries], m.players)  # players by seat: a renaming is "players"
    versions = [stored]
    try:
        versions.append(transcript_of(db, here)["entries"])
    except Exception:  # noqa: BLE001 - a match here that no longer replays: its entries as stored
        pass
    carries_on = False
    if not any(_seated(version, here.players) == mine for version in versions):
        ours = _seated(stored, here.players)
        if len(ours) < len(mine) and mine[:len(ours)] == ours:
            carries_on = True  # exported while it was being played, and played on since: its later entries come in
        elif len(stored) != len(mine):
            said.append(f"with other entries ({len(stored)} here, {len(mine)} in the file)")
        else:
            ours = _seated(stored, here.players)
            first = next((i for i, e in enumerate(ours) if e != mine[i]), 0)
            said.append(f"with other entries (entry {first} differs)")  # numbered from 0, as rulings are
    if _rules_of(here.game, here.rules) != _rules_of(m.game, m.rules):
        said.append("with other house rules")
    if m.dated and here.created_at[:10] != m.created_at[:10]:
        said.append(f"with another date ({here.created_at[:10]})")
    if carries_on and not said:
        return CarriesOn(len(stored))
    if carries_on:
        said.insert(0 if here.game == m.game and list(here.players) == list(m.players) else 1,
                    f"with other entries ({len(stored)} here, {len(mine)} in the file)")
    return ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else "".join(said)


@dataclass(frozen=True)
class CarriesOn:
    """The file's match is the one here, played on: its entries past the ``here`` stored are brought in."""
    here: int


def _group_named(conn, name: str | None, create: bool) -> tuple[people.Group | None, bool]:
    """Inside the write transaction: the group of that name, made when ``create`` (a match comes into it);
    and whether it was made now."""
    if name is None:
        return None, False
    row = conn.execute("SELECT id, name FROM groups WHERE name_key = ?", (name_key(name),)).fetchone()
    if row is not None:
        return people.Group(*row), False
    if not create:
        return None, False
    gid = conn.execute("INSERT INTO groups (name, name_key, created_at) VALUES (?, ?, ?)",
                       (name, name_key(name), store.now())).lastrowid
    return people.Group(gid, name), True


def _write(db: Database, group_name: str | None, matches: list[_Match], profile_names: dict[int, str],
           merges: list[tuple[int, int]]) -> Imported:
    """Write the matches not here yet. A match already here is compared first (``_differences``): the same,
    it is skipped, and said where it is; other content, it is refused and left as it is. Nothing at all
    coming in and a match refused is an :class:`AlreadyHere` (nothing written, no group made)."""
    done = Imported(None)
    new: list[_Match] = []
    later: list[tuple[_Match, int]] = []  # matches here, played on in the file: (match, entries here)
    for m in matches:
        differs = _differences(db, m)
        if differs is None:
            new.append(m)
        elif isinstance(differs, CarriesOn) and db.conn.execute(
                "SELECT 1 FROM seat_claims WHERE match_id = ? LIMIT 1", (m.id,)).fetchone():
            # played at a table here: its entries come from its phones (each checked for who may make it),
            # never from a file
            done.refused.append((m.where, f"match {m.id} is played at a table here: its later entries come from "
                                          "its phones, not from a file; it was not changed"))
        elif isinstance(differs, CarriesOn):
            later.append((m, differs.here))
        elif differs:
            done.refused.append((m.where, f"match {m.id} is already here {differs}; it was not changed"))
        else:
            done.skipped.append(m.id)
            done.where[m.id] = _group_here(db, m)
    if not new and not later and done.refused:
        done.group = _group_named(db.conn, group_name, create=False)[0]
        raise AlreadyHere(done.refused, done)
    with store.write_transaction(db) as conn:
        group, made = _group_named(conn, group_name, create=bool(new))
        done.group = group
        for m, here in later:
            if conn.execute("SELECT version FROM matches WHERE id = ?", (m.id,)).fetchone() != (here,):
                done.refused.append((m.where, f"match {m.id} was played on here meanwhile; it was not changed"))
                continue
            conn.executemany("INSERT INTO entries (match_id, seq, entry, created_at) VALUES (?, ?, ?, ?)",
                             [(m.id, i + 1, payload, store.now()) for i, (payload, _) in enumerate(m.entries)
                              if i >= here])
            conn.execute("UPDATE matches SET version = ? WHERE id = ?", (len(m.entries), m.id))
            done.continued.append(m.id)
            done.where[m.id] = _group_here(db, m)
        ids = dict(zip(profile_names, people.profile_ids_for(conn, list(profile_names.values()))))
        for m in new:
            if conn.execute("SELECT 1 FROM matches WHERE id = ?", (m.id,)).fetchone():
                done.skipped.append(m.id)  # brought in meanwhile (another import of the same file)
                done.where[m.id] = _group_here(db, m)
                continue
            night_id = nights.night_for(conn, group.id, m.night) if group is not None and m.night else None
            for _ in range(20):
                code = store.random_id(store.JOIN_CODE_LENGTH, store.JOIN_CODE_ALPHABET)
                if not conn.execute("SELECT 1 FROM matches WHERE join_code = ?", (code,)).fetchone():
                    break
            conn.execute("INSERT INTO matches (id, game, players, rules, version, join_code, created_at, group_id,"
                         " night_id, dealer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (m.id, m.game, store.dumps(list(m.players)), store.dumps(m.rules), len(m.entries), code,
                          m.created_at, group.id if group else None, night_id, m.dealer))
            conn.executemany("INSERT INTO entries (match_id, seq, entry, created_at) VALUES (?, ?, ?, ?)",
                             [(m.id, i + 1, payload, m.created_at) for i, (payload, _) in enumerate(m.entries)])
            seat_ids = [ids[s] for s in m.seats] if m.seats else people.profile_ids_for(conn, m.players)
            conn.executemany("INSERT INTO match_seats (match_id, seat, profile_id) VALUES (?, ?, ?)",
                             [(m.id, seat, pid) for seat, pid in enumerate(seat_ids)])
            done.added.append(m.id)
        if made and not done.added:  # every one brought in meanwhile: no empty group left behind
            conn.execute("DELETE FROM groups WHERE id = ?", (group.id,))
            group = done.group = None
    for source, into in merges:  # each its own recorded event, skipped when already the same person
        try:
            people.merge(db, ids[source], ids[into])
        except people.PeopleError:
            pass
    if done.added or done.continued:  # summed up now, not at the first look at the standings
        from . import stats

        groups = {group.id if group is not None else None}
        for match_id in done.continued:  # a match played on stays in its own group
            groups.add(db.conn.execute("SELECT group_id FROM matches WHERE id = ?", (match_id,)).fetchone()[0])
        for group_id in groups:
            stats.refresh(db, group_id)
    return done
