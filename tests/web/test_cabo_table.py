"""A Cabo / Cambio table through the Flask test client on a file database: a Cambio round with the first
look noted privately, draws, a replace, a power, a snap and the give, the call and the reveal scored; a
snap race between two phones; the pickers, a matching claim, the correction page and hostile fields."""
from __future__ import annotations

import html
import re
import threading

import pytest

from referee import store

from .cardphotos import standard_row_photo
from .test_play import HX, Phone, entry_count, text

CAMBIO = {"deck": "standard_jokers", "initial_look": "nearest_two", "matching_exchange": "off",
          "snap_enabled": True, "discard_taken_face_up": False, "round_score": "plain",
          "tie_policy": "all_lowest_except_caller", "kamikaze": False, "exact_100_reset": "off",
          "game_end": "rounds", "deck_out_ends_round": False, "next_round_order": "clockwise", "rounds_n": 1}


class CaboPhone(Phone):
    def screen(self) -> str:
        return self.client.get(f"{self.url}/screen", headers=HX).get_data(as_text=True)

    def pick(self, **args) -> str:
        response = self.client.get(f"{self.url}/pick", query_string=args, headers=HX)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        return response.get_data(as_text=True)

    def ok(self, **fields) -> str:
        response = self.post(**fields)
        assert response.status_code == 200, (fields, text(response)[:600])
        return text(response)


@pytest.fixture
def table(app, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben", "Cy"], CAMBIO)
    return match, CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1"), CaboPhone(app, match.id, "2")


def turn_of(screen: str) -> str:
    found = re.search(r'<h1 id="status">(.*?)</h1>', screen, re.S).group(1)
    return found


def phones_by_name(ana, ben, cy):
    return {"Ana": ana, "Ben": ben, "Cy": cy}


def start(ana, ben, cy, card="5H"):
    screen = ana.ok(move="turn_up", card=card)
    return screen


def rows_of(screen: str) -> str:
    return re.search(r'<section class="card table-view" id="rows">(.*?)</section>', screen, re.S).group(1)


def test_the_first_look_at_any_two_places_the_player_chooses(app, database):
    """CAB-2 / CAB-V3 any_two (Cabo's rule): the player says which two cards they looked at, not only
    places 1 and 2."""
    match = store.create_match(database, "cabo", ["Ana", "Ben"], {**CAMBIO, "initial_look": "any_two"})
    ana = CaboPhone(app, match.id, "0")
    screen = ana.screen()
    assert "Note your first look at two of your cards" in screen and 'name="slots"' not in screen
    assert 'name="place1"' in screen and 'name="place2"' in screen
    ana.ok(move="turn_up", card="5H")
    screen = ana.ok(move="initial_peek", place1="2", place2="4", seen1="QS", seen2="3D")
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "initial_peek", "seat": "Ana", "slots": [2, 4],
                                                              "seen": ["QS", "3D"]}
    assert "Q♠" in rows_of(screen) and "3♦" in rows_of(screen)
    same = CaboPhone(app, store.create_match(database, "cabo", ["Ana", "Ben"], {**CAMBIO, "initial_look": "any_two"}).id, "0")
    same.ok(move="turn_up", card="5H")
    assert same.post(move="initial_peek", place1="3", place2="3", seen1="QS", seen2="3D").status_code == 422


def test_CAB_K_GEN_6_a_player_sees_what_the_cards_she_looked_at_add_up_to_and_nobody_else_does(table):
    match, ana, ben, cy = table
    ana.ok(move="turn_up", card="5H")
    screen = ana.ok(move="initial_peek", slots="3,4", seen1="2C", seen2="5D")
    assert "To the table: 4 cards not known. With the cards you saw: known cards add up to 7; 2 cards not known" in rows_of(screen)
    assert rows_of(screen).count("With the cards you saw") == 1 and "add up to 0" not in rows_of(screen)
    assert "With the cards you saw" not in ben.screen() and "add up to 7" not in ben.screen()


