"""A Spite & Malice table through the Flask test client on a file database: pay-off tops entered from
any phone, who starts, builds by source then pile, the discard that ends the turn, the draw owed, the
pickers, the correction page and hostile fields."""
from __future__ import annotations

import html
import json
import re

import pytest

from referee import store

from .test_play import entry_count
from .test_play import text as raw_text
from .test_shithead_table import ShPhone as Phone


def text(response) -> str:
    """The page with its entities read (names with apostrophes are escaped where they are values)."""
    return html.unescape(raw_text(response))


@pytest.fixture
def table(app, database):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    return match, Phone(app, match.id, "0"), Phone(app, match.id, "1")


def tops(ann, bob, a="9", b="4"):
    screen = html.unescape(ann.screen())
    assert "Enter your pay-off top" in screen and "Enter Bob's pay-off top" in screen
    assert "9" in ann.pick(move="top", seat="Ann")
    assert ann.post(move="top", card=a).status_code == 200
    response = ann.post(move="top", card=b, **{"for": "Bob"})  # any phone may enter a pay-off top
    assert response.status_code == 200, text(response)[:400]
    return response


def test_the_higher_pay_off_top_starts_and_builds_go_by_source_then_pile(table, database):
    match, ann, bob = table
    screen = text(tops(ann, bob, "A", "4"))  # an ace is low: Bob's 4 is higher (SM-7)
    assert "Bob's turn" in screen
    # a hand's label and its count kept on one line (at 320 px in Hebrew, "hand" ended one line, "5" began the next)
    page = raw_text(ann.client.get(f"/m/{match.id}"))
    assert '<span class="nowrap">hand&nbsp;<strong>5</strong></span>' in page
    screen = bob.screen()
    assert "Your turn, Bob" in screen and 'aria-label="Hand A"' in screen
    picker = bob.pick(move="build", seat="Bob", source="hand", card="A")
    assert "Start a new pile" in picker
    response = bob.post(move="build", source="hand", card="A", pile="1")
    assert response.status_code == 200, text(response)[:400]
    screen = text(response)
    assert re.search(r'data-pile="1">Pile 1: <span class="face small">A</span>', screen)
    assert "needs 2" in screen
    # read aloud, the card and the count are apart ("A · 1 card, needs 2"), as is a pay-off's top from its count
    assert re.search(r'Pile 1: <span class="face small">A</span> · <span class="muted">1 card, needs 2', screen)
    assert re.search(r'</span> · <span class="muted">\d+ left</span>', screen)
    # A pay-off top that does not fit is refused with its rule, nothing saved
    response = bob.post(move="build", source="payoff", card="4", pile="1")
    assert response.status_code == 422 and "Refused (SM-12)" in text(response)
    # The discard ends the turn: a hand card onto a side stack, from the picker
    picker = bob.pick(move="discard", seat="Bob")
    assert 'name="stack" value="1"' in picker and "Side 4 (new)" in picker
    response = bob.post(move="discard", card="7", stack="2")
    assert response.status_code == 200
    screen = text(response)
    assert "Ann's turn" in screen and re.search(r'data-side="2">.*?7</span>', screen)
    # Ann owes nothing at the start (a full hand); Bob later owes a draw: one tap
    assert entry_count(database, match.id) == 4


def test_the_draw_owed_is_one_tap_and_a_wrong_count_is_refused(table, database):
    match, ann, bob = table
    tops(ann, bob, "9", "4")
    ann.post(move="discard", card="7", stack="1")  # Ann starts and ends her turn at once
    bob.post(move="discard", card="8", stack="1")
    screen = ann.screen()
    assert "I drew 1 card from the stock" in screen and "SM-10" in screen
    response = ann.post(move="draw", count="3")
    assert response.status_code == 422 and "SM-K3" in text(response)
    assert ann.post(move="draw").status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "draw", "seat": "Ann"}
    # the history says how many, as the button did (it said "draws the cards owed" for 1 as for 5)
    history = text(ann.client.get(f"{ann.url}/history"))
    assert "Ann draws 1 from the stock." in history and "the cards owed" not in history
    ann.client.post("/lang", data={"lang": "it", "next": "/"}, headers={"Origin": "http://localhost"})
    assert "Ann pesca 1 dal mazzo." in text(ann.client.get(f"{ann.url}/history"))  # and in the phone's language


