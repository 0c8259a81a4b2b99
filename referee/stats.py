"""Standings and statistics, computed from the event log through the game interface.

Every match is summed up once per version: its log is replayed (``store.state_at``, with the state
cache and snapshots) and ``game.result(state)`` read, the same result ``referee check`` prints. The
summary is kept in ``match_summaries`` (per match) and ``seat_summaries`` (per seat), tagged with the
match's version and the game's engine version: a summary whose version or tag no longer matches is
computed again before any standings are read (``refresh``), so the figures are never older than the
log, and an undo or a correction is reflected at once. Standings are then SQL sums over the
summaries, with merges followed through ``profiles.canonical_id``.

What is counted, for any game (the result tally every game gives): matches finished, won, the finishing
place and the total. A match that ends level at the top is a **shared win** (RTC-55, SM-43): it is a
win for each player level, counted as one on every screen (the standings' "Won", the charts, a
player's page, head to head), and told apart as shared where there is room (``shared`` in a row of
standings; each seat keeps ``won`` alone and ``tied``, shared). Then counters by what a game's rounds
hold, so a game added later is counted without new code here:

* rounds with ``scores`` and ``winners`` (Rat-a-Tat Cat, Cabo): rounds played, won, tied, the sum of
  round scores (for the average), the best (lowest) round, calls and calls that won their round;
* rounds with ``shithead`` (Shithead): games, times Shithead, the sum of finishing places;
* rounds with ``winner`` and ``points`` (Spite & Malice): games and games won;
* any game whose state keeps flags: disputes that name the player's own entries (a note and the card
  that contradicted it: both players), each once.

Matches are only counted once finished, and never across house rules: every table of standings is
for one game under one set of house rules (``rules_key``), and the screens say which.
"""
from __future__ import annotations

import json
import logging
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from . import nights, store, tables
from .games import GAMES, get_game
from .games.base import changed_rules, resolve_rules
from .games.rulebook import describe_switch
from .store import write_transaction

logger = logging.getLogger(__name__)

SUMMARY_FORMAT = 3  # bump when what a summary holds changes: every summary is computed again


def tag_for(game_name: str) -> str:
    game = GAMES.get(game_name)
    return f"{SUMMARY_FORMAT}/{game_name}/{getattr(game, 'ENGINE_VERSION', 0)}"


