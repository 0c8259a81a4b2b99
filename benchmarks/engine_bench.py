"""Engine benchmark: random complete 4-player Rat-a-Tat Cat rounds, Shithead games and 2-player Spite & Malice
games through the public API.

    .venv/bin/python benchmarks/engine_bench.py [--rounds N] [--games N] [--sm-games N] [--seed S] [--profile]

Measures (one process, one core):
* rounds per second — whole rounds played by a random-but-legal driver at a simulated table with a
  true deck (referee/games/ratatat_sim.py), driver included; the engine-only rate is printed as well;
* per-``apply`` latency p50/p99 in µs;
* replay of a match log of >= 1,000 accepted entries through ``log.replay`` (best of several runs);
* Shithead: games per second — whole 4-player games (default house rules) played by a random-but-legal
  driver written here: each step a seat of ``may_act`` picks a random entry of ``legal_moves``, every
  card nobody entered is filled with one of ``still_possible``, and the entry is applied; driver
  included, the engine-only rate printed as well — and its per-``apply`` latency p50/p99 in µs;
* Spite & Malice: games per second — whole single 2-player games (pay-off piles of 20, rules
  ``{"match_target": None}`` so that each game ends) played at a simulated physical table with two
  true shuffled decks by a random but honest driver written here: each step it makes the entry the
  table owes (a pay-off top, the draw) or picks a random build that really fits (hand card, pay-off
  top or side-stack top onto a building pile) or, now and then and whenever nothing fits, a random
  discard that ends the turn; completed piles really go back into the stock. A game counts whether
  it ends by a pay-off win (SM-40) or by stock exhaustion (SM-41); both are reported. Driver
  included, the engine-only rate printed as well — and its per-``apply`` latency p50/p99 in µs.

* Cabo / Cambio: rounds per second for each preset (``cabo_2e``, ``cabo_1e``, ``cambio_common``) —
  whole 4-player rounds at a simulated physical table with a TRUE shuffled deck, played by the random
  but honest driver of ``referee/games/cabo_sim.py`` (the one the Cabo state machines use: powers,
  matching claims, snaps and wrong snaps, calls, reveals place by place or card by card), driver
  included, the engine-only rate printed as well — and each preset's per-``apply`` latency p50/p99 in
  µs. An honest entry refused fails the run.

The last line is JSON. Targets: >= 1,000 rounds/s, apply p99 < 200 µs (all three games), replay of
1,000 entries < 25 ms. Shithead's figures are the keys starting ``shithead_``, and ``games_per_second``.
Spite & Malice's are the keys starting ``spite_malice_``: its games per second is
``spite_malice_games_per_second``, not ``games_per_second`` (that key already holds Shithead's figure
and keeps it). Cabo / Cambio's keys start with the preset: ``cabo_2e_rounds_per_second``,
``cabo_2e_apply_p99_us``, the same for ``cabo_1e_`` and ``cambio_common_`` (target p99 < 200 µs).
"""
from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from referee.games import log as game_log  # noqa: E402
from referee.games import ratatat as game  # noqa: E402
from referee.games import shithead  # noqa: E402
from referee.games import spite_malice  # noqa: E402
from referee.games import spite_malice_rules, spite_malice_view  # noqa: E402
from referee.games import cabo  # noqa: E402
from referee.games.cabo_presets import PRESETS as CABO_PRESETS  # noqa: E402
from referee.games.cabo_sim import Table as CaboTable, preset_rules as cabo_rules  # noqa: E402
from referee.games.base import Ruling  # noqa: E402
from referee.games.ratatat_sim import Table  # noqa: E402

PLAYERS = ("Ana", "Ben", "Cy", "Dee")
TARGETS = {"rounds_per_second": 1000, "apply_p99_us": 200, "replay_1000_events_ms": 25,
           "shithead_apply_p99_us": 200, "spite_malice_apply_p99_us": 200,
           **{f"{p.key}_apply_p99_us": 200 for p in CABO_PRESETS}}
#: A Shithead game of more entries than this is taken for a driver that cannot finish (never seen).
MAX_GAME_ENTRIES = 100_000


def percentile(sorted_values, p):
    if not sorted_values:
        return 0.0
    k = min(len(sorted_values) - 1, max(0, round(p / 100 * (len(sorted_values) - 1))))
    return sorted_values[k]


