"""What a Shithead phone may see and enter: whose turn, who may play out of turn, the legal entries and
the public table (RULES.md §4.11). Nothing a Shithead table enters is private (every played card is
face up, a hand is a count plus the cards the table saw go into it), so every seat sees the same table."""
from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

from .base import changed_rules
from .shithead_logic import advance, describe_top, effective_top, fits, must_play_declared, run_length, zone
from .shithead_moves import Add, FaceUp, Interrupt, Pickup, Play, Start, Swap, move_to_dict
from .shithead_rules import FACE_UP, RANKS, VARIANTS, a_rank, deck, natural, rank_of
from .shithead_state import NAME, TITLE, PileCard, State


def to_act(state: State) -> int | None:
    return state.turn if state.phase == "play" else None


def can_interrupt(state: State, seat: int) -> tuple[str, ...] | None:
    """The cards ``seat`` could complete four of a kind with now (SH-40, by card counts), or None."""
    rules = state.rules
    if (state.phase != "play" or not rules["interrupts"] or len(state.active()) < 3 or seat in state.out
            or seat == state.turn or not state.pile or state.pile[-1].seat == seat):
        return None
    rank, _ = run_length(state)
    if rank is None:
        return None
    # how many the interrupt must add, counted as the engine counts it: the new cards as one more play
    probe = state.pile + (PileCard("", rank, seat, -1),)
    need = 4 - (run_length(state, probe)[1] - 1)
    if need < 1:
        return None
    return _cards_of(state, seat, rank, need)


def can_add(state: State, seat: int) -> tuple[str, ...] | None:
    """A card of the rank just played that ``seat`` may have just drawn (SH-41), or None."""
    last = state.last
    if (state.phase != "play" or last is None or last.seat != seat or seat == state.turn
            or not state.rules["interrupts"] or len(state.active()) < 3 or not state.pile
            or state.pile[-1].play != last.play):
        return None
    return _cards_of(state, seat, last.rank, 1, hand_only=True)


def _cards_of(state: State, seat: int, rank: str, need: int, hand_only: bool = False) -> tuple[str, ...] | None:
    where = zone(state, seat)
    st = state.seats[seat]
    if where == "faceup" and not hand_only:
        got = [c for c in st.faceup if c is not None and rank_of(c) == rank]
        return tuple(got[:need]) if len(got) >= need else None
    if where != "hand" or st.count < need:
        return None
    known = [c for c in st.known if rank_of(c) == rank]
    if hand_only:
        known = []
    cards = known[:need]
    if len(cards) < need and st.unknown >= need - len(cards):
        pool = Counter(deck(state.decks, state.rules))
        pool.subtract(state.seen())
        for code, left in sorted(pool.items()):
            if rank_of(code) == rank and left > 0:
                cards += [code] * min(left, need - len(cards))
    return tuple(cards) if len(cards) == need else None


def may_act(state: State) -> tuple[int, ...]:
    """Every seat that may make an entry now: all seats while setting up; in play the turn first, then
    every seat that may interrupt or add a card just drawn (SH-40, SH-41)."""
    if state.phase == "setup":
        return tuple(range(len(state.players)))
    if state.phase != "play":
        return ()
    seats = [state.turn] if state.turn is not None else []
    for s in range(len(state.players)):
        if s not in seats and (can_interrupt(state, s) is not None or can_add(state, s) is not None):
            seats.append(s)
    return tuple(seats)


def _hand_plays(state: State, seat: int) -> list[Any]:
    st = state.seats[seat]
    moves: list[Any] = []
    pool = Counter(deck(state.decks, state.rules))
    pool.subtract(state.seen())
    codes = set(st.known)
    if st.unknown > 0:
        codes |= {c for c, n in pool.items() if n > 0}
    for code in sorted(codes):
        if code == "JOKER":
            moves.append(Play(seat, (code,), "2"))
        elif fits(state, rank_of(code), (code,)):
            moves.append(Play(seat, (code,)))
    by_rank: dict[str, list[str]] = {}
    for c in st.known:
        by_rank.setdefault(rank_of(c), []).append(c)
    for rank, cs in by_rank.items():
        if len(cs) > 1 and rank != "JOKER" and fits(state, rank, tuple(cs)):
            moves.append(Play(seat, tuple(cs)))
    if state.stock == 0 and st.unknown == 0 and len(by_rank) == 1:  # SH-17: the last hand cards + face up
        rank, cs = next(iter(by_rank.items()))
        more = tuple(c for c in st.faceup if c is not None and rank_of(c) == rank)
        if more and rank != "JOKER" and fits(state, rank, tuple(cs)):
            moves.append(Play(seat, tuple(cs) + more))
    return moves


