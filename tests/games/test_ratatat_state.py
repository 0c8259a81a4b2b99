"""The Rat-a-Tat Cat state is a frozen value (shared between threads by the store's cache) and its JSON
form reads what earlier versions of the engine wrote."""
from __future__ import annotations

import dataclasses
import json
import random
from types import MappingProxyType

import pytest

from referee.games import ratatat as R
from referee.games.base import Override
from referee.games.ratatat_moves import Discard, Draw, Reveal, TurnUp
from referee.games.ratatat_sim import Table
from referee.games.ratatat_state import Round, RoundResult, State, Token, draft, freeze

from .ratatat_helpers import ANA, BEN, match, play, score_round

IMMUTABLE = (int, str, bool, float, type(None), tuple, frozenset, MappingProxyType)


def played_states(seed: int = 3, rounds: int = 2):
    """Every state of a match of ``rounds`` rounds played by the simulated table."""
    table = Table(("Ana", "Ben", "Cy"), {"rounds_n": rounds}, random.Random(seed))
    states = [table.state]
    while not table.state.over:
        move = table.choose()
        new, _ = R.apply(table.state, move)
        table.accept(move, new)
        states.append(new)
    return states


def mutable_parts(value, path="state"):
    """The paths of every mutable collection reachable from ``value``."""
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from mutable_parts(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (tuple, frozenset)):
        for i, item in enumerate(value):
            yield from mutable_parts(item, f"{path}[{i}]")
    elif isinstance(value, MappingProxyType):
        for key, item in value.items():
            yield from mutable_parts(item, f"{path}[{key!r}]")
    elif not isinstance(value, IMMUTABLE):
        yield f"{path}: {type(value).__name__}"


def test_every_state_of_a_played_match_is_frozen_all_the_way_down():
    states = played_states()
    assert len(states) > 40 and states[-1].over and len(states[-1].history) == 2
    for state in states:
        assert type(state) is State and (state.round is None or type(state.round) is Round)
        assert list(mutable_parts(state)) == []


def test_a_state_refuses_assignment_and_its_rules_refuse_changes():
    state = match(2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.version = 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.round.turn = BEN
    with pytest.raises(TypeError):
        state.rules["rounds_n"] = 9  # type: ignore[index]
    assert state.rules["rounds_n"] == 3


def test_a_round_result_is_read_only():
    state = score_round(match(2), {ANA: 10, BEN: 20})
    result = state.history[0]
    assert isinstance(result, RoundResult) and dict(result.scores) == {ANA: 10, BEN: 20}
    with pytest.raises(TypeError):
        result.scores[ANA] = 0  # type: ignore[index]


def test_a_draft_changes_without_touching_the_state_and_freezes_into_a_state():
    state = play(match(2), TurnUp("5"))
    before = R.state_to_dict(state)
    work = draft(state)
    work.version = 99
    work.round.discard.append(Token("7"))
    work.round.rows[ANA][0] = Token("3")
    assert R.state_to_dict(state) == before
    frozen = freeze(work)
    assert type(frozen) is State and type(frozen.round) is Round
    assert frozen.version == 99 and frozen.round.discard[-1] == Token("7") and frozen.round.rows[ANA][0].value == "3"
    assert isinstance(frozen.round.discard, tuple) and all(isinstance(row, tuple) for row in frozen.round.rows)


def test_equal_states_compare_equal_and_differ_by_any_field():
    a = play(match(2), TurnUp("5"))
    b = play(match(2), TurnUp("5"))
    assert a == b and a is not b
    assert a != play(a, Draw(ANA))
    assert a != dataclasses.replace(a, time_up=True)


def test_json_round_trip_of_every_state_of_a_played_match():
    for state in played_states(seed=8):
        d = R.state_to_dict(state)
        back = R.state_from_dict(json.loads(json.dumps(d)))
        assert back == state and R.state_to_dict(back) == d


def test_the_json_form_keeps_its_field_order_and_shapes():
    state = play(match(2), TurnUp("5"), Draw(ANA, "PEEK"))
    d = R.state_to_dict(state)
    assert list(d) == ["game", "players", "rules", "version", "round", "totals", "history", "eliminated",
                       "over", "winners", "outcome", "flags", "time_up", "overrides"]
    r = d["round"]
    assert list(r)[:3] == ["number", "dealer", "seats"] and list(r)[-4:] == ["first_entry", "reveal_flags_from", "swaps", "returned"]
    assert r["discard"] == [["5", 0, [], "discard", 0, False]]
    assert r["pending"] == [None, None, [[ANA, "PEEK", 1]], "draw", 1, False]
    assert r["revealed"] == [] and r["to_replace"] == [] and isinstance(d["rules"], dict)


def test_snapshots_written_before_later_fields_still_read():
    """Older snapshots lack a round's first entry, reveal start and Swaps, and an override's message and
    entries: they read with the defaults the engine used then."""
    state = play(match(2, power_use_optional=False), TurnUp("5"), Draw(ANA))
    state, _ = R.apply(state, Override(Discard(ANA, "PEEK"), "RTC-30", "house custom", BEN))
    d = json.loads(json.dumps(R.state_to_dict(state)))
    del d["round"]["first_entry"], d["round"]["reveal_flags_from"], d["round"]["swaps"], d["round"]["returned"]
    d["overrides"] = [o[:4] for o in d["overrides"]]
    old = R.state_from_dict(d)
    assert old.round.first_entry == 0 and old.round.reveal_flags_from is None and old.round.swaps == ()
    assert old.overrides == ((2, "RTC-30", "house custom", BEN, "", (2,)),)
    assert R.state_to_dict(dataclasses.replace(old, overrides=state.overrides, round=state.round)) == R.state_to_dict(state)


def test_a_snapshot_missing_a_field_that_always_existed_is_refused():
    d = R.state_to_dict(match(2))
    del d["round"]["draw"]
    with pytest.raises(KeyError):
        R.state_from_dict(d)


def test_a_finished_round_reads_back_with_seats_as_numbers():
    state = score_round(match(2), {ANA: ("1", "2", "3", "4"), BEN: 30})
    d = json.loads(json.dumps(R.state_to_dict(state)))
    assert d["history"][0]["cards"]["0"] == ["1", "2", "3", "4"]
    result = R.state_from_dict(d).history[0]
    assert result.cards[ANA] == ("1", "2", "3", "4") and result.scores[ANA] == 10
    assert result.to_dict(("Ana", "Ben"))["scores"] == {"Ana": 10, "Ben": 30}


def test_a_refused_entry_leaves_no_trace():
    state = play(match(2), TurnUp("5"))
    before = R.state_to_dict(state)
    with pytest.raises(R.Ruling):
        R.apply(state, Reveal(ANA, ("1", "2", "3", "4")))
    assert R.state_to_dict(state) == before and type(state.round) is Round
