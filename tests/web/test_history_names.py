"""The history's "Correct" links, read aloud: each is named after the entry it corrects ("Correct entry 1: Ben's
face-up cards: …"), so a screen reader's list of links tells them apart; the visible word stays "Correct".
Every game's history is drawn by one template (templates/table/history.html)."""
from __future__ import annotations

import html
import re

import pytest

from referee import store

from .test_shithead_table import ShPhone as Phone

CORRECT = re.compile(r'<a class="small" href="[^"]*/correct/(\d+)"([^>]*)>([^<]*)</a>')


def correct_links(phone) -> list[tuple[str, str, str]]:
    """(the entry number, the link's accessible name, its visible text) of each "Correct" of the history."""
    page = phone.client.get(f"{phone.url}/history").get_data(as_text=True)
    out = []
    for number, attributes, visible in CORRECT.findall(page):
        label = re.search(r'aria-label="([^"]*)"', attributes)
        out.append((number, html.unescape(label.group(1)) if label else "", html.unescape(visible)))
    return out


GAMES = {
    "ratatat": ({"rounds_n": 1}, [{"move": "turn_up", "card": "5"}, {"move": "draw"}],
                ["A 5 is turned up", "draw"]),
    "shithead": ({}, [{"move": "faceup", "cards": "9S,KD,AH"}, {"move": "faceup", "cards": "5H,6S,QD", "for": "Ben"}],
                 ["9♠", "5♥"]),
    "spite_malice": ({"payoff_size": 5}, [{"move": "top", "card": "9"}, {"move": "top", "card": "4", "for": "Ben"}],
                     ["9", "4"]),
    "cabo": ({"preset": "cambio_common"}, [{"move": "turn_up", "card": "5H"}], ["5♥"]),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_each_correct_link_names_its_entry(app, database, game):
    rules, entries, words = GAMES[game]
    if game == "cabo":
        from .test_cabo_table import CAMBIO
        rules = CAMBIO
    match = store.create_match(database, game, ["Ana", "Ben"], rules)
    ana = Phone(app, match.id, "0")
    for fields in entries:
        if game == "shithead":
            cards = fields["cards"].split(",")
            response = ana.post_cards(cards, **{k: v for k, v in fields.items() if k != "cards"})
        else:
            response = ana.post(**fields)
        assert response.status_code == 200, response.get_data(as_text=True)[:400]
    links = correct_links(ana)
    assert len(links) == len(words), links
    for (number, label, visible), said in zip(links, words):
        assert visible == "Correct"
        assert label.startswith(f"Correct entry {number}: "), label  # the visible word first (WCAG 2.5.3)
        assert said in label, (label, said)
        assert "<" not in label
    assert len({label for _, label, _ in links}) == len(links)  # no two read alike


def test_a_correction_row_names_the_entry_it_corrects_again(app, database):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann = Phone(app, match.id, "0")
    assert ann.post(move="top", card="9").status_code == 200
    assert ann.post(move="top", card="4", **{"for": "Bob"}).status_code == 200
    response = ann.post(move="correct", target_entry="1", reason="it was a 3", c_move="top", c_for="Bob", c_card="3")
    assert response.status_code == 200, response.get_data(as_text=True)[:400]
    links = correct_links(ann)
    assert [number for number, _, _ in links] == ["0", "1"]  # entry 1 is corrected again from the correction's row
    assert links[1][1].startswith("Correct entry 1: ") and "3" in links[1][1]


def test_the_names_are_said_in_the_phones_language(app, database):
    from referee import i18n

    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    ana = Phone(app, match.id, "0")
    assert ana.post(move="turn_up", card="5").status_code == 200
    ana.client.set_cookie(i18n.COOKIE, "it")
    (number, label, visible), = correct_links(ana)
    assert number == "0" and label and "<" not in label and label != visible
