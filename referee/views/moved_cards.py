"""What other players' entries did to one seat's face-down cards since that seat last played: a swap of
one of its cards, a card snapped away, the card given for it (``game.cards_moved``). The player could not
see it happen at the table; their phone says so, in the history's words, until they have played again."""
from __future__ import annotations

from typing import Any

from flask import current_app

from .play import lang, move_words

LOOK_BACK = 64  # entries walked back over, at most
SHOWN = 3  # the latest entries said

_said: dict[tuple, list[dict[str, Any]]] = {}


def moved_since_turn(match, log, seat: int | None) -> list[dict[str, Any]]:
    """The entries (``number``: its place in the history, ``words``) by which another player moved
    ``seat``'s cards this round since ``seat``'s last turn, latest first; the turn ``seat`` is taking now
    does not end it. Worked out once per version, seat and language (every redraw of a phone asks)."""
    cards_moved = getattr(log.game, "cards_moved", None)
    if cards_moved is None or seat is None or not match.version:
        return []
    key = (current_app.config["DATABASE"], match.id, match.version, seat, lang())
    found = _said.get(key)
    if found is None:
        if len(_said) >= 4096:
            _said.clear()
        found = _said[key] = _moved(log, seat, cards_moved)
    return found


def _moved(log, seat: int, cards_moved) -> list[dict[str, Any]]:
    game, players, out = log.game, log.state.players, []
    # the seat's entries at the head are the turn it is taking now (still said) only while that turn lasts:
    # once it is another's turn, the seat has played since
    node, own_turn, steps = log.head, game.to_act(log.state) == seat, 0
    while node.parent is not None and node.parent.state is not None and steps < LOOK_BACK and len(out) < SHOWN:
        before, move, steps = node.parent.state, node.move, steps + 1
        if _round_number(before) != _round_number(node.state):
            break  # a new deal: the cards moved before it are gone
        mine = getattr(move, "seat", None) == seat
        if mine and not own_turn:
            break  # the seat's turn before: it has played since
        own_turn = own_turn and (mine or getattr(move, "seat", None) is None)
        if not mine:
            try:
                _, events = game.apply(before, move)
            except Exception:  # noqa: BLE001 - an entry the engine took once; said nothing of if it changed
                events = []
            if seat in cards_moved(events):
                out.append({"number": node.position, "words": move_words(game, move, players, before)})
        node = node.parent
    return out


def _round_number(state: Any) -> Any:
    return getattr(getattr(state, "round", None), "number", None)
