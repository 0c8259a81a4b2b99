""""One phone for everyone" beside phones that hold seats: the family tablet in the middle of the table is a
helper, not a take-over. It takes no seat, the seated phones keep playing, and a phone that was seated gives
its own seat up when it becomes the shared phone (in one write)."""

from __future__ import annotations

import re

import pytest

from referee import store

HX = {"Origin": "http://localhost", "HX-Request": "true"}
POST = {"Origin": "http://localhost"}


def sit(client, match_id: str, seat: str, **extra):
    return client.post(f"/m/{match_id}/seat", data={"seat": seat, **extra}, headers=POST)


def entry(client, match_id: str, **fields):
    screen = client.get(f"/m/{match_id}/screen").get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', screen).group(1)
    return client.post(f"/m/{match_id}/entry", data={"version": version, **fields}, headers=HX)


@pytest.fixture
def table(app, database):
    """Ann and Bob each hold their seat on their own phone; the first discard is turned up."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob", "Cy"], {"rounds_n": 1})
    ann, bob = app.test_client(), app.test_client()
    assert sit(ann, match.id, "0").status_code == 303 and sit(bob, match.id, "1").status_code == 303
    assert entry(ann, match.id, move="turn_up", card="5").status_code == 200
    return match, ann, bob


def test_the_shared_phone_takes_no_seat_from_the_phones_that_hold_them(app, database, table):
    match, ann, bob = table
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    claims = store.seat_claims(database, match.id)  # nothing taken: only its turning shared is recorded
    assert [c["seat"] for c in claims] == [0, 1, -1] and claims[-1]["previous_device"] is None
    assert entry(tablet, match.id, move="draw", **{"for": "Ann"}).status_code == 200  # it helps Ann...
    assert entry(ann, match.id, move="replace", slot="1", out="9").status_code == 200  # ... who plays on


def test_a_seated_phone_that_serves_everyone_gives_its_own_seat_up(app, database, table):
    match, ann, bob = table
    assert entry(ann, match.id, move="draw").status_code == 200
    assert entry(ann, match.id, move="discard", card="7").status_code == 200
    assert entry(bob, match.id, move="draw").status_code == 200  # Bob enters from his own phone
    assert sit(bob, match.id, "shared").status_code == 303
    assert store.seat_holder(database, match.id, 1) is None  # Bob's seat is free for his phone again
    assert store.seat_holder(database, match.id, 0) is not None  # Ann's is still hers
    other = app.test_client()
    asked = sit(other, match.id, "1")  # no phone holds it, but Bob's notes were made on his phone: asked first
    assert asked.status_code == 409 and "Bob played on another phone" in asked.get_data(as_text=True)
    assert "What Bob noted there (a first look, a peek) will show on this phone" in asked.get_data(as_text=True)
    assert store.seat_holder(database, match.id, 1) is None  # nothing taken until confirmed
    assert other.post(f"/m/{match.id}/seat", data={"seat": "1", "confirm": "1"},
                      headers={"Origin": "http://localhost"}).status_code == 303
    assert store.seat_holder(database, match.id, 1) is not None
    assert sit(bob, match.id, "1").status_code == 409  # and Bob's own phone is asked to take it back


def history(client, match_id: str) -> str:
    return client.get(f"/m/{match_id}/history").get_data(as_text=True)


def test_turning_into_the_phone_for_everyone_and_taking_another_seat_are_in_the_history(app, database, table):
    """Any phone may become the phone for everyone (and then enter for every seat no other phone holds), or
    take a free seat: each is recorded, so a table can see whose phone did it."""
    match, ann, bob = table
    assert sit(bob, match.id, "shared").status_code == 303
    assert "<bdi>Bob</bdi>'s phone became the phone for everyone." in history(ann, match.id)
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    assert "A phone became the phone for everyone." in history(ann, match.id)
    assert sit(bob, match.id, "2").status_code == 303  # Cy's seat, free
    assert "<bdi>Bob</bdi>'s phone took <bdi>Cy</bdi>'s seat." in history(ann, match.id)  # names isolated
    assert sit(bob, match.id, "shared").status_code == 303 and sit(bob, match.id, "shared").status_code == 303
    said = history(ann, match.id)  # a phone is named by the seat it held first; turning shared twice is once
    assert said.count("<bdi>Bob</bdi>'s phone became the phone for everyone.") == 2
    assert "<bdi>Cy</bdi>'s phone" not in said
    assert sit(bob, match.id, "1").status_code == 303  # Bob's phone back in Bob's seat
    assert "<bdi>Bob</bdi>'s phone went back to <bdi>Bob</bdi>'s seat." in history(ann, match.id)


def test_GEN_6_the_shared_phone_shows_none_of_the_notes_a_player_made_on_her_own_phone(app, database, table):
    """Ann notes her first look on her own phone, then leaves her seat ("Not you? Change seat"): the shared
    phone, at her turn, shows none of it; her phone shows it again once she sits back down."""
    match, ann, bob = table
    assert entry(ann, match.id, move="initial_peek", slots="1,4", seen1="3", seen2="8").status_code == 200
    assert sit(ann, match.id, "choose").status_code == 303
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    screen = tablet.get(f"/m/{match.id}/screen").get_data(as_text=True)
    assert "Ann" in screen and "With the cards you saw" not in screen and "add up to 11" not in screen
    assert sit(ann, match.id, "0").status_code == 303
    assert "add up to 11" in ann.get(f"/m/{match.id}/screen").get_data(as_text=True)


def test_GEN_6_a_phone_cannot_write_what_another_seat_saw_by_a_correction(app, database, table):
    """Ann peeks at her slot 2 without noting the card. Bob's phone may not fill in what Ann saw: only her
    phone may (403, nothing stored). Nor may it correct the entry at all, as when she noted a card: were the
    one allowed and not the other, his phone would learn whether she noted one."""
    match, ann, bob = table
    assert entry(ann, match.id, move="draw").status_code == 200
    assert entry(ann, match.id, move="power", card="PEEK").status_code == 200
    assert entry(ann, match.id, move="peek", slot="2").status_code == 200
    peek = len(store.entries(database, match.id)) - 1
    before = len(store.entries(database, match.id))
    refused = entry(bob, match.id, move="correct", target_entry=str(peek), c_move="peek", c_for="Ann", c_slot="2",
                    c_seen="0", reason="she said")
    assert refused.status_code == 403
    assert "Only Ann&#39;s phone can correct this entry" in refused.get_data(as_text=True)
    assert len(store.entries(database, match.id)) == before
    mine = entry(ann, match.id, move="correct", target_entry=str(peek), c_move="peek", c_for="Ann", c_slot="2",
                 c_seen="0", reason="I saw a 0")
    assert mine.status_code == 200 and len(store.entries(database, match.id)) == before + 1


def without_first_look_forms(screen: str) -> str:
    """A screen without its first-look forms (the phone for everyone offers one to each player playing on it):
    their pickers list every card of the deck."""
    return re.sub(r'<details class="peek-note".*?</details>', "", screen, flags=re.S)


def test_GEN_6_the_shared_phone_does_not_name_the_card_a_player_drew_on_her_own_phone(app, database):
    """Ana draws the Q♥ and notes it on her own phone: the phone for everyone offers her power without
    naming the card ("Show it and use its power"), as it does when nobody noted it; her own phone names it."""
    from tests.web.test_cabo_table import CAMBIO, CaboPhone

    match = store.create_match(database, "cabo", ["Ana", "Ben", "Cy"], CAMBIO)
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    shared = CaboPhone(app, match.id, "shared")
    ana.ok(move="turn_up", card="4C")
    assert "Show the Q♥ and use its power" in ana.ok(move="draw", card="QH")
    screen = without_first_look_forms(shared.screen())  # (their card lists hold every card)
    assert "Show it and use its power" in screen
    assert '"QH"' not in screen and "Q♥" not in screen  # (a form's random key may hold the letters QH)
    assert "Show the Q♥" not in ben.screen()


def test_GEN_6_a_players_own_phone_turned_into_the_phone_for_everyone_shows_none_of_her_notes(app, database):
    """Ana notes her first look and draws the Q♥ on her own phone, then makes it the phone for everyone to
    pass round: it shows neither (it is the table's now); her seat taken back, it shows both again."""
    from tests.web.test_cabo_table import CAMBIO, CaboPhone

    match = store.create_match(database, "cabo", ["Ana", "Ben", "Cy"], CAMBIO)
    ana = CaboPhone(app, match.id, "0")
    ana.ok(move="turn_up", card="4C")
    ana.ok(move="initial_peek", place1="3", place2="4", seen1="5H", seen2="KS")
    assert "Show the Q♥ and use its power" in ana.ok(move="draw", card="QH")
    assert sit(ana.client, match.id, "shared").status_code == 303
    screen = without_first_look_forms(ana.screen())
    assert "Q♥" not in screen and "5♥" not in screen and "K♠" not in screen
    assert sit(ana.client, match.id, "0").status_code == 303
    assert "Show the Q♥ and use its power" in ana.screen()


def test_GEN_6_the_shared_phone_does_not_note_what_a_player_on_her_own_phone_saw(app, database, table):
    """The tablet helps Ann, who holds her seat on her own phone, with her peek: it may enter the peek,
    but not what Ann saw (her phone notes that): the picker offers no card, and a post naming one is
    refused (403, nothing stored)."""
    match, ann, bob = table
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    assert entry(tablet, match.id, move="draw", **{"for": "Ann"}).status_code == 200
    assert entry(tablet, match.id, move="power", card="PEEK", **{"for": "Ann"}).status_code == 200
    picker = tablet.get(f"/m/{match.id}/pick", query_string={"move": "peek", "slot": "2", "field": "seen"},
                        headers=HX).get_data(as_text=True)
    assert "Only Ann's phone can note what Ann saw." in picker.replace("&#39;", "'")
    assert 'name="seen" value="3"' not in picker and 'name="seen" value="unknown"' in picker
    before = len(store.entries(database, match.id))
    refused = entry(tablet, match.id, move="peek", slot="2", seen="3", **{"for": "Ann"})
    assert refused.status_code == 403
    said = refused.get_data(as_text=True).replace("&#39;", "'")
    assert "Only Ann's phone can note what Ann saw: enter it here without the card" in said
    assert len(store.entries(database, match.id)) == before
    assert entry(tablet, match.id, move="peek", slot="2", seen="unknown", **{"for": "Ann"}).status_code == 200


def test_a_player_leaving_the_phone_for_everyone_for_her_own_phone_is_in_the_history(app, database, table):
    match, ann, bob = table
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    for fields in ({"move": "draw", "for": "Ann"}, {"move": "discard", "card": "7", "for": "Ann"},
                   {"move": "draw", "for": "Bob"}, {"move": "discard", "card": "6", "for": "Bob"}):
        assert entry(tablet, match.id, **fields).status_code == 200
    assert entry(tablet, match.id, move="draw", **{"for": "Cy"}).status_code == 200  # Cy plays on the tablet
    cy = app.test_client()
    assert sit(cy, match.id, "2").status_code == 303  # then on her own phone
    said = history(ann, match.id)
    assert "<bdi>Cy</bdi> now plays on their own phone, no longer on the phone for everyone." in said
    assert "<bdi>Ann</bdi> now plays on their own phone" not in said  # Ann sat down before any entry


def test_the_shared_phone_names_whose_note_it_shows(app, database):
    """The phone for everyone is passed round: a note it shows is said as the player's ("Cy's note"), not as
    "only you know this", which a seated phone says."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob", "Cy"], {"rounds_n": 1})
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw", "for": "Ann"},
                   {"move": "power", "card": "PEEK", "for": "Ann"}, {"move": "peek", "slot": "2", "seen": "4", "for": "Ann"}):
        assert entry(tablet, match.id, **fields).status_code == 200
    for fields in ({"move": "draw", "for": "Bob"}, {"move": "discard", "card": "6", "for": "Bob"},
                   {"move": "draw", "for": "Cy"}, {"move": "discard", "card": "7", "for": "Cy"}):
        assert entry(tablet, match.id, **fields).status_code == 200
    screen = tablet.get(f"/m/{match.id}/screen").get_data(as_text=True).replace("&#39;", "'")
    assert "Ann's note" in screen and "what Ann noted" in screen  # Ann's turn again: her note, by name
    assert "only you know this" not in screen and "what only you know" not in screen


def test_the_shared_phone_names_the_player_in_a_swap_and_a_discard(app, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bob"], {"rounds_n": 1})
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw", "for": "Ann"}):
        assert entry(tablet, match.id, **fields).status_code == 200
    picker = tablet.get(f"/m/{match.id}/pick", query_string={"move": "discard", "field": "card"},
                        headers=HX).get_data(as_text=True)
    assert "Which card did Ann discard?" in picker and "did you" not in picker
    assert entry(tablet, match.id, move="power", card="SWAP", **{"for": "Ann"}).status_code == 200
    screen = tablet.get(f"/m/{match.id}/screen").get_data(as_text=True).replace("&#39;", "'")
    assert "Swap one of Ann's cards with another player's card, unseen:" in screen
    assert "Ann's slot 1" in screen and "My slot" not in screen


def test_a_phone_taking_back_the_seat_another_phone_took_from_it_is_said_so(app, database, table):
    match, ann, bob = table
    assert sit(bob, match.id, "choose").status_code == 303  # Bob's phone leaves his seat
    other = app.test_client()
    assert sit(other, match.id, "1", confirm="1").status_code == 303  # another phone takes it
    assert sit(bob, match.id, "1", confirm="1").status_code == 303  # Bob's own phone takes it back
    said = history(ann, match.id)
    assert said.count("Another phone took over <bdi>Bob</bdi>'s seat.") == 1
    assert "<bdi>Bob</bdi>'s phone went back to <bdi>Bob</bdi>'s seat." in said


def test_the_shared_phone_names_the_player_in_a_swaps_second_step_a_peek_and_the_counts(app, database):
    from tests.web.test_cabo_table import CAMBIO, CaboPhone

    match = store.create_match(database, "ratatat", ["Ann", "Bob"], {"rounds_n": 1})
    tablet = CaboPhone(app, match.id, "shared")
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw", "for": "Ann"},
                   {"move": "power", "card": "SWAP", "for": "Ann"}):
        tablet.ok(**fields)
    picker = tablet.pick(move="swap", slot="1", field="target_slot").replace("&#39;", "'")
    assert "Swap Ann's slot 1 with:" in picker and "your slot" not in picker
    cabo = store.create_match(database, "cabo", ["Ann", "Bob"], CAMBIO)
    tablet = CaboPhone(app, cabo.id, "shared")
    tablet.ok(move="turn_up", card="5H")
    tablet.ok(move="initial_peek", slots="3,4", seen1="2C", seen2="KH", **{"for": "Ann"})
    tablet.ok(move="draw", **{"for": "Ann"})
    screen = tablet.ok(move="power", card="7D", **{"for": "Ann"}).replace("&#39;", "'")
    assert "Peek at one of Ann's cards" in screen and "your cards" not in screen
    assert "With the cards Ann saw:" in screen and "With the cards you saw" not in screen
    picker = tablet.pick(move="peek", slot="1", field="seen").replace("&#39;", "'")
    assert "What did Ann see in their place 1?" in picker


def test_GEN_6_a_seat_tapped_by_mistake_and_left_leaves_the_shared_phone_noting_for_it(app, database):
    """Cy plays on the tablet. Ann's phone taps Cy's seat by mistake and goes to her own before entering
    anything: the tablet still notes what Cy peeks at, and Cy's own phone, if she fetches it, is not asked
    about another phone that only sat there for a moment."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob", "Cy"], {"rounds_n": 1})
    tablet, ann = app.test_client(), app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    assert sit(ann, match.id, "2").status_code == 303 and sit(ann, match.id, "0").status_code == 303
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw", "for": "Ann"},
                   {"move": "discard", "card": "7", "for": "Ann"}, {"move": "draw", "for": "Bob"},
                   {"move": "discard", "card": "6", "for": "Bob"}, {"move": "draw", "for": "Cy"},
                   {"move": "power", "card": "PEEK", "for": "Cy"}):
        assert entry(tablet, match.id, **fields).status_code == 200
    assert entry(tablet, match.id, move="peek", slot="2", seen="4", **{"for": "Cy"}).status_code == 200
    assert store.entries(database, match.id)[-1]["entry"]["seen"] == "4"
    assert sit(app.test_client(), match.id, "2").status_code == 303  # Cy's own phone: no question asked


