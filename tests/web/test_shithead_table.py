"""A Shithead table through the Flask test client on a file database: the set-up by tapped chips, plays
by rank, pick-ups, burns and skips as reminders, an interrupt race between two phones, the pickers, the
correction page, and hostile fields — every screen a phone gets."""
from __future__ import annotations

import html
import re
import threading

import pytest
from werkzeug.datastructures import MultiDict

from referee import store

from .test_play import HX, Phone, entry_count, text

# Ana, Ben and Cy's face-up cards, and the 4 of clubs Ana starts with (SH-4).
FACEUP = {"Ana": ["9S", "KD", "AH"], "Ben": ["5H", "6S", "QD"], "Cy": ["JH", "8D", "10C"]}


class ShPhone(Phone):
    def post(self, version=None, key=None, **fields):
        data = {"version": self.version() if version is None else version, **fields}
        if key is not None:
            data["key"] = key
        return self.client.post(f"{self.url}/entry", data=data, headers=HX)

    def post_cards(self, cards: list[str], **fields):
        """A form with ticked chips: ``cards`` repeated, as a browser sends it."""
        data = MultiDict([("version", str(self.version())), *fields.items(), *(("cards", c) for c in cards)])
        return self.client.post(f"{self.url}/entry", data=data, headers=HX)

    def screen(self) -> str:
        return self.client.get(f"{self.url}/screen", headers=HX).get_data(as_text=True)

    def pick(self, **args) -> str:
        response = self.client.get(f"{self.url}/pick", query_string=args, headers=HX)
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        return response.get_data(as_text=True)


@pytest.fixture
def table(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {})
    return match, ShPhone(app, match.id, "0"), ShPhone(app, match.id, "1"), ShPhone(app, match.id, "2")


def set_up(ana, ben, cy):
    for phone, name in ((ana, "Ana"), (ben, "Ben"), (cy, "Cy")):
        response = phone.post_cards(FACEUP[name], move="faceup")
        assert response.status_code == 200, text(response)[:400]
    response = ana.post(move="start", card="4C")
    assert response.status_code == 200, text(response)[:400]
    return response


def test_set_up_by_tapping_chips_and_any_phone_may_enter_anothers_face_up_cards(table, database):
    match, ana, ben, cy = table
    screen = ana.screen()
    assert "Tap Ana's 3 face-up cards" in screen and "Enter Ben's face-up cards" in screen
    response = ana.post_cards(FACEUP["Ben"], move="faceup", **{"for": "Ben"})
    assert response.status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "faceup", "seat": "Ben", "cards": FACEUP["Ben"]}
    assert "Enter Ben's face-up cards" not in text(response)


def test_a_whole_turn_cycle_with_reminders_naming_their_rules(table, database):
    match, ana, ben, cy = table
    screen = text(set_up(ana, ben, cy))
    assert "Your turn, Ana" in screen and "SH-4" in screen and "must play the 4" in screen
    # the status line says so too ("Play anything" above the reminder said otherwise)
    assert "Play <strong>a 4 (the card declared, SH-4)</strong>" in screen and "Play <strong>anything" not in screen
    # The hand's ranks are offered; the 4 is the only legal first play (SH-V17).
    assert re.search(r'move=play&amp;seat=Ana&amp;rank=4"', screen)
    picker = ana.pick(move="play", seat="Ana", rank="4")
    assert 'value="4C"' in picker and 'value="4S"' in picker  # any 4 the hand may hold, the declared one first
    assert "rank=5" not in screen  # SH-V17: the starter's first play includes the declared card
    response = ana.post_cards(["4C"], move="play", rank="4")
    assert response.status_code == 200, text(response)[:400]
    screen = text(response)
    assert "Ben's turn" in screen and "draw 1" in screen and "SH-15" in screen
    # Ben plays an 8: Cy is skipped (SH-34).
    response = ben.post_cards(["8S"], move="play")
    assert response.status_code == 200, text(response)[:400]
    screen = text(response)
    assert "Skipped: Cy" in screen and "Ana's turn" in screen
    # Ana picks up the pile: its cards are known in her hand (SH-K4).
    response = ana.post(move="pickup")
    assert response.status_code == 200
    screen = text(response)
    assert "picks up 2 cards" in screen
    ana_row = re.search(r'data-player="Ana".*?</div>\s*<p class="hand">(.*?)</p>', screen, re.S).group(1)
    assert "known" in ana_row and "4♣" in ana_row and "8♠" in ana_row
    assert entry_count(database, match.id) == 7


