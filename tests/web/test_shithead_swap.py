"""The swap before play at a Shithead table (SH-3), through the Flask test client on a file database: the
picker offers, as the face-up card to give up, only the player's own face-up cards, and as the hand card put
face up, only a card that hand may still hold (never a card lying face up, theirs or another player's);
a swap naming a card whose every copy the table has seen elsewhere is refused by conservation (GEN-3) in
words of the swap, not of a play, and the table may let it stand."""
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
    ana, ben = ShPhone(app, match.id, "0"), ShPhone(app, match.id, "1")
    assert ana.post_cards(ANA_UP, move="faceup").status_code == 200  # entry 0
    assert ben.post_cards(BEN_UP, move="faceup").status_code == 200  # entry 1
    return match, ana, ben


def offered(picker: str, field: str) -> list[str]:
    return re.findall(rf'name="{field}" value="([^"]+)"', picker)


def test_SH_3_the_swap_picker_offers_the_own_face_up_cards_then_only_cards_the_hand_may_hold(table):
    match, ana, ben = table
    picker = ana.pick(move="swap", seat="Ana")
    assert "The face-up card that goes into the hand" in picker and "The hand card put face up instead" in picker
    assert offered(picker, "out") == ANA_UP
    cards = offered(picker, "card")
    assert not set(cards) & set(ANA_UP + BEN_UP), "a card lying face up cannot be a hand card"
    assert len(cards) == 52 - 6 and "2C" in cards
    # Ana takes the A♥ into her hand and puts the 2♣ face up: now the A♥ may go face up again, the 2♣ not
    assert ana.post(move="swap", card="2C", out="AH").status_code == 200
    picker = ana.pick(move="swap", seat="Ana")
    assert offered(picker, "out") == ["9S", "KD", "2C"]
    cards = offered(picker, "card")
    assert "AH" in cards and "2C" not in cards and "JC" not in cards
    # Ben's picker: the A♥ is known in Ana's hand, so it is not in his
    assert "AH" not in offered(ben.pick(move="swap", seat="Ben"), "card")


def test_SH_T30_a_swap_of_a_card_face_up_elsewhere_is_refused_by_GEN_3_in_words_of_the_swap(table, database):
    """A swap the picker would not offer (a stale form, Ben's J♣ named as Ana's hand card) is still checked:
    GEN-3, saying what the swap cannot be, with the rule of conservation (not SH-K5's "cannot be played")
    and the entry that put the J♣ face up."""
    match, ana, ben = table
    response = ana.post(move="swap", card="JC", out="AH")
    assert response.status_code == 422
    page = html.unescape(text(response))
    ruling = re.search(r'<div class="ruling reject"[^>]*>(.*?)<p class="muted">', page, re.S)
    assert ruling is not None, page[:500]
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", ruling.group(1)))
    assert "Refused (GEN-3)" in said and "SH-K5" not in said
    assert ("Every J♣ is already somewhere else on the table (Ben's face-up cards), so Ana has none in the hand to "
            "swap face up: this must be a mis-tap or a misread photo.") in said
    assert "played" not in said and "play " not in said
    assert "Entry 1: Ben's face-up cards: J♣ 5♥ Q♦." in said
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["faceup", "faceup"]
    # the table says it happened (a second deck's J♣): the override is recorded under GEN-3
    entry = {"move": "swap", "seat": "Ana", "card": "JC", "out": "AH"}
    response = ana.post(move="override", rule="GEN-3", reason="a J♣ from another deck", entry=json.dumps(entry))
    assert response.status_code == 200, text(response)[:400]
    stored = store.entries(database, match.id)[-1]["entry"]
    assert stored["move"] == "override" and stored["rule"] == "GEN-3" and stored["entry"] == entry


def test_GEN_14_a_face_up_card_nobody_entered_is_offered_as_an_unknown_card(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben"], {})
    ana = ShPhone(app, match.id, "0")
    response = ana.post(move="faceup", card1="unknown", card2="KD", card3="AH")
    assert response.status_code == 200, text(response)[:400]
    picker = ana.pick(move="swap", seat="Ana")
    assert offered(picker, "out") == ["unknown", "KD", "AH"]
    chip = re.search(r'name="out" value="unknown"[^>]*><span>(.*?)</span></label>', picker, re.S).group(1)
    assert "unknown card" in chip and chip != "unknown"
