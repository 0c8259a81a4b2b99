"""The engines' new sentences (what goes on anything under the table's house rules, where a card already
is, whose place a GEN-4 card lies in) are read back by a pattern of referee/i18n_rulings.py, their parts
(the list of cards, the places) said again piece by piece: once the catalogues translate the messages,
a phone says them in its language."""
from __future__ import annotations

import pytest

from referee import i18n_rulings


def _marked(message: str) -> str:
    return "<" + message + ">"


def _plural(singular: str, plural: str, n: int) -> str:
    return _marked(singular if n == 1 else plural)


@pytest.mark.parametrize("sentence, said", [
    ("a J or higher, or a 2, 3, 9 or 10", "<a <Jack> or higher, or <a 2, 3, 9 or 10>>"),
    ("a 7 or lower, or a 2 or 3", "<a 7 or lower, or <a 2 or 3>>"),
    ("a Q or higher, or a 2, 3 or 10, or a joker", "<a <Queen> or higher, or <<a 2, 3 or 10>, or a joker>>"),
    ("an A or higher, or a 2, 3, 7, 8 or 10", "<a <Ace> or higher, or <a 2, 3, 7, 8 or 10>>"),
    ("a card of the 9's suit (♥), or a 2, 3 or 10", "<a card of the 9's suit (♥), or <a 2, 3 or 10>>"),
    ("a 7 or lower, or a 2", "<a 7 or lower, or <a 2>>"),
    ("The card to beat is the J: a 5 is lower (play a J or higher, or a 2, 3, 9 or 10).",
     "<The card to beat is the <Jack>: a 5 is lower (play a <Jack> or higher, or <a 2, 3, 9 or 10>).>"),
    ("A 7 under the 3s is on top: the next card must be a 7 or lower, or a 2, 3, 8 or 10.",  # said under the 3s too
     "<A 7 under the 3s is on top: the next card must be a 7 or lower, or <a 2, 3, 8 or 10>.>"),
    ("A 7 is on top: the next card must be a 7 or lower, or a 2, 3, 8 or 10.",
     "<A 7 is on top: the next card must be a 7 or lower, or <a 2, 3, 8 or 10>.>"),
    ("After the 9 the next card must be of its suit (♥), or a 2, 3, 7, 8, 9 or 10, or a joker.",
     "<After the 9 the next card must be of its suit (♥), or <<a 2, 3, 7, 8, 9 or 10>, or a joker>.>"),
    ("Every K♦ is already somewhere else on the table (Mom's face-up cards, the pile): this must be a mis-tap or "
     "a misread photo.", "<Every K♦ is already somewhere else on the table (<Mom's face-up cards>, <the pile>): this "
                         "must be a mis-tap or a misread photo.>"),
    ("Every Q♠ is already somewhere else on the table (Dad's hand, the burned cards): this must be a mis-tap or a "
     "misread photo.", "<Every Q♠ is already somewhere else on the table (<Dad's hand>, <the burned cards>): this must "
                       "be a mis-tap or a misread photo.>"),
    ("The card in Dad's place 4 was known to be 9 (entry 5) but shows 8 now (entry 43).",
     "<The card in Dad's place 4 was known to be 9 (entry 5) but shows 8 now (entry 43).>"),
])
def test_each_new_sentence_is_read_by_its_pattern_and_said_piece_by_piece(sentence, said):
    assert i18n_rulings.say(sentence, _marked, _plural) == said


def test_the_default_rules_keep_the_messages_already_translated():
    """A table on the standard rules says what it said before: those sentences keep their own messages."""
    assert i18n_rulings.say("a 5 or higher, or a 2, 3 or 10", _marked, _plural) == "<a 5 or higher, or a 2, 3 or 10>"
    assert i18n_rulings.say("a 7 or lower, or a 2 or 10", _marked, _plural) == "<a 7 or lower, or a 2 or 10>"
    assert i18n_rulings.say("Every K♦ is already somewhere else on the table: this must be a mis-tap or a misread "
                            "photo.", _marked, _plural) is not None