def test_pickers_correction_and_hostile_fields(table, database):
    match, ann, bob = table
    tops(ann, bob, "9", "4")
    ann.post(move="discard", card="7", stack="1")
    page = ann.client.get(f"{ann.url}/correct/2").get_data(as_text=True)
    assert 'name="c_card" value="7" checked' in page and 'name="c_stack" value="1"' in page
    response = ann.post(move="correct", target_entry="2", reason="it was an 8", c_move="discard", c_for="Ann",
                        c_card="8", c_stack="1")
    assert response.status_code == 200, text(response)[:400]
    assert "no longer open" in ann.pick(move="discard", seat="Ann")  # Bob's turn now
    for fields in ({"move": "build", "pile": "9" * 50}, {"move": "build", "source": "deck", "pile": "1"},
                   {"move": "discard", "stack": "-1"}, {"move": "top", "card": "<b>"},
                   {"move": "draw", "count": "²"}, {"move": "start", "for": "Nobody"}):
        response = bob.post(**fields)
        assert 400 <= response.status_code < 500, (fields, response.status_code)
        assert "<b>" not in raw_text(response)
    assert entry_count(database, match.id) == 4


def test_one_phone_for_everyone_enters_both_tops_and_plays_for_whoever_is_to_act(app, database):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    shared = Phone(app, match.id, "shared")
    screen = html.unescape(shared.screen())
    assert "Enter Ann's pay-off top" in screen and "Enter Bob's pay-off top" in screen
    assert shared.post(move="top", card="3", **{"for": "Ann"}).status_code == 200
    response = shared.post(move="top", card="8", **{"for": "Bob"})
    screen = text(response)
    assert "Your turn, Bob" in screen and 'aria-label="Hand A"' in screen
    assert shared.post(move="build", source="hand", card="A", pile="1").status_code == 200  # for Bob
    assert shared.post(move="discard", card="9", stack="1").status_code == 200
    log = store.entries(database, match.id)
    assert [e["entry"]["seat"] for e in log] == ["Ann", "Bob", "Bob", "Bob"]
    assert "Your turn, Ann" in html.unescape(shared.screen())


def test_a_build_that_fits_no_pile_is_entered_refused_and_let_stand(table, database):
    """GEN-5 at the table: the family put a 7 on the pile that needs a 2. The screen offers the entry (every
    card, every pile), the referee refuses it with its rule, and the override lets it stand, recorded."""
    match, ann, bob = table
    tops(ann, bob, "A", "4")
    assert bob.post(move="build", source="hand", card="A", pile="1").status_code == 200
    screen = html.unescape(bob.screen())
    assert "A card went on a pile where it does not fit…" in screen
    picker = html.unescape(bob.pick(move="build_any", seat="Bob"))
    assert 'name="card" value="7"' in picker and "Pile 1 (on A)" in picker and "Start a new pile" in picker
    refused = bob.post(move="build", source="hand", card="7", pile="1")
    assert refused.status_code == 422 and "Refused (SM-12)" in text(refused)
    entry = re.search(r'name="entry" value="([^"]*)"', refused.get_data(as_text=True)).group(1)
    before = entry_count(database, match.id)
    assert bob.post(move="override", rule="SM-12", entry=html.unescape(entry),
                    reason="the 7 stays, we agreed").status_code == 200
    assert entry_count(database, match.id) == before + 1
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["card"] == "7"
    assert "the 7 stays" in text(bob.client.get(f"{bob.url}/history"))
    assert "A card went on a pile" not in html.unescape(ann.screen())  # only the player in turn is offered it
    pile = html.unescape(ann.screen()).split('data-pile="1"')[1].split("</li>")[0]
    assert "counts as 2" in pile and "needs 3" in pile  # the 7 let stand is the pile's 2 (SM-12)
    # the history says so too (it said only that the 7 was built), as it says a king's rank
    assert "builds 7 from the hand on pile 1. It counts as 2." in text(bob.client.get(f"{bob.url}/history"))
    assert bob.post(move="build", source="hand", card="K", pile="1").status_code == 200
    assert "builds K from the hand on pile 1. It counts as 3." in text(bob.client.get(f"{bob.url}/history"))


