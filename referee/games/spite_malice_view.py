"""What a Spite & Malice phone may see and enter: whose turn, the legal entries, the cards that can still
turn up and the public table (RULES.md §3.9). Nothing a Spite & Malice table enters is private: every card
named is face up on the table as it is entered (a building pile, a side stack, a pay-off top), and a hand
is only a count. So every seat sees the same table (GEN-6, SM-K9)."""
from __future__ import annotations

from collections import Counter
from dataclasses import fields
from typing import Any

from .base import changed_rules
from .cards import card_name
from .spite_malice_moves import MOVE_NAMES, Build, Discard, Draw, Start, Top, move_to_dict
from .spite_malice_rules import (VARIANTS, copies_of_ranks, deck_cards, fits, is_wild, rank_name, ranks_of,
                                 start_value, value_of)
from .spite_malice_state import NAME, TITLE, State, zone_counts


def to_act(state: State) -> int | None:
    return state.turn if state.phase == "play" else None


def may_act(state: State) -> tuple[int, ...]:
    """Every seat with an entry to make now: the turn first, then every seat whose new pay-off top is
    still to be entered (any phone may enter it); while setting up, every seat with a top or a start."""
    if state.phase == "over":
        return ()
    seats = [state.turn] if state.phase == "play" and state.turn is not None else []
    for i in range(len(state.players)):
        if i not in seats and legal_moves(state, i):
            seats.append(i)
    return tuple(seats)


def start_leaders(state: State) -> tuple[int, ...]:
    """Who may start now, by the tops entered (all seats when a top is unknown: the table says)."""
    if any(st.top is None for st in state.seats):
        return tuple(range(len(state.players)))
    values = [start_value(st.top, state.rules) for st in state.seats]  # type: ignore[arg-type]
    best = max((v for v in values if v is not None), default=None)
    return tuple(i for i, v in enumerate(values) if v == best)


def _availability(state: State):
    """A test of whether one more card of a rank can still turn up (SM-K7)."""
    seen = state.seen_ranks()
    return {rank for rank, n in copies_of_ranks(state.decks, state.rules).items() if seen.get(rank, 0) < n}.__contains__


def free_place(state: State) -> int | None:
    """Where a new building pile goes (its place, 1-based), or None if the table has its most (SM-13)."""
    cap = state.rules["max_center_stacks"]
    if cap is not None and state.live_stacks() >= cap:
        return None
    return next((i + 1 for i, x in enumerate(state.center) if not x), len(state.center) + 1)


def targets(state: State) -> list[tuple[int, int]]:
    """(place, effective rank) of every pile a card may go on now, a new one included (rank 0)."""
    out = [(i + 1, len(stack)) for i, stack in enumerate(state.center) if stack]
    new = free_place(state)
    if new is not None:
        out.append((new, 0))
    return out


def legal_moves(state: State, seat: int | None) -> list[Any]:
    """What ``seat`` may enter now (None: the table has no entries of its own). A hand card is offered by
    rank (the rank that fits, and a king): the referee does not know the hand."""
    if seat is None or state.phase == "over" or not 0 <= seat < len(state.players):
        return []
    st = state.seats[seat]
    moves: list[Any] = []
    if st.top_owed and st.payoff > 0:
        moves.append(Top(seat, None))
    if state.phase == "setup":
        if not any(x.top_owed for x in state.seats) and seat in start_leaders(state):
            moves.append(Start(seat))
        return moves
    if seat != state.turn:
        return moves
    if state.owed:
        return moves + [Draw(seat)]
    if state.ending:  # pragma: no cover - the end-of-turn refill is always owed while ending
        return moves
    rules = state.rules
    available = _availability(state)
    fits_payoff = False
    for place, rank in targets(state):
        if st.hand:
            need = rank_name(rank + 1)
            if available(need):
                moves.append(Build(seat, place, "hand", need))
            for wild in ("K", "JOKER"):
                if available(wild) and fits(rank, wild, rules):
                    moves.append(Build(seat, place, "hand", wild))
        if st.payoff and not st.top_owed and fits(rank, st.top, rules):
            moves.append(Build(seat, place, "payoff", st.top))
            fits_payoff = fits_payoff or st.top is not None
        for k, stack in enumerate(st.sides, 1):
            if stack and fits(rank, stack[-1], rules):
                moves.append(Build(seat, place, f"side{k}", stack[-1]))
    if st.hand and not (rules["payoff_compulsory"] and fits_payoff):
        for k, stack in enumerate(st.sides, 1):
            top = stack[-1] if stack else None
            if rules["side_stack_order"] == "free" or top is None:
                moves.append(Discard(seat, k, None))
            elif is_wild(top):
                moves.append(Discard(seat, k, "K") if available("K") else Discard(seat, k, None))
            else:
                for v in (value_of(top), value_of(top) - 1):
                    if v >= 1 and available(rank_name(v)):
                        moves.append(Discard(seat, k, rank_name(v)))
    return moves