def test_a_cambio_round_with_a_power_a_snap_and_the_call_is_scored_at_the_reveal(table, database):
    match, ana, ben, cy = table
    screen = ana.screen()
    assert "Turn up the top card" in screen and "Note your first look at places 3 and 4" in screen
    # A standard-deck card is picked by rank, then suit; the joker directly.
    picker = ana.pick(move="turn_up", field="card")
    assert "Tap the rank, then the suit" in picker and "rank=J" in picker and "Joker" in picker and "J♥" not in picker
    picker = ana.pick(move="turn_up", field="card", rank="J")
    assert all(f"J{s}" in picker for s in "♠♥♦♣") and 'value="JH"' in picker and "Q♥" not in picker
    assert "Another rank" in picker
    ana.ok(move="turn_up", card="5H")
    # Ana's first look stays on Ana's phone.
    screen = ana.ok(move="initial_peek", slots="3,4", seen1="2C", seen2="KH")
    assert "2♣" in rows_of(screen) and "K♥" in rows_of(screen)
    assert "2♣" not in rows_of(ben.screen()) and "K♥" not in rows_of(cy.screen())
    screen = ana.ok(move="draw")
    assert "Put the card in a place" in screen and "Discard it face up" in screen
    assert "Which card came out of place 1?" in ana.pick(move="replace", slot="1", field="out")
    screen = ana.ok(move="replace", slot="1", out="9S")
    # A snap is open on the 9♠: every seated phone has the button, Ana's too.
    for phone in (ana, ben, cy):
        assert "Snap!" in phone.screen()
    picker = ben.pick(move="snap")
    assert "Cy&#39;s place 2" in picker or "Cy's place 2" in picker
    assert "what does it show?" in ben.pick(move="snap", slot="2", target="Cy")
    screen = ben.ok(move="snap", slot="2", owner="Cy", card="9C")
    assert "Give Cy one of your cards" in screen
    assert "Snap!" not in cy.screen()
    screen = ben.ok(move="give", slot="1")
    assert "Your turn, Ben" in screen
    ben.ok(move="draw")
    screen = ben.ok(move="power", card="7D")
    assert "Peek at one of your cards" in screen
    assert "only you will see this" in ben.pick(move="peek", slot="3", field="seen")
    screen = ben.ok(move="peek", slot="3", seen="4S")
    assert "4♠" in rows_of(screen) and "4♠" not in rows_of(ana.screen())
    cy.ok(move="draw")
    screen = cy.ok(move="discard", card="3D")
    assert "Call “Cambio!”" in ana.screen()
    screen = ana.ok(move="call")
    assert "Ana called “Cambio”" in screen
    ben.ok(move="draw")
    ben.ok(move="discard", card="2H")
    cy.ok(move="draw")
    screen = cy.ok(move="replace", slot="1", out="6C")
    assert "Round 1: reveal" in screen and "Reveal Cy" in screen and "Enter Ben's cards" in screen
    assert "Snap!" in screen  # the 6♣ may still be snapped until the first card is turned up
    ana.ok(move="reveal", card1="AS", card2="3C", card3="2C", card4="KH")   # 1 + 3 + 2 - 1 = 5
    ana.ok(move="reveal", **{"for": "Ben"}, card1="10D", card2="4S", card3="JOKER")  # 10 + 4 + 0 = 14
    screen = cy.ok(move="reveal", card1="7C", card2="QH", card3="8H", card4="KS")  # 7 + 12 + 8 + 13 = 40
    assert "Match over" in screen
    last = re.search(r'id="last-round">(.*?)</section>', screen, re.S).group(1)
    assert "Ana win" in last and ">5<" in last and ">14<" in last and ">40<" in last
    assert store.entries(database, match.id)[-1]["entry"]["move"] == "reveal"


def test_two_phones_snap_at_once_one_is_saved_the_other_is_told_who_was_first(table, database):
    match, ana, ben, cy = table
    ana.ok(move="turn_up", card="5H")
    ana.ok(move="draw")
    ana.ok(move="replace", slot="1", out="9S")
    version = ben.version()
    results = {}

    def press(name, phone, **fields):
        results[name] = phone.post(version=version, **fields)

    racers = [threading.Thread(target=press, args=("ben", ben), kwargs={"move": "snap", "slot": "2", "card": "9C"}),
              threading.Thread(target=press, args=("cy", cy), kwargs={"move": "snap", "slot": "4", "card": "9D"})]
    for t in racers:
        t.start()
    for t in racers:
        t.join()
    codes = sorted(r.status_code for r in results.values())
    assert codes == [200, 409], {k: (r.status_code, text(r)[:300]) for k, r in results.items()}
    winner = next(name for name, r in results.items() if r.status_code == 200)
    loser = next(r for r in results.values() if r.status_code == 409)
    first = {"ben": "Ben snaps their own place 2", "cy": "Cy snaps their own place 4"}[winner]
    assert "Someone else entered something first:" in text(loser) and first in text(loser)
    assert entry_count(database, match.id) == version + 1
    assert store.entries(database, match.id)[-1]["entry"]["move"] == "snap"


def test_the_pickers_a_matching_claim_and_the_correction_page(app, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben"], {})  # Cabo 2nd edition: the Cabo deck
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    screen = ana.screen()
    picker = ana.pick(move="turn_up", field="card")
    assert 'value="13"' in picker and 'value="0"' in picker
    ana.ok(move="turn_up", card="5")
    turn = "Ana" if "Your turn, Ana" in ana.screen() else "Ben"
    p, q = (ana, ben) if turn == "Ana" else (ben, ana)
    other = "Ben" if turn == "Ana" else "Ana"
    # A matching claim: tap places, name the cards turned up, say where the new card goes.
    screen = p.ok(move="draw")
    assert "Claim a set of equal cards" in screen
    claim = p.pick(move="match", slot="1")
    assert "Place 1 ✓" in claim and "Claim: they match" not in claim
    claim = p.pick(move="match", slot="1,2")
    assert 'name="slots" value="1,2"' in claim and 'name="card1"' in claim and 'name="card2"' in claim
    assert 'name="slot" value="1" checked' in claim and 'name="matched" value="0"' in claim
    screen = p.ok(move="match", slots="1,2", card1="4", card2="4", slot="2")
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "match", "seat": turn, "slots": [1, 2],
                                                              "cards": ["4", "4"], "slot": 2}
    # The next player draws a Spy, then a blind swap comes later: the pickers render.
    q.ok(move="draw")
    assert "Which card is shown for its power?" in q.pick(move="power", field="card")
    screen = q.ok(move="power", card="9")
    assert f"{turn} place 1" in screen or f"{turn} place 3" in screen
    q.ok(move="peek", slot="3", target=turn, seen="unknown")
    p.ok(move="draw")
    screen = p.ok(move="power", card="11")
    assert "Swap two cards, unseen" in screen and "No swap" in screen
    swap = p.pick(move="swap", slot="3")
    assert f"{other}&#39;s place 1" in swap or f"{other}'s place 1" in swap
    p.ok(move="swap", slot="3", target=other, target_slot="1")
    assert "no longer open" in p.pick(move="snap")
    # The correction page shows the claim's fields, prefilled; a correction is saved.
    page = p.client.get(f"{p.url}/correct/2").get_data(as_text=True)
    assert 'name="c_place1" value="1" checked' in page and 'name="c_place2" value="2" checked' in page
    assert 'name="c_place3" value="3">' in page and 'name="c_slots"' not in page  # places ticked, never typed
    assert 'name="c_place4"' in page and 'name="c_place5"' not in page  # the places the rows had then: four
    swap = p.client.get(f"{p.url}/correct/8").get_data(as_text=True)  # the blind swap: its places, 1 to 4
    assert 'name="c_target_slot" value="1"' in swap and 'name="c_target_slot" value="4"' in swap
    assert 'name="c_target_slot" value="5"' not in swap and 'name="c_slot" value="5"' not in swap
    assert 'name="c_card1" value="4" required checked' in page
    response = p.post(move="correct", target_entry="2", reason="they were 6s", c_move="match", c_for=turn,
                      c_place1="1", c_place2="2", c_card1="6", c_card2="6", c_slot="2")
    assert response.status_code == 200, text(response)[:400]
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["cards"] == ["6", "6"]
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["slots"] == [1, 2]