def figures(prefix: str, unit: str, n: int, entries: int, wall: float, latencies: list[int], **counts) -> dict:
    """The figures of ``n`` whole rounds or games (``unit``) of ``entries`` entries played in ``wall`` seconds,
    ``latencies`` (sorted, ns) the time of each ``apply``; every key starts with ``prefix``."""
    engine_s = sum(latencies) / 1e9
    return {
        f"{prefix}{unit}s": n, f"{prefix}entries": entries, **{prefix + k: v for k, v in counts.items()},
        f"{prefix}wall_s": wall,
        f"{prefix}{unit}s_per_second": n / wall,
        f"{prefix}engine_{unit}s_per_second": n / engine_s,
        f"{prefix}entries_per_{unit}": entries / n,
        f"{prefix}apply_p50_us": percentile(latencies, 50) / 1000,
        f"{prefix}apply_p99_us": percentile(latencies, 99) / 1000,
        f"{prefix}apply_max_us": latencies[-1] / 1000,
        f"{prefix}apply_mean_us": engine_s / entries * 1e6,
    }


def play_rounds(new_table, apply, n_rounds: int, what: str):
    """Play ``n_rounds`` whole rounds at simulated true tables (``new_table()`` starts a match, a new one
    whenever one ends), timing every ``apply``; an honest entry refused fails the run.
    Returns (rounds, matches, entries, wall seconds, the sorted latencies in ns)."""
    latencies = []
    perf = time.perf_counter_ns
    entries = rounds = matches = 0
    table = None
    t0 = time.perf_counter()
    while rounds < n_rounds:
        if table is None or table.state.over:
            table = new_table()
            matches += 1
        start = table.rounds_scored
        while table.rounds_scored == start:
            move = table.choose()
            a = perf()
            try:
                new, _ = apply(table.state, move)
            except Ruling as ruling:
                raise RuntimeError(f"an honest {what} entry was refused: {ruling.rule}: {ruling.message} "
                                   f"({move})") from None
            latencies.append(perf() - a)
            table.accept(move, new)
            entries += 1
            if entries > MAX_GAME_ENTRIES * n_rounds:
                raise RuntimeError(f"{what}: a round did not finish")
        rounds += 1
    wall = time.perf_counter() - t0
    latencies.sort()
    return rounds, matches, entries, wall, latencies


def bench_rounds(n_rounds: int, seed: int):
    """Play ``n_rounds`` Rat-a-Tat Cat rounds (matches of 10 rounds, 4 players), timing every ``apply``."""
    rng = random.Random(seed)
    rounds, _, entries, wall, latencies = play_rounds(
        lambda: Table(PLAYERS, {"rounds_n": 10}, rng, check=False), game.apply, n_rounds, "Rat-a-Tat Cat")
    return figures("", "round", rounds, entries, wall, latencies)


def build_log(min_entries: int, seed: int):
    """A match log of at least ``min_entries`` accepted entries (many rounds, rounds_n large)."""
    rng = random.Random(seed)
    table = Table(PLAYERS, {"rounds_n": 1000}, rng, check=False)
    initial = table.state
    moves = []
    while len(moves) < min_entries:
        move = table.choose()
        new, _ = game.apply(table.state, move, len(moves))
        table.accept(move, new)
        moves.append(move)
    return initial, moves, table.state


def bench_replay(min_entries: int, seed: int, repeats: int = 7):
    initial, moves, final = build_log(min_entries, seed)
    log, steps = game_log.replay(game, initial, moves)
    assert all(s.accepted for s in steps) and log.state == final, "replay differs from the live match"
    times = []
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        game_log.replay(game, initial, moves)
        times.append(time.perf_counter() - t0)
    return {"replay_entries": len(moves), "replay_rounds": len(final.history),
            "replay_1000_events_ms": min(times) * 1000 * 1000 / len(moves),
            "replay_total_ms_best": min(times) * 1000}


#: Shithead's natural ranks (RULES.md §4.2): those a starter may declare as their lowest card (SH-4).
NATURAL = {"4", "5", "6", "7", "8", "9", "J", "Q", "K", "A"}


def _fill(state, move, rng):
    """``move`` with every card nobody entered (``None``) replaced by a card that can still turn up."""
    if isinstance(move, (shithead.Swap, shithead.Start)):  # a hand card: swapped face up, or declared
        if move.card is not None:
            return move
        seat = state.seats[move.seat]  # a card the table knows is in the hand, if that is all it can be
        pool = seat.known if seat.unknown == 0 else shithead.still_possible(state, move.seat)
        if isinstance(move, shithead.Start):  # the lowest card declared is a natural one (SH-4)
            pool = [c for c in pool if c[:-1] in NATURAL]
        return dataclasses.replace(move, card=rng.choice(sorted(pool))) if pool else move
    cards = getattr(move, "cards", ())
    if None not in cards:
        return move
    pool = sorted(shithead.still_possible(state, move.seat))
    filled = []
    for card in cards:
        if card is None:
            card = rng.choice(pool)
            pool.remove(card)  # one deck: no card twice in one entry
        filled.append(card)
    return dataclasses.replace(move, cards=tuple(filled))


