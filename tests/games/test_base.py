"""The shared vocabulary: house-rule switches, rulings, seats."""
from __future__ import annotations

import pytest

from referee.games.base import EntryError, Flag, Ruling, Variant, changed_rules, resolve_rules, seat_index
from referee.games.ratatat_rules import VARIANTS

PLAYERS = ("Ana", "Ben")


def test_every_switch_has_its_default_and_a_rule_id():
    rules = resolve_rules(VARIANTS, {})
    assert rules["tie_policy"] == "all_lowest" and rules["rounds_n"] == 3
    assert all(v.rule.startswith("RTC-V") for v in VARIANTS)
    assert changed_rules(VARIANTS, rules) == {}
    assert changed_rules(VARIANTS, resolve_rules(VARIANTS, {"tie_policy": "no_winner"})) == {
        "tie_policy": "no_winner"}


@pytest.mark.parametrize("given,field", [({"nope": 1}, "rules.nope"), ({"tie_policy": 3}, "rules.tie_policy"),
                                         ({"rounds_n": True}, "rules.rounds_n"),
                                         ({"stalemate_rotations": 0}, "rules.stalemate_rotations")])
def test_bad_switches_name_the_field(given, field):
    with pytest.raises(EntryError) as info:
        resolve_rules(VARIANTS, given)
    assert info.value.field == field


def test_optional_integer_switch_accepts_none():
    v = Variant("x", "T-V1", "x", None, minimum=1, allow_none=True)
    assert v.check(None) is None and v.check(3) == 3


def test_ruling_words_and_dict():
    r = Ruling("RTC-34", "no second draw", (4, 2))
    assert str(r) == "REJECT RTC-34: no second draw"
    assert r.to_dict() == {"verdict": "reject", "rule": "RTC-34", "message": "no second draw", "entries": [4, 2]}
    flag = Flag(0, "GEN-4", "mismatch", (1, 5), 5)
    assert Flag.from_dict(flag.to_dict()) == flag


def test_seats_by_name_or_index():
    assert seat_index("ben", PLAYERS, "seat") == 1 and seat_index(0, PLAYERS, "seat") == 0
    for bad in ("Cy", 2, -1, True, 1.5):
        with pytest.raises(EntryError):
            seat_index(bad, PLAYERS, "seat")
