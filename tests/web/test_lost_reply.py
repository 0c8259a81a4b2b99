"""A phone whose reply was lost (flaky Wi-Fi) taps again from the same screen: it is told truthfully that its
own earlier entry was saved, not that someone else entered first — through the Flask test client on a file
database, posting exactly as a phone does (the version its screen showed, a one-time key per form)."""
from __future__ import annotations

import html
import re

import pytest

from referee import store

from .test_play import Phone, entry_count, text


def notice(response) -> str:
    """The notice the answer's screen shows, as the player reads it."""
    found = re.search(r'<[^>]*class="notice[^"]*"[^>]*>(.*?)</', text(response), re.S)
    assert found, text(response)[:2000]
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


@pytest.fixture
def dealt(app, database):
    """Ana, Ben and Cy's phones, and the table's own phone; the first discard turned up: Ana's turn."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    shared = Phone(app, match.id, "shared")
    assert shared.post(move="turn_up", card="5", **{"for": "Ana"}).status_code == 200
    return match, ana, ben, shared


def test_a_tap_after_a_lost_reply_is_told_its_own_earlier_entry_was_saved(dealt, database):
    match, ana, _, _ = dealt
    seen = ana.version()  # Ana's screen; her Draw goes out, its reply is lost
    assert ana.post(version=seen, key="ana-draw", move="draw").status_code == 200
    before = entry_count(database, match.id)
    # ... so her screen still offers "Take the 5", and she taps it
    again = ana.post(version=seen, key="ana-take", move="take_discard")
    assert again.status_code == 409
    said = notice(again)
    assert said == ("Your earlier entry was saved: Ana draws a card. This tap was not saved: here is the table as "
                    "it is now.")
    assert "Someone else" not in said
    assert entry_count(database, match.id) == before
    assert f'data-version="{seen + 1}"' in text(again)


def test_the_same_key_sent_again_is_still_a_quiet_duplicate(dealt, database):
    match, ana, _, _ = dealt
    seen = ana.version()
    assert ana.post(version=seen, key="ana-draw", move="draw").status_code == 200
    before = entry_count(database, match.id)
    again = ana.post(version=seen, key="ana-draw", move="draw")  # the very same form, sent again
    assert again.status_code == 200
    assert "Your earlier entry" not in text(again) and "Someone else" not in text(again)
    assert entry_count(database, match.id) == before


def test_another_phones_entry_alone_is_still_someone_elses(dealt, database):
    match, ana, ben, _ = dealt
    seen = ben.version()
    assert ana.post(key="ana-draw", move="draw").status_code == 200
    stale = ben.post(version=seen, key="ben-call", move="call")
    assert stale.status_code == 409
    assert notice(stale) == ("Someone else entered something first: Ana draws a card. Nothing of yours was saved: "
                             "here is the table as it is now.")


def test_its_own_entry_and_anothers_are_both_named(dealt, database):
    match, ana, _, shared = dealt
    seen = ana.version()
    assert ana.post(version=seen, key="ana-draw", move="draw").status_code == 200  # the reply is lost
    # the table's own phone enters the rest of Ana's turn for her: another phone's entry, if for her seat
    assert shared.post(move="replace", slot="2", out="8", **{"for": "Ana"}).status_code == 200
    before = entry_count(database, match.id)
    again = ana.post(version=seen, key="ana-take", move="take_discard")
    assert again.status_code == 409
    assert notice(again) == ("Your earlier entry was saved: Ana draws a card. Someone else entered something too: "
                             "Ana puts the card into slot 2 and discards an 8. This tap was not saved: here is the "
                             "table as it is now.")
    assert entry_count(database, match.id) == before


def test_a_tap_that_made_two_entries_says_both_were_saved(dealt, database):
    match, ana, _, _ = dealt
    seen = ana.version()
    assert ana.post(version=seen, key="ana-draw", move="draw").status_code == 200
    assert ana.post(key="ana-power", move="power", card="PEEK").status_code == 200  # both replies lost
    again = ana.post(version=seen, key="ana-take", move="take_discard")
    assert again.status_code == 409
    assert notice(again) == ("Your earlier entries were saved: Ana draws a card; Ana shows a Peek and uses it. "
                             "This tap was not saved: here is the table as it is now.")


def test_the_shared_phone_is_told_its_own_entry_was_saved(dealt, database):
    match, _, _, shared = dealt
    seen = shared.version()
    assert shared.post(version=seen, key="t-draw", move="draw", **{"for": "Ana"}).status_code == 200
    again = shared.post(version=seen, key="t-take", move="take_discard", **{"for": "Ana"})
    assert again.status_code == 409
    assert notice(again).startswith("Your earlier entry was saved: Ana draws a card. This tap was not saved")


def test_what_another_seat_saw_is_never_said(dealt, database):
    """Ana peeks at her own card and notes what it is (GEN-6: only her phone may know); Ben's stale tap is told
    that she peeked, never what she saw; Ana's own lost reply may say her entry, still without the card."""
    match, ana, ben, _ = dealt
    ana.post(move="draw")
    ana.post(move="power", card="PEEK")
    seen_ana, seen_ben = ana.version(), ben.version()
    assert ana.post(version=seen_ana, key="ana-peek", move="peek", slot="3", seen="SWAP").status_code == 200
    stale = ben.post(version=seen_ben, key="ben-call", move="call")
    assert stale.status_code == 409
    assert notice(stale).startswith("Someone else entered something first: Ana peeks at own slot 3.")
    assert "Swap" not in notice(stale) and "SWAP" not in notice(stale)
    own = ana.post(version=seen_ana, key="ana-peek-2", move="peek", slot="3", seen="SWAP")
    assert own.status_code == 409 and notice(own).startswith("Your earlier entry was saved: Ana peeks at own slot 3.")