def test_GEN_6_a_seat_a_phone_entered_from_stays_its_own_after_it_leaves(app, database, table):
    """Bob's phone entered from his seat, then became a watcher: the tablet shows none of his notes and a
    phone taking his seat is asked first."""
    match, ann, bob = table
    assert entry(ann, match.id, move="draw").status_code == 200
    assert entry(ann, match.id, move="discard", card="7").status_code == 200
    assert entry(bob, match.id, move="draw").status_code == 200
    assert sit(bob, match.id, "watch").status_code == 303
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    assert entry(tablet, match.id, move="power", card="PEEK", **{"for": "Bob"}).status_code == 200
    assert entry(tablet, match.id, move="peek", slot="2", seen="4", **{"for": "Bob"}).status_code == 403
    assert sit(app.test_client(), match.id, "1").status_code == 409


def test_a_phone_that_took_a_seat_over_by_mistake_is_named_by_its_own_seat(app, database, table):
    """Cy's phone, new at the table, takes Ann's seat over, then goes to Cy's seat; Ann's phone sits down
    again. The history names each phone by whose it is: Cy's phone took over Ann's seat and took Cy's own
    seat; Ann's phone went back to hers (before: "Ann's phone took Cy's seat", as if Ann's phone had moved
    around)."""
    match, ann, bob = table
    cy = app.test_client()
    assert sit(cy, match.id, "0", confirm="1").status_code == 303  # by mistake
    assert sit(cy, match.id, "2").status_code == 303
    assert sit(ann, match.id, "0", confirm="1").status_code == 303
    said = history(ann, match.id)
    assert "<bdi>Cy</bdi>'s phone took over <bdi>Ann</bdi>'s seat." in said
    assert "<bdi>Cy</bdi>'s phone took <bdi>Cy</bdi>'s own seat." in said
    assert "<bdi>Ann</bdi>'s phone took <bdi>Cy</bdi>'s seat." not in said
    assert "<bdi>Ann</bdi>'s phone went back to <bdi>Ann</bdi>'s seat." in said


