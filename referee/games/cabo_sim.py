"""A simulated physical Cabo / Cambio table: a TRUE shuffled deck the referee never sees, and a random but
honest driver that enters what a careful table would enter (RULES.md §2). The state machines of
tests/games/test_cabo_stateful.py and benchmarks/engine_bench.py both play at it.

Pure like the engine: the caller brings the source of randomness (``rng``, e.g. a seeded
``random.Random``), so a run replays from its seed; nothing here reads a clock or does I/O. What the
simulated tables share (the true zones, the entries both games have, the GEN-12 checks): sim.py.

Cards are integer ids; ``Table.values[id]`` is the printed card. The simulation mirrors the engine's zones
place by place (layouts with their empty places, the discard pile, the card in hand, the draw pile), so the
engine's public knowledge can be checked against the truth after every entry (GEN-12).

Knowledge (GEN-2, GEN-6): a card is *public* once a value was entered for it in a public observation (the
turn-up, a shown draw, a take from the discard pile with a value, a card leaving a layout, a discard, a
power shown, a matching claim or a snap, the reveal); a seat has *noted* a card when it entered its value
privately (a draw, a Peek or Spy, the first look, a look-and-swap). Honest play never raises GEN-3/GEN-4.
"""
from __future__ import annotations

from typing import Any, Iterator

from . import cabo as game
from .cabo_cards import points, power, rank
from .cabo_moves import (Call, Discard, Draw, Give, InitialPeek, LookSwap, Match, Peek, Replace, Reshuffle,
                         Reveal, Snap, Swap, TakeDiscard, TurnUp, UsePower)
from .cabo_presets import BY_KEY
from .sim import SimError, TrueTable, play_match, play_round

__all__ = ["SimError", "Table", "expected_scores", "play_match", "play_round", "preset_rules"]


def expected_scores(cards: dict[int, tuple[str, ...]], caller: int | None, rules: Any) -> dict[int, int]:
    """CAB-40..44, written independently of cabo_scoring."""
    sums = {s: sum(points(c, rules) for c in cs) for s, cs in cards.items()}
    low = min(sums.values())
    if rules["kamikaze"]:
        for s, cs in cards.items():
            if sorted(points(c, rules) for c in cs) == [12, 12, 13, 13]:
                return {x: 0 if x == s else 50 for x in sums}
    if rules["round_score"] == "cabo_2e":
        out = dict(sums)
        if caller is not None:
            out[caller] = 0 if sums[caller] == low else sums[caller] + 10
        return out
    if rules["round_score"] == "cabo_1e":
        out = {s: 0 if v == low else v for s, v in sums.items()}
        if caller is not None and sums[caller] != low:
            out[caller] = sums[caller] + 5
        return out
    return sums


