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
