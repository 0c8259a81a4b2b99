"""Standings from known histories, computed from the log: a tie at the end is a shared win, merges follow the person,
house rules are never mixed, an undone round is not counted, and a summary follows its match's version."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from referee import people, stats, store, tables
from referee.games import GAMES
from tests.web.nights_helpers import TIED_ROUND, example, play, renamed

MON = datetime(2026, 11, 30, 21, 0, tzinfo=timezone.utc)
TUE = datetime(2026, 12, 1, 21, 0, tzinfo=timezone.utc)


def _rows(db, scope, game="ratatat", rules=None):
    for table in stats.standings(db, scope):
        if table.game == game and (rules is None or table.rules_key == rules):
            return {row["name"]: row for row in table.rows}
    return {}


def test_rat_a_tat_cat_figures_from_a_known_match(database):
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id)
    rows = _rows(database, stats.Scope(g.id))
    ana, ben = rows["Ana"], rows["Ben"]
    assert (ana["matches"], ana["won"], ana["shared"], ana["avg_place"]) == (1, 1, 0, 1.0)
    assert (ben["won"], ben["avg_place"]) == (0, 2.0)
    assert (ana["rounds_won"], ana["avg_round"], ana["best_round"]) == (1, 11.0, 11)
    assert (ana["calls_won"], ana["calls_made"]) == (1, 1)  # Ana called and won the round
    assert (ana["disputes"], ben["disputes"]) == (1, 0)  # the flag at Ana's reveal


def test_a_tie_at_the_end_is_a_shared_win_counted_as_won(database):
    g = people.find_or_create_group(database, "Club")
    play(database, TIED_ROUND, g.id)
    rows = _rows(database, stats.Scope(g.id))
    for name in ("Ana", "Ben"):  # a shared win (RTC-55): won, and told apart as shared
        assert (rows[name]["won"], rows[name]["shared"], rows[name]["rounds_tied"], rows[name]["avg_place"]) == \
            (1, 1, 1, 1.0)
    assert rows["Ana"]["rank"] == rows["Ben"]["rank"] == 1  # equal figures share a place in the standings
    play(database, renamed(TIED_ROUND, {"Ana": "Cy"}), g.id)  # Cy ties with Ben: Ben is ahead of Ana now
    ranks = {name: row["rank"] for name, row in _rows(database, stats.Scope(g.id)).items()}
    assert ranks == {"Ben": 1, "Ana": 2, "Cy": 2}


def test_house_rules_are_never_mixed(database):
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id)  # rounds_n 1
    play(database, example("three-rounds"), g.id)  # the default rules
    tables_ = stats.standings(database, stats.Scope(g.id, game="ratatat"))
    assert sorted(t.rules_key for t in tables_) == ['{"rounds_n":1}', "{}"]
    assert all(row["matches"] == 1 for t in tables_ for row in t.rows)
    only = stats.standings(database, stats.Scope(g.id, game="ratatat", rules_key="{}"))
    assert [t.rules_words for t in only] == ["The publisher's rules"]  # as the table and the new-table form say
    assert {r["name"] for r in only[0].rows} == {"Ana", "Ben", "Cy"}


def test_a_merge_adds_two_profiles_up_and_undoing_it_splits_them_again(database):
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id, MON)  # Ana wins
    play(database, renamed(example("flag-at-reveal"), {"Ana": "Annie"}), g.id, TUE)  # Annie wins
    scope = stats.Scope(g.id, rules_key='{"rounds_n":1}')
    assert _rows(database, scope)["Ana"]["won"] == 1
    annie, ana = people.find_profile(database, "Annie"), people.find_profile(database, "Ana")
    people.merge(database, annie.id, ana.id)
    rows = _rows(database, scope)
    assert set(rows) == {"Ana", "Ben"} and rows["Ana"]["won"] == 2 and rows["Ana"]["matches"] == 2
    people.unmerge(database, annie.id)
    rows = _rows(database, scope)
    assert rows["Ana"]["won"] == 1 and rows["Annie"]["won"] == 1


def test_an_undone_round_is_not_counted_and_the_summary_follows_the_version(database):
    g = people.find_or_create_group(database, "Club")
    match = play(database, example("flag-at-reveal"), g.id)
    assert _rows(database, stats.Scope(g.id))["Ana"]["won"] == 1
    tables.append(database, match.id, match.version, {"seat": "Ben", "move": "undo"}, None)  # the round is held again
    assert _rows(database, stats.Scope(g.id)) == {}
    assert stats.refresh(database) == 0  # fresh: nothing left to compute


def test_nights_filter_and_running_wins_by_night(database):
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id, MON)
    play(database, example("flag-at-reveal"), g.id, TUE)
    play(database, TIED_ROUND, g.id, TUE)
    nights_ = {n.day: n.id for n in __import__("referee.nights", fromlist=["x"]).group_nights(database, g.id)}
    assert set(nights_) == {"2026-11-30", "2026-12-01"}
    monday = _rows(database, stats.Scope(g.id, nights_["2026-11-30"]))
    assert monday["Ana"]["matches"] == 1
    days, series = stats.wins_by_night(database, stats.Scope(g.id, game="ratatat", rules_key='{"rounds_n":1}'))
    ana = people.find_profile(database, "Ana").id
    assert days == ["2026-11-30", "2026-12-01"] and series[ana] == [1, 3]  # 1, then a win and a tie


def test_every_game_gets_its_result_tally(database):
    g = people.find_or_create_group(database, "Club")
    play(database, example("spite-malice-stock-out"), g.id)
    rows = _rows(database, stats.Scope(g.id), game="spite_malice")
    assert (rows["Ann"]["won"], rows["Ann"]["total"], rows["Ann"]["games_won"]) == (1, 2, 1)
    assert (rows["Bob"]["won"], rows["Bob"]["total"]) == (0, 0)


def test_shithead_times_shithead_and_average_finish():
    res = {"rounds": [{"number": 1, "order": ["A", "B"], "shithead": "C", "winner": None},
                      {"number": 2, "order": ["C", "A"], "shithead": "B", "winner": None}]}
    assert stats._round_counters("C", res["rounds"]) == {"games": 2, "shitheads": 1, "placed": 2, "place_points": 4}
    assert stats._round_counters("A", res["rounds"]) == {"games": 2, "placed": 2, "place_points": 3}


def test_head_to_head(database):
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id)
    play(database, TIED_ROUND, g.id)
    ana, ben = people.find_profile(database, "Ana").id, people.find_profile(database, "Ben").id
    h2h = stats.head_to_head(database, ana, ben)
    (table,) = h2h["tables"]
    assert (table["matches"], table["a_ahead"], table["b_ahead"], table["level"]) == (2, 1, 0, 1)


def test_all_time_totals_are_the_nights_added_up(database):
    """The totals kept per person agree with the summaries they are made of, after undo and merge."""
    g = people.find_or_create_group(database, "Club")
    play(database, example("flag-at-reveal"), g.id, MON)
    play(database, TIED_ROUND, g.id, TUE)
    match = play(database, example("flag-at-reveal"), g.id, TUE)
    play(database, renamed(example("three-rounds"), {"Ana": "Annie"}), g.id, TUE)
    tables.append(database, match.id, match.version, {"seat": "Ben", "move": "undo"}, None)
    people.merge(database, people.find_profile(database, "Annie").id, people.find_profile(database, "Ana").id)
    from referee import nights

    def figures(tables_):
        return {(t.game, t.rules_key, r["name"]): {k: v for k, v in r.items() if k in ("matches", "won", "shared", "total")}
                for t in tables_ for r in t.rows}

    all_time = figures(stats.standings(database, stats.Scope(g.id)))
    added: dict = {}
    for night in nights.group_nights(database, g.id):
        for key, row in figures(stats.standings(database, stats.Scope(g.id, night.id))).items():
            added[key] = {k: added.get(key, {}).get(k, 0) + v for k, v in row.items()}
    assert all_time == added and all_time[("ratatat", '{"rounds_n":1}', "Ana")]["matches"] == 2


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_registered_game_is_summed_up_from_its_result(database, game):
    """A game added later needs no stats code: its result tally is read through the game interface."""
    engine = GAMES[game]
    players = ["Ana", "Ben", "Cy", "Dee"][:max(engine.MIN_PLAYERS, 2)]
    match = store.create_match(database, game, players, {})
    summary = stats.compute(database, match)
    assert [s.place for s in summary.seats] == [1] * len(players)  # nobody ahead yet
    assert not summary.over and summary.game == game
    stats.save(database, [summary])
    assert stats.refresh(database) == 0


def _shithead_evening(seed: int) -> tuple[dict, dict]:
    """A whole Shithead match played at a simulated true table (tests/games/shithead_sim.py): its
    transcript and the engine's result."""
    import random

    from referee.games import shithead as sh
    from tests.games.shithead_sim import Table

    table, rng, entries = Table(("Ari", "Bea", "Cal"), {}, seed), random.Random(seed), []
    while not table.state.over and len(entries) < 5000:
        move = rng.choice(table.honest_entries())
        entries.append(sh.move_to_dict(move, table.state.players))
        table.enter(move)
    assert table.state.over
    return {"format": "referee-transcript/1", "game": "shithead", "players": ["Ari", "Bea", "Cal"], "rules": {},
            "entries": entries}, sh.result(table.state)