def test_SM_19_a_pay_off_card_put_on_a_side_stack_is_entered_and_refused(table, database):
    """The Italian guide's wording invites it (SM-A2): Bob ends his turn with his pay-off top on a side stack.
    The discard picker had only the hand, so the table could not ask; now it says where the card came from,
    and the referee refuses it under SM-19, outright (the card goes back: no side stack can hold it)."""
    match, ann, bob = table
    tops(ann, bob, "A", "4")
    picker = html.unescape(bob.pick(move="discard", seat="Bob"))
    assert "Not from the hand?" in picker
    assert 'name="source" value="hand" required checked' in picker and 'name="source" value="payoff"' in picker
    before = entry_count(database, match.id)
    refused = bob.post(move="discard", source="payoff", card="4", stack="1")
    said = text(refused)
    assert refused.status_code == 422 and "Refused (SM-19)" in said
    assert "A pay-off card goes only onto a building pile, never onto a side stack." in said
    assert 'name="move" value="override"' not in said and entry_count(database, match.id) == before
    assert bob.post(move="discard", source="hand", card="9", stack="1").status_code == 200  # the hand, as ever
    assert store.entries(database, match.id)[-1]["entry"]["source"] == "hand"


def test_SM_A9_a_discard_while_the_pay_off_card_must_be_built_is_entered_refused_and_let_stand(app, database):
    """At a table where the pay-off card that fits must be built first (SM-A9), Ann's pay-off A fits an empty
    pile: the screen still offers the discard that ends her turn (it was hidden, and its picker closed), the
    referee refuses it with the house rule, and the table lets it stand, recorded (GEN-5)."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5, "payoff_compulsory": True})
    ann, bob = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    tops(ann, bob, "A", "4")  # Ann's A is the lower top: Bob starts; he discards, and Ann's turn comes
    assert bob.post(move="discard", source="hand", card="9", stack="1").status_code == 200
    screen = html.unescape(ann.screen())
    assert "Build the pay-off top:" in screen and "End the turn: a hand card onto a side stack" in screen
    picker = html.unescape(ann.pick(move="discard", seat="Ann"))
    assert "no longer open" not in picker and 'name="stack"' in picker
    refused = ann.post(move="discard", source="hand", card="7", stack="1")
    assert refused.status_code == 422 and "Refused (SM-A9)" in text(refused)
    entry = re.search(r'name="entry" value="([^"]*)"', refused.get_data(as_text=True)).group(1)
    assert ann.post(move="override", rule="SM-A9", entry=html.unescape(entry),
                    reason="she did discard").status_code == 200
    assert store.entries(database, match.id)[-1]["entry"]["move"] == "override"
    assert "Bob" in html.unescape(ann.screen()).split('id="status"')[1].split("</")[0]  # her turn ended


def test_SM_T07_a_fourth_pile_can_be_entered_to_be_refused_and_let_stand(app, database):
    """Three building piles stand (the most by default): the "does not fit" picker still offers "Start a new
    pile" (it offered only the three), the referee refuses the fourth (SM-13), and the table may let it stand."""
    match = store.create_match(database, "spite_malice", ["Ann", "Bob", "Cy"], {"payoff_size": 5})
    ann, bob, cy = (Phone(app, match.id, str(i)) for i in range(3))
    for phone, who, card in ((ann, "Ann", "9"), (ann, "Bob", "4"), (ann, "Cy", "3")):
        assert phone.post(move="top", card=card, **{"for": who}).status_code == 200
    for pile in ("1", "2", "3"):  # Ann starts: three aces from her hand
        assert ann.post(move="build", source="hand", card="A", pile=pile).status_code == 200
    picker = html.unescape(ann.pick(move="build_any", seat="Ann"))
    assert "Pile 3 (on A)" in picker and 'name="pile" value="4">Start a new pile' in picker
    refused = ann.post(move="build", source="hand", card="A", pile="4")
    assert refused.status_code == 422 and "Refused (SM-13)" in text(refused)
    assert 'name="move" value="override"' in refused.get_data(as_text=True)


