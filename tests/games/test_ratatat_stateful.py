"""Whole Rat-a-Tat Cat matches played at a simulated physical table, with legal AND illegal entries;
the GEN-12 invariants are checked after every step (RULES.md §0.3, §1, §5).

The table holds a TRUE shuffled deck (referee/games/ratatat_sim.py), so honest entries must never raise
GEN-3/GEN-4, and the scores can be checked against the true cards. Illegal or inconsistent entries are
tried on the side: each must be refused (state untouched) or flagged exactly as the rules say.
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter

from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition, rule)

from referee.games import log as game_log
from referee.games import ratatat as game
from referee.games.base import Override, Ruling, Undo
from referee.games.ratatat_cards import RTC_POWERS, is_power
from referee.games.ratatat_moves import (Call, Discard, Draw, InitialPeek, Peek, Replace,
                                         Reshuffle, Reveal, RevealDraw, Stalemate, Swap, TakeDiscard,
                                         TimeUp, TurnUp, UsePower, move_to_dict)
from referee.games.ratatat_rules import TIE_POLICIES
from referee.games.ratatat_sim import SLOTS, Table

INJECTIONS: dict = {}


def injection(when):
    """An illegal or inconsistent entry tried on the side (one rule dispatches them all, so that honest
    play keeps most of the steps and whole rounds get played)."""
    def register(fn):
        INJECTIONS[fn.__name__] = (when, fn)
        return fn
    return register


NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
ROUND_ENTRY_BOUND = 400  # far above a round's length under the driver's call policy


def house_rules():
    return st.fixed_dictionaries(
        {"game_end_mode": st.sampled_from(("rounds", "elimination", "timed")),
         "rounds_n": st.integers(1, 2),
         "elimination_threshold": st.integers(15, 45)},
        optional={
            "tie_policy": st.sampled_from(TIE_POLICIES),
            "draw2_mode": st.sampled_from(("official_forfeit", "seed_two_turns")),
            "draw2_source": st.sampled_from(("draw_pile_only", "discard_allowed")),
            "power_from_discard": st.sampled_from(("forbidden", "allowed_no_power")),
            "power_into_row": st.sampled_from(("allowed", "forbidden")),
            "power_use_optional": st.booleans(),
            "peek_scope": st.sampled_from(("own", "any_table_card")),
            "initial_peek": st.sampled_from(("outer_private", "outer_face_up", "any_two")),
            "call_timing": st.sampled_from(("end_of_turn", "instead_of_turn")),
            "min_rotations_before_call": st.integers(0, 2),
            "caller_protected_after_call": st.booleans(),
            "reveal_replacement_source": st.sampled_from(("draw_pile", "discard_pile")),
            "reshuffle_keeps_top_discard": st.booleans(),
            "elimination_inclusive": st.booleans(),
            "edition": st.sampled_from(("classic_54", "deluxe_65")),
            "dealer_rotation": st.sampled_from(("clockwise", "loser_deals", "fixed")),
            "stalemate_rotations": st.none() | st.integers(1, 3),
            "game_tie_break": st.sampled_from(("shared", "extra_round")),
            "seed_reveal_then_choose": st.booleans(),
        })


def public_counts(state) -> Counter:
    r = state.round
    c = Counter(t.value for t in r.discard if t.value is not None)
    for row in r.rows:
        c.update(t.value for t in row if t.value is not None)
    if r.pending is not None and r.pending.value is not None:
        c[r.pending.value] += 1
    return c


def check_supply(state) -> None:
    """GEN-3 / RTC-K8: no value is publicly known on more tokens than the deck has copies."""
    if state.round is None:
        return
    for value, n in public_counts(state).items():
        assert n <= state.deck[value], f"{n} tokens publicly known as {value}, the deck has {state.deck[value]}"


_NO_SHRINK = {"phases": (Phase.explicit, Phase.reuse, Phase.generate)} if os.environ.get("RTC_NO_SHRINK") else {}


@settings(max_examples=int(os.environ.get("RTC_MACHINE_EXAMPLES", "200")), stateful_step_count=100,
          deadline=None, suppress_health_check=(HealthCheck.too_slow, HealthCheck.data_too_large),
          **_NO_SHRINK)
class RatATatCatMachine(RuleBasedStateMachine):

    @initialize(n=st.integers(2, 6), rules=house_rules(), dealer=st.none() | st.integers(0, 5),
                seed=st.integers(0, 2**32 - 1))
    def setup(self, n, rules, dealer, seed):
        """The table's shuffles come from ``seed`` (printed with a failing example), so a failure
        replays exactly."""
        rng = random.Random(seed)
        players = NAMES[:n]
        dealer = None if dealer is None else dealer % n
        self.table = Table(players, rules, rng, dealer, p_time_up=0.02)
        self.initial = self.table.state
        self.log = game_log.Log.start(game, self.initial)
        self.entries: list = []  # every entry that was accepted, undo included (the log's positions)
        self.snaps: list = []  # the table before each entry that stands (for undo)
        self.checks = 0
        event(f"players={n}")
        event(f"edition={self.table.rules['edition']}")

    # --- helpers -----------------------------------------------------------------------------
    @property
    def state(self):
        return self.table.state

    def feed(self, move) -> None:
        """An honest entry: it must be accepted without GEN-3/GEN-4, and leave the old state alone."""
        before_state = self.state
        before = game.state_to_dict(before_state)
        snap = self.table.snapshot()
        try:
            log, step = self.log.feed(move, len(self.entries))
        except Ruling as ruling:
            raise AssertionError(f"honest entry {move} refused: {ruling} "
                                 f"(state step {before_state.round.step})") from None
        assert game.state_to_dict(before_state) == before, "apply changed the state it was given"
        for ev in step.events:
            if ev["kind"] == "flag":
                assert ev["rule"] not in ("GEN-3", "GEN-4"), f"honest entry {move} flagged: {ev}"
        self.log = log
        self.entries.append(move)
        self.snaps.append(snap)
        self.table.accept(move, log.state)
        assert log.state is self.table.state
        # the JSON form of the entry parses back to the same entry
        d = move_to_dict(move, self.state.players)
        assert game.parse_move(json.loads(json.dumps(d)), self.state.players, self.state.rules) == move

    def try_refused(self, move, rule=None, rules=None):
        """``move`` must be refused (with ``rule``, or one of ``rules``) and leave the state unchanged."""
        state = self.state
        before = game.state_to_dict(state)
        try:
            game.apply(state, move)
        except Ruling as ruling:
            assert game.state_to_dict(state) == before, f"refused {move} changed the state"
            if rule is not None:
                assert ruling.rule == rule, f"{move}: expected {rule}, got {ruling}"
            if rules is not None:
                assert ruling.rule in rules, f"{move}: expected one of {rules}, got {ruling}"
            assert ruling.entries and ruling.entries[0] == state.version, ruling.entries
            event(f"refused {ruling.rule}")
            return ruling
        raise AssertionError(f"{move} was accepted; expected a ruling {rule or rules} "
                             f"(step {state.round.step if state.round else None})")

    def try_side(self, move):
        """Apply ``move`` on a side branch: returns (new_state, events) or the ruling; state untouched."""
        state = self.state
        before = game.state_to_dict(state)
        try:
            out = game.apply(state, move)
        except Ruling as ruling:
            out = ruling
        assert game.state_to_dict(state) == before, f"{move} changed the state it was given"
        return out

    # --- honest play ---------------------------------------------------------------------------
    @precondition(lambda self: not self.state.over)
    @rule(k=st.sampled_from((5, 15, 40, 100)))
    def play(self, k):
        self._play(k)

    def _play(self, k):
        for _ in range(k):
            if self.state.over:
                break
            self.feed(self.table.choose())
            assert self.table.round_entries <= ROUND_ENTRY_BOUND, "a round does not end (RTC-46)"
            if self.state.round is not None:
                zc = game.zone_counts(self.state)
                assert sum(zc.values()) == self.table.deck_size, zc

    @injection(lambda self: self.log.head.parent is not None)
    def undo(self, data):
        target = self.log.head.parent.state
        log, step = self.log.feed(Undo(seat=0, reason="test"), len(self.entries))
        assert log.state is target
        self.log = log
        self.entries.append(Undo(seat=0, reason="test"))
        self.table.restore(self.snaps.pop())
        assert self.table.state is log.state
        event("undo")

    @injection(lambda self: not self.state.over and self.state.round.step == "start"
                  and not self.state.round.awaiting_turn_up)
    def wrong_seat(self, data):
        """A turn entry by a seat whose turn it is not (GEN-7, RTC-42, RTC-34)."""
        r = self.state.round
        n = len(self.state.players)
        others = [s for s in range(n) if s != r.turn]
        if r.d2_over_seat is not None and data.draw(st.booleans()):
            seat = r.d2_over_seat
        else:
            seat = data.draw(st.sampled_from(others))
        kind = data.draw(st.sampled_from((Draw, TakeDiscard)))
        move = kind(seat)
        if seat == r.caller:
            expected = "RTC-42"
        elif seat not in r.seats:
            expected = "GEN-7"
        elif kind is TakeDiscard and r.d2_active and self.state.rules["draw2_source"] == "draw_pile_only":
            expected = None  # the seat check or RTC-35, whichever comes first
        elif seat == r.d2_over_seat:
            expected = "RTC-34"
        else:
            expected = "GEN-7"
        ruling = self.try_refused(move, expected, None if expected else {"GEN-7", "RTC-34", "RTC-35"})
        # the table may let it stand (GEN-5): an overridden wrong-seat draw is followed like any draw
        if (ruling.rule == "GEN-7" and ruling.overridable and kind is Draw and r.draw
                and seat in r.seats and not r.d2_active and not r.extra_turns
                and data.draw(st.integers(0, 3)) == 0):
            c = self.table.draw[-1]
            self.feed(Override(Draw(seat, self.table.value(c)), "GEN-7", "they insisted", 0))
            assert self.state.round.turn == seat
            event("override GEN-7")

    @injection(lambda self: not self.state.over and self.state.round.step in ("holding", "peek", "swap"))
    def second_card(self, data):
        """Taking a second card while one is held or a power is unresolved (RTC-10, RTC-13)."""
        r = self.state.round
        rule = "RTC-10" if r.step == "holding" else "RTC-13"
        self.try_refused(Draw(r.turn), rule)
        if r.step != "holding" or not self.state.rules["seed_reveal_then_choose"] or r.pending_from != "draw" \
                or r.d2_active:
            self.try_refused(TakeDiscard(r.turn), "RTC-10" if r.step == "holding" else None,
                             None if r.step == "holding" else {"RTC-13"})

    @injection(lambda self: not self.state.over and self.state.round.step == "holding"
                  and self.state.round.pending_from == "discard")
    def misuse_taken_card(self, data):
        """A card taken from the discard pile can't go straight back nor give a power (RTC-11, RTC-19)."""
        power = data.draw(st.sampled_from(("PEEK", "SWAP", "DRAW2")))
        r = self.state.round
        self.try_refused(Discard(r.turn), "RTC-11")
        self.try_refused(UsePower(r.turn, power), "RTC-19")
        self.try_refused(UsePower(r.turn, power, from_slot=1), "RTC-7")

    @injection(lambda self: not self.state.over and self.state.round.step == "start"
                  and not self.state.round.awaiting_turn_up and bool(self.state.round.discard))
    def take_power_from_discard(self, data):
        """A power card on the discard top can't be taken (RTC-12); naming it is a public sighting."""
        t = self.table
        r = self.state.round
        top = t.value(t.discard[-1])
        if not is_power(top) or self.state.rules["power_from_discard"] != "forbidden":
            return
        if r.d2_active and self.state.rules["draw2_source"] == "draw_pile_only":
            self.try_refused(TakeDiscard(r.turn, top), "RTC-35")
        else:
            self.try_refused(TakeDiscard(r.turn, top), "RTC-12")

    @injection(lambda self: not self.state.over and self.state.round.step == "swap")
    def swap_own_cards(self, data):
        a, b = data.draw(st.integers(1, SLOTS)), data.draw(st.integers(1, SLOTS))
        r = self.state.round
        self.try_refused(Swap(r.turn, a, r.turn, b), "RTC-33")

    @injection(lambda self: not self.state.over)
    def bad_call(self, data):
        """Calls out of place (RTC-40, RTC-41, RTC-20, GEN-7)."""
        r = self.state.round
        rules = self.state.rules
        seat = data.draw(st.integers(0, len(self.state.players) - 1))
        at_start = (r.turn == seat and r.step == "start" and not r.d2_active and not r.extra_turns
                    and not r.awaiting_turn_up)
        if r.caller is not None or r.step == "reveal":
            expected = "RTC-41"
        elif seat not in r.seats:
            expected = "GEN-7"
        elif rules["call_timing"] == "instead_of_turn":
            expected = None if at_start else "RTC-20"
        else:
            expected = None if r.call_window == seat else "RTC-40"
        if expected is None:
            return  # a legal call (perhaps barred by RTC-45): not an injection
        self.try_refused(Call(seat), expected)

    @injection(lambda self: not self.state.over and self.state.round.step != "reveal")
    def early_reveal(self, data):
        r = self.state.round
        seat = data.draw(st.sampled_from(r.seats))
        cards = tuple(self.table.value(c) for c in self.table.rows[seat])
        self.try_refused(Reveal(seat, cards), "RTC-43")

    @injection(lambda self: not self.state.over and self.state.round.draw > 0)
    def early_reshuffle(self, data):
        self.try_refused(Reshuffle(), "RTC-18")

    @injection(lambda self: not self.state.over and not self.state.round.awaiting_turn_up)
    def second_turn_up(self, data):
        card = data.draw(st.sampled_from(("0", "5", "9")))
        self.try_refused(TurnUp(card), "RTC-5")

    @injection(lambda self: not self.state.over and bool(self.state.round.peeked | self.state.round.played))
    def second_initial_peek(self, data):
        r = self.state.round
        seat = data.draw(st.sampled_from(sorted(r.peeked | r.played)))
        self.try_refused(InitialPeek(seat, (1, SLOTS)), "RTC-6")

    @injection(lambda self: not self.state.over and self.state.round.step == "reveal")
    def bad_reveal_draw(self, data):
        r = self.state.round
        seat = data.draw(st.sampled_from(r.seats))
        slot = data.draw(st.integers(1, SLOTS))
        if (seat, slot) in r.to_replace:
            return
        self.try_refused(RevealDraw(seat, slot, "3"), "RTC-44")

    @injection(lambda self: self.state.over)
    def after_the_match(self, data):
        self.try_refused(Draw(0), "RTC-52")
        self.try_refused(Reveal(0, ("1", "2", "3", "4")), "RTC-52")

    # --- inconsistent observations: refused (GEN-3) or flagged (GEN-4) ---------------------------
    def expect_observations(self, tokens, truths, claims):
        """What observing ``claims`` on ``tokens`` must do: the ruling (GEN-3) or how many GEN-4 flags."""
        counts = public_counts(self.state)
        deck = self.state.deck
        mismatches = 0
        for tok, truth, claim in zip(tokens, truths, claims):
            if claim is None:
                continue
            if tok.value is not None:
                if claim != tok.value:
                    if counts[claim] >= deck[claim]:
                        return "GEN-3", 0
                    counts[tok.value] -= 1
                    counts[claim] += 1
                    mismatches += 1
            else:
                if counts[claim] >= deck[claim]:
                    return "GEN-3", 0
                counts[claim] += 1
        return None, mismatches

    def check_side(self, move, tokens, truths, claims, notes_count):
        expected_rule, mismatches = self.expect_observations(tokens, truths, claims)
        out = self.try_side(move)
        if expected_rule is not None:
            assert isinstance(out, Ruling) and out.rule == expected_rule, f"{move}: expected {expected_rule}, got {out}"
            event(f"inconsistent: refused {expected_rule}")
            return
        assert not isinstance(out, Ruling), f"{move} refused: {out}"
        new, events = out
        g4 = [e for e in events if e["kind"] == "flag" and e["rule"] == "GEN-4"]
        scored = any(e["kind"] == "round_scored" for e in events)
        held = any(e["kind"] == "round_held" for e in events)
        want = mismatches + (notes_count if scored or held else 0)
        assert len(g4) == want, f"{move}: {len(g4)} GEN-4 flags, expected {want}: {events}"
        assert not (scored and g4), f"{move}: scored with flags still open (GEN-5): {events}"
        if held:  # the flags raised at this reveal hold the round until the table decides them
            assert new.round.step == "reveal" and game.awaiting_flags(new)
        for e in g4:
            assert e["entries"] and all(x is not None for x in e["entries"]), e
        check_supply(new)  # GEN-3 holds on the flagged branch too
        event(f"inconsistent: {len(g4)} GEN-4 flag(s)")

    @injection(lambda self: not self.state.over and self.state.round.step == "reveal"
                  and len(self.state.round.revealed) < len(self.state.round.seats))
    def wrong_reveal(self, data):
        """A reveal that does not match the cards: known slots → GEN-4 flag (the entry stands), one
        sighting too many → GEN-3 refusal, private notes contradicted → GEN-4 flags at scoring."""
        r = self.state.round
        t = self.table
        seat = data.draw(st.sampled_from([s for s in r.seats if s not in r.revealed]))
        truths = [t.value(c) for c in t.rows[seat]]
        claims = list(truths)
        numbers = [str(i) for i in range(10)]
        for i in data.draw(st.sets(st.integers(0, SLOTS - 1), min_size=1)):
            claims[i] = data.draw(st.sampled_from([v for v in numbers if v != truths[i]]))
        tokens = r.rows[seat]
        # a note saying what the whole table knew is the same mismatch as the public flag (one flag)
        notes = sum(1 for tok, a, b in zip(tokens, truths, claims) if a != b  # each seat's last note only
                    for noted, _ in {s: (n, at) for s, n, at in tok.notes}.values() if noted != b and noted != tok.value)
        self.check_side(Reveal(seat, tuple(claims)), tokens, truths, claims, notes)

    @injection(lambda self: not self.state.over and self.state.round.step == "holding")
    def wrong_out(self, data):
        """The card leaving a slot is not what was known there (GEN-4) or is one too many (GEN-3)."""
        slot = data.draw(st.integers(1, SLOTS))
        r = self.state.round
        t = self.table
        if Replace(r.turn, slot) not in game.legal_moves(self.state, r.turn):
            return
        truth = t.value(t.rows[r.turn][slot - 1])
        claim = data.draw(st.sampled_from([v for v in t.state.deck if v != truth]))
        tok = r.rows[r.turn][slot - 1]
        self.check_side(Replace(r.turn, slot, claim), [tok], [truth], [claim], 0)

    @injection(lambda self: not self.state.over)
    def one_too_many(self, data):
        """A value already publicly known on all its copies is sighted again: GEN-3 (RTC-T17)."""
        full = [v for v, n in public_counts(self.state).items() if n >= self.state.deck[v]]
        r = self.state.round
        if not full:
            return
        v = data.draw(st.sampled_from(sorted(full)))
        if r.awaiting_turn_up and not is_power(v):
            self.try_refused(TurnUp(v), "GEN-3")
        elif r.step == "start" and r.turn is not None and r.draw:
            self.try_refused(Draw(r.turn, v, shown=True), "GEN-3")
        event("one too many")

    @rule(data=st.data())
    def inject(self, data):
        enabled = sorted(name for name, (when, _) in INJECTIONS.items() if when(self))
        if enabled:
            name = data.draw(st.sampled_from(enabled), label="injection")
            INJECTIONS[name][1](self, data)
        self._play(2)  # and the table plays on, so every step moves the match forward

    # --- legal_moves agrees with apply -----------------------------------------------------------
    @injection(lambda self: not self.state.over)
    def probe(self, data):
        """A random entry skeleton (values unknown) is accepted iff legal_moves lists it."""
        state = self.state
        r = state.round
        n = len(state.players)
        seat = data.draw(st.integers(0, n - 1))
        slot = data.draw(st.integers(1, SLOTS))
        other = data.draw(st.integers(0, n - 1))
        oslot = data.draw(st.integers(1, SLOTS))
        if other == seat:
            other = None
        power = data.draw(st.sampled_from([p for p in RTC_POWERS if p in state.deck]))
        move = data.draw(st.sampled_from([
            Draw(seat), TakeDiscard(seat), Replace(seat, slot), Discard(seat), UsePower(seat, power),
            Peek(seat, slot), Peek(seat, slot, other), Swap(seat), Swap(seat, slot, other if other is not None else seat, oslot), Call(seat),
            InitialPeek(seat, (1, 2) if state.rules["initial_peek"] == "any_two" else (1, SLOTS)), TurnUp(None), Reshuffle(), TimeUp(), Stalemate()]))
        legal = game.legal_moves(state, seat) + game.legal_moves(state, None)
        # a seat's own private note may shape what legal_moves offers it, never what apply refuses
        # for others (GEN-6): skip the entries that depend on the held card's private value.
        if isinstance(move, (UsePower, Discard, Replace)) and r.pending is not None and r.pending.notes:
            return
        out = self.try_side(move)
        accepted = not isinstance(out, Ruling)
        if (accepted and isinstance(move, UsePower) and r.pending is not None
                and r.pending.value not in (None, move.card)):
            # naming another card than the public one (RTC-V20) stands, flagged (GEN-4)
            assert [e for e in out[1] if e["kind"] == "flag" and e["rule"] == "GEN-4"], out[1]
            return
        assert accepted == (move in legal), (
            f"{move}: apply {'accepted' if accepted else f'refused ({out})'} but legal_moves "
            f"{'lists' if move in legal else 'does not list'} it (step {r.step})")

    # --- invariants ------------------------------------------------------------------------------
    @invariant()
    def gen12(self):
        state = self.state
        t = self.table
        if state.over:
            assert state.round is None and state.winners
            assert game.legal_moves(state, None) == []
            return
        r = state.round
        zc = game.zone_counts(state)
        assert all(v >= 0 for v in zc.values()), zc
        assert sum(zc.values()) == t.deck_size, zc
        assert zc["draw"] == len(t.draw) and zc["discard"] == len(t.discard)
        check_supply(state)
        for s in r.seats:
            assert len(r.rows[s]) == SLOTS
        if r.step == "reveal":
            assert r.turn is None
        else:
            assert r.turn in r.seats and r.turn not in state.eliminated, (r.turn, r.seats)
        assert not set(r.seats) & state.eliminated
        assert t.round_entries <= ROUND_ENTRY_BOUND
        # somebody can always enter something
        assert game.legal_moves(state, None) or any(game.legal_moves(state, s) for s in r.seats)
        # knowledge follows the true cards; views show public values and only one's own notes
        t.check_knowledge()
        for s in (*range(len(state.players)), None):
            t.check_view(s)

    @invariant()
    def round_trip(self):
        state = self.state
        d = game.state_to_dict(state)
        back = game.state_from_dict(json.loads(json.dumps(d)))
        assert back == state
        assert game.state_to_dict(back) == d

    @invariant()
    def replay_matches(self):
        self.checks += 1
        if self.checks % 8:
            return
        self._replay()

    def _replay(self):
        log, steps = game_log.replay(game, self.initial, self.entries)
        assert all(s.accepted for s in steps), [s.ruling for s in steps if not s.ruling is None][:1]
        assert log.state == self.state

    def teardown(self):
        if hasattr(self, "table"):
            self._replay()
            event(f"rounds scored={min(self.table.rounds_scored, 3)}")
            if self.state.over:
                event("match over")


TestRatATatCat = RatATatCatMachine.TestCase
