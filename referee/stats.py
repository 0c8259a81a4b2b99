"""Standings and statistics, computed from the event log through the game interface.

Every match is summed up once per version: its log is replayed (``store.state_at``, with the state
cache and snapshots) and ``game.result(state)`` read, the same result ``referee check`` prints. The
summary is kept in ``match_summaries`` (per match) and ``seat_summaries`` (per seat), tagged with the
match's version and the game's engine version: a summary whose version or tag no longer matches is
computed again before any standings are read (``refresh``), so the figures are never older than the
log, and an undo or a correction is reflected at once. Standings are then SQL sums over the
summaries, with merges followed through ``profiles.canonical_id``.

What is counted, for any game (the result tally every game gives): matches finished, won alone, won
shared (a tie is a tie), the finishing place and the total. Then counters by what a game's rounds
hold, so a game added later is counted without new code here:

* rounds with ``scores`` and ``winners`` (Rat-a-Tat Cat, Cabo): rounds played, won, tied, the sum of
  round scores (for the average), the best (lowest) round, calls and calls that won their round;
* rounds with ``shithead`` (Shithead): games, times Shithead, the sum of finishing places;
* rounds with ``winner`` and ``points`` (Spite & Malice): games and games won;
* any game whose state keeps flags: disputes raised on the player's own entries.

Matches are only counted once finished, and never across house rules: every table of standings is
for one game under one set of house rules (``rules_key``), and the screens say which.
"""
from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from . import store, tables
from .games import GAMES, get_game
from .games.base import changed_rules, resolve_rules
from .games.rulebook import describe_switch
from .store import write_transaction

SUMMARY_FORMAT = 1  # bump when what a summary holds changes: every summary is computed again


def tag_for(game_name: str) -> str:
    game = GAMES.get(game_name)
    return f"{SUMMARY_FORMAT}/{game_name}/{getattr(game, 'ENGINE_VERSION', 0)}"