def bench_shithead(n_games: int, seed: int):
    """Play ``n_games`` complete 4-player Shithead games (default house rules), timing every ``apply``
    that stands; an entry the engine refuses (a filled-in card it can place elsewhere) is counted and
    another is drawn."""
    rng = random.Random(seed)
    latencies = []
    apply, may_act, legal_moves = shithead.apply, shithead.may_act, shithead.legal_moves
    perf = time.perf_counter_ns
    entries = refused = games = 0
    t0 = time.perf_counter()
    while games < n_games:
        state = shithead.new_match(PLAYERS)
        played = 0
        while not state.over and state.phase != "over":
            seat = rng.choice(may_act(state))
            move = _fill(state, rng.choice(legal_moves(state, seat)), rng)
            a = perf()
            try:
                state, _ = apply(state, move)
            except Ruling:
                refused += 1
                continue
            latencies.append(perf() - a)
            played += 1
            if played > MAX_GAME_ENTRIES:
                raise RuntimeError(f"a Shithead game did not finish in {MAX_GAME_ENTRIES:,} entries")
        entries += played
        games += 1
    wall = time.perf_counter() - t0
    latencies.sort()
    return figures("shithead_", "game", games, entries, wall, latencies, refused=refused)

#: Spite & Malice: two players, single games with 20-card pay-off piles (RULES.md SM-V1, SM-V8 off).
SM_PLAYERS = ("Ana", "Ben")
SM_RULES = {"match_target": None, "payoff_size": 20}
#: How often the driver builds when a build fits (otherwise it discards and ends the turn).
SM_KEEN = 0.85


class SpiteTable:
    """A physical Spite & Malice table with two TRUE shuffled decks, played by a random but honest
    driver: every entry is what really happened, so none should be refused."""

    def __init__(self, rng, rules):
        self.rng = rng
        self.state = spite_malice.new_match(SM_PLAYERS, rules)
        self.rules = rules = self.state.rules
        cards = [c for c, k in spite_malice_rules.deck(self.state.decks, rules).items() for _ in range(k)]
        rng.shuffle(cards)
        n, size = len(SM_PLAYERS), rules["payoff_size"]
        self.payoff = [[cards.pop() for _ in range(size)] for _ in range(n)]
        self.hand = [[cards.pop() for _ in range(5)] for _ in range(n)]
        self.sides = [[[] for _ in range(rules["max_side_stacks"])] for _ in range(n)]
        self.center: list[list[str]] = []
        self.stock = cards

    def _free_place(self):
        cap = self.rules["max_center_stacks"]
        if cap is not None and sum(1 for p in self.center if p) >= cap:
            return None
        return next((i + 1 for i, p in enumerate(self.center) if not p), len(self.center) + 1)

    def _piles_for(self, card):
        """Every building place ``card`` may go on now (SM-12, SM-13)."""
        out = [i + 1 for i, pile in enumerate(self.center)
               if pile and spite_malice_rules.build_problem(len(pile), card, self.rules) is None]
        new = self._free_place()
        if new is not None and spite_malice_rules.build_problem(0, card, self.rules) is None:
            out.append(new)
        return out

    def next_move(self):
        """The next true entry, the real cards moved with it."""
        s, rng = self.state, self.rng
        if s.phase == "setup":
            for i, st in enumerate(s.seats):
                if st.top_owed:  # the first turn-up, or a reshuffle on equal tops (SM-7)
                    rng.shuffle(self.payoff[i])
                    return spite_malice.Top(i, self.payoff[i][-1])
            return spite_malice.Start(rng.choice(spite_malice_view.start_leaders(s)))
        seat = s.turn
        if s.owed:
            n = s.owed
            self.hand[seat] += [self.stock.pop() for _ in range(n)]
            return spite_malice.Draw(seat, n)
        if s.seats[seat].top_owed:
            return spite_malice.Top(seat, self.payoff[seat][-1])
        builds = [("payoff", self.payoff[seat][-1], p) for p in self._piles_for(self.payoff[seat][-1])]
        for k, side in enumerate(self.sides[seat], 1):
            if side:
                builds += [(f"side{k}", side[-1], p) for p in self._piles_for(side[-1])]
        for card in sorted(set(self.hand[seat])):  # sorted: the same games whatever the hash seed
            builds += [("hand", card, p) for p in self._piles_for(card)]
        if builds and rng.random() < SM_KEEN:
            source, card, p = rng.choice(builds)
            if source == "payoff":
                self.payoff[seat].pop()
            elif source == "hand":
                self.hand[seat].remove(card)
            else:
                self.sides[seat][int(source[4:]) - 1].pop()
            while len(self.center) < p:
                self.center.append([])
            self.center[p - 1].append(card)
            if len(self.center[p - 1]) == spite_malice_rules.QUEEN:  # complete: into the stock (SM-14)
                self.stock += self.center[p - 1]
                rng.shuffle(self.stock)
                self.center[p - 1] = []
                while self.center and not self.center[-1]:
                    self.center.pop()
            return spite_malice.Build(seat, p, source, card)
        card = rng.choice(self.hand[seat])
        self.hand[seat].remove(card)
        k = rng.randrange(len(self.sides[seat])) + 1
        self.sides[seat][k - 1].append(card)
        return spite_malice.Discard(seat, k, card)


