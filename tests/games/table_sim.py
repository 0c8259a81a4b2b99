"""A simulated physical Rat-a-Tat Cat table: a TRUE deck the referee never sees, and a random but
legal driver that enters what a careful, honest table would enter.

Used by the Hypothesis state machine (tests/games/test_ratatat_stateful.py) and by the benchmark
(benchmarks/engine_bench.py). Cards are integer ids; ``Table.values[id]`` is the printed value. The
simulation mirrors the engine's zones position by position (rows, discard pile, card in hand, draw
pile), so the engine's public knowledge can be checked against the truth after every entry.

Knowledge model (what the referee may know, GEN-2/GEN-6): a card is *public* once a value was entered
for it in a public observation (turn-up, shown draw, take from discard with a value, the card leaving a
slot, a discard, a shown power, the reveal); a seat has *noted* a card when it entered the value
privately (a draw, a peek, the initial peek).
"""
from __future__ import annotations

import random
from typing import Any

from referee.games import ratatat as game
from referee.games.ratatat_cards import is_power
from referee.games.ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace, Reshuffle,
                                         Reveal, RevealDraw, Stalemate, Swap, TakeDiscard, TimeUp,
                                         TurnUp, UsePower)
from referee.games.base import Override

SLOTS = 4


class SimError(AssertionError):
    """The engine and the true table disagree."""


def expected_round_winners(scores: dict[int, int], caller: int | None, policy: str) -> tuple[int, ...]:
    """RTC-51 / RTC-V1, written independently of ratatat_scoring."""
    low = min(scores.values())
    lowest = tuple(sorted(s for s, v in scores.items() if v == low))
    if len(lowest) == 1:
        return lowest
    if policy == "all_lowest":
        return lowest
    if policy == "no_winner":
        return ()
    if caller not in lowest:
        return lowest
    if policy == "all_lowest_except_caller":
        return tuple(s for s in lowest if s != caller)
    return (caller,)  # caller_wins_ties