def rules_key(rules: dict) -> str:
    return json.dumps(rules or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def rules_parts(game_name: str, key: str) -> tuple[Any, list[tuple[Any, Any]]]:
    """The house rules of a ``rules_key`` as a person would say them: the ready-made rule set they build
    on (the preset whose every switch off its default they hold, the one holding most; None when none
    does) and each switch that differs from it, as (variant, value) in the order the rules pages list
    them; a switch this game no longer has is left out. Raises ValueError for a key that is not JSON,
    KeyError for a game this referee does not have."""
    game = get_game(game_name)

    def off_default(rules: dict) -> dict:
        return changed_rules(game.VARIANTS, {v.key: rules.get(v.key, v.default) for v in game.VARIANTS})

    given = json.loads(key)
    if not isinstance(given, dict):
        raise ValueError(key)
    wanted = off_default(given)
    base, covered = None, {}
    for preset in game.PRESETS:
        own = off_default(dict(preset.rules))
        if len(own) > len(covered) and all(k in wanted and wanted[k] == v for k, v in own.items()):
            base, covered = preset, own
    if base is None:  # the rules the game plays by default, by their name, and what differs from them
        base = next((p for p in game.PRESETS if not dict(p.rules)), None)
    variants = {v.key: v for v in game.VARIANTS}
    return base, [(variants[k], v) for k, v in wanted.items() if k not in covered]


def switch_words(label: str, value: str) -> str:
    """One switch and its value: "Pay-off pile: 5 cards"; a value that says itself with a colon
    ("off: a single game") in brackets instead, so that no colon follows another."""
    return f"{label} ({value})" if ":" in value else f"{label}: {value}"


def rules_words(game_name: str, key: str) -> str:
    """The house rules of a ``rules_key`` in words (``rules_parts``): the ready-made rule set they build
    on by its name ("Common rules (pagat), one game"), then each switch off it ("Pay-off pile: 5 cards");
    no switch off the defaults: the name of the rules the game plays by default ("The publisher's rules")."""
    try:
        base, switches = rules_parts(game_name, key)
    except (KeyError, ValueError, AttributeError, TypeError):
        return key
    said = ([base.name] if base is not None else []) + [switch_words(v.label, describe_switch(v, value))
                                                       for v, value in switches]
    return "; ".join(said) if said else "the default house rules"


# --- One match ----------------------------------------------------------------------------------

COUNTERS = ("rounds", "round_points", "best_round", "rounds_won", "rounds_tied", "calls", "calls_won", "disputes",
            "games", "games_won", "shitheads", "placed", "place_points")
"""The counters a seat's summary keeps, each a column of ``seat_summaries`` (added up by SUM, but
``best_round`` by MIN; ``disputes`` is NULL for a game that keeps no flags)."""


@dataclass
class SeatSummary:
    seat: int
    place: int
    won: int  # 1: won the match alone
    tied: int  # 1: shared the win (level at the top when the match ended): a win too, told apart
    total: int
    counters: dict[str, int | None] = field(default_factory=dict)


@dataclass
class MatchSummary:
    match_id: str
    version: int
    tag: str
    game: str
    rules_key: str
    over: bool
    rounds: list[list[int | None]]  # each round's change to each seat's total (the running totals, `_chart_steps`)
    seats: list[SeatSummary]


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _places(players: list[str], res: dict) -> dict[str, int]:
    """Place by name from the result's standings (best first): the place a row names (a game's finishing
    order), else equal totals share a place."""
    out: dict[str, int] = {}
    standings = res.get("standings") or []
    for row in standings:
        if _int(row.get("place")) > 0:
            out[row.get("player")] = row["place"]
            continue
        same = next(j for j, other in enumerate(standings) if other.get("total") == row.get("total"))
        out[row.get("player")] = same + 1
    for name in players:
        out.setdefault(name, len(players))
    return out


def _round_counters(name: str, rounds: list[dict]) -> dict[str, int]:
    """The player's counters from the rounds of a result, by what the rounds hold (not by game)."""
    x: dict[str, int] = defaultdict(int)
    for rnd in rounds:
        if "scores" in rnd and "winners" in rnd:  # rounds scored in points
            if name not in rnd["scores"]:
                continue
            score = _int(rnd["scores"][name])
            winners = rnd.get("winners") or []
            x["rounds"] += 1
            x["round_points"] += score
            x["best_round"] = score if "best_round" not in x else min(x["best_round"], score)
            if name in winners:
                x["rounds_won" if len(winners) == 1 else "rounds_tied"] += 1
            if rnd.get("caller") == name:
                x["calls"] += 1
                x["calls_won"] += name in winners
        elif "shithead" in rnd and "order" in rnd:  # Shithead games: an order and a loser
            x["games"] += 1
            order = rnd.get("order") or []
            if rnd.get("shithead") == name:
                x["shitheads"] += 1
                x["placed"] += 1
                x["place_points"] += len(order) + 1
            elif name in order:
                x["placed"] += 1
                x["place_points"] += order.index(name) + 1
            if rnd.get("winner") == name:
                x["games_won"] += 1
        elif "winner" in rnd and "points" in rnd:  # games won with points (Spite & Malice)
            x["games"] += 1
            if rnd.get("winner") == name:
                x["games_won"] += 1
    return dict(x)


def _entry_player(entry: Any, players: list[str]) -> str | None:
    """Whose entry this is (an override or a correction: the entry inside it), or None (the table's)."""
    if isinstance(entry, dict) and entry.get("move") in ("override", "correct") and isinstance(entry.get("entry"), dict):
        entry = entry["entry"]
    who = entry.get("seat") if isinstance(entry, dict) else None
    if isinstance(who, str):
        return who if who in players else None
    if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(players):
        return players[who]
    return None


def summarise(match: store.Match, log: Any, stored: list[dict] | None = None) -> MatchSummary:
    """The summary of a match from its replayed log (``stored``: its entries, to say whose entry
    raised each dispute)."""
    game = log.game
    res = game.result(log.state)
    players = list(match.players)
    places = _places(players, res)
    winners = list(res.get("winners") or []) if res.get("over") else []
    keeps_flags = hasattr(log.state, "flags")
    disputes: dict[str, int] = defaultdict(int)
    flags = getattr(log.state, "flags", ()) or ()
    if flags and stored is not None:
        by_position = {row["seq"] - 1: row["entry"] for row in stored}
        for flag in flags:  # each player whose entries the dispute names, once
            named = tuple(getattr(flag, "entries", ()) or ()) or (getattr(flag, "at", None),)
            for who in {_entry_player(by_position.get(p), players) for p in named} - {None}:
                disputes[who] += 1
    rounds = res.get("rounds") or []
    seats = []
    for seat, name in enumerate(players):
        counters: dict[str, int | None] = dict(_round_counters(name, rounds))
        counters["disputes"] = disputes.get(name, 0) if keeps_flags else None
        seats.append(SeatSummary(seat, places[name], int(name in winners and len(winners) == 1),
                                 int(name in winners and len(winners) > 1),
                                 _int((res.get("totals") or {}).get(name)), counters))
    chart = _chart_steps(players, [r for r in rounds if isinstance(r.get("scores"), dict)])
    return MatchSummary(match.id, match.version, tag_for(match.game), match.game, rules_key(match.rules),
                        bool(res.get("over")), chart, seats)


RESET_TO = 50  # a round's ``reset`` names players whose total of exactly 100 dropped to this (CAB-43)


def _chart_steps(players: tuple[str, ...] | list[str], rounds: list[dict]) -> list[list[int | None]]:
    """Each round's change to each player's total, for the running totals: what the round scores, or, for a
    player the round names in ``reset``, what takes the total to RESET_TO."""
    totals = dict.fromkeys(players, 0)
    out = []
    for r in rounds:
        step: list[int | None] = []
        for n in players:
            score = _int(r["scores"][n]) if n in r["scores"] else None
            if n in (r.get("reset") or ()):
                score = RESET_TO - totals[n]
            totals[n] += score or 0
            step.append(score)
        out.append(step)
    return out


def compute(db: Database, match: store.Match) -> MatchSummary:
    """The match's summary: from the state in memory (a table being played), else by replaying its log
    (no snapshot is kept for it: a finished match is rarely opened again)."""
    log = store.cached_state(db, match)
    if log is None:
        log = store.replay_all(db, match, tables.replay)
    stored = store.entries(db, match.id, upto=match.version) if getattr(log.state, "flags", None) else None
    return summarise(match, log, stored)


_SEAT_COLUMNS = ("match_id", "seat", "group_id", "night_id", "game", "rules_key", "over", "profile_id", "place", "won",
                 "tied", "total", *COUNTERS)


def save(db: Database, summaries: list[MatchSummary]) -> None:
    """Keep the summaries, and the totals of every person whose figures they change (same transaction)."""
    if not summaries:
        return
    insert = (f"INSERT INTO seat_summaries ({', '.join(_SEAT_COLUMNS)}) VALUES"
              f" ({', '.join('?' * len(_SEAT_COLUMNS))})")
    touched: set[tuple] = set()
    with write_transaction(db) as conn:
        for s in summaries:
            where = conn.execute("SELECT group_id, night_id FROM matches WHERE id = ?", (s.match_id,)).fetchone()
            group_id, night_id = where if where else (None, None)
            profiles = dict(conn.execute("SELECT seat, profile_id FROM match_seats WHERE match_id = ?", (s.match_id,)))
            touched.update(conn.execute("SELECT group_id, game, rules_key, profile_id FROM seat_summaries"
                                        " WHERE match_id = ?", (s.match_id,)).fetchall())
            conn.execute("INSERT OR REPLACE INTO match_summaries (match_id, version, tag, group_id, night_id, game,"
                         " rules_key, over, rounds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (s.match_id, s.version, s.tag, group_id, night_id, s.game, s.rules_key, int(s.over),
                          json.dumps(s.rounds)))
            conn.execute("DELETE FROM seat_summaries WHERE match_id = ?", (s.match_id,))
            conn.executemany(insert, [
                (s.match_id, x.seat, group_id, night_id, s.game, s.rules_key, int(s.over), profiles.get(x.seat),
                 x.place, x.won, x.tied, x.total,
                 *(x.counters.get(c, None if c in ("best_round", "disputes") else 0) for c in COUNTERS))
                for x in s.seats])
            touched.update((group_id, s.game, s.rules_key, profiles.get(x.seat)) for x in s.seats)
        for key in touched:
            _retotal(conn, key)


