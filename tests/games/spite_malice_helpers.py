"""Spite & Malice tables laid out by hand for the SM-T cases: pay-off piles, hands, side stacks, building
piles, the stock and whose turn it is."""
from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games import spite_malice as sm
from referee.games.base import Ruling
from referee.games.spite_malice_state import Seat, total_cards, zone_counts

NAMES = ("Ann", "Bob", "Cy", "Dee")
ANN, BOB, CY, DEE = range(4)


def stack(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def seat(payoff: int = 20, hand: int = 5, top: str | None = "9H", sides: tuple[str, ...] = (),
         places: int = 4, top_owed: bool = False) -> Seat:
    """A player's cards: side stacks as strings, bottom card first ("3H 8S")."""
    laid = tuple(stack(s) for s in sides)
    return Seat(payoff, hand, laid + ((),) * (places - len(laid)), top, top_owed)


def table(rules: dict | None = None, *, n: int = 2, turn: int = ANN, center: tuple[str, ...] = (),
          seats: dict[int, Seat] | None = None, stock: int | None = None, **changes) -> sm.State:
    """A game in play. Unless given, every seat has 20 pay-off cards under a 9H top, 5 in hand and no side
    stacks; the stock holds every card not placed (so the zones add up to the deck, GEN-3)."""
    state = sm.new_match(NAMES[:n], rules)
    places = state.rules["max_side_stacks"]
    all_seats = [seat(places=places, top=("9H", "8D", "7C", "6S")[i]) for i in range(n)]
    for i, s in (seats or {}).items():
        all_seats[i] = s
    state = replace(state, phase="play", turn=turn, starter=turn, seats=tuple(all_seats),
                    center=tuple(stack(c) for c in center), **changes)
    if stock is None:
        counts = zone_counts(state)
        stock = total_cards(state) - (sum(counts.values()) - counts["stock"])
    return replace(state, stock=stock)


def go(state, *moves):
    for move in moves:
        state, _ = sm.apply(state, move)
    return state


def refused(state, move) -> Ruling:
    with pytest.raises(Ruling) as info:
        sm.apply(state, move)
    return info.value


def reminders(state) -> str:
    return " ".join(f"{r}: {t}" for r, t in state.reminders)


class TrueTable:
    """A physical table with a TRUE shuffled deck, played honestly by a simple strategy (build the pay-off
    top when it fits, then side-stack tops and hand cards, then discard), every move entered into the
    referee as a phone would. ``check`` compares the referee's counts and piles with the real cards."""

    def __init__(self, rng, rules: dict, n: int = 2, keen: float = 0.85):
        self.rng = rng
        self.keen = keen  # how often a player looks beyond the pay-off top for a build
        self.state = sm.new_match(NAMES[:n], rules)
        self.rules = self.state.rules
        self.entries = 0
        self.deal()

    # the real cards
    def deal(self) -> None:
        from referee.games.spite_malice_rules import deck
        cards = [c for c, k in deck(self.state.decks, self.rules).items() for _ in range(k)]
        self.rng.shuffle(cards)
        n, size = len(self.state.players), self.rules["payoff_size"]
        self.payoff = [[cards.pop() for _ in range(size)] for _ in range(n)]
        self.hand = [[cards.pop() for _ in range(5)] for _ in range(n)]
        self.sides = [[[] for _ in range(self.rules["max_side_stacks"])] for _ in range(n)]
        self.center: list[list[str]] = []
        self.held: list[str] = []
        self.stock = cards

    def enter(self, move) -> list[dict]:
        self.state, events = sm.apply(self.state, move)
        self.entries += 1
        for e in events:
            if e["kind"] == "complete":
                pile = int(e["message"].split()[1].rstrip(":"))
                done = self.center[pile - 1]
                self.center[pile - 1] = []
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
            elif e["kind"] == "new_game":
                self.deal()
            elif e["kind"] == "game_over" and e["rule"] == "SM-41":
                assert len(self.stock) + len(self.held) < 5  # the draw owed really could not be made
        return events

    def check(self) -> None:
        s = self.state
        if s.phase == "over" or s.phase == "setup" and s.number > 1 and not any(
                x.top is not None for x in s.seats):
            return
        assert s.stock == len(self.stock), (s.stock, len(self.stock))
        assert len(s.held) == len(self.held)
        assert [len(h) for h in self.hand] == [x.hand for x in s.seats]
        assert [len(p) for p in self.payoff] == [x.payoff for x in s.seats]
        assert _same([tuple(p) for p in self.center], list(s.center))
        assert _same([[tuple(x) for x in sides] for sides in self.sides], [list(x.sides) for x in s.seats])

    # the moves
    def setup(self) -> None:
        s = self.state
        for i, st in enumerate(s.seats):
            if st.top_owed:
                self.rng.shuffle(self.payoff[i])  # a reshuffle on equal tops (or the first turn-up)
                self.enter(sm.Top(i, self.payoff[i][-1]))
                s = self.state
        if self.state.phase == "setup" and not any(x.top_owed for x in self.state.seats):
            from referee.games.spite_malice_view import start_leaders
            self.enter(sm.Start(self.rng.choice(start_leaders(self.state))))

    def fits(self, card: str) -> int | None:
        """The pile a card goes on now (a place), or None."""
        from referee.games.spite_malice_rules import build_problem
        from referee.games.spite_malice_view import free_place
        for i, pile in enumerate(self.center):
            if pile and build_problem(len(pile), card, self.rules) is None:
                return i + 1
        new = free_place(self.state)
        if new is not None and build_problem(0, card, self.rules) is None:
            return new
        return None

    def place(self, pile: int, card: str) -> None:
        while len(self.center) < pile:
            self.center.append([])
        self.center[pile - 1].append(card)

    def turn(self) -> None:
        s = self.state
        seat = s.turn
        if s.owed:
            n = s.owed
            self.hand[seat] += [self.stock.pop() for _ in range(n)]
            self.enter(sm.Draw(seat, n if self.rng.random() < 0.5 else None))
            return
        st = s.seats[seat]
        if st.top_owed:
            self.enter(sm.Top(seat, self.payoff[seat][-1] if self.rng.random() < 0.9 else None))
            return
        top = self.payoff[seat][-1]
        pile = self.fits(top)
        if pile is not None:
            self.payoff[seat].pop()
            self.place(pile, top)
            self.enter(sm.Build(seat, pile, "payoff", top if self.rng.random() < 0.5 else None))
            return
        if self.rng.random() < self.keen:
            for k, side in enumerate(self.sides[seat], 1):
                if side and (pile := self.fits(side[-1])) is not None and self.rng.random() < 0.7:
                    card = side.pop()
                    self.place(pile, card)
                    self.enter(sm.Build(seat, pile, f"side{k}", card))
                    return
            for card in list(self.hand[seat]):
                if (pile := self.fits(card)) is not None:
                    self.hand[seat].remove(card)
                    self.place(pile, card)
                    self.enter(sm.Build(seat, pile, "hand", card))
                    return
        card = self.rng.choice(self.hand[seat])
        self.hand[seat].remove(card)
        k = self.rng.randrange(len(self.sides[seat])) + 1
        self.sides[seat][k - 1].append(card)
        self.enter(sm.Discard(seat, k, card))

    def play(self, limit: int = 3000) -> None:
        while not self.state.over and self.entries < limit:
            if self.state.phase == "setup":
                self.setup()
            else:
                self.turn()
            self.check()


def _same(true, known) -> bool:
    """The real cards against the referee's, a card the referee was not told (None) matching any."""
    if known is None:
        return True
    if isinstance(true, (list, tuple)):
        return isinstance(known, (list, tuple)) and len(true) == len(known) and all(
            _same(a, b) for a, b in zip(true, known))
    return true == known