def test_a_look_and_swap_and_a_wrong_snap_then_the_give_pickers(table, database):
    match, ana, ben, cy = table
    ana.ok(move="turn_up", card="5H")
    ana.ok(move="draw")
    screen = ana.ok(move="power", card="KS")
    assert "Look at one of your cards and another player&#39;s" in screen or "another player's" in screen
    # Before Ana's next move, Cy snaps Ben's place 1 onto the K♠: a king, so Cy gives one of their cards.
    screen = cy.ok(move="snap", slot="1", owner="Ben", card="KC")
    assert "Give Ben one of your cards" in screen
    assert "Place 2" in cy.pick(move="give")
    cy.ok(move="give", slot="4")
    form = ana.pick(move="look_swap", slot="3", target="Ben")
    assert 'name="target_slot" value="2"' in form and "Swap them" in form and "Keep them" in form
    ana.ok(move="look_swap", slot="3", target="Ben", target_slot="2", seen="QH", target_seen="2D", swap="1")
    assert "Q♥" not in rows_of(ben.screen()) and "2♦" in rows_of(ana.screen())
    assert "Your turn, Ben" in ben.screen()


def test_hostile_fields_get_a_message_not_a_500(table, database):
    match, ana, ben, cy = table
    for fields in ({"move": "turn_up", "card": "X" * 5000}, {"move": "turn_up", "card": "<script>"},
                   {"move": "reveal", "for": "Nobody"}, {"move": "snap", "slot": "99", "card": "9C"},
                   {"move": "snap", "slot": "-1"}, {"move": "match", "slots": "1," * 400},
                   {"move": "initial_peek", "slots": "3,4", "seen1": "\x00"}, {"move": "give", "slot": "abc"},
                   {"move": "look_swap", "slot": "1", "target": "<script>", "target_slot": "1"},
                   {"move": "x" * 50}, {"move": "swap", "owner": "Nobody", "slot": "1"}):
        response = ana.post(**fields)
        assert 400 <= response.status_code < 500, (fields, response.status_code)
        assert "<script>" not in text(response)
    for args in ({"move": "snap", "slot": "x"}, {"move": "match", "slot": "1,a,<b>"}, {"move": "replace", "slot": "9"},
                 {"move": "look_swap", "target": "Nobody"}, {"move": "swap", "source": "<i>"}, {"move": "nope"}):
        response = ana.client.get(f"{ana.url}/pick", query_string=args, headers=HX)
        assert response.status_code < 500, (args, response.status_code)
        assert "<b>" not in text(response) and "<i>" not in text(response)
    assert entry_count(database, match.id) == 0


def test_the_shared_phone_offers_each_players_snap_and_enters_for_them(app, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben", "Cy"], CAMBIO)
    shared = CaboPhone(app, match.id, "shared")
    shared.ok(move="turn_up", card="5H")
    shared.ok(move="draw")
    screen = shared.ok(move="replace", slot="1", out="9S")
    assert "Snap! (Ana)" in screen and "Snap! (Ben)" in screen and "Snap! (Cy)" in screen
    assert "Note your first look" not in screen and "(only you see it)" not in screen  # it promises no privacy
    picker = shared.pick(move="snap", seat="Cy")
    assert 'name="for" value="Cy"' not in picker  # links first: which card
    assert 'name="for" value="Cy"' in shared.pick(move="snap", seat="Cy", slot="2", target="Ben")
    screen = shared.ok(move="snap", slot="2", owner="Ben", card="9C", **{"for": "Cy"})
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "snap", "seat": "Cy", "slot": 2, "owner": "Ben",
                                                              "card": "9C"}
    assert "Cy gives Ben one of Cy's cards" in screen.replace("&#39;", "'") and 'name="for" value="Cy"' in screen
    screen = shared.ok(move="give", slot="3", **{"for": "Cy"})
    assert "Your turn, Ben" in screen and "Snap!" not in screen  # a good snap closes the snap
    for args in ({"move": "replace", "slot": "1", "field": "out"}, {"move": "match"}, {"move": "power"},
                 {"move": "peek", "slot": "1"}, {"move": "swap", "slot": "1"}, {"move": "look_swap", "slot": "1", "target": "Ana"},
                 {"move": "give"}, {"move": "take_discard"}, {"move": "discard"}):
        assert "Back" in shared.pick(**args)


# --- Scanning a card at a Cabo / Cambio table ----------------------------------------------------


def scan(phone, photo: bytes, **purpose):
    import io

    response = phone.client.post(f"{phone.url}/scan", headers=HX, content_type="multipart/form-data",
                                 data={**purpose, "photo": (io.BytesIO(photo), "card.jpg")})
    assert response.status_code == 200, text(response)[:400]
    return response.get_data(as_text=True)


def confirm_fields(html: str) -> dict[str, str]:
    """The hidden fields of the one-tap confirmation a scan result offers."""
    form = html.split("confirm-scan")[0].rsplit("<form", 1)[1]
    return dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))