def rules_key(rules: dict) -> str:
    return json.dumps(rules or {}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def rules_words(game_name: str, key: str) -> str:
    """The house rules of a ``rules_key`` in words: "the default rules" or each switch off its default."""
    try:
        rules = json.loads(key)
        variants = {v.key: v for v in get_game(game_name).VARIANTS}
        said = [f"{variants[k].label}: {describe_switch(variants[k], v)}" for k, v in rules.items() if k in variants]
    except (KeyError, ValueError, AttributeError, TypeError):
        return key
    return "; ".join(said) if said else "the default house rules"


# --- One match ----------------------------------------------------------------------------------


@dataclass
class SeatSummary:
    seat: int
    place: int
    won: int
    tied: int
    total: int
    extras: dict[str, int] = field(default_factory=dict)


@dataclass
class MatchSummary:
    match_id: str
    version: int
    tag: str
    game: str
    rules_key: str
    over: bool
    rounds: list[list[int | None]]  # each round's score by seat (for the running totals)
    seats: list[SeatSummary]


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _places(players: list[str], res: dict) -> dict[str, int]:
    """Place by name from the result's standings (best first): equal totals share a place."""
    out: dict[str, int] = {}
    standings = res.get("standings") or []
    for i, row in enumerate(standings):
        same = next(j for j, other in enumerate(standings) if other.get("total") == row.get("total"))
        out[row.get("player")] = same + 1
    for name in players:
        out.setdefault(name, len(players))
    return out


def _round_extras(name: str, rounds: list[dict]) -> dict[str, int]:
    x: dict[str, int] = defaultdict(int)
    for rnd in rounds:
        if "scores" in rnd and "winners" in rnd:  # rounds scored in points
            if name not in rnd["scores"]:
                continue
            score = _int(rnd["scores"][name])
            winners = rnd.get("winners") or []
            x["rounds"] += 1
            x["round_points"] += score
            x["min_best_round"] = score if "min_best_round" not in x else min(x["min_best_round"], score)
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


def summarise(match: store.Match, log: Any, stored: list[dict] | None = None) -> MatchSummary:
    """The summary of a match from its replayed log (``stored``: its entries, to say who raised each
    dispute; read from the flags' entries)."""
    game = log.game
    res = game.result(log.state)
    players = list(match.players)
    places = _places(players, res)
    winners = list(res.get("winners") or []) if res.get("over") else []
    disputes: dict[str, int] = defaultdict(int)
    flags = getattr(log.state, "flags", ()) or ()
    if flags and stored is not None:
        by_position = {row["seq"] - 1: row["entry"] for row in stored}
        for flag in flags:
            entry = by_position.get(getattr(flag, "at", None))
            who = entry.get("seat") if isinstance(entry, dict) else None
            if isinstance(who, str):
                disputes[who] += 1
            elif isinstance(who, int) and 0 <= who < len(players):
                disputes[players[who]] += 1
    rounds = res.get("rounds") or []
    seats = []
    for seat, name in enumerate(players):
        extras = _round_extras(name, rounds)
        if hasattr(log.state, "flags"):
            extras["disputes"] = disputes.get(name, 0)
        seats.append(SeatSummary(seat, places[name], int(name in winners and len(winners) == 1),
                                 int(name in winners and len(winners) > 1),
                                 _int((res.get("totals") or {}).get(name)), extras))
    chart = [[(_int(r["scores"][n]) if n in r.get("scores", {}) else None) for n in players]
             for r in rounds if isinstance(r.get("scores"), dict)]
    return MatchSummary(match.id, match.version, tag_for(match.game), match.game, rules_key(match.rules),
                        bool(res.get("over")), chart, seats)


def compute(db: Database, match: store.Match) -> MatchSummary:
    log = store.state_at(db, match, tables.replay, tables.feed)
    stored = store.entries(db, match.id, upto=match.version) if getattr(log.state, "flags", None) else None
    return summarise(match, log, stored)


def save(db: Database, summaries: list[MatchSummary]) -> None:
    if not summaries:
        return
    with write_transaction(db) as conn:
        for s in summaries:
            conn.execute("INSERT OR REPLACE INTO match_summaries (match_id, version, tag, game, rules_key, over, rounds)"
                         " VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (s.match_id, s.version, s.tag, s.game, s.rules_key, int(s.over), json.dumps(s.rounds)))
            conn.execute("DELETE FROM seat_summaries WHERE match_id = ?", (s.match_id,))
            conn.executemany("INSERT INTO seat_summaries (match_id, seat, place, won, tied, total, extras)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?)",
                             [(s.match_id, x.seat, x.place, x.won, x.tied, x.total, json.dumps(x.extras))
                              for x in s.seats])


def refresh(db: Database, group_id: int | None = None, batch: int = 500) -> int:
    """Compute the summaries that are missing or older than their match (in one group, or all);
    returns how many. A match of a game this referee does not have is left out."""
    tags = [tag_for(name) for name in GAMES]
    sql = (f"SELECT m.id FROM matches m LEFT JOIN match_summaries s ON s.match_id = m.id WHERE"
           f" (s.match_id IS NULL OR s.version != m.version OR s.tag NOT IN ({','.join('?' * len(tags))}))"
           f" AND m.game IN ({','.join('?' * len(GAMES))})")
    args: list = [*tags, *GAMES]
    if group_id is not None:
        sql += " AND m.group_id = ?"
        args.append(group_id)
    stale = [r[0] for r in db.conn.execute(sql, args)]
    done = 0
    for start in range(0, len(stale), batch):
        found = []
        for match_id in stale[start:start + batch]:
            match = store.get_match(db, match_id)
            try:
                found.append(compute(db, match))
            except tables.GameNotInstalled:
                continue
        save(db, found)
        done += len(found)
    return done


# --- Standings ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scope:
    """Which matches: a group (or every group), a night, a game and its house rules, a person."""

    group_id: int | None = None
    night_id: int | None = None
    game: str | None = None
    rules_key: str | None = None

    def where(self, profile: int | None = None) -> tuple[str, list]:
        clauses, args = ["ms.over = 1"], []
        for column, value in (("m.group_id", self.group_id), ("m.night_id", self.night_id),
                              ("ms.game", self.game), ("ms.rules_key", self.rules_key), ("p.canonical_id", profile)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        return " AND ".join(clauses), args


_FROM = ("FROM seat_summaries ss JOIN match_summaries ms ON ms.match_id = ss.match_id"
         " JOIN matches m ON m.id = ss.match_id"
         " JOIN match_seats st ON st.match_id = ss.match_id AND st.seat = ss.seat"
         " JOIN profiles p ON p.id = st.profile_id")


@dataclass(frozen=True)
class Table:
    """The standings of one game under one set of house rules."""

    game: str
    rules_key: str
    matches: int
    rows: list[dict]

    @property
    def title(self) -> str:
        game = GAMES.get(self.game)
        return getattr(game, "TITLE", self.game)

    @property
    def rules_words(self) -> str:
        return rules_words(self.game, self.rules_key)

    @property
    def columns(self) -> list[tuple[str, str]]:
        """(key, heading) of the figures this table's rows hold, in order."""
        keys = set().union(*(r.keys() for r in self.rows)) if self.rows else set()
        return [(k, h) for k, h in COLUMNS if k in keys]


COLUMNS = (
    ("matches", "Matches"), ("won", "Won"), ("tied", "Tied"), ("avg_place", "Avg place"),
    ("total", "Total"),
    ("rounds_won", "Rounds won"), ("rounds_tied", "Rounds tied"), ("avg_round", "Avg round"),
    ("best_round", "Best round"), ("calls", "Calls won"), ("disputes", "Disputes"),
    ("shitheads", "Times Shithead"), ("avg_game_place", "Avg finish"),
    ("games_won", "Games won"),
)


def _figures(base: tuple, extras: dict[str, tuple[int, int]]) -> dict:
    matches, won, tied, place_sum, total = base
    row: dict[str, Any] = {"matches": matches, "won": won, "tied": tied,
                           "avg_place": round(place_sum / matches, 2) if matches else None, "total": total}
    sums = {k: v[0] for k, v in extras.items()}
    if "rounds" in sums:
        row["rounds_won"] = sums.get("rounds_won", 0)
        row["rounds_tied"] = sums.get("rounds_tied", 0)
        row["avg_round"] = round(sums["round_points"] / sums["rounds"], 1) if sums["rounds"] else None
        if "min_best_round" in extras:
            row["best_round"] = extras["min_best_round"][1]
        row["calls"] = f"{sums.get('calls_won', 0)} of {sums.get('calls', 0)}"
        row["calls_won"], row["calls_made"] = sums.get("calls_won", 0), sums.get("calls", 0)
    if "disputes" in sums:
        row["disputes"] = sums["disputes"]
    if "shitheads" in sums or ("games" in sums and "placed" in sums):
        row["shitheads"] = sums.get("shitheads", 0)
        row["avg_game_place"] = round(sums["place_points"] / sums["placed"], 2) if sums.get("placed") else None
    if "games_won" in sums:
        row["games_won"] = sums["games_won"]
    return row


def standings(db: Database, scope: Scope, profile: int | None = None, fresh: bool = True) -> list[Table]:
    """One table per game and set of house rules in ``scope`` (finished matches), best first: most wins
    alone, then shared wins, then the better average place."""
    if fresh:
        refresh(db, scope.group_id)
    where, args = scope.where(profile)
    base: dict[tuple, dict[int, tuple]] = defaultdict(dict)
    for game, key, pid, *figures in db.conn.execute(
            f"SELECT ms.game, ms.rules_key, p.canonical_id, count(*), sum(ss.won), sum(ss.tied), sum(ss.place),"
            f" sum(ss.total) {_FROM} WHERE {where} GROUP BY ms.game, ms.rules_key, p.canonical_id", args):
        base[(game, key)][pid] = tuple(figures)
    extras: dict[tuple, dict[int, dict]] = defaultdict(lambda: defaultdict(dict))
    for game, key, pid, name, total, least in db.conn.execute(
            f"SELECT ms.game, ms.rules_key, p.canonical_id, j.key, sum(j.value), min(j.value)"
            f" {_FROM}, json_each(ss.extras) j WHERE {where} GROUP BY ms.game, ms.rules_key, p.canonical_id, j.key",
            args):
        extras[(game, key)][pid][name] = (total, least)
    counts = dict(((g, k), n) for g, k, n in db.conn.execute(
        f"SELECT ms.game, ms.rules_key, count(DISTINCT ms.match_id) {_FROM} WHERE {where}"
        " GROUP BY ms.game, ms.rules_key", args))
    names = dict(db.conn.execute("SELECT id, name FROM profiles"))
    out = []
    for (game, key), people in base.items():
        rows = []
        for pid, figures in people.items():
            row = _figures(figures, extras[(game, key)][pid])
            row.update(profile_id=pid, name=names.get(pid, "?"))
            rows.append(row)
        rows.sort(key=lambda r: (-r["won"], -r["tied"], r["avg_place"] if r["avg_place"] is not None else 99,
                                 r["name"].casefold()))
        out.append(Table(game, key, counts.get((game, key), 0), rows))
    out.sort(key=lambda t: (-t.matches, t.game, t.rules_key))
    return out


def rule_sets(db: Database, scope: Scope) -> list[tuple[str, str, int]]:
    """(game, rules_key, finished matches) in the scope, ignoring its game and rules filters."""
    wide = Scope(scope.group_id, scope.night_id)
    where, args = wide.where()
    return list(db.conn.execute(
        f"SELECT ms.game, ms.rules_key, count(*) FROM match_summaries ms JOIN matches m ON m.id = ms.match_id"
        f" WHERE {where} GROUP BY ms.game, ms.rules_key ORDER BY count(*) DESC",
        args))


# --- History, head-to-head and series for charts ---------------------------------------------------


def history(db: Database, profile: int, limit: int | None = 50) -> list[dict]:
    """The person's matches (merges followed), newest first: game, night, place, won, tied, players."""
    rows = db.conn.execute(
        "SELECT m.id, m.game, m.created_at, m.players, m.group_id, n.day, ms.over, ss.place, ss.won, ss.tied, ss.total,"
        " ms.rules_key FROM match_seats st JOIN profiles p ON p.id = st.profile_id JOIN matches m ON m.id = st.match_id"
        " LEFT JOIN nights n ON n.id = m.night_id LEFT JOIN match_summaries ms ON ms.match_id = m.id"
        " LEFT JOIN seat_summaries ss ON ss.match_id = m.id AND ss.seat = st.seat WHERE p.canonical_id = ?"
        " ORDER BY m.created_at DESC, m.rowid DESC" + (" LIMIT ?" if limit else ""),
        (profile, limit) if limit else (profile,))
    keys = ("id", "game", "created_at", "players", "group_id", "day", "over", "place", "won", "tied", "total", "rules_key")
    out = []
    for r in rows:
        item = dict(zip(keys, r))
        item["players"] = json.loads(item["players"])
        out.append(item)
    return out


def head_to_head(db: Database, a: int, b: int) -> dict:
    """Finished matches where both sat: who finished ahead of whom, by game and house rules."""
    refresh(db)
    rows = db.conn.execute(
        "SELECT ms.game, ms.rules_key, m.id, m.created_at, sa.place, sb.place, sa.won + sa.tied, sb.won + sb.tied"
        " FROM match_summaries ms JOIN matches m ON m.id = ms.match_id"
        " JOIN match_seats xa ON xa.match_id = m.id JOIN profiles pa ON pa.id = xa.profile_id AND pa.canonical_id = ?"
        " JOIN match_seats xb ON xb.match_id = m.id JOIN profiles pb ON pb.id = xb.profile_id AND pb.canonical_id = ?"
        " JOIN seat_summaries sa ON sa.match_id = m.id AND sa.seat = xa.seat"
        " JOIN seat_summaries sb ON sb.match_id = m.id AND sb.seat = xb.seat"
        " WHERE ms.over = 1 ORDER BY m.created_at DESC", (a, b)).fetchall()
    tables_: dict[tuple, dict] = {}
    matches = []
    for game, key, mid, created, pa, pb, wa, wb in rows:
        t = tables_.setdefault((game, key), {"game": game, "rules_key": key, "rules": rules_words(game, key),
                                             "matches": 0, "a_ahead": 0, "b_ahead": 0, "level": 0,
                                             "a_won": 0, "b_won": 0})
        t["matches"] += 1
        t["a_ahead" if pa < pb else "b_ahead" if pb < pa else "level"] += 1
        t["a_won"] += wa
        t["b_won"] += wb
        matches.append({"id": mid, "game": game, "created_at": created, "a_place": pa, "b_place": pb})
    return {"tables": list(tables_.values()), "matches": matches}


def wins_by_night(db: Database, scope: Scope) -> tuple[list[str], dict[int, list[int]]]:
    """Running matches won (alone or shared) by each person after each of the group's nights, oldest
    first: (night days, {profile: running totals})."""
    wide = Scope(scope.group_id, None, scope.game, scope.rules_key)
    where, args = wide.where()
    rows = db.conn.execute(
        f"SELECT n.day, p.canonical_id, sum(ss.won + ss.tied) {_FROM} JOIN nights n ON n.id = m.night_id"
        f" WHERE {where} GROUP BY n.day, p.canonical_id ORDER BY n.day", args).fetchall()
    days = sorted({r[0] for r in rows})
    index = {d: i for i, d in enumerate(days)}
    per: dict[int, list[int]] = defaultdict(lambda: [0] * len(days))
    for day, pid, wins in rows:
        per[pid][index[day]] += wins
    for pid, values in per.items():
        running = 0
        for i, v in enumerate(values):
            running += v
            values[i] = running
    return days, dict(per)


def form_by_night(db: Database, profile: int) -> list[tuple[str, int, int]]:
    """(night, matches played, matches won alone or shared) for the person, oldest first."""
    return list(db.conn.execute(
        "SELECT n.day, count(*), sum(ss.won + ss.tied) FROM seat_summaries ss JOIN match_summaries ms"
        " ON ms.match_id = ss.match_id JOIN matches m ON m.id = ss.match_id JOIN nights n ON n.id = m.night_id"
        " JOIN match_seats st ON st.match_id = ss.match_id AND st.seat = ss.seat JOIN profiles p ON p.id = st.profile_id"
        " WHERE ms.over = 1 AND p.canonical_id = ? GROUP BY n.day ORDER BY n.day", (profile,)))


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


def refresh_one(db: Database, match: store.Match) -> None:
    row = db.conn.execute("SELECT version, tag FROM match_summaries WHERE match_id = ?", (match.id,)).fetchone()
    if row is None or row[0] != match.version or row[1] != tag_for(match.game):
        save(db, [compute(db, match)])


def default_rules_key(game_name: str) -> str:
    game = get_game(game_name)
    return rules_key(changed_rules(game.VARIANTS, resolve_rules(game.VARIANTS, {})))
