"""A correction the rules refuse, posted from the correction page (a plain form, not htmx): the answer is that
page again, the refusal said on it (rule ID and words, as on the table screen) over the form as it was filled
in, and nothing saved. The side-stack field of a Spite & Malice correction offers the table's side stacks."""
from __future__ import annotations

import html
import re

import pytest

from referee import store

from .test_play import entry_count
from .test_shithead_table import ShPhone as Phone

POST = {"Origin": "http://localhost"}  # the correction page's form: a browser's plain post


@pytest.fixture
def table(app, database):
    """Ann's 9 and Bob's 4 are the pay-off tops (Ann starts), then Ann ends her turn with a 7 onto side
    stack 1: entry 2."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann, bob = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    assert ann.post(move="top", card="9").status_code == 200
    assert ann.post(move="top", card="4", **{"for": "Bob"}).status_code == 200
    assert ann.post(move="discard", card="7", stack="1").status_code == 200
    return match, ann, bob


def correct(phone, **fields):
    data = {"version": phone.version(), "key": "k-correct-2", "move": "correct", "target_entry": "2",
            "c_move": "discard", "c_for": "Ann", **fields}
    return phone.client.post(f"{phone.url}/entry", data=data, headers=POST)


def stack_field(page: str) -> str:
    return re.search(r'<input type="number" name="c_stack"[^>]*>', page).group(0)


def test_the_side_stack_field_offers_the_tables_side_stacks(table):
    match, ann, bob = table
    page = ann.client.get(f"{ann.url}/correct/2").get_data(as_text=True)
    assert 'min="1"' in stack_field(page) and 'max="4"' in stack_field(page)  # SM-V3: 4 side stacks each


def test_the_side_stack_field_follows_the_house_rule(app, database):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5, "max_side_stacks": 6})
    ann = Phone(app, match.id, "0")
    assert ann.post(move="top", card="9").status_code == 200
    assert ann.post(move="top", card="4", **{"for": "Bob"}).status_code == 200
    assert ann.post(move="discard", card="7", stack="1").status_code == 200
    page = ann.client.get(f"{ann.url}/correct/2").get_data(as_text=True)
    assert 'max="6"' in stack_field(page)


def test_a_refused_correction_is_said_on_the_correction_page_with_the_form_as_typed(table, database):
    match, ann, bob = table
    before = entry_count(database, match.id)
    response = correct(ann, c_card="8", c_stack="9", reason="it went on a new stack")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 422, page[:400]
    assert entry_count(database, match.id) == before  # nothing saved
    # the correction page, not the table
    assert "Correct entry 2" in page and 'id="correct-form"' in page and 'id="screen"' not in page
    # the refusal, its rule and its words, as the table screen says any refusal
    ruling = re.search(r'<div class="ruling reject"[^>]*>(.*?)</div>', page, re.S).group(1)
    said = re.sub(r"<[^>]+>", "", ruling)
    assert "Refused (SM-18)" in said and "at most 4 side stacks" in said and "Nothing was saved." in said
    # the form as it was filled in: the card, the side stack, the reason
    assert 'name="c_card" value="8" checked' in page and 'name="c_card" value="7" checked' not in page
    assert 'value="9"' in stack_field(page) and 'max="4"' in stack_field(page)
    assert re.search(r'<input name="reason"[^>]*value="it went on a new stack"', page)
    assert "It says:" in page and "7" in page  # what the entry says now is still shown
    # the entry the ruling points at is said as the correction would have made it (it quoted the entry as
    # it stands, which breaks no rule)
    involved = re.sub(r"<[^>]+>", "", re.search(r'<ul class="involved">(.*?)</ul>', page, re.S).group(1))
    assert involved == "Entry 2: Ann discards 8 onto side stack 9 (the correction just refused)."
    # corrected as it should have been, it stands
    response = correct(ann, c_card="8", c_stack="2", reason="it went on a new stack")
    assert response.status_code == 303 and entry_count(database, match.id) == before + 1
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["stack"] == 2


def test_a_refused_correction_the_table_may_let_stand_offers_the_override_there(table, database):
    """A correction onto one side stack more than the table's (5 of 4) is refused with SM-18, which a person
    may let stand (GEN-5): the correction page offers it, as a plain form (no #screen to swap into)."""
    match, ann, bob = table
    response = correct(ann, c_card="7", c_stack="5", reason="a fifth stack, we agreed")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 422 and "Refused (SM-18)" in page
    override = re.search(r'<form[^>]*class="stack override".*?</form>', page, re.S).group(0)
    assert "hx-post" not in override and 'name="move" value="override"' in override
    entry = re.search(r'name="entry" value="([^"]*)"', response.get_data(as_text=True)).group(1)
    before = entry_count(database, match.id)
    response = ann.client.post(f"{ann.url}/entry", headers=POST, data={
        "version": ann.version(), "key": "k-override", "move": "override", "rule": "SM-18",
        "entry": html.unescape(entry), "reason": "a fifth stack, we agreed"})
    assert response.status_code == 303 and entry_count(database, match.id) == before + 1
    # corrected again, the field reaches the stack the override let stand
    page = ann.client.get(f"{ann.url}/correct/2").get_data(as_text=True)
    assert 'value="5"' in stack_field(page) and 'max="5"' in stack_field(page)


def test_a_correction_with_a_blank_reason_comes_back_to_its_page_as_typed(table, database):
    match, ann, bob = table
    before = entry_count(database, match.id)
    response = correct(ann, c_card="8", c_stack="2", reason="   ")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 400 and entry_count(database, match.id) == before
    assert 'id="correct-form"' in page and "Say why" in page
    assert 'name="c_card" value="8" checked' in page and 'value="2"' in stack_field(page)


def test_a_refused_correction_sent_by_htmx_still_answers_with_the_screen(table, database):
    """An htmx client swaps the answer into its screen: it gets the table screen with the refusal, as before."""
    match, ann, bob = table
    response = ann.post(move="correct", target_entry="2", c_move="discard", c_for="Ann", c_card="8", c_stack="9",
                        reason="r")
    page = html.unescape(response.get_data(as_text=True))
    assert response.status_code == 422 and "Refused (SM-18)" in page and 'id="correct-form"' not in page


@pytest.mark.parametrize("game, rules", [("ratatat", {"rounds_n": 1}), ("cabo", {}), ("shithead", {}),
                                         ("spite_malice", {})])
def test_a_correction_of_an_entry_never_made_says_there_is_no_such_entry(app, database, game, rules):
    """At a fresh table (nobody's turn yet) a correction of entry 99999 is answered by what is wrong with it,
    there is no such entry (404), not by what its corrected entry would say about whose turn it is."""
    match = store.create_match(database, game, ["Ann", "Bob"], rules)
    ann = Phone(app, match.id, "0")
    before = entry_count(database, match.id)
    for target in ("99999", "0"):
        answer = ann.client.post(f"{ann.url}/entry", headers=POST, data={
            "version": ann.version(), "move": "correct", "target_entry": target, "c_move": "draw",
            "c_for": "Ann", "reason": "typo"})
        said = answer.get_data(as_text=True)
        assert answer.status_code == 404 and "There is no such entry." in said and "nobody" not in said
    assert entry_count(database, match.id) == before


def test_a_refusal_quotes_an_entry_corrected_since_as_it_stands(app, database):
    """Dad's face-up cards were corrected from 4♠ 9♦ A♠ to 4♣ 9♦ A♠; Ana's then naming the 4♣ is refused
    (GEN-3) and points at his entry: said as corrected (it quoted the 4♠, against the reason given)."""
    from referee import tables

    match = store.create_match(database, "shithead", ["Dad", "Ana"], {})
    players = ("Dad", "Ana")
    for version, entry in enumerate([
            {"move": "faceup", "seat": "Dad", "cards": ["4S", "9D", "AS"]},
            {"move": "correct", "target": 0, "reason": "the 4 is a club",
             "entry": {"move": "faceup", "seat": "Dad", "cards": ["4C", "9D", "AS"]}}]):
        store.append(database, match.id, version, entry, None, tables.feed, replay_fn=tables.replay,
                     notify=lambda *a: None)
    ana = Phone(app, match.id, "1")
    response = ana.post_cards(["4C", "5H", "6S"], move="faceup")
    assert response.status_code == 422
    page = html.unescape(response.get_data(as_text=True))
    assert "GEN-3" in page and "4♣" in page
    involved = re.search(r'<ul class="involved">(.*?)</ul>', page, re.S).group(1)
    assert "Dad's face-up cards: 4♣ 9♦ A♠ (as corrected)." in involved and "4♠" not in involved
