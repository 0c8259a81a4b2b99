"""The cards of the Cabo / Cambio family (RULES.md §2.1): the decks, what each card scores (the value map,
CAB-V2) and which power it has when drawn and discarded (the power map, CAB-7, CAB-V14). Plain data: a
preset only chooses among them.

Codes: the Cabo deck's cards are "0"–"13"; a standard deck's are "AS", "10H", "KH" and "JOKER"
(``cards.standard_deck``). ``None`` is a card nobody saw.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from . import cards
from .cards import standard_deck

#: CAB-V1: the commercial Cabo deck (two 0s, four each of 1–12, two 13s), and a standard deck with or
#: without its two jokers.
CABO_DECK: Mapping[str, int] = MappingProxyType({"0": 2, **{str(n): 4 for n in range(1, 13)}, "13": 2})
DECKS: Mapping[str, Mapping[str, int]] = MappingProxyType({
    "cabo52": CABO_DECK,
    "standard_jokers": standard_deck(jokers=2),
    "standard": standard_deck(),
})
DECK_PLAYERS = {"cabo52": 5, "standard_jokers": 8, "standard": 8}  # the most players a deck seats

#: The powers (CAB-7): peek at your own card, spy on another player's, swap blind, look at two then
#: maybe swap them.
POWERS = ("peek", "spy", "swap", "look_swap")
_CABO_POWERS = {"7": "peek", "8": "peek", "9": "spy", "10": "spy", "11": "swap", "12": "swap"}
_STANDARD_POWERS = {"7": "peek", "8": "peek", "9": "spy", "10": "spy", "J": "swap", "Q": "swap"}
POWER_WORDS = {"peek": "a Peek", "spy": "a Spy", "swap": "a blind Swap", "look_swap": "a look-and-swap"}
RED = ("H", "D")


def is_standard(rules: Mapping[str, Any]) -> bool:
    return rules["deck"] != "cabo52"


def rank(card: str) -> str:
    """What snapping and matching compare (CAB-5, CAB-6): a Cabo card's number, a standard card's rank
    ("10H" → "10"; both kings are kings), "JOKER"."""
    if card.isdigit() or card == "JOKER":
        return card
    return card[:-1]


#: The value map of each set of switches met so far: (deck, red king, black king, joker, ace) -> points.
_POINT_TABLES: dict[tuple[Any, ...], dict[str, int]] = {}


def point_table(rules: Mapping[str, Any]) -> Mapping[str, int]:
    """What each card of the table's deck scores (CAB-V2), made once per value map."""
    key = (rules["deck"], rules["red_king"], rules["black_king"], rules["joker_value"], rules["ace_value"])
    table = _POINT_TABLES.get(key)
    if table is None:
        table = _POINT_TABLES[key] = {card: _points(card, rules) for card in DECKS[rules["deck"]]}
    return table


def points(card: str, rules: Mapping[str, Any]) -> int:
    """What ``card`` scores (CAB-V2): a Cabo card its number; a standard card by the value map, the
    red kings and the jokers by the table's switches."""
    value = point_table(rules).get(card)
    return _points(card, rules) if value is None else value


def _points(card: str, rules: Mapping[str, Any]) -> int:
    if card.isdigit():
        return int(card)
    if card == "JOKER":
        return rules["joker_value"]
    r = card[:-1]
    if r == "A":
        return rules["ace_value"]
    if r == "J":
        return 11
    if r == "Q":
        return 12
    if r == "K":
        return rules["red_king"] if card[-1] in RED else rules["black_king"]
    return int(r)


def power(card: str | None, rules: Mapping[str, Any]) -> str | None:
    """The power ``card`` has when drawn from the draw pile and discarded (CAB-7), or None."""
    if card is None:
        return None
    if card.isdigit():
        return _CABO_POWERS.get(card)
    if card == "JOKER":
        return None
    r = card[:-1]
    look = rules["look_and_swap"]
    if r == "K":
        if look == "all_kings" or (look == "black_kings" and card[-1] not in RED):
            return "look_swap"
        return None
    if r == "Q" and look == "queens":
        return "look_swap"
    return _STANDARD_POWERS.get(r)


def power_cards(rules: Mapping[str, Any]) -> tuple[str, ...]:
    """Every card of the table's deck that has a power, in deck order."""
    return tuple(c for c in DECKS[rules["deck"]] if power(c, rules))


_SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def label(card: str | None) -> str:
    """A card on a button: "7", "10♥", "K♠", "Joker", "unknown"."""
    if card is None:
        return "unknown"
    if card == "JOKER":
        return "Joker"
    if card.isdigit():
        return card
    return card[:-1] + _SUIT_SIGNS.get(card[-1], card[-1])


def card_words(card: str | None) -> str:
    """How a card is said in a ruling: "an 8", "a 10♥", "a joker", "an unknown card"."""
    if card is None:
        return "an unknown card"
    if card == "JOKER":
        return "a joker"
    text = label(card)
    return f"an {text}" if text.startswith(("8", "11", "A")) else f"a {text}"


def sentence_card(card: str | None) -> str:
    return cards.sentence_start(card_words(card))
