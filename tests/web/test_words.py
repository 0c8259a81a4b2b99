"""Each game's entries and results in the phone's language (referee/views/words/): one module per game,
found by the game's TEMPLATES name; a game without one is shown as its engine says it."""
from __future__ import annotations

import pytest

from referee import i18n_rules
from referee.games import GAMES
from referee.games.base import Undo
from referee.views import words


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_its_words_module_with_the_entries_it_says(name):
    module = words.for_game(GAMES[name].TEMPLATES)
    assert module is not None and callable(module.entry)
    assert module.__name__ == f"referee.views.words.{GAMES[name].TEMPLATES}"


@pytest.mark.parametrize("asked", ["", None, "chess", "../ratatat", "ratatat.x", "__init__", "_x"])
def test_a_name_that_is_no_games_module_finds_none(asked):
    assert words.for_game(asked) is None


def test_the_entries_every_game_shares_are_said_alike(app):
    with app.test_request_context(headers={"Accept-Language": "it"}):
        said = {name: words.for_game(GAMES[name].TEMPLATES).entry(Undo(0), ("Ana", "Ben"))
                for name in GAMES}
    assert len(set(said.values())) == 1 and "Ana" in next(iter(said.values()))


def test_a_game_without_a_words_module_is_shown_as_its_engine_says_it_marked_english(app, monkeypatch):
    class Plain:
        TEMPLATES = "no_such_game"

        @staticmethod
        def describe(move, players):
            return f"{players[move.seat]} undoes."

    with app.test_request_context(headers={"Accept-Language": "he"}):
        said = str(i18n_rules.describe_move(Plain, Undo(1), ("Ana", "Ben")))
        outcome = str(i18n_rules.outcome_words({"game": "no_such_game", "outcome": "Ben wins."}))
    assert "Ben undoes." in said and 'lang="en"' in said
    assert "Ben wins." in outcome