def legal_moves(state: State, seat: int | None) -> list[Any]:
    """What ``seat`` may enter now (None: the table has no entries of its own)."""
    if seat is None or state.phase == "over" or seat in state.out:
        return []
    st = state.seats[seat]
    if state.phase == "setup":
        if not st.entered:
            return [FaceUp(seat, (None,) * FACE_UP)]
        moves: list[Any] = []
        if state.rules["faceup_swap_allowed"]:
            moves += [Swap(seat, None, c) for c in dict.fromkeys(st.faceup)]
        everyone = all(x.entered for x in state.seats)
        left = (state.dealer + 1) % len(state.players)
        if everyone and (state.rules["start_rank_rule"] != "dealer_left" or seat == left):
            moves.append(Start(seat, None))
        return moves
    if seat != state.turn:
        out: list[Any] = []
        cards = can_interrupt(state, seat)
        if cards is not None:
            rank = run_length(state)[0]
            out.append(Interrupt(seat, cards, rank if "JOKER" in cards else None))
        cards = can_add(state, seat)
        if cards is not None:
            out.append(Add(seat, cards))
        return out
    where = zone(state, seat)
    if where == "hand":
        moves = _hand_plays(state, seat)
        if must_play_declared(state, seat):  # SH-4, SH-V17
            moves = [m for m in moves if rank_of(m.cards[0]) == rank_of(state.declared)]
    elif where == "faceup":
        moves = []
        if state.rules["faceup_play"] == "same_rank_set":
            groups: dict[str, list[str]] = {}
            for c in st.faceup:
                if c is not None:
                    groups.setdefault(rank_of(c), []).append(c)
            for r, cs in groups.items():  # each card checked on its own (a 9's suit, SH-V6), then together
                ok = tuple(c for c in cs if r != "JOKER" and fits(state, r, (c,)))
                if ok and fits(state, r, ok):
                    moves.append(Play(seat, ok))
            moves += [Play(seat, ("JOKER",), "2")] if "JOKER" in st.faceup else []
            moves += [Play(seat, (None,))] if None in st.faceup else []
        else:
            moves = [Play(seat, (c,), "2" if c == "JOKER" else None) for c in dict.fromkeys(st.faceup)]
    else:
        moves = [Play(seat, (None,))]
    known_play = any(all(c in st.known or c in st.faceup for c in m.cards if c is not None) and None not in m.cards
                     for m in moves)
    forced = not known_play and (where == "hand" or (where == "faceup"
                                                     and state.rules["faceup_play"] == "same_rank_set"))
    if state.pile and (state.rules["voluntary_pickup"] or forced):  # SH-14, SH-18
        moves.append(Pickup(seat))
    return moves


def still_possible(state: State, seat: int | None = None) -> set[str]:
    """Cards that can still turn up (SH-K5, SH-K11): every card the table has not seen all copies of;
    ``seat``'s own known hand cards count as possible (they are what is being looked at)."""
    pool = Counter(deck(state.decks, state.rules))
    pool.subtract(state.seen())
    if seat is not None and 0 <= seat < len(state.seats):
        pool.update(state.seats[seat].known)
    return {c for c, n in pool.items() if n > 0}