def _round_one_played(app, database):
    """Ana and Ben on their own phones: round 1 of 2 played and scored (Ana's first look not noted), round 2's
    first card turned up."""
    import json
    from pathlib import Path

    from referee import tables

    example = json.loads((Path(__file__).resolve().parents[2] / "docs" / "examples" / "plain-round.json").read_text())
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 2})
    ana, ben = app.test_client(), app.test_client()
    assert sit(ana, match.id, "0").status_code == 303 and sit(ben, match.id, "1").status_code == 303
    version = 0
    for item in example["entries"]:
        if item["move"] == "initial_peek":
            item = {**item, "seen": ["unknown", "unknown"]}
        version = tables.append(database, match.id, version, item, None).version
    assert entry(ana, match.id, move="turn_up", card="6").status_code == 200  # round 2
    return match, ana, ben


def test_GEN_6_another_phone_may_not_say_what_a_player_saw_in_a_finished_round(app, database):
    """Ana did not note her first look in round 1. In round 2, Ben's phone (and the phone for everyone, Ana
    playing on her own) may correct it only as it stands: what Ana saw is hers to say (403, nothing stored);
    the correction page keeps it as it is, saying so. Before, a finished round's note was anyone's to write."""
    match, ana, ben = _round_one_played(app, database)
    before = len(store.entries(database, match.id))
    fields = dict(move="correct", target_entry="1", c_move="initial_peek", c_for="Ana", c_slots="1,4", c_seen1="8",
                  c_seen2="1", reason="she saw an 8")
    refused = entry(ben, match.id, **fields)
    assert refused.status_code == 403 and "Only Ana&#39;s phone can enter what Ana saw" in refused.get_data(as_text=True)
    tablet = app.test_client()
    assert sit(tablet, match.id, "shared").status_code == 303
    assert entry(tablet, match.id, **fields).status_code == 403
    assert len(store.entries(database, match.id)) == before
    page = ben.get(f"/m/{match.id}/correct/1").get_data(as_text=True).replace("&#39;", "'")
    assert "only Ana's phone can say what Ana saw" in page
    assert 'name="c_seen1" value="unknown"' in page and 'name="c_seen1" value="8"' not in page