def test_a_ten_burns_and_the_burner_plays_again(table, database):
    match, ana, ben, cy = table
    set_up(ana, ben, cy)
    ana.post_cards(["4C"], move="play")
    response = ben.post_cards(["10H"], move="play")
    assert response.status_code == 200, text(response)[:400]
    screen = text(response)
    assert "Burned" in screen and "SH-32" in screen and "Ben plays again" in screen
    assert "Your turn, Ben" in screen and "Play <strong>anything</strong>" in screen


def test_two_phones_interrupt_at_once_one_wins_the_other_is_told_why(table, database):
    match, ana, ben, cy = table
    set_up(ana, ben, cy)
    ana.post_cards(["4C"], move="play")
    ben.post_cards(["7S", "7H"], move="play")   # two 7s from the hand
    cy.post_cards(["7D"], move="play")          # a third 7 (SH-13: a 7 goes on a 7)
    version = ana.version()
    assert "Interrupt: 7♣ makes four 7s" in ben.screen()  # Ben may hold the last 7 (SH-40, by counts)
    assert "Interrupt" not in cy.screen()  # Cy played the last 7: only a card just drawn is added (SH-41)
    results = {}

    def press(name, phone, **fields):
        results[name] = phone.post(version=version, **fields)

    racers = [threading.Thread(target=press, args=("ana", ana), kwargs={"move": "pickup"}),
              threading.Thread(target=press, args=("ben", ben), kwargs={"move": "interrupt", "cards": "7C", "rank": "7"})]
    for t in racers:
        t.start()
    for t in racers:
        t.join()
    codes = sorted(r.status_code for r in results.values())
    assert codes == [200, 409], {k: (r.status_code, text(r)[:300]) for k, r in results.items()}
    loser = next(r for r in results.values() if r.status_code == 409)
    assert "Someone else entered something first:" in text(loser)
    assert entry_count(database, match.id) == version + 1
    assert "Someone else entered something first: " in text(loser) and "7♣.." not in text(loser)


def test_every_picker_and_the_correction_page_render(table, database):
    match, ana, ben, cy = table
    assert "These are Ana's face-up cards" in ana.pick(move="faceup", seat="Ana")
    ana.post_cards(FACEUP["Ana"], move="faceup")
    swap = ana.pick(move="swap", seat="Ana")
    assert 'name="out" value="AH"' in swap and 'name="card" value="2C"' in swap
    response = ana.post(move="swap", card="2C", out="AH")
    assert response.status_code == 200, text(response)[:400]
    ana_row = re.search(r'data-player="Ana".*?<p class="table-cards">(.*?)</p>', text(response), re.S).group(1)
    assert "2♣" in ana_row and "A♥" not in ana_row
    for name in ("Ben", "Cy"):
        ben.post_cards(FACEUP[name], move="faceup", **{"for": name})
    assert "lowest card" in ana.pick(move="start", seat="Ana")
    ana.post(move="start", card="4C")
    stale = ana.pick(move="interrupt", seat="Ana", rank="7")
    assert "no longer open" in stale
    page = ana.client.get(f"{ana.url}/correct/1").get_data(as_text=True)
    assert 'name="c_card" value="2C" required checked' in page and 'name="c_out" value="AH" required checked' in page
    response = ana.post(move="correct", target_entry="1", reason="it was the 3", c_move="swap", c_for="Ana",
                        c_card="3C", c_out="AH")
    assert response.status_code == 200, text(response)[:400]
    assert store.entries(database, match.id)[-1]["entry"]["entry"] == {"move": "swap", "seat": "Ana", "card": "3C",
                                                                       "out": "AH"}
    page = ana.client.get(f"{ana.url}/correct/0").get_data(as_text=True)
    assert 'name="c_card3" value="AH" required checked' in page
    assert "Not played" not in page  # face-up cards are laid out, not played: none is left out


