"""House rules on the nights pages read as a person says them: by the ready-made rule set they build on
("Common rules (pagat), one game") and each switch off it ("Pay-off pile: 5 cards"), never a colon after a
colon ("Match: off: a single game"), in the phone's language."""
from __future__ import annotations

import html
import re

import pytest

from referee import people, stats
from referee.views.nights import rules_words
from tests.web.nights_helpers import example, play

SINGLE_GAME_OF_5 = '{"match_target":null,"payoff_size":5}'


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.split("<main", 1)[1])))


def _headings(page: str) -> list[str]:
    return [html.unescape(h).strip() for h in re.findall(r"<h2>(.*?)</h2>", page, re.S)]


@pytest.mark.parametrize("key, said", [
    (SINGLE_GAME_OF_5, "Common rules (pagat), one game; Pay-off pile: 5 cards"),
    ('{"match_target":null}', "Common rules (pagat), one game"),  # exactly a preset: its name alone
    ("{}", "Common rules (pagat), a match to 50"),  # the rules by default, by their name
    # no other preset holds it: the rules by default, by their name, and the switch off them, in brackets
    ('{"scoring":"none"}', "Common rules (pagat), a match to 50; Points (none: win, loss or draw)"),
])
def test_spite_and_malice_rules_are_said_by_the_preset_they_build_on_and_each_switch_off_it(app, key, said):
    with app.test_request_context():
        assert str(rules_words("spite_malice", key)) == said
    assert stats.rules_words("spite_malice", key) == said  # the English the standings' tables keep


def test_switches_off_no_other_preset_are_said_after_the_rules_by_default(app):
    with app.test_request_context():
        said = str(rules_words("ratatat", '{"rounds_n":1}'))
        assert said.replace("&#39;", "'") == "The publisher's rules; Number of rounds: 1 round"
        assert str(rules_words("ratatat", "not json")) == "not json"


def test_the_group_page_names_a_spite_and_malice_table_without_a_colon_after_a_colon(client, database):
    club = people.find_or_create_group(database, "Club")
    play(database, example("spite-malice-stock-out"), club.id)  # one game, pay-off piles of 26, ...
    page = client.get(f"/nights/g/{club.id}").get_data(as_text=True)
    text = _text(page)
    assert "Match: off" not in text and "off: a single game" not in text
    heading = next(h for h in _headings(page) if h.startswith("Spite & Malice"))
    assert heading == ("Spite & Malice — Common rules (pagat), one game; Pay-off pile: 26 cards; Building piles "
                       "in the middle: no limit; Points when the stock runs out: the difference in pay-off cards")
    assert all(part.count(":") <= 1 for part in heading.split(" — ", 1)[1].split("; "))
    assert "House rules: Common rules (pagat), one game; Pay-off pile: 26 cards;" in text


def test_the_rules_read_the_same_way_in_italian(client, database):
    club = people.find_or_create_group(database, "Club")
    play(database, example("spite-malice-stock-out"), club.id)
    text = _text(client.get(f"/nights/g/{club.id}", headers={"Accept-Language": "it"}).get_data(as_text=True))
    assert "Le regole comuni (pagat), una partita; Mazzo personale: 26 carte" in text
    assert "spento:" not in text
