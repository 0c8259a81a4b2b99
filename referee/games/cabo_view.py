"""What a seat may see and enter in Cabo / Cambio: the legal entries, a seat's view of the table (GEN-6),
the cards that can still turn up (GEN-3) and the zone counts (GEN-1, CAB-K1)."""
from __future__ import annotations

from typing import Any, Mapping

from .base import ResolveFlag, changed_rules
from .cabo_cards import points, power, power_cards
from .cabo_moves import (Call, Discard, Draw, Give, InitialPeek, LookSwap, Match, Peek, Replace, Reshuffle,
                         Reveal, Snap, Swap, TakeDiscard, TurnUp, UsePower, move_to_dict)
from .cabo_rules import VARIANTS
from .cabo_state import NAME, TITLE, State, Token, awaiting_flags, cards_in, places, top_rank


def _locked(state: State, seat: int) -> bool:
    r = state.round
    return r.caller is not None and seat == r.caller and state.rules["caller_lock"]


def power_has_target(state: State, seat: int, what: str) -> bool:
    """Whether a power has a card to act on (mirrors ``cabo_apply._Entry.has_target``)."""
    r = state.round
    mine = bool(cards_in(r.rows[seat]))
    others = [s for s in r.seats if s != seat and cards_in(r.rows[s])]
    if what == "peek":
        return mine
    if what == "spy":
        return bool(others)
    if what == "swap" and state.rules["swap_power_scope"] == "any_two":
        return len([s for s in r.seats if cards_in(r.rows[s]) and not _locked(state, s)]) >= 2
    return mine and any(not _locked(state, s) for s in others)


def snap_moves(state: State, seat: int) -> list[Any]:
    """The snaps ``seat`` may try now (CAB-6): any card of any layout but a locked caller's."""
    r = state.round
    if (not state.rules["snap_enabled"] or r.snap_top is None or r.scoring or r.give_owed is not None
            or seat not in r.seats or seat in r.snap_tried or _locked(state, seat)):
        return []
    return [Snap(seat, p, None if owner == seat else owner, r.rows[owner][p - 1].value) for owner in r.seats
            if not _locked(state, owner) for p in places(r.rows[owner])]


def legal_moves(state: State, seat: int | None) -> list[Any]:
    """What ``seat`` may enter now. A card the table already knows is filled in (a card turned up, taken
    or snapped); any other card value is left unknown, for the player to fill in. ``None`` asks for the
    entries of the whole table (the turn-up, a reshuffle, the reveals)."""
    r = state.round
    if r is None:
        return []
    rules = state.rules
    moves: list[Any] = []
    if r.awaiting_turn_up:
        moves.append(TurnUp(None))
    owed = r.give_owed
    if owed is not None:
        if seat == owed[0]:
            moves.extend(Give(seat, p) for p in places(r.rows[seat]))
        return moves
    if not rules["deck_out_ends_round"] and r.draw == 0 and len(r.discard) > 1:
        moves.append(Reshuffle())
    if r.step == "reveal":
        if seat is not None:
            moves.extend(snap_moves(state, seat))
        for s in r.seats:
            if s not in r.revealed and (seat is None or seat == s):
                moves.append(Reveal(s, tuple(t.value for t in cards_in(r.rows[s]))))
                moves.extend(Reveal(s, (t.value,), p) for p, t in zip(places(r.rows[s]), cards_in(r.rows[s]))
                             if not (t.face_up and t.value is not None))
        for flag in awaiting_flags(state):  # GEN-5: the round waits for the table's decision
            moves.extend(ResolveFlag(flag, decision) for decision in ("accept", "override"))
        return moves
    if seat is None:
        return moves
    mine = places(r.rows[seat]) if seat in r.seats else []
    if seat in r.seats and seat not in r.peeked and seat not in r.played:  # at the cards dealt (CAB-2)
        moves.append(InitialPeek(seat, (3, 4) if rules["initial_look"] == "nearest_two" else (1, 2)))
    moves.extend(snap_moves(state, seat))
    if r.caller is None and rules["call_timing"] == "end_of_turn" and r.call_window == seat:
        moves.append(Call(seat))
    if r.turn != seat or r.awaiting_turn_up:
        return moves
    if r.step == "start":
        if r.draw:
            moves.append(Draw(seat))
        if r.discard and mine:
            moves.append(TakeDiscard(seat, r.discard[-1].value))
        if r.caller is None and rules["call_timing"] == "instead_of_turn":
            moves.append(Call(seat))
    elif r.step == "holding":
        row = r.rows[seat]
        moves.extend(Replace(seat, p, row[p - 1].value) for p in mine)
        if rules["matching_exchange"] != "off":
            moves.extend(Match(seat, (a, b), (row[a - 1].value, row[b - 1].value))
                         for i, a in enumerate(mine) for b in mine[i + 1:])
        if r.pending_from == "draw":
            moves.append(Discard(seat))
            known = r.pending.value or r.pending.noted_by(seat)
            options = [known] if known else list(power_cards(rules))
            moves.extend(UsePower(seat, c) for c in options
                         if power(c, rules) and power_has_target(state, seat, power(c, rules)))
    elif r.step == "peek":
        moves.extend(Peek(seat, p) for p in mine)
    elif r.step == "spy":
        moves.extend(Peek(seat, p, t) for t in r.seats if t != seat for p in places(r.rows[t]))
    elif r.step == "swap":
        moves.append(Swap(seat))
        free = [t for t in r.seats if not _locked(state, t)]
        if rules["swap_power_scope"] == "own_other":
            moves.extend(Swap(seat, p, t, q) for t in free if t != seat for p in mine for q in places(r.rows[t]))
        else:
            moves.extend(Swap(seat, p, t, q, None if o == seat else o) for o in free for t in free if o < t
                         for p in places(r.rows[o]) for q in places(r.rows[t]))
    elif r.step == "look_swap":
        for t in r.seats:
            if t == seat:
                continue
            for p in mine:
                for q in places(r.rows[t]):
                    moves.append(LookSwap(seat, p, t, q, False))
                    if not _locked(state, t):
                        moves.append(LookSwap(seat, p, t, q, True))
    return moves