def _retotal(conn, key: tuple) -> None:
    """One person's totals in one group, game and house rules, added up again from their summaries."""
    conn.execute("DELETE FROM standings_totals WHERE group_id IS ? AND game = ? AND rules_key = ? AND profile_id IS ?",
                 key)
    conn.execute(f"INSERT INTO standings_totals (group_id, game, rules_key, profile_id, {', '.join(_SUMS)})"
                 f" SELECT ss.group_id, ss.game, ss.rules_key, ss.profile_id, {_SELECT_SUMS} FROM seat_summaries ss"
                 " WHERE ss.group_id IS ? AND ss.game = ? AND ss.rules_key = ? AND ss.profile_id IS ? AND ss.over = 1"
                 " GROUP BY ss.group_id, ss.game, ss.rules_key, ss.profile_id", key)


def stale(db: Database, group_id: int | None = None) -> list[str]:
    """The matches (in one group, or all) whose summary is missing or older than the match: a match
    whose version, engine, group or night moved on (a game this referee does not have is left out)."""
    tags = [tag_for(name) for name in GAMES]
    if _looks_fresh(db, group_id, tags):
        return []
    sql = (f"SELECT m.id FROM matches m LEFT JOIN match_summaries s ON s.match_id = m.id WHERE"
           f" (s.match_id IS NULL OR s.version != m.version OR s.tag NOT IN ({','.join('?' * len(tags))})"
           f" OR s.group_id IS NOT m.group_id OR s.night_id IS NOT m.night_id)"
           f" AND m.game IN ({','.join('?' * len(GAMES))})")
    args: list = [*tags, *GAMES]
    if group_id is not None:
        sql += " AND m.group_id = ?"
        args.append(group_id)
    return [r[0] for r in db.conn.execute(sql + " ORDER BY m.created_at, m.id", args)]