def test_a_play_corrected_to_another_rank_and_one_more_card(table, database):
    """The correction page of a play carries no rank of its own (the cards say it; only a joker's is
    chosen, SH-13), and has room for a card left out of the play."""
    match, ana, ben, cy = table
    set_up(ana, ben, cy)
    assert ana.post_cards(["4C"], move="play", rank="4").status_code == 200
    assert ben.post_cards(["8S"], move="play", rank="8").status_code == 200
    page = ben.client.get(f"{ben.url}/correct/5").get_data(as_text=True)
    assert 'name="c_rank"' not in page and 'name="c_card1" value="8S" required checked' in page
    assert 'name="c_card2" value="none" checked' in page
    response = ben.post(move="correct", target_entry="5", reason="two nines", c_move="play", c_for="Ben",
                        c_card1="9H", c_card2="9D")
    assert response.status_code == 200, text(response)[:400]
    assert store.entries(database, match.id)[-1]["entry"]["entry"] == {"move": "play", "seat": "Ben",
                                                                       "cards": ["9H", "9D"]}
    # corrected again from the page: the second nine now offers to be left out (only the first card cannot)
    page = ben.client.get(f"{ben.url}/correct/5").get_data(as_text=True)
    assert 'name="c_card2" value="none"' in page and 'name="c_card1" value="none"' not in page
    response = ben.post(move="correct", target_entry="5", reason="just the nine", c_move="play", c_for="Ben",
                        c_card1="9H", c_card2="none")
    assert response.status_code == 200, text(response)[:400]
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["cards"] == ["9H"]


def test_hostile_fields_get_a_message_not_a_500(table, database):
    match, ana, ben, cy = table
    for fields in ({"move": "faceup", "cards": "X" * 5000}, {"move": "faceup", "cards": ",".join(["2C"] * 40)},
                   {"move": "play", "cards": "\x00"}, {"move": "faceup", "card1": "ZZ", "card2": ""},
                   {"move": "faceup", "for": "Nobody"}, {"move": "interrupt", "rank": "99", "cards": "7C"},
                   {"move": "start", "card": "<script>"}):
        response = ana.post(**fields)
        assert 400 <= response.status_code < 500, (fields, response.status_code)
        assert "<script>" not in text(response)
    assert entry_count(database, match.id) == 0


def test_one_photo_of_the_face_up_cards_fills_the_set_up_form_to_confirm(table, database):
    import io

    from .cardphotos import standard_row_photo

    match, ana, ben, cy = table
    photo = standard_row_photo(FACEUP["Ana"])
    response = ana.client.post(f"{ana.url}/scan", headers=HX, content_type="multipart/form-data",
                               data={"move": "faceup", "for": "Ana", "photo": (io.BytesIO(photo), "row.jpg")})
    assert response.status_code == 200, text(response)[:400]
    html = text(response)
    assert 'id="faceup-Ana"' in html and "Read Ana's 3 face-up cards: 9♠, K♦, A♥" in html
    checked = re.findall(r'name="cards" value="(\w+)" checked', html)
    assert checked == sorted(FACEUP["Ana"], key=lambda c: [d for d in ana_deck()].index(c))
    assert entry_count(database, match.id) == 0  # nothing entered until the player confirms
    response = ana.post_cards(checked, move="faceup", **{"for": "Ana"})
    assert response.status_code == 200
    assert sorted(store.entries(database, match.id)[-1]["entry"]["cards"]) == sorted(FACEUP["Ana"])


def ana_deck() -> list[str]:
    from referee.games import shithead

    return shithead.cards(shithead.new_match(("Ana", "Ben", "Cy")))


def test_one_phone_for_everyone_sets_up_plays_and_interrupts_for_each_player(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {})
    shared = ShPhone(app, match.id, "shared")
    screen = shared.screen()
    for name in ("Ana", "Ben", "Cy"):  # every player's set-up form is open on the one phone
        assert f'data-faceup-for="{name}"' in screen and f"Enter {name}'s face-up cards" not in screen
        assert shared.post_cards(FACEUP[name], move="faceup", **{"for": name}).status_code == 200
    screen = shared.screen()
    assert "Ana starts: the lowest card" in screen and "Cy starts: the lowest card" in screen
    assert shared.post(move="start", card="4C", **{"for": "Ana"}).status_code == 200
    assert shared.post_cards(["4C"], move="play").status_code == 200  # for whoever's turn it is: Ana
    assert shared.post_cards(["7S", "7H"], move="play").status_code == 200  # Ben
    response = shared.post_cards(["7D"], move="play")  # Cy
    assert response.status_code == 200
    assert "Interrupt for Ben: 7♣ makes four 7s" in text(response)
    response = shared.post(move="interrupt", cards="7C", rank="7", **{"for": "Ben"})
    assert response.status_code == 200, text(response)[:400]
    assert "Ben interrupts: Ana&#39;s turn is lost" in text(response) and "Your turn, Ben" in text(response)
    log = store.entries(database, match.id)
    assert [e["entry"]["seat"] for e in log[-4:]] == ["Ana", "Ben", "Cy", "Ben"]
    assert all(e["seat"] is None for e in log)  # made on the shared phone, for each player


