"""Between the store and the engines: a match's state is its log replayed through its game.

The store keeps entries in their JSON form (seats by name, as in a transcript); the state it caches is
an immutable :class:`~referee.games.log.Log`, so undo and corrections work the same in the app as in
``referee check``. ``replay`` also makes and restores the store's snapshots of a Log, and replays
whatever is stored: an entry that no longer applies is recorded as skipped, never an error.
"""
from __future__ import annotations

import logging
import marshal
from typing import Any

from . import live, store
from .games import get_game
from .games.base import EntryError, Ruling
from .games.ending import with_ending
from .games.log import BeyondSnapshot, Log

logger = logging.getLogger(__name__)

SNAPSHOT_FORMAT = 3
"""Bump when the snapshot body below changes; the game's ``ENGINE_VERSION`` (every game has one, see
games/interface.py) is part of the tag too, so snapshots made by another engine are ignored and rebuilt
from the log. Format 2 is the body in ``marshal``'s format, whose version is in the tag as well (a
snapshot is only a cache, read back by this program: the 10,000-entry match's state reads in under half
the time ``json`` takes, ``docs/server.md``); format 1 was JSON."""

SKIPPED_RULE = "GEN-10"


class GameNotInstalled(LookupError):
    """A stored match of a game this version of the referee does not have."""

    def __init__(self, game: str):
        super().__init__(f"This table plays {game!r}, which this referee does not have.")
        self.game = game


def _game(match: store.Match) -> Any:
    """The match's game, whose log also knows the table's "end the match now" entry (games/ending.py)."""
    try:
        return with_ending(get_game(match.game))
    except KeyError:
        raise GameNotInstalled(match.game) from None


def start(match: store.Match) -> Log:
    """The log of a match with no entries yet."""
    game = _game(match)
    if match.dealer is None:
        return Log.start(game, game.new_match(tuple(match.players), match.rules))
    return Log.start(game, game.new_match(tuple(match.players), match.rules, match.dealer))


def feed(log: Log, entry: dict[str, Any]) -> Log:
    """Validate one entry and apply it; raises EntryError (malformed) or Ruling (refused), and
    store.NeedsFullLog when it reaches back past a snapshot."""
    state = log.state
    move = log.game.parse_move(entry, state.players, state.rules)
    try:
        new_log, _ = log.feed(move)
    except BeyondSnapshot:
        raise store.NeedsFullLog() from None
    return new_log


def checked_feed(log: Log, entry: dict[str, Any]) -> Log:
    """`feed` for a new entry: any failure other than a ruling or a malformed entry (an entry nested
    too deep for the engine, a bug) refuses the entry as malformed instead of storing it."""
    try:
        return feed(log, entry)
    except (Ruling, EntryError, store.NeedsFullLog):
        raise
    except RecursionError:
        raise EntryError("entry", "The entry is nested too deeply to read.") from None
    except Exception:  # noqa: BLE001 - logged; an entry the engine cannot apply is not stored
        logger.exception("engine failed on an entry; refused as malformed")
        raise EntryError("entry", "The referee could not apply this entry.") from None


def replay_one(log: Log, entry: Any, position: int) -> Log:
    """Feed a stored entry at its position; one that no longer applies is recorded as skipped."""
    try:
        move = log.game.parse_move(entry, log.state.players, log.state.rules)
        new_log, _ = log.feed(move, position)
        return new_log
    except BeyondSnapshot:
        raise
    except Ruling as ruling:
        return log.refuse(position, ruling.rule, ruling.message)
    except EntryError as err:
        return log.refuse(position, SKIPPED_RULE, f"Entry {position} cannot be read: {err.message}")
    except RecursionError:
        return log.refuse(position, SKIPPED_RULE, f"Entry {position} is nested too deeply to read.")
    except Exception as err:  # noqa: BLE001 - a stored entry must never make a table unopenable
        logger.exception("replay skipped entry %s", position)
        return log.refuse(position, SKIPPED_RULE, f"Entry {position} could not be applied ({type(err).__name__}).")


def _runs(positions: list[int]) -> list[list[int]]:
    """[0, 1, 2, 5, 6] -> [[0, 3], [5, 7]] (half-open runs: snapshots stay small)."""
    out: list[list[int]] = []
    for p in positions:
        if out and out[-1][1] == p:
            out[-1][1] = p + 1
        else:
            out.append([p, p + 1])
    return out


class Replay:
    """The store's ``replay_fn`` for every game: ``(match, entries) -> Log``, with snapshots."""

    def __call__(self, match: store.Match, entries: list[Any]) -> Log:
        log = start(match)
        for position, entry in enumerate(entries):
            log = replay_one(log, entry, position)
        return log

    def snapshot_tag(self, match: store.Match) -> str | None:
        game = _game(match)
        if not hasattr(game, "state_to_dict"):
            return None
        return f"{match.game}/{game.ENGINE_VERSION}/{SNAPSHOT_FORMAT}.{marshal.version}"

    def dump(self, log: Log) -> bytes:
        game, head = log.game, log.head
        try:
            move = None if head.move is None else game.move_to_dict(head.move, log.state.players)
        except Exception:  # noqa: BLE001 - the head's move only serves corrections; they can rebuild
            move = None
        return marshal.dumps({"state": game.state_to_dict(log.state), "positions": _runs(log.positions()),
                              "fed": log.fed, "move": move, "refused": [list(r) for r in log.refused],
                              "undone": [list(u) for u in log.undone],
                              "corrected": log.head.correction is not None})

    def resume(self, match: store.Match, body: bytes, rest: list[dict]) -> Log:
        """The log restored from a snapshot ``body``, then fed the stored entries after it.
        Raises (any exception) if the snapshot cannot serve: the store replays the whole log then."""
        game = _game(match)
        data = marshal.loads(body)
        if data["corrected"]:  # the log before that correction is not in the snapshot: the undo needs it
            raise BeyondSnapshot(int(data["fed"]))
        state = game.state_from_dict(data["state"])
        move = None
        if data["move"] is not None:
            try:
                move = game.parse_move(data["move"], state.players, state.rules)
            except EntryError:
                move = None  # only needed to correct further back: that rebuilds from the log
        positions = [p for start_, stop in data["positions"] for p in range(start_, stop)]
        log = Log.restore(game, state, positions, int(data["fed"]), move,
                          tuple((int(p), str(r), str(m)) for p, r, m in data["refused"]),
                          tuple((int(u), int(p)) for u, p in data["undone"]))
        for item in rest:
            log = replay_one(log, item["entry"], item["seq"] - 1)
        return log


replay = Replay()

def append(db, match_id: str, expected: int, entry: dict[str, Any], key: str | None, *,
           seat: int | None = None, device: str | None = None) -> store.Appended:
    """Validate, record and announce one entry: `store.append` with this game's rules and the live
    doorbell. Raises store.UnknownMatch, store.StaleVersion, Ruling, or EntryError (malformed,
    too large, or nothing the engine can apply; nothing saved)."""
    try:
        return store.append(db, match_id, expected, entry, key, checked_feed, replay_fn=replay,
                            seat=seat, device=device, notify=live.publish)
    except store.UnstorableEntry as err:
        raise EntryError("entry", err.message) from None
    except TypeError as err:
        raise EntryError("entry", "The entry holds values that cannot be stored.") from err
