"""How a phone says a ruling: a plain word and the rule it names — "Refused (GEN-7): …", "Flagged (GEN-4): …" —
never the code words of the log ("REJECT", "FLAG", nor their translations "RIFIUTATA", "SEGNALAZIONE"), in any
language. The stored rulings and `referee check`'s report keep their codes (tests/test_i18n_report.py)."""
from __future__ import annotations

import html
import re

import pytest

from referee import i18n, store

from .test_play import Phone, ana_revealed_against_the_known_2

CODE_WORDS = ("REJECT", "FLAG ", "RIFIUTATA", "SEGNALAZIONE")


def said(page: str, css: str) -> str:
    """The words of a ruling's first paragraph (``css``: its box's class), tags stripped."""
    found = re.search(rf'<div class="{css}"[^>]*>\s*<p[^>]*>(.*?)</p>', page, re.S)
    assert found is not None, page[:600]
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1)))


def test_a_refusal_says_refused_and_its_rule(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    assert ana.post(move="turn_up", card="5").status_code == 200
    response = ben.post(move="draw")
    assert response.status_code == 422
    words = said(response.get_data(as_text=True), "ruling reject")
    assert words.startswith("Refused (GEN-7): ") and "Ana's turn" in words
    assert not any(code in words for code in CODE_WORDS)
    link = re.search(r'<a href="([^"]*)" class="rule-id">([^<]*)</a>', response.get_data(as_text=True))
    assert link.group(1).endswith("/rules#GEN-7") and link.group(2) == "Refused (GEN-7)"


def test_a_dispute_says_flagged_and_its_rule_open_and_decided(app, database):
    match, ana, ben = ana_revealed_against_the_known_2(app, database)
    page = ben.post(move="reveal", **{"for": "Ben", "card1": "4", "card2": "4", "card3": "5", "card4": "2"}
                    ).get_data(as_text=True)
    words = said(page, "ruling flag")
    assert words.startswith("Flagged (GEN-4): ") and "known to be 2" in words
    assert not any(code in words for code in CODE_WORDS)
    page = ben.post(move="resolve_flag", flag="0", decision="accept", reason="she moved her cards").get_data(as_text=True)
    decided = page.split('id="decided"', 1)[1]
    assert said(decided, "ruling flag").startswith("Flagged (GEN-4): ")


@pytest.mark.parametrize("language", ["he", "it"])
def test_no_code_word_in_hebrew_or_italian(app, database, language):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    phone = Phone(app, match.id, "0")
    phone.client.set_cookie(i18n.COOKIE, language)
    assert phone.post(move="turn_up", card="5").status_code == 200
    response = phone.post(move="call")
    assert response.status_code == 422
    words = said(response.get_data(as_text=True), "ruling reject")
    assert re.search(r"\(RTC-\d+\)", words), words  # the rule, in brackets after the word
    assert not any(code in words for code in CODE_WORDS), words