def test_cards_that_do_not_fit_are_entered_refused_and_let_stand(table, database):
    """GEN-5 at the table: Ben put a 5 on Ana's king. His phone offers the entry (every card), the referee
    refuses it with its rule (SH-12), and the override lets it stand, recorded with why."""
    match, ana, ben, cy = table
    set_up(ana, ben, cy)
    assert ana.post_cards(["4C"], move="play").status_code == 200
    assert ben.post_cards(["KS"], move="play").status_code == 200
    assert "A card went on the pile where it does not fit…" in text(cy.client.get(f"{cy.url}/screen", headers=HX))
    assert "A card went on the pile where it does not fit…" not in text(ben.client.get(f"{ben.url}/screen", headers=HX))
    picker = cy.pick(move="play_any", seat="Cy")
    assert 'name="cards" value="5S"' in picker and 'name="cards" value="KH"' in picker
    refused = cy.post_cards(["5S"], move="play")
    assert refused.status_code == 422 and "Refused (SH-12)" in text(refused)
    entry = re.search(r'name="entry" value="([^"]*)"', refused.get_data(as_text=True)).group(1)
    before = entry_count(database, match.id)
    answer = cy.post(move="override", rule="SH-12", entry=html.unescape(entry), reason="we let the 5 stay")
    assert answer.status_code == 200, text(answer)[:400]
    assert entry_count(database, match.id) == before + 1
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["cards"] == ["5S"]


def test_the_starters_picker_offers_natural_cards_not_yet_face_up(table):
    """SH-4: the lowest natural card is shown to start; a 2, 3 or 10 is not natural, and a card lying face
    up on the table (one deck) is not in anyone's hand."""
    match, ana, ben, cy = table
    for phone, name in ((ana, "Ana"), (ben, "Ben"), (cy, "Cy")):
        assert phone.post_cards(FACEUP[name], move="faceup").status_code == 200
    picker = ana.pick(move="start", seat="Ana")
    assert 'value="4C"' in picker and 'value="KS"' in picker
    for card in ("2C", "3D", "10D", "5H", "QD", "JOKER"):
        assert f'value="{card}"' not in picker, card


def test_SH_4_a_wrong_claim_to_start_is_taken_back_from_any_seated_phone(table, database):
    """Ben claims the lowest card (an 8♠) while Ana holds the 4♣: the undo was only on Ben's phone, and Ana's
    one way back was a correction from the history with a reason. Who starts is the whole table's matter:
    Ana's phone takes it back; a turn in the middle stays its player's to undo."""
    match, ana, ben, cy = table
    for phone, name in ((ana, "Ana"), (ben, "Ben"), (cy, "Cy")):
        assert phone.post_cards(FACEUP[name], move="faceup").status_code == 200
    assert ben.post(move="start", card="8S").status_code == 200
    assert 'name="move" value="undo"' in ana.screen()
    response = ana.post(move="undo")
    assert response.status_code == 200, text(response)[:300]
    assert [e["entry"]["move"] for e in store.entries(database, match.id)][-2:] == ["start", "undo"]
    assert ana.post(move="start", card="4C").status_code == 200
    assert ana.post_cards(["4C"], move="play", rank="4").status_code == 200
    assert 'name="move" value="undo"' not in ben.screen()  # Ana's play: hers to undo
    assert ben.post(move="undo").status_code == 403