def test_a_photo_of_a_standard_card_fills_the_cambio_picker_and_one_tap_enters_it(table, database):
    """Cambio's standard deck is read out of the box (no teaching): the photo names the card, one tap
    enters it, and the other suits of the rank read are one tap away (the picker's second step)."""

    match, ana, ben, cy = table
    picker = ana.pick(move="turn_up", field="card")
    assert "Scan with the camera" in picker and 'name="move" value="turn_up"' in picker
    assert "Scan with the camera" not in ana.pick(move="turn_up", field="card", rank="10")  # once, at the rank step
    html = scan(ana, standard_row_photo(["10H"]), move="turn_up", field="card")
    assert re.search(r'read-label">10♥<', html) and "Confirm 10♥" in html
    suits = html.split("Another suit? The 10 of:")[1].split("</div>")[0]
    assert all(f"10{s}" in suits for s in "♠♦♣") and "10♥" not in suits and "J♥" not in suits
    assert entry_count(database, match.id) == 0  # nothing entered until the player confirms
    fields = confirm_fields(html)
    assert fields["move"] == "turn_up" and fields["card"] == "10H"
    assert ana.client.post(f"{ana.url}/entry", data=fields, headers=HX).status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "turn_up", "card": "10H"}
    # A snap of another player's card: the photo keeps whose card it is, and one tap snaps it.
    ana.ok(move="draw")
    ana.ok(move="replace", slot="1", out="9S")
    picker = ben.pick(move="snap", slot="2", target="Cy")
    assert "Scan with the camera" in picker and 'name="owner" value="Cy"' in picker
    html = scan(ben, standard_row_photo(["9D"], seed=5), move="snap", slot="2", owner="Cy", field="card")
    fields = confirm_fields(html)
    assert (fields["move"], fields["owner"], fields["slot"], fields["card"]) == ("snap", "Cy", "2", "9D")
    response = ben.client.post(f"{ben.url}/entry", data=fields, headers=HX)
    assert response.status_code == 200, text(response)[:400]
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "snap", "seat": "Ben", "slot": 2,
                                                              "owner": "Cy", "card": "9D"}


def test_the_cabo_deck_is_read_only_once_taught_and_only_by_its_own_references(app, client, database):
    """The Cabo deck (0 to 13) is not a standard deck: its photos are read from the Cabo decks taught on
    the home page, never by the standard recogniser nor by a Rat-a-Tat Cat deck's references."""
    import io

    from .cardphotos import row_photo

    match = store.create_match(database, "cabo", ["Ana", "Ben"], {})
    ana = CaboPhone(app, match.id, "0")
    assert "Scan with the camera" in ana.pick(move="turn_up", field="card")
    photo = row_photo(["7"], seed=9, kind="cloth")
    html = scan(ana, photo, move="turn_up", field="card")
    assert "a Cabo deck is read once it has been taught" in html and "confirm-scan" not in html

    def teach(kind: str, faces: list[str]) -> None:
        deck = client.post("/decks", data={"name": kind, "kind": kind}, headers=HX).headers["Location"]
        for seed, i in enumerate(range(0, len(faces), 4)):
            group = faces[i:i + 4]
            found = client.post(f"{deck}/photo", headers=HX, content_type="multipart/form-data",
                                data={"photo": (io.BytesIO(row_photo(group, seed=seed)), "t.jpg")})
            token = re.search(r'name="token" value="([^"]+)"', found.get_data(as_text=True)).group(1)
            taught = client.post(f"{deck}/teach", headers=HX,
                                 data={"token": token, **{f"label{j}": g for j, g in enumerate(group)}})
            assert taught.status_code == 200, text(taught)[:300]

    teach("ratatat", ["5", "6", "7", "8"])  # another game's deck serves no Cabo table
    html = scan(ana, photo, move="turn_up", field="card")
    assert "a Cabo deck is read once it has been taught" in html and "confirm-scan" not in html
    teach("cabo", [str(n) for n in range(14)])
    html = scan(ana, photo, move="turn_up", field="card")
    assert re.search(r'read-label">7<', html) and "Another suit" not in html
    fields = confirm_fields(html)
    assert ana.client.post(f"{ana.url}/entry", data=fields, headers=HX).status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "turn_up", "card": "7"}


# --- Each preset's rules page --------------------------------------------------------------------


@pytest.mark.parametrize("preset, words", [
    ("cabo_2e", ["the Cabo deck, 0 to 13 (52 cards)", "stays face up for the rest of the round",
                 "drops to 50, once per player", "the round ends"]),
    ("cabo_1e", ["the Cabo deck, 0 to 13 (52 cards)", "allowed; a wrong claim only loses the card kept",
                 "the lowest sum scores 0; a caller who is not lowest scores their sum plus 5",
                 "drops to 50 every time"]),
    ("cambio_common", ["a standard deck with two jokers (54 cards)", "minus 1", "allowed, out of turn",
                       "the two cards nearest them, secretly", "Number of rounds: 4 rounds", "the black kings"]),
])
def test_each_presets_rules_page_has_its_switches_in_words_and_every_rule(client, preset, words):
    from html import unescape

    from referee.games import cabo

    html = client.get(f"/rules/cabo?preset={preset}").get_data(as_text=True)
    chosen = next(p for p in cabo.PRESETS if p.key == preset)
    section = unescape(html.split('id="presets"')[1].split("</section>")[0])
    assert chosen.name in section and chosen.description in section
    for other in cabo.PRESETS:  # every set of rules is one tap away
        assert f"preset={other.key}" in section
    for w in words:
        assert w in section, (preset, w)
    for rule_id in ("CAB-V1", "CAB-V9"):  # each switch by its rule ID, a link to the rule below
        assert re.search(rf'href="#{rule_id}"[^>]*>{rule_id}</a>', section), rule_id
    if preset == "cambio_common":
        assert "CAB-V2" in section and "joker scores" in section  # the value map applies to a standard deck
    else:
        assert "A red king" not in section  # the standard deck's values do not apply to the Cabo deck
    for rule_id in ("CAB-1", "CAB-6", "CAB-21", "CAB-40", "CAB-45", "CAB-V14", "CAB-K5", "GEN-3"):
        assert f'id="{rule_id}"' in html and cabo.rule_text(rule_id), rule_id


