"""A round tied by two players says "both win"; by three or more, "all win" (RTC-V1). The sentence is stored
with the round, so the engine's version moves on with it (older snapshots are replayed)."""
from __future__ import annotations

import pytest

from referee.games import ratatat_table
from referee.games.ratatat_scoring import round_winners

PLAYERS = ("Ana", "Ben", "Cy", "Dee")


@pytest.mark.parametrize("policy", ["all_lowest_except_caller", "caller_wins_ties"])
def test_two_tied_without_the_caller_both_win(policy):
    winners, said = round_winners({0: 8, 1: 12, 2: 8}, 1, policy, PLAYERS)
    assert winners == (0, 2)
    assert said == (f"Ana and Cy tie on 8. Tie policy {policy} (RTC-V1): the caller is not among them, "
                    "so they both win.")


@pytest.mark.parametrize("policy", ["all_lowest_except_caller", "caller_wins_ties"])
def test_three_tied_without_the_caller_all_win(policy):
    winners, said = round_winners({0: 8, 1: 12, 2: 8, 3: 8}, 1, policy, PLAYERS)
    assert winners == (0, 2, 3)
    assert said.endswith("the caller is not among them, so they all win.")


def test_two_tied_under_all_lowest_both_win():
    winners, said = round_winners({0: 8, 1: 8, 2: 9}, 2, "all_lowest", PLAYERS)
    assert winners == (0, 1)
    assert said == "Ana and Ben tie on 8. Tie policy all_lowest (RTC-V1): both players on the lowest score win."


def test_three_tied_under_all_lowest_every_one_wins():
    winners, said = round_winners({0: 8, 1: 8, 2: 8}, None, "all_lowest", PLAYERS)
    assert winners == (0, 1, 2)
    assert said == "Ana, Ben and Cy tie on 8. Tie policy all_lowest (RTC-V1): every player on the lowest score wins."


def test_the_engine_version_moved_on_with_the_sentence():
    assert ratatat_table.ENGINE_VERSION == 10  # 10: a GEN-4 dispute says whose slot the card lies in
