"""The set-up of a Shithead table (SH-2, SH-4) through the Flask test client on a file database: the form of
a player's face-up cards offers only cards the table has not seen all copies of (and "unknown", GEN-14); the
starter's picker offers only cards the showing player's hand may hold (never one known in another hand after
a swap, nor one lying face up); face-up cards or a lowest card that conservation rules out are refused by
GEN-3 in words of what is being entered, not SH-K5's "cannot be played", pointing at the entries where the
other copies were seen, and the table may let them stand."""
from __future__ import annotations

import html
import json
import re

import pytest

from referee import store

from .test_play import text
from .test_shithead_table import ShPhone

ANA_UP, BEN_UP = ["9S", "KD", "AH"], ["JC", "5H", "QD"]


@pytest.fixture
def table(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben"], {})
    return match, ShPhone(app, match.id, "0"), ShPhone(app, match.id, "1")


def faceup_form(screen: str, name: str) -> str:
    found = re.search(rf'data-faceup-for="{name}".*?</form>', screen, re.S)
    assert found is not None, screen[:500]
    return found.group(0)


def offered(page: str, field: str) -> list[str]:
    return re.findall(rf'name="{field}" value="([^"]+)"', page)


def refusal(response) -> str:
    page = html.unescape(text(response))
    ruling = re.search(r'<div class="ruling reject"[^>]*>(.*?)<p class="muted">', page, re.S)
    assert ruling is not None, page[:500]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", ruling.group(1)))


def test_SH_2_the_face_up_form_offers_only_cards_not_seen_elsewhere_and_unknown(table, database):
    match, ana, ben = table
    cards = offered(faceup_form(ben.screen(), "Ben"), "cards")
    assert len(cards) == 52 + 3 and cards.count("unknown") == 3  # one "?" per face-up card (GEN-14)
    assert ana.post_cards(ANA_UP, move="faceup").status_code == 200  # entry 0
    for phone in (ana, ben):  # Ben's own form, and the one Ana's phone may open for him
        cards = offered(faceup_form(phone.screen(), "Ben"), "cards")
        assert not set(cards) & set(ANA_UP), "a card face up before Ana cannot be one of Ben's"
        assert len(cards) == 52 - 3 + 3 and cards.count("unknown") == 3 and "2C" in cards
    chip = re.search(r'name="cards" value="unknown"[^>]*><span>(.*?)</span></label>', faceup_form(ben.screen(), "Ben"),
                     re.S).group(1)
    assert "unknown card" in chip
    # the unknown chip with two cards: one face-up card nobody could see
    response = ben.post_cards(["unknown", "5H", "QD"], move="faceup")
    assert response.status_code == 200, text(response)[:400]
    assert store.entries(database, match.id)[-1]["entry"]["cards"] == ["unknown", "5H", "QD"]


def test_SH_T30_a_face_up_card_seen_elsewhere_is_refused_by_GEN_3_in_words_of_the_face_up_cards(table, database):
    match, ana, ben = table
    assert ana.post_cards(ANA_UP, move="faceup").status_code == 200  # entry 0
    response = ben.post_cards(["KD", "5H", "QD"], move="faceup")  # a stale form, or a misread photo
    assert response.status_code == 422
    said = refusal(response)
    assert "Refused (GEN-3)" in said and "SH-K5" not in said
    assert ("Every K♦ is already somewhere else on the table (Ana's face-up cards), so none of Ben's face-up cards can "
            "be one: this must be a mis-tap or a misread photo.") in said
    assert "played" not in said and "play " not in said
    assert "Entry 0: Ana's face-up cards: 9♠ K♦ A♥." in said
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["faceup"]
    entry = {"move": "faceup", "seat": "Ben", "cards": ["KD", "5H", "QD"]}
    response = ben.post(move="override", rule="GEN-3", reason="a K♦ from another deck", entry=json.dumps(entry))
    assert response.status_code == 200, text(response)[:400]
    stored = store.entries(database, match.id)[-1]["entry"]
    assert stored["move"] == "override" and stored["rule"] == "GEN-3" and stored["entry"] == entry


def test_SH_4_the_starter_picker_offers_no_card_known_in_another_hand_and_refuses_one_by_GEN_3(table, database):
    match, ana, ben = table
    assert ana.post_cards(ANA_UP, move="faceup").status_code == 200  # entry 0
    assert ben.post_cards(BEN_UP, move="faceup").status_code == 200  # entry 1
    assert ana.post(move="swap", card="2C", out="AH").status_code == 200  # entry 2: the A♥ into Ana's hand
    picker = ben.pick(move="start", seat="Ben")
    cards = offered(picker, "card")
    assert "AH" not in cards, "the A♥ is known in Ana's hand"
    assert not set(cards) & {"9S", "KD", "2C", *BEN_UP}, "no card lying face up"
    assert "4C" in cards and "AS" in cards
    assert "AH" in offered(ana.pick(move="start", seat="Ana"), "card")  # Ana holds it
    response = ben.post(move="start", card="AH")  # a stale picker
    assert response.status_code == 422
    said = refusal(response)
    assert "Refused (GEN-3)" in said and "SH-K5" not in said
    assert ("Every A♥ is already somewhere else on the table (Ana's hand), so the lowest card Ben shows to start "
            "cannot be one: this must be a mis-tap or a misread photo.") in said
    assert "Entry 2: Ana puts 2♣ face up and takes A♥ into the hand." in said
    assert len(store.entries(database, match.id)) == 3
    assert ben.post(move="start", card="4C").status_code == 200