def still_possible(state: State, seat: int | None = None) -> set[str]:
    """Cards that can still turn up (SM-K7, GEN-3): every code of which the table has not seen every copy,
    of a rank not all face up already. Nothing of a hand is known, so ``seat`` changes nothing."""
    cards = state.face_up()
    seen, ranks = Counter(cards), Counter(ranks_of(cards))  # State.seen(), State.seen_ranks() (and None)
    left = {rank for rank, n in copies_of_ranks(state.decks, state.rules).items() if ranks.get(rank, 0) < n}
    return {c for c, n, rank in deck_cards(state.decks, state.rules) if seen.get(c, 0) < n and rank in left}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as every seat sees it (nothing is private, GEN-6): each seat's own legal entries."""
    players = state.players
    center = [{"pile": i + 1, "cards": ["unknown" if c is None else c for c in stack], "rank": len(stack),
               "needs": rank_name(len(stack) + 1) if stack else None,
               "top": (None if not stack or stack[-1] is None else stack[-1]),
               # a top that is not the rank its place counts (let stand by an override, SM-12): said so
               "counts_as": (rank_name(len(stack)) if stack and stack[-1] is not None and not is_wild(stack[-1])
                             and value_of(stack[-1]) != len(stack) else None)}
              for i, stack in enumerate(state.center)]
    seats = []
    for i, st in enumerate(state.seats):
        seats.append({"name": players[i], "payoff": st.payoff, "top": st.top, "top_owed": st.top_owed,
                      "hand": st.hand,
                      "sides": [["unknown" if c is None else c for c in stack] for stack in st.sides],
                      "side_tops": [(stack[-1] if stack else None) for stack in st.sides],
                      "total": state.totals[i] if i < len(state.totals) else 0})
    nxt = None if state.turn is None else (state.turn + 1) % len(players)
    return {
        "game": NAME, "title": TITLE, "players": list(players), "seat": seat, "version": state.version,
        "rules": dict(state.rules), "changed_rules": changed_rules(VARIANTS, state.rules),
        "phase": state.phase, "number": state.number, "decks": state.decks,
        "turn": None if state.turn is None else players[state.turn],
        "next": None if nxt is None or state.phase != "play" else players[nxt],
        "starter": None if state.starter is None else players[state.starter],
        "stock": state.stock, "held": len(state.held), "completed": state.completed,
        "owed": state.owed, "owed_rule": state.owed_rule, "ending": state.ending,
        "center": center, "new_pile": free_place(state) if state.phase == "play" else None,
        "seats": seats, "zones": zone_counts(state),
        "reminders": [{"rule": r, "text": t} for r, t in state.reminders],
        "history": [h.to_dict(players) for h in state.history], "totals": list(state.totals),
        "over": state.over, "winners": [players[i] for i in state.winners], "outcome": state.outcome,
        "flags": [f.to_dict() for f in state.flags],
        "may_act": [players[i] for i in may_act(state)],
        "legal": [_move_dict(m, players) for m in legal_moves(state, seat)],
    }


#: The fields of each entry ``legal_moves`` offers, in order (none holds another entry).
_OFFERED: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls))
                                         for cls in (Top, Start, Draw, Build, Discard)}


def _move_dict(move: Any, players: tuple[str, ...]) -> dict[str, Any]:
    """``move_to_dict`` of an offered entry, its fields looked up once."""
    names = _OFFERED.get(type(move))
    if names is None:  # pragma: no cover - legal_moves offers only these
        return move_to_dict(move, players)
    out: dict[str, Any] = {"move": MOVE_NAMES[type(move)]}
    for name in names:
        value = getattr(move, name)
        if name == "seat":
            if value is not None:
                out[name] = players[value]
        elif name == "card":
            out[name] = card_name(value)
        elif value is not None and value != "":
            out[name] = value
    return out