def test_SM_14_a_completed_pile_shows_as_empty_and_is_started_again(table, database):
    """Bob starts two piles and builds pile 1 up to Q (drawing five whenever his hand empties, SM-10): it is
    completed and leaves the table (SM-14), pile 2 stays; the screen says pile 1 is empty (never "needs None"),
    and an ace starts a new pile in its place."""
    match, ann, bob = table
    tops(ann, bob, "A", "4")
    builds = [("A", "1"), ("A", "2")] + [(c, "1") for c in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]]
    for i, (card, pile) in enumerate(builds):
        if i and i % 5 == 0:
            assert bob.post(move="draw").status_code == 200
        response = bob.post(move="build", source="hand", card=card, pile=pile)
        assert response.status_code == 200, text(response)[:300]
    building = text(response).split('id="building"', 1)[1].split("</ul>", 1)[0]
    assert "None" not in building and "?" not in building, building
    history = text(bob.client.get(f"{bob.url}/history"))  # the completion is kept (it was said for a moment only)
    assert "Bob builds Q from the hand on pile 1. Pile 1 is complete." in history
    assert "builds J from the hand on pile 1." in history and "builds J from the hand on pile 1. It" not in history
    picker = bob.pick(move="build", seat="Bob", source="hand", card="A")
    assert "(on ?)" not in picker and "Start a new pile" in picker


def test_SM_18_a_side_stack_beyond_the_most_is_refused_and_cannot_be_let_stand(table, database):
    """A discard onto side stack 9 (the table has 4) is refused with SM-18 and no "Let it stand"; an
    override posted anyway (stack 99) is refused too: nothing saved, no phone lists Side 5 to Side 99."""
    match, ann, bob = table
    tops(ann, bob)  # Ann's 9 is higher: she starts
    before = entry_count(database, match.id)
    refused = ann.post(move="discard", card="5", stack="9")
    said = text(refused)
    assert refused.status_code == 422 and "Refused (SM-18)" in said and "at most 4 side stacks" in said
    assert "Let it stand" not in said and 'name="move" value="override"' not in said
    entry = json.dumps({"move": "discard", "seat": "Ann", "card": "5", "stack": 99})
    forced = ann.post(move="override", rule="SM-18", entry=entry, reason="a pasted link")
    assert forced.status_code == 422 and "Refused (SM-18)" in text(forced)
    assert entry_count(database, match.id) == before
    for phone in (ann, bob):
        assert "Side 5" not in html.unescape(phone.screen()) and "Side 99" not in html.unescape(phone.screen())


@pytest.mark.parametrize("lang, empty", [("it", "Ausiliario 1 vuoto"), ("he", "צד 1 ריק"), ("en", "Side 1 empty")])
def test_an_empty_side_stack_is_said_in_its_own_gender(table, lang, empty):
    """An empty side stack (a "mazzo", a "צד": masculine) is not said as an empty pile ("vuota", "ריקה")."""
    from referee import i18n

    match, ann, bob = table
    tops(ann, bob)
    ann.client.set_cookie(i18n.COOKIE, lang)
    sides = re.search(r'<div class="sides">(.*?)</div>\s*</', ann.screen(), re.S).group(1)
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", sides)).split())
    assert empty in words


def test_a_photo_of_a_hand_card_builds_it_or_discards_it_with_one_tap(table, database):
    """Builds and discards by photo: the card read from the photo is placed with one tap, onto a pile where
    it fits or a side stack; a card that fits no pile says so. Nothing is entered before the tap."""
    from .cardphotos import standard_row_photo
    from .test_cabo_table import confirm_fields, scan
    from .test_play import HX

    match, ann, bob = table
    tops(ann, bob, "A", "4")  # Bob starts
    screen = bob.screen()
    hand = screen.split("Build from the hand:")[1].split("</div>\n    </div>")[0]
    assert "Scan with the camera" in hand and 'name="move" value="build"' in hand
    before = entry_count(database, match.id)
    html_ = scan(bob, standard_row_photo(["AS"]), move="build", **{"for": "Bob"})
    assert 'id="scan-build"' in html_ and re.search(r'read-label">A♠<', html_) and "Start a new pile" in html_
    assert entry_count(database, match.id) == before
    fields = confirm_fields(html_)
    assert (fields["move"], fields["source"], fields["card"], fields["pile"]) == ("build", "hand", "AS", "1")
    assert bob.client.post(f"{bob.url}/entry", data=fields, headers=HX).status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "build", "seat": "Bob", "pile": 1,
                                                              "source": "hand", "card": "AS"}
    late = scan(bob, standard_row_photo(["9D"], seed=5), move="build", **{"for": "Bob"})
    assert "The 9♦ fits no pile now" in html.unescape(late) and "confirm-scan" not in late
    picker = bob.pick(move="discard", seat="Bob")
    assert "Scan with the camera" in picker and 'name="move" value="discard"' in picker
    html_ = scan(bob, standard_row_photo(["9D"], seed=5), move="discard", **{"for": "Bob"})
    assert "Side 1 (new)" in html_ and "Side 4 (new)" in html_
    fields = confirm_fields(html_)
    assert (fields["move"], fields["card"], fields["stack"]) == ("discard", "9D", "1")
    assert bob.client.post(f"{bob.url}/entry", data=fields, headers=HX).status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "discard", "seat": "Bob", "stack": 1,
                                                              "card": "9D"}


