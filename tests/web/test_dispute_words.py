"""A dispute decided, said in words on the undo button and in the history: which dispute (its rule and what it
was about), never the engine's internal number of the flag."""
from __future__ import annotations

import html
import re

import pytest

from .test_play import ana_revealed_against_the_known_2, text

DISPUTE = "The card in Ana's slot 3 was known to be 2 (entry 0) but shows 7 now (entry 6)."


def _disputed(app, database, language: str | None = None):
    """Ana calls; Ben reveals Ana's slot 3 as a 7 though the 2 taken from the discard went there: GEN-4."""
    match, ana, ben = ana_revealed_against_the_known_2(app, database, language)
    assert ben.post(move="reveal", **{"for": "Ben", "card1": "4", "card2": "4", "card3": "5", "card4": "2"}).status_code == 200
    return match, ana, ben


def _undo_button(page: str) -> str:
    found = re.search(r'<div class="undo">.*?<button[^>]*>([^<]*)</button>', page, re.S)
    assert found, "no undo button"
    return html.unescape(found.group(1))


@pytest.mark.parametrize("decision, verb", [("override", "dismisses"), ("accept", "accepts")])
def test_the_undo_button_says_which_dispute_was_decided(app, database, decision, verb):
    match, _, ben = _disputed(app, database)
    page = text(ben.post(move="resolve_flag", flag="0", decision=decision))
    button = _undo_button(page)
    assert "flag 0" not in button and "(flag" not in button
    assert button == f"Undo: Ben {verb} the dispute (GEN-4): {DISPUTE}"


def test_the_history_says_which_dispute_was_decided(app, database):
    match, _, ben = _disputed(app, database)
    assert ben.post(move="resolve_flag", flag="0", decision="override").status_code == 200
    history = html.unescape(text(ben.client.get(f"/m/{match.id}/history")))
    assert "(flag 0)" not in history
    assert f"Ben dismisses the dispute (GEN-4): {DISPUTE}" in history


@pytest.mark.parametrize("language", ["he", "it"])
def test_no_flag_number_in_hebrew_or_italian(app, database, language):
    match, _, ben = _disputed(app, database, language)
    page = text(ben.post(move="resolve_flag", flag="0", decision="override"))
    button = _undo_button(page)
    assert "GEN-4" in button and not re.search(r"\bflag\b", button)
    history = html.unescape(text(ben.client.get(f"/m/{match.id}/history")))
    assert "(flag 0)" not in history and "GEN-4" in history


def test_a_phone_told_that_a_decision_came_first_is_told_which_dispute(app, database):
    match, ana, ben = _disputed(app, database)
    stale = ana.version()
    assert ben.post(move="resolve_flag", flag="0", decision="accept").status_code == 200
    answer = ana.post(version=stale, move="resolve_flag", flag="0", decision="override")
    assert answer.status_code == 409
    notice = html.unescape(re.search(r'<div class="notice" role="status">([^<]*)', text(answer)).group(1))
    assert notice.startswith(f"Someone else entered something first: Ben accepts the dispute (GEN-4): {DISPUTE}")
    assert "(flag" not in notice
