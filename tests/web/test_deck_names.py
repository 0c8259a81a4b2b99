"""A deck's name follows the rules of player and group names: no control or format characters, something
that shows (up to the form's 60 characters)."""
from __future__ import annotations

import pytest

from referee import decks

POST = {"Origin": "http://localhost"}


def _create(client, name):
    return client.post("/decks", data={"name": name, "kind": "cabo"}, headers=POST)


@pytest.mark.parametrize("name, words", [
    ("\x00" * 70, "control or format character U+0000"),
    ("Ours\x00", "control or format character U+0000"),
    ("\x1b[31mred", "control or format character U+001B"),
    ("Gran\u202edeck", "control or format character U+202E"),
    ("\u200b\u200b", "control or format character U+200B"),
    ("a" * 45 + "\x07", "control or format character U+0007"),  # past a player name's 40: still looked at
    ("", "Give the deck a name"),
    ("   \t ", "Give the deck a name"),
    ("\u3164", "Give the deck a name"),  # a filler: nothing shows
    ("d" * 61, "at most 60 characters"),
    ("d" * 5000, "at most 60 characters"),
])
def test_a_name_a_player_could_not_have_is_refused(client, database, name, words):
    response = _create(client, name)
    assert response.status_code == 422 and words in response.get_data(as_text=True)
    assert decks.all_decks(database) == []


@pytest.mark.parametrize("name, kept", [
    ("  Grandma's deck  ", "Grandma's deck"),
    ("d" * 60, "d" * 60),  # a deck's name may be longer than a player's
    ("👨\u200d👩\u200d👧 deck", "👨\u200d👩\u200d👧 deck"),  # a joiner inside an emoji is part of it
    ("Cafe\u0301", "Café"),  # kept in NFC
    ("מהדורה 2", "מהדורה 2"),
])
def test_a_name_a_player_could_have_is_kept(client, database, name, kept):
    assert _create(client, name).status_code == 303
    (deck,) = decks.all_decks(database)
    assert deck.name == kept
