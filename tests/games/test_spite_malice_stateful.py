"""Whole Spite & Malice games at a simulated physical table with TRUE shuffled decks, honest entries only:
none may be refused, and the GEN-12 invariants and the SM ones of RULES.md §3 hold after every entry —
conservation over every zone (GEN-3: stock, held-aside piles, hands, pay-off piles, building piles, side
stacks), no building pile complete or empty (SM-14, SM-T22), no hand above 5 (SM-K3), no more piles or
side stacks than the table allows (SM-K5), the public tops and piles the real ones (SM-K2), and no rank
seen more often than the decks hold it (SM-K7).

The house rules vary over every SM-V switch (and SM-A9's ``payoff_compulsory``), with 2 to 4 players
(SM-V14). Every step Hypothesis picks one of the entries the real table could make now — a pay-off top
turned up, who starts, the draw owed, a build of a real card (hand, pay-off top, side-stack top) onto a
pile it really fits, or a discard of a real hand card that the table's side-stack rule allows — and names
each card by its full code, its bare rank or not at all ("unknown", GEN-14). A finished match is followed
by a new table, so long examples play several."""
from __future__ import annotations

import random
import re

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from referee.games import spite_malice as sm
from referee.games.base import Override
from referee.games.spite_malice_rules import (HAND, QUEEN, build_problem, deck, deck_size, is_wild, rank_copies,
                                              rank_of, side_problem, start_value)
from referee.games.spite_malice_state import zone_counts
from referee.games.spite_malice_view import start_leaders

NAMES = ("Ann", "Bob", "Cy", "Dee")


def house_rules():
    """Every SM-V switch (SM-V14 ``players`` follows the number of players) and SM-A9."""
    return st.fixed_dictionaries({
        "stock_exhaustion": st.sampled_from(("fewest_payoff_wins", "draw")),
        "payoff_size": st.integers(5, 26),
        "max_center_stacks": st.sampled_from((3, 1, 4, None)),
        "max_side_stacks": st.integers(1, 8),
        "king_can_start_stack": st.booleans(),
        "refill_timing": st.sampled_from(("start_of_turn", "end_of_turn")),
        "scoring": st.sampled_from(("pagat_5_plus", "cards_left", "none")),
        "match_target": st.none() | st.integers(1, 60),
        "start_tie": st.sampled_from(("reshuffle_payoffs", "coin_flip")),
        "king_rank_for_start": st.sampled_from(("high", "low", "redo")),
        "jokers_wild": st.booleans(),
        "side_stack_order": st.sampled_from(("free", "same_or_one_lower")),
        "completed_stack_handling": st.sampled_from(("shuffle_in_now", "hold_until_stock_empty")),
        "exhaustion_points": st.sampled_from(("none", "difference")),
        "payoff_compulsory": st.booleans(),
    })


TABLES = dict(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 4), rules=house_rules())
NAMING = st.sampled_from(("code", "code", "rank", "unknown"))


