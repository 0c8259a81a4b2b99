"""A card picker opened at its own address (a new tab, or a tap before the scripts loaded) is a whole page
whose forms work: every place its forms and links send their answer to is on the page, and the page is the
table's (its live updates, the table's address), so an entry made from it lands on the table."""
from __future__ import annotations

import re

import pytest

from referee import store

from .test_play import Phone, text

PLAIN = {"Origin": "http://localhost"}

# (game, players, rules, entries made first by seat 0 of the shared phone, the picker's query)
PICKERS = {
    "ratatat": ("ratatat", ["Hana", "Ben"], {"rounds_n": 1}, [], "move=turn_up"),
    "ratatat-peek": ("ratatat", ["Hana", "Ben"], {"rounds_n": 1},
                     [{"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "power", "card": "PEEK"}],
                     "move=peek&slot=3&field=seen&seat=Hana"),
    "cabo": ("cabo", ["Hana", "Ben"], {}, [], "move=turn_up"),
    "shithead": ("shithead", ["Hana", "Ben"], {}, [{"move": "faceup", "cards": "9S,KD,AH"}], "move=swap&seat=Hana"),
    "spite_malice": ("spite_malice", ["Hana", "Ben"], {"payoff_size": 5}, [], "move=top&seat=Hana"),
}


def _ids(page: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page))


def _open_picker(app, database, name):
    game, players, rules, entries, query = PICKERS[name]
    match = store.create_match(database, game, players, rules)
    phone = Phone(app, match.id, "0")
    for fields in entries:
        assert phone.post(**fields).status_code == 200, fields
    page = phone.client.get(f"/m/{match.id}/pick?{query}")  # no HX-Request: the whole page
    assert page.status_code == 200, text(page)[:300]
    return match, phone, text(page)


@pytest.mark.parametrize("name", list(PICKERS))
def test_every_target_of_a_whole_page_picker_is_on_the_page(app, database, name):
    _, _, page = _open_picker(app, database, name)
    assert 'id="pick"' in page and "<html" in page
    targets = set(re.findall(r'\bhx-target="#([^"]+)"', page))
    assert targets, "the picker posts nothing with htmx"
    missing = targets - _ids(page)
    assert not missing, f"the picker's forms answer into elements the page lacks: {sorted(missing)}"


@pytest.mark.parametrize("name", ["ratatat", "ratatat-peek"])
def test_a_whole_page_picker_is_the_tables_page_live(app, database, name):
    """Its #screen is the table's (re-fetched when the doorbell rings, the table's address for the address
    bar), and it says which version it shows (a doorbell of this phone's own entry asks for nothing)."""
    match, _, page = _open_picker(app, database, name)
    screen = re.search(r'<div id="screen"[^>]*>', page)
    assert screen is not None
    assert f'data-table-path="/m/{match.id}"' in screen.group(0)
    assert f'hx-get="/m/{match.id}/screen"' in screen.group(0) and 'hx-trigger="sse:changed"' in screen.group(0)
    assert f'sse-connect="/m/{match.id}/events' in page
    version = store.get_match(database, match.id).version
    assert 'id="seen-version"' in page and f'data-version="{version}"' in page


def test_an_entry_from_a_whole_page_picker_without_scripts_lands_on_the_table(app, database):
    """Before the scripts load, a tap is a plain form post: the table page, the entry made."""
    match, phone, page = _open_picker(app, database, "ratatat-peek")
    form = next(f for f in re.findall(r"<form\b.*?</form>", page, re.S) if 'name="seen" value="7"' in f)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    answer = phone.client.post(f"/m/{match.id}/entry", data=fields, headers=PLAIN)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/m/{match.id}")
    assert store.entries(database, match.id)[-1]["entry"]["move"] == "peek"
