"""Cabo / Cambio matches played at a simulated physical table with a TRUE shuffled deck
(referee/games/cabo_sim.py), one Hypothesis state machine per preset, its house rules varied around it.

After every entry the GEN-12 invariants hold (checked by the table as it follows each entry): every card
is in exactly one place (the zone counts add up to the deck, CAB-K1), no count is negative, the referee's
public knowledge is the truth and a public value never changes (GEN-4), private notes name the true card
and only their own seat sees them (GEN-6), the turn names a player who is not the caller. Rounds are scored
as the true cards say (CAB-40..44), totals follow exactly 100 → 50 (CAB-43). Illegal entries are tried on
the side: each is refused with the state untouched. At the end, the log replays to the same state and each
seat's redacted download replays to the same view.
"""
from __future__ import annotations

import json
import os
import random

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from referee.games import cabo as game
from referee.games.base import Ruling
from referee.games.cabo_moves import Call, Draw, Reveal, Snap
from referee.games.cabo_sim import Table, preset_rules
from referee.games.ratatat_rules import TIE_POLICIES
from referee.games.rulebook import book
from referee.games.sim import expected_round_winners

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli")
EXAMPLES = int(os.environ.get("CABO_MACHINE_EXAMPLES", "12"))
_NO_SHRINK = {"phases": (Phase.explicit, Phase.reuse, Phase.generate)} if os.environ.get("CABO_NO_SHRINK") else {}


def house_rules():
    return st.fixed_dictionaries({}, optional={
        "tie_policy": st.sampled_from(TIE_POLICIES),
        "call_timing": st.sampled_from(("instead_of_turn", "end_of_turn")),
        "caller_lock": st.booleans(),
        "snap_enabled": st.booleans(),
        "snap_penalty": st.sampled_from((1, 2)),
        "matching_exchange": st.sampled_from(("penalty", "no_penalty", "off")),
        "discard_taken_face_up": st.booleans(),
        "initial_look": st.sampled_from(("any_two", "nearest_two")),
        "kamikaze": st.booleans(),
        "exact_100_reset": st.sampled_from(("once", "unlimited", "off")),
        "game_end": st.sampled_from(("over_100", "rounds")),
        "rounds_n": st.integers(1, 3),
        "deck_out_ends_round": st.booleans(),
        "swap_power_scope": st.sampled_from(("own_other", "any_two")),
        "next_round_order": st.sampled_from(("winner_first", "clockwise")),
    })


class CaboTable(RuleBasedStateMachine):
    """One match of a preset at a true table."""

    PRESET = "cabo_2e"

    def __init__(self):
        super().__init__()
        self.table: Table | None = None

    @initialize(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 5), changes=house_rules(),
                patience=st.sampled_from(((1, 6), (2, 12), (20, 60))))
    def deal(self, seed, n, changes, patience):
        rules = preset_rules(self.PRESET, **changes)
        self.table = Table(NAMES[:n], rules, random.Random(seed), call_turns=patience)
        self.start = self.table.state
        self.entries: list[dict] = []

    def step(self) -> None:
        t = self.table
        move = t.choose()
        new, _ = game.apply(t.state, move)
        self.entries.append(game.move_to_dict(move, t.players))
        old = t.state
        t.accept(move, new)
        if len(new.history) > len(old.history):
            res = new.history[-1]
            assert res.winners == expected_round_winners(dict(res.scores), res.caller, t.rules["tie_policy"])

    @precondition(lambda self: self.table is not None and not self.table.state.over)
    @rule(k=st.integers(1, 25))
    def play(self, k):
        for _ in range(k):
            if self.table.state.over:
                break
            self.step()

    def refused(self, move) -> Ruling | None:
        before = game.state_to_dict(self.table.state)
        try:
            game.apply(self.table.state, move)
        except Ruling as ruling:
            assert game.state_to_dict(self.table.state) == before
            assert ruling.rule in book(game)
            return ruling
        return None

    @precondition(lambda self: self.table is not None and not self.table.state.over)
    @rule(data=st.data())
    def illegal(self, data):
        """An entry the rules refuse, tried on the side: the state is untouched."""
        st_, r = self.table.state, self.table.state.round
        players = range(len(st_.players))
        others = [s for s in players if s != r.turn and r.turn is not None]
        if others and r.step in ("start", "holding") and not r.awaiting_turn_up and r.give_owed is None:
            ruling = self.refused(Draw(data.draw(st.sampled_from(others))))
            assert ruling is not None and ruling.rule in ("GEN-7", "CAB-20", "CAB-3", "CAB-7")
        if r.caller is not None and r.step != "reveal" and r.give_owed is None:
            assert self.refused(Call(data.draw(st.sampled_from(list(players))))).rule == "CAB-20"
        if r.step != "reveal" and not r.awaiting_turn_up and r.give_owed is None:
            assert self.refused(Reveal(0, ())).rule == "CAB-20"
        if r.snap_top is None and not r.awaiting_turn_up and r.give_owed is None:
            seat = data.draw(st.sampled_from(list(players)))
            held = [i + 1 for i, t in enumerate(r.rows[seat]) if t is not None]
            if held:
                ruling = self.refused(Snap(seat, held[0], None, None, True))
                assert ruling is not None and ruling.rule in ("CAB-6", "CAB-V5")
        full = [v for v, n in st_.deck.items()
                if sum(1 for c, val in enumerate(self.table.values) if val == v and c in self.table.public) == n]
        if full and r.step == "start" and r.turn is not None and r.draw and not r.awaiting_turn_up \
                and r.give_owed is None:
            ruling = self.refused(Draw(r.turn, full[0], True))  # one sighting too many (GEN-3)
            assert ruling is not None and ruling.rule == "GEN-3"

    @precondition(lambda self: self.table is not None and self.table.state.over)
    @rule()
    def the_result(self):
        """A finished match: the lowest total wins (ties share), as ``referee check`` prints it."""
        state = self.table.state
        low = min(state.totals)
        assert state.winners == tuple(s for s in range(len(state.players)) if state.totals[s] == low)
        result = game.result(state)
        assert result["over"] and result["winners"] == [state.players[s] for s in state.winners]
        assert game.legal_moves(state, None) == [] and game.may_act(state) == ()

    @invariant()
    def conservation_and_knowledge(self):
        if self.table is not None and not self.table.state.over:
            self.table.check_all()

    def teardown(self):
        if self.table is None:
            return
        state = self.start
        for entry in self.entries:
            state, _ = game.apply(state, game.parse_move(json.loads(json.dumps(entry)), state.players, state.rules))
        assert game.state_to_dict(state) == game.state_to_dict(self.table.state)  # replay = live
        live = self.table.state
        for seat in (None, *range(len(live.players))):
            redacted = game.redact(live, self.entries, seat)
            replayed = self.start
            for entry in redacted:
                replayed, _ = game.apply(replayed, game.parse_move(entry, replayed.players, replayed.rules))
            assert game.view(replayed, seat) == game.view(live, seat), seat


def machine(preset: str):
    cls = type(f"CaboTable_{preset}", (CaboTable,), {"PRESET": preset})
    cls.TestCase.settings = settings(max_examples=EXAMPLES, stateful_step_count=25, deadline=None,
                                     derandomize=True, database=None,
                                     suppress_health_check=(HealthCheck.too_slow, HealthCheck.data_too_large),
                                     **_NO_SHRINK)
    return cls.TestCase


test_cabo_2e_table = machine("cabo_2e")
test_cabo_1e_table = machine("cabo_1e")
test_cambio_common_table = machine("cambio_common")