class Table:
    """The real cards of one match, moved as the honest entries say; ``state`` is the referee's."""

    def __init__(self, seed: int, n: int, rules: dict):
        self.rng = random.Random(seed)
        self.state = sm.new_match(NAMES[:n], {**rules, "players": 2 if n == 2 else "3-4"})
        self.rules = self.state.rules
        self.size = deck_size(self.state.decks, self.rules)
        self.games = 0
        self.deal()

    def deal(self) -> None:
        cards = [c for c, k in deck(self.state.decks, self.rules).items() for _ in range(k)]
        self.rng.shuffle(cards)
        n, size = len(self.state.players), self.rules["payoff_size"]
        self.payoff = [[cards.pop() for _ in range(size)] for _ in range(n)]
        self.hand = [[cards.pop() for _ in range(HAND)] for _ in range(n)]
        self.sides = [[[] for _ in range(self.rules["max_side_stacks"])] for _ in range(n)]
        self.center: list[list[str]] = []
        self.held: list[str] = []
        self.stock = cards

    # --- what the real table can do now ----------------------------------------------------
    def free_places(self) -> list[int]:
        """Where a new building pile may go: an empty place among the piles, else the next one (SM-13)."""
        cap = self.rules["max_center_stacks"]
        if cap is not None and sum(1 for p in self.center if p) >= cap:
            return []
        empty = [i + 1 for i, p in enumerate(self.center) if not p]
        return empty or [len(self.center) + 1]

    def piles_for(self, card: str) -> list[int]:
        """Every place ``card`` really fits now (SM-12, SM-21): a pile, or a new one (SM-13, SM-V4)."""
        out = [i + 1 for i, pile in enumerate(self.center)
               if pile and build_problem(len(pile), card, self.rules) is None]
        if build_problem(0, card, self.rules) is None:
            out += self.free_places()
        return out

    def true_leaders(self) -> list[int]:
        values = [start_value(p[-1], self.rules) for p in self.payoff]
        best = max((v for v in values if v is not None), default=None)
        return [i for i, v in enumerate(values) if v == best] or list(range(len(values)))

    def options(self) -> list[tuple]:
        """Every honest entry, as (kind, seat, details)."""
        s = self.state
        if s.phase == "over":
            return []
        out: list[tuple] = [("top", i) for i, x in enumerate(s.seats) if x.top_owed and x.payoff > 0]
        if s.phase == "setup":
            if not out:
                known = all(x.top is not None for x in s.seats)
                out += [("start", i) for i in (start_leaders(s) if known else self.true_leaders())]
            return out
        seat = s.turn
        if s.owed:
            return out + [("draw", seat)]
        assert not s.ending  # the end-of-turn refill (SM-V5) is owed until it is drawn
        builds = []
        top = self.payoff[seat][-1]
        if not s.seats[seat].top_owed:
            builds += [("build", seat, "payoff", top, p) for p in self.piles_for(top)]
        for k, side in enumerate(self.sides[seat], 1):
            if side:
                builds += [("build", seat, f"side{k}", side[-1], p) for p in self.piles_for(side[-1])]
        for card in sorted(set(self.hand[seat])):
            builds += [("build", seat, "hand", card, p) for p in self.piles_for(card)]
        out += builds
        if self.rules["payoff_compulsory"] and self.piles_for(top):
            return out  # SM-A9: the pay-off top fits, so it must be built before any discard
        for card in sorted(set(self.hand[seat])):
            for k, side in enumerate(self.sides[seat], 1):
                if side_problem(side[-1] if side else None, card, self.rules) is None:
                    out.append(("discard", seat, card, k))
        if not out:
            # SM-V12 "same_or_one_lower" (⚠ in RULES.md) says nothing of a player whose every side-stack
            # place is taken, with no hand card of a top's rank or one lower and nothing to build: no
            # entry ends the turn (SM-17). The real table agrees to a discard and overrides (GEN-5).
            assert self.rules["side_stack_order"] == "same_or_one_lower"
            assert all(self.sides[seat]) and self.hand[seat], (self.sides[seat], self.hand[seat])
            out = [("stuck", seat, card, k) for card in sorted(set(self.hand[seat]))
                   for k in range(1, len(self.sides[seat]) + 1)]
        return out

    # --- doing it ------------------------------------------------------------------------------
    def move(self, option: tuple, naming: str, count_given: bool):
        """The real cards moved and the entry the table makes for ``option``."""
        s = self.state

        def named(card: str) -> str | None:
            return card if naming == "code" else rank_of(card) if naming == "rank" else None

        kind, seat = option[0], option[1]
        if kind == "top":
            if s.phase == "setup":  # the first turn-up, or a reshuffle (SM-7, SM-V10)
                self.rng.shuffle(self.payoff[seat])
            return sm.Top(seat, named(self.payoff[seat][-1]))
        if kind == "start":
            return sm.Start(seat)
        if kind == "draw":
            n = s.owed
            self.hand[seat] += [self.stock.pop() for _ in range(n)]
            return sm.Draw(seat, n if count_given else None)
        if kind == "build":
            _, _, source, card, place = option
            if source == "payoff":
                self.payoff[seat].pop()
            elif source == "hand":
                self.hand[seat].remove(card)
            else:
                self.sides[seat][int(source[4:]) - 1].pop()
            while len(self.center) < place:
                self.center.append([])
            self.center[place - 1].append(card)
            return sm.Build(seat, place, source, named(card))
        _, _, card, k = option
        self.hand[seat].remove(card)
        self.sides[seat][k - 1].append(card)
        recorded = s.seats[seat].sides[k - 1]
        if kind == "stuck" and side_problem(recorded[-1], named(card), self.rules):  # else: not checkable
            return Override(sm.Discard(seat, k, named(card)), "SM-V12",
                            "no hand card is the same rank as a side-stack top or one lower", seat)
        return sm.Discard(seat, k, named(card))

    def enter(self, move) -> list[dict]:
        """The entry into the referee (a Ruling fails the test) and the real table's bookkeeping."""
        self.state, events = sm.apply(self.state, move)
        for e in events:
            if e["kind"] in ("complete", "shuffle_in", "reshuffle", "hand_empty"):
                event(f"seen: {e['kind']} ({e['rule']})")
            if e["kind"] == "complete":
                place = int(re.match(r"Pile (\d+) is complete", e["message"]).group(1))
                done = self.center[place - 1]
                assert len(done) == QUEEN  # SM-14, SM-K6: complete at exactly 12 cards
                self.center[place - 1] = []
                while self.center and not self.center[-1]:
                    self.center.pop()
                if self.rules["completed_stack_handling"] == "shuffle_in_now":
                    self.stock += done
                    self.rng.shuffle(self.stock)
                else:
                    self.held += done
            elif e["kind"] == "shuffle_in":
                self.stock += self.held
                self.held = []
                self.rng.shuffle(self.stock)
            elif e["kind"] == "game_over":
                self.games += 1
                event(f"a game ends by {e['rule']}")
                if e["rule"] == "SM-40":
                    assert any(not p for p in self.payoff)
                else:  # SM-41: the draw owed really could not be made
                    owed = int(re.search(r"the (\d+) cards? owed", e["message"]).group(1))
                    assert len(self.stock) + len(self.held) < owed
            elif e["kind"] == "new_game":
                self.deal()
        return events


