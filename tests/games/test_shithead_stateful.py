"""Whole Shithead games at a simulated physical table (tests/games/shithead_sim.py), honest entries
only: none may be refused or flagged, and the GEN-12 invariants and the SH ones of RULES.md §5 hold after
every entry — conservation, no negative zone, public cards that match the true ones, the turn on a player
still in, no four of a kind left on the pile (under the default ``top_run`` scope, SH-V20), and 3 cards
in every hand while the stock lasts. Players out hold no card and players still in hold some (SH-50).

The house rules vary over every switch an honest driver can follow (all but SH-V9 decks, which needs 6+
players). A game that ends (SH-51 / SH-52) is followed by a new table, so long examples play several."""
from __future__ import annotations

import os
import sys
from collections import Counter

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

sys.path.insert(0, os.path.dirname(__file__))
from shithead_sim import Table  # noqa: E402

from referee.games import shithead as sh  # noqa: E402
from referee.games.shithead_logic import run_length  # noqa: E402

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli")


def house_rules():
    nines = st.sampled_from(({}, {"nine_reverse": "strong"}, {"nine_reverse": "normal"}, {"nine_same_suit": True}))
    switches = st.fixed_dictionaries({
        "three_is_normal": st.booleans(), "jokers": st.booleans(), "interrupts": st.booleans(),
        "specials_anytime": st.booleans(), "faceup_swap_allowed": st.booleans(), "facedown_count": st.integers(3, 4),
        "end_mode": st.sampled_from(("last_is_loser", "first_out_wins")), "games": st.integers(1, 2),
        "start_rank_rule": st.sampled_from(("lowest_natural", "dealer_left")),
        "faceup_play": st.sampled_from(("one_at_a_time", "same_rank_set")), "voluntary_pickup": st.booleans(),
        "three_in_quartet": st.sampled_from(("as_three", "copies_below")),
        "ten_after_seven": st.sampled_from(("allowed", "blocked")),
        "eight_skip_mode": st.sampled_from(("capped", "modular")),
        "starter_must_play_declared": st.booleans(), "burn_plays_again": st.booleans(),
        "start_rank_zones": st.sampled_from(("hand", "hand_and_faceup")),
        "quartet_scope": st.sampled_from(("top_run", "last_play_plus_current")),
        "faceup_fail_takes_card": st.booleans(),
    })
    return st.builds(lambda a, b: {**a, **b}, switches, nines)


TABLES = dict(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 5), rules=house_rules())


class ShitheadTable(RuleBasedStateMachine):
    @initialize(**TABLES)
    def deal(self, seed, n, rules):
        self.table = Table(NAMES[:n], rules, seed)

    @rule(data=st.data())
    def play_on(self, data):
        """One honest entry; or, once the match is over, a new table (one rule, so that Hypothesis's
        swarm testing cannot switch either half off)."""
        s = self.table.state
        if s.phase == "over":
            self.finished = getattr(self, "finished", 0) + (s.phase == "over")
            self.deal(**data.draw(st.fixed_dictionaries(TABLES), label="next table"))
            return
        options = self.table.honest_entries()
        assert options, "an honest table always has an entry to make"
        plays = [m for m in options if isinstance(m, sh.Play)]
        if plays and any(isinstance(m, sh.Pickup) for m in options) and data.draw(st.integers(0, 7)):
            options = [m for m in options if not isinstance(m, sh.Pickup)]  # a voluntary pick-up is rare
        move = data.draw(st.sampled_from(options))
        events = self.table.enter(move)  # never refused: a Ruling fails the test
        assert not [e for e in events if e["kind"] in ("flag", "overridden")], events

    @invariant()
    def conservation(self):
        t, s = self.table, self.table.state
        if s.phase != "play":
            return
        total = s.stock + len(s.pile) + len(s.burned) + sum(x.count + len(x.faceup) + x.facedown for x in s.seats)
        assert total == t.deck_size  # GEN-3, SH-K11
        truth = len(t.stock) + len(t.pile) + len(t.burned) + sum(map(len, t.hand + t.up + t.down))
        assert truth == t.deck_size
        assert all(x.count >= 0 and x.facedown >= 0 and x.unknown >= 0 for x in s.seats) and s.stock >= 0

    @invariant()
    def public_cards_are_the_true_ones(self):
        t, s = self.table, self.table.state
        if s.phase != "play":
            return
        assert [p.card for p in s.pile] == t.pile and sorted(s.burned) == sorted(t.burned)
        assert [p.rank for p in s.pile] == [rank for rank, _, _ in t.played]
        assert s.stock == len(t.stock)
        for i, seat in enumerate(s.seats):
            assert seat.count == len(t.hand[i]) and seat.facedown == len(t.down[i])
            assert sorted(seat.faceup) == sorted(t.up[i])
            assert not Counter(seat.known) - Counter(t.hand[i])  # SH-K4: known cards really are there

    @invariant()
    def turn_and_pile(self):
        t, s = self.table, self.table.state
        if s.phase != "play":
            return
        assert s.turn in s.active()  # GEN-12
        assert all(t.holds(i) != (i in s.out) for i in range(len(s.players)))  # SH-50
        if s.rules["quartet_scope"] == "top_run":
            assert t.run()[1] < 4 and run_length(s)[1] < 4  # it would have burned (SH-35)
        if s.stock:
            assert all(s.seats[i].count >= 3 and len(t.hand[i]) >= 3 for i in s.active())  # SH-15

    def teardown(self):
        finished = getattr(self, "finished", 0) + (self.table.state.phase == "over")
        event(f"matches played to the end: {finished}")


ShitheadTable.TestCase.settings = settings(max_examples=40, stateful_step_count=400, deadline=None,
                                           database=None, derandomize=True,
                                           suppress_health_check=list(HealthCheck))
test_shithead_table = ShitheadTable.TestCase
