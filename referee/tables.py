"""Between the store and the engines: a match's state is its log replayed through its game.

The store keeps entries in their JSON form (seats by name, as in a transcript); the state it caches is
an immutable :class:`~referee.games.log.Log`, so undo and corrections work the same in the app as in
``referee check``.
"""
from __future__ import annotations

from typing import Any

from . import store
from .games import get_game
from .games.log import Log


class GameNotInstalled(LookupError):
    """A stored match of a game this version of the referee does not have."""

    def __init__(self, game: str):
        super().__init__(f"This table plays {game!r}, which this referee does not have.")
        self.game = game


def start(match: store.Match) -> Log:
    """The log of a match with no entries yet."""
    try:
        game = get_game(match.game)
    except KeyError:
        raise GameNotInstalled(match.game) from None
    return Log.start(game, game.new_match(tuple(match.players), match.rules))


def feed(log: Log, entry: dict[str, Any]) -> Log:
    """Validate one entry and apply it; raises EntryError (malformed) or Ruling (refused)."""
    state = log.state
    move = log.game.parse_move(entry, state.players, state.rules)
    new_log, _ = log.feed(move)
    return new_log


replay = store.fold(start, feed)
