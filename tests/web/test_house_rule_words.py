"""The words shown under a ruling follow the table's house rules (SM-12 with SM-V4 off): a ruling and the
rule's explanation under it never contradict each other."""
from __future__ import annotations

import html
import re

from referee import store
from referee.games import spite_malice as sm

from .test_shithead_table import ShPhone as Phone


def _ruling(response) -> str:
    found = re.search(r'<div class="ruling reject"[^>]*>(.*?)</div>', response.get_data(as_text=True), re.S)
    assert found is not None, response.get_data(as_text=True)[:400]
    return html.unescape(found.group(1))


def test_SM_T05_a_king_refused_on_an_empty_space_is_explained_by_the_tables_rule(app, database):
    """At a table where a king may not start a pile, Ann builds a king on an empty space: REJECT SM-12, and
    the explanation under it says so too, not that a king may start a pile as its ace."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"],
                               {"payoff_size": 5, "king_can_start_stack": False})
    ann = Phone(app, match.id, "0")
    assert ann.post(move="top", card="9").status_code == 200
    assert ann.post(move="top", card="4", **{"for": "Bob"}).status_code == 200
    response = ann.post(move="build", source="hand", card="K", pile="1")
    assert response.status_code == 422
    said = _ruling(response)
    assert "SM-12" in said and "a king may not start a pile" in said
    rule = re.search(r'<p class="rule-text">(.*?)</p>', said, re.S).group(1)
    assert "may start a pile as its ace" not in rule and "at this table it may not start a pile" in rule


def test_SM_T05_the_default_table_keeps_the_rule_books_words(app, database):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann = Phone(app, match.id, "0")
    ann.post(move="top", card="9")
    ann.post(move="top", card="4", **{"for": "Bob"})
    response = ann.post(move="build", source="hand", card="5", pile="1")
    assert response.status_code == 422
    assert "may start a pile as its ace" in _ruling(response)
    assert sm.rule_text("SM-12", sm.new_match(("Ann", "Bob")).rules) == sm.rule_text("SM-12")


def test_SH_T06_an_8_on_a_7_where_a_10_may_not_burn_it_is_explained_by_the_tables_SH_33(app, database):
    """At a table that blocks the 10 after a 7 (SH-V15), Ben's 8 on Ana's 7 is refused under SH-33, and
    the rule's words under the ruling do not offer the 10 that the ruling itself leaves out."""
    from .test_shithead_table import FACEUP

    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {"ten_after_seven": "blocked"})
    ana, ben, cy = (Phone(app, match.id, str(seat)) for seat in range(3))
    for phone, name in ((ana, "Ana"), (ben, "Ben"), (cy, "Cy")):
        assert phone.post_cards(FACEUP[name], move="faceup").status_code == 200
    assert ana.post(move="start", card="4C").status_code == 200
    assert ana.post_cards(["4C"], move="play").status_code == 200
    assert ben.post_cards(["7S"], move="play").status_code == 200
    response = cy.post_cards(["8S"], move="play")
    assert response.status_code == 422
    said = _ruling(response)
    assert "SH-33" in said and "or a 2 or 3" in said
    rule = re.search(r'<p class="rule-text">(.*?)</p>', said, re.S).group(1)
    assert "(or a 2 or 3); at this table a 10 may not burn a 7." in rule and "2, 3 or 10" not in rule
    seven = len(store.entries(database, match.id)) - 1  # GEN-10: the refusal points at Ben's 7 (numbered from 0)
    involved = re.search(r'<ul class="involved">(.*?)</ul>', said, re.S).group(1)
    assert f'#e{seven}"' in involved and "7♠" in involved
