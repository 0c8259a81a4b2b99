"""A ruling about a card already elsewhere on the table points at the entry that put it there and says
where in words (SH-K5, GEN-13): the table screen lists that entry under the ruling."""
from __future__ import annotations

import html
import re

from referee import store

from .test_shithead_table import ShPhone


def test_SH_T30_the_refusal_of_a_card_face_up_elsewhere_lists_the_face_up_entry(app, database):
    match = store.create_match(database, "shithead", ["Mom", "Dad"], {})
    mom, dad = ShPhone(app, match.id, "0"), ShPhone(app, match.id, "1")
    assert mom.post_cards(["KD", "5S", "9H"], move="faceup").status_code == 200  # entry 0
    assert dad.post_cards(["4C", "6D", "JS"], move="faceup").status_code == 200  # entry 1
    assert dad.post(move="start").status_code == 200
    response = dad.post_cards(["KD"], move="play")
    assert response.status_code == 422
    page = html.unescape(response.get_data(as_text=True))
    ruling = re.search(r'<div class="ruling reject"[^>]*>(.*?)</ul>', page, re.S)
    assert ruling is not None, page[:500]
    said = re.sub(r"<[^>]+>", "", ruling.group(1))
    assert "SH-K5" in said and "(Mom's face-up cards)" in said
    assert "Entry 0: Mom's face-up cards: K♦ 5♠ 9♥." in said
    assert "The entry just refused: Dad plays K♦." in said  # what it would have entered, said
