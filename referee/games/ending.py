"""A table ends its match early: one mechanism for every game, outside the engines.

The rule book is silent on a match that stops before its end condition (Rat-a-Tat Cat's rounds, Cabo's 100
points, an evening of Shithead games): a family's evening ends when someone must go to bed. What the referee
does is what GEN-5 says of any ruling: a person can always override, and it is recorded. So the table may
end its match at any moment, by an entry of its own in the log (``{"move": "end_match", "seat": "Ana"}``):

* what counts is what was completed: the rounds (or games) the game's own ``result`` has scored, their
  totals and standings. The round in play is not scored;
* the player (or players, level) first in those standings wins. Before any round was completed there is
  no result: no winner, and the result is not ``over`` (nothing to count in any standings), although the
  table is closed (its view says ``over``);
* the entry is undone like any other (GEN-13: an undo is an entry too; the log steps back over it) and the
  match goes on from where it stood. Any other entry after it is refused (GEN-13), naming it.

:func:`with_ending` wraps a game (a module with the shape of :class:`interface.Game`) so that its log knows
this entry; the engines are not touched. An ended match's state is :class:`Ended`: the game's own state as
it stood (the round in play untouched) and who ended it at which entry. Every function of the game given
an ``Ended`` state is given the game's own state, and what differs is said here: no entries to make, the
view and the result of an ended match (:func:`ended_result`).

Pure, as every engine: no Flask, SQLite, clock or randomness.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from . import entry_parse
from .base import MAX_TEXT, EntryError, Ruling, seat_index, show

MOVE = "end_match"
RULE = "GEN-13"  # what an entry after the end is told: undo the end (a compensating entry) to play on
STATE_KEY = "ended_early"  # marks an ended state in a snapshot's dict (no game's state has this key)
GAME_ROUNDS = frozenset({"shithead", "spite_malice"})  # games whose rounds are whole games
SEAT_WINNERS = frozenset({"ratatat", "cabo"})  # games whose view lists its winners as seats, not names
_FIELDS = frozenset({"move", "seat", "reason"})
OVER = "The match is over: no more entries can be played."  # what every engine says after its match's end


@dataclass(frozen=True, slots=True)
class EndMatch:
    """The table ends the match now (GEN-5: a person's decision, recorded); ``seat``: who ended it (None:
    the table, on the phone for everyone with nobody named)."""

    seat: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Ended:
    """An ended match: the game's own ``state`` as it stood, ended by ``seat`` at entry ``at``. Anything
    else asked of it is asked of that state (``players``, ``rules``, ``flags``...), but ``over``."""

    state: Any
    seat: int | None = None
    at: int | None = None

    @property
    def over(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(object.__getattribute__(self, "state"), name)


def inner(state: Any) -> Any:
    """The game's own state (an ended match's, as it stood)."""
    return state.state if isinstance(state, Ended) else state


def is_ended(state: Any) -> bool:
    return isinstance(state, Ended)


def round_noun(game_name: str) -> str:
    """What the game's result calls a round, in words: "game" (Shithead, Spite & Malice), else "round"."""
    return "game" if game_name in GAME_ROUNDS else "round"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def ended_result(result: Mapping[str, Any], by: str | None = None, noun: str = "round") -> dict[str, Any]:
    """A game's ``result`` of a match that stopped before its end, as the result of a match ended early by
    agreement: the rounds completed, their totals and standings as the game gives them (the round in play
    is not in them), the winners those standings put first (every player level with the first; the
    standings are best first in every game), ``over`` true and an outcome that says it ended early after
    how many rounds. Before any round was completed: no winners, ``over`` false (there is no result to
    count) and an outcome that says so. ``ended_early`` says who ended it, after how many rounds, and
    whether there is a result."""
    rounds = list(result.get("rounds") or [])
    standings = list(result.get("standings") or [])
    who = by if by else "The table"
    n = len(rounds)
    out = dict(result)
    if n == 0 or not standings:
        out.update(over=False, winners=[],
                   outcome=f"{who} ended the match early by agreement before any {noun} was completed: "
                           "no result.")
        out["ended_early"] = {"by": by, "rounds": n, "noun": noun, "result": False}
        return out
    best = standings[0].get("total")
    winners = [row.get("player") for row in standings if row.get("total") == best]
    if len(winners) == 1:
        verdict = f"{winners[0]}, first in the standings, wins."
    else:
        verdict = f"{_names(winners)}, level first in the standings, share the win."
    out.update(over=True, winners=winners,
               outcome=f"{who} ended the match early by agreement after {_count(n, noun)}. {verdict}")
    out["ended_early"] = {"by": by, "rounds": n, "noun": noun, "result": True}
    return out