def test_an_unknown_preset_has_no_rules_page(client):
    for value in ("nope", "<script>", "x" * 5000, "cabo_2e\x00"):
        response = client.get("/rules/cabo", query_string={"preset": value})
        assert response.status_code == 404 and "<script>" not in response.get_data(as_text=True)
    assert 'id="presets"' in client.get("/rules/cabo").get_data(as_text=True)


# --- A snap nobody could name, and a layout down to one card at the reveal ----------------------------


def test_a_snap_without_naming_the_card_says_whether_it_matched(table, database):
    """CAB-6: the snapped card goes face up on the pile, but nobody may have noted it. On a named discard
    the table says whether it matched; on a discard never named it names the card or not, and says."""
    match, ana, ben, cy = table
    ana.ok(move="turn_up", card="5H")
    ana.ok(move="draw")
    ana.ok(move="replace", slot="1", out="9S")
    picker = ben.pick(move="snap", slot="2", target="Cy")
    assert 'id="snap-unrecorded"' in picker and "It matched" in picker and "It did not match" in picker
    screen = ben.ok(move="snap", slot="2", owner="Cy", matched="1")
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "snap", "seat": "Ben", "slot": 2,
                                                              "owner": "Cy", "matched": True}
    assert "Give Cy one of your cards" in screen
    ben.ok(move="give", slot="1")
    ben.ok(move="draw")
    ben.ok(move="replace", slot="2", out="unknown")  # the discard is not named
    picker = cy.pick(move="snap", slot="3")
    assert 'id="snap-unnamed"' in picker and 'name="matched" value="1"' in picker and "It matched" not in picker
    assert 'option value="unknown" selected' in picker
    screen = cy.ok(move="snap", slot="3", card="4D", matched="0")
    entry = store.entries(database, match.id)[-1]["entry"]
    assert entry == {"move": "snap", "seat": "Cy", "slot": 3, "card": "4D", "matched": False}
    assert "4♦" in rows_of(screen)  # CAB-K2: it went back, known to all, and Cy took a penalty card
    assert rows_of(screen).split('data-player="Cy"')[1].count('class="slot"') == 5
    # Neither the card nor the outcome: the referee asks for one of them (CAB-6), nothing is saved.
    before = entry_count(database, match.id)
    ben_view = ben.screen()
    assert "Snap!" in ben_view
    response = ben.post(move="snap", slot="4")
    assert response.status_code == 422 and "CAB-6" in text(response)
    assert entry_count(database, match.id) == before


def test_a_layout_snapped_down_to_one_card_is_revealed_with_one_card(app, database):
    """CAB-K1, CAB-44: Ben snaps three of his own cards away; at the reveal his form asks only for his
    place 4, and that one card is his whole score."""
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ana.ok(move="turn_up", card="4C")
    for place, (mine, his, out) in enumerate((("5S", "5H", "2D"), ("6S", "6H", "3D"), ("7S", "7H", "4D")), 1):
        ana.ok(move="draw")
        ana.ok(move="discard", card=mine)
        ben.ok(move="snap", slot=str(place), card=his)
        ben.ok(move="draw")
        ben.ok(move="discard", card=out)
    ana.ok(move="call")
    ben.ok(move="draw")
    screen = ben.ok(move="discard", card="8D")
    assert "Round 1: reveal" in screen
    snap = html.unescape(screen.split('id="snap-open">')[1].split("</p>")[0])  # CAB-6: open until a card is up
    assert "Snap open on the" in snap and "until the first card is turned up (CAB-6)" in snap
    form = screen.split('id="reveal-Ben"')[1].split("</form>")[0]
    assert re.search(r"Ben(?:'|&#39;)s place 4", form) and 'name="card1"' in form and 'name="card2"' not in form
    assert "place 1" not in form and "place 3" not in form
    ben.ok(move="reveal", card1="9S")
    screen = ana.ok(move="reveal", **{"for": "Ana"}, card1="AS", card2="2S", card3="3S", card4="4S")
    assert store.entries(database, match.id)[-2]["entry"] == {"move": "reveal", "seat": "Ben", "cards": ["9S"]}
    last = re.search(r'id="last-round">(.*?)</section>', screen, re.S).group(1)
    assert ">9<" in last and ">10<" in last and "Ben win" in last