def countable(db: Database, group_id: int | None = None) -> int:
    """How many matches (in one group, or all) have a summary to keep: those of the games here."""
    where = " AND group_id = ?" if group_id is not None else ""
    return db.conn.execute(f"SELECT count(*) FROM matches WHERE game IN ({','.join('?' * len(GAMES))}){where}",
                           (*GAMES, *((group_id,) if group_id is not None else ()))).fetchone()[0]


def refresh(db: Database, group_id: int | None = None, batch: int = 500, limit: int | None = None,
            ids: list[str] | None = None) -> int:
    """Compute the summaries that are missing or older than their match (in one group, or all; or of
    ``ids``, found stale already), ``batch`` matches to a transaction, at most ``limit`` of them (oldest
    first) when given. Returns how many."""
    todo = stale(db, group_id) if ids is None else ids
    if limit is not None:
        todo = todo[:limit]
    done = 0
    for start in range(0, len(todo), batch):
        found = []
        for match_id in todo[start:start + batch]:
            try:
                found.append(compute(db, store.get_match(db, match_id)))
            except (tables.GameNotInstalled, store.UnknownMatch):
                continue
        save(db, found)
        done += len(found)
    return done


def count_in_background(db_path: str, batch: int = 200) -> threading.Thread:
    """At ``referee serve`` start-up: the summaries an upgrade dropped (or any missing) counted in a
    thread of their own, a batch to a transaction, so that the first look at the standings finds them
    ready (a look before it is done counts a batch itself and says how far they have got). The thread's
    ``counted`` says how many it summed up."""
    from . import db as dbmod

    def run() -> None:
        db = dbmod.connect(db_path)
        try:
            while True:
                done = refresh(db, batch=batch, limit=batch)
                worker.counted += done
                if done < batch:  # every summary missing when this pass began is counted
                    break
        except Exception:  # noqa: BLE001 - the pages count what is left; the server keeps serving
            logger.exception("counting the standings in the background stopped")
        finally:
            db.close()

    worker = threading.Thread(target=run, name="standings-count", daemon=True)
    worker.counted = 0
    worker.start()
    return worker