def combos(state: State, seat: int, rank: str) -> list[tuple[str, ...]]:
    """Every set of cards of ``rank`` the seat might play now (the picker's buttons), smallest first."""
    st = state.seats[seat]
    pool = Counter(deck(state.decks, state.rules))
    pool.subtract(state.seen())
    avail = [c for c in st.known if rank_of(c) == rank]
    if st.unknown:
        for code, n in sorted(pool.items()):
            if rank_of(code) == rank and n > 0:
                avail += [code] * min(n, st.unknown)
    out: list[tuple[str, ...]] = []
    for k in range(1, min(len(avail), st.count) + 1):
        for combo in combinations(sorted(avail), k):
            if combo not in out:
                out.append(combo)
    return out[:40]


def swap_choices(state: State, seat: int) -> dict[str, list[str]] | None:
    """What the swap picker offers ``seat`` before play (SH-3), or None when it may not swap: ``out``, the
    face-up card given up, one of its own face-up cards ("unknown" for one nobody entered, GEN-14); ``card``,
    the hand card put face up, any card that hand may still hold: its known cards, and while some of it is
    unseen, every card the table has not seen all copies of (GEN-3; never a card lying face up, with one
    deck). The referee accepts every pair offered."""
    if not any(isinstance(m, Swap) for m in legal_moves(state, seat)):
        return None
    st = state.seats[seat]
    hand = set(st.known)
    if st.unknown > 0:
        pool = Counter(deck(state.decks, state.rules))
        pool.subtract(state.seen())
        hand |= {c for c, n in pool.items() if n > 0}
    return {"out": ["unknown" if c is None else c for c in dict.fromkeys(st.faceup)],
            "card": sorted(hand, key=_card_order)}


def faceup_choices(state: State, seat: int) -> list[str] | None:
    """What the form of ``seat``'s face-up cards offers (SH-2), or None when they are not to be entered:
    "unknown" (a card nobody could see, GEN-14), then every card the table has not seen all copies of
    (GEN-3; never a card lying face up elsewhere or known in a hand, with one deck)."""
    if not any(isinstance(m, FaceUp) for m in legal_moves(state, seat)):
        return None
    pool = Counter(deck(state.decks, state.rules))
    pool.subtract(state.seen())
    return ["unknown", *sorted((c for c, n in pool.items() if n > 0), key=_card_order)]


def start_choices(state: State, seat: int) -> list[str] | None:
    """The lowest card ``seat`` may show to start (SH-4), or None when it may not start: a natural card its
    hand may hold (its known cards, and while some of it is unseen, every card the table has not seen all
    copies of, GEN-3: never a card lying face up or known in another hand, with one deck), and with SH-V19
    (``hand_and_faceup``) its own natural face-up cards. The referee accepts every card offered."""
    if not any(isinstance(m, Start) for m in legal_moves(state, seat)):
        return None
    st = state.seats[seat]
    cards = set(st.known)
    if st.unknown > 0:
        cards |= still_possible(state, seat)
    if state.rules["start_rank_zones"] == "hand_and_faceup":
        cards |= {c for c in st.faceup if c is not None}
    return sorted((c for c in cards if c != "JOKER" and natural(rank_of(c), state.rules)), key=_card_order)


def choices(state: State, seat: int) -> dict[str, Any]:
    """What ``seat``'s picker offers now: before play, its face-up cards (``faceup_choices``), the swap
    (``swap_choices``) and the lowest card to start with (``start_choices``); in play, for each rank it may
    play (or interrupt / add with), the cards of that rank it may hold in its active zone, and how many such
    cards one entry takes."""
    if state.phase == "setup":
        found = {"faceup": faceup_choices(state, seat), "swap": swap_choices(state, seat),
                 "start": start_choices(state, seat)}
        return {k: v for k, v in found.items() if v is not None}
    moves = [m for m in legal_moves(state, seat) if isinstance(m, (Play, Interrupt, Add))]
    st, where = state.seats[seat], zone(state, seat)
    pool = Counter(deck(state.decks, state.rules))
    pool.subtract(state.seen())
    kinds: dict[str, dict[str, Any]] = {}
    for m in moves:
        if None in m.cards:
            continue
        kind = {Play: "play", Interrupt: "interrupt", Add: "add"}[type(m)]
        rank = m.rank if m.rank and "JOKER" not in m.cards else rank_of(m.cards[0])
        if "JOKER" in m.cards and kind == "play":
            rank = "JOKER"
        ranks = kinds.setdefault(kind, {"ranks": {}, "need": len(m.cards) if kind == "interrupt" else None})["ranks"]
        if rank in ranks:
            continue
        if where == "faceup" and kind != "add":
            have = [c for c in st.faceup if c is not None and rank_of(c) == rank]
        else:
            have = [c for c in st.known if rank_of(c) == rank and kind != "add"]  # an added card was just drawn
            if st.unknown:
                have += [c for c, n in pool.items() if n > 0 and rank_of(c) == rank]
            if kind == "play" and state.stock == 0:  # SH-17: the last hand cards with face-up ones
                have += [c for c in st.faceup if c is not None and rank_of(c) == rank]
        ranks[rank] = sorted(dict.fromkeys(have), key=_card_order)
    for kind in kinds.values():  # the picker's buttons in rank order, 2 to ace
        kind["ranks"] = dict(sorted(kind["ranks"].items(), key=lambda item: _card_order(item[0] + "S")))
    return kinds


