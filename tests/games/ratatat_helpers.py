"""Small helpers to play scripted Rat-a-Tat Cat rounds through the public engine API."""
from __future__ import annotations

from collections import Counter

import pytest

from referee.games import ratatat as R
from referee.games.base import Ruling
from referee.games.ratatat_cards import RTC_DECKS
from referee.games.ratatat_moves import Call, Discard, Draw, Reveal, TurnUp

ANA, BEN, CY, DEE, ELI, FAY = range(6)
NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")


def match(n: int = 2, **rules):
    return R.new_match(NAMES[:n], rules)


def play(state, *moves):
    for move in moves:
        state, _ = R.apply(state, move)
    return state


def refused(state, move) -> Ruling:
    """Apply ``move`` expecting a REJECT; also checks the state was left untouched."""
    before = R.state_to_dict(state)
    with pytest.raises(Ruling) as info:
        R.apply(state, move)
    assert R.state_to_dict(state) == before
    return info.value


def plain_turn(state, seat):
    """Draw a card nobody else sees and discard it unused."""
    return play(state, Draw(seat), Discard(seat))


def score_round(state, cards_by_seat, caller=None):
    """Play a minimal round (one turn each, ``caller`` calls first) and reveal the given cards;
    a score instead of cards is dealt four number cards adding up to it."""
    cards_by_seat = hands_for(cards_by_seat)
    r = state.round
    if r.awaiting_turn_up:
        state = play(state, TurnUp("5"))
    seats = list(state.round.seats)
    first = state.round.turn
    state = plain_turn(state, first)
    state = play(state, Call(first if caller is None else caller))
    while state.round.step != "reveal":
        state = plain_turn(state, state.round.turn)
    for seat in seats:
        state = play(state, Reveal(seat, tuple(cards_by_seat[seat])))
    return state


def hands_for(wanted):
    """Cards for each seat: given cards are kept, a score gets four number cards adding up to it,
    within what the deck still holds (the turned-up 5 included)."""
    supply = Counter({v: n for v, n in RTC_DECKS["classic_54"].items() if v.isdigit()})
    supply["5"] -= 1
    for cards in wanted.values():
        if not isinstance(cards, int):
            supply.subtract(cards)

    def pick(score, slots, top):
        if slots == 0:
            return () if score == 0 else None
        for v in range(min(top, score), -1, -1):
            if supply[str(v)] > 0 and score - v <= 9 * (slots - 1):
                supply[str(v)] -= 1
                rest = pick(score - v, slots - 1, v)
                if rest is not None:
                    return (str(v),) + rest
                supply[str(v)] += 1
        return None

    out = {}
    for seat, cards in sorted(wanted.items(), key=lambda kv: kv[1] if isinstance(kv[1], int) else -1):
        out[seat] = pick(cards, 4, 9) if isinstance(cards, int) else tuple(cards)
        assert out[seat] is not None, f"no hand adds up to {cards}"
    return out
