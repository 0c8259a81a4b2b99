"""The rules engines: pure Python, no I/O, no clock, no randomness (see base.py for the vocabulary)."""
from __future__ import annotations

from types import ModuleType

from . import ratatat

GAMES: dict[str, ModuleType] = {ratatat.NAME: ratatat}


def get_game(name: str) -> ModuleType:
    """The engine for ``name``; raises KeyError naming the games there are."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None
