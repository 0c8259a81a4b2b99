"""The table log: the ordered entries of a match, replayed through a game engine.

The log is never edited in place. ``undo`` and ``correct`` are entries too (GEN-13): undo steps back
over the last entry that stands; a correction replaces a past entry and replays what followed it, and
every later entry that no longer fits is reported, not silently kept or dropped.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .base import FLAG, REJECT, Correct, Ruling, Undo


class BeyondSnapshot(Exception):
    """An undo or correction reaches back past the oldest state a snapshot restored (see
    :meth:`Log.restore`): rebuild the log from its first entry and feed this entry again."""


@dataclass(frozen=True, slots=True)
class Node:
    """One entry that stands, with the state after it; ``parent`` leads back to the start.

    In a log restored from a snapshot, the head's parent is a root whose ``state`` is None (not
    known) and whose ``behind`` lists the positions of the entries that stand before the head."""

    state: Any
    move: Any = None
    position: int = -1
    parent: Node | None = None
    behind: tuple[int, ...] = ()
    # On the head a correction left: that correction's position, the position it corrected, the log
    # before it and how many set-aside entries the log held after it. An undo while this is the head
    # takes the correction back.
    correction: tuple[int, int, Log, int] | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """What one entry did: accepted (with its events) or refused (with its ruling)."""

    position: int
    move: Any
    ruling: Ruling | None = None
    events: tuple[dict[str, Any], ...] = ()
    later: tuple[dict[str, Any], ...] = field(default=())  # after a correction: entries that no longer fit

    @property
    def accepted(self) -> bool:
        return self.ruling is None


@dataclass(frozen=True, slots=True)
class Log:
    """An immutable chain of the entries that stand; ``feed`` returns a new log."""

    game: Any
    head: Node
    fed: int = 0  # entries fed so far, refused ones excluded: the next entry's default position
    # (position, rule, message) of the stored entries that do not stand for want of the rules: skipped
    # on replay, or set aside by a correction (they no longer fit what it changed)
    refused: tuple[tuple[int, str, str], ...] = ()
    # (undo's position, the position of the entry it took back: an entry, or a correction) of the undos
    # that stand
    undone: tuple[tuple[int, int], ...] = ()

    @classmethod
    def start(cls, game: Any, state: Any) -> Log:
        return cls(game, Node(state))

    @classmethod
    def restore(cls, game: Any, state: Any, positions: list[int], fed: int, move: Any = None,
                refused: tuple[tuple[int, str, str], ...] = (), undone: tuple[tuple[int, int], ...] = ()) -> Log:
        """A log rebuilt from a snapshot: ``state`` after the entries at ``positions`` (those that
        stand, the last one's ``move`` if known). Undo and corrections within the entries fed after
        it work as usual; reaching further back raises :class:`BeyondSnapshot`."""
        if not positions:
            return cls(game, Node(state), fed, tuple(refused), tuple(undone))
        root = Node(None, behind=tuple(positions[:-1]))
        return cls(game, Node(state, move, positions[-1], root), fed, tuple(refused), tuple(undone))

    def refuse(self, position: int, rule: str, message: str) -> Log:
        """This log with the entry at ``position`` skipped (a stored entry that no longer applies):
        recorded, and counted so that the entries after it keep their positions."""
        return Log(self.game, self.head, max(self.fed, position + 1),
                   (*self.refused, (position, rule, message)), self.undone)

    def undo_target(self) -> int | None:
        """The position of the entry an undo would take back now: the last correction, when it is what
        the table did last among the entries that stand, else the last entry that stands."""
        if self.head.correction is not None:
            return self.head.correction[0]
        return None if self.head.parent is None else self.head.position

    @property
    def state(self) -> Any:
        return self.head.state

    def positions(self) -> list[int]:
        out, node = [], self.head
        while node.parent is not None:
            out.append(node.position)
            node = node.parent
        out.extend(reversed(node.behind))
        return out[::-1]

    def states_before(self) -> dict[int, Any]:
        """The state each entry that stands was applied to, by its position (those a snapshot left out
        are not known, nor listed)."""
        out, node = {}, self.head
        while node.parent is not None and node.parent.state is not None:
            out[node.position] = node.parent.state
            node = node.parent
        return out

    def feed(self, move: Any, position: int | None = None) -> tuple[Log, Step]:
        """Apply one entry at ``position`` in the log (default: after the entries fed so far).
        Raises :class:`Ruling` if it is refused; the log is unchanged then."""
        if position is None:
            position = self.fed
        fed = position + 1
        if isinstance(move, Undo):
            if self.head.correction is not None:  # the correction goes, and what it set aside stands again
                correction, _, before, mark = self.head.correction
                return (Log(self.game, before.head, fed, before.refused + self.refused[mark:],
                            (*self.undone, (position, correction))),
                        Step(position, move, events=({"kind": "undone", "entry": correction},)))
            if self.head.parent is None:
                raise Ruling("GEN-13", "There is no entry to undo.", (position,), overridable=False)
            if self.head.parent.state is None:
                raise BeyondSnapshot(position)
            undone = self.head.position
            return (Log(self.game, self.head.parent, fed, self.refused, (*self.undone, (position, undone))),
                    Step(position, move, events=({"kind": "undone", "entry": undone},)))
        if isinstance(move, Correct):
            return self._correct(move, position)
        state, events = self.game.apply(self.head.state, move, position)
        return (Log(self.game, Node(state, move, position, self.head), fed, self.refused, self.undone),
                Step(position, move, events=tuple(events)))

    def _correct(self, move: Correct, position: int) -> tuple[Log, Step]:
        later: list[Node] = []
        node = self.head
        while node.parent is not None and node.position != move.target:
            later.append(node)
            node = node.parent
        if node.parent is None:
            if move.target in node.behind:
                raise BeyondSnapshot(position)
            raise Ruling("GEN-13", f"Entry {move.target} is not an entry that stands, so it cannot be "
                                   "corrected.", (position,), overridable=False)
        if node.parent.state is None or any(old.move is None for old in later):
            raise BeyondSnapshot(position)
        state, events = self.game.apply(node.parent.state, move.entry, move.target)
        head = Node(state, move.entry, move.target, node.parent)
        dropped, refused = [], list(self.refused)
        for old in reversed(later):
            try:
                state, _ = self.game.apply(head.state, old.move, old.position)
            except Ruling as ruling:
                dropped.append({"entry": old.position, "rule": ruling.rule,
                                "message": f"After the correction, entry {old.position} no longer stands: "
                                           f"{ruling.message}"})
                refused.append((old.position, ruling.rule, ruling.message))
                continue
            head = Node(state, old.move, old.position, head)
        events = (*events, {"kind": "corrected", "entry": move.target, "reason": move.reason})
        refused = tuple(refused)
        head = Node(head.state, head.move, head.position, head.parent, head.behind, (position, move.target, self, len(refused)))
        return (Log(self.game, head, position + 1, refused, self.undone),
                Step(position, move, events=tuple(events), later=tuple(dropped)))


def replay(game: Any, state: Any, moves: list[Any]) -> tuple[Log, list[Step]]:
    """Feed every entry in order; a refused entry is recorded with its ruling and skipped."""
    log = Log.start(game, state)
    steps = []
    for position, move in enumerate(moves):
        try:
            log, step = log.feed(move, position)
        except Ruling as ruling:
            step = Step(position, move, ruling)
        steps.append(step)
    return log, steps


def rulings(log: Log, steps: list[Step]) -> list[dict[str, Any]]:
    """Every ruling of a replay in log order: refusals, what a correction undid, and the flags of
    the entries that stand (with the table's decision on each). A correction an undo took back set
    nothing aside: what it had set aside stands again (GEN-13), and is no ruling."""
    out = []
    undone = {e["entry"] for step in steps for e in step.events
              if e.get("kind") == "undone" and isinstance(e.get("entry"), int)}
    for step in steps:
        if step.ruling is not None:
            out.append({"event": step.position, "verdict": REJECT, "rule": step.ruling.rule,
                        "message": step.ruling.message, "entries": list(step.ruling.entries)})
        if step.position in undone:
            continue
        for d in step.later:
            out.append({"event": step.position, "verdict": FLAG, "rule": d["rule"], "message": d["message"],
                        "entries": [d["entry"], step.position]})
    out.extend(state_rulings(log.state))
    out.sort(key=lambda r: r["event"])
    return out


def state_rulings(state: Any) -> list[dict[str, Any]]:
    """The rulings a state remembers, in log order: each REJECT the table overrode (GEN-5), with its
    reason and who overrode it, and each FLAG with the table's decision."""
    out = []
    players = state.players
    for eid, rule, reason, seat, message, entries in getattr(state, "overrides", ()):
        out.append({"event": eid, "verdict": REJECT, "rule": rule, "message": message,
                    "entries": list(entries), "status": "overridden", "reason": reason,
                    "by": None if seat is None else players[seat]})
    for flag in state.flags:
        out.append({"event": flag.at, "verdict": FLAG, "rule": flag.rule, "message": flag.message,
                    "entries": list(flag.entries), "status": flag.status})
    out.sort(key=lambda r: r["event"])
    return out
