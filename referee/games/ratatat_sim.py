"""A simulated physical Rat-a-Tat Cat table: a TRUE shuffled deck the referee never sees, and a random but
legal driver that enters what a careful, honest table would enter. The Hypothesis state machine
(tests/games/test_ratatat_stateful.py) and benchmarks/engine_bench.py both play at it.

Pure like the engine, and built like cabo_sim.py on referee/games/sim.py (what the simulated tables share):
the caller brings the source of randomness (``rng``), so a run replays from its seed.

Cards are integer ids; ``Table.values[id]`` is the printed value. The simulation mirrors the engine's zones
position by position (rows, discard pile, card in hand, draw pile), so the engine's public knowledge can be
checked against the truth after every entry.

Knowledge model (what the referee may know, GEN-2/GEN-6): a card is *public* once a value was entered
for it in a public observation (turn-up, shown draw, take from discard with a value, the card leaving a
slot, a discard, a shown power, the reveal); a seat has *noted* a card when it entered the value
privately (a draw, a peek, the initial peek).
"""
from __future__ import annotations

from typing import Any, Iterator

from . import ratatat as game
from .ratatat_cards import is_power
from .ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace, Reshuffle, Reveal, RevealDraw,
                            Stalemate, Swap, TakeDiscard, TimeUp, TurnUp, UsePower)
from .sim import SLOTS, SimError, TrueTable, expected_round_winners, play_match, play_round

__all__ = ["SLOTS", "SimError", "Table", "expected_round_winners", "play_match", "play_round"]


