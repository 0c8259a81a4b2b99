"""The rules engines: pure Python, no I/O, no clock, no randomness. Each game is a module with the shape
of :class:`interface.Game`; registering it here (and passing tests/games/test_conformance.py) is all the
app needs to offer it."""
from __future__ import annotations

from typing import cast

from . import cabo, ratatat, shithead, spite_malice
from .interface import Game

GAMES: dict[str, Game] = {ratatat.NAME: cast(Game, ratatat), shithead.NAME: cast(Game, shithead),
                         spite_malice.NAME: cast(Game, spite_malice), cabo.NAME: cast(Game, cabo)}


def get_game(name: str) -> Game:
    """The engine for ``name``; raises KeyError naming the games there are."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None
