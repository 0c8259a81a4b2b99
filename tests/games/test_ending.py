"""A table ends its match early (referee/games/ending.py): one entry for every game, outside the engines.
The rule book is silent on it; GEN-5 (a person can always override, and it is recorded) and GEN-13 (undo is
an entry too) are what it follows."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.games import GAMES, get_game
from referee.games.base import EntryError, Ruling, Undo
from referee.games.ending import (EndMatch, Ended, ended_result, inner, is_ended, round_noun, with_ending)
from referee.games.log import Log, replay

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _example(name: str):
    data = json.loads((EXAMPLES / f"{name}.json").read_text())
    game = with_ending(get_game(data["game"]))
    state = game.new_match(tuple(data["players"]), data.get("rules") or {})
    return game, state, data["entries"]


def _log(name: str, upto: int):
    """The example's first ``upto`` entries fed to its game (with the ending)."""
    game, state, entries = _example(name)
    log = Log.start(game, state)
    for position, entry in enumerate(entries[:upto]):
        log, _ = log.feed(game.parse_move(entry, log.state.players, log.state.rules), position)
    return game, log


# --- the pure result ------------------------------------------------------------------------------


def _res(rounds: int, standings: list[tuple[str, int]]) -> dict:
    return {"house_rules": {}, "rounds": [{"number": i + 1} for i in range(rounds)],
            "totals": dict(standings), "standings": [{"player": p, "total": t} for p, t in standings],
            "over": False, "winners": [], "outcome": ""}


def test_an_ended_result_counts_the_rounds_completed_and_the_first_in_the_standings_wins():
    res = ended_result(_res(2, [("Ben", 7), ("Ana", 12), ("Cy", 30)]), "Ana")
    assert res["over"] is True and res["winners"] == ["Ben"]
    assert res["totals"] == {"Ben": 7, "Ana": 12, "Cy": 30}
    assert res["outcome"] == "Ana ended the match early by agreement after 2 rounds. Ben, first in the standings, wins."
    assert res["ended_early"] == {"by": "Ana", "rounds": 2, "noun": "round", "result": True}


def test_players_level_first_share_the_win():
    res = ended_result(_res(1, [("Ana", 5), ("Ben", 5), ("Cy", 9)]), None, "game")
    assert res["winners"] == ["Ana", "Ben"]
    assert res["outcome"] == ("The table ended the match early by agreement after 1 game. Ana and Ben, level first in "
                              "the standings, share the win.")


def test_before_any_round_was_completed_there_is_no_result():
    res = ended_result(_res(0, [("Ana", 0), ("Ben", 0)]), "Ben")
    assert res["over"] is False and res["winners"] == []
    assert res["outcome"] == "Ben ended the match early by agreement before any round was completed: no result."
    assert res["ended_early"]["result"] is False


def test_the_given_result_is_not_changed():
    given = _res(1, [("Ana", 3)])
    ended_result(given, "Ana")
    assert given["over"] is False and given["winners"] == [] and "ended_early" not in given


def test_shithead_and_spite_malice_count_games():
    assert round_noun("shithead") == round_noun("spite_malice") == "game"
    assert round_noun("ratatat") == round_noun("cabo") == "round"


# --- the entry, through a game's log ------------------------------------------------------------------


def test_an_end_entry_reads_and_writes_like_any_other():
    game = with_ending(get_game("ratatat"))
    players = ("Ana", "Ben")
    move = game.parse_move({"move": "end_match", "seat": "Ben", "note": "bedtime"}, players)
    assert move == EndMatch(1)
    assert game.move_to_dict(move, players) == {"move": "end_match", "seat": "Ben"}
    assert game.parse_move({"move": "end_match"}, players) == EndMatch(None)
    assert game.describe(move, players) == "Ben ended the match early by agreement."


@pytest.mark.parametrize("entry, field", [
    ({"move": "end_match", "seat": "Zed"}, "entry.seat"),
    ({"move": "end_match", "seat": 7}, "entry.seat"),
    ({"move": "end_match", "seat": ["Ana"]}, "entry.seat"),
    ({"move": "end_match", "round": 2}, "entry.round"),
    ({"move": "end_match", "reason": "x" * 400}, "entry.reason"),
    ({"move": "end_match", "note": 5}, "entry.note"),
])
def test_a_malformed_end_entry_names_its_field(entry, field):
    with pytest.raises(EntryError) as info:
        with_ending(get_game("cabo")).parse_move(entry, ("Ana", "Ben"))
    assert info.value.field == field