def test_SH_41_only_the_player_who_drew_is_offered_to_add_the_card(table, database):
    """SH-41: after Ana's 4, only Ana's phone (or the shared phone) offers "I drew another 4: add it"; Ben's
    phone offers nothing that would be entered as Ben's."""
    match, ana, ben, cy = table
    set_up(ana, ben, cy)
    assert ana.post_cards(["4C"], move="play", rank="4").status_code == 200
    assert "I drew another 4: add it" in ana.screen()
    for phone in (ben, cy):
        assert "drew another" not in phone.screen()


def test_the_house_rules_count_only_the_switches_it_lists(app, database):
    """A face-up card that cannot go (SH-V21) does not apply when face-up cards of one rank go together: it is
    neither listed nor counted among the switches that differ."""
    def summary(rules: dict) -> str:
        match = store.create_match(database, "shithead", ["Ana", "Ben"], rules)
        return html.unescape(ShPhone(app, match.id, "0").screen()).split('class="rules-summary"', 1)[1].split(
            "</details>", 1)[0]

    said = summary({"faceup_play": "same_rank_set", "faceup_fail_takes_card": True, "jokers": True})
    assert "House rules: Common rules (pagat, Wikipedia), 1 switch set otherwise</summary>" in said  # the jokers
    assert "A face-up card that cannot go" not in said
    said = summary({"jokers": True, "nine_same_suit": True})
    assert said.count('class="changed"') == 2 and "House rules: 2 differ" in said
    said = summary({"faceup_play": "same_rank_set", "faceup_fail_takes_card": False})  # the common rules, named
    assert "House rules: Common rules (pagat, Wikipedia)</summary>" in said
    assert "A face-up card that cannot go" not in said


def _finished_with_shithead(players: tuple[str, ...], shithead: int):
    """A Shithead match over, ``shithead`` left holding cards (built by the engine, as a replay gives it)."""
    from referee.games import shithead as sh
    from referee.games.shithead_state import Seat

    s = sh.new_match(players)
    n = len(players)
    seats = tuple(Seat(2 if i == shithead else 1, (), (), 0, True) for i in range(n))
    first = (shithead + 1) % n
    s = s.__class__(**{**{f: getattr(s, f) for f in s.__dataclass_fields__}, "phase": "play", "turn": first,
                       "starter": first, "first_played": True, "stock": 0, "seats": seats})
    order = [(first + k) % n for k in range(n) if (first + k) % n != shithead]
    for seat, card in zip(order, ("5H", "6H", "7H")):
        s, _ = sh.apply(s, sh.Play(seat, (card,)))
    assert s.over and s.history[-1].shithead == shithead
    return s


def test_SH_53_play_again_is_dealt_by_the_shithead(app, database, monkeypatch):
    """The new match of "Play again" is dealt by the last game's Shithead (SH-53), not by the first player
    again: the screen names Ben the dealer, and the transcript says so (a replay deals as the table did)."""
    from referee import tables
    from referee.games.log import Log
    from referee.games import shithead as sh

    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {})
    ana = ShPhone(app, match.id, "0")
    real = store.state_at
    over = _finished_with_shithead(("Ana", "Ben", "Cy"), 1)
    with monkeypatch.context() as patch:  # the finished match, without typing a whole game's entries
        patch.setattr(store, "state_at", lambda db, m, *a, **k: Log.start(sh, over) if m.id == match.id
                      else real(db, m, *a, **k))
        response = ana.client.post(f"/m/{match.id}/again", headers={"Origin": "http://localhost"})
    assert response.status_code == 303
    rematch = store.find_rematch(database, match.id)
    assert tables.start(rematch).state.dealer == 1
    screen = ana.client.get(f"/m/{rematch.id}").get_data(as_text=True)
    assert "Ben deals everyone 3 cards face down" in screen
    transcript = ana.client.get(f"/m/{rematch.id}/transcript.json").get_json()
    assert transcript["dealer"] == "Ben"
    # the next to ask gets the same rematch, dealt the same way
    ben = ShPhone(app, match.id, "1")
    with monkeypatch.context() as patch:
        patch.setattr(store, "state_at", lambda db, m, *a, **k: Log.start(sh, over) if m.id == match.id
                      else real(db, m, *a, **k))
        again = ben.client.post(f"/m/{match.id}/again", headers={"Origin": "http://localhost"})
    assert again.headers["Location"].endswith(rematch.id) and store.get_match(database, rematch.id).dealer == 1


