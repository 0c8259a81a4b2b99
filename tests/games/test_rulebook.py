"""Every rule the engine can cite has its plain sentence."""
from __future__ import annotations

import re
from pathlib import Path

from referee.games.rulebook import RULES, rule_text

ENGINE = Path(__file__).resolve().parents[2] / "referee" / "games"


def test_every_rule_cited_by_the_engine_is_stated():
    cited = set()
    for module in [*ENGINE.glob("ratatat*.py"), ENGINE / "log.py"]:
        cited |= set(re.findall(r'"((?:RTC|GEN)-\d+)"', module.read_text()))
    missing = sorted(cited - set(RULES))
    assert not missing, missing
    assert rule_text("RTC-34").startswith("Draw 2") and rule_text("XYZ-1") == ""


# --- A rule's words under the table's house rules (rulebook.house_rule_words) -------------------------

def _table(game, players=("Ana", "Ben"), **switches):
    return game.new_match(players, switches).rules


def test_SH_T07_where_a_10_may_not_burn_a_7_SH_33_does_not_offer_the_10():
    from referee.games import shithead as SH

    book = SH.rule_text("SH-33")
    assert "2, 3 or 10" in book and SH.rule_text("SH-33", _table(SH)) == book
    blocked = SH.rule_text("SH-33", _table(SH, ten_after_seven="blocked"))
    assert "(or a 2 or 3)" in blocked and "a 10 may not burn a 7" in blocked
    both = SH.rule_text("SH-33", _table(SH, ten_after_seven="blocked", three_is_normal=True))
    assert "(or a 2)" in both and "3" not in both.replace("a 7", "")
    assert "2 or 10" in SH.rule_text("SH-33", _table(SH, three_is_normal=True))
    for more in ({"nine_reverse": "strong"}, {"specials_anytime": True}, {"jokers": True}):  # the ruling lists them
        assert SH.rule_text("SH-33", _table(SH, **more)).endswith("or a card that goes on anything at this table.")


def test_SH_T19_SH_18_reads_as_the_table_plays_its_face_up_cards():
    from referee.games import shithead as SH

    assert "picked up with the pile" in SH.rule_text("SH-18", _table(SH))
    stays = SH.rule_text("SH-18", _table(SH, faceup_fail_takes_card=False))
    assert "one at a time" in stays and "the card stays face up" in stays
    together = SH.rule_text("SH-18", _table(SH, faceup_play="same_rank_set", faceup_fail_takes_card=False))
    assert "several of one rank" in together and "one at a time" not in together


def test_SM_43_names_the_tables_match_target():
    from referee.games import spite_malice as SM

    assert SM.rule_text("SM-43", _table(SM)) == SM.rule_text("SM-43")  # the default: 50
    assert SM.rule_text("SM-43", _table(SM, match_target=120)).startswith("A match is played to 120 points")
    assert "to 1 point:" in SM.rule_text("SM-43", _table(SM, match_target=1))
    assert "single game" in SM.rule_text("SM-43", _table(SM, match_target=None))
    assert "no points" in SM.rule_text("SM-43", _table(SM, scoring="none", match_target=120))


def test_SM_13_SM_18_and_SM_41_follow_their_switches():
    from referee.games import spite_malice as SM

    assert SM.rule_text("SM-18", _table(SM)) == SM.rule_text("SM-18")
    assert "at most 6 of them" in SM.rule_text("SM-18", _table(SM, max_side_stacks=6))
    assert "only one" in SM.rule_text("SM-18", _table(SM, max_side_stacks=1))
    ordered = SM.rule_text("SM-18", _table(SM, side_stack_order="same_or_one_lower", max_side_stacks=2))
    assert "same rank as the stack's top card or one lower" in ordered and "at most 2 side stacks" in ordered
    assert "Only one building pile" in SM.rule_text("SM-13", _table(SM, max_center_stacks=1))
    assert "Any number" in SM.rule_text("SM-13", _table(SM, max_center_stacks=None))
    assert SM.rule_text("SM-13", _table(SM)) == SM.rule_text("SM-13")
    assert "it is a draw" in SM.rule_text("SM-41", _table(SM, stock_exhaustion="draw"))


def test_CAB_T03_CAB_7_names_the_powers_of_the_tables_deck():
    from referee.games import cabo as CAB

    cabo = CAB.rule_text("CAB-7", _table(CAB))
    assert "11 and 12 swap one of your cards" in cabo and "king" not in cabo and "jack" not in cabo
    assert "any two cards" in CAB.rule_text("CAB-7", _table(CAB, swap_power_scope="any_two"))
    standard = CAB.rule_text("CAB-7", _table(CAB, deck="standard"))
    assert "jacks and queens swap" in standard and "a black king looks" in standard
    queens = CAB.rule_text("CAB-7", _table(CAB, deck="standard_jokers", look_and_swap="queens"))
    assert "jacks swap" in queens and "a queen looks" in queens
    off = CAB.rule_text("CAB-7", _table(CAB, deck="standard", look_and_swap="off"))
    assert "looks at one of each" not in off and off.endswith("with another player's unseen.")


def test_house_rule_words_say_the_first_entry_that_fits_and_only_numbers_for_any_number():
    from referee.games.rulebook import ANY_NUMBER, house_rule_words

    words = {("X-1", (("a", True), ("n", ANY_NUMBER))): "both {n}", ("X-1", (("a", True),)): "a only"}
    assert house_rule_words(words, "X-1", {"a": True, "n": 7}) == "both 7"
    assert house_rule_words(words, "X-1", {"a": True, "n": None}) == "a only"
    assert house_rule_words(words, "X-1", {"a": 1, "n": 7}) is None  # 1 is not True
    assert house_rule_words(words, "X-2", {"a": True}) is None and house_rule_words(words, "X-1", None) is None


def test_RTC_20_RTC_40_RTC_6_and_RTC_30_read_as_the_tables_house_rules():
    from referee.games import ratatat as RTC

    assert RTC.rule_text("RTC-20", _table(RTC)) == RTC.rule_text("RTC-20")
    instead = _table(RTC, call_timing="instead_of_turn")
    assert "calling is a turn" in RTC.rule_text("RTC-20", instead)
    assert "at the start of their own turn" in RTC.rule_text("RTC-40", instead)
    assert "any two of their cards" in RTC.rule_text("RTC-6", _table(RTC, initial_peek="any_two"))
    assert "face up for everyone" in RTC.rule_text("RTC-6", _table(RTC, initial_peek="outer_face_up"))
    assert "must be used" in RTC.rule_text("RTC-30", _table(RTC, power_use_optional=False))
    assert RTC.rule_text("RTC-6", _table(RTC)) == RTC.rule_text("RTC-6")