def test_one_photo_of_a_layout_fills_the_reveal_and_one_tap_reveals_it(app, database):
    """At the reveal, a photo of the cards laid in a row, place by place, fills the player's reveal form
    (only the places still holding a card); one tap reveals them."""
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ana.ok(move="turn_up", card="4C")
    ana.ok(move="draw")
    ana.ok(move="discard", card="5S")
    ben.ok(move="snap", slot="2", card="5H")  # Ben's place 2 is gone: three cards left
    ben.ok(move="call")
    ana.ok(move="draw")
    screen = ana.ok(move="discard", card="8D")
    assert "Round 1: reveal" in screen
    block = ben.screen().split('id="reveal-Ben"')[1]
    assert "Scan with the camera" in block and 'name="for" value="Ben"' in block
    html = scan(ben, standard_row_photo(["9S", "KD", "2C"], seed=7, left=100, step=370, top=260), move="reveal", **{"for": "Ben"})
    assert html.lstrip().startswith('<div class="reveal-block scan-reveal" id="reveal-Ben">')
    assert "Read Ben's 3 cards, left to right: 9♠, K♦, 2♣" in html
    # cards strewn about, not in a row: the places are said to be a guess (it said "left to right")
    strewn = scan(ben, standard_row_photo(["9S", "KD", "2C"], seed=7, left=100, step=370, tops=[40, 500, 60]),
                  move="reveal", **{"for": "Ben"})
    assert "Ben's cards do not lie in a row: each place below is a guess." in html_text(strewn)
    assert "left to right" not in html_text(strewn).split("</p>")[0]
    form = html.split('class="stack reveal-form scan-reveal-form"')[1].split("</form>")[0]
    assert "Place 1" in form and "Place 3" in form and "Place 4" in form and "Place 2" not in form
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    for i, name in enumerate(re.findall(r'<select name="(card\d)"', form)):
        fields[name] = re.search(rf'<select name="{name}".*?<option value="(\w+)" selected', form, re.S).group(1)
    assert [fields[f"card{i}"] for i in (1, 2, 3)] == ["9S", "KD", "2C"]
    assert entry_count(database, match.id) == 7  # nothing entered until the player confirms
    response = ben.client.post(f"{ben.url}/entry", data=fields, headers=HX)
    assert response.status_code == 200, text(response)[:400]
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "reveal", "seat": "Ben",
                                                              "cards": ["9S", "KD", "2C"]}


def shown(html: str) -> str:
    """A reveal form without the notes drawn hidden for the row reversed (static/camera.js shows them)."""
    return re.sub(r'<span class="place-note[^"]*" data-reversed hidden>(?: <span class="tag warn">[^<]*</span>)?</span>',
                  "", html)


@pytest.mark.parametrize("gap", [0, 1, 3])
def test_a_photo_of_a_row_with_a_card_not_found_leaves_that_place_to_pick(app, database, gap):
    """Four standard cards in a row, one of them out of the photo: the others land in their own places,
    in order, and the missing place is left to pick (not filled by the card after it)."""
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ana.ok(move="turn_up", card="4C")
    ana.ok(move="draw")
    ana.ok(move="discard", card="5S")
    ben.ok(move="call")
    assert "Round 1: reveal" in ana.ok(move="draw") + ana.ok(move="discard", card="8D")
    row: list[str | None] = ["9S", "KD", "2C", "7H"]
    row[gap] = None
    html = scan(ana, standard_row_photo(row, seed=7, left=100, step=370, top=260), move="reveal", **{"for": "Ana"})
    assert "3 of the 4 cards read; pick the others below." in html
    form = html.split('class="stack reveal-form scan-reveal-form"')[1].split("</form>")[0]
    chosen = [re.search(r'<option value="(\w+)" selected', block) for block in form.split("<select")[1:]]
    assert [m.group(1) if m else None for m in chosen] == row
    assert shown(form).count("not read: pick it") == 1
    places = form.split('<label class="card-pick')[1:]
    # the note as the row would lie reversed ("Photo taken from across the table?"), drawn hidden beside it
    assert [("not read: pick it" in p.split("data-reversed")[1].split("</span></span>")[0]) for p in places] == \
        [i == len(row) - 1 - gap for i in range(len(row))]


def test_CAB_43_the_round_by_round_table_marks_a_total_of_exactly_100_dropping_to_50(app):
    """CAB-43: a round that brought Ana to exactly 100 says so, so that the column adds up: a mark in its cell
    and a note under the table (beside the score, "100 → 50" widened its column past a phone's width)."""
    from flask import render_template

    from referee.games import cabo as C
    from tests.games.cabo_helpers import ANA, BEN, match, score_round, with_totals

    high = {0: ("1", "2", "3", "4"), 1: ("0", "0", "1", "1"), 2: ("2", "3", "3", "4")}
    state = score_round(with_totals(match(3), (90, 20, 20)), high, caller=BEN)
    state = score_round(state, high, caller=BEN)
    view = C.view(state, ANA)
    with app.test_request_context("/"):
        html = render_template("games/cabo/_results.html", view=view, play_again_url="", face=lambda c, small=False: c,
                               explanation_words=lambda e: e)
    first = html.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert '<sup class="reset-mark" aria-hidden="true">*</sup><span class="visually-hidden"> (100 → 50)</span>' in first
    notes = html.split('class="small reset-notes"', 1)[1].split("</ul>", 1)[0]  # under the table, not widening it
    assert "* Round 1: Ana, exactly 100 (CAB-43):" in notes and "100 → 50" in notes


def test_CAB_1_the_places_are_explained_as_the_cards_lie_a_row_in_cabo_a_square_in_cambio(app, database):
    """Cabo deals a row (its places 1 to 4 left to right), Cambio a square (far row, near row); a note only
    this phone knows is said so to a screen reader, not only in a tooltip."""
    cabo = CaboPhone(app, store.create_match(database, "cabo", ["Ana", "Ben"]).id, "0")
    cabo.ok(move="turn_up", card="5")
    screen = cabo.ok(move="initial_peek", place1="1", place2="2", seen1="7", seen2="3")
    assert "numbered 1 to 4 left to right" in screen and "far row" not in screen
    assert re.search(r'<small class="mine"[^>]*><span class="visually-hidden">only you know this: </span>7</small>',
                     rows_of(screen))
    cambio = CaboPhone(app, store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO).id, "0")
    screen = cambio.ok(move="turn_up", card="5H")
    assert "1 2 (far row) / 3 4 (near row)" in screen and "numbered 1 to 4" not in screen


def html_text(fragment: str) -> str:
    return html.unescape(fragment)