def bench_spite_malice(n_games: int, seed: int):
    """Play ``n_games`` single 2-player Spite & Malice games at a simulated true table, timing every
    ``apply``; a refused entry (never expected: the driver is honest) is counted and fails the run."""
    rng = random.Random(seed)
    latencies = []
    apply = spite_malice.apply
    perf = time.perf_counter_ns
    entries = refused = games = 0
    how = {"payoff": 0, "exhaustion": 0}
    t0 = time.perf_counter()
    while games < n_games:
        table = SpiteTable(rng, SM_RULES)
        played = 0
        while not table.state.over:
            move = table.next_move()
            a = perf()
            try:
                table.state, _ = apply(table.state, move)
            except Ruling as ruling:
                refused += 1
                raise RuntimeError(f"an honest Spite & Malice entry was refused: {ruling.rule}: "
                                   f"{ruling.message} ({move})") from None
            latencies.append(perf() - a)
            played += 1
            if played > MAX_GAME_ENTRIES:
                raise RuntimeError(f"a Spite & Malice game did not finish in {MAX_GAME_ENTRIES:,} entries")
        how[table.state.history[-1].how] += 1
        entries += played
        games += 1
    wall = time.perf_counter() - t0
    latencies.sort()
    return figures("spite_malice_", "game", games, entries, wall, latencies, refused=refused,
                   payoff_wins=how["payoff"], stock_exhausted=how["exhaustion"])


