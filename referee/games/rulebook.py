"""The rule book in plain words: every rule a ruling can cite, one or two sentences each, grouped as
RULES.md (the rule book of record) groups them, paraphrased for a family at the table.

Here: the rules of every game (GEN) and how a game's rule book is read. Each game keeps its own sentences
(``<game>.RULE_BOOK``) and the words of its house-rule switches (``<game>.SWITCH_WORDS``,
``NUMBER_WORDS``, ``APPLIES_WHEN``); ``describe_switch`` turns a switch and a value into words.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping



@dataclass(frozen=True)
class Section:
    """A heading of the rule book and its rules, as (rule ID, plain words) pairs."""

    title: str
    rules: tuple[tuple[str, str], ...]
    intro: str = ""


GENERAL: tuple[Section, ...] = (
    Section("For every game", (
        ("GEN-1", "Every card is always in exactly one place: the draw pile, the discard pile, a player's "
                  "cards, or the hand of a player deciding what to do with it."),
        ("GEN-2", "The referee follows cards by where they are, not by which physical copy they are. "
                  "A card's value is known to everyone, to some players, or to nobody."),
        ("GEN-3", "A deck has a fixed number of each card: the table cannot have seen more copies than exist. "
                  "Too many sightings usually mean a mis-tap or a misread photo."),
        ("GEN-4", "A card known to be one value must show that value when it is turned face up; if it does "
                  "not, the referee points at both entries."),
        ("GEN-5", "The referee cannot stop a move at a real table: the table may let a refused entry stand, "
                  "and the override is recorded."),
        ("GEN-6", "The referee never shows anyone a card they may not know, and never uses what one player "
                  "saw in secret to refuse another player's move."),
        ("GEN-7", "Play goes clockwise; a player acts in their own turn."),
    )),
    Section("How the referee works", (
        ("GEN-10", "A refusal names its rule and says why in one line; what can only be checked later, when "
                   "the cards are turned up, is flagged then."),
        ("GEN-11", "The house rules are fixed when the table starts, and the score sheet shows every one that "
                   "differs from the game's standard rules, and always the tie rule."),
        ("GEN-12", "At every step the referee checks that no card is lost or made up, no pile is below zero "
                   "and a card everyone knows never changes value."),
        ("GEN-13", "Undo and corrections are new entries pointing at the entries they change: nothing is "
                   "ever erased."),
        ("GEN-14", "When a card was not seen, enter “unknown”: the referee carries on and checks once the "
                   "card is turned up."),
    )),
)


def _games() -> dict[str, Any]:
    from . import GAMES  # the registry imports every game, and every game imports this module

    return GAMES


def book(game: Any) -> dict[str, str]:
    """Every rule ID a game can cite, with its sentence: its own book, its switches, the GEN rules."""
    cached = getattr(game, "_rule_sentences", None)
    if cached is None:
        cached = {rule: text for s in (*GENERAL, *game.RULE_BOOK) for rule, text in s.rules}
        for v in game.VARIANTS:  # a switch ID: the help of the first switch under it
            cached.setdefault(v.rule, v.help or v.label)
        game._rule_sentences = cached
    return cached


#: A condition of ``HOUSE_RULE_WORDS`` met by any number the switch is set to; the words say it as "{n}".
ANY_NUMBER = "any number"

#: A game's words of its rules under house rules: (rule ID, ((switch, value), ...)) -> the words at a table
#: whose switches all have those values. The first entry that fits is said, so the entries naming more
#: switches come first.
HouseRuleWords = Mapping[tuple[str, tuple[tuple[str, Any], ...]], str]


def house_rule_words(words: HouseRuleWords, rule: str, rules: Mapping[str, Any] | None) -> str | None:
    """The words of ``rule`` at a table with ``rules``, where its house rules change them (``words``: a
    game's ``HOUSE_RULE_WORDS``); else None."""
    if not rules:
        return None
    for (rule_id, when), said in words.items():
        if rule_id == rule and all(_fits(rules.get(key), value) for key, value in when):
            numbers = [rules.get(key) for key, value in when if value == ANY_NUMBER]
            return said.format(n=numbers[0]) if numbers else said
    return None


def _fits(value: Any, wanted: Any) -> bool:
    if wanted == ANY_NUMBER:
        return isinstance(value, int) and not isinstance(value, bool)
    return value == wanted and type(value) is type(wanted)


def rule_text(rule: str, game: Any = None) -> str:
    """The plain sentence for a rule ID (of ``game``, or of whichever game states it), or ""."""
    games = [game] if game is not None else list(_games().values())
    for g in games:
        text = book(g).get(rule)
        if text:
            return text
    return ""


def _owner(variant: Any) -> Any:
    """The game a house-rule switch belongs to."""
    for game in _games().values():
        if variant in game.VARIANTS:
            return game
    raise LookupError(f"no game has the switch {variant.key!r}")


def describe_switch(variant: Any, value: Any) -> str:
    """A switch's value in words ("everyone on the lowest score wins the round", "3 rounds")."""
    game = _owner(variant)
    words = game.SWITCH_WORDS.get(variant.key, {})
    if value in words:
        return words[value]
    if value is None:
        return words.get(None, "off")
    if variant.key in game.NUMBER_WORDS:
        one, many = game.NUMBER_WORDS[variant.key]
        return (one if value == 1 else many).format(n=value)
    return str(value)


def applies(variant: Any, rules: dict[str, Any]) -> bool:
    """Whether a switch matters under the other switches (the minutes only in a timed match...)."""
    when = _owner(variant).APPLIES_WHEN.get(variant.key)
    return when is None or rules.get(when[0]) in when[1]


def game_of(rule_id: str) -> str:
    """The game whose rules page explains ``rule_id`` (general rules are on every game's page)."""
    games = _games()
    for name, g in games.items():
        if rule_id in book(g) and not rule_id.startswith("GEN-"):
            return name
    return next(iter(games))


def __getattr__(name: str) -> Any:
    """``BOOKS`` (each game's rule book, by game) and ``RULES`` (every rule ID of every game, with its
    sentence), built from the registry when first asked for (every game imports this module)."""
    if name == "BOOKS":
        return {key: game.RULE_BOOK for key, game in _games().items()}
    if name == "RULES":
        return {rule: text for game in _games().values() for rule, text in book(game).items()}
    raise AttributeError(name)