def test_SH_18_the_history_says_a_failed_face_up_play_as_what_happened(app):
    """A face-up card that does not beat the pile: its history entry says the card, why it could not go
    and that it went into the hand with the pile — in the phone's language — not "Ana plays 5♥."."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "games"))
    from shithead_helpers import ARI, BEA, table as laid_out

    from referee import i18n
    from referee.games import shithead as sh
    from referee.games.log import Log
    from referee.games.shithead_state import Seat
    from referee.views.play import entry_words, last_standing

    before = laid_out(3, stock=0, turn=ARI, plays=[(BEA, "KH")], seats={ARI: Seat(0, (), ("5H", "6S", "9D"), 3, True)})
    entry = {"move": "play", "seat": "Ari", "cards": ["5H"]}
    log, _ = Log.start(sh, before).feed(sh.parse_move(entry, before.players), 0)
    assert log.states_before() == {0: before}
    said = {}
    for language in ("en", "it", "he"):
        with app.test_request_context(headers={"Cookie": f"{i18n.COOKIE}={language}"}):
            said[language] = str(entry_words(log, entry, log.states_before()[0]))
            assert str(entry_words(log, entry)) != said[language]  # without the state before: as entered
    assert said["en"] == ("Ari plays the face-up 5♥, which cannot go on the K (SH-12), so Ari picks up the pile and "
                          "the 5♥ (SH-18).")
    for language in ("it", "he"):
        assert "SH-12" in said[language] and "SH-18" in said[language] and said[language] != said["en"]
    with app.test_request_context():
        assert str(last_standing(log)) == said["en"]  # the undo button names it alike


def _correct_says(phone, number: int) -> str:
    """What the correction page of entry ``number`` says the entry was ("It says: ...")."""
    response = phone.client.get(f"{phone.url}/correct/{number}")
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    found = re.search(r"<strong>(.*?)</strong>", response.get_data(as_text=True), re.S)
    return html.unescape(found.group(1))


def _history_says(phone, number: int) -> str:
    page = phone.client.get(f"{phone.url}/history").get_data(as_text=True)
    row = re.search(rf'<li[^>]*id="e{number}".*?</li>', page, re.S)
    assert row is not None, page[:300]
    return html.unescape(re.sub(r"<[^>]+>", "", row.group(0)))


def test_SH_18_the_correction_page_says_a_failed_face_up_play_as_what_happened(app, database):
    """Dov, playing from his face-up cards, lifts a 4 onto an 8: it cannot go, so he picks up the pile and the
    4 (SH-18). The page where a player corrects that entry says so — as the history does, in the phone's
    language — not "Dov plays 4♣.", and still after a restart, when the match is opened from a snapshot
    taken after that entry."""
    import json
    from pathlib import Path

    from referee import i18n, tables

    example = json.loads((Path(__file__).parents[2] / "docs" / "examples" / "shithead-facedown.json").read_text())
    match = store.create_match(database, "shithead", example["players"], {})
    for version, entry in enumerate(example["entries"][:27]):  # to Ari's turn, every hand but Ari's empty
        tables.append(database, match.id, version, entry, None)
    ari, bea, dov, eve = (ShPhone(app, match.id, str(seat)) for seat in (0, 1, 3, 4))
    for phone, card in ((ari, "6C"), (bea, "8C"), (dov, "4C")):  # Bea's 8 skips Cal (SH-34)
        response = phone.post(move="play", cards=card)
        assert response.status_code == 200, text(response)[:400]
    failed = 29
    said = ("Dov plays the face-up 4♣, which cannot go on the 8 (SH-34), so Dov picks up the pile and the 4♣ "
            "(SH-18).")
    assert _correct_says(dov, failed) == said
    assert said in _history_says(dov, failed)
    last = re.search(r'id="last-entry">(.*?)</p>', eve.screen(), re.S).group(1)  # what a screen reader hears
    assert html.unescape(last) == f"Last entry: {said}"
    in_language = {}
    for language in ("it", "he"):
        dov.client.set_cookie(i18n.COOKIE, language)
        in_language[language] = _correct_says(dov, failed)
        assert "SH-18" in in_language[language] and "SH-34" in in_language[language]
        assert in_language[language] != said and in_language[language] in _history_says(dov, failed)
    dov.client.set_cookie(i18n.COOKIE, "en")
    for phone, card in ((eve, "8H"), (bea, "8D")):  # the 32nd entry: the store keeps a snapshot of the match
        response = phone.post(move="play", cards=card)
        assert response.status_code == 200, text(response)[:400]
    assert store.get_match(database, match.id).version % store.SNAPSHOT_EVERY == 0
    store.state_cache.clear()  # a restart: the match opens from that snapshot
    assert _correct_says(dov, failed) == said
    assert said in _history_says(dov, failed)
    dov.client.set_cookie(i18n.COOKIE, "he")
    assert _correct_says(dov, failed) == in_language["he"]


def test_SH_K5_the_one_card_a_rank_can_be_is_said_not_ticked(app, database):
    """Three queens lie face up: a queen Ben plays from his hand can only be the fourth. The picker says so
    and its button plays it (no tick box that a tap, as told, would clear); a play posted with no card
    ticked is told that no card was chosen, not that passing is not allowed."""
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {})
    ana, ben, cy = ShPhone(app, match.id, "0"), ShPhone(app, match.id, "1"), ShPhone(app, match.id, "2")
    for phone, cards in ((ana, ["9S", "QH", "AH"]), (ben, ["5H", "6S", "QS"]), (cy, ["JH", "QC", "10C"])):
        assert phone.post_cards(cards, move="faceup").status_code == 200
    assert ana.post(move="start", card="4C").status_code == 200
    assert ana.post_cards(["4C"], move="play", rank="4").status_code == 200
    picker = ben.pick(move="play", seat="Ben", rank="Q")
    assert 'name="cards" value="QD"' in picker and 'type="checkbox"' not in picker
    assert "The one Queen it can be:" in picker and ">Play it<" in picker
    refused = ben.post(move="play", rank="Q")
    said = html.unescape(text(refused))
    assert refused.status_code == 400 and "No card was chosen: tap the card or cards played" in said
    assert "Passing is not allowed" not in said
    assert ben.post_cards(["QD"], move="play", rank="Q").status_code == 200


def test_SH_K7_a_start_claimed_over_a_lower_face_up_card_says_how_to_let_the_right_player_start(app, database):
    """Ana claims the start with a 6 while Ben shows a 5 face up, at a table where face-up cards count
    (SH-V19): flagged (SH-K7, Ben starts), and the dispute says that deciding it leaves Ana starting: the claim
    is undone, by any seated phone, and Ben claims (the flag said "Ben starts" and nothing made it happen)."""
    match = store.create_match(database, "shithead", ["Ana", "Ben", "Cy"], {"start_rank_zones": "hand_and_faceup"})
    ana, ben, cy = (ShPhone(app, match.id, str(i)) for i in range(3))
    for phone, name in ((ana, "Ana"), (ben, "Ben"), (cy, "Cy")):
        assert phone.post_cards(FACEUP[name], move="faceup").status_code == 200
    screen = text(ana.post(move="start", card="6C"))
    assert "Flagged (SH-K7)" in screen and "Ben starts" in screen
    assert "Deciding this dispute does not change who starts: to let the player with the lower card start, undo the " \
           "claim (any seated phone may), and that player claims." in html.unescape(screen)
    assert "Undo" in text(ben.client.get(f"/m/{match.id}/screen", headers=HX))  # Ben's phone may take it back


@pytest.mark.parametrize("players, said", [(("Ana", "Ben", "Cy"), True), (("Ana", "Ben"), False)])
def test_SH_V5_a_reversed_direction_is_said_only_where_it_changes_who_is_next(app, database, players, said):
    """A 9 reverses play (SH-V5): with three players the screen says play goes the other way; with two it
    would change nothing, and it is not said (SH-A12)."""
    match = store.create_match(database, "shithead", list(players), {"nine_reverse": "strong"})
    phones = [ShPhone(app, match.id, str(i)) for i in range(len(players))]
    for phone, name in zip(phones, players):
        assert phone.post_cards(FACEUP[name], move="faceup").status_code == 200
    assert phones[0].post(move="start", card="4C").status_code == 200
    assert phones[0].post_cards(["4C"], move="play").status_code == 200
    screen = html.unescape(text(phones[1].post_cards(["9H"], move="play")))
    assert "Next:" in screen
    assert ("(play goes the other way)" in screen) is said