class Table(TrueTable):
    """One match at a physical table: the engine's state plus the true cards. With ``check``, every entry
    that does not end a round is checked against the true cards (``check_all``)."""

    game = game
    FIRST_LOOK_AT_DEAL = True  # RTC-6, RTC-K4: a first peek noted late lands on the dealt card

    def __init__(self, players: tuple[str, ...], rules: dict[str, Any] | None, rng: Any, dealer: Any = None,
                 *, call_rotations: tuple[int, int] = (1, 3), p_unknown: float = 0.1, p_time_up: float = 0.01,
                 check: bool = False):
        super().__init__(players, game.new_match(tuple(players), rules, dealer), rng, p_unknown=p_unknown,
                         check=check)
        self.call_rotations = call_rotations
        self.p_time_up = p_time_up
        self.max_round_entries = 0
        self._deal()

    # --- The true table ----------------------------------------------------------------------
    def _deal(self) -> None:
        r = self.state.round
        self._deal_rows(r.seats)
        self.round_entries = 0
        rot = self.rng.randint(*self.call_rotations)
        self.call_at = max(rot, self.rules["min_rotations_before_call"]) * len(r.seats)

    def snapshot(self) -> tuple:
        return (self.state, [list(x) for x in self.rows], list(self.draw), list(self.discard), self.pending,
                set(self.public), set(self.notes), list(self.totals), self.rounds_scored, self.round_no,
                self.round_entries, self.call_at, {s: list(r) for s, r in self.dealt.items()}, set(self.left_rows))

    def restore(self, snap: tuple) -> None:
        (self.state, rows, draw, discard, self.pending, public, notes, totals, self.rounds_scored,
         self.round_no, self.round_entries, self.call_at, dealt, left_rows) = snap
        self.rows, self.draw, self.discard = [list(x) for x in rows], list(draw), list(discard)
        self.public, self.notes, self.totals = set(public), set(notes), list(totals)
        self.dealt, self.left_rows = {s: list(r) for s, r in dealt.items()}, set(left_rows)

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
            return InitialPeek(seat, m.slots, tuple(self.maybe(self.dealt[seat][s - 1]) for s in m.slots))
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
    def _entered(self) -> None:
        self.round_entries += 1
        self.max_round_entries = max(self.max_round_entries, self.round_entries)

    def _on_TurnUp(self, move: Any, r: Any) -> None:
        value = self.values[self.draw[-1]]
        if move.card is not None and move.card != value:
            raise SimError(f"{move} but the true card is {value}")
        if is_power(value):  # a power card goes back into the draw pile, which is shuffled
            self.rng.shuffle(self.draw)
        else:
            super()._on_TurnUp(move, r)

    def _initial_peek_public(self) -> bool:
        return self.rules["initial_peek"] == "outer_face_up"

    def _draw_public(self, move: Any) -> bool:
        return move.shown or self.rules["seed_reveal_then_choose"]

    def _on_TakeDiscard(self, move: Any, r: Any) -> None:
        held = self.pending
        super()._on_TakeDiscard(move, r)
        if r.step == "holding":  # RTC-V20: the drawn card not chosen is discarded
            self.discard.append(held)

    def _on_Reshuffle(self, move: Any, r: Any) -> None:
        self._reshuffle(self.rules["reshuffle_keeps_top_discard"] and bool(self.discard))

    def _on_Reveal(self, move: Any, r: Any) -> None:
        self.public.update(self.rows[move.seat])

    def _on_RevealDraw(self, move: Any, r: Any) -> None:
        from_draw = self.reveal_from_draw()
        c = self.draw.pop() if from_draw else self.discard.pop()
        self.public.add(c)
        at = len(self.discard) if from_draw else 0  # V12: power cards go under the pile
        if is_power(self.values[c]):
            self.discard.insert(at, c)
        else:
            row = self.rows[move.seat]
            self.discard.insert(at, row[move.slot - 1])
            row[move.slot - 1] = c

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
        self._check_totals(new)

    # --- Checks ------------------------------------------------------------------------------
    def _row_positions(self, r: Any) -> Iterator[tuple[Any, int, str]]:
        for s in r.seats:
            if len(r.rows[s]) != SLOTS or len(self.rows[s]) != SLOTS:
                raise SimError(f"seat {s} row has {len(r.rows[s])} cards (RTC-17)")
            for i in range(SLOTS):
                yield r.rows[s][i], self.rows[s][i], f"row {s} slot {i + 1}"

    def check_all(self) -> None:
        """Knowledge (``check_knowledge``) and every seat's view, the public one included (``check_view``)."""
        self.check_knowledge()
        for seat in (None, *range(len(self.players))):
            self.check_view(seat)

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
            subtotal, known, powers = 0, 0, 0
            for i, slot in enumerate(vrow["slots"]):
                pub = self.check_slot(seat, s, i, slot, self.rows[s][i])
                if pub is not None and not is_power(pub):
                    subtotal += int(pub)
                    known += 1
                powers += pub is not None and is_power(pub)
            if (vrow["known_subtotal"], vrow["powers"], vrow["unknown"]) != (subtotal, powers, SLOTS - known - powers):
                raise SimError(f"view of seat {seat}: seat {s} bounds {vrow}")
            if (vrow["yours"] is not None) != (s == seat):  # GEN-6: only a seat's own row counts its notes
                raise SimError(f"view of seat {seat}: seat {s} shows private counts {vrow['yours']}")
        want_top = self.discard_top()
        if vr["discard_top"] != want_top:
            raise SimError(f"view of seat {seat}: discard top {vr['discard_top']!r}, expected {want_top!r}")
        if vr["draw_count"] != len(self.draw) or vr["discard_count"] != len(self.discard):
            raise SimError(f"view of seat {seat}: counts {vr['draw_count']}/{vr['discard_count']}")
        h = vr["holding"]
        if self.pending is None:
            if h is not None:
                raise SimError(f"view of seat {seat}: holding {h} but nobody holds a card")
        else:
            pub, mine = self.shown(self.pending, seat)
            if seat != r.turn:
                mine = None
            if h is None or h["card"] != pub or h["mine"] != mine:
                raise SimError(f"view of seat {seat}: holding {h}, expected card={pub!r} mine={mine!r}")