class SpiteMaliceTable(RuleBasedStateMachine):
    @initialize(**TABLES)
    def deal(self, seed, n, rules):
        self.table = Table(seed, n, rules)

    @rule(data=st.data())
    def play_on(self, data):
        """One honest entry; or, once the match is over, a new table (one rule, so that Hypothesis's
        swarm testing cannot switch either half off)."""
        t = self.table
        if t.state.phase == "over":
            self.finished = getattr(self, "finished", 0) + 1
            self.deal(**data.draw(st.fixed_dictionaries(TABLES), label="next table"))
            return
        options = t.options()
        assert options, "an honest table always has an entry to make"
        builds = [o for o in options if o[0] == "build"]
        if builds and data.draw(st.integers(0, 5), label="build if one fits"):
            options = builds  # players build more often than not
        option = data.draw(st.sampled_from(options), label="entry")
        move = t.move(option, data.draw(NAMING, label="naming"), data.draw(st.booleans(), label="count"))
        events = t.enter(move)  # never refused: a Ruling fails the test
        overridden = [e["rule"] for e in events if e["kind"] in ("flag", "overridden")]
        if isinstance(move, Override):
            event("no discard fits under SM-V12 same_or_one_lower: the table overrides")
            assert overridden == ["SM-V12"], events
        else:
            assert not overridden, events

    # --- invariants --------------------------------------------------------------------------
    @invariant()
    def conservation(self):
        """GEN-3, GEN-12: every zone counted once, none negative, the referee's counts the real ones."""
        t, s = self.table, self.table.state
        if s.phase == "over":
            return
        counts = zone_counts(s)
        assert all(v >= 0 for v in counts.values()), counts
        assert sum(counts.values()) == t.size
        truth = (len(t.stock) + len(t.held) + sum(map(len, t.payoff)) + sum(map(len, t.hand))
                 + sum(map(len, t.center)) + sum(len(x) for sides in t.sides for x in sides))
        assert truth == t.size
        assert s.stock == len(t.stock) and len(s.held) == len(t.held)
        assert [x.payoff for x in s.seats] == [len(p) for p in t.payoff]
        assert [x.hand for x in s.seats] == [len(h) for h in t.hand]

    @invariant()
    def building_piles(self):
        """SM-14, SM-T22: a pile at rank 12 has left the table; every pile holds 1-11 cards; SM-K5."""
        s = self.table.state
        piles = [p for p in s.center if p]
        assert all(1 <= len(p) < QUEEN for p in piles), [len(p) for p in piles]
        assert not s.center or s.center[-1]  # a free place is never left at the end
        cap = s.rules["max_center_stacks"]
        assert cap is None or s.live_stacks() <= cap

    @invariant()
    def hands_and_side_stacks(self):
        """SM-K3: no hand above 5; SM-K5, SM-18: at most max_side_stacks side stacks each; GEN-12: in
        play, the turn names a player."""
        t, s = self.table, self.table.state
        assert all(x.hand <= HAND for x in s.seats) and all(len(h) <= HAND for h in t.hand)
        most = s.rules["max_side_stacks"]
        assert all(len(x.sides) == most and x.side_count() <= most for x in s.seats)
        if s.phase == "play":
            assert s.turn is not None and 0 <= s.turn < len(s.players)

    @invariant()
    def public_tops_are_the_true_ones(self):
        """SM-K2: the pay-off tops, side stacks (top and every card under it, SM-20) and building piles
        the referee shows are the real ones; a card entered by rank matches its rank, unknown matches
        anything."""
        t, s = self.table, self.table.state
        if s.phase == "over":
            return
        for i, x in enumerate(s.seats):
            if not x.top_owed and x.payoff and x.top is not None:
                assert _same(t.payoff[i][-1], x.top), (x.top, t.payoff[i][-1])
            assert len(x.sides) == len(t.sides[i])
            for known, true in zip(x.sides, t.sides[i]):
                assert len(known) == len(true) and all(map(_same, true, known)), (known, true)
        real = t.center + [[]] * (len(s.center) - len(t.center))
        assert len(real) == len(s.center), (s.center, t.center)
        for known, true in zip(s.center, real):
            assert len(known) == len(true) and all(map(_same, true, known)), (known, true)

    @invariant()
    def no_rank_seen_too_often(self):
        """SM-K7, GEN-3: no rank face up more often than the decks hold it, no code more than its copies."""
        s = self.table.state
        copies = rank_copies(s.decks, s.rules)
        assert all(n <= copies[r] for r, n in s.seen_ranks().items()), s.seen_ranks()
        full = deck(s.decks, s.rules)
        assert all(n <= full[c] for c, n in s.seen().items() if c in full)

    def teardown(self):
        finished = getattr(self, "finished", 0) + (self.table.state.phase == "over")
        event(f"matches played to the end: {finished}")


def _same(true: str, known: str | None) -> bool:
    """A real card against the referee's: unknown matches anything, a bare rank its rank (wild or not)."""
    return known is None or known == true or (known == rank_of(true) and is_wild(known) == is_wild(true))


SpiteMaliceTable.TestCase.settings = settings(max_examples=30, stateful_step_count=400, deadline=None,
                                              database=None, derandomize=True,
                                              suppress_health_check=list(HealthCheck))
test_spite_malice_table = SpiteMaliceTable.TestCase
