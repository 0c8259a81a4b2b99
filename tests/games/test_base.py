"""The shared vocabulary: house-rule switches, rulings, seats."""
from __future__ import annotations

import pytest

from referee.games.base import (EntryError, Flag, Ruling, Variant, changed_rules, name_key, normalise_name,
                               normalise_players, resolve_rules, seat_index, show)
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


@pytest.mark.parametrize("given,kept", [
    ("Ana", "Ana"), ("  Ana\t ", "Ana"), ("A\u0301na", "\u00c1na"),  # NFC: one code point for Á
    ("\U0001f469\u200d\U0001f469\u200d\U0001f467", "\U0001f469\u200d\U0001f469\u200d\U0001f467"),  # ZWJ inside an emoji
    ("Zoë O'Neil", "Zoë O'Neil"), ("x" * 40, "x" * 40),
])
def test_names_are_kept_normalised(given, kept):
    assert normalise_name(given) == kept


@pytest.mark.parametrize("given,why", [
    ("Ana\x00", "U+0000"), ("Ana\x1b[2J", "U+001B"), ("Ana\nentry 3: REJECT", "U+000A"),
    ("Ana\u202e", "U+202E"), ("\u200bAna", "U+200B"), ("Ana\u2028Ben", "U+2028"), ("\ud800", "U+D800"),
    ("", "shows"), ("   ", "shows"), ("\u3164", "shows"), ("\u0301\u0301", "shows"), ("x" * 41, "at most 40"),
    ("x" * 10_000, "at most 40"), (7, "text"), (None, "text"),
])
def test_names_that_cannot_be_shown_or_forge_a_line_are_refused(given, why):
    with pytest.raises(EntryError) as info:
        normalise_name(given, "players[0]")
    assert why in info.value.message and info.value.field == "players[0]"


def test_two_names_the_table_cannot_tell_apart_are_refused():
    assert name_key("A N A") == name_key("ana") == name_key("\uff21na")  # spaces, case, full width
    with pytest.raises(EntryError) as info:
        normalise_players(["Ana", "ANA\u0301"[:3]])
    assert info.value.field == "players"
    assert normalise_players(["Ana", " Ben "]) == ("Ana", "Ben")


def test_seats_are_found_by_the_normalised_name():
    assert seat_index("BEN", PLAYERS, "seat") == 1
    with pytest.raises(EntryError):
        seat_index("B" * 10_000, PLAYERS, "seat")


def test_messages_show_hostile_values_briefly():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert len(show(deep)) < 50 and len(show("x" * 10_000)) < 50
    with pytest.raises(EntryError) as info:
        seat_index({"a": deep}, PLAYERS, "seat")
    assert len(info.value.message) < 100


def test_house_rule_numbers_are_bounded():
    with pytest.raises(EntryError) as info:
        resolve_rules(VARIANTS, {"rounds_n": 10 ** 4000})
    assert info.value.field == "rules.rounds_n"
    with pytest.raises(EntryError):
        resolve_rules(VARIANTS, {"rounds_n": 2.0})


def test_GEN_5_a_decision_on_a_dispute_is_taken_once_and_only_as_the_dispute_reads():
    """One rule for every engine (it was written three times): a decision names the dispute as it read, takes
    it once, and says who decided at which entry."""
    from referee.games.base import ResolveFlag, decide_flag, flag_about

    def refuse(rule, message):
        raise Ruling(rule, message)

    flags = (Flag(0, "GEN-4", "Ana's card was known to be 2", (3,), 5),)
    about = flag_about("GEN-4", "Ana's card was known to be 2")
    new, status = decide_flag(flags, ResolveFlag(0, "override", "she moved it", 1, about), "Ben", 9, refuse)
    assert status == "overridden" and new[0].resolution == "overridden by Ben at entry 9: she moved it"
    assert flags[0].status == "open"  # the flags given are not changed
    for flag_number, said, why in ((1, about, "no such dispute"), (0, "0123456789ab", "reads differently")):
        with pytest.raises(Ruling, match=why) as refused:
            decide_flag(flags, ResolveFlag(flag_number, "accept", "", 1, said), "Ben", 9, refuse)
        assert refused.value.rule == "GEN-5"
    with pytest.raises(Ruling, match="decided already"):
        decide_flag(new, ResolveFlag(0, "accept", "", 1, about), "Ben", 10, refuse)
    reworded = decide_flag(flags, ResolveFlag(0, "accept", "", 1, flag_about("GEN-4", "old words")), "Ben", 9, refuse,
                           ("old words",))
    assert reworded[1] == "accepted"
