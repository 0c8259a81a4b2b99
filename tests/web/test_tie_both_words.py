"""A Rat-a-Tat Cat round tied by two players is said "they both win" (three or more: "they all win"), in the
engine's sentence read back by its pattern (the report of ``referee check --lang``, a page in another language)."""
from __future__ import annotations

import pytest

from referee import i18n_rulings
from referee.games.ratatat_scoring import round_winners

PLAYERS = ("Ana", "Ben", "Cy", "Dee")


def _said(english: str) -> str:
    return i18n_rulings.say_all(english, lambda m: m, lambda s, p, n: s if n == 1 else p)


@pytest.mark.parametrize("policy, caller", [("all_lowest", None), ("all_lowest", 1),
                                            ("all_lowest_except_caller", 1), ("caller_wins_ties", 1)])
def test_two_tied_players_both_win(policy, caller):
    _, english = round_winners({0: 8, 1: 12, 2: 8}, caller, policy, PLAYERS)
    assert _said(english) == "Ana and Cy tie on 8. Under this table's tie rule (RTC-V1) they both win."


@pytest.mark.parametrize("policy, caller", [("all_lowest", None), ("all_lowest_except_caller", 1),
                                            ("caller_wins_ties", 1)])
def test_three_tied_players_all_win(policy, caller):
    _, english = round_winners({0: 8, 1: 12, 2: 8, 3: 8}, caller, policy, PLAYERS)
    assert _said(english) == "Ana, Cy and Dee tie on 8. Under this table's tie rule (RTC-V1) they all win."


@pytest.mark.parametrize("tied, words", [(["Ana", "Cy"], "they both win."), (["Ana", "Cy", "Dee"], "they all win.")])
def test_the_screen_says_both_for_two_tied_players_and_all_for_more(app, tied, words):
    from referee.views.words.ratatat import round_words

    scores = {"Ana": 8, "Ben": 20, "Cy": 8, "Dee": 8 if "Dee" in tied else 15}
    last = {"scores": scores, "winners": tied, "caller": "Ben", "explanation": ""}
    with app.test_request_context():
        said = str(round_words({"rules": {"tie_policy": "all_lowest"}}, last))
    assert said.endswith(f"Under this table's tie rule (RTC-V1) {words}"), said