def test_shithead_times_shithead_and_average_finish_from_a_whole_match(database):
    from referee import exports

    transcript, result = _shithead_evening(3)
    exports.import_data(database, transcript, "Club", "2026-11-30")
    g = people.find_or_create_group(database, "Club")
    rows = _rows(database, stats.Scope(g.id), game="shithead")
    (game,) = result["rounds"]
    places = {name: i + 1 for i, name in enumerate(game["order"])}
    places[game["shithead"]] = 3
    for name in ("Ari", "Bea", "Cal"):
        assert rows[name]["shitheads"] == (name == game["shithead"])
        assert rows[name]["avg_game_place"] == places[name]
    assert sum(r["won"] for r in rows.values()) == len(result["winners"])  # alone or shared


def test_GEN_4_a_dispute_counts_for_each_player_whose_entries_it_names(database):
    """Ben noted his slot 1 as an 8; Ana swapped it into her row and revealed it as a 3 (GEN-4 names Ben's
    note and Ana's reveal): one dispute each, whoever made the entry that scored the round."""
    g = people.find_or_create_group(database, "Club")
    transcript = {"game": "ratatat", "players": ["Ana", "Ben"], "rules": {"rounds_n": 1}, "entries": [
        {"move": "turn_up", "card": "5"},
        {"move": "initial_peek", "seat": "Ben", "slots": [1, 4], "seen": ["8", "2"]},
        {"move": "draw", "seat": "Ana"}, {"move": "power", "seat": "Ana", "card": "SWAP"},
        {"move": "swap", "seat": "Ana", "slot": 2, "target": "Ben", "target_slot": 1},
        {"move": "draw", "seat": "Ben"}, {"move": "discard", "seat": "Ben", "card": "4"},
        {"move": "draw", "seat": "Ana"}, {"move": "discard", "seat": "Ana", "card": "6"},
        {"move": "call", "seat": "Ana"}, {"move": "draw", "seat": "Ben"}, {"move": "discard", "seat": "Ben", "card": "7"},
        {"move": "reveal", "seat": "Ana", "cards": ["1", "3", "1", "0"]},
        {"move": "reveal", "seat": "Ben", "cards": ["0", "9", "9", "2"]},
        {"move": "resolve_flag", "flag": 0, "decision": "accept", "reason": "it was a 3"}]}
    match = play(database, transcript, g.id)
    log = store.state_at(database, match, tables.replay)
    assert [f.rule for f in log.state.flags] == ["GEN-4"] and log.state.over
    rows = _rows(database, stats.Scope(g.id))
    assert (rows["Ana"]["disputes"], rows["Ben"]["disputes"]) == (1, 1)


