"""The rules every game shares (RULES.md §0.3 GEN-1..GEN-7 and §5 GEN-10..GEN-14), checked in all four games:
an override is recorded and waives the ruling for that entry only (GEN-5), undo and corrections are new
entries (GEN-13), flags are decided by the table, entries by the wrong seat are refused (GEN-7), and an
unknown card can be entered everywhere (GEN-14)."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from shithead_helpers import ARI, BEA, CAL, table as sh_table  # noqa: E402
from spite_malice_helpers import ANN, BOB, seat as sm_seat, table as sm_table  # noqa: E402

from referee.games import cabo as C  # noqa: E402
from referee.games import ratatat as R  # noqa: E402
from referee.games import shithead as sh  # noqa: E402
from referee.games import spite_malice as sm  # noqa: E402
from referee.games.base import Correct, Override, ResolveFlag, Ruling, Undo  # noqa: E402
from referee.games.log import Log, replay, rulings  # noqa: E402

ANA, BEN, CY = 0, 1, 2


def run(game, state, *moves):
    for move in moves:
        state, _ = game.apply(state, move)
    return state


def ruling(game, state, move) -> Ruling:
    with pytest.raises(Ruling) as info:
        game.apply(state, move)
    return info.value


def rtc():
    return run(R, R.new_match(["Ana", "Ben", "Cy"]), R.TurnUp("5"))


def cabo():
    return run(C, C.new_match(["Ana", "Ben", "Cy"]), C.TurnUp(None))


# --- GEN-7: entries by the wrong seat ----------------------------------------------------------------

def test_GEN_7_rtc_a_draw_out_of_turn_is_refused_and_can_be_overridden():
    state = rtc()
    r = ruling(R, state, R.Draw(BEN))
    assert r.rule == "GEN-7" and r.overridable
    state = run(R, state, Override(R.Draw(BEN), "GEN-7", "Ana let Ben go", ANA), R.Discard(BEN))
    assert state.round.turn == CY, "play goes on clockwise from the player who took the turn"


def test_GEN_7_rtc_a_step_of_someone_elses_turn_names_whose_turn_it_is():
    state = run(R, rtc(), R.Draw(ANA))
    for move in (R.Replace(BEN, 1), R.Discard(BEN), R.UsePower(BEN, "PEEK")):
        r = ruling(R, state, move)
        assert r.rule == "GEN-7" and "Ana's turn" in r.message and not r.overridable
    assert ruling(R, state, R.Draw(BEN)).rule == "GEN-7", "Ana is in the middle of her turn"
    state = run(R, state, R.UsePower(ANA, "SWAP"))
    assert ruling(R, state, R.Swap(BEN, 1, ANA, 1)).rule == "GEN-7"
    state = run(R, run(R, rtc(), R.Draw(ANA)), R.UsePower(ANA, "PEEK"))
    assert ruling(R, state, R.Peek(BEN, 1)).rule == "GEN-7"


def test_GEN_7_cabo_a_step_of_someone_elses_turn_names_whose_turn_it_is():
    state = run(C, cabo(), C.Draw(ANA))
    for move in (C.Replace(BEN, 1), C.Discard(BEN), C.UsePower(BEN, "7")):
        r = ruling(C, state, move)
        assert r.rule == "GEN-7" and "Ana's turn" in r.message
    r = ruling(C, cabo(), C.Draw(BEN))
    assert r.rule == "GEN-7" and r.overridable


def test_GEN_7_shithead_play_and_pickup_out_of_turn():
    state = sh_table(plays=[(3, "5H")])
    for move in (sh.Play(BEA, ("9S",)), sh.Pickup(BEA)):
        r = ruling(sh, state, move)
        assert r.rule == "GEN-7" and r.overridable


def test_GEN_7_spite_malice_players_alternate():
    state = sm_table(center=("AS",))
    for move in (sm.Build(BOB, 1, "hand", "2H"), sm.Discard(BOB, 1, "3C")):
        r = ruling(sm, state, move)
        assert r.rule == "SM-22" and "Ann's turn" in r.message


# --- GEN-5: overrides --------------------------------------------------------------------------------

def _override_waives_once(game, state, move, rule, again):
    """``move`` is refused under ``rule``; overridden it stands and is recorded with who and why; the
    same breach in a later entry (``again(state)``) is refused again."""
    assert ruling(game, state, move).rule == rule
    after, events = game.apply(state, Override(move, rule, "the table agrees", 0))
    assert events[-1] == {"kind": "override", "rule": rule, "reason": "the table agrees",
                          "by": after.players[0]}
    eid, orule, reason, seat, message, entries = after.overrides[-1]
    assert orule == rule and reason == "the table agrees" and seat == 0 and message and eid in entries
    later_state, later_move = again(after)
    assert ruling(game, later_state, later_move).rule == rule, "the override covered that one entry only"
    return after


def test_GEN_5_rtc_override_of_rtc_12_is_recorded_and_waived_for_that_entry_only():
    state = run(R, rtc(), R.Draw(ANA), R.Discard(ANA, "PEEK"))

    def again(s):
        s = run(R, s, R.Replace(BEN, 1), R.Draw(CY), R.Discard(CY, "SWAP"))
        return s, R.TakeDiscard(ANA)
    _override_waives_once(R, state, R.TakeDiscard(BEN), "RTC-12", again)


def test_GEN_5_cabo_override_out_of_turn_only_once():
    state = cabo()

    def again(s):
        s = run(C, s, C.Discard(BEN))
        return s, C.Draw(ANA)  # Cy's turn now
    _override_waives_once(C, state, C.Draw(BEN), "GEN-7", again)


def test_GEN_5_shithead_override_of_a_low_card_only_once():
    state = sh_table(plays=[(3, "QH")])

    def again(s):
        return s, sh.Play(s.turn, ("4S",))
    after = _override_waives_once(sh, state, sh.Play(ARI, ("9S",)), "SH-12", again)
    assert after.pile[-1].card == "9S"


def test_GEN_5_spite_malice_override_of_a_build_only_once():
    state = sm_table()

    def again(s):
        return s, sm.Build(ANN, 2, "hand", "3H")
    after = _override_waives_once(sm, state, sm.Build(ANN, 1, "hand", "2H"), "SM-12", again)
    assert after.center == (("2H",),)


@pytest.mark.parametrize("game,state,move,rule", [
    (R, "rtc", R.Draw(ANA), "RTC-12"),
    (C, "cabo", C.Draw(ANA), "GEN-7"),
    (sh, "sh", sh.Play(ARI, ("9S",)), "SH-12"),
    (sm, "sm", sm.Build(ANN, 1, "hand", "AH"), "SM-12"),
])
def test_GEN_5_an_override_of_a_rule_that_does_not_refuse_the_entry_is_refused(game, state, move, rule):
    state = {"rtc": rtc, "cabo": cabo, "sh": lambda: sh_table(plays=[(3, "5H")]), "sm": sm_table}[state]()
    r = ruling(game, state, Override(move, rule, "why"))
    assert r.rule == "GEN-5" and not r.overridable


def test_GEN_5_a_rule_no_override_can_bend_stays_refused():
    state = rtc()
    r = ruling(R, state, R.Reveal(ANA, ("1", "1", "1", "1")))
    assert r.rule == "RTC-43" and not r.overridable
    assert ruling(R, state, Override(R.Reveal(ANA, ("1", "1", "1", "1")), "RTC-43")).rule == "RTC-43"


def test_GEN_5_an_override_waives_only_the_rule_it_names():
    state = run(R, rtc(), R.Draw(ANA), R.Discard(ANA, "PEEK"))
    # Ben taking the Peek out of turn breaks GEN-7 and RTC-12: overriding one leaves the other.
    assert ruling(R, state, Override(R.TakeDiscard(CY), "GEN-7")).rule == "RTC-12"
    state = run(R, state, Override(Override(R.TakeDiscard(CY), "GEN-7"), "RTC-12"))
    assert [o[1] for o in state.overrides] == ["GEN-7", "RTC-12"] or [o[1] for o in state.overrides] == [
        "RTC-12", "GEN-7"]


def test_GEN_5_overrides_are_listed_among_the_rulings():
    log, steps = replay(R, R.new_match(["Ana", "Ben"]), [
        R.TurnUp("5"), Override(R.Draw(BEN), "GEN-7", "Ben was quicker", ANA), R.Discard(BEN)])
    found = rulings(log, steps)
    assert found == [{"event": 1, "verdict": "reject", "rule": "GEN-7", "message": found[0]["message"],
                      "entries": [1], "status": "overridden", "reason": "Ben was quicker", "by": "Ana"}]


# --- Flags and their resolution (GEN-4, GEN-5, GEN-10) ------------------------------------------------

def _rtc_flagged():
    state = run(R, R.new_match(["Ana", "Ben"]), R.TurnUp("2"), R.TakeDiscard(ANA), R.Replace(ANA, 3, "6"),
                R.Call(ANA), R.Draw(BEN), R.Discard(BEN))
    return run(R, state, R.Reveal(ANA, ("1", "1", "7", "1")), R.Reveal(BEN, ("2", "3", "4", "5")))


def test_GEN_4_flag_names_both_entries_and_holds_the_round():
    state = _rtc_flagged()
    flag = state.flags[0]
    assert flag.rule == "GEN-4" and flag.status == "open" and flag.entries == (0, 6)
    assert state.round is not None and not state.history


@pytest.mark.parametrize("decision,status", [("accept", "accepted"), ("override", "overridden")])
def test_GEN_5_flag_decided_once_then_the_round_is_scored(decision, status):
    state = run(R, _rtc_flagged(), ResolveFlag(0, decision, "looked again", BEN))
    assert state.flags[0].status == status and "by Ben" in state.flags[0].resolution
    assert state.history[-1].scores == {ANA: 10, BEN: 14}
    assert ruling(R, state, ResolveFlag(0, "accept")).rule == "GEN-5"


@pytest.mark.parametrize("game,state", [(R, rtc), (C, cabo), (sh, sh_table), (sm, sm_table)])
def test_GEN_5_deciding_a_flag_that_does_not_exist_is_refused(game, state):
    r = ruling(game, state(), ResolveFlag(0, "accept"))
    assert r.rule == "GEN-5" and not r.overridable


def test_GEN_4_cabo_known_card_turned_up_as_another_is_flagged_not_fixed():
    state = run(C, C.new_match(["Ana", "Ben"]), C.TurnUp("5"), C.Draw(ANA), C.Discard(ANA, "4"),
                C.TakeDiscard(BEN), C.Replace(BEN, 2))
    state = run(C, state, C.Call(ANA), C.Draw(BEN), C.Discard(BEN))
    state = run(C, state, C.Reveal(ANA, ("1", "1", "1", "1")), C.Reveal(BEN, ("2", "3", "2", "3")))
    assert [f.rule for f in state.flags] == ["GEN-4"] and not state.history


def test_GEN_4_shithead_flag_can_be_decided():
    s = sh.new_match(["Ari", "Bea", "Cal"], {"start_rank_zones": "hand_and_faceup"})
    s = run(sh, s, sh.FaceUp(ARI, ("4S", "10H", "10S")), sh.FaceUp(BEA, ("QH", "QS", "KH")),
            sh.FaceUp(CAL, ("JH", "JS", "KS")), sh.Start(CAL, "5C"))
    assert [f.rule for f in s.flags] == ["SH-K7"]
    s = run(sh, s, ResolveFlag(0, "override", "Ari's 4 was misread", BEA))
    assert s.flags[0].status == "overridden"
    assert ruling(sh, s, ResolveFlag(0, "accept")).rule == "GEN-5"


# --- GEN-13: undo and corrections are entries ---------------------------------------------------------

@pytest.mark.parametrize("game,state,first,second", [
    (R, rtc, R.Draw(ANA), R.Discard(ANA, "3")),
    (C, cabo, C.Draw(ANA), C.Discard(ANA, "3")),
    (sh, lambda: sh_table(plays=[(3, "5H")]), sh.Play(ARI, ("9S",)), sh.Play(BEA, ("JS",))),
    (sm, lambda: sm_table(center=("AS",)), sm.Build(ANN, 1, "hand", "2H"), sm.Build(ANN, 1, "hand", "3H")),
])
def test_GEN_13_undo_is_an_entry_and_steps_back(game, state, first, second):
    start = state()
    log, steps = replay(game, start, [first, second, Undo(0, "mis-tap")])
    assert all(s.accepted for s in steps) and steps[2].events[0] == {"kind": "undone", "entry": 1}
    assert log.positions() == [0]
    once, _ = replay(game, start, [first])
    assert game.state_to_dict(log.state) == game.state_to_dict(once.state)
    log, step = log.feed(Undo(0))
    assert log.positions() == [] and game.state_to_dict(log.state) == game.state_to_dict(start)
    with pytest.raises(Ruling) as info:
        log.feed(Undo(0))
    assert info.value.rule == "GEN-13"


@pytest.mark.parametrize("game,state,moves,target,fixed,gone", [
    (R, rtc, [R.Draw(ANA), R.UsePower(ANA, "DRAW2"), R.Draw(ANA), R.Replace(ANA, 1)], 1,
     R.UsePower(ANA, "PEEK"), [(2, "RTC-13"), (3, "RTC-13")]),
    (sh, lambda: sh_table(plays=[(3, "5H")]), [sh.Play(ARI, ("9S",)), sh.Play(BEA, ("JS",))], 0,
     sh.Play(ARI, ("QS",)), [(1, "SH-12")]),
    (sm, lambda: sm_table(center=("AS",)), [sm.Build(ANN, 1, "hand", "2H"), sm.Build(ANN, 1, "hand", "3H")], 0,
     sm.Build(ANN, 2, "hand", "AH"), [(1, "SM-12")]),
])
def test_GEN_13_a_correction_replays_what_followed_and_reports_what_no_longer_fits(
        game, state, moves, target, fixed, gone):
    log, steps = replay(game, state(), moves)
    assert all(s.accepted for s in steps)
    log, step = log.feed(Correct(target, fixed, "it was another card", 1))
    assert [(d["entry"], d["rule"]) for d in step.later] == gone
    assert target in log.positions() and all(p not in log.positions() for p, _ in gone)
    assert step.events[-1] == {"kind": "corrected", "entry": target, "reason": "it was another card"}


def test_GEN_13_a_stored_entry_that_no_longer_applies_is_recorded_as_refused_on_replay():
    log, steps = replay(R, R.new_match(["Ana", "Ben"]), [R.TurnUp("5"), R.Draw(BEN), R.Draw(ANA),
                                                         R.Discard(ANA)])
    assert [s.accepted for s in steps] == [True, False, True, True]
    assert steps[1].ruling.rule == "GEN-7" and log.positions() == [0, 2, 3]


# --- GEN-14: unknown cards everywhere -------------------------------------------------------------------

def test_GEN_14_rtc_a_whole_round_with_unknown_cards_until_the_reveal():
    state = run(R, R.new_match(["Ana", "Ben"]), R.TurnUp(None), R.InitialPeek(ANA, (1, 4)), R.Draw(ANA),
                R.Replace(ANA, 2, None), R.TakeDiscard(BEN, None), R.Replace(BEN, 1, None), R.Call(BEN),
                R.Draw(ANA), R.UsePower(ANA, "SWAP"), R.Swap(ANA, 1, BEN, 1))
    assert state.round.step == "reveal"
    assert ruling(R, state, R.Reveal(ANA, (None, "1", "2", "3"))).rule == "RTC-50", "scores need the cards"


def test_GEN_14_cabo_unknown_cards():
    state = run(C, C.new_match(["Ana", "Ben"]), C.TurnUp(None), C.Draw(ANA), C.Replace(ANA, 2, None),
                C.TakeDiscard(BEN), C.Replace(BEN, 1, None))
    assert state.round.turn == ANA


def test_GEN_14_shithead_unknown_face_up_cards_and_face_down_plays():
    s = sh.new_match(["Ari", "Bea"])
    s = run(sh, s, sh.FaceUp(ARI, (None, None, None)), sh.FaceUp(BEA, ("9H", None, "KD")))
    assert s.seats[ARI].faceup == (None, None, None)


def test_GEN_14_spite_malice_unknown_pay_off_top_takes_the_claimed_card():
    s = sm_table(seats={ANN: sm_seat(top=None)}, center=("AS",))
    s = run(sm, s, sm.Build(ANN, 1, "payoff", "2C"))
    assert s.center == (("AS", "2C"),)


# --- GEN-3 conservation in every game ----------------------------------------------------------------

def test_GEN_3_every_game_refuses_one_sighting_too_many():
    s = run(R, R.new_match(["Ana", "Ben"]), R.TurnUp("PEEK"), R.TurnUp("PEEK"), R.TurnUp("PEEK"), R.TurnUp("1"))
    # Power cards sent back into the draw pile are not on the table: the fourth Peek is not counted as seen.
    assert s.round.discard[-1].value == "1"
    s = run(R, R.new_match(["Ana", "Ben"]), R.TurnUp("1"))
    for seat in (ANA, BEN, ANA):
        s = run(R, s, R.Draw(seat), R.Discard(seat, "1"))
    s = run(R, s, R.Draw(BEN))
    assert ruling(R, s, R.Discard(BEN, "1")).rule == "GEN-3"
    c = run(C, C.new_match(["Ana", "Ben"]), C.TurnUp("0"), C.Draw(ANA), C.Discard(ANA, "0"), C.Draw(BEN))
    said = ruling(C, c, C.Discard(BEN, "0"))
    assert said.rule == "GEN-3", "Cabo has two 0s"
    assert "only 2 × 0, and 2 are already known" in said.message
    c = run(C, C.new_match(["Ana", "Ben"], {"deck": "standard"}), C.TurnUp("7H"), C.Draw(ANA))
    said = ruling(C, c, C.Discard(ANA, "7H"))
    assert said.rule == "GEN-3" and "only 1 × 7♥, and 1 is already known" in said.message, said.message
    t = sh_table(plays=[(3, "5H 5S 5D")])
    assert ruling(sh, t, sh.Play(ARI, ("5H",))).rule in ("GEN-3", "SH-K5")