_ORDER = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _card_order(card: str) -> tuple[int, str]:
    return (_ORDER.index(rank_of(card)) if rank_of(card) in _ORDER else 99, card)


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The table as every seat sees it (there is nothing private in Shithead, GEN-6 / SH-K4)."""
    players = state.players
    top, through = effective_top(state)
    run_rank, run = run_length(state)
    seats = []
    for i, st in enumerate(state.seats):
        seats.append({"name": players[i], "count": st.count, "known": list(st.known), "unknown": st.unknown,
                      "faceup": ["unknown" if c is None else c for c in st.faceup], "facedown": st.facedown,
                      "entered": st.entered, "out": i in state.out,
                      "place": state.out.index(i) + 1 if i in state.out else None,
                      "zone": zone(state, i) if state.phase == "play" and i not in state.out else None,
                      "interrupt": can_interrupt(state, i) is not None, "add": can_add(state, i) is not None})
    nxt = None
    if state.phase == "play" and state.turn is not None:
        nxt = advance(state, state.turn, 1)[0]
    return {
        "game": NAME, "title": TITLE, "players": list(players), "seat": seat, "version": state.version,
        "rules": dict(state.rules), "changed_rules": changed_rules(VARIANTS, state.rules),
        "phase": state.phase, "number": state.number, "games": state.rules["games"], "decks": state.decks,
        "dealer": players[state.dealer], "turn": None if state.turn is None else players[state.turn],
        "next": None if nxt is None else players[nxt], "direction": state.direction,
        "starter": None if state.starter is None else players[state.starter], "declared": state.declared,
        "stock": state.stock, "pile": [p.card for p in state.pile], "pile_count": len(state.pile),
        "top": None if top is None else top.card, "through_threes": through, "beat": _beat(state),
        "run": {"rank": run_rank, "count": run}, "burned": len(state.burned), "seats": seats,
        "out": [players[i] for i in state.out], "reminders": [{"rule": r, "text": t} for r, t in state.reminders],
        "history": [h.to_dict(players) for h in state.history], "tally": list(state.tally),
        "totals": list(state.tally), "over": state.over, "winners": [players[i] for i in state.winners],
        "outcome": state.outcome, "flags": [f.to_dict() for f in state.flags],
        "may_act": [players[i] for i in may_act(state)],
        "legal": [move_to_dict(m, players) for m in legal_moves(state, seat)],
        "ranks": [r for r in RANKS],
        "natural_ranks": [r for r in RANKS if natural(r, state.rules)],  # what a starter may show (SH-4)
        "choices": {players[i]: choices(state, i) for i in may_act(state)},
    }


def _beat(state: State) -> str:
    """What the player to act may play, in words (the status line): the starter bound to the card declared
    plays that rank (SH-4, SH-V17; "play anything" above the reminder said otherwise), else what beats the pile."""
    if state.turn is not None and must_play_declared(state, state.turn):
        declared = a_rank(rank_of(state.declared))
        return f"{declared} (the card declared, SH-4)"
    return describe_top(state)
