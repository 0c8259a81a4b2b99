"""A rule's plain words follow the table's house rules (RULES.md SM-12 with SM-V4): where a king may not
start a pile, SM-12 does not say that it may."""
from __future__ import annotations

from referee.games import spite_malice as sm


def test_SM_T05_the_words_of_SM_12_follow_king_can_start_stack():
    default = sm.new_match(("Ann", "Bob")).rules
    assert "may start a pile as its ace" in sm.rule_text("SM-12", default)
    assert sm.rule_text("SM-12", default) == sm.rule_text("SM-12")
    kingless = sm.new_match(("Ann", "Bob"), {"king_can_start_stack": False}).rules
    words = sm.rule_text("SM-12", kingless)
    assert "may start a pile" not in words.replace("it may not start a pile", "")
    assert "at this table it may not start a pile" in words
    assert sm.rule_text("SM-13", kingless) == sm.rule_text("SM-13")  # other rules read as the book does


def test_three_or_four_players_read_of_three_decks_in_SM_2_and_SM_K7():
    """SM-V14: three or four players play with three decks; the rules page said two decks, 104 cards and 8 of
    each rank (the table itself counted 12)."""
    four = sm.new_match(("Ann", "Bob", "Cy", "Di")).rules
    assert "Three standard decks" in sm.rule_text("SM-2", four) and "156 cards" in sm.rule_text("SM-2", four)
    assert "12 cards of each rank" in sm.rule_text("SM-K7", four)
    two = sm.new_match(("Ann", "Bob")).rules
    assert sm.rule_text("SM-2", two) == sm.rule_text("SM-2") and "104 cards" in sm.rule_text("SM-2", two)
    assert sm.rule_text("SM-K7", two) == sm.rule_text("SM-K7")