def test_CAB_5_after_a_claim_left_a_gap_the_claim_picker_numbers_places_as_the_row_does(app, database):
    """Ana's good claim of places 1 and 3 left place 3 empty: her next claim picker offered "Place 1, 2, 3",
    its "Place 3" the gap (a tap did nothing) and place 4, holding a card, not at all. The picker offers the
    places that hold cards, by their own numbers."""
    match = store.create_match(database, "cabo", ["Ana", "Ben"], {})
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ana.ok(move="turn_up", card="5")
    p, q = (ana, ben) if "Your turn, Ana" in ana.screen() else (ben, ana)
    p.ok(move="draw", card="3")
    p.ok(move="match", slots="1,3", card1="3", card2="3", slot="1")
    q.ok(move="draw")
    q.ok(move="discard", card="7")
    p.ok(move="draw", card="2")
    claim = p.pick(move="match")
    places = re.findall(r">Place (\d)( ✓)?</a>", claim)
    assert [n for n, _ in places] == ["1", "2", "4"]
    claim = p.pick(move="match", slot="2,4")
    assert "Place 2 ✓" in claim and "Place 4 ✓" in claim and 'name="slots" value="2,4"' in claim


def test_CAB_5_a_failed_1st_edition_claim_names_the_card_it_discards(app, database):
    """Cabo 1st edition: the claim form asks, for a card in hand nobody else saw, which card goes onto the
    discard pile if the claim fails; named, the pile's top is that card on every phone and the history says
    it."""
    match = store.create_match(database, "cabo", ["Ana", "Ben"], {"matching_exchange": "no_penalty",
                                                                 "discard_taken_face_up": False})
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ana.ok(move="turn_up", card="5")
    turn = "Ana" if "Your turn, Ana" in ana.screen() else "Ben"
    p, q = (ana, ben) if turn == "Ana" else (ben, ana)
    p.ok(move="draw")
    claim = p.pick(move="match", slot="1,2")
    assert 'id="match-out"' in claim and 'name="out"' in claim and 'option value="unknown" selected' in claim
    p.ok(move="match", slots="1,2", card1="4", card2="9", slot="1", out="2")
    assert store.entries(database, match.id)[-1]["entry"]["out"] == "2"
    piles = re.search(r'<p class="piles">(.*?)</p>', q.screen(), re.S).group(1)
    assert 'Discard pile <span class="face small">2</span>' in piles
    history = text(q.client.get(f"{q.url}/history"))
    assert f"{turn} claims places 1, 2 match, showing 4, 9, and discards a 2." in history
    # the 2nd edition keeps the card in hand whatever happens: the form does not ask
    other = store.create_match(database, "cabo", ["Ana", "Ben"], {})
    first = CaboPhone(app, other.id, "0")
    first.ok(move="turn_up", card="5")
    mover = first if "Your turn, Ana" in first.screen() else CaboPhone(app, other.id, "1")
    mover.ok(move="draw")
    assert 'name="out"' not in mover.pick(move="match", slot="1,2")


def test_CAB_6_a_snap_that_matched_keeps_the_rank_of_the_discard_and_a_take_of_another_rank_is_refused(table, database):
    """Cambio: Ben snaps Cy's card onto Ana's 9♠ saying only that it matched. Every phone shows the pile's
    top as a 9 of a suit nobody recorded; the take offers the 9s; a take naming a 7 is refused (CAB-6), the
    9♥ is taken, and every phone's history names it (it lay face up)."""
    match, ana, ben, cy = table
    ana.ok(move="turn_up", card="5H")
    ana.ok(move="draw")
    ana.ok(move="replace", slot="1", out="9S")
    ben.ok(move="snap", slot="2", owner="Cy", matched="1")
    screen = ben.ok(move="give", slot="1")
    assert 'id="discard-rank"' in screen and "rank 9, suit not recorded" in screen
    assert "rank 9, suit not recorded" in cy.screen()
    assert "rank=9" in screen  # the take opens on the 9s
    picker = ben.pick(move="take_discard", field="card", rank="9")
    assert 'value="9H"' in picker and 'value="7H"' not in picker
    before = entry_count(database, match.id)
    response = ben.post(move="take_discard", card="7H")
    assert response.status_code == 422 and "CAB-6" in text(response)
    assert "The top of the discard pile is a 9" in text(response)
    assert entry_count(database, match.id) == before
    ben.ok(move="take_discard", card="9H")
    for phone in (ana, ben, cy):
        assert "Ben takes the top card of the discard pile, a 9♥." in text(phone.client.get(f"{phone.url}/history"))


def test_GEN_4_a_reveal_photo_that_differs_from_the_phone_s_own_first_look_is_marked(app, database):
    """Ben's first look saw a 7♥ in his place 3 (only he knows): his photo read K♦ there, so his reveal
    form says so beside that place before it becomes a dispute."""
    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    ana, ben = CaboPhone(app, match.id, "0"), CaboPhone(app, match.id, "1")
    ben.ok(move="initial_peek", place1="3", place2="4", seen1="7H", seen2="2C")
    ana.ok(move="turn_up", card="4C")
    ana.ok(move="draw")
    ana.ok(move="discard", card="5S")
    ben.ok(move="snap", slot="2", card="5H")
    ben.ok(move="call")
    ana.ok(move="draw")
    ana.ok(move="discard", card="8D")
    html = scan(ben, standard_row_photo(["9S", "KD", "2C"], seed=7, left=100, step=370, top=260), move="reveal",
                **{"for": "Ben"})
    form = html.split('class="stack reveal-form scan-reveal-form"')[1].split("</form>")[0]
    place3 = shown(form.split("Place 3")[1].split("Place 4")[0])
    assert "the photo says K♦; you noted 7♥" in place3
    assert "you noted" not in shown(form.split("Place 4")[1])  # the 2♣, as he saw it