def test_GEN_4_a_note_added_to_a_finished_round_asks_before_it_sets_the_next_round_aside(app, database):
    """Ana notes, late, an 8 she saw in round 1 where the reveal showed a 0: on replay round 1 has a dispute
    to decide (GEN-4) and round 2's entries no longer fit. Her phone is told which entries the correction
    would set aside and asked again (409, nothing stored); confirmed, it is made."""
    match, ana, ben = _round_one_played(app, database)
    before = len(store.entries(database, match.id))
    fields = {"version": str(before), "move": "correct", "target_entry": "1", "c_move": "initial_peek",
              "c_for": "Ana", "c_slots": "1,4", "c_seen1": "8", "c_seen2": "1", "reason": "I saw an 8"}
    asked = ana.post(f"/m/{match.id}/entry", data=fields, headers=POST)
    page = asked.get_data(as_text=True)
    assert asked.status_code == 409 and f"This correction would set entry {before - 1} aside" in page
    assert len(store.entries(database, match.id)) == before
    made = ana.post(f"/m/{match.id}/entry", data={**fields, "set_aside_ok": "1"}, headers=POST)
    assert made.status_code == 303 and len(store.entries(database, match.id)) == before + 1


def test_GEN_6_the_shared_phone_corrects_the_first_look_it_noted_for_a_player_without_a_phone(app, database):
    """Ben plays on the tablet, Nora on her own phone. The tablet noted Ben's first look: it alone may
    correct it (before: "Only Ben's phone can correct this entry", and Ben has none); Nora's phone still may
    not, nor read it."""
    from tests.web.test_cabo_table import CAMBIO, CaboPhone

    match = store.create_match(database, "cabo", ["Ben", "Nora"], CAMBIO)
    tablet = CaboPhone(app, match.id, "shared")
    nora = app.test_client()
    assert sit(nora, match.id, "1").status_code == 303
    tablet.ok(move="turn_up", card="5H")
    tablet.ok(move="initial_peek", slots="3,4", seen1="2C", seen2="KH", **{"for": "Ben"})
    tablet.ok(move="draw", **{"for": "Ben"})
    history = tablet.client.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert f"/m/{match.id}/correct/1" in history
    assert tablet.client.get(f"/m/{match.id}/correct/1").status_code == 200
    assert nora.get(f"/m/{match.id}/correct/1").status_code == 403
    assert f"/m/{match.id}/correct/1" not in nora.get(f"/m/{match.id}/history").get_data(as_text=True)
    fields = dict(move="correct", target_entry="1", c_move="initial_peek", c_for="Ben", c_slots="3,4",
                  c_seen1="2C", c_seen2="KD", reason="it was the king of diamonds")
    assert entry(tablet.client, match.id, **fields).status_code == 200
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["seen"] == ["2C", "KD"]
