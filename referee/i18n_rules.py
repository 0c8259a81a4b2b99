"""The engines' words in the phone's language, translated in the web layer by what they are.

The rules engines (``referee/games/``) stay free of gettext: they state the rule book, the house-rule
switches and the rulings in English, each under a stable key (a rule ID, a switch key and value, a preset
key). Those keys are the message contexts of a second catalogue, ``rules``
(``referee/translations/<lang>/LC_MESSAGES/rules.po``), generated from the engines by
``python -m referee.i18n_rules`` (which writes ``rules.pot``; then ``pybabel update -D rules``). A message
missing from it, or whose English changed (the catalogue then no longer matches), shows in English,
marked ``lang="en"`` so a screen reader says it right.

Rulings are sentences the engines build with names and cards in them: the phone shows the rule's own
sentence in its language under the rule ID, and the engine's particular sentence read back by its shape
and said again in the phone's language (``referee.i18n_rulings``).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import current_app, has_request_context
from flask_babel import Domain, lazy_gettext as _l
from markupsafe import Markup, escape

from .i18n import RTL, TRANSLATIONS, lang
from .i18n_rulings import LRI, PDI, and_joined, isolated

DOMAIN = "rules"
_domain = Domain(translation_directories=str(TRANSLATIONS), domain=DOMAIN)


def _rules_text(context: str, english: str) -> str:
    """The translation of ``english`` said under ``context``, or "" when the catalogue lacks it."""
    if not english or lang() == "en":
        return english
    translations = _domain.get_translations()
    found = translations.upgettext(context, english) if hasattr(translations, "upgettext") else None
    if found is None:
        found = translations.pgettext(context, english)
    return "" if found == english else found


def _or_english(context: str, english: Any) -> str | Markup:
    english = "" if english is None else str(english)
    found = _rules_text(context, english)
    if found or not english or lang() == "en":
        return found or english
    return Markup('<span lang="en" dir="ltr">{}</span>').format(english)


def engine_words(text: Any) -> str | Markup:
    """A sentence an engine built (an outcome, a round's explanation): as said, marked English when the
    page is in another language."""
    text = "" if text is None else str(text)
    if not text or lang() == "en":
        return text
    return Markup('<bdi lang="en" dir="ltr">{}</bdi>').format(text)


def rule_words(rule_id: str, english: str) -> str | Markup:
    """A rule book sentence, by rule ID (as a table's house rules word it, a number in it too)."""
    for template, shape in _numbered_words().get(rule_id, ()):
        found = shape.fullmatch(str(english or ""))
        if found:
            said = _rules_text(rule_id, template)
            if said:
                return said.replace("{n}", found.group(1))
    return _or_english(rule_id, english)


@lru_cache(maxsize=1)
def _numbered_words() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """The house-rule words with a number in them ("played to {n} points"), by rule ID, each with the shape
    that reads the number back out of the words said."""
    out: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    for game in _games().values():
        for (rule, _when), text in getattr(game, "HOUSE_RULE_WORDS", {}).items():
            if "{n}" in text:
                shape = re.compile(re.escape(text).replace(re.escape("{n}"), r"(\d+)"))
                out.setdefault(rule, []).append((text, shape))
    return out


def ruling_words(rule_id: str, message: str) -> str | Markup:
    """A ruling's particular sentence in the phone's language: the engines say it in English with names
    and cards in it, so the web layer reads it back by its shape (``referee.i18n_rulings``) and says it
    again; a sentence it cannot read stays as said, marked English (the rule's own sentence, translated,
    is shown under it either way)."""
    message = "" if message is None else str(message)
    if lang() == "en" or not message:
        return message
    said = _say(message)
    return said if said is not None else engine_words(message)


def ruling_text(rule_id: str, message: str) -> str:
    """A ruling's sentence as plain text (a form's notice): in the phone's language when it can be read
    back, else as the engine said it."""
    message = "" if message is None else str(message)
    if lang() == "en" or not message:
        return message
    said = _say(message)
    return said if said is not None else message


_NAME_WORDS = (  # what games.base.normalise_players says of the names typed for a new table
    (r"two players are both called (?P<a>.+): add an initial to one of them",
     "two players are both called %(a)s: add an initial to one of them"),
    (r"(?P<a>.+) and (?P<b>.+) are the same name to the table \(capitals and invisible characters do not count\): "
     r"add an initial to one of them",
     "%(a)s and %(b)s are the same name to the table (capitals and invisible characters do not count): add an "
     "initial to one of them"),
    (r"a list of player names", "a list of player names"),
)


def entry_problem_text(message: str) -> str:
    """Why the names typed for a new table cannot be (an ``EntryError`` of the engines), in the phone's
    language where it is one of the known problems, else as said."""
    import re

    from flask_babel import gettext

    from .people import _NAME_PROBLEMS

    message = "" if message is None else str(message)
    if lang() == "en":
        return message
    for pattern, words in _NAME_PROBLEMS + _NAME_WORDS:
        found = re.fullmatch(pattern, message)
        if found:
            return gettext(words, **found.groupdict())
    return message


def _entry_problem_messages() -> None:  # pragma: no cover - never called: the words above, for extraction
    from flask_babel import gettext

    gettext("two players are both called %(a)s: add an initial to one of them")
    gettext("%(a)s and %(b)s are the same name to the table (capitals and invisible characters do not count): add an "
            "initial to one of them")
    gettext("a list of player names")


def _say(text: str) -> str | None:
    """An engine's sentence (or several) in the phone's language, None when one is not known."""
    return _said(text, lang())


@lru_cache(maxsize=8192)
def _said(text: str, language: str) -> str | None:
    """``_say`` for one language: a table's screen says the same reminders and rulings to every phone in that
    language, version after version, so each sentence is read back once (the catalogue for a language does
    not change while the app runs)."""
    from flask_babel import get_translations

    from .i18n_rulings import say_all

    translations = get_translations()
    return say_all(text, translations.ugettext, translations.ungettext, rtl=language in RTL)


def section_title(title: str) -> str | Markup:
    return _or_english("section", title)


def _game_key(variant: Any) -> str:
    from .games.rulebook import _owner

    for name, game in _games().items():
        if game is _owner(variant):
            return name
    return ""


def _games() -> dict[str, Any]:
    from .games import GAMES

    return GAMES


def switch_label(variant: Any) -> str | Markup:
    return _or_english(f"{_game_key(variant)}|switch|{variant.key}", variant.label)


def switch_help(variant: Any) -> str | Markup:
    return _or_english(f"{_game_key(variant)}|help|{variant.key}", variant.help)


def switch_value(variant: Any, value: Any) -> str | Markup:
    """A switch's value in words (``describe_switch``), translated: a choice by its value, a number by
    the words for one or many."""
    from .games.rulebook import _owner, describe_switch

    english = describe_switch(variant, value)
    if lang() == "en":
        return english
    game = _owner(variant)
    name = _game_key(variant)
    words = game.SWITCH_WORDS.get(variant.key, {})
    if value in words or value is None:
        return _or_english(f"{name}|value|{variant.key}|{_show(value)}", english)
    if variant.key in game.NUMBER_WORDS:
        one, many = game.NUMBER_WORDS[variant.key]
        form = one if value == 1 else many
        found = _rules_text(f"{name}|number|{variant.key}|{'one' if value == 1 else 'many'}", form)
        if found:
            return found.replace("{n}", str(value))
    return _or_english("", english) if english != str(value) else english


def preset_name(game: str, preset: Any) -> str | Markup:
    return _or_english(f"{game}|preset|{preset.key}", preset.name)


def preset_help(game: str, preset: Any) -> str | Markup:
    return _or_english(f"{game}|preset help|{preset.key}", preset.description)


def _show(value: Any) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


# --- Names of games and cards ----------------------------------------------------------------

CARD_WORDS = {  # the engines' card labels that are words
    "Draw 2": _l("Draw 2"), "Peek": _l("Peek"), "Swap": _l("Swap"), "Super Peek": _l("Super Peek"),
    "Joker": _l("Joker"), "unknown": _l("unknown"), "Card back": _l("Card back"),
}
STANDARD_DECK = _l("Standard deck")  # a deck every game that plays with one shares; a game's own decks are
# named by its words module (``DECKS``)


def deck_kind(kind: str, english: str = "") -> str:
    """A kind of deck a table can teach the referee, in the phone's language."""
    if kind == "standard":
        return str(STANDARD_DECK)
    from .games import GAMES
    from .views import words

    for game in GAMES.values():
        if kind in getattr(game, "DECK_KINDS", ()):
            title = getattr(words.for_game(game.TEMPLATES), "DECKS", {}).get(kind)
            if title is not None:
                return str(title)
    return english or kind


_CODES = {"DRAW2": "Draw 2", "PEEK": "Peek", "SWAP": "Swap", "SUPERPEEK": "Super Peek", "JOKER": "Joker"}


def game_title(game: str) -> str:
    """A game's name as the players of the phone's language call it (its words module's ``TITLE``), else
    as the app's catalogue of games names it."""
    from .games import GAMES
    from .views import words

    title = getattr(words.for_game(getattr(GAMES.get(game), "TEMPLATES", None)), "TITLE", None)
    if title is not None:
        return str(title)
    return current_app.config["GAMES"].get(game, game)


_card_words: dict[tuple[str, str], str] = {}  # (language, label) -> the word, once translated


_SUIT_SIGNS = frozenset("♠♥♦♣")


def card_label(label: Any) -> str:
    """An engine's card label ("Draw 2", "7♥", "Joker") in the phone's language (remembered per
    language: a screen names a power card on each of its buttons). Every card name a template shows is
    made here: in a right-to-left language a card with a suit is a left-to-right isolate (U+2066 … U+2069),
    so that "7♥" does not turn into "♥7" in a chip, an <option>, a button or a sentence."""
    label = str(label)
    word = CARD_WORDS.get(label)
    if word is None:
        if label[-1:] in _SUIT_SIGNS and has_request_context() and lang() in RTL:
            return LRI + label + PDI
        return label
    if not has_request_context():
        return str(word)
    key = (lang(), label)
    found = _card_words.get(key)
    if found is None:
        found = _card_words[key] = str(word)
    return found


def card_name(code: Any) -> str:
    """A card code ("DRAW2", "7", "JOKER") as the screen names it."""
    code = str(code)
    return card_label(_CODES.get(code, code))


def time_of(stamp: str) -> str:
    """The time of day of a stored timestamp (``2026-12-01T20:15:03...``), as the phone's language writes it."""
    from datetime import datetime

    from flask_babel import format_time

    try:
        return format_time(datetime.fromisoformat(stamp[:19]), "medium")
    except (ValueError, TypeError):
        return escape(stamp[11:19])


def date_of(stamp: str) -> str:
    from datetime import date

    from flask_babel import format_date

    try:
        return format_date(date.fromisoformat(stamp[:10]), "medium")
    except (ValueError, TypeError):
        return escape(stamp[:10])


# --- Entries and results in words (each game's own: referee/views/words/) ------------------------

def names_words(names: list[str]) -> str:
    """"Ana and Ben", "Ana, Ben and Cy" in the phone's language."""
    from flask_babel import gettext as _

    if len(names) <= 2:
        return and_joined(names, _(" and "))
    return ", ".join(names[:-1]) + and_joined(["", names[-1]], _(" and "))


def game_words(game: str | None) -> Any:
    """The module that says a game's entries and results in the phone's language
    (``referee/views/words/<game's TEMPLATES>.py``), or None for a game without one (its engine's English
    is shown then, marked as English)."""
    from .views import words

    return words.for_game(game)


def describe_move(game: Any, move: Any, players: tuple[str, ...], failed: Any = None,
                  outcome: Any = None) -> str | Markup:
    """An entry in words for the undo button and the history, in the phone's language (said again from
    the move's fields by the game's words module), or as its engine says it. ``failed``: what became of
    a play that could not go (a game's ``failed_play``), said instead of the play as entered; ``outcome``:
    what an entry came to beyond its own fields (a game's ``entry_outcome``), said after it."""
    module = game_words(getattr(game, "TEMPLATES", ""))
    extra = {**({} if failed is None else {"failed": failed}), **({} if outcome is None else {"outcome": outcome})}
    if lang() == "en" or module is None:
        english = game.describe(move, players, **extra)
        said = english if lang() == "en" else engine_words(english)
    else:
        try:
            said = module.entry(move, players, **extra)
        except Exception:  # noqa: BLE001 - words for a button; never a reason to fail a screen
            said = engine_words(game.describe(move, players, **extra))
    return isolated(said) if lang() in RTL and isinstance(said, str) and not isinstance(said, Markup) else said


def round_words(view: dict, last: dict) -> str | Markup:
    """Why a round went as it did, in the phone's language (the game's words module), else as the engine
    explained it."""
    module = game_words(view.get("game"))
    if module is not None and hasattr(module, "round_words"):
        return module.round_words(view, last)
    return explanation_words(last.get("explanation"))


def match_words(view: dict) -> str | Markup:
    """Who won a match scored in points (the lowest total wins) and on what total, with the rule the engine
    named."""
    import re

    from flask_babel import gettext as _

    english = view.get("outcome") or ""
    if lang() == "en" or not view.get("winners"):
        return engine_words(english)
    rules = re.findall(r"\b(?:RTC|CAB|GEN)-\d+", english)
    try:
        totals = dict(zip(view["players"], view["totals"]))
        winners = [view["players"][w] if isinstance(w, int) else w for w in view["winners"]]
        total = totals[winners[0]]
        rule = rules[0] if rules else "RTC-53"
    except (KeyError, IndexError, TypeError):
        return engine_words(english)
    why = _why_words(english)
    if why is not None:
        if len(winners) == 1:
            return _("%(name)s wins the match with %(total)s (%(why)s).", name=winners[0], total=total, why=why)
        return _("%(names)s share the win on %(total)s (%(why)s).", names=names_words(winners), total=total,
                 why=why)
    if len(winners) == 1:
        return _("%(name)s wins the match with %(total)s (%(rule)s).", name=winners[0], total=total, rule=rule)
    return _("%(names)s share the win on %(total)s (%(rule)s).", names=names_words(winners), total=total, rule=rule)


_WHY = re.compile(r"(?:wins the match with|share the win on) -?\d+ \((?P<why>.*?)(?P<shared>; a tie shares the win, "
                  r"RTC-55)?\)\.\Z", re.S)


def _why_words(english: str) -> str | None:
    """Why a match ended as it did (the part of the engine's sentence in brackets), in the phone's language;
    None when the engine said something these words do not know."""
    from flask_babel import gettext as _, ngettext

    found = _WHY.search(english)
    if found is None:
        return None
    why, said = found["why"], None
    if m := re.fullmatch(r"lowest total after (\d+) rounds?, RTC-53", why):
        said = ngettext("lowest total after %(num)s round, RTC-53", "lowest total after %(num)s rounds, RTC-53",
                        int(m[1]))
    elif why == "lowest total when time was up, RTC-53":
        said = _("lowest total when time was up, RTC-53")
    elif why == "everyone left was eliminated in the same round: lowest total wins, RTC-54":
        said = _("everyone left was eliminated in the same round: lowest total wins, RTC-54")
    elif m := re.fullmatch(r"(.+) is the last player left \(RTC-52c\)", why):
        said = _("%(name)s is the last player left (RTC-52c)", name=m[1])
    elif why == "after a tie-break round":
        said = _("after a tie-break round")
    elif m := re.fullmatch(r"(.+) went over 100 and the lowest total wins, CAB-43", why):
        said = _("%(names)s went over 100 and the lowest total wins, CAB-43", names=names_words(m[1].split(", ")))
    elif m := re.fullmatch(r"lowest total after (\d+) rounds?, CAB-V12", why):
        said = ngettext("lowest total after %(num)s round, CAB-V12", "lowest total after %(num)s rounds, CAB-V12",
                        int(m[1]))
    if said is None:
        return None
    return said + ("; " + _("a tie shares the win, RTC-55") if found["shared"] else "")


def explanation_words(text: Any) -> str | Markup:
    """An engine's explanation of several sentences (a Cabo / Cambio round's score), each said in the phone's
    language; the whole as the engine said it when any sentence is not known."""
    text = "" if text is None else str(text)
    if lang() == "en" or not text:
        return text
    said = _say(text)
    return said if said is not None else engine_words(text)


def outcome_words(view: dict) -> str | Markup:
    """How a match ended, for the "Match over" screen, in the phone's language: said again from the view's
    results by the game's words module, the engine's sentence whenever they do not fit."""
    english = view.get("outcome") or ""
    if lang() == "en":
        return english
    module = game_words(view.get("game"))
    if module is not None and hasattr(module, "outcome"):
        try:
            return module.outcome(view)
        except (KeyError, IndexError, TypeError, ValueError):
            pass
    said = _say(english) if english else None
    return said if said is not None else engine_words(english)


def by_publisher(game: str | None) -> bool:
    """True when a game's house rules start at its publisher's rules (its words module says ``PUBLISHED``);
    a traditional game's start at the rules the referee calls standard (as Hebrew Wikipedia or the common
    rules tell it), and no publisher may be named for them."""
    return bool(getattr(game_words(game), "PUBLISHED", False))


_DECISION = re.compile(r"(?P<status>accepted|overridden) by (?P<name>.+?) at entry (?P<entry>\d+)(?:: (?P<reason>.*))?\Z",
                       re.S)


def flag_decision(status: str, resolution: str | None) -> str:
    """How the table decided a dispute, in the phone's language: the engines record it in English
    ("accepted by Cy at entry 16: she moved her cards"); "overridden" is what the screen calls Dismiss."""
    from flask_babel import gettext

    found = _DECISION.match(resolution or "")
    if found is None:
        return gettext("Accepted") if status == "accepted" else gettext("Dismissed")
    name, entry, reason = found["name"], found["entry"], found["reason"]
    if name == "The table":  # the engines' word for a decision made for no seat (the phone for everyone)
        said = (gettext("Accepted by the table (entry %(entry)s).", entry=entry) if found["status"] == "accepted"
                else gettext("Dismissed by the table (entry %(entry)s).", entry=entry))
    elif found["status"] == "accepted":
        said = gettext("Accepted by %(name)s (entry %(entry)s).", name=name, entry=entry)
    else:
        said = gettext("Dismissed by %(name)s (entry %(entry)s).", name=name, entry=entry)
    return said + " " + gettext("Why: %(reason)s", reason=reason) if reason else said


def template_globals() -> dict[str, Any]:
    return {"by_publisher": by_publisher, "flag_decision": flag_decision, "rule_words": rule_words, "ruling_words": ruling_words,
            "engine_words": engine_words,
            "section_title": section_title, "switch_label": switch_label, "switch_help": switch_help,
            "switch_value": switch_value, "preset_name": preset_name, "preset_help": preset_help,
            "game_title": game_title, "card_name": card_name, "card_label": card_label,
            "time_of": time_of, "date_of": date_of, "round_words": round_words, "match_words": match_words,
            "deck_kind": deck_kind, "outcome_words": outcome_words, "explanation_words": explanation_words}


# --- The catalogue template -----------------------------------------------------------------


def messages() -> list[tuple[str, str, str]]:
    """Every engine message a phone can read, as (context, English, where): rule sentences, section
    titles, switches and their values, presets, for every game."""
    from .games.rulebook import GENERAL

    out: list[tuple[str, str, str]] = []
    seen: set[tuple[str, str]] = set()

    def add(context: str, english: Any, where: str) -> None:
        if english and (context, str(english)) not in seen:
            seen.add((context, str(english)))
            out.append((context, str(english), where))

    for section in GENERAL:
        add("section", section.title, "general")
        for rule, text in section.rules:
            add(rule, text, "general")
    for name, game in _games().items():
        for section in game.RULE_BOOK:
            add("section", section.title, name)
            for rule, text in section.rules:
                add(rule, text, name)
        for (rule, _when), text in getattr(game, "HOUSE_RULE_WORDS", {}).items():  # under a house rule
            add(rule, text, name)
        for v in game.VARIANTS:
            add(f"{name}|switch|{v.key}", v.label, name)
            add(f"{name}|help|{v.key}", v.help, name)
            for value, words in game.SWITCH_WORDS.get(v.key, {}).items():
                add(f"{name}|value|{v.key}|{_show(value)}", words, name)
        for key, (one, many) in game.NUMBER_WORDS.items():
            add(f"{name}|number|{key}|one", one, name)
            add(f"{name}|number|{key}|many", many, name)
        for p in getattr(game, "PRESETS", ()):
            add(f"{name}|preset|{p.key}", p.name, name)
            add(f"{name}|preset help|{p.key}", p.description, name)
    return out


def write_pot(path: Path | None = None) -> Path:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    path = path or TRANSLATIONS / f"{DOMAIN}.pot"
    catalog = Catalog(project="referee", domain=DOMAIN, charset="utf-8")
    for context, english, where in messages():
        catalog.add(english, context=context, auto_comments=[where])
    with path.open("wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=False)
    return path


if __name__ == "__main__":
    print(f"wrote {write_pot()}")