def test_no_game_of_its_own_knows_the_entry():
    """The engines are untouched: only the wrapped game reads it (a correction or an override holding one
    is refused as malformed)."""
    for game in GAMES.values():
        with pytest.raises(EntryError):
            game.parse_move({"move": "end_match"}, ("Ana", "Ben"))
        with pytest.raises(EntryError):
            with_ending(game).parse_move({"move": "correct", "target": 0, "entry": {"move": "end_match"}},
                                         ("Ana", "Ben"))


def test_rat_a_tat_cat_ended_after_one_round_scores_that_round_only():
    game, log = _log("three-rounds", 13)  # round 1 scored; round 2 dealt, its first draw made
    before = game.result(log.state)
    assert not before["over"] and len(before["rounds"]) == 1
    log, step = log.feed(EndMatch(1), 13)
    assert is_ended(log.state) and log.state.over and log.state.at == 13 and log.state.seat == 1
    assert step.events == ({"kind": "ended_early", "seat": 1, "rounds": 1},)
    res = game.result(log.state)
    assert res["over"] and res["totals"] == before["totals"] and res["rounds"] == before["rounds"]
    assert res["winners"] == [before["standings"][0]["player"]]
    assert "Ben ended the match early by agreement after 1 round" in res["outcome"]
    assert game.legal_moves(log.state, 0) == [] and game.to_act(log.state) is None and game.may_act(log.state) == ()
    view = game.view(log.state, 0)
    assert view["over"] and view["legal"] == [] and view["round"] is None
    assert view["ended"]["rounds"] == 1 and view["ended"]["by"] == "Ben" and view["ended"]["at"] == 13
    assert view["winners"] == [log.state.players.index(res["winners"][0])]  # seats, as its view lists them
    # what else the game is asked of an ended state is asked of its own state
    assert game.cards(log.state) == game.cards(inner(log.state))
    assert game.still_possible(log.state, 0) == game.still_possible(inner(log.state), 0)


def test_an_entry_after_the_end_is_refused_naming_it_and_an_undo_goes_on():
    game, log = _log("three-rounds", 13)
    _, entries = _example("three-rounds")[1:]
    ended, _ = log.feed(EndMatch(0), 13)
    nxt = game.parse_move(entries[13], log.state.players, log.state.rules)
    with pytest.raises(Ruling) as info:
        ended.feed(nxt, 14)
    assert info.value.rule == "GEN-13" and info.value.entries == (13,)
    assert info.value.message == "The match is over: no more entries can be played."
    with pytest.raises(Ruling):
        ended.feed(EndMatch(1), 14)
    resumed, step = ended.feed(Undo(0), 14)
    assert step.events == ({"kind": "undone", "entry": 13},)
    assert resumed.state == log.state and not is_ended(resumed.state)
    resumed, _ = resumed.feed(nxt, 15)  # the match goes on where it stood
    assert not game.result(resumed.state)["over"]


def test_a_match_over_by_its_own_rules_cannot_be_ended():
    game, log = _log("three-rounds", 33)
    assert game.result(log.state)["over"]
    with pytest.raises(Ruling) as info:
        log.feed(EndMatch(0), 33)
    assert info.value.message == "The match is over: no more entries can be played."


def test_a_correction_before_the_end_keeps_the_match_ended():
    from referee.games.base import Correct

    game, log = _log("three-rounds", 13)
    _, _, entries = _example("three-rounds")
    ended, _ = log.feed(EndMatch(0), 13)
    # entry 12 (Ben's draw in round 2) corrected to the same: the end is applied again after it
    again = game.parse_move(entries[12], log.state.players, log.state.rules)
    corrected, step = ended.feed(Correct(12, again, "same", 0), 14)
    assert is_ended(corrected.state) and corrected.state.at == 13 and not step.later


@pytest.mark.parametrize("name, upto", [("cabo-scoring", 0), ("shithead-facedown", 5),
                                        ("spite-malice-king-chain", 4), ("three-rounds", 3)])