def test_SH_51_shithead_standings_show_no_column_twice(database):
    """A one-game Shithead match: the match's place is the game's finishing place, and its total is the
    Shithead tally (SH-51, §4.12 H2), so 'Avg finish' and 'Total' would repeat 'Avg place' and 'Times
    Shithead' (and 'Games won' is 0 for everyone when nobody wins a game): each figure is shown once."""
    from referee import exports

    transcript, _ = _shithead_evening(3)
    exports.import_data(database, transcript, "Club", "2026-11-30")
    g = people.find_or_create_group(database, "Club")
    (table,) = [t for t in stats.standings(database, stats.Scope(g.id)) if t.game == "shithead"]
    keys = [k for k, _ in table.columns]
    assert [k for k in keys if k != "disputes"] == ["matches", "won", "avg_place", "shitheads"]
    for row in table.rows:  # the figures left out are the ones shown under another heading
        assert row["total"] == row["shitheads"] and row["avg_game_place"] == row["avg_place"]


def test_an_average_round_rounds_a_half_up_as_people_do():
    from referee.stats import _tenths

    assert [_tenths(49, 4), _tenths(105, 4), _tenths(31, 4), _tenths(11, 1), _tenths(-49, 4)] == \
        [12.3, 26.3, 7.8, 11.0, -12.3]
