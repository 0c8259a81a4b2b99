"""Deck compositions and card names (RULES.md §1.2, GEN-2, GEN-3).

Card values are short strings: ``"10H"``, ``"QS"``, ``"JOKER"`` for a standard deck, and each game's own
codes for its own deck (in its ``<game>_cards`` module). ``None`` is a card nobody saw.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from .base import MAX_NAME, EntryError, show

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")


def standard_deck(jokers: int = 0, copies: int = 1) -> Mapping[str, int]:
    """A standard 52-card deck (times ``copies``) plus jokers, for the standard-deck games."""
    deck = {rank + suit: copies for suit in SUITS for rank in RANKS}
    if jokers:
        deck["JOKER"] = jokers
    return MappingProxyType(deck)


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
    if name not in deck:  # "Draw 2", "draw-2": a card's name with its spaces and dashes left out
        name = name.replace(" ", "").replace("-", "").replace("_", "")
    if name not in deck:
        raise EntryError(where, f"{show(value)} is not a card of this deck ({deck_hint(deck)}, or unknown)")
    return name


#: A deck of more names than this is told by example ("a card such as 7H, 10S or QD"), not in full.
_LISTED = 20


def deck_hint(deck: Mapping[str, int]) -> str:
    """What a card name of ``deck`` looks like, for a refusal: a small deck of its own names every card;
    a standard deck is shown by example, not its 52 names."""
    if all(card in deck for card in ("7H", "10S", "QD")):
        return "a card such as 7H, 10S or QD"
    names = list(deck)
    if len(names) <= _LISTED:
        return ", ".join(names)
    return f"a card such as {', '.join(names[:2])} or {names[2]}"


def card_name(card: str | None) -> str:
    """How a card is written in a transcript."""
    return "unknown" if card is None else card


def card_words(card: str | None, words: Mapping[str, str] | None = None) -> str:
    """How a card is said in a ruling; ``words`` are a game's own cards said in words ("a Draw 2")."""
    if card is None:
        return "an unknown card"
    if words and card in words:
        return words[card]
    if card == "JOKER":
        return "a joker"
    return f"an {card}" if card in ("8",) or card.startswith("A") or card.startswith("8") else f"a {card}"


def sentence_start(text: str) -> str:
    """``text`` with its first letter in capitals (unlike str.capitalize, the rest is kept)."""
    return text[:1].upper() + text[1:]