def test_every_game_ended_before_a_round_was_completed_has_no_result(name, upto):
    game, log = _log(name, upto)
    log, _ = log.feed(EndMatch(None), upto)
    res = game.result(log.state)
    assert res["over"] is False and res["winners"] == [] and res["ended_early"]["result"] is False
    assert "before any" in res["outcome"] and "no result" in res["outcome"]
    view = game.view(log.state, None)
    assert view["over"] is True and view["legal"] == [] and view["ended"]["rounds"] == 0


def test_cabo_ended_in_its_third_round_counts_two():
    game, log = _log("cabo-scoring", 20)  # two rounds scored, the third under way
    before = game.result(log.state)
    log, _ = log.feed(EndMatch(2), 20)
    res = game.result(log.state)
    assert res["over"] and res["ended_early"]["rounds"] == 2 and res["totals"] == before["totals"]
    assert res["winners"] == [row["player"] for row in before["standings"]
                              if row["total"] == before["standings"][0]["total"]]
    assert "Cy ended the match early by agreement after 2 rounds" in res["outcome"]


@pytest.mark.parametrize("name, upto", [("three-rounds", 14), ("shithead-facedown", 5), ("cabo-scoring", 12)])
def test_an_ended_state_survives_a_snapshot(name, upto):
    game, log = _log(name, upto)
    log, _ = log.feed(EndMatch(1), upto)
    data = json.loads(json.dumps(game.state_to_dict(log.state)))
    back = game.state_from_dict(data)
    assert isinstance(back, Ended) and back.seat == 1 and back.at == upto
    assert game.state_to_dict(back) == game.state_to_dict(log.state)
    assert game.result(back) == game.result(log.state)
    # a state that was not ended reads back as the game's own
    plain = game.state_from_dict(json.loads(json.dumps(game.state_to_dict(inner(log.state)))))
    assert not isinstance(plain, Ended)


def test_redaction_leaves_the_end_entry_as_it_is():
    game, state, entries = _example("three-rounds")
    whole = [*entries[:13], {"move": "end_match", "seat": "Ana"}]
    log, _ = replay(game, state, [game.parse_move(e, state.players, state.rules) for e in whole])
    seen = game.redact(log.state, whole, 1)
    assert seen[-1] == {"move": "end_match", "seat": "Ana"}
    assert seen[:-1] == get_game("ratatat").redact(inner(log.state), whole[:-1], 1)


def test_one_wrapper_per_game_and_a_wrapped_game_is_left_as_it_is():
    game = get_game("shithead")
    assert with_ending(game) is with_ending(game) is with_ending(with_ending(game))
    wrapped = with_ending(game)
    assert wrapped.NAME == game.NAME and wrapped.ENGINE_VERSION == game.ENGINE_VERSION
    assert wrapped.VARIANTS is game.VARIANTS
    with pytest.raises(AttributeError):
        wrapped.no_such_thing  # noqa: B018


@pytest.mark.parametrize("ends", [1, 2])
def test_an_end_undone_in_an_earlier_round_does_not_move_the_cut_of_the_round_in_play(ends):
    """GEN-6: a round's first entry is a position in the whole log. Each end (undone) before it once shifted
    the cut by one, so the round in play's first entries, a first peek among them, went to every phone."""
    game, state, entries = _example("three-rounds")
    moves, stored = [], []
    for entry in entries[:4]:
        moves.append(game.parse_move(entry, state.players, state.rules))
        stored.append(entry)
    for _ in range(ends):
        for move in (EndMatch(0), Undo(0)):
            moves.append(move)
            stored.append(game.move_to_dict(move, state.players))
    peek = {"seat": "Ana", "move": "initial_peek", "slots": [1, 4], "seen": ["9", "0"]}
    for entry in [*entries[4:11], peek]:
        moves.append(game.parse_move(entry, state.players, state.rules))
        stored.append(entry)
    log, _ = replay(game, state, moves)
    assert game.redact(log.state, stored, 1)[-1]["seen"] == ["unknown", "unknown"]  # Ben's phone
    assert game.redact(log.state, stored, None)[-1]["seen"] == ["unknown", "unknown"]  # a watcher
    assert game.redact(log.state, stored, 0)[-1] == peek  # Ana's own
