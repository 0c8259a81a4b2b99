"""A phone's transcript download: another seat's private values of the round in progress are left out
(GEN-6, RTC-K11), and the redacted log still replays to the same public state."""
from __future__ import annotations

import json

from referee.games import ratatat as R
from referee.games.log import replay
from referee.games.base import Correct, Override
from referee.games.ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace, Reveal, TurnUp,
                                         UsePower, move_to_dict)

from .ratatat_helpers import ANA, BEN, CY, NAMES, match

PRIVATE = ["7", "3", "8"]  # Ana's private sightings below


def _log(moves, n=3, **rules):
    players = NAMES[:n]
    start = match(n, **rules)
    log, steps = replay(R, start, moves)
    assert all(s.accepted for s in steps), [s.ruling for s in steps if not s.accepted]
    return start, log.state, [move_to_dict(m, players) for m in moves]


def _replayed(start, entries):
    moves = [R.parse_move(e, start.players, start.rules) for e in entries]
    log, steps = replay(R, start, moves)
    assert all(s.accepted for s in steps)
    return log.state


def _round_two_in_progress():
    """Round 1 (with Ana's peeks) is over; in round 2 Ana peeks, draws unseen and peeks again."""
    round1 = [TurnUp("5"), InitialPeek(ANA, (1, 4), ("1", "2")), Draw(ANA, "4"), Replace(ANA, 2, "6"),
              Call(ANA), Draw(BEN), Discard(BEN, "9"), Draw(CY), Discard(CY, "9"),
              Reveal(ANA, ("1", "4", "0", "2")), Reveal(BEN, ("3", "3", "3", "3")),
              Reveal(CY, ("7", "7", "7", "8"))]
    round2 = [TurnUp("0"), InitialPeek(ANA, (1, 4), ("7", None)), InitialPeek(BEN, (1, 4), ("2", "2")),
              Draw(BEN), Discard(BEN, "8"), Draw(CY), Discard(CY, "9"),
              Draw(ANA, "3"), Replace(ANA, 3, "6"), Draw(BEN), UsePower(BEN, "PEEK"), Peek(BEN, 1, seen="4"),
              Draw(CY), Discard(CY, "9"), Draw(ANA), UsePower(ANA, "PEEK"), Peek(ANA, 2, seen="8")]
    start, state, entries = _log(round1 + round2, rounds_n=3)
    assert state.round.number == 2 and state.round.first_entry == len(round1)
    return start, state, entries, len(round1)


def test_another_seats_private_values_are_left_out_of_the_round_in_progress():
    start, state, entries, first = _round_two_in_progress()
    out = R.redact(state, entries, BEN)
    assert out[:first] == entries[:first], "a finished round is whole"
    ana_private = [e for e in out[first:] if e.get("seat") == "Ana" and e["move"] in ("initial_peek", "draw", "peek")]
    assert [e.get("seen", e.get("card")) for e in ana_private] == [["unknown", "unknown"]] + ["unknown"] * 3
    bens = [e for e in out[first:] if e.get("seat") == "Ben" and e["move"] in ("initial_peek", "peek")]
    assert [e["seen"] for e in bens] == [["2", "2"], "4"], "the viewer's own sightings are kept"
    for viewer in (BEN, CY, None):
        text = json.dumps(R.redact(state, entries, viewer)[first:])
        assert '"7"' not in text and '"3"' not in text and '"seen": "8"' not in text
    for viewer in (ANA, BEN, CY):
        mine = NAMES[viewer]
        assert ([e for e in R.redact(state, entries, viewer) if e.get("seat") == mine]
                == [e for e in entries if e.get("seat") == mine])


def test_redacted_entries_replay_to_the_same_public_state():
    start, state, entries, _ = _round_two_in_progress()
    for viewer in (ANA, BEN, CY, None):
        again = _replayed(start, R.redact(state, entries, viewer))
        assert R.view(again, None) == R.view(state, None)
        if viewer is not None:
            assert R.view(again, viewer) == R.view(state, viewer), "the viewer's own notes survive"
        assert again.history == state.history and again.flags == state.flags


def test_view_never_shows_another_seats_private_value():
    _, state, _, _ = _round_two_in_progress()
    for viewer in (BEN, CY, None):
        text = json.dumps(R.view(state, viewer)["round"])
        assert '"mine": "7"' not in text and '"mine": "3"' not in text and '"mine": "8"' not in text
    mine = R.view(state, ANA)["round"]["rows"]["Ana"]["slots"]
    assert [s["mine"] for s in mine] == ["7", "8", "3", None]


def test_peeks_inside_overrides_and_corrections_are_left_out():
    moves = [TurnUp("5"), Draw(ANA), UsePower(ANA, "PEEK"), Peek(ANA, 1, seen="7"),
             Correct(3, Peek(ANA, 2, seen="3"), "the other card", ANA),
             Override(Draw(ANA, "8"), "GEN-7", "she goes again", BEN)]
    start, state, entries = _log(moves)
    out = R.redact(state, entries, BEN)
    assert out[4]["entry"]["seen"] == "unknown" and out[5]["entry"]["card"] == "unknown"
    assert "7" not in json.dumps(out[3]) and out[4]["reason"] == "the other card"
    assert R.view(_replayed(start, out), None) == R.view(state, None)


def test_a_power_card_the_table_overrode_into_a_row_is_not_hidden():
    moves = [TurnUp("5"), Draw(ANA, "SWAP"),
             Override(Replace(ANA, 2, "6"), "RTC-15", "house rule slip", BEN), Draw(BEN, "4")]
    start, state, entries = _log(moves, power_into_row="forbidden")
    out = R.redact(state, entries, CY)
    assert out[1]["card"] == "SWAP" and out[3]["card"] == "unknown"
    assert R.view(_replayed(start, out), None) == R.view(state, None)


def test_a_finished_match_and_a_revealed_round_are_whole():
    moves = [TurnUp("5"), InitialPeek(ANA, (1, 4), ("1", "2")), Draw(ANA), Discard(ANA, "9"), Call(ANA),
             Draw(BEN), Discard(BEN, "9"), Reveal(ANA, ("1", "1", "1", "3")), Reveal(BEN, ("4", "4", "4", "4"))]
    start, state, entries = _log(moves, n=2, rounds_n=1)
    assert R.awaiting_flags(state) == (0,), "held: Ana noted a 2 in slot 4, it showed a 3 (GEN-6)"
    assert R.redact(state, entries, BEN) == entries, "every card is shown: the notes were checked"
    start, state, entries = _log([*moves[:7], Reveal(ANA, ("1", "1", "1", "2")), moves[8]], n=2, rounds_n=1)
    assert state.over and R.redact(state, entries, None) == entries
