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
