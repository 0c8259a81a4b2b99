"""The redaction every game with private sightings shares (GEN-6): overrides and corrections wrapped, a
seat's own entries whole, another seat's through the game's own ``hide``."""
from __future__ import annotations

from types import SimpleNamespace

from referee.games.redaction import entry_seat, redact_entry

STATE = SimpleNamespace(players=("Ana", "Ben", "Cy"))


def _hide(state, entry):
    return {**entry, "seen": "unknown"} if "seen" in entry else entry


def test_another_seats_entry_goes_through_the_games_hide_and_the_own_seats_stays_whole():
    peek = {"move": "peek", "seat": "Ben", "slot": 1, "seen": "7"}
    assert redact_entry(STATE, peek, 0, 0, _hide)["seen"] == "unknown"
    assert redact_entry(STATE, peek, 1, 0, _hide) == peek
    assert redact_entry(STATE, peek, None, 0, _hide)["seen"] == "unknown"  # a spectator


def test_overrides_are_redacted_inside_however_deep():
    inner = {"move": "peek", "seat": "Ben", "slot": 1, "seen": "7"}
    wrapped = {"move": "override", "rule": "X-1", "entry": {"move": "override", "rule": "X-2", "entry": inner}}
    out = redact_entry(STATE, wrapped, 0, 0, _hide)
    assert out["entry"]["entry"]["seen"] == "unknown" and out["rule"] == "X-1"
    assert wrapped["entry"]["entry"]["seen"] == "7"  # the stored entry is left as it was


def test_a_correction_of_a_finished_round_is_whole_and_one_of_this_round_is_redacted():
    fixed = {"move": "peek", "seat": "Ben", "slot": 1, "seen": "7"}
    old = {"move": "correct", "seat": "Ben", "target": 3, "entry": fixed}
    assert redact_entry(STATE, old, 0, 10, _hide) == old  # entry 3 is before this round's start (10)
    current = {**old, "target": 12}
    assert redact_entry(STATE, current, 0, 10, _hide)["entry"]["seen"] == "unknown"
    assert redact_entry(STATE, {**old, "target": "12"}, 0, 10, _hide) == {**old, "target": "12"}


def test_an_entry_by_no_seat_or_not_a_dict_is_left_to_the_game_or_kept():
    assert entry_seat(STATE, {"seat": "Zed"}) is None and entry_seat(STATE, {}) is None
    assert entry_seat(STATE, {"seat": "Cy"}) == 2
    assert redact_entry(STATE, ["not", "an", "entry"], 0, 0, _hide) == ["not", "an", "entry"]
    assert redact_entry(STATE, {"move": "peek", "seen": "7"}, 0, 0, _hide)["seen"] == "unknown"