def _count(values: list[str | None], rules: Mapping[str, Any]) -> dict[str, int]:
    """A hand's known-card subtotal (CAB-K*): the points of the cards known and how many are not."""
    known = [v for v in values if v is not None]
    return {"known_subtotal": sum(points(v, rules) for v in known), "known": len(known),
            "unknown": len(values) - len(known), "powers": 0}


def _slot_view(token: Token | None, seat: int | None, revealed: bool) -> dict[str, Any]:
    if token is None:
        return {"empty": True, "card": None, "mine": None, "face_up": False}
    return {"empty": False, "card": token.value, "mine": None if seat is None else token.noted_by(seat),
            "face_up": token.face_up or revealed}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (GEN-6): public values, and only that seat's own private notes. ``None`` is
    a spectator or the shared screen."""
    players = state.players
    rules = state.rules
    out: dict[str, Any] = {
        "game": NAME, "title": TITLE, "players": list(players), "seat": seat, "version": state.version,
        "rules": dict(rules), "changed_rules": changed_rules(VARIANTS, rules),
        "totals": list(state.totals), "resets_used": sorted(players[s] for s in state.resets_used),
        "over": state.over, "winners": list(state.winners), "outcome": state.outcome,
        "flags": [f.to_dict() for f in state.flags],
        "history": [h.to_dict(players) for h in state.history], "round": None,
        "legal": [move_to_dict(m, players) for m in legal_moves(state, seat)],
    }
    r = state.round
    if r is None:
        return out
    rows = {}
    for s in r.seats:
        row = r.rows[s]
        held = cards_in(row)
        rows[players[s]] = {"slots": [_slot_view(t, seat, s in r.revealed) for t in row],
                            "cards": len(held), **_count([t.value for t in held], rules),
                            "yours": _count([t.value or t.noted_by(s) for t in held], rules) if s == seat else None,
                            "revealed": s in r.revealed, "locked": _locked(state, s)}
    holding = None
    if r.pending is not None:
        holder = r.turn
        holding = {"seat": players[holder], "from": r.pending_from, "card": r.pending.value,
                   "mine": r.pending.noted_by(seat) if seat == holder else None}
    snap = None
    if r.snap_top is not None:
        snap = {"onto": r.discard[r.snap_top].value, "tried": [players[s] for s in sorted(r.snap_tried)]}
    owed = None
    if r.give_owed is not None:
        owed = {"seat": players[r.give_owed[0]], "owner": players[r.give_owed[1]], "place": r.give_owed[2]}
    out["round"] = {
        "number": r.number, "dealer": players[r.dealer], "seats": [players[s] for s in r.seats],
        "turn": None if r.turn is None else players[r.turn], "step": r.step,
        "caller": None if r.caller is None else players[r.caller],
        "final_turns_left": r.final_left if r.caller is not None else None,
        "draw_count": r.draw, "discard_count": len(r.discard),
        "discard_top": r.discard[-1].value if r.discard else None, "has_discard": bool(r.discard),
        "discard_top_rank": top_rank(r),  # public: only the rank of the top is known (CAB-6)
        "awaiting_turn_up": r.awaiting_turn_up, "power": r.power, "holding": holding, "rows": rows,
        "snap": snap, "give_owed": owed, "deck_out": r.deck_out, "turns_done": r.turns_done,
        "awaiting_flags": list(awaiting_flags(state)),
    }
    return out


def still_possible(state: State, seat: int | None = None) -> set[str]:
    """Cards that can still turn up (GEN-3): every card the table has not already seen all copies of (a
    standard deck has one K♥). The cards of ``seat``'s own layout count as possible, since they are what
    is being looked at."""
    r = state.round
    if r is None:
        return set(state.deck)
    seen: dict[str, int] = {}
    tokens = list(r.discard) + [t for s in r.seats if s != seat for t in cards_in(r.rows[s])]
    if r.pending is not None:
        tokens.append(r.pending)
    for t in tokens:
        if t.value is not None:
            seen[t.value] = seen.get(t.value, 0) + 1
    return {v for v, copies in state.deck.items() if seen.get(v, 0) < copies}


def zone_counts(state: State) -> dict[str, int]:
    """Cards per zone (GEN-1): they always add up to the deck size (CAB-K1)."""
    r = state.round
    if r is None:
        return {}
    counts = {"draw": r.draw, "discard": len(r.discard), "pending": 0 if r.pending is None else 1}
    for s in r.seats:
        counts[f"layout:{state.players[s]}"] = len(cards_in(r.rows[s]))
    return counts