def _looks_fresh(db: Database, group_id: int | None, tags: list[str]) -> bool:
    """A quick look (two index-only counts) that every match of the group has a summary of its current
    version and engine: versions only grow, so equal counts and equal sums of versions mean every
    summary is at its match's version. When it says no, `refresh` compares match by match."""
    where = "group_id IS ?" if group_id is not None else "1"
    args: tuple = (group_id,) if group_id is not None else ()
    matches = db.conn.execute(f"SELECT count(*), total(version) FROM matches WHERE {where}"
                              f" AND game IN ({','.join('?' * len(GAMES))})", (*args, *GAMES)).fetchone()
    kept = db.conn.execute(f"SELECT count(*), total(version) FROM match_summaries WHERE {where}"
                           f" AND tag IN ({','.join('?' * len(tags))})", (*args, *tags)).fetchone()
    return matches == kept


def refresh_one(db: Database, match: store.Match) -> None:
    row = db.conn.execute("SELECT version, tag FROM match_summaries WHERE match_id = ?", (match.id,)).fetchone()
    if row is None or row[0] != match.version or row[1] != tag_for(match.game):
        save(db, [compute(db, match)])


# --- Standings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scope:
    """Which matches: a group (or every group), a night, a game and its house rules."""

    group_id: int | None = None
    night_id: int | None = None
    game: str | None = None
    rules_key: str | None = None

    def where(self, table: str = "ss") -> tuple[str, list]:
        clauses, args = [f"{table}.over = 1"], []
        for column, value in (("group_id", self.group_id), ("night_id", self.night_id), ("game", self.game),
                              ("rules_key", self.rules_key)):
            if value is not None:
                clauses.append(f"{table}.{column} = ?")
                args.append(value)
        return " AND ".join(clauses), args


@dataclass(frozen=True)
class Table:
    """The standings of one game under one set of house rules."""

    game: str
    rules_key: str
    matches: int
    rows: list[dict]

    @property
    def title(self) -> str:
        return getattr(GAMES.get(self.game), "TITLE", self.game)

    @property
    def rules_words(self) -> str:
        return rules_words(self.game, self.rules_key)

    @property
    def columns(self) -> list[tuple[str, str]]:
        """(key, heading) of the figures this table's rows hold, in order."""
        keys = set().union(*(r.keys() for r in self.rows)) if self.rows else set()
        if "shitheads" in keys:  # Shithead: a match's total is its tally of Shitheads (or of games won)
            keys.discard("total")
            if all(r.get("games") == r.get("matches") for r in self.rows):
                keys -= {"avg_game_place", "games_won"}  # one game a match: its place and win are the match's
            elif not any(r.get("games_won") for r in self.rows):
                keys.discard("games_won")  # nobody wins a game where the last one left loses (SH-51)
        return [(k, h) for k, h in COLUMNS if k in keys]


COLUMNS = (
    ("matches", "Matches"), ("won", "Won"), ("avg_place", "Avg place"), ("total", "Total"),
    ("rounds_won", "Rounds won"), ("rounds_tied", "Rounds tied"), ("avg_round", "Avg round"),
    ("best_round", "Best round"), ("calls", "Calls won"), ("disputes", "Disputes"),
    ("shitheads", "Times Shithead"), ("avg_game_place", "Avg finish"), ("games_won", "Games won"),
)

_SUMS = ("matches", "won", "tied", "place_sum", "total", *COUNTERS)
_SELECT_SUMS = ("count(*), sum(ss.won), sum(ss.tied), sum(ss.place), sum(ss.total), "
                + ", ".join(f"min(ss.{c})" if c == "best_round" else f"sum(ss.{c})" for c in COUNTERS))


def _add(a: dict, b: dict) -> dict:
    """Two profiles of one person added up."""
    out = dict(a)
    for k, v in b.items():
        if v is None:
            continue
        if out.get(k) is None:
            out[k] = v
        else:
            out[k] = min(out[k], v) if k == "best_round" else out[k] + v
    return out