class Table(TrueTable):
    """One match at a physical table: the engine's state plus the true cards. With ``check``, every entry
    that does not end a round is checked against the true cards (``check_all``)."""

    game = game
    FIRST_LOOK_AT_DEAL = True  # CAB-2, RTC-K4: a first look noted late lands on the dealt card

    def __init__(self, players: tuple[str, ...], rules: dict[str, Any] | None, rng: Any, *,
                 call_turns: tuple[int, int] = (2, 10), p_unknown: float = 0.1, p_wrong: float = 0.05,
                 check: bool = True):
        super().__init__(players, game.new_match(tuple(players), rules), rng, p_unknown=p_unknown, check=check)
        self.call_turns = call_turns
        self.p_wrong = p_wrong
        self.used: set[int] = set()
        self._deal()

    # --- The true table ----------------------------------------------------------------------
    def _deal(self) -> None:
        self._deal_rows(range(len(self.players)))
        self.call_at = self.rng.randint(*self.call_turns)

    def knows(self, seat: int, card: int | None) -> bool:
        return card is not None and (card in self.public or (card, seat) in self.notes)

    def held(self, seat: int) -> list[int]:
        """The places (from 1) of ``seat``'s layout that hold a card."""
        return [i + 1 for i, c in enumerate(self.rows[seat]) if c is not None]

    def add(self, seat: int, card: int) -> None:
        row = self.rows[seat]
        for i, c in enumerate(row):
            if c is None:
                row[i] = card
                return
        row.append(card)

    def locked(self, seat: int) -> bool:
        r = self.state.round
        return r.caller is not None and r.caller == seat and self.rules["caller_lock"]

    # --- The driver --------------------------------------------------------------------------
    def choose(self) -> Any:
        """A legal entry with its card values filled in from the true cards."""
        st, rng = self.state, self.rng
        r = st.round
        if r is None:
            raise SimError("the match is over")
        if r.awaiting_turn_up:
            return TurnUp(self.maybe(self.draw[-1]))
        if r.give_owed is not None:
            seat = r.give_owed[0]
            return Give(seat, rng.choice(self.held(seat)))
        snap = self._snap()
        if snap is not None:
            return snap
        if r.step == "reveal":
            return self._reveal()
        if Reshuffle() in game.legal_moves(st, None) and r.step == "start":
            return Reshuffle()
        if r.call_window is not None and r.call_window != r.turn and self._wants_call():
            return Call(r.call_window)
        return self._turn(r.turn)

    def _wants_call(self) -> bool:
        r = self.state.round
        return r.caller is None and (r.turns_done >= self.call_at or self.rng.random() < 0.02)

    def _snap(self) -> Any:
        """Sometimes a player snaps: a card they know to match the fresh discard, or (rarely) a wrong guess."""
        st, rng = self.state, self.rng
        r = st.round
        if (not self.rules["snap_enabled"] or r.snap_top is None or r.scoring or rng.random() < 0.3):
            return None
        top = self.discard[-1]
        tries = []
        for seat in r.seats:
            if seat in r.snap_tried or self.locked(seat):
                continue
            for owner in r.seats:
                if self.locked(owner):
                    continue
                for slot in self.held(owner):
                    c = self.rows[owner][slot - 1]
                    good = self.knows(seat, c) and rank(self.value(c)) == rank(self.value(top))
                    if good or rng.random() < self.p_wrong / 8:
                        tries.append((seat, owner, slot, c))
        if not tries:
            return None
        seat, owner, slot, c = rng.choice(tries)
        card = self.maybe(c, 0.15)
        top_known = r.discard[-1].value is not None
        same = rank(self.value(c)) == rank(self.value(top))
        matched = same if (card is None or not top_known or rng.random() < 0.2) else None
        return Snap(seat, slot, None if owner == seat else owner, card, matched)

    def _reveal(self) -> Any:
        """A whole layout turned up, or (sometimes) one card of it."""
        r = self.state.round
        seat = self.rng.choice([s for s in r.seats if s not in r.revealed])
        if self.rng.random() < 0.3:
            down = [p for p, t in zip(self.held(seat), (t for t in r.rows[seat] if t is not None))
                    if not (t.face_up and t.value is not None)]
            p = self.rng.choice(down)
            return Reveal(seat, (self.value(self.rows[seat][p - 1]),), p)
        cards = tuple(None if c in self.public and self.rng.random() < 0.3 else self.value(c)
                      for c in self.rows[seat] if c is not None)
        return Reveal(seat, cards)

    def _turn(self, seat: int) -> Any:
        st, rng, rules = self.state, self.rng, self.rules
        r = st.round
        mine = self.held(seat)
        if seat not in r.peeked and seat not in r.played and rng.random() < 0.7:
            # the cards dealt, wherever Swaps and Gives have taken them since (CAB-2, RTC-K4)
            slots = (3, 4) if rules["initial_look"] == "nearest_two" else tuple(sorted(rng.sample(range(1, 5), 2)))
            return InitialPeek(seat, slots, tuple(None if self.first_look(seat, s) is None else
                                                  self.maybe(self.first_look(seat, s)) for s in slots))
        if r.step == "start":
            if r.caller is None and rules["call_timing"] == "instead_of_turn" and self._wants_call():
                return Call(seat)
            top_ok = bool(self.discard) and bool(mine)
            if r.draw and (not top_ok or rng.random() < 0.75):
                return Draw(seat, self.maybe(self.draw[-1]), rng.random() < 0.05)
            if top_ok:
                return TakeDiscard(seat, self.maybe(self.discard[-1], 0.3))
            return Call(seat)  # pragma: no cover - nothing else to do (no cards, no draw pile)
        if r.step == "holding":
            return self._holding(seat, mine)
        if r.step == "peek":
            slot = rng.choice(mine)
            return Peek(seat, slot, None, self.maybe(self.rows[seat][slot - 1], 0.2))
        if r.step == "spy":
            t = rng.choice([s for s in r.seats if s != seat and self.held(s)])
            slot = rng.choice(self.held(t))
            return Peek(seat, slot, t, self.maybe(self.rows[t][slot - 1], 0.2))
        if r.step == "swap":
            free = [s for s in r.seats if not self.locked(s) and self.held(s)]
            if rng.random() < 0.2:
                return Swap(seat)
            if rules["swap_power_scope"] == "any_two":
                if len(free) < 2:
                    return Swap(seat)
                o, t = rng.sample(free, 2)
                return Swap(seat, rng.choice(self.held(o)), t, rng.choice(self.held(t)), None if o == seat else o)
            others = [s for s in free if s != seat]
            if not others or not mine:
                return Swap(seat)
            t = rng.choice(others)
            return Swap(seat, rng.choice(mine), t, rng.choice(self.held(t)))
        if r.step == "look_swap":
            t = rng.choice([s for s in r.seats if s != seat and not self.locked(s) and self.held(s)])
            slot, tslot = rng.choice(mine), rng.choice(self.held(t))
            return LookSwap(seat, slot, t, tslot, rng.random() < 0.5, self.maybe(self.rows[seat][slot - 1]),
                            self.maybe(self.rows[t][tslot - 1]))
        raise SimError(f"no entry for step {r.step!r}")

    def _holding(self, seat: int, mine: list[int]) -> Any:
        st, rng, rules = self.state, self.rng, self.rules
        r = st.round
        c = self.pending
        val = self.value(c)
        if rules["matching_exchange"] != "off" and len(mine) >= 2:
            known: dict[str, list[int]] = {}
            for slot in mine:
                card = self.rows[seat][slot - 1]
                if self.knows(seat, card):
                    known.setdefault(rank(self.value(card)), []).append(slot)
            sets = [s for s in known.values() if len(s) >= 2]
            if (sets and rng.random() < 0.8) or rng.random() < self.p_wrong:
                slots = tuple(rng.choice(sets)) if sets and rng.random() < 0.9 else tuple(
                    rng.sample(mine, rng.choice([2, 2, 3]) if len(mine) >= 3 else 2))
                cards = tuple(self.maybe(self.rows[seat][s - 1], 0.05) for s in slots)
                truth = len({rank(self.value(self.rows[seat][s - 1])) for s in slots}) == 1
                if None in cards and rng.random() < 0.3:
                    cards = ()  # nothing entered but the outcome
                matched = truth if (not cards or None in cards or rng.random() < 0.2) else None
                # a failed 1st-edition claim discards the card in hand, face up: sometimes named (CAB-5)
                out = self.maybe(c, 0.5) if not truth and rules["matching_exchange"] == "no_penalty" else None
                return Match(seat, slots, cards, rng.choice(slots), matched, out)
        if r.pending_from == "draw":
            what = power(val, rules)
            if what is not None and rng.random() < 0.7 and UsePower(seat, val) in game.legal_moves(st, seat):
                return UsePower(seat, val)
            if not mine or (points(val, rules) >= 7 and rng.random() < 0.7):
                return Discard(seat, self.maybe(c))
        slot = rng.choice(mine)
        return Replace(seat, slot, self.maybe(self.rows[seat][slot - 1]))

    # --- Following an accepted entry ---------------------------------------------------------
    def _on_Match(self, move: Any, r: Any) -> None:
        row = self.rows[move.seat]
        claimed = [row[s - 1] for s in move.slots]
        for c, val in zip(claimed, move.cards):
            if val is not None:
                self.public.add(c)
        same = len({rank(self.value(c)) for c in claimed}) == 1
        if same:
            for s in move.slots:
                self.discard.append(row[s - 1])
                self.left_rows.add(row[s - 1])
                row[s - 1] = None
            row[(move.slot or move.slots[0]) - 1] = self.pending
        elif self.rules["matching_exchange"] == "penalty":
            self.add(move.seat, self.pending)
            for _ in range(min(len(move.slots) - 2, len(self.draw))):
                self.add(move.seat, self.draw.pop())
        else:
            if move.out is not None:
                self.public.add(self.pending)
            self.discard.append(self.pending)
        self.pending = None

    def _on_LookSwap(self, move: Any, r: Any) -> None:
        a, b = self.rows[move.seat], self.rows[move.target]
        if move.seen is not None:
            self.notes.add((a[move.slot - 1], move.seat))
        if move.target_seen is not None:
            self.notes.add((b[move.target_slot - 1], move.seat))
        if move.swap:
            a[move.slot - 1], b[move.target_slot - 1] = b[move.target_slot - 1], a[move.slot - 1]

    def _on_Snap(self, move: Any, r: Any) -> None:
        owner = move.seat if move.owner is None else move.owner
        c = self.rows[owner][move.slot - 1]
        top = self.discard[-1]
        same = rank(self.value(c)) == rank(self.value(top))
        if move.card is not None:
            self.public.add(c)
        elif same and top in self.public and len({v for v in self.values if rank(v) == rank(self.value(c))}) == 1:
            self.public.add(c)  # matched a known card whose rank only one card of the deck has
        if same:
            self.discard.append(c)
            self.left_rows.add(c)
            self.rows[owner][move.slot - 1] = None
        else:
            for _ in range(min(self.rules["snap_penalty"], len(self.draw))):
                self.add(move.seat, self.draw.pop())

    def _on_Give(self, move: Any, r: Any) -> None:
        _, owner, place = r.give_owed
        c = self.rows[move.seat][move.slot - 1]
        self.rows[move.seat][move.slot - 1] = None
        self.rows[owner][place - 1] = c

    def _on_Reshuffle(self, move: Any, r: Any) -> None:
        self._reshuffle(True)

    def _on_Reveal(self, move: Any, r: Any) -> None:
        if move.slot is not None:
            self.public.add(self.rows[move.seat][move.slot - 1])
        else:
            self.public.update(c for c in self.rows[move.seat] if c is not None)

    def _round_scored(self, old: Any, new: Any) -> None:
        r = old.round
        res = new.history[-1]
        cards = {s: tuple(self.value(c) for c in self.rows[s] if c is not None) for s in r.seats}
        if dict(res.cards) != cards:
            raise SimError(f"round {r.number}: engine scored {dict(res.cards)}, the true layouts are {cards}")
        scores = expected_scores(cards, r.caller, self.rules)
        if dict(res.scores) != scores:
            raise SimError(f"round {r.number}: scores {dict(res.scores)} != {scores}")
        for s, sc in scores.items():
            self.totals[s] += sc
        mode = self.rules["exact_100_reset"]
        for s in r.seats:
            if self.totals[s] == 100 and (mode == "unlimited" or (mode == "once" and s not in self.used)):
                self.totals[s] = 50
                self.used.add(s)
        self._check_totals(new)
        if self.rules["game_end"] == "over_100":
            should_end = any(x > 100 for x in self.totals)
        else:
            should_end = len(new.history) >= self.rules["rounds_n"]
        if new.over != should_end:
            raise SimError(f"match over {new.over}, expected {should_end} (totals {self.totals})")
        if new.over:
            low = min(self.totals)
            if tuple(new.winners) != tuple(s for s in r.seats if self.totals[s] == low):
                raise SimError(f"winners {new.winners} with totals {self.totals}")

    # --- Checks (GEN-12) ---------------------------------------------------------------------
    def _row_positions(self, r: Any) -> Iterator[tuple[Any, int, str]]:
        for s in r.seats:
            erow, trow = r.rows[s], self.rows[s]
            if len(erow) != len(trow) or any((a is None) != (b is None) for a, b in zip(erow, trow)):
                raise SimError(f"seat {s} layout: engine {['-' if t is None else 'x' for t in erow]}, "
                               f"table {['-' if c is None else 'x' for c in trow]}")
            for i, (tok, c) in enumerate(zip(erow, trow)):
                if c is not None:
                    yield tok, c, f"seat {s} place {i + 1}"

    def check_all(self) -> None:
        st = self.state
        r = st.round
        if r is None:
            return
        counts = game.zone_counts(st)
        if any(n < 0 for n in counts.values()):
            raise SimError(f"a negative count: {counts}")
        if sum(counts.values()) != self.deck_size:  # GEN-3 / CAB-K1
            raise SimError(f"zone counts {counts} add up to {sum(counts.values())}, not {self.deck_size}")
        if r.turn is not None and r.turn not in r.seats:
            raise SimError(f"the turn is seat {r.turn}, not a player")
        if r.turn is not None and r.turn == r.caller:
            raise SimError("the caller has the turn")
        self.check_knowledge()
        if st.flags:
            raise SimError(f"honest play raised a flag: {st.flags[-1]}")
        for seat in (None, *r.seats):
            self.check_view(seat)

    def check_view(self, seat: int | None) -> None:
        """``view(state, seat)`` shows public values and only ``seat``'s own notes (GEN-6)."""
        st = self.state
        vr = game.view(st, seat)["round"]
        for s in st.round.seats:
            vrow = vr["rows"][self.players[s]]
            for i, slot in enumerate(vrow["slots"]):
                c = self.rows[s][i]
                if c is None:
                    if not slot["empty"]:
                        raise SimError(f"view of {seat}: seat {s} place {i + 1} should be empty")
                    continue
                self.check_slot(seat, s, i, slot, c)
        top = self.discard_top()
        if vr["discard_top"] != top or vr["draw_count"] != len(self.draw):
            raise SimError(f"view of seat {seat}: discard top {vr['discard_top']!r}/{top!r}, draw count")


def preset_rules(key: str, **changes: Any) -> dict[str, Any]:
    return {**BY_KEY[key].rules, **changes}
