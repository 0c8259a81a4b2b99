"""Rat-a-Tat Cat's deck (RULES.md §1.2): number cards "0"–"9" and the power cards, in two editions."""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from . import cards

RTC_POWERS = ("PEEK", "SWAP", "DRAW2", "SUPERPEEK")
RTC_NUMBERS = tuple(str(n) for n in range(10))

_RTC_NUMBER_COUNTS = {**{str(n): 4 for n in range(9)}, "9": 9}

#: RTC-V16 editions: classic 54 (the Gamewright sheet) and the 65-card deluxe edition.
RTC_DECKS: Mapping[str, Mapping[str, int]] = MappingProxyType({
    "classic_54": MappingProxyType({**_RTC_NUMBER_COUNTS, "PEEK": 3, "SWAP": 3, "DRAW2": 3}),
    "deluxe_65": MappingProxyType({**_RTC_NUMBER_COUNTS, "PEEK": 4, "SWAP": 6, "DRAW2": 4,
                                   "SUPERPEEK": 6}),
})

POWER_WORDS = {"PEEK": "a Peek", "SWAP": "a Swap", "DRAW2": "a Draw 2", "SUPERPEEK": "a Super Peek"}


def is_power(card: str | None) -> bool:
    return card in RTC_POWERS


def rtc_points(card: str) -> int:
    """Points of a Rat-a-Tat Cat number card (RTC-50)."""
    return int(card)


def card_words(card: str | None) -> str:
    """How a Rat-a-Tat Cat card is said in a ruling: "a Draw 2", "an 8"."""
    return cards.card_words(card, POWER_WORDS)