def bench_cabo(preset: str, n_rounds: int, seed: int):
    """Play ``n_rounds`` whole 4-player rounds of a Cabo / Cambio preset at a simulated true table
    (matches under the preset's own rules, a new match whenever one ends), timing every ``apply``."""
    rng = random.Random(seed)
    rounds, matches, entries, wall, latencies = play_rounds(
        lambda: CaboTable(PLAYERS, cabo_rules(preset), rng, check=False), cabo.apply, n_rounds, preset)
    return figures(f"{preset}_", "round", rounds, entries, wall, latencies, matches=matches)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--entries", type=int, default=1000)
    ap.add_argument("--games", type=int, default=80, help="Shithead games to play")
    ap.add_argument("--sm-games", type=int, default=60, help="Spite & Malice games to play")
    ap.add_argument("--cabo-rounds", type=int, default=1000, help="Cabo / Cambio rounds to play per preset")
    ap.add_argument("--profile", action="store_true", help="cProfile the rounds benchmark")
    args = ap.parse_args(argv)

    bench_rounds(200, args.seed + 100)  # warm-up
    bench_shithead(2, args.seed + 100)
    bench_spite_malice(2, args.seed + 100)
    for preset in CABO_PRESETS:
        bench_cabo(preset.key, 20, args.seed + 100)
    if args.profile:
        import cProfile
        import pstats
        prof = cProfile.Profile()
        prof.enable()
        bench_rounds(args.rounds, args.seed)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    r = bench_rounds(args.rounds, args.seed)
    p = bench_replay(args.entries, args.seed)
    h = bench_shithead(args.games, args.seed)
    m = bench_spite_malice(args.sm_games, args.seed)
    c = {}
    for preset in CABO_PRESETS:
        c.update(bench_cabo(preset.key, args.cabo_rounds, args.seed))
    print(f"rounds:   {r['rounds']} rounds, {r['entries']} entries "
          f"({r['entries_per_round']:.1f} per round) in {r['wall_s']:.2f} s")
    print(f"          {r['rounds_per_second']:.0f} rounds/s with the driver and table simulation, "
          f"{r['engine_rounds_per_second']:.0f} rounds/s in apply alone")
    print(f"apply:    p50 {r['apply_p50_us']:.1f} µs, p99 {r['apply_p99_us']:.1f} µs, "
          f"max {r['apply_max_us']:.0f} µs, mean {r['apply_mean_us']:.1f} µs")
    print(f"replay:   {p['replay_entries']} entries ({p['replay_rounds']} rounds) in "
          f"{p['replay_total_ms_best']:.2f} ms best of 7 = {p['replay_1000_events_ms']:.2f} ms per 1,000")
    print(f"shithead: {h['shithead_games']} games, {h['shithead_entries']} entries "
          f"({h['shithead_entries_per_game']:.1f} per game, {h['shithead_refused']} refused) "
          f"in {h['shithead_wall_s']:.2f} s")
    print(f"          {h['shithead_games_per_second']:.1f} games/s with the driver, "
          f"{h['shithead_engine_games_per_second']:.1f} games/s in apply alone")
    print(f"          apply p50 {h['shithead_apply_p50_us']:.1f} µs, p99 {h['shithead_apply_p99_us']:.1f} µs, "
          f"max {h['shithead_apply_max_us']:.0f} µs, mean {h['shithead_apply_mean_us']:.1f} µs")
    print(f"spite & malice: {m['spite_malice_games']} games, {m['spite_malice_entries']} entries "
          f"({m['spite_malice_entries_per_game']:.1f} per game, {m['spite_malice_refused']} refused; "
          f"{m['spite_malice_payoff_wins']} won on the pay-off pile, {m['spite_malice_stock_exhausted']} "
          f"ended when the stock ran out) in {m['spite_malice_wall_s']:.2f} s")
    print(f"          {m['spite_malice_games_per_second']:.1f} games/s with the driver, "
          f"{m['spite_malice_engine_games_per_second']:.1f} games/s in apply alone")
    print(f"          apply p50 {m['spite_malice_apply_p50_us']:.1f} µs, "
          f"p99 {m['spite_malice_apply_p99_us']:.1f} µs, max {m['spite_malice_apply_max_us']:.0f} µs, "
          f"mean {m['spite_malice_apply_mean_us']:.1f} µs")
    for preset in CABO_PRESETS:
        k = preset.key
        print(f"{k + ':':14s} {c[k + '_rounds']} rounds ({c[k + '_matches']} matches), {c[k + '_entries']} entries "
              f"({c[k + '_entries_per_round']:.1f} per round) in {c[k + '_wall_s']:.2f} s")
        print(f"               {c[k + '_rounds_per_second']:.0f} rounds/s with the driver and table simulation, "
              f"{c[k + '_engine_rounds_per_second']:.0f} rounds/s in apply alone")
        print(f"               apply p50 {c[k + '_apply_p50_us']:.1f} µs, p99 {c[k + '_apply_p99_us']:.1f} µs, "
              f"max {c[k + '_apply_max_us']:.0f} µs, mean {c[k + '_apply_mean_us']:.1f} µs")
    result = {k: round(v, 2) if isinstance(v, float) else v for k, v in {**r, **p, **h}.items()}
    result["games_per_second"] = result["shithead_games_per_second"]
    result.update({k: round(v, 2) if isinstance(v, float) else v for k, v in m.items()})
    result.update({k: round(v, 2) if isinstance(v, float) else v for k, v in c.items()})
    result["targets_met"] = {
        "rounds_per_second": result["rounds_per_second"] >= TARGETS["rounds_per_second"],
        "apply_p99_us": result["apply_p99_us"] < TARGETS["apply_p99_us"],
        "replay_1000_events_ms": result["replay_1000_events_ms"] < TARGETS["replay_1000_events_ms"],
        "shithead_apply_p99_us": result["shithead_apply_p99_us"] < TARGETS["shithead_apply_p99_us"],
        "spite_malice_apply_p99_us": result["spite_malice_apply_p99_us"] < TARGETS["spite_malice_apply_p99_us"],
        **{f"{p.key}_apply_p99_us": result[f"{p.key}_apply_p99_us"] < TARGETS[f"{p.key}_apply_p99_us"]
           for p in CABO_PRESETS},
    }
    for key, ok in result["targets_met"].items():
        print(f"target {key}: {'met' if ok else 'MISSED'} (target {TARGETS[key]})")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