def parse_end(data: Mapping[str, Any], players: tuple[str, ...], where: str = "entry") -> EndMatch:
    """An ``end_match`` entry's JSON form -> :class:`EndMatch`; raises EntryError naming the field."""
    for key in data:
        if key not in _FIELDS and key not in entry_parse.EXTRA:
            raise EntryError(f"{where}.{show(key)[1:-1]}", f"{show(key)} is not a field of a {MOVE!r} entry")
        if entry_parse.EXTRA.get(key) is not None:
            entry_parse.text(data[key], f"{where}.{key}", entry_parse.EXTRA[key])
    seat = data.get("seat")
    seat = None if seat is None else seat_index(seat, players, f"{where}.seat")
    reason = entry_parse.text(data["reason"], f"{where}.reason", MAX_TEXT) if "reason" in data else ""
    return EndMatch(seat, reason)


class Ending:
    """A game (``game``) whose log knows the table's ``end_match`` entry: everything else is the game's."""

    def __init__(self, game: Any):
        self.game = game
        self._unwrapping: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"<{self.game.__name__ if hasattr(self.game, '__name__') else self.game!r} with ending>"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("game", "_unwrapping"):
            raise AttributeError(name)
        value = getattr(self.game, name)
        if not callable(value) or isinstance(value, type):
            return value
        found = self._unwrapping.get(name)
        if found is None or found[0] is not value:
            def unwrapped(*args: Any, **kwargs: Any) -> Any:
                return value(*(inner(a) for a in args), **{k: inner(v) for k, v in kwargs.items()})
            unwrapped.__name__ = unwrapped.__qualname__ = name
            unwrapped.__doc__ = getattr(value, "__doc__", None)
            found = self._unwrapping[name] = (value, unwrapped)
        return found[1]

    # --- entries ------------------------------------------------------------------------------
    def parse_move(self, data: Any, players: tuple[str, ...], rules: Mapping[str, Any] | None = None,
                   where: str = "entry") -> Any:
        if isinstance(data, dict) and data.get("move") == MOVE:
            return parse_end(data, players, where)
        return self.game.parse_move(data, players, rules, where)

    def move_to_dict(self, move: Any, players: tuple[str, ...]) -> dict[str, Any]:
        if isinstance(move, EndMatch):
            out: dict[str, Any] = {"move": MOVE}
            if move.seat is not None:
                out["seat"] = players[move.seat]
            if move.reason:
                out["reason"] = move.reason
            return out
        return self.game.move_to_dict(move, players)

    def describe(self, move: Any, players: tuple[str, ...], **extra: Any) -> str:
        if isinstance(move, EndMatch):
            who = players[move.seat] if move.seat is not None else "The table"
            return f"{who} ended the match early by agreement."
        return self.game.describe(move, players, **extra)

    def apply(self, state: Any, move: Any, entry_id: int | None = None) -> tuple[Any, list[dict]]:
        if isinstance(state, Ended):  # the ruling names the entry that ended it: an undo of it plays on (GEN-13)
            raise Ruling(RULE, OVER, () if state.at is None else (state.at,), overridable=False)
        if isinstance(move, EndMatch):
            if getattr(state, "over", False):
                raise Ruling(RULE, OVER, overridable=False)
            event = {"kind": "ended_early", "seat": move.seat, "rounds": self._rounds(state)}
            return Ended(state, move.seat, entry_id), [event]
        return self.game.apply(state, move, entry_id)

    def _rounds(self, state: Any) -> int:
        return len(self.game.result(inner(state)).get("rounds") or [])

    # --- who acts -----------------------------------------------------------------------------
    def legal_moves(self, state: Any, seat: int | None) -> list[Any]:
        return [] if isinstance(state, Ended) else self.game.legal_moves(state, seat)

    def to_act(self, state: Any) -> int | None:
        return None if isinstance(state, Ended) else self.game.to_act(state)

    def may_act(self, state: Any) -> tuple[int, ...]:
        return () if isinstance(state, Ended) else tuple(self.game.may_act(state))

    # --- what a seat sees, and the result -----------------------------------------------------
    def result(self, state: Any) -> dict[str, Any]:
        if not isinstance(state, Ended):
            return self.game.result(state)
        players = state.state.players
        by = players[state.seat] if state.seat is not None and 0 <= state.seat < len(players) else None
        return ended_result(self.game.result(state.state), by, round_noun(self.game.NAME))

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        if not isinstance(state, Ended):
            return self.game.view(state, seat)
        out = dict(self.game.view(state.state, seat))
        res = self.result(state)
        players = list(state.state.players)
        winners = res["winners"]
        as_seats = self.game.NAME in SEAT_WINNERS  # the game's own form of its view's winners
        out.update(over=True, outcome=res["outcome"], legal=[],
                   winners=[players.index(w) for w in winners] if as_seats else list(winners))
        if "round" in out:
            out["round"] = None  # the round in play is not scored, nor shown
        for key, empty in (("may_act", []), ("choices", {}), ("reminders", [])):
            if key in out:
                out[key] = empty
        out["ended"] = {**res["ended_early"], "at": state.at, "winners": list(winners),
                        "total": res["standings"][0].get("total") if res["standings"] and winners else None}
        return out

    def redact(self, state: Any, entries: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
        """The game's redaction, each ``end_match`` entry as it is (nothing in it is private). The game is
        given every entry in its place, an end as a bare placeholder: a round's first entry is a position
        in the whole log, and an end (undone) before it must not move the cut."""
        ends = {i for i, e in enumerate(entries) if isinstance(e, dict) and e.get("move") == MOVE}
        if not ends:
            return self.game.redact(inner(state), entries, viewer)
        placed = [{"move": MOVE} if i in ends else e for i, e in enumerate(entries)]
        seen = self.game.redact(inner(state), placed, viewer)
        return [entries[i] if i in ends else seen[i] for i in range(len(entries))]

    # --- snapshots ----------------------------------------------------------------------------
    def state_to_dict(self, state: Any) -> dict[str, Any]:
        if isinstance(state, Ended):
            return {STATE_KEY: {"seat": state.seat, "at": state.at}, "state": self.game.state_to_dict(state.state)}
        return self.game.state_to_dict(state)

    def state_from_dict(self, data: dict[str, Any]) -> Any:
        if isinstance(data, dict) and STATE_KEY in data:
            mark = data[STATE_KEY]
            return Ended(self.game.state_from_dict(data["state"]), mark.get("seat"), mark.get("at"))
        return self.game.state_from_dict(data)


_WRAPPED: dict[int, Ending] = {}


def with_ending(game: Any) -> Any:
    """``game`` whose log knows the ``end_match`` entry (one wrapper per game; a wrapped game as it is)."""
    if isinstance(game, Ending):
        return game
    found = _WRAPPED.get(id(game))
    if found is None or found.game is not game:
        found = _WRAPPED[id(game)] = Ending(game)
    return found


def ended_at(log: Any) -> int | None:
    """The entry that ended a log's match early, or None (it goes on, or ended by its own rules)."""
    state = getattr(log, "state", None)
    return state.at if isinstance(state, Ended) else None


__all__ = ["MOVE", "RULE", "EndMatch", "Ended", "Ending", "ended_result", "with_ending", "inner", "is_ended",
           "round_noun", "ended_at", "parse_end"]