class Table:
    """One match at a physical table: the engine's state plus the true cards."""

    def __init__(self, players: tuple[str, ...], rules: dict[str, Any] | None = None,
                 rng: Any = None, dealer: Any = None, *, call_rotations: tuple[int, int] = (1, 3),
                 p_unknown: float = 0.1, p_time_up: float = 0.01, check: bool = True):
        self.rng = rng if rng is not None else random.Random(0)
        self.players = tuple(players)
        self.state = game.new_match(self.players, rules, dealer)
        self.rules = self.state.rules
        self.values = [v for v, n in self.state.deck.items() for _ in range(n)]
        self.deck_size = len(self.values)
        self.call_rotations = call_rotations
        self.p_unknown = p_unknown
        self.p_time_up = p_time_up
        self.check = check
        self.totals = [0] * len(self.players)
        self.rounds_scored = 0
        self.max_round_entries = 0
        self._deal()

    # --- The true table ----------------------------------------------------------------------
    def _deal(self) -> None:
        r = self.state.round
        ids = list(range(self.deck_size))
        self.rng.shuffle(ids)
        self.rows: list[list[int]] = [[] for _ in self.players]
        for s in r.seats:
            self.rows[s] = [ids.pop() for _ in range(SLOTS)]
        self.draw: list[int] = ids  # the top is the end of the list
        self.discard: list[int] = []
        self.pending: int | None = None
        self.public: set[int] = set()
        self.notes: set[tuple[int, int]] = set()  # (card, seat) noted privately
        self.round_no = r.number
        self.round_entries = 0
        rot = self.rng.randint(*self.call_rotations)
        self.call_at = max(rot, self.rules["min_rotations_before_call"]) * len(r.seats)

    def snapshot(self) -> tuple:
        return (self.state, [list(x) for x in self.rows], list(self.draw), list(self.discard), self.pending,
                set(self.public), set(self.notes), list(self.totals), self.rounds_scored, self.round_no,
                self.round_entries, self.call_at)

    def restore(self, snap: tuple) -> None:
        (self.state, rows, draw, discard, self.pending, public, notes, totals, self.rounds_scored,
         self.round_no, self.round_entries, self.call_at) = snap
        self.rows, self.draw, self.discard = [list(x) for x in rows], list(draw), list(discard)
        self.public, self.notes, self.totals = set(public), set(notes), list(totals)

    def value(self, card: int) -> str:
        return self.values[card]

    def maybe(self, card: int, p: float | None = None) -> str | None:
        """The true value, or (sometimes) "not entered" (GEN-14)."""
        return None if self.rng.random() < (self.p_unknown if p is None else p) else self.values[card]

    def top_draw(self) -> str:
        return self.values[self.draw[-1]]

    # --- The driver --------------------------------------------------------------------------
    def choose(self) -> Any:
        """A legal entry with its card values filled in from the true cards."""
        st, rng = self.state, self.rng
        r = st.round
        if r is None:
            raise SimError("the match is over")
        wide = game.legal_moves(st, None)
        kinds = {type(m) for m in wide}
        if TurnUp in kinds:
            c = self.draw[-1]
            return TurnUp(None if not is_power(self.value(c)) and rng.random() < self.p_unknown
                          else self.value(c))
        if r.step == "reveal":
            return self._choose_reveal(wide, kinds)
        if TimeUp in kinds and rng.random() < self.p_time_up:
            return TimeUp()
        if Stalemate in kinds and rng.random() < 0.5:
            return Stalemate()
        reshuffle = Reshuffle in kinds
        if reshuffle and rng.random() < 0.5:
            return Reshuffle()
        cw = r.call_window
        if cw is not None and cw != r.turn and self._wants_call():
            if Call(cw) in game.legal_moves(st, cw):
                return Call(cw)
        options = self._turn_options(r.turn)
        if not options:
            if reshuffle:
                return Reshuffle()
            raise SimError(f"no legal entry for the table in step {r.step!r}: {wide}")
        total = 0.0
        for w, _ in options:
            total += w
        x = rng.random() * total
        for w, m in options:
            x -= w
            if x <= 0:
                return self._fill(m)
        return self._fill(options[-1][1])

    def _wants_call(self) -> bool:
        r = self.state.round
        return r.turns_done >= self.call_at or self.rng.random() < 0.03

    def _turn_options(self, seat: int) -> list[tuple[float, Any]]:
        """(weight, entry skeleton) for the seat to move; values are filled in by ``_fill``."""
        st, rules = self.state, self.rules
        r = st.round
        out: list[tuple[float, Any]] = []
        top_ok = bool(self.discard) and (not is_power(self.values[self.discard[-1]])
                                         or rules["power_from_discard"] == "allowed_no_power")
        pend = None if self.pending is None else self.values[self.pending]
        power_pend = is_power(pend)
        for m in game.legal_moves(st, seat):
            t = type(m)
            if getattr(m, "seat", None) != seat:
                continue
            if t is Replace:
                if power_pend and r.pending_from == "draw" and (
                        rules["power_into_row"] == "forbidden" or not rules["power_use_optional"]):
                    continue
                w = 1.0 if r.pending_from == "discard" else 0.1 if power_pend else (
                    1.0 if int(pend) <= 4 else 0.25)
                out.append((w, m))
            elif t is Draw:
                out.append((6.0, m))
            elif t is TakeDiscard:
                if top_ok:
                    out.append((4.0 if r.step == "start" else 1.0, m))
            elif t is Discard:
                if not (power_pend and not rules["power_use_optional"]):
                    out.append((0.8 if power_pend else 1.5, m))
            elif t is UsePower:
                if m.card == pend and r.pending_from == "draw":
                    out.append((8.0, m))
            elif t is InitialPeek:
                out.append((3.0, m))
            elif t is Call:
                if self._wants_call():
                    out.append((50.0, m))
            elif t is Peek:
                out.append((1.0, m))
            elif t is Swap:
                out.append((3.0 if m.slot is None else 1.0, m))
        return out

    def _fill(self, m: Any) -> Any:
        """The card values a careful table enters for the skeleton ``m`` (sometimes "not entered")."""
        t = type(m)
        seat = m.seat
        if t is Draw:
            return Draw(seat, self.maybe(self.draw[-1]), self.rng.random() < 0.05)
        if t is TakeDiscard:
            return TakeDiscard(seat, self.maybe(self.discard[-1], 0.5))
        if t is Replace:
            return Replace(seat, m.slot, self.maybe(self.rows[seat][m.slot - 1]))
        if t is Discard:
            return Discard(seat, self.maybe(self.pending))
        if t is InitialPeek:
            return InitialPeek(seat, m.slots, tuple(self.maybe(self.rows[seat][s - 1]) for s in m.slots))
        if t is Peek:
            target = seat if m.target is None else m.target
            return Peek(seat, m.slot, m.target, self.maybe(self.rows[target][m.slot - 1], 0.15))
        return m

    def reveal_from_draw(self) -> bool:
        """RTC-44 replacements come from the draw pile, or under RTC-V12 from the discard pile while
        it holds a card not known to be a power card."""
        return self.rules["reveal_replacement_source"] == "draw_pile" or all(
            c in self.public and is_power(self.values[c]) for c in self.discard)

    def _choose_reveal(self, wide: list[Any], kinds: set[type]) -> Any:
        rng = self.rng
        reveals = [Reveal(m.seat, tuple(self.value(c) for c in self.rows[m.seat]))
                   for m in wide if isinstance(m, Reveal)]
        from_draw = self.reveal_from_draw()
        draws = []
        for m in wide:
            if isinstance(m, RevealDraw):
                if from_draw and self.draw:
                    draws.append(RevealDraw(m.seat, m.slot, self.top_draw()))
                elif not from_draw and self.discard:
                    draws.append(RevealDraw(m.seat, m.slot, self.value(self.discard[-1])))
        options = reveals + draws
        if Reshuffle in kinds and (not options or rng.random() < 0.3):
            return Reshuffle()
        if not options:
            raise SimError(f"stuck at the reveal: {wide}")
        return rng.choice(options)

    # --- Following an accepted entry ---------------------------------------------------------
    def accept(self, move: Any, new_state: Any) -> None:
        """Move the true cards as ``move`` says (the engine accepted it) and check the outcome."""
        old = self.state
        r = old.round
        rules = self.rules
        if isinstance(move, Override):
            move = move.entry
        t = type(move)
        v = self.values
        if t is TurnUp:
            c = self.draw.pop()
            if move.card is not None and move.card != v[c]:
                raise SimError(f"{move} but the true card is {v[c]}")
            if is_power(v[c]):
                self.draw.append(c)
                self.rng.shuffle(self.draw)
            else:
                self.discard.append(c)
                if move.card is not None:
                    self.public.add(c)
        elif t is InitialPeek:
            for slot, val in zip(move.slots, move.seen):
                if val is None:
                    continue
                c = self.rows[move.seat][slot - 1]
                if rules["initial_peek"] == "outer_face_up":
                    self.public.add(c)
                else:
                    self.notes.add((c, move.seat))
        elif t is Draw:
            c = self.draw.pop()
            self.pending = c
            if move.card is not None:
                if move.shown or rules["seed_reveal_then_choose"]:
                    self.public.add(c)
                else:
                    self.notes.add((c, move.seat))
        elif t is TakeDiscard:
            c = self.discard.pop()
            if move.card is not None:
                self.public.add(c)
            if r.step == "holding":  # RTC-V20: the drawn card not chosen is discarded
                self.discard.append(self.pending)
            self.pending = c
        elif t is Replace:
            row = self.rows[move.seat]
            out = row[move.slot - 1]
            row[move.slot - 1] = self.pending
            self.pending = None
            self.discard.append(out)
            if move.out is not None:
                self.public.add(out)
        elif t is Discard:
            self.discard.append(self.pending)
            if move.card is not None:
                self.public.add(self.pending)
            self.pending = None
        elif t is UsePower:
            self.discard.append(self.pending)
            self.public.add(self.pending)
            self.pending = None
        elif t is Peek:
            if move.seen is not None:
                target = move.seat if move.target is None else move.target
                self.notes.add((self.rows[target][move.slot - 1], move.seat))
        elif t is Swap:
            if move.slot is not None:
                a, b = self.rows[move.seat], self.rows[move.target]
                a[move.slot - 1], b[move.target_slot - 1] = b[move.target_slot - 1], a[move.slot - 1]
        elif t is Reshuffle:
            keep = rules["reshuffle_keeps_top_discard"] and bool(self.discard)
            moved = self.discard[:-1] if keep else self.discard
            self.discard = self.discard[-1:] if keep else []
            gone = set(moved)
            self.public -= gone
            self.notes = {n for n in self.notes if n[0] not in gone}
            self.draw = moved + self.draw
            self.rng.shuffle(self.draw)
        elif t is Reveal:
            self.public.update(self.rows[move.seat])
        elif t is RevealDraw:
            from_draw = self.reveal_from_draw()
            c = self.draw.pop() if from_draw else self.discard.pop()
            self.public.add(c)
            at = len(self.discard) if from_draw else 0  # V12: power cards go under the pile
            if is_power(v[c]):
                self.discard.insert(at, c)
            else:
                row = self.rows[move.seat]
                self.discard.insert(at, row[move.slot - 1])
                row[move.slot - 1] = c
        self.state = new_state
        self.round_entries += 1
        self.max_round_entries = max(self.max_round_entries, self.round_entries)
        if new_state.over or new_state.round.number != self.round_no:
            self._round_scored(old, new_state)
            if not new_state.over:
                self._deal()

    def _round_scored(self, old: Any, new: Any) -> None:
        r = old.round
        res = new.history[-1]
        if res.number != r.number:
            raise SimError(f"round {r.number} ended but the last result is round {res.number}")
        cards = {s: tuple(self.value(c) for c in self.rows[s]) for s in r.seats}
        if res.cards != cards:
            raise SimError(f"round {r.number}: engine scored {res.cards}, the true rows are {cards}")
        scores = {s: sum(int(x) for x in cards[s]) for s in r.seats}
        if res.scores != scores:
            raise SimError(f"round {r.number}: scores {res.scores} != {scores}")
        winners = expected_round_winners(scores, r.caller, self.rules["tie_policy"])
        if tuple(res.winners) != winners:
            raise SimError(f"round {r.number}: winners {res.winners} != {winners} ({self.rules['tie_policy']})")
        for s, sc in scores.items():
            self.totals[s] += sc
        if list(new.totals) != self.totals:
            raise SimError(f"totals {new.totals} != {self.totals}")
        self.rounds_scored += 1

    # --- Checks ------------------------------------------------------------------------------
    def noters(self) -> dict[int, set[int]]:
        out: dict[int, set[int]] = {}
        for c, s in self.notes:
            out.setdefault(c, set()).add(s)
        return out

    def positions(self):
        """(engine token, true card, where) for every card the engine tracks as a token."""
        r = self.state.round
        for s in r.seats:
            if len(r.rows[s]) != SLOTS or len(self.rows[s]) != SLOTS:
                raise SimError(f"seat {s} row has {len(r.rows[s])} cards (RTC-17)")
            for i in range(SLOTS):
                yield r.rows[s][i], self.rows[s][i], f"row {s} slot {i + 1}"
        if len(r.discard) != len(self.discard):
            raise SimError(f"discard pile {len(r.discard)} cards, the table has {len(self.discard)}")
        for k, (tok, c) in enumerate(zip(r.discard, self.discard)):
            yield tok, c, f"discard[{k}]"
        if (r.pending is None) != (self.pending is None):
            raise SimError(f"card in hand: engine {r.pending}, table {self.pending}")
        if r.pending is not None:
            yield r.pending, self.pending, "in hand"

    def check_knowledge(self) -> None:
        """Every public value is the true value, and public exactly when it was entered publicly; every
        private note names the true value and the seat that noted it (GEN-2, GEN-4, GEN-6)."""
        r = self.state.round
        if r is None:
            return
        if r.draw != len(self.draw):
            raise SimError(f"draw pile: engine {r.draw}, table {len(self.draw)}")
        noters = self.noters()
        for tok, c, where in self.positions():
            want = self.values[c] if c in self.public else None
            if tok.value != want:
                raise SimError(f"{where}: public value {tok.value!r}, expected {want!r} "
                               f"(true {self.values[c]})")
            seats = {s for s, _, _ in tok.notes}
            if seats != noters.get(c, set()):
                raise SimError(f"{where}: private notes by {seats}, expected {noters.get(c, set())}")
            for s, val, _ in tok.notes:
                if val != self.values[c]:
                    raise SimError(f"{where}: note {val} by {s}, true {self.values[c]}")

    def check_view(self, seat: int | None) -> None:
        """``view(state, seat)`` shows public values and only ``seat``'s own notes (GEN-6, RTC-K10)."""
        st = self.state
        v = game.view(st, seat)
        r = st.round
        if r is None:
            if v["round"] is not None:
                raise SimError("a finished match shows a round")
            return
        vr = v["round"]
        for s in r.seats:
            vrow = vr["rows"][self.players[s]]
            subtotal, known = 0, 0
            for i, slot in enumerate(vrow["slots"]):
                c = self.rows[s][i]
                pub = self.values[c] if c in self.public else None
                mine = self.values[c] if seat is not None and (c, seat) in self.notes else None
                if slot["card"] != pub or slot["mine"] != mine:
                    raise SimError(f"view of seat {seat}: seat {s} slot {i + 1} shows {slot}, "
                                   f"expected card={pub!r} mine={mine!r}")
                if pub is not None and not is_power(pub):
                    subtotal += int(pub)
                    known += 1
            if vrow["known_subtotal"] != subtotal or vrow["unknown"] != SLOTS - known:
                raise SimError(f"view of seat {seat}: seat {s} bounds {vrow}")
        want_top = (self.values[self.discard[-1]] if self.discard and self.discard[-1] in self.public
                    else None)
        if vr["discard_top"] != want_top:
            raise SimError(f"view of seat {seat}: discard top {vr['discard_top']!r}, expected {want_top!r}")
        if vr["draw_count"] != len(self.draw) or vr["discard_count"] != len(self.discard):
            raise SimError(f"view of seat {seat}: counts {vr['draw_count']}/{vr['discard_count']}")
        h = vr["holding"]
        if self.pending is None:
            if h is not None:
                raise SimError(f"view of seat {seat}: holding {h} but nobody holds a card")
        else:
            c = self.pending
            pub = self.values[c] if c in self.public else None
            mine = (self.values[c] if seat is not None and seat == r.turn and (c, seat) in self.notes
                    else None)
            if h is None or h["card"] != pub or h["mine"] != mine:
                raise SimError(f"view of seat {seat}: holding {h}, expected card={pub!r} mine={mine!r}")


def play_round(table: Table, apply=game.apply, on_entry=None) -> int:
    """Drive ``table`` until the current round is scored; returns the number of entries."""
    start = table.rounds_scored
    n = 0
    while table.rounds_scored == start:
        move = table.choose()
        new, _ = apply(table.state, move)
        table.accept(move, new)
        n += 1
        if on_entry is not None:
            on_entry(move, new)
    return n
