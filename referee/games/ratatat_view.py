"""What a seat may see and enter in Rat-a-Tat Cat: the legal entries, a seat's view of the table
(GEN-6, RTC-K10), the cards that can still turn up (RTC-K8) and the zone counts (GEN-1)."""
from __future__ import annotations

from typing import Any

from .base import ResolveFlag, changed_rules
from .ratatat_cards import RTC_POWERS, is_power
from .ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace, Reshuffle, Reveal, RevealDraw,
                            Stalemate, Swap, TakeDiscard, TimeUp, TurnUp, UsePower, move_to_dict)
from .ratatat_rules import SLOTS, VARIANTS
from .ratatat_state import NAME, TITLE, State, Token, awaiting_flags


def legal_moves(state: State, seat: int | None) -> list[Any]:
    """What ``seat`` may enter now, with card values left unknown (the player fills them in).
    ``None`` asks for the entries anyone at the table may make (turn-ups, reveals)."""
    r = state.round
    if r is None:
        return []
    rules = state.rules
    moves: list[Any] = []
    if r.awaiting_turn_up:
        moves.append(TurnUp(None))
    if r.draw == 0 and (r.discard and (len(r.discard) > 1 or not rules["reshuffle_keeps_top_discard"])):
        moves.append(Reshuffle())
    if rules["game_end_mode"] == "timed" and not state.time_up:
        moves.append(TimeUp())  # also during the reveal: do_TimeUp accepts it there
    if r.step == "reveal":
        for s in r.seats:
            if s not in r.revealed:
                moves.append(Reveal(s, (None,) * SLOTS))
        for s, slot in r.to_replace:
            moves.append(RevealDraw(s, slot, None))
        for flag in awaiting_flags(state):  # GEN-5: the round waits for the table's decision
            moves.extend(ResolveFlag(flag, decision) for decision in ("accept", "override"))
        return [m for m in moves if seat is None or getattr(m, "seat", None) in (None, seat)]
    if (rules["stalemate_rotations"] is not None and r.caller is None and r.step == "start"
            and not r.d2_active and not r.extra_turns
            and r.turns_done // len(r.seats) >= rules["stalemate_rotations"]):
        moves.append(Stalemate())
    if seat is None:
        return moves
    if seat in r.seats and seat not in r.peeked and seat not in r.played:
        slots = (1, SLOTS) if rules["initial_peek"] != "any_two" else (1, 2)
        moves.append(InitialPeek(seat, slots))
    can_call = r.caller is None and r.turns_done // len(r.seats) >= rules["min_rotations_before_call"]
    if can_call and rules["call_timing"] == "end_of_turn" and r.call_window == seat:
        moves.append(Call(seat))
    if r.turn != seat or r.awaiting_turn_up:
        return moves
    if r.step == "start":
        if r.draw:
            moves.append(Draw(seat))
        top = r.discard[-1].value if r.discard else "none"
        if (top != "none" and (not is_power(top) or rules["power_from_discard"] == "allowed_no_power")
                and (not r.d2_active or rules["draw2_source"] == "discard_allowed")):
            moves.append(TakeDiscard(seat))
        if can_call and rules["call_timing"] == "instead_of_turn" and not r.d2_active and not r.extra_turns:
            moves.append(Call(seat))
    elif r.step == "holding":
        known = r.pending.value or r.pending.noted_by(seat)
        power_blocked = is_power(known) and r.pending_from == "draw" and (
            rules["power_into_row"] == "forbidden" or not rules["power_use_optional"])
        if not power_blocked:
            moves.extend(Replace(seat, slot) for slot in range(1, SLOTS + 1))
        if r.pending_from == "draw":
            if not (is_power(known) and not rules["power_use_optional"]):
                moves.append(Discard(seat))
            powers = [known] if is_power(known) else [] if known else [
                p for p in RTC_POWERS if p in state.deck]
            moves.extend(UsePower(seat, p) for p in powers)
        if (rules["seed_reveal_then_choose"] and r.pending_from == "draw" and not r.d2_active and r.discard
                and (not is_power(r.discard[-1].value) or rules["power_from_discard"] == "allowed_no_power")):
            moves.append(TakeDiscard(seat))
    elif r.step == "peek":
        targets = r.seats if (rules["peek_scope"] == "any_table_card" or r.power == "SUPERPEEK") else (seat,)
        moves.extend(Peek(seat, slot, None if t == seat else t) for t in targets
                     for slot in range(1, SLOTS + 1))
    elif r.step == "swap":
        before = len(moves)
        for t in r.seats:
            if t == seat or (t == r.caller and rules["caller_protected_after_call"]):
                continue
            for mine in range(1, SLOTS + 1):
                for theirs in range(1, SLOTS + 1):
                    if r.rows[seat][mine - 1].face_up or r.rows[t][theirs - 1].face_up:
                        continue
                    moves.append(Swap(seat, mine, t, theirs))
        if rules["power_use_optional"] or len(moves) == before:  # no card to swap with: no swap
            moves.insert(before, Swap(seat))
    return moves


def _row_count(values: list[str | None]) -> dict[str, int]:
    """A row's known-card subtotal (RTC-K10): the numbers known, the cards not known, and the power
    cards known to lie there, which count for nothing known yet (each is replaced by a draw at the
    reveal, RTC-44)."""
    numbers = [int(v) for v in values if v is not None and not is_power(v)]
    powers = sum(1 for v in values if v is not None and is_power(v))
    return {"known_subtotal": sum(numbers), "known": len(numbers), "powers": powers,
            "unknown": len(values) - len(numbers) - powers}


def _slot_view(token: Token, seat: int | None, revealed: bool) -> dict[str, Any]:
    return {"card": token.value, "mine": None if seat is None else token.noted_by(seat),
            "face_up": token.face_up or revealed}


_history_views: dict[int, tuple[tuple, tuple, list[dict[str, Any]]]] = {}


def _history_view(history: tuple, players: tuple[str, ...]) -> list[dict[str, Any]]:
    """The round results in their named form. Every phone's screen asks for them after every entry and
    they change only when a round ends (a state passes its ``history`` tuple on unchanged), so the
    dicts are remembered per tuple: a pure memo, kept with the tuple itself so an ``id`` is never
    mistaken. A fresh list each time; its dicts are read only."""
    hit = _history_views.get(id(history))
    if hit is not None and hit[0] is history and hit[1] == players:
        return list(hit[2])
    named = [h.to_dict(players) for h in history]
    if len(_history_views) >= 256:
        _history_views.clear()
    _history_views[id(history)] = (history, players, named)
    return list(named)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (GEN-6, RTC-K10): public values, and only that seat's own private notes.
    ``None`` is a spectator or the shared screen."""
    players = state.players
    out: dict[str, Any] = {
        "game": NAME, "title": TITLE, "players": list(players), "seat": seat, "version": state.version,
        "rules": dict(state.rules), "changed_rules": changed_rules(VARIANTS, state.rules),
        "totals": list(state.totals), "eliminated": sorted(state.eliminated), "over": state.over,
        "winners": list(state.winners), "outcome": state.outcome, "time_up": state.time_up,
        "flags": [f.to_dict() for f in state.flags],
        "history": _history_view(state.history, players), "round": None,
        "legal": [move_to_dict(m, players) for m in legal_moves(state, seat)],
    }
    r = state.round
    if r is None:
        return out
    rows = {}
    for s in r.seats:
        slots = [_slot_view(t, seat, s in r.revealed) for t in r.rows[s]]
        rows[players[s]] = {"slots": slots, **_row_count([t.value for t in r.rows[s]]),
                            "yours": _row_count([t.value or t.noted_by(s) for t in r.rows[s]]) if s == seat else None,
                            "revealed": s in r.revealed}
    holding = None
    if r.pending is not None:
        holder = r.turn
        holding = {"seat": players[holder], "from": r.pending_from, "card": r.pending.value,
                   "mine": r.pending.noted_by(seat) if seat == holder else None}
    final_left = r.final_left if r.caller is not None else None
    out["round"] = {
        "number": r.number, "dealer": players[r.dealer], "seats": [players[s] for s in r.seats],
        "turn": None if r.turn is None else players[r.turn], "step": r.step,
        "caller": None if r.caller is None else players[r.caller], "final_turns_left": final_left,
        "draw_count": r.draw, "discard_count": len(r.discard),
        "discard_top": r.discard[-1].value if r.discard else None, "has_discard": bool(r.discard),
        "awaiting_turn_up": r.awaiting_turn_up, "draw2_draws_left": r.d2_left if r.d2_active else None,
        "extra_turns": r.extra_turns, "power": r.power, "holding": holding, "rows": rows,
        "to_replace": [[players[s], slot] for s, slot in r.to_replace], "tiebreak": r.tiebreak,
        "turns_done": r.turns_done, "awaiting_flags": list(awaiting_flags(state)), "returned": r.returned,
    }
    return out


def still_possible(state: State, seat: int | None = None) -> set[str]:
    """Cards that can still turn up (RTC-K8): every value the table has not already seen all copies
    of. A camera read outside this set is a misread. The cards of ``seat``'s own row count as
    possible, since they are what is being looked at."""
    r = state.round
    if r is None:
        return set(state.deck)
    seen: dict[str, int] = {}
    tokens = list(r.discard) + [t for s in r.seats if s != seat for t in r.rows[s]]
    if r.pending is not None:
        tokens.append(r.pending)
    for t in tokens:
        if t.value is not None:
            seen[t.value] = seen.get(t.value, 0) + 1
    return {v for v, copies in state.deck.items() if seen.get(v, 0) < copies}


def zone_counts(state: State) -> dict[str, int]:
    """Cards per zone (GEN-1); they always add up to the deck size (GEN-3, RTC-K1)."""
    r = state.round
    if r is None:
        return {}
    counts = {"draw": r.draw, "discard": len(r.discard), "pending": 0 if r.pending is None else 1}
    for s in r.seats:
        counts[f"row:{state.players[s]}"] = len(r.rows[s])
    return counts