def test_SM_V12_a_scanned_discard_is_offered_only_the_side_stacks_it_may_go_on(app, database):
    """Side stacks of the same rank or one lower (SM-V12): a 9 read from a photo is not offered Ann's stack
    topped by a 5, only the empty ones; a 4 read is offered the 5's stack too."""
    from .cardphotos import standard_row_photo
    from .test_cabo_table import scan

    match = store.create_match(database, "spite_malice", ["Ann", "Bob"],
                               {"payoff_size": 5, "side_stack_order": "same_or_one_lower"})
    ann, bob = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    tops(ann, bob, "9", "4")  # Ann starts
    assert ann.post(move="discard", card="5C", stack="1").status_code == 200
    assert bob.post(move="discard", card="7D", stack="1").status_code == 200
    assert ann.post(move="draw").status_code == 200
    nine = html.unescape(scan(ann, standard_row_photo(["9D"], seed=5), move="discard", **{"for": "Ann"}))
    assert "Side 1 (on 5♣)" not in nine and "Side 2 (new)" in nine
    four = html.unescape(scan(ann, standard_row_photo(["4H"], seed=5), move="discard", **{"for": "Ann"}))
    assert "Side 1 (on 5♣)" in four


def test_GEN_14_a_new_pay_off_top_nobody_saw_is_entered_as_unknown(table, database):
    """Ann builds her pay-off top (a king starts a pile, SM-21): the picker for her next top offers "Nobody saw
    it (unknown)", as SM-K8's refusal tells a player to tap, and the entry is stored with the card unknown."""
    match, ann, bob = table
    tops(ann, bob, a="K", b="4")
    assert ann.post(move="build", source="payoff", pile="1").status_code == 200
    picker = html.unescape(ann.pick(move="top", seat="Ann"))
    assert "Nobody saw it (unknown)" in picker and 'name="card" value="unknown"' in picker
    assert ann.post(move="top", card="unknown").status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "top", "seat": "Ann", "card": "unknown"}


def test_SM_7_equal_tops_and_their_reshuffle_are_in_the_history(table, database):
    """Tops 7 and 7, then 9 and 5: the history listed four tops and nothing of why two more were entered. The
    top that made them equal says the piles were shuffled and new tops turned, in the phone's language too."""
    match, ann, bob = table
    tops(ann, bob, "7", "7")
    assert ann.post(move="top", card="9").status_code == 200
    assert ann.post(move="top", card="5", **{"for": "Bob"}).status_code == 200
    history = text(ann.client.get(f"{ann.url}/history"))
    assert "Bob's pay-off top: 7. Equal pay-off tops: Ann and Bob shuffle their pay-off piles and turn new tops." \
        in history
    said = re.findall(r'<span class="words">(.*?)</span>', history, re.S)
    assert sum("shuffle their pay-off piles" in s for s in said) == 1  # only the top that made them equal says so
    ann.client.post("/lang", data={"lang": "it", "next": "/"}, headers={"Origin": "http://localhost"})
    italian = re.findall(r'<span class="words">(.*?)</span>', text(ann.client.get(f"{ann.url}/history")), re.S)
    assert sum("rimescolano i mazzi personali" in s for s in italian) == 1 and not any("shuffle" in s for s in italian)