def test_the_table_names_the_rule_set_the_family_chose(app, database):
    """A Cambio table says it plays Cambio, not "12 differ from Cabo's 2nd edition"; a switch set apart from
    the rule set is counted; a table on the game's own rules names them as before."""
    from referee.games.cabo_presets import BY_KEY

    def summary(rules):
        match = store.create_match(database, "cabo", ["Ana", "Ben"], rules)
        screen = CaboPhone(app, match.id, "0").screen()
        return html.unescape(re.search(r"rules-summary[^>]*>\s*<summary>(.*?)</summary>", screen, re.S).group(1))

    cambio = dict(BY_KEY["cambio_common"].rules)
    assert summary(cambio) == "House rules: Cambio (standard deck, common rules)"
    assert summary({**cambio, "snap_penalty": 2}) == \
        "House rules: Cambio (standard deck, common rules), 1 switch set otherwise"
    assert summary({**cambio, "deck": "standard", "red_king": 0}) == \
        "House rules: Cambio (standard deck, common rules), 2 switches set otherwise"  # nearest Cambio still
    assert summary({}) == "House rules: Cabo's 2nd edition"


def test_a_switch_that_does_not_apply_is_not_counted_against_the_rule_set(app, database):
    """Hebrew Wikipedia's rules with minutes set for a match played for rounds: the minutes do not apply,
    so the table plays Hebrew Wikipedia's rules as they are."""
    from referee.games.ratatat_presets import PRESETS

    seed = next(p for p in PRESETS if p.key == "seed")
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {**dict(seed.rules), "minutes": 45})
    screen = html.unescape(CaboPhone(app, match.id, "0").screen())
    assert "<summary>House rules: As told on Hebrew Wikipedia</summary>" in screen


def test_CAB_6_the_phone_for_everyone_names_who_gives_a_card_after_a_snap(app, database):
    """Ana and Ben play on the phone for everyone, Cy on his own phone. Cy snaps Ana's place 2 right: he owes
    Ana one of his cards. The phone for everyone, on Ben's turn, offers Cy's give in Cy's name (Cy's
    places), never as "your cards" / "My place", which Ben would read as his own."""
    match = store.create_match(database, "cabo", ["Ana", "Ben", "Cy"], CAMBIO)
    shared, cy = CaboPhone(app, match.id, "shared"), CaboPhone(app, match.id, "2")
    shared.ok(move="turn_up", card="4H")
    shared.ok(move="draw", **{"for": "Ana"})
    shared.ok(move="discard", card="5C", **{"for": "Ana"})
    cy.ok(move="snap", slot="2", owner="Ana", card="5D")
    screen = shared.screen().replace("&#39;", "'")
    assert "Cy gives Ana one of Cy's cards, face down, for Ana's place 2:" in screen
    assert "Cy's place 1" in screen and "My place" not in screen and "one of your cards" not in screen
    assert "Give Ana one of your cards" in cy.screen()  # Cy's own phone speaks to Cy


def test_CAB_2_the_phone_for_everyone_notes_the_first_look_of_each_player_it_plays_for(app, database):
    """Luca and Sofia play on the phone for everyone, Marco on his own phone. The phone for everyone offers a
    first look for each of the children (saying everyone looking at it sees the note), none for Marco, and
    stores Sofia's as hers (before, it offered none: the children's first looks could not be noted)."""
    match = store.create_match(database, "cabo", ["Marco", "Luca", "Sofia"], CAMBIO)
    CaboPhone(app, match.id, "0")
    shared = CaboPhone(app, match.id, "shared")
    shared.ok(move="turn_up", card="5H")
    screen = shared.screen().replace("&#39;", "'")
    assert "Note Luca's first look (optional: everyone looking at this phone sees it)" in screen
    assert "Note Sofia's first look" in screen and "Note Marco's first look" not in screen
    shared.ok(move="initial_peek", slots="3,4", seen1="2C", seen2="KH", **{"for": "Sofia"})
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "initial_peek", "seat": "Sofia", "slots": [3, 4],
                                                              "seen": ["2C", "KH"]}


def test_CAB_21_the_look_and_swap_form_offers_no_swap_with_the_callers_card(table, database):
    """After Ana calls, Ben's black king looks at one of her cards: the form offered "Swap them", refused
    (CAB-21) once chosen. With the caller's card it offers only to keep them, chosen, and says why."""
    match, ana, ben, cy = table
    ana.ok(move="turn_up", card="5H")
    ana.ok(move="call")
    ben.ok(move="draw")
    ben.ok(move="power", card="KS")
    form = html.unescape(ben.pick(move="look_swap", slot="1", target="Ana"))
    assert "Swap them" not in form and 'name="swap" value="0" required checked' in form
    assert "Ana called: nobody may swap the caller’s cards (CAB-21)." in form
    form = html.unescape(ben.pick(move="look_swap", slot="1", target="Cy"))
    assert "Swap them" in form and "Keep them" in form and "CAB-21" not in form
    ben.ok(move="look_swap", slot="1", target="Ana", target_slot="2", seen="unknown", target_seen="unknown", swap="0")


def test_GEN_3_a_look_and_swap_offers_no_card_whose_every_copy_the_table_has_seen(table, database):
    """K♣ lies face up on the discard pile, the deck's only one: Ana's look-and-swap (and a peek) offered it
    for what she saw, and took it without a word. What a player notes privately is offered from the cards
    still possible; the king she plays is out of them too."""
    match, ana, ben, cy = table
    ana.ok(move="turn_up", card="KC")
    ana.ok(move="draw")
    ana.ok(move="power", card="KS")
    form = ana.pick(move="look_swap", slot="3", target="Ben")
    for select in ('name="seen"', 'name="target_seen"'):
        options = form.split(select, 1)[1].split("</select>", 1)[0]
        assert 'value="QH"' in options and 'value="KC"' not in options and 'value="KS"' not in options
