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


def test_GEN_3_a_bad_card_name_says_what_a_card_looks_like_not_the_whole_deck():
    """A card name the deck lacks is told what a card name looks like (7H, 10S, QD), not all 52 names."""
    for deck in (standard_deck(), standard_deck(jokers=2)):
        with pytest.raises(EntryError) as refused:
            parse_card("ZZ", deck, "card")
        said = refused.value.message
        assert "is not a card of this deck" in said and "a card such as 7H, 10S or QD" in said, said
        assert "AS" not in said and "KC" not in said and len(said) < 100, said
    with pytest.raises(EntryError) as refused:  # a small deck of its own is still named in full
        parse_card("QS", DECK, "card")
    assert "PEEK" in refused.value.message and "0" in refused.value.message
