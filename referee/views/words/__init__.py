"""Each game's entries and results in the phone's language, one module per game (named as the game's
``TEMPLATES``): ``entry(move, players)`` says an entry from its fields (the undo button, the history);
optionally ``round_words(view, last)`` says why a round went as it did and ``outcome(view)`` how the match
ended. A game without a module is shown as its engine says it (``referee.i18n_rules``). The engines stay
free of gettext; these modules are the web layer's, and their messages are in the ``messages`` catalogue."""
from __future__ import annotations

import importlib
from typing import Any

from flask_babel import gettext as _

from ...games import base

_modules: dict[str, Any] = {}


def for_game(game: str | None) -> Any:
    """The words module of ``game`` (its TEMPLATES name), or None."""
    if not game or not game.isidentifier() or game.startswith("_"):
        return None
    if game not in _modules:
        name = f"{__name__}.{game}"
        try:
            _modules[game] = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise  # the module is there but something it imports is not: a fault to see
            _modules[game] = None
    return _modules[game]


def common(move: Any, players: tuple[str, ...], again: Any) -> str | None:
    """The entries every game shares: override, flag decisions, undo, correction. Made by the table (the phone
    for everyone, no one's seat), each has its own words: a language whose verbs agree with the person says
    the table as a thing ("השולחן מתקן", not "מתקן/ת")."""
    seat = getattr(move, "seat", None)
    if seat is None:
        match move:
            case base.Override(entry=entry, rule=rule):
                return _("The table overrides %(rule)s: %(entry)s", rule=rule, entry=again(entry, players))
            case base.ResolveFlag(decision="accept"):
                return _("The table accepts the dispute.")
            case base.ResolveFlag():
                return _("The table dismisses the dispute.")
            case base.Undo():
                return _("The table undoes the last entry.")
            case base.Correct(target=target, entry=entry):
                return _("The table corrects entry %(number)s: %(entry)s", number=target, entry=again(entry, players))
    who = players[seat] if seat is not None else _("The table")
    match move:
        case base.Override(entry=entry, rule=rule):
            return _("%(name)s overrides %(rule)s: %(entry)s", name=who, rule=rule, entry=again(entry, players))
        case base.ResolveFlag(decision="accept"):
            return _("%(name)s accepts the dispute.", name=who)
        case base.ResolveFlag():
            return _("%(name)s dismisses the dispute.", name=who)
        case base.Undo():
            return _("%(name)s undoes the last entry.", name=who)
        case base.Correct(target=target, entry=entry):
            return _("%(name)s corrects entry %(number)s: %(entry)s", name=who, number=target,
                     entry=again(entry, players))
    return None