def _tenths(points: int, rounds: int) -> float:
    """``points / rounds`` to one decimal, a half rounded up as people round it (49/4 is 12.3, not
    Python's 12.2: ``round`` rounds a half to the even digit, and 12.25 is stored a hair under)."""
    from decimal import ROUND_HALF_UP, Decimal

    return float((Decimal(points) / Decimal(rounds)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def _figures(s: dict, kind: dict) -> dict:
    """The figures shown for a person from their sums; ``kind``: what the table's game has."""
    matches = s["matches"]
    row: dict[str, Any] = {"matches": matches, "won": (s["won"] or 0) + (s["tied"] or 0), "shared": s["tied"] or 0,
                           "avg_place": round(s["place_sum"] / matches, 2) if matches else None, "total": s["total"]}
    if kind["rounds"]:
        row["rounds_won"], row["rounds_tied"] = s["rounds_won"] or 0, s["rounds_tied"] or 0
        row["avg_round"] = _tenths(s["round_points"], s["rounds"]) if s["rounds"] else None
        row["best_round"] = s["best_round"]
        row["calls_won"], row["calls_made"] = s["calls_won"] or 0, s["calls"] or 0
        row["calls"] = f"{row['calls_won']} of {row['calls_made']}"
    if kind["disputes"]:
        row["disputes"] = s["disputes"] or 0
    if kind["shitheads"]:
        row["shitheads"] = s["shitheads"] or 0
        row["avg_game_place"] = round(s["place_points"] / s["placed"], 2) if s["placed"] else None
        row["games"] = s["games"] or 0
    if kind["games"]:
        row["games_won"] = s["games_won"] or 0
    return row


def standings(db: Database, scope: Scope, profile: int | None = None, fresh: bool = True) -> list[Table]:
    """One table per game and set of house rules in ``scope`` (finished matches), best first: most matches
    won (a shared win is a win, RTC-55: ``won`` counts it, ``shared`` says how many were shared), then
    more of them won alone, then the better average place. With ``profile``, only that person's rows."""
    if fresh:
        refresh(db, scope.group_id)
    canonical = dict(db.conn.execute("SELECT id, canonical_id FROM profiles"))
    if scope.night_id is None and profile is None:  # all time: the totals kept as summaries are saved
        where, args = scope.where("st")
        where = where.replace("st.over = 1", "1")
        sql = f"SELECT st.game, st.rules_key, st.profile_id, {', '.join(_SUMS)} FROM standings_totals st WHERE {where}"
    else:
        where, args = scope.where()
        if profile is not None:
            ids = [pid for pid, c in canonical.items() if c == profile]
            where += f" AND ss.profile_id IN ({','.join('?' * len(ids))})"
            args = [*args, *ids]
        sql = (f"SELECT ss.game, ss.rules_key, ss.profile_id, {_SELECT_SUMS} FROM seat_summaries ss WHERE {where}"
               " GROUP BY ss.game, ss.rules_key, ss.profile_id")
    people: dict[tuple, dict[int, dict]] = defaultdict(dict)
    for game, key, pid, *sums in db.conn.execute(sql, args):
        person = canonical.get(pid, pid)
        figures = dict(zip(_SUMS, sums))
        table = people[(game, key)]
        table[person] = _add(table[person], figures) if person in table else figures
    mwhere, margs = scope.where("ms")
    counts = {(g, k): n for g, k, n in db.conn.execute(
        f"SELECT ms.game, ms.rules_key, count(*) FROM match_summaries ms WHERE {mwhere} GROUP BY ms.game, ms.rules_key",
        margs)}
    names = dict(db.conn.execute("SELECT id, name FROM profiles"))
    out = []
    for (game, key), persons in people.items():
        kind = {"rounds": any(p["rounds"] for p in persons.values()),
                "disputes": any(p["disputes"] is not None for p in persons.values()),
                "shitheads": any(p["placed"] or p["shitheads"] for p in persons.values()),
                "games": any(p["games"] for p in persons.values())}
        rows = []
        for pid, sums in persons.items():
            row = _figures(sums, kind)
            row.update(profile_id=pid, name=names.get(pid, "?"))
            rows.append(row)
        def order(r):
            return -r["won"], r["shared"], r["avg_place"] if r["avg_place"] is not None else 99

        rows.sort(key=lambda r: (*order(r), r["name"].casefold()))
        for i, row in enumerate(rows):  # rows equal in what orders them share a place (by name within it)
            row["rank"] = rows[i - 1]["rank"] if i and order(rows[i - 1]) == order(row) else i + 1
        out.append(Table(game, key, counts.get((game, key), 0) if profile is None else
                         sum(r["matches"] for r in rows), rows))
    out.sort(key=lambda t: (-t.matches, t.game, t.rules_key))
    return out


def rule_sets(db: Database, scope: Scope) -> list[tuple[str, str, int]]:
    """(game, rules_key, finished matches) in the scope's group and night, whatever its game filter."""
    where, args = Scope(scope.group_id, scope.night_id).where("ms")
    return list(db.conn.execute(f"SELECT ms.game, ms.rules_key, count(*) FROM match_summaries ms WHERE {where}"
                                " GROUP BY ms.game, ms.rules_key ORDER BY count(*) DESC", args))


# --- History, head-to-head and series for charts ---------------------------------------------------


def _ids_of(db: Database, profile: int) -> list[int]:
    return [r[0] for r in db.conn.execute("SELECT id FROM profiles WHERE canonical_id = ?", (profile,))]


def history(db: Database, profile: int, limit: int | None = 50) -> list[dict]:
    """The person's matches (merges followed), newest first: by night (a match started later for an earlier
    evening, or an evening imported later, is listed with its evening), then start; game, night, place,
    won, tied, players."""
    ids = _ids_of(db, profile)
    marks = ",".join("?" * len(ids))
    rows = db.conn.execute(
        "SELECT m.id, m.game, m.created_at, m.players, m.group_id, n.day, ss.over, ss.place, ss.won, ss.tied,"
        " ss.total, m.rules FROM match_seats st JOIN matches m ON m.id = st.match_id"
        " LEFT JOIN nights n ON n.id = m.night_id"
        " LEFT JOIN seat_summaries ss ON ss.match_id = m.id AND ss.seat = st.seat"
        f" WHERE st.profile_id IN ({marks})"
        " ORDER BY coalesce(n.day, substr(m.created_at, 1, 10)) DESC, m.created_at DESC, m.rowid DESC"
        + (" LIMIT ?" if limit else ""),
        [*ids, limit] if limit else ids)
    keys = ("id", "game", "created_at", "players", "group_id", "day", "over", "place", "won", "tied", "total", "rules")
    out = []
    for r in rows:
        item = dict(zip(keys, r))
        item["players"] = json.loads(item["players"])
        item["day"] = nights.night_of_match(item["day"], item["created_at"])  # a match without a group too
        out.append(item)
    return out


def head_to_head(db: Database, a: int, b: int) -> dict:
    """Finished matches where both sat: who finished ahead of whom, by game and house rules, and how many
    each won (``a_won``: alone or shared; ``a_shared``: of them, shared)."""
    refresh(db)
    ids_a, ids_b = _ids_of(db, a), _ids_of(db, b)
    rows = db.conn.execute(
        "SELECT sa.game, sa.rules_key, sa.match_id, m.created_at, n.day, sa.place, sb.place, sa.won + sa.tied,"
        " sb.won + sb.tied, sa.tied, sb.tied"
        " FROM seat_summaries sa JOIN seat_summaries sb ON sb.match_id = sa.match_id"
        " JOIN matches m ON m.id = sa.match_id LEFT JOIN nights n ON n.id = m.night_id"
        f" WHERE sa.over = 1 AND sa.profile_id IN ({','.join('?' * len(ids_a))})"
        f" AND sb.profile_id IN ({','.join('?' * len(ids_b))}) ORDER BY m.created_at DESC", [*ids_a, *ids_b]).fetchall()
    by_table: dict[tuple, dict] = {}
    matches = []
    for game, key, mid, created, day, pa, pb, wa, wb, sa, sb in rows:
        t = by_table.setdefault((game, key), {"game": game, "rules_key": key, "rules": rules_words(game, key),
                                              "matches": 0, "a_ahead": 0, "b_ahead": 0, "level": 0,
                                              "a_won": 0, "b_won": 0, "a_shared": 0, "b_shared": 0})
        t["matches"] += 1
        t["a_ahead" if pa < pb else "b_ahead" if pb < pa else "level"] += 1
        t["a_won"] += wa
        t["b_won"] += wb
        t["a_shared"] += sa
        t["b_shared"] += sb
        matches.append({"id": mid, "game": game, "created_at": created, "day": nights.night_of_match(day, created),
                        "a_place": pa, "b_place": pb})
    return {"tables": list(by_table.values()), "matches": matches}


BY_NIGHT = {"wins": "ss.won + ss.tied", "shitheads": "ss.shitheads"}  # what a chart by night counts


def wins_by_night(db: Database, scope: Scope, count: str = "wins") -> tuple[list[str], dict[int, list[int]]]:
    """Running matches won (alone or shared) by each person after each of the group's nights, oldest
    first: (night days, {person: running totals}); of the scope's night alone when it names one (its
    players only). ``count`` "shitheads": the times Shithead instead (a Shithead game has no winner)."""
    where, args = Scope(scope.group_id, None, scope.game, scope.rules_key).where()
    canonical = dict(db.conn.execute("SELECT id, canonical_id FROM profiles"))
    day_of = dict(db.conn.execute("SELECT id, day FROM nights" + (" WHERE group_id = ?" if scope.group_id else ""),
                                  (scope.group_id,) if scope.group_id else ()))
    rows = [(day_of.get(night), pid, wins) for night, pid, wins in db.conn.execute(
        f"SELECT ss.night_id, ss.profile_id, sum({BY_NIGHT[count]}) FROM seat_summaries ss"
        f" WHERE {where} AND ss.night_id IS NOT NULL GROUP BY ss.night_id, ss.profile_id", args)
        if night in day_of and scope.night_id in (None, night)]
    days = sorted({r[0] for r in rows})
    index = {d: i for i, d in enumerate(days)}
    per: dict[int, list[int]] = defaultdict(lambda: [0] * len(days))
    for day, pid, wins in rows:
        per[canonical.get(pid, pid)][index[day]] += wins
    for values in per.values():
        running = 0
        for i, v in enumerate(values):
            running += v
            values[i] = running
    return days, dict(per)


def form_by_night(db: Database, profile: int) -> list[tuple[str, int, int]]:
    """(night, matches finished, matches won alone or shared) for the person, oldest first."""
    ids = _ids_of(db, profile)
    return list(db.conn.execute(
        "SELECT n.day, count(*), sum(ss.won + ss.tied) FROM seat_summaries ss JOIN nights n ON n.id = ss.night_id"
        f" WHERE ss.over = 1 AND ss.profile_id IN ({','.join('?' * len(ids))}) GROUP BY n.day ORDER BY n.day", ids))


def running_totals(db: Database, match: store.Match) -> tuple[list[str], list[list[int]]]:
    """(players, each player's running total after each round) of a match."""
    refresh_one(db, match)
    row = db.conn.execute("SELECT rounds FROM match_summaries WHERE match_id = ?", (match.id,)).fetchone()
    rounds = json.loads(row[0]) if row else []
    series = []
    for seat in range(len(match.players)):
        total, values = 0, []
        for r in rounds:
            total += (r[seat] or 0) if seat < len(r) else 0
            values.append(total)
        series.append(values)
    return list(match.players), series


def match_result(db: Database, match: store.Match) -> tuple[dict, dict]:
    """The match's result as its game gives it (``game.result``: each round or game — a Shithead game's
    finishing order and Shithead, a Spite & Malice game's winner and points —, the standings, the winners)
    and the table as a watcher sees it (``game.view``, for the words of its outcome), from its state as the
    table screen reads it."""
    log = store.state_at(db, match, tables.replay, tables.feed)
    return log.game.result(log.state), log.game.view(log.state, None)


def default_rules_key(game_name: str) -> str:
    game = get_game(game_name)
    return rules_key(changed_rules(game.VARIANTS, resolve_rules(game.VARIANTS, {})))
