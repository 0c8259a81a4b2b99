"""Deck compositions and card names (RULES.md §1.2, GEN-2, GEN-3).

Card values are short strings: ``"0"``–``"9"`` and ``"PEEK"``, ``"SWAP"``, ``"DRAW2"``, ``"SUPERPEEK"`` for
Rat-a-Tat Cat; ``"10H"``, ``"QS"``, ``"JOKER"`` for a standard deck. ``None`` is a card nobody saw.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from .base import MAX_NAME, EntryError, show

RTC_POWERS = ("PEEK", "SWAP", "DRAW2", "SUPERPEEK")
RTC_NUMBERS = tuple(str(n) for n in range(10))

_RTC_NUMBER_COUNTS = {**{str(n): 4 for n in range(9)}, "9": 9}

#: RTC-V16 editions: classic 54 (the Gamewright sheet) and the 65-card deluxe edition.
RTC_DECKS: Mapping[str, Mapping[str, int]] = MappingProxyType({
    "classic_54": MappingProxyType({**_RTC_NUMBER_COUNTS, "PEEK": 3, "SWAP": 3, "DRAW2": 3}),
    "deluxe_65": MappingProxyType({**_RTC_NUMBER_COUNTS, "PEEK": 4, "SWAP": 6, "DRAW2": 4,
                                   "SUPERPEEK": 6}),
})

_ALIASES = {"DRAW 2": "DRAW2", "DRAW-2": "DRAW2", "DRAW_2": "DRAW2", "SUPER PEEK": "SUPERPEEK",
            "SUPER_PEEK": "SUPERPEEK", "SUPER-PEEK": "SUPERPEEK"}

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")


def standard_deck(jokers: int = 0, copies: int = 1) -> Mapping[str, int]:
    """A standard 52-card deck (times ``copies``) plus jokers, for the standard-deck games."""
    deck = {rank + suit: copies for suit in SUITS for rank in RANKS}
    if jokers:
        deck["JOKER"] = jokers
    return MappingProxyType(deck)


def is_power(card: str | None) -> bool:
    return card in RTC_POWERS


def rtc_points(card: str) -> int:
    """Points of a Rat-a-Tat Cat number card (RTC-50)."""
    return int(card)


def parse_card(value: Any, deck: Mapping[str, int], where: str) -> str | None:
    """A card value from a transcript or a form: a name in ``deck``, or unknown (None)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise EntryError(where, f"{value!r} is not a card")
    if isinstance(value, int):
        if not 0 <= value <= 99:
            raise EntryError(where, f"{show(value)} is not a card")
        value = str(value)
    if not isinstance(value, str) or len(value) > MAX_NAME:
        raise EntryError(where, f"{show(value)} is not a card")
    name = value.strip().upper()
    if name in ("UNKNOWN", "?", ""):
        return None
    name = _ALIASES.get(name, name)
    if name not in deck:
        raise EntryError(where, f"{show(value)} is not a card of this deck "
                                f"({', '.join(deck)} or unknown)")
    return name


def card_name(card: str | None) -> str:
    """How a card is written in a transcript."""
    return "unknown" if card is None else card


def card_words(card: str | None) -> str:
    """How a card is said in a ruling."""
    if card is None:
        return "an unknown card"
    words = {"PEEK": "a Peek", "SWAP": "a Swap", "DRAW2": "a Draw 2", "SUPERPEEK": "a Super Peek",
             "JOKER": "a joker"}
    if card in words:
        return words[card]
    return f"an {card}" if card in ("8",) or card.startswith("A") else f"a {card}"


def sentence_start(text: str) -> str:
    """``text`` with its first letter in capitals (unlike str.capitalize, the rest is kept)."""
    return text[:1].upper() + text[1:]
