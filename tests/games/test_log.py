"""The table log: undo and correction are entries; what follows a correction is recomputed."""
from __future__ import annotations

import pytest

from referee.games import ratatat as R
from referee.games.base import Correct, Override, Ruling, Undo
from referee.games.log import BeyondSnapshot, Log, replay, rulings
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
        (3, "RTC-13"), (4, "RTC-13"), (5, "GEN-7"), (6, "GEN-7")]
    assert "no longer stands" in step.later[0]["message"]
    assert 2 in log.positions() and log.state.round.step == "peek"
    # the log itself remembers what the correction set aside (the history shows it; a snapshot keeps it)
    assert [(p, rule) for p, rule, _ in log.refused] == [(3, "RTC-13"), (4, "RTC-13"), (5, "GEN-7"), (6, "GEN-7")]
    found = rulings(log, [*steps, step])
    assert found[0]["event"] == 7 and found[0]["verdict"] == "flag"


def test_GEN_13_undo_after_a_correction_takes_the_correction_back_and_what_it_set_aside_stands_again():
    moves = [TurnUp("5"), Draw(ANA), UsePower(ANA, "DRAW2"), Draw(ANA), Replace(ANA, 1, "8"),
             Draw(BEN), Discard(BEN, "2")]
    before, _ = replay(R, match(2), moves)
    log, _ = replay(R, match(2), [*moves, Correct(2, UsePower(ANA, "PEEK"), "it was a Peek", BEN)])
    assert log.undo_target() == 7 and len(log.refused) == 4
    log, step = log.feed(Undo(BEN), 8)
    assert step.events == ({"kind": "undone", "entry": 7},)
    assert log.positions() == before.positions() == [0, 1, 2, 3, 4, 5, 6]
    assert log.refused == () and log.undone == ((8, 7),)
    assert R.state_to_dict(log.state) == R.state_to_dict(before.state)
    assert log.undo_target() == 6  # the next undo takes back the last entry, as before the correction


def test_an_entry_after_a_correction_is_undone_first_then_the_correction():
    moves = [TurnUp("5"), Draw(ANA), Discard(ANA, "3"), Draw(BEN), Discard(BEN, "4")]
    log, _ = replay(R, match(2), [*moves, Correct(2, Discard(ANA, "6"), "a 6", ANA), Draw(ANA),
                                  Undo(ANA), Undo(ANA)])
    plain, _ = replay(R, match(2), moves)
    assert log.undone == ((7, 6), (8, 5))
    assert R.state_to_dict(log.state) == R.state_to_dict(plain.state)


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


# --- A log restored from a snapshot ---------------------------------------------------------------

MOVES = [TurnUp("5"), Draw(ANA), Replace(ANA, 1, "8"), Draw(BEN), Discard(BEN, "2")]


def restored_after(n: int) -> tuple[Log, Log]:
    """The log after the first ``n`` entries, and the same restored from its head state only."""
    full, _ = replay(R, match(2), MOVES[:n])
    return full, Log.restore(R, full.state, full.positions(), full.fed, full.head.move)


def test_a_restored_log_goes_on_like_the_whole_log():
    full, restored = restored_after(3)
    assert restored.positions() == full.positions() == [0, 1, 2] and restored.fed == 3
    for position, move in enumerate(MOVES[3:], start=3):
        full, _ = full.feed(move, position)
        restored, _ = restored.feed(move)
    assert restored.state == full.state and restored.positions() == full.positions()
    # undo and correction within what was fed after the snapshot work as usual
    log, step = restored.feed(Undo(BEN))
    assert step.events[0] == {"kind": "undone", "entry": 4} and log.positions() == [0, 1, 2, 3]
    log, step = restored.feed(Correct(4, Discard(BEN, "3"), "it was a 3", ANA))
    assert log.positions() == [0, 1, 2, 3, 4] and log.state.round.discard[-1].value == "3"


def test_undo_beyond_a_snapshot_asks_for_the_whole_log():
    _, restored = restored_after(3)
    log, _ = restored.feed(Draw(BEN))
    log, _ = log.feed(Undo(BEN))  # back to the restored head: its state is known
    assert log.positions() == [0, 1, 2] and log.fed == 5
    with pytest.raises(BeyondSnapshot):
        log.feed(Undo(ANA))  # the state before it is not


def test_correction_beyond_a_snapshot_asks_for_the_whole_log():
    _, restored = restored_after(3)
    with pytest.raises(BeyondSnapshot):
        restored.feed(Correct(1, Draw(ANA), "again", BEN))
    headless = Log.restore(R, restored.state, restored.positions(), restored.fed)  # head move unknown
    with pytest.raises(BeyondSnapshot):
        headless.feed(Correct(2, Replace(ANA, 2, "8"), "slot 2", BEN))
    with pytest.raises(Ruling) as info:  # not standing at all: still a ruling
        restored.feed(Correct(7, Draw(ANA)))
    assert info.value.rule == "GEN-13"


def test_a_restored_log_of_nothing_standing_refuses_undo():
    log = Log.restore(R, match(2), [], 4)
    with pytest.raises(Ruling):
        log.feed(Undo())


def test_a_skipped_entry_keeps_the_positions_of_those_after_it():
    log, _ = replay(R, match(2), MOVES[:1])
    log = log.refuse(1, "GEN-3", "unreadable")
    log, step = log.feed(Draw(ANA))
    assert step.position == 2 and log.positions() == [0, 2] and log.refused == ((1, "GEN-3", "unreadable"),)
    log, _ = log.feed(Undo(ANA))
    assert log.refused == ((1, "GEN-3", "unreadable"),) and log.fed == 4


def test_GEN_5_an_overridden_reject_is_listed_with_who_and_why():
    moves = [TurnUp("5"), Override(Draw(BEN), "GEN-7", "Ana let him go first", ANA), Discard(BEN, "3")]
    log, steps = replay(R, match(2), moves)
    assert all(s.accepted for s in steps)
    found = rulings(log, steps)
    assert found == [{"event": 1, "verdict": "reject", "rule": "GEN-7",
                      "message": "It is Ana's turn, not Ben's.", "entries": [1], "status": "overridden",
                      "reason": "Ana let him go first", "by": "Ana"}]


def test_an_undone_override_is_no_longer_listed():
    moves = [TurnUp("5"), Override(Draw(BEN), "GEN-7", "", None), Undo()]
    log, steps = replay(R, match(2), moves)
    assert rulings(log, steps) == []
