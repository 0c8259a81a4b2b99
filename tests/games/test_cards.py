"""Card names and deck compositions."""
from __future__ import annotations

import pytest

from referee.games.base import EntryError
from referee.games.cards import parse_card, sentence_start, standard_deck
from referee.games.ratatat_cards import RTC_DECKS, card_words

DECK = RTC_DECKS["classic_54"]


@pytest.mark.parametrize("raw,card", [("peek", "PEEK"), ("Draw 2", "DRAW2"), (7, "7"), ("unknown", None),
                                      (None, None), ("?", None), (" swap ", "SWAP")])
def test_parse_card(raw, card):
    assert parse_card(raw, DECK, "card") == card


@pytest.mark.parametrize("raw", ["10", "SUPERPEEK", True, 3.0, [], "QS"])
def test_parse_card_refuses_what_the_deck_lacks(raw):
    with pytest.raises(EntryError):
        parse_card(raw, DECK, "card")


def test_standard_deck_and_words():
    deck = standard_deck(jokers=2)
    assert sum(deck.values()) == 54 and deck["10H"] == 1 and deck["JOKER"] == 2
    assert sum(standard_deck(copies=2).values()) == 104
    assert card_words("8") == "an 8" and card_words("DRAW2") == "a Draw 2" and card_words(None) == "an unknown card"
    assert sentence_start("a Draw 2") == "A Draw 2"
