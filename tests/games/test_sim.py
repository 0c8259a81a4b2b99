"""The simulated physical tables (referee/games/sim.py and the tables built on it, ratatat_sim.py and
cabo_sim.py): pure, the same seed plays the same match, every entry they make is accepted by the engine and
checks out against the true cards, and a table that disagrees with the engine says so."""
from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from referee.games import cabo, ratatat
from referee.games import cabo_sim, ratatat_sim, sim
from referee.games.cabo_presets import PRESETS as CABO_PRESETS
from referee.games.ratatat_presets import PRESETS as RTC_PRESETS
from referee.games.sim import SimError, TrueTable, expected_round_winners, play_match, play_round

PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def rtc_table(seed: int, rules: dict | None = None, **kw) -> ratatat_sim.Table:
    return ratatat_sim.Table(PLAYERS[:3], {"rounds_n": 2, **(rules or {})}, random.Random(seed), **kw)


def cabo_table(seed: int, preset: str = "cabo_2e", **kw) -> cabo_sim.Table:
    rules = cabo_sim.preset_rules(preset, game_end="rounds", rounds_n=2)
    return cabo_sim.Table(PLAYERS, rules, random.Random(seed), **kw)


TABLES = {"ratatat": rtc_table, "cabo": cabo_table}


def played(table: TrueTable) -> tuple[list, dict]:
    """Every entry of the table's whole match, and the state it ends in."""
    entries = []

    def apply(state, move):
        entries.append(move)
        return table.game.apply(state, move)

    play_match(table, apply=apply)
    return entries, table.game.state_to_dict(table.state)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_same_seed_plays_the_same_match(name):
    first = played(TABLES[name](7))
    assert played(TABLES[name](7)) == first
    assert played(TABLES[name](8))[0] != first[0]


@pytest.mark.parametrize("rules", [p.rules for p in RTC_PRESETS], ids=[p.key for p in RTC_PRESETS])
@pytest.mark.parametrize("seed", range(3))
def test_every_ratatat_entry_is_accepted_and_checks_out(rules, seed):
    table = rtc_table(seed, rules, check=True, p_time_up=0.02)
    n = play_match(table)  # an entry refused raises Ruling; one that disagrees with the truth, SimError
    assert n > 0 and table.state.over
    assert table.rounds_scored == len(table.state.history)
    assert list(table.state.totals) == table.totals


@pytest.mark.parametrize("preset", [p.key for p in CABO_PRESETS])
@pytest.mark.parametrize("seed", range(3))
def test_every_cabo_entry_is_accepted_and_checks_out(preset, seed):
    table = cabo_table(seed, preset)  # checks every entry by default
    assert table.check
    n = play_match(table)
    assert n > 0 and table.state.over
    assert table.rounds_scored == len(table.state.history) == 2
    assert not table.state.flags


@pytest.mark.parametrize("name", sorted(TABLES))
def test_play_round_plays_exactly_one_round(name):
    table = TABLES[name](3)
    seen = []
    n = play_round(table, on_entry=lambda move, state: seen.append(state))
    assert n == len(seen) > 0
    assert table.rounds_scored == 1 == len(table.state.history)
    assert seen[-1] is table.state


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_table_that_disagrees_with_the_engine_says_so(name):
    table = TABLES[name](5)
    play_round(table)
    table.check_knowledge()  # the true table and the engine agree ...
    table.draw.pop()  # ... until a card goes missing from the true draw pile
    with pytest.raises(SimError, match="draw pile"):
        table.check_knowledge()


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_card_wrongly_taken_for_public_is_caught(name):
    table = TABLES[name](5)
    hidden = next(c for row in table.rows for c in row if c is not None and c not in table.public)
    table.public.add(hidden)
    with pytest.raises(SimError, match="public value"):
        table.check_knowledge()


@pytest.mark.parametrize("keep_top", [True, False])
def test_a_reshuffle_forgets_the_cards_it_moves(keep_top):
    table = rtc_table(1)
    a, b, c = table.draw[:3]
    del table.draw[:3]
    table.discard = [a, b, c]
    table.public |= {a, c}
    table.notes |= {(b, 0), (c, 1)}
    left = len(table.draw)
    table._reshuffle(keep_top)
    assert table.discard == ([c] if keep_top else [])
    moved = {a, b} if keep_top else {a, b, c}
    assert moved <= set(table.draw) and len(table.draw) == left + len(moved)
    assert not moved & table.public and not {n for n in table.notes if n[0] in moved}
    assert (c in table.public) == keep_top


@pytest.mark.parametrize("policy, caller, want", [
    ("all_lowest", 1, (0, 1)),
    ("no_winner", 1, ()),
    ("all_lowest_except_caller", 1, (0,)),
    ("all_lowest_except_caller", 2, (0, 1)),
    ("caller_wins_ties", 1, (1,)),
    ("caller_wins_ties", None, (0, 1)),
])
def test_expected_round_winners_of_a_tie(policy, caller, want):
    assert expected_round_winners({0: 5, 1: 5, 2: 9}, caller, policy) == want


@pytest.mark.parametrize("policy", ["all_lowest", "no_winner", "all_lowest_except_caller", "caller_wins_ties"])
def test_one_lowest_score_wins_alone(policy):
    assert expected_round_winners({0: 7, 1: 3, 2: 9}, 1, policy) == (1,)


def test_the_tables_keep_their_names():
    """The names the tests and benchmarks use stay importable from each table's module."""
    assert ratatat_sim.Table.game is ratatat and cabo_sim.Table.game is cabo
    assert ratatat_sim.SimError is cabo_sim.SimError is SimError
    assert ratatat_sim.SLOTS == sim.SLOTS == 4


ALLOWED = {"__future__", "typing", "collections", "dataclasses", "itertools", "functools", "math"}


@pytest.mark.parametrize("module", [sim, ratatat_sim, cabo_sim], ids=lambda m: m.__name__)
def test_the_tables_are_pure(module):
    """No clock, randomness, I/O or web/database/vision import: the caller brings the random source."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # a sibling module of the engines
                continue
            names = [node.module]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in ALLOWED or name.startswith("referee.games"), name
