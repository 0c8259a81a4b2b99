"""The table log: undo and correction are entries; what follows a correction is recomputed."""
from __future__ import annotations

import pytest

from referee.games import ratatat as R
from referee.games.base import Correct, Ruling, Undo
from referee.games.log import Log, replay, rulings
from referee.games.ratatat_moves import Call, Discard, Draw, Replace, TurnUp, UsePower

from .ratatat_helpers import ANA, BEN, match


def test_undo_steps_back_over_the_last_entry_that_stands():
    log, steps = replay(R, match(2), [TurnUp("5"), Draw(ANA), Undo(ANA, "mis-tap"), Draw(ANA)])
    assert all(s.accepted for s in steps)
    assert steps[2].events[0] == {"kind": "undone", "entry": 1}
    assert log.positions() == [0, 3]
    assert log.state.round.pending is not None


def test_undo_with_nothing_to_undo_is_refused():
    with pytest.raises(Ruling) as info:
        Log.start(R, match(2)).feed(Undo(), 0)
    assert info.value.rule == "GEN-13"


def test_undo_matches_never_having_made_the_entry():
    undone, _ = replay(R, match(2), [TurnUp("5"), Draw(ANA), Discard(ANA, "3"), Undo(), Undo()])
    plain, _ = replay(R, match(2), [TurnUp("5")])
    assert R.state_to_dict(undone.state)["round"] == R.state_to_dict(plain.state)["round"]


def test_correction_recomputes_and_reports_what_no_longer_fits():
    moves = [TurnUp("5"), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Replace(ANA, 1, "8"),
             Draw(BEN), Discard(BEN, "2")]
    log, steps = replay(R, match(2), moves)
    assert all(s.accepted for s in steps)
    # It was a Peek, not a Draw 2: Ana's next draw no longer fits, nor does anything after it.
    log, step = log.feed(Correct(2, UsePower(ANA, "PEEK"), "it was a Peek", BEN), 7)
    assert [(d["entry"], d["rule"]) for d in step.later] == [
        (3, "RTC-13"), (4, "RTC-13"), (5, "GEN-7"), (6, "RTC-13")]
    assert "no longer stands" in step.later[0]["message"]
    assert 2 in log.positions() and log.state.round.step == "peek"
    found = rulings(log, [*steps, step])
    assert found[0]["event"] == 7 and found[0]["verdict"] == "flag"


def test_correction_of_an_entry_that_does_not_stand_is_refused():
    log, _ = replay(R, match(2), [TurnUp("5")])
    with pytest.raises(Ruling) as info:
        log.feed(Correct(4, Draw(ANA)), 1)
    assert info.value.rule == "GEN-13"


def test_a_refused_correction_changes_nothing():
    log, _ = replay(R, match(2), [TurnUp("5"), Draw(ANA), Discard(ANA, "3")])
    with pytest.raises(Ruling):
        log.feed(Correct(1, Call(ANA)), 3)
    assert log.positions() == [0, 1, 2]
