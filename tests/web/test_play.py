"""The table: entries posted from phones, rulings, stale and duplicate submits, flags, undo,
corrections, history and the transcript download — through the Flask test client on a file database."""
from __future__ import annotations

import html
import json
import os
import re
import threading
from html.parser import HTMLParser

import pytest

from referee import create_app, i18n, store, tables
from referee.transcript import check, loads

HX = {"Origin": "http://localhost", "HX-Request": "true"}


class Phone:
    """One phone at the table: its own cookies (seat) and the version its screen shows."""

    def __init__(self, app, match_id: str, seat: str | None):
        self.client = app.test_client()
        self.match_id = match_id
        self.url = f"/m/{match_id}"
        if seat is not None:
            assert self.client.post(f"{self.url}/seat", data={"seat": seat}, headers=HX).status_code == 303

    def version(self) -> int:
        html = self.client.get(f"{self.url}/screen").get_data(as_text=True)
        return int(re.search(r'data-version="(\d+)"', html).group(1))

    def post(self, version: int | None = None, key: str | None = None, **fields):
        data = {"version": self.version() if version is None else version, **fields}
        if key is not None:
            data["key"] = key
        return self.client.post(f"{self.url}/entry", data=data, headers=HX)


@pytest.fixture
def table(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    return match, Phone(app, match.id, "0"), Phone(app, match.id, "1"), Phone(app, match.id, "2")


def entry_count(database, match_id):
    return database.conn.execute("SELECT count(*) FROM entries WHERE match_id = ?", (match_id,)).fetchone()[0]


def text(response) -> str:
    return response.get_data(as_text=True)


def test_a_whole_round_scored_and_exported(table, database, client):
    match, ana, ben, cy = table
    for phone, fields in [
        (ana, {"move": "turn_up", "card": "5"}),
        (ana, {"move": "draw"}), (ana, {"move": "replace", "slot": "2", "out": "8"}),
        (ben, {"move": "draw"}), (ben, {"move": "power", "card": "SWAP"}),
        (ben, {"move": "swap", "slot": "1", "target": "Ana", "target_slot": "3"}),
        (ben, {"move": "call"}),
        (cy, {"move": "draw"}), (cy, {"move": "replace", "slot": "4", "out": "9"}),
        (ana, {"move": "draw"}), (ana, {"move": "discard", "card": "7"}),
        (ana, {"move": "reveal", "for": "Ana", "card1": "0", "card2": "4", "card3": "2", "card4": "1"}),
        (cy, {"move": "reveal", "for": "Ben", "card1": "3", "card2": "PEEK", "card3": "5", "card4": "9"}),
        (cy, {"move": "reveal", "for": "Cy", "card1": "6", "card2": "6", "card3": "1", "card4": "SWAP"}),
        (ben, {"move": "reveal_draw", "for": "Ben", "slot": "2", "card": "2"}),
        (ben, {"move": "reveal_draw", "for": "Cy", "slot": "4", "card": "DRAW2"}),
        (ben, {"move": "reveal_draw", "for": "Cy", "slot": "4", "card": "3"}),
    ]:
        response = phone.post(**fields)
        assert response.status_code == 200, (fields, text(response)[:500])
    screen = text(response)
    assert "Match over" in screen and "Ana wins the match with 7" in screen
    assert re.search(r"Ben.*?<td class=\"num\">19</td>", screen, re.S)
    # The download replays to the same rulings and scores.
    download = client.get(f"/m/{match.id}/transcript.json")
    assert download.status_code == 200 and "attachment" in download.headers["Content-Disposition"]
    _, _, report = check(loads(download.get_data(as_text=True)))
    assert report["ok"] and report["result"]["totals"] == {"Ana": 7, "Ben": 19, "Cy": 16}
    assert entry_count(database, match.id) == 17


def test_illegal_entry_is_422_with_its_rule_and_nothing_saved(table, database):
    match, ana, ben, _ = table
    assert ana.post(move="turn_up", card="5").status_code == 200
    before = entry_count(database, match.id)
    response = ben.post(move="draw")
    assert response.status_code == 422
    assert "Refused (GEN-7)" in text(response) and "Ana&#39;s turn" in text(response)
    assert "Play goes clockwise" in text(response)
    assert "Nothing was saved" in text(response)
    assert entry_count(database, match.id) == before


def test_ruling_can_be_overridden_and_the_override_is_recorded(table, database):
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    refused = ben.post(move="draw")
    form = re.search(r'name="entry" value="([^"]+)"', text(refused)).group(1)
    entry = json.loads(form.replace("&#34;", '"').replace("&quot;", '"'))
    response = ben.post(move="override", rule="GEN-7", entry=json.dumps(entry), reason="Ana let Ben go first")
    assert response.status_code == 200
    log = store.entries(database, match.id)
    assert log[-1]["entry"]["move"] == "override" and log[-1]["entry"]["reason"] == "Ana let Ben go first"
    assert log[-1]["seat"] == 1


def test_stale_version_is_409_with_the_fresh_screen(table, database):
    match, ana, ben, _ = table
    ben.post(move="turn_up", card="5")
    response = ana.post(version=0, move="draw")
    assert response.status_code == 409
    assert "Someone else entered something first" in text(response)
    assert 'data-version="1"' in text(response)
    assert entry_count(database, match.id) == 1


def test_duplicate_submit_is_applied_once(table, database):
    match, ana, _, _ = table
    first = ana.post(version=0, key="tap-1", move="turn_up", card="5")
    again = ana.post(version=0, key="tap-1", move="turn_up", card="5")
    assert first.status_code == again.status_code == 200
    assert entry_count(database, match.id) == 1


def test_two_phones_at_once_exactly_one_wins(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    codes = []
    barrier = threading.Barrier(2)

    def tap(phone, card):
        barrier.wait()
        codes.append(phone.post(version=0, move="turn_up", card=card).status_code)

    threads = [threading.Thread(target=tap, args=(p, c)) for p, c in ((ana, "3"), (ben, "4"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(codes) == [200, 409]
    assert entry_count(database, match.id) == 1


def test_spectator_cannot_enter_anything(app, table, database):
    match, ana, _, _ = table
    watcher = Phone(app, match.id, "watch")
    response = watcher.post(move="turn_up", card="5")
    assert response.status_code == 403 and entry_count(database, match.id) == 0
    assert "You are watching" in watcher.client.get(f"/m/{match.id}/screen").get_data(as_text=True)
    assert watcher.client.get(f"/m/{match.id}/pick?move=turn_up&field=card").status_code == 403


def test_a_phone_enters_only_for_its_own_seat(table, database):
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    # Ben's phone cannot draw for Ana: its entries are Ben's.
    assert ben.post(move="draw").status_code == 422
    assert entry_count(database, match.id) == 1


def test_shared_device_enters_for_whoever_is_to_act(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    shared = Phone(app, match.id, "shared")
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "discard", "card": "3"},
                   {"move": "draw"}, {"move": "discard", "card": "4"}):
        assert shared.post(**fields).status_code == 200
    seats = [e["entry"].get("seat") for e in store.entries(database, match.id)]
    assert seats == [None, "Ana", "Ana", "Ben", "Ben"]


@pytest.mark.parametrize("data,status", [
    ({"move": "draw"}, 400),                                   # no version
    ({"version": "x", "move": "draw"}, 400),
    ({"version": "0"}, 400),                                   # no move
    ({"version": "0", "move": "fly"}, 400),
    ({"version": "0", "move": "replace", "slot": "two"}, 400),
    ({"version": "0", "move": "replace", "slot": "9"}, 400),
    ({"version": "0", "move": "turn_up", "card": "<script>"}, 400),
    ({"version": "0", "move": "override", "rule": "GEN-7", "entry": "{"}, 400),
    ({"version": "0", "move": "correct", "target_entry": "0", "entry": "nope"}, 404),  # no entry 0 yet: said first
])
def test_malformed_forms_are_400_and_change_nothing(table, database, data, status):
    match, ana, _, _ = table
    response = ana.client.post(f"/m/{match.id}/entry", data=data, headers=HX)
    assert response.status_code == status
    assert entry_count(database, match.id) == 0


def test_names_are_escaped_everywhere(app, database, client):
    match = store.create_match(database, "ratatat", ["<script>alert(1)</script>", "Bo"])
    phone = Phone(app, match.id, "0")
    phone.post(move="turn_up", card="5")
    for path in ("", "/screen", "/history", "/invite", "/pick?move=turn_up&field=card"):
        html = phone.client.get(f"/m/{match.id}{path}").get_data(as_text=True)
        assert "<script>alert(1)" not in html, path


def test_correcting_a_scored_reveal_redraws_the_rounds_result(app, database):
    """The round's result is drawn once for every phone (it is the same for all); a correction of a reveal
    in it changes its scores, and every phone's screen shows the new ones, not the result drawn before."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 2})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    for phone, fields in [(ana, {"move": "turn_up", "card": "2"}), (ana, {"move": "take_discard"}),
                          (ana, {"move": "replace", "slot": "3", "out": "6"}), (ana, {"move": "call"}),
                          (ben, {"move": "draw"}), (ben, {"move": "discard", "card": "8"}),
                          (ana, {"move": "reveal", "card1": "1", "card2": "0", "card3": "2", "card4": "3"}),
                          (ben, {"move": "reveal", "card1": "4", "card2": "4", "card3": "5", "card4": "1"})]:
        assert phone.post(**fields).status_code == 200, text(phone.post(**fields))
    last = ben.client.get(f"/m/{match.id}/screen", headers=HX).get_data(as_text=True)
    result = last.split('id="last-round"', 1)[1].split("</section>", 1)[0]
    assert "<td class=\"num\">14</td>" in result
    # a screen reader hears what each column is, and who won, in words (the star is drawn by the style sheet)
    heads = result.split("<thead", 1)[1].split("</thead>", 1)[0]
    assert [h in heads for h in (">Player<", ">Cards<", ">Points<")] == [True] * 3
    assert '<bdi>Ana</bdi><span class="visually-hidden"> (won)</span>' in result and "Ben</bdi><span" not in result
    reveal = store.entries(database, match.id)[-1]["seq"] - 1
    assert ana.post(move="correct", target_entry=str(reveal), c_move="reveal", c_for="Ben", c_card1="4",
                    c_card2="4", c_card3="5", c_card4="9", reason="a 9, not a 1").status_code == 200
    for phone in (ana, ben):
        result = phone.client.get(f"/m/{match.id}/screen", headers=HX).get_data(as_text=True)
        result = result.split('id="last-round"', 1)[1].split("</section>", 1)[0]
        assert "<td class=\"num\">22</td>" in result and ">14<" not in result


def test_reveals_made_at_the_same_moment_are_all_saved(app, database):
    """The whole table reveals at once: each phone's reveal was made at the version before the others', yet
    each stands (other seats' reveals came first, nothing of its own). Any other entry that late is 409."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 2})
    ana, ben, cy = (Phone(app, match.id, str(i)) for i in range(3))
    for phone, fields in [(ana, {"move": "turn_up", "card": "2"}), (ana, {"move": "take_discard"}),
                          (ana, {"move": "replace", "slot": "3", "out": "6"}), (ana, {"move": "call"}),
                          (ben, {"move": "draw"}), (ben, {"move": "discard", "card": "8"}),
                          (cy, {"move": "draw"}), (cy, {"move": "discard", "card": "7"})]:
        assert phone.post(**fields).status_code == 200, fields
    version = ana.version()
    for phone, cards in [(ana, ("1", "0", "2", "3")), (ben, ("4", "4", "5", "1")), (cy, ("9", "9", "5", "5"))]:
        answer = phone.post(version=version, move="reveal", card1=cards[0], card2=cards[1], card3=cards[2],
                            card4=cards[3])
        assert answer.status_code == 200, text(answer)[:300]
    assert [e["entry"]["move"] for e in store.entries(database, match.id)][-3:] == ["reveal"] * 3
    late = ana.post(version=version, move="undo")  # not a reveal: made before the reveals, refused as stale
    assert late.status_code == 409


def ana_revealed_against_the_known_2(app, database, language: str | None = None):
    """Ana took the turned-up 2 into slot 3 and called; Ben drew and discarded, then revealed Ana's slot 3
    as a 7 (GEN-4 flags it once Ben's own cards are revealed too). Ana's and Ben's phones; ``language``,
    Ben's."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 2})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    if language:
        ben.client.set_cookie(i18n.COOKIE, language)
    for phone, fields in [(ana, {"move": "turn_up", "card": "2"}), (ana, {"move": "take_discard"}),
                          (ana, {"move": "replace", "slot": "3", "out": "6"}), (ana, {"move": "call"}),
                          (ben, {"move": "draw"}), (ben, {"move": "discard", "card": "8"}),
                          (ben, {"move": "reveal", "for": "Ana", "card1": "1", "card2": "0", "card3": "7", "card4": "3"})]:
        assert phone.post(**fields).status_code == 200, fields
    return match, ana, ben


def test_flag_at_reveal_then_accepted(app, database):
    match, ana, ben = ana_revealed_against_the_known_2(app, database)
    screen = text(ben.post(move="reveal", **{"for": "Ben", "card1": "4", "card2": "4", "card3": "5", "card4": "2"}))
    assert "Flagged (GEN-4)" in screen and "known to be 2" in screen and 'value="accept"' in screen
    # read aloud, the decision's field and buttons name the dispute they decide
    described = re.findall(r'<(?:button|input)[^>]*aria-describedby="([^"]+)"', screen)
    assert described == ["flag-0-what"] * 3 and re.search(r'<p id="flag-0-what">.*known to be 2', screen)
    response = ben.post(move="resolve_flag", flag="0", decision="accept", reason="she moved her cards")
    assert response.status_code == 200 and "Accepted by Ben (entry" in text(response)
    assert "Why: she moved her cards" in text(response)
    assert 'value="accept"' not in text(response)


def test_GEN_5_a_decision_made_before_its_entry_was_corrected_is_said_so(app, database):
    """Ben accepted the GEN-4 dispute over Ana's slot 3 (a 7 where a 2 was known); then entry 6, the
    reveal, is corrected to a 9: the dispute now says 9. Its decision stays recorded, and the screen says
    it was made before the correction (before, the accepted dispute just read differently)."""
    match, ana, ben = ana_revealed_against_the_known_2(app, database)
    assert ben.post(move="reveal", **{"for": "Ben", "card1": "4", "card2": "4", "card3": "5", "card4": "2"}).status_code == 200
    assert ben.post(move="resolve_flag", flag="0", decision="accept", reason="she moved her cards").status_code == 200
    decided = re.search(r'<section class="card disputes" id="decided">(.*?)</section>', ben.client.get(f"/m/{match.id}/screen").get_data(as_text=True), re.S).group(1)
    assert "corrected-since" not in decided
    response = ben.post(move="correct", target_entry="6", c_move="reveal", c_for="Ana", c_card1="1", c_card2="0",
                        c_card3="9", c_card4="3", reason="it was a 9")
    assert response.status_code == 200, text(response)[:500]
    decided = re.search(r'<section class="card disputes" id="decided">(.*?)</section>', ben.client.get(f"/m/{match.id}/screen").get_data(as_text=True), re.S).group(1)
    assert "known to be 2" in decided and "Accepted by Ben" in decided
    assert "Decided before entry 6 was corrected (entry 9)" in decided


def test_GEN_5_a_decision_on_a_dispute_a_correction_rewords_is_set_aside_and_the_dispute_reopens(app, database):
    """The decision form names the dispute as it read (``about``). Entry 6 corrected to a 9 rewords the
    dispute: on replay the decision no longer fits (GEN-5), is set aside, and the dispute is open again for
    the table to decide; the history says why. A decision posted without ``about`` (entries made before it
    was kept) still stands, with the note above."""
    match, ana, ben = ana_revealed_against_the_known_2(app, database)
    screen = text(ben.post(move="reveal", **{"for": "Ben", "card1": "4", "card2": "4", "card3": "5", "card4": "2"}))
    about = re.search(r'name="about" value="(\w+)"', screen).group(1)
    assert ben.post(move="resolve_flag", flag="0", decision="accept", about=about, reason="moved").status_code == 200
    assert store.entries(database, match.id)[-1]["entry"]["about"] == about
    assert 'value="accept"' not in ben.client.get(f"/m/{match.id}/screen").get_data(as_text=True)
    fix = dict(move="correct", target_entry="6", c_move="reveal", c_for="Ana", c_card1="1", c_card2="0", c_card3="9",
               c_card4="3", reason="it was a 9")
    asked = ben.post(**fix)  # it would set the decision aside: asked first, nothing stored
    assert asked.status_code == 409 and "This correction would set entry 8 aside" in text(asked)
    assert len(store.entries(database, match.id)) == 9
    response = ben.post(**fix, set_aside_ok="1")
    assert response.status_code == 200, text(response)[:500]
    screen = ben.client.get(f"/m/{match.id}/screen").get_data(as_text=True)
    assert 'value="accept"' in screen and "shows 9" in html.unescape(screen)  # to decide again, as it reads now
    history = html.unescape(ben.client.get(f"/m/{match.id}/history").get_data(as_text=True))
    assert "That dispute reads differently now (an entry it points at was corrected): decide it again." in history


def test_undo_is_a_new_entry_and_history_keeps_both(table, database):
    match, ana, _, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="draw")
    response = ana.post(move="undo")
    assert response.status_code == 200 and "Draw from the pile" in text(response)
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["turn_up", "draw", "undo"]
    history = ana.client.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert 'class="gone" id="e1"' in history and "Ana draws a card." in history_row(history, 1)
    assert "undone" in history_row(history, 1)
    assert 'class="stands" id="e2"' in history  # the undo itself is not struck through


def test_each_undo_in_the_history_names_the_entry_it_undid(table):
    """Two undos in a row step back over two entries: the history says which one each undid, with a
    link to it; an undo refused for want of an entry to undo (GEN-13) is never stored."""
    match, ana, _, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="draw")
    ana.post(move="undo")
    ana.post(move="undo")
    assert ana.post(move="undo").status_code == 422  # nothing left to undo: not stored
    ana.post(move="turn_up", card="7")
    ana.post(move="undo")
    history = ana.client.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert 'href="#e1">undid #1' in history_row(history, 2)
    assert 'href="#e0">undid #0' in history_row(history, 3)
    assert 'href="#e4">undid #4' in history_row(history, 5)


def history_row(html: str, position: int) -> str:
    return html.split(f'id="e{position}"', 1)[1].split("</li>", 1)[0]


def test_history_shows_a_correction_in_place_and_what_it_set_aside(table, database):
    """A correction stands in the history; the entry it replaced says where it was corrected; the later
    entries that no longer fit are struck through with the rule and why (the table sees it, not only
    ``referee check``); the phone that corrected lands there."""
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="draw")
    ana.post(move="power", card="DRAW2")
    ana.post(move="draw")
    ana.post(move="replace", slot="1", out="8")
    correction = {"version": ben.version(), "move": "correct", "target_entry": "2", "c_move": "power",
                  "c_for": "Ana", "c_card": "PEEK", "reason": "it was a Peek"}
    asked = ben.client.post(f"{ben.url}/entry", data=correction, headers={"Origin": "http://localhost"})
    page = text(asked)  # asked first, on the correction page: the entries it would set aside, and its form again
    assert asked.status_code == 409 and "This correction would set entries 3–4 aside" in page
    assert 'name="set_aside_ok" value="1"' in page and "Record the correction and set those entries aside" in page
    assert re.search(r'value="PEEK"[^>]*checked', page) and 'value="it was a Peek"' in page  # as typed
    answer = ben.client.post(f"{ben.url}/entry", data={**correction, "set_aside_ok": "1"},
                             headers={"Origin": "http://localhost"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/m/{match.id}/history?at=5#e5")
    history = text(ben.client.get(f"{ben.url}/history"))
    assert "corrected at #5" in history_row(history, 2) and 'class="gone" id="e2"' in history
    assert 'class="stands" id="e5"' in history and "it was a Peek" in history_row(history, 5)
    assert f'/m/{match.id}/correct/2"' in history_row(history, 5)  # corrected again from the correction
    for dropped in (3, 4):
        assert f'class="gone" id="e{dropped}"' in history and "no longer fits" in history_row(history, dropped)
        assert "RTC-13" in history_row(history, dropped)
    # corrected again: the page starts from the correction, and the first correction is then replaced
    again = text(ben.client.get(f"{ben.url}/correct/2"))
    assert 'value="PEEK"' in again and re.search(r'value="PEEK"[^>]*checked', again)
    assert ben.post(move="correct", target_entry="2", c_move="power", c_for="Ana", c_card="SWAP",
                    reason="no, a Swap").status_code == 200
    history = text(ben.client.get(f"{ben.url}/history"))
    assert "corrected at #6" in history_row(history, 5) and 'class="stands" id="e6"' in history
    assert "corrected at #6" in history_row(history, 2)


def test_an_htmx_correction_says_what_it_set_aside(table):
    match, ana, ben, _ = table
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "power", "card": "DRAW2"},
                   {"move": "draw"}):
        assert ana.post(**fields).status_code == 200
    answer = ben.post(move="correct", target_entry="2", c_move="power", c_for="Ana", c_card="PEEK", reason="a Peek",
                      set_aside_ok="1")
    assert answer.status_code == 200 and "Entry 3 no longer fits after the correction" in text(answer)


def test_correction_records_who_and_why_and_recomputes(table, database):
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="draw")
    ana.post(move="replace", slot="2", out="8")
    correction = json.dumps({"seat": "Ana", "move": "replace", "slot": 3, "out": "8"})
    response = ben.post(move="correct", target_entry="2", entry=correction, reason="it was slot 3")
    assert response.status_code == 200
    last = store.entries(database, match.id)[-1]
    assert last["entry"]["reason"] == "it was slot 3" and last["entry"]["seat"] == "Ben" and last["seat"] == 1
    assert last["created_at"]


def test_pick_fragments(table):
    match, ana, _, _ = table
    html = ana.client.get(f"/m/{match.id}/pick?move=turn_up&field=card", headers=HX).get_data(as_text=True)
    assert html.count('class="cardbtn') == 13  # 13 faces: a card turned up is face up, so no "didn't see"
    assert "Didn't see" not in html
    assert ana.client.get(f"/m/{match.id}/pick?move=explode").status_code == 400
    page = ana.client.get(f"/m/{match.id}/pick?move=turn_up&field=card").get_data(as_text=True)
    assert "<html" in page  # without htmx: a whole page


def test_invite_page_shows_link_and_qr(app, table):
    match, ana, _, _ = table
    app.config["JOIN_URL"] = "http://192.168.1.20:8000/"
    html = ana.client.get(f"/m/{match.id}/invite").get_data(as_text=True)
    assert f"http://192.168.1.20:8000/j/{match.join_code}" in html and "<svg" in html


def test_unknown_match_routes_are_404(client):
    for path in ("/m/nope", "/m/nope/screen", "/m/nope/history", "/m/nope/transcript.json", "/m/nope/invite"):
        assert client.get(path).status_code == 404, path
    assert client.post("/m/nope/entry", data={"version": "0", "move": "draw"}, headers=HX).status_code == 404


def test_a_match_of_a_game_no_longer_installed_is_a_clear_error(app, database, client):
    match = store.create_match(database, "cribbage", ["Ann", "Bo"])
    response = client.get(f"/m/{match.id}")
    assert response.status_code == 404 and "cribbage" in text(response)


def test_tables_survive_a_restart(app, table, tmp_path):
    match, ana, _, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="draw")
    store.state_cache.clear()
    again = create_app(dict(app.config), instance_path=str(tmp_path / "instance"))
    html = again.test_client().get(f"/m/{match.id}/screen").get_data(as_text=True)
    assert 'data-version="2"' in html and "Ana holds a card" in html


def test_every_button_on_the_screen_posts_to_the_entry_route(table):
    match, ana, _, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="draw")
    for path in ("/screen", "/pick?move=replace&slot=1&field=out"):
        html = ana.client.get(f"/m/{match.id}{path}", headers=HX).get_data(as_text=True)
        actions = re.findall(r'<form method="post" action="([^"]*)"', html)
        # but "Not you? Change seat" (the seated phone's way back to the seat picker), which is no entry
        seat_forms = re.findall(rf'<form method="post" action="/m/{match.id}/seat"[^>]*>\s*<button[^>]*value="choose"', html)
        assert len(seat_forms) == (1 if path == "/screen" else 0), path
        actions = [action for action in actions if action != f"/m/{match.id}/seat"]
        assert actions and set(actions) == {f"/m/{match.id}/entry"}, path


def test_own_doorbell_does_not_redraw_the_screen(table):
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    assert ana.client.get(f"/m/{match.id}/screen?shown=1-0").status_code == 204
    # the doorbell may race the answer that carries the fresh screen: her own entry is no news to the page
    # that made it, still waiting for its answer...
    assert ana.client.get(f"/m/{match.id}/screen?shown=0-0&posting=1").status_code == 204
    # ... but is to another tab on her phone, which made no entry
    assert ana.client.get(f"/m/{match.id}/screen?shown=0-0").status_code == 200
    assert ben.client.get(f"/m/{match.id}/screen?shown=0-1").status_code == 200
    assert ana.client.get(f"/m/{match.id}/screen?shown=1-w").status_code == 200  # drawn for another seat


def test_spectator_link_is_read_only(app, table, database):
    match, ana, _, _ = table
    viewer = app.test_client()
    assert viewer.get(f"/m/{match.id}/watch").status_code == 200  # a link asks; it changes nothing
    assert viewer.post(f"/m/{match.id}/seat", data={"seat": "watch"}, headers=HX).status_code == 303
    page = viewer.get(f"/m/{match.id}").get_data(as_text=True)
    assert 'id="seat-picker"' not in page and "You are watching" in page
    assert viewer.post(f"/m/{match.id}/entry", data={"version": "0", "move": "turn_up", "card": "5"},
                       headers=HX).status_code == 403
    assert f"/m/{match.id}/watch" in ana.client.get(f"/m/{match.id}/invite").get_data(as_text=True)
    assert viewer.get("/m/nope/watch").status_code == 404


FORM_FIELDS = ["move", "slot", "out", "card", "target", "target_slot", "seen", "for", "flag", "decision",
               "reason", "rule", "entry", "target_entry", "card1", "card2", "card3", "card4", "shown", "slots",
               "seen1", "seen2", "attach"]
MOVES = ["turn_up", "draw", "take_discard", "replace", "discard", "power", "peek", "swap", "call", "reshuffle",
         "reveal", "reveal_draw", "time_up", "stalemate", "override", "resolve_flag", "undo", "correct",
         "initial_peek", "fly", ""]


def test_hostile_forms_get_a_clear_answer_never_a_500(app, database):
    """Random forms from a seated phone: every answer is 200/400/403/404/409/422 (403: an undo of another seat's
    entry; 404: a correction of an entry not made yet), and the log only grows by entries that were accepted."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    phone = Phone(app, match.id, "0")
    values = st.one_of(st.sampled_from(["1", "4", "9", "0", "-1", "PEEK", "Ben", "Ana", "unknown", "{}",
                                        '{"move": "draw", "seat": "Ana"}', "[]", "x" * 50]),
                       st.text(max_size=12))

    @settings(max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "150")), deadline=None, database=None)
    @given(move=st.sampled_from(MOVES), fields=st.dictionaries(st.sampled_from(FORM_FIELDS), values, max_size=5),
           stale=st.booleans())
    def post(move, fields, stale):
        before = entry_count(database, match.id)
        version = phone.version() - (1 if stale else 0)
        response = phone.post(version=version, **{**fields, "move": move})
        assert response.status_code in (200, 400, 403, 404, 409, 422), (move, fields, response.status_code)
        if response.status_code == 404:  # a correction of an entry never made (an entry's number to come)
            assert move == "correct" and "There is no such entry." in response.get_data(as_text=True)
        grew = entry_count(database, match.id) - before
        assert grew == (1 if response.status_code == 200 else 0)

    post()


# --- The first evening (each test failed before its fix) -----------------------------------------


def test_first_peek_note_is_kept_and_shown_only_to_its_player(table, database):
    match, ana, ben, _ = table
    assert ana.post(move="turn_up", card="5").status_code == 200
    assert ana.post(move="initial_peek", slots="1,4", seen1="3", seen2="8").status_code == 200
    assert store.entries(database, match.id)[-1]["entry"]["seen"] == ["3", "8"]
    mine = ana.client.get(f"{ana.url}/screen").get_data(as_text=True)
    row = mine.split('data-player="Ana"', 1)[1].split('data-player="Ben"', 1)[0]
    assert row.count('class="mine"') == 2 and ">3</small>" in row and ">8</small>" in row
    assert 'class="mine"' not in ben.client.get(f"{ben.url}/screen").get_data(as_text=True)


def test_the_first_peek_note_form_is_drawn_at_each_version_with_each_phones_own_key(table):
    """The note form is drawn once for the round (form_fragment), but each screen's carries its own
    version and submission key."""
    _, ana, ben, _ = table
    assert ana.post(move="turn_up", card="5").status_code == 200
    forms = {}
    for version in (1, 2):
        for name, phone in (("ana", ana), ("ben", ben)):
            screen = phone.client.get(f"{phone.url}/screen").get_data(as_text=True)
            form = screen.split('data-draft="peek-note-form"', 1)[1].split("</form>", 1)[0]
            assert f'name="version" value="{version}"' in form and "\x00" not in form
            forms[name, version] = re.search(r'name="key" value="([^"]+)-peek"', form).group(1)
        if version == 1:
            assert ana.post(move="draw").status_code == 200
    assert len(set(forms.values())) == 4  # a key of its own on every screen


def test_shared_phone_offers_the_call_to_the_player_who_just_finished(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    shared = Phone(app, match.id, "shared")
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "replace", "slot": "2", "out": "8"},
                   {"move": "draw"}, {"move": "discard", "card": "6"}, {"move": "draw"}, {"move": "discard", "card": "7"}):
        assert shared.post(**fields).status_code == 200
    screen = shared.client.get(f"{shared.url}/screen").get_data(as_text=True)
    assert "Yes, Cy calls Rat-a-Tat Cat" in screen and "Your turn, Ana" in screen
    assert shared.post(move="call", **{"for": "Cy"}).status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "call", "seat": "Cy"}
    assert store.entries(database, match.id)[-1]["seat"] is None  # made on the shared phone


def test_shared_phone_can_replace_a_revealed_power_card(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    shared = Phone(app, match.id, "shared")
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "discard", "card": "6"},
                   {"move": "call", "for": "Ana"}, {"move": "draw"}, {"move": "discard", "card": "7"},
                   {"move": "reveal", "for": "Ana", "card1": "1", "card2": "2", "card3": "3", "card4": "4"},
                   {"move": "reveal", "for": "Ben", "card1": "PEEK", "card2": "2", "card3": "3", "card4": "4"}):
        assert shared.post(**fields).status_code == 200, fields
    pick = shared.client.get(f"{shared.url}/pick?move=reveal_draw&seat=Ben&slot=1&field=card", headers=HX)
    assert pick.status_code == 200 and "drawn for Ben" in pick.get_data(as_text=True)
    assert shared.post(move="reveal_draw", slot="1", card="9", **{"for": "Ben"}).status_code == 200


def test_taking_a_held_seat_asks_tells_the_old_phone_and_is_recorded(app, table, database):
    match, ana, _, _ = table
    ana.post(move="turn_up", card="5")
    thief = app.test_client()
    asked = thief.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX)
    assert asked.status_code == 409 and "Take over Ana" in asked.get_data(as_text=True)
    assert thief.post(f"/m/{match.id}/entry", data={"version": "1", "move": "draw"}, headers=HX).status_code == 403
    assert thief.post(f"/m/{match.id}/seat", data={"seat": "0", "confirm": "1"}, headers=HX).status_code == 303
    old = ana.client.get(f"{ana.url}/screen?shown=1-0").get_data(as_text=True)
    assert "Another phone has taken Ana" in old and "Draw from the pile" not in old
    assert ana.client.post(f"{ana.url}/entry", data={"version": "1", "move": "draw"}, headers=HX).status_code == 403
    history = ana.client.get(f"{ana.url}/history").get_data(as_text=True)
    assert "Another phone took over <bdi>Ana</bdi>'s seat." in history
    assert thief.post(f"/m/{match.id}/entry", data={"version": "1", "move": "draw"}, headers=HX).status_code == 200


def test_a_phone_that_lost_its_seat_and_takes_its_own_is_not_named_after_the_seat_it_lost(app, database):
    """Leo's phone tapped Dad by mistake, Dad's phone took the seat back, then Leo's phone took Leo's
    seat: the history says Dad's seat was taken over, and says nothing of "Dad's phone" taking Leo's."""
    match = store.create_match(database, "ratatat", ["Dad", "Leo"])
    leo = app.test_client()
    assert leo.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX).status_code == 303
    dad = app.test_client()
    assert dad.post(f"/m/{match.id}/seat", data={"seat": "0", "confirm": "1"}, headers=HX).status_code == 303
    assert leo.post(f"/m/{match.id}/seat", data={"seat": "1"}, headers=HX).status_code == 303
    history = leo.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert "Another phone took over <bdi>Dad</bdi>'s seat." in history
    assert "took <bdi>Leo</bdi>'s seat" not in history


def test_a_second_phone_that_held_bens_seat_for_a_while_is_never_called_bens_phone(app, database):
    """A second phone took over Ben's seat, Ben's own phone took it back, then the second phone took Cy's seat
    and became the phone for everyone: the history said "Ben's phone took over Cy's seat" and "Ben's phone
    became the phone for everyone" while Ben played on his own phone. It names the second phone no one's."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"])
    ben, cy, second = app.test_client(), app.test_client(), app.test_client()
    for phone, seat in ((ben, "1"), (cy, "2")):
        assert phone.post(f"/m/{match.id}/seat", data={"seat": seat}, headers=HX).status_code == 303
    for phone, seat in ((second, "1"), (ben, "1"), (second, "2")):
        assert phone.post(f"/m/{match.id}/seat", data={"seat": seat, "confirm": "1"}, headers=HX).status_code == 303
    assert second.post(f"/m/{match.id}/seat", data={"seat": "shared"}, headers=HX).status_code == 303
    history = html.unescape(ben.get(f"/m/{match.id}/history").get_data(as_text=True))
    said = re.findall(r'<li class="seat-change"><span class="num"></span><span>(.*?)</span>', history)
    assert [re.sub("</?bdi>", "", s) for s in said] == [
        "Another phone took over Ben's seat.", "Ben's phone went back to Ben's seat.",
        "Another phone took over Cy's seat.", "A phone became the phone for everyone."]


def test_a_spectator_link_changes_nothing_until_posted(app, table):
    match, ana, _, _ = table
    assert ana.client.get(f"{ana.url}/watch").status_code == 200
    assert "You enter for <strong>Ana</strong>" in ana.client.get(ana.url).get_data(as_text=True)


def test_a_mid_round_download_holds_only_what_the_phone_may_see(app, table, database):
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="initial_peek", slots="1,4", seen1="9", seen2="2")
    ana.post(move="draw")
    spectator = app.test_client()
    for phone, sees in ((spectator, False), (ben.client, False), (ana.client, True)):
        doc = json.loads(phone.get(f"/m/{match.id}/transcript.json").get_data(as_text=True))
        peek = next(e for e in doc["entries"] if e["move"] == "initial_peek")
        assert (peek["seen"] == ["9", "2"]) is sees
        assert check(loads(json.dumps(doc)))[2]["rulings"] == []  # the redacted log still replays


def test_history_numbers_entries_marks_undone_overrides_and_corrects_with_pickers(table, database):
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    refused = ben.post(move="draw")
    assert refused.status_code == 422
    assert ben.post(move="override", rule="GEN-7", entry=json.dumps({"move": "draw", "seat": "Ben"}),
                    reason="Ana said so").status_code == 200
    assert ben.post(move="undo").status_code == 200
    history = ana.client.get(f"{ana.url}/history").get_data(as_text=True)
    assert 'id="e0"' in history and "#0" in history and "#1" in history
    overridden = history.split('id="e1"', 1)[1].split("</li>", 1)[0]
    assert 'class="gone"' in history.split('id="e1"', 1)[0][-40:] and "undone" in overridden
    page = ana.client.get(f"{ana.url}/correct/0").get_data(as_text=True)
    assert "<textarea" not in page and 'name="c_card"' in page and "Entry number" not in page
    assert ana.post(move="correct", target_entry="0", c_move="turn_up", c_card="6",
                    reason="it was a 6").status_code == 200
    assert store.entries(database, match.id)[-1]["entry"]["entry"] == {"move": "turn_up", "card": "6"}


def test_a_ruling_names_its_entries_by_number_with_a_link(table):
    """Stored entries a ruling names link to the history; the entry just refused was never stored, so it
    has no number there (the next stored entry will take that number)."""
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    html = ben.post(move="draw").get_data(as_text=True)
    assert "The entry just refused" in html
    assert f'href="/m/{match.id}/history?at=1#e1"' not in html and "Entry 1" not in html


def test_correcting_another_players_peek_does_not_show_what_they_saw(table):
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="initial_peek", slots="1,4", seen1="9", seen2="2")
    page = ben.client.get(f"{ben.url}/correct/1")
    assert page.status_code == 403 and "Only Ana&#39;s phone can correct this entry" in text(page)
    assert 'value="9"' not in text(page) and 'value="2"' not in text(page)
    own = ana.client.get(f"{ana.url}/correct/1").get_data(as_text=True)
    assert 'value="9" required checked' in own


@pytest.mark.parametrize("seen", [("9", "2"), ("unknown", "unknown")], ids=["noted", "left-unknown"])
def test_GEN_6_whether_a_first_look_was_noted_is_not_told_by_the_correct_link(table, seen):
    """Ana's first look, noted or left "unknown": Ben's phone sees "unknown" either way, and is offered no
    "Correct" and refused the page alike (the link showed only where nothing was noted, which told Ben
    whether Ana noted her cards)."""
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="initial_peek", slots="1,4", seen1=seen[0], seen2=seen[1])
    assert f"/m/{match.id}/correct/1" not in text(ben.client.get(f"{ben.url}/history"))
    page = ben.client.get(f"{ben.url}/correct/1")
    assert page.status_code == 403 and "Only Ana&#39;s phone can correct this entry" in text(page)
    assert f"/m/{match.id}/correct/1" in text(ana.client.get(f"{ana.url}/history"))  # her own phone may


def test_another_seat_cannot_overwrite_a_private_note_by_correcting_it(table, database):
    """Ben's phone sees Ana's first look as "unknown": a correction from it would put that over what
    she noted. It is refused (403, nothing stored) and the history offers him no "Correct" there."""
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="initial_peek", slots="1,4", seen1="9", seen2="2")
    before = entry_count(database, match.id)
    refused = ben.post(move="correct", target_entry="1", c_move="initial_peek", c_for="Ana", c_slots="1,4", c_seen1="unknown",
                       c_seen2="unknown", reason="tidy")
    assert refused.status_code == 403 and "Only Ana&#39;s phone can correct this entry" in text(refused)
    assert entry_count(database, match.id) == before
    assert f"/m/{match.id}/correct/1" not in text(ben.client.get(f"{ben.url}/history"))
    assert f"/m/{match.id}/correct/1" in text(ana.client.get(f"{ana.url}/history"))
    fields = {"version": ana.version(), "move": "correct", "target_entry": "1", "c_move": "initial_peek",
              "c_for": "Ana", "c_slots": "1,4", "c_seen1": "9", "c_seen2": "3", "reason": "it was a 3"}
    answer = ana.client.post(f"{ana.url}/entry", data=fields, headers={"Origin": "http://localhost"})
    # nothing set aside: the phone goes back to the table (the history is for what a correction undid)
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/m/{match.id}")
    assert store.entries(database, match.id)[-1]["entry"]["entry"]["seen"] == ["9", "3"]


def test_use_draw2_and_discard_in_a_draw2_draw_in_the_same_tap(table, database):
    match, ana, _, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="draw")
    assert ana.post(move="power", card="DRAW2", then="draw").status_code == 200
    assert ana.post(move="discard", card="7", then="draw").status_code == 200
    moves = [e["entry"]["move"] for e in store.entries(database, match.id)]
    assert moves == ["turn_up", "draw", "power", "draw", "discard", "draw"]
    assert "Slot 1" in ana.client.get(f"{ana.url}/screen").get_data(as_text=True)


def draw_down(database, match, to: int) -> int:
    """Two players draw and discard in turn until the draw pile holds ``to`` cards; whose turn it is then."""
    log = store.state_at(database, store.get_match(database, match.id), tables.replay)
    seat = 0
    while log.state.round.draw > to:
        for entry in ({"move": "draw", "seat": match.players[seat]},
                      {"move": "discard", "seat": match.players[seat]}):
            tables.append(database, match.id, store.get_match(database, match.id).version, entry, None, seat=seat)
        seat = 1 - seat
        log = store.state_at(database, store.get_match(database, match.id), tables.replay)
    return seat


def test_RTC_18_a_draw2_drawn_last_offers_no_draw_in_the_same_tap(app, database):
    """The Draw 2 was the draw pile's last card: "Use Draw 2 and draw" would be refused as a pair (RTC-18),
    so the button uses it alone; the table reshuffles, and then the draw is offered."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    ana.post(move="turn_up", card="5")
    phone = ana if draw_down(database, match, to=1) == 0 else ben
    screen = text(phone.post(move="draw"))
    assert "Use Draw 2" in screen and "Use Draw 2 and draw" not in screen
    screen = text(phone.post(move="power", card="DRAW2"))
    assert "The draw pile is empty: shuffle the discards into a new pile" in screen
    phone.post(move="reshuffle")
    phone.post(move="turn_up", card="3")
    assert "Discard it and draw again" in text(phone.post(move="draw"))  # the new pile has cards


def test_a_refused_correction_can_be_let_stand_with_the_override_it_offers(table, database):
    """GEN-5 for a correction: "Let it stand" on a refused correction stores the correction with its entry
    overridden (an override holds a table entry, never a correction), and the corrected entry replays."""
    match, ana, ben, cy = table
    for phone, fields in [(ana, {"move": "turn_up", "card": "5"}), (ana, {"move": "draw"}),
                          (ana, {"move": "discard", "card": "5"}), (ben, {"move": "draw"}),
                          (ben, {"move": "discard", "card": "5"}), (cy, {"move": "draw"}),
                          (cy, {"move": "discard", "card": "5"}),
                          (ana, {"move": "draw"}), (ana, {"move": "discard", "card": "9"})]:
        assert phone.post(**fields).status_code == 200, fields
    last = store.entries(database, match.id)[-1]["seq"] - 1
    refused = ana.post(move="correct", target_entry=str(last), c_move="discard", c_for="Ana", c_card="5",
                       reason="it was a 5")
    assert refused.status_code == 422 and "Refused (GEN-3)" in text(refused)
    entry = re.search(r'name="entry" value="([^"]*)"', refused.get_data(as_text=True)).group(1)
    entry = html.unescape(entry)
    assert json.loads(entry)["move"] == "correct"
    before = entry_count(database, match.id)
    assert ana.post(move="override", rule="GEN-3", entry=entry, reason="").status_code == 400  # why is asked for
    answer = ana.post(move="override", rule="GEN-3", entry=entry, reason="the old deck has a fifth 5")
    assert answer.status_code == 200, text(answer)[:400]
    stored = store.entries(database, match.id)
    assert len(stored) == before + 1
    assert stored[-1]["entry"]["move"] == "correct" and stored[-1]["entry"]["target"] == last
    assert stored[-1]["entry"]["entry"]["move"] == "override"
    assert stored[-1]["entry"]["entry"]["entry"]["card"] == "5"
    history = ana.client.get(f"/m/{match.id}/history").get_data(as_text=True)
    assert "corrected at" in history_row(history, last) and "the old deck has a fifth 5" in history
    # the history offers to correct it again, and the page opens with the card the correction let stand
    assert f'/m/{match.id}/correct/{last}"' in history
    again = ana.client.get(f"/m/{match.id}/correct/{last}")
    assert again.status_code == 200 and re.search(r'value="5"[^>]*checked', text(again))


def test_an_override_naming_another_seat_is_refused(table, database):
    """A seated phone lets only its own refused entry stand (tests/web/test_entry_guards.py has the rest)."""
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    response = ben.post(move="override", rule="GEN-7", seat="Cy", entry=json.dumps({"move": "draw", "seat": "Cy"}),
                        reason="Cy asked Ben to enter it")
    assert response.status_code == 403 and "Only Cy&#39;s phone can let Cy&#39;s refused entry stand" in text(response)
    assert entry_count(database, match.id) == 1


def test_the_shared_phone_never_promises_privacy(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    shared = Phone(app, match.id, "shared")
    shared.post(move="turn_up", card="5")
    screen = shared.client.get(f"{shared.url}/screen").get_data(as_text=True).replace("&#39;", "'")
    assert "Note your first peek" not in screen and "(only you see it)" not in screen
    assert "Note Ana's first peek (optional: everyone looking at this phone sees it)" in screen
    shared.post(move="draw")
    shared.post(move="power", card="PEEK")
    picker = shared.client.get(f"{shared.url}/pick?move=peek&slot=1&field=seen", headers=HX).get_data(as_text=True)
    assert "only you will see" not in picker.lower() and "everyone looking at this phone" in picker
    seated = Phone(app, match.id, "1")
    assert "only you" in seated.client.get(f"{seated.url}/screen").get_data(as_text=True).lower()


def test_the_shared_phone_never_shows_the_notes_of_a_player_on_their_own_phone(app, database):
    """A table of phones and one shared phone (for those without one): in Ana's turn the shared phone
    enters for her but shows nothing of what she noted on her own phone; in Ben's turn, Ben having no
    phone, it shows what he noted on it."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    shared = Phone(app, match.id, "shared")  # first: once a phone holds a seat, this would take it over
    ana = Phone(app, match.id, "0")
    assert ana.post(move="turn_up", card="5").status_code == 200
    assert ana.post(move="initial_peek", slots="1,4", seen1="7", seen2="SWAP").status_code == 200
    assert shared.post(move="initial_peek", **{"for": "Ben"}, slots="1,4", seen1="9", seen2="2").status_code == 200
    screen = shared.client.get(f"{shared.url}/screen").get_data(as_text=True)
    assert "Ana" in screen and 'class="mine"' not in screen  # Ana's turn: her notes stay on her phone
    assert ana.post(move="draw").status_code == 200 and ana.post(move="discard", card="8").status_code == 200
    screen = shared.client.get(f"{shared.url}/screen").get_data(as_text=True)
    row = screen.split('data-player="Ben"', 1)[1]
    assert ">9</small>" in row and ">2</small>" in row  # Ben's turn: his own notes, on the phone he uses
    assert ">7</small>" not in screen


def test_parts_drawn_once_per_version_never_carry_one_phones_notes_to_another(table):
    """The rows are drawn once per version for the phones that know the same: whichever phone asks
    first, a private note shows on its own phone only."""
    match, ana, ben, cy = table
    assert ana.post(move="turn_up", card="5").status_code == 200
    assert ana.post(move="initial_peek", slots="1,4", seen1="6", seen2="1").status_code == 200
    first = ben.client.get(f"{ben.url}/screen").get_data(as_text=True)  # drawn before Ana's
    mine = ana.client.get(f"{ana.url}/screen").get_data(as_text=True)
    again = cy.client.get(f"{cy.url}/screen").get_data(as_text=True)
    assert 'class="mine"' not in first and 'class="mine"' not in again
    row = mine.split('data-player="Ana"', 1)[1].split('data-player="Ben"', 1)[0]
    assert row.count('class="mine"') == 2 and ">6</small>" in row and ">1</small>" in row


def test_reveal_forms_are_the_same_on_every_phone_but_each_phone_posts_its_own_key(table, database):
    match, ana, ben, cy = table
    for phone, fields in [(ana, {"move": "turn_up", "card": "5"}), (ana, {"move": "draw"}),
                          (ana, {"move": "discard", "card": "7"}), (ben, {"move": "draw"}),
                          (ben, {"move": "discard", "card": "2"}), (ben, {"move": "call"}),
                          (cy, {"move": "draw"}), (cy, {"move": "discard", "card": "3"}),
                          (ana, {"move": "draw"}), (ana, {"move": "discard", "card": "4"})]:
        assert phone.post(**fields).status_code == 200, fields
    forms = {}
    for name, phone in (("ana", ana), ("ben", ben)):
        screen = phone.client.get(f"{phone.url}/screen").get_data(as_text=True)
        assert "\x00" not in screen
        forms[name] = re.search(r'<div class="reveal-block" id="reveal-Cy">.*?</form>', screen, re.S).group(0)
    keys = {name: re.search(r'name="key" value="([^"]+)-reveal-Cy"', form).group(1) for name, form in forms.items()}
    assert keys["ana"] != keys["ben"]
    assert forms["ana"].replace(keys["ana"], "K") == forms["ben"].replace(keys["ben"], "K")
    # Each phone's form is a working entry: Ben's reveal of Cy's cards is applied once.
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', forms["ben"]))
    fields.update(card1="4", card2="4", card3="6", card4="8")
    reply = ben.client.post(f"{ben.url}/entry", data=fields, headers=HX)
    assert reply.status_code == 200, text(reply)[:400]
    assert store.entries(database, match.id)[-1]["entry"]["cards"] == ["4", "4", "6", "8"]
    assert ben.client.post(f"{ben.url}/entry", data=fields, headers=HX).status_code in (200, 409)
    assert entry_count(database, match.id) == 11


def test_a_ruling_reads_only_the_entries_it_names(app, table, database):
    """The entries a ruling points at are said in words from the log, the refused one included."""
    from referee import tables
    from referee.games.base import Ruling
    from referee.views.play import _involved

    match, ana, ben, _ = table
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}, {"move": "discard", "card": "7"}):
        assert ana.post(**fields).status_code == 200
    match = store.get_match(database, match.id)
    with app.test_request_context("/"):
        log = store.state_at(database, match, tables.replay)
        involved = _involved(Ruling("RTC-10", "test", (2, None, 0, 3, 9, -1)), log, match)
    assert [item["number"] for item in involved] == [2, 0, None]  # the refused one has no number: not stored
    words = [str(item["words"]) for item in involved]
    assert "7" in words[0] and "5" in words[1] and words[2] == "The entry just refused"


def test_a_refusal_goes_to_a_screen_process_as_plain_values_and_comes_back_whole():
    from markupsafe import Markup

    from referee.games.base import Ruling
    from referee.views.play import screen_extra_from_wire, screen_extra_to_wire

    ruling = Ruling("RTC-10", "One draw per turn.", (3, None), overridable=False)
    wire = screen_extra_to_wire(ruling=ruling, entry={"move": "draw", "seat": "Ana"}, notice="")
    import marshal

    back = screen_extra_from_wire(marshal.loads(marshal.dumps(wire)))
    assert (back["ruling"].rule, back["ruling"].message, back["ruling"].entries, back["ruling"].overridable) == \
        ("RTC-10", "One draw per turn.", (3, None), False)
    assert back["entry"] == {"move": "draw", "seat": "Ana"} and back["notice"] == ""
    assert screen_extra_from_wire(screen_extra_to_wire()) == {"notice": "", "entry": None, "ruling": None}
    assert screen_extra_to_wire(notice=Markup("<b>marked up</b>")) is None  # drawn where it was decided


def test_a_picker_link_is_built_once_and_reads_as_its_arguments():
    from urllib.parse import parse_qsl

    from referee.views.play import pick_href

    first = pick_href("/m/abc/pick", move="replace", slot=2, field="out", then="")
    assert first.startswith("/m/abc/pick?")
    assert dict(parse_qsl(first.split("?", 1)[1])) == {"move": "replace", "slot": "2", "field": "out"}
    assert pick_href("/m/abc/pick", move="replace", slot=2, field="out", then="") is first  # remembered
    other = pick_href("/m/abc/pick", move="replace", slot=3, field="out", then="draw")
    assert dict(parse_qsl(other.split("?", 1)[1])) == {"move": "replace", "slot": "3", "field": "out", "then": "draw"}
    assert pick_href("/m/xyz/pick", move="peek", slot=1, target=None) == "/m/xyz/pick?move=peek&slot=1"


def test_every_screen_drawn_from_what_is_kept_is_the_screen_drawn_afresh(app, database, monkeypatch):
    """The parts of a screen kept between requests (fragments, forms keyed by what they read) never
    show a phone anything but what drawing its screen afresh shows: a seeded game of three rounds, every
    phone (each seat, the shared phone, a watcher in Hebrew) at every version."""
    import itertools
    import random

    from referee import tables
    from referee.games.base import EntryError, Ruling
    from referee.views import play

    monkeypatch.setattr(play.secrets, "token_urlsafe", lambda n=None: "KEY")  # one submission key for all
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 3})
    shared = Phone(app, match.id, "shared")  # first: once phones hold seats, this would take them over
    phones = [Phone(app, match.id, str(seat)) for seat in range(3)]
    phones.append(shared)
    watcher = Phone(app, match.id, None)
    watcher.client.set_cookie(i18n.COOKIE, "he")
    phones.append(watcher)
    rng = random.Random(7)
    cards = [str(n) for n in range(10)] + ["PEEK", "SWAP", "DRAW2", "unknown"]

    def filled(value):
        if value == "unknown":
            return rng.choice(cards)
        if isinstance(value, list):
            return [filled(v) for v in value]
        return value

    def screens() -> list[str]:
        return [text(p.client.get(f"{p.url}/screen")) for p in phones]

    version, seen_moves = 0, set()
    while version < 260:
        kept = screens()  # drawn from what every version so far left kept
        saved = dict(play._forms), dict(play._fragments), dict(play._undo_said)
        play._forms.clear()
        play._fragments.clear()
        play._undo_said.clear()
        assert screens() == kept, f"version {version}"
        play._forms.update(saved[0])
        play._fragments.update(saved[1])
        play._undo_said.update(saved[2])
        log = store.state_at(database, store.get_match(database, match.id), tables.replay, tables.feed)
        game, state = log.game, log.state
        if state.over:
            break
        candidates = [(None, game.move_to_dict(m, state.players)) for m in game.legal_moves(state, None)]
        for seat in game.may_act(state):
            candidates += [(seat, game.move_to_dict(m, state.players)) for m in game.legal_moves(state, seat)]
        rng.shuffle(candidates)
        candidates.sort(key=lambda c: c[1]["move"] == "call" and rng.random() < 0.9)  # rounds of some turns
        for (seat, move), _ in itertools.product(candidates, range(4)):  # a few cards tried for each
            entry = {k: filled(v) for k, v in move.items()}
            try:
                tables.append(database, match.id, version, entry, None, seat=seat)
            except (Ruling, EntryError):
                continue
            seen_moves.add(entry["move"])
            version += 1
            break
        else:
            raise AssertionError(f"no entry accepted at version {version}: {candidates}")
    # the walk went through what the kept parts hold
    assert {"draw", "discard", "replace", "power", "call", "reveal", "turn_up"} <= seen_moves, seen_moves


def test_a_players_row_is_drawn_again_only_when_what_it_shows_changes(app, database):
    """Each entry changes one or two rows (the mover's cards, whose turn it is): the others are served
    as they were drawn, and the scores only change at a round's end."""
    import itertools
    import random

    from referee import tables
    from referee.games.base import EntryError, Ruling
    from referee.views import play

    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy", "Dee"], {"rounds_n": 3})
    phones = [Phone(app, match.id, str(seat)) for seat in range(4)]
    rng = random.Random(3)
    drawn_rows = drawn_scores = 0
    for version in range(60):
        before = set(play._fragments)
        for phone in phones:
            phone.client.get(f"{phone.url}/screen")
        added = [key[0] for key in set(play._fragments) - before]
        drawn_rows += added.count("games/ratatat/_row.html")
        drawn_scores += added.count("games/ratatat/_standings.html")
        log = store.state_at(database, store.get_match(database, match.id), tables.replay, tables.feed)
        moves = [(None, m) for m in log.game.legal_moves(log.state, None)]
        moves += [(s, m) for s in log.game.may_act(log.state) for m in log.game.legal_moves(log.state, s)]
        rng.shuffle(moves)
        cards = [str(n) for n in range(10)] + ["PEEK", "SWAP", "DRAW2"]

        def filled(value):
            if isinstance(value, list):
                return [filled(v) for v in value]
            return rng.choice(cards) if value == "unknown" else value

        for (seat, move), _ in itertools.product(moves, range(6)):  # a few cards tried for each
            entry = {k: filled(v) for k, v in log.game.move_to_dict(move, log.state.players).items()}
            try:
                tables.append(database, match.id, version, entry, None, seat=seat)
                break
            except (Ruling, EntryError):
                continue
        else:
            raise AssertionError(f"no entry accepted at version {version}")
    # four rows on every screen of 60 versions: drawn afresh each time, 240 drawings
    assert 0 < drawn_rows <= 120, drawn_rows
    assert 0 < drawn_scores <= 10, drawn_scores


def test_the_undo_names_the_last_entry_in_each_phones_language_once_per_version(app, database):
    from referee import i18n, tables
    from referee.views import play

    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    english, hebrew = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    hebrew.client.set_cookie(i18n.COOKIE, "he")
    tables.append(database, match.id, 0, {"move": "turn_up", "card": "5"}, None, seat=None)
    play._undo_said.clear()
    undo = re.compile(r'<button type="submit" class="secondary small">([^<]*)</button>')
    said = [undo.search(text(p.client.get(f"{p.url}/screen"))).group(1) for p in (english, hebrew, english)]
    assert "5" in said[0] and said[0] == said[2] and said[1] != said[0]
    assert len(play._undo_said) == 2  # one per language at this version
    tables.append(database, match.id, 1, {"move": "initial_peek", "seat": "Ana", "slots": [1, 4]}, None, seat=0)
    again = undo.search(text(english.client.get(f"{english.url}/screen"))).group(1)
    assert again != said[0] and len(play._undo_said) == 3


@pytest.mark.parametrize("game", ["shithead", "cabo", "spite_malice"])
def test_every_standard_deck_screen_drawn_from_what_is_kept_is_the_screen_drawn_afresh(app, database, monkeypatch,
                                                                                       game):
    """The standard-deck games' screens (card faces built once, Cabo's reveal forms kept per player's row)
    at every version of a seeded walk, for every seat, the shared phone and a watcher in Hebrew: drawn
    from what was kept, as drawn afresh."""
    import itertools
    import random

    from referee import i18n, tables
    from referee.games.base import EntryError, Ruling
    from referee.views import play, screen_parts

    monkeypatch.setattr(play.secrets, "token_urlsafe", lambda n=None: "KEY")
    match = store.create_match(database, game, ["Ana", "Ben", "Cy", "Dee"], {})
    shared = Phone(app, match.id, "shared")  # first: once phones hold seats, this would take them over
    phones = [Phone(app, match.id, seat) for seat in ("0", "1", "2", "3")] + [shared]
    watcher = Phone(app, match.id, None)
    watcher.client.set_cookie(i18n.COOKIE, "he")
    phones.append(watcher)
    rng = random.Random(5)
    kept = (play._forms, play._fragments, play._undo_said, screen_parts._faces)
    seen_moves: set[str] = set()
    for version in range(90):
        drawn = [text(p.client.get(f"{p.url}/screen")) for p in phones]
        saved = [dict(cache) for cache in kept]
        for cache in kept:
            cache.clear()
        assert [text(p.client.get(f"{p.url}/screen")) for p in phones] == drawn, f"version {version}"
        for cache, before in zip(kept, saved):
            cache.update(before)
        log = store.state_at(database, store.get_match(database, match.id), tables.replay, tables.feed)
        engine, state = log.game, log.state
        if getattr(state, "over", False):
            break
        moves = [(None, m) for m in engine.legal_moves(state, None)]
        moves += [(s, m) for s in engine.may_act(state) for m in engine.legal_moves(state, s)]
        rng.shuffle(moves)
        deck = list(engine.cards(state))

        def filled(value):
            if isinstance(value, list):
                return [filled(v) for v in value]
            return rng.choice(deck) if value == "unknown" else value

        for (seat, move), _ in itertools.product(moves, range(6)):
            entry = {k: filled(v) for k, v in engine.move_to_dict(move, state.players).items()}
            try:
                tables.append(database, match.id, version, entry, None, seat=seat)
            except (Ruling, EntryError):
                continue
            seen_moves.add(entry["move"])
            break
        else:
            raise AssertionError(f"no entry accepted at version {version}")
    assert len(seen_moves) >= 3, seen_moves
    if game == "cabo":
        assert "reveal" in seen_moves  # the kept reveal forms were drawn and checked


def test_a_phone_undoes_its_own_seats_entries_not_another_players_turn(table, database):
    """Ana is in the middle of her turn: Ben's phone is not offered Undo, and an undo posted from it is
    refused (403, nothing stored): Ana's screen would lose her draw without a word. Her own phone undoes it;
    the table's own entries (the turn-up) any seated phone may undo."""
    match, ana, ben, _ = table
    assert ben.post(move="turn_up", card="5").status_code == 200
    assert 'value="undo"' in ana.client.get(f"{ana.url}/screen").get_data(as_text=True)  # the table's entry
    assert ana.post(move="draw").status_code == 200
    assert 'value="undo"' not in ben.client.get(f"{ben.url}/screen").get_data(as_text=True)
    before = entry_count(database, match.id)
    refused = ben.post(move="undo")
    assert refused.status_code == 403 and "Only Ana&#39;s phone can undo Ana&#39;s entry" in text(refused)
    assert entry_count(database, match.id) == before
    assert ana.post(move="undo").status_code == 200


def test_GEN_13_the_phone_that_made_a_correction_undoes_it_and_what_it_set_aside_stands_again(table, database):
    match, ana, ben, cy = table
    for phone, fields in [(ana, {"move": "turn_up", "card": "5"}), (ana, {"move": "draw"}),
                          (ana, {"move": "discard", "card": "3"}), (ben, {"move": "take_discard"}),
                          (ben, {"move": "replace", "slot": "2", "out": "7"})]:
        assert phone.post(**fields).status_code == 200, fields
    # Ana's discard was a 9, Cy says: Ben's taking it then holds, but his slot-2 card must now be re-entered
    assert cy.post(move="correct", target_entry="2", c_move="discard", c_for="Ana", c_card="9",
                   reason="it was a 9").status_code == 200
    assert "Undo: the correction of entry 2" in text(cy.client.get(f"{cy.url}/screen"))
    assert "Undo:" not in text(ben.client.get(f"{ben.url}/screen"))
    refused = ben.post(move="undo")
    assert refused.status_code == 403 and "correction of entry 2" in text(refused)
    assert cy.post(move="undo").status_code == 200
    entries = [e["entry"] for e in store.entries(database, match.id)]
    assert entries[-1]["move"] == "undo" and len(entries) == 7
    history = text(ana.client.get(f"{ana.url}/history"))
    row = lambda n: history.split(f'id="e{n}"', 1)[1].split("</li>", 1)[0]  # noqa: E731
    assert "undone" in row(5) and "undid #5" in row(6)
    assert "corrected" not in row(2) and "undone" not in row(2) and "no longer fits" not in row(4)
    # the table is as before the correction: Ben's turn is over, his phone may undo it again
    assert "Undo: Ben" in text(ben.client.get(f"{ben.url}/screen"))


def test_a_phone_may_undo_what_it_entered_for_another_player(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 2})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    for phone, fields in [(ana, {"move": "turn_up", "card": "2"}), (ana, {"move": "take_discard"}),
                          (ana, {"move": "replace", "slot": "3", "out": "6"}), (ana, {"move": "call"}),
                          (ben, {"move": "draw"}), (ben, {"move": "discard", "card": "8"}),
                          (ana, {"move": "reveal", "for": "Ben", "card1": "4", "card2": "4", "card3": "5",
                                 "card4": "1"})]:
        assert phone.post(**fields).status_code == 200, fields
    assert "Undo: Ben reveals" in text(ana.client.get(f"{ana.url}/screen"))  # Ana's phone entered it
    assert ana.post(move="undo").status_code == 200


def test_RTC_5_RTC_18_a_power_card_turned_up_and_a_new_draw_pile_are_explained(app, database):
    """RTC-5: a Draw 2 turned up to start the discard pile goes back, and the screen says why; RTC-18: once
    the discards are shuffled into a new draw pile, the screen asks for its top card, not for a new deal."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    screen = text(ana.post(move="turn_up", card="DRAW2"))
    assert "Draw 2 cannot start the discard pile (RTC-5)" in screen and "Turn up the top card" in screen
    screen = text(ana.post(move="turn_up", card="5"))
    assert "RTC-5" not in screen
    phone = ana if draw_down(database, match, to=0) == 0 else ben
    screen = text(phone.post(move="reshuffle"))
    assert "shuffled into a new draw pile: turn up its top card" in screen and "deals four cards" not in screen


def test_RTC_V20_under_the_literal_reading_a_drawn_card_is_named_and_known_to_all(app, database):
    """RTC-V20 (the game as told on Hebrew Wikipedia): the card drawn is turned face up, so Draw asks which
    card it is, and every phone sees it."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"seed_reveal_then_choose": True})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    assert ana.post(move="turn_up", card="5").status_code == 200
    screen = text(ana.client.get(f"{ana.url}/screen"))
    assert "move=draw&amp;field=card" in screen
    picker = text(ana.client.get(f"{ana.url}/pick?move=draw&field=card"))
    assert "everyone sees it, RTC-V20" in picker and 'name="card" value="7"' in picker
    assert ana.post(move="draw", card="7").status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "draw", "seat": "Ana", "card": "7"}
    assert ana.post(move="replace", slot="2", out="3").status_code == 200
    row = text(ben.client.get(f"{ben.url}/screen")).split('data-player="Ana"', 1)[1].split('data-player="Ben"', 1)[0]
    assert ">7<" in row  # Ben's phone shows Ana's slot 2 as the 7 everyone saw


def test_RTC_V20_a_draw_2s_draws_are_named_too(app, database):
    """RTC-V20 with the seed's two extra turns (RTC-37): the Draw 2 turned up is used with no draw in the same
    tap, and the extra turn's draw asks which card it is, as every draw at this table does (before, the tap
    drew blind and the card was never asked)."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"],
                               {"seed_reveal_then_choose": True, "draw2_mode": "seed_two_turns"})
    ana = Phone(app, match.id, "0")
    assert ana.post(move="turn_up", card="5").status_code == 200
    assert ana.post(move="draw", card="DRAW2").status_code == 200
    screen = html.unescape(text(ana.client.get(f"{ana.url}/screen")))
    assert "Use Draw 2 and draw" not in screen and 'name="then"' not in screen
    screen = html.unescape(text(ana.post(move="power", card="DRAW2")))
    assert "move=draw&field=card" in screen  # the extra turn's draw: named on its picker
    assert ana.post(move="draw", card="4").status_code == 200
    assert store.entries(database, match.id)[-1]["entry"] == {"move": "draw", "seat": "Ana", "card": "4"}


def test_RTC_V8_outer_cards_face_up_are_entered_for_everyone_and_by_the_shared_phone(app, database):
    """RTC-V8 outer_face_up (the preset for younger players): the outer cards are public, so the form says so,
    and the shared phone enters them for each player (on their turn, before their first play)."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"initial_peek": "outer_face_up"})
    shared = Phone(app, match.id, "shared")  # first: once Ana's phone holds her seat, this would take it over
    ana = Phone(app, match.id, "0")
    assert ana.post(move="turn_up", card="5").status_code == 200
    screen = text(ana.client.get(f"{ana.url}/screen"))
    assert "Enter your face-up outer cards (everyone sees them)" in screen and "only you see it" not in screen
    screen = html.unescape(text(shared.client.get(f"{shared.url}/screen")))
    assert "Enter Ana's face-up outer cards (everyone sees them)" in screen  # the player to act's
    answer = shared.post(move="initial_peek", slots="1,4", seen1="3", seen2="9", **{"for": "Ana"})
    assert answer.status_code == 200, text(answer)[:300]
    ben = Phone(app, match.id, "1")
    row = text(ben.client.get(f"{ben.url}/screen")).split('data-player="Ana"', 1)[1].split('data-player="Ben"', 1)[0]
    assert ">3<" in row and ">9<" in row  # public: Ben's phone shows Ana's outer cards
    downloaded = json.loads(text(ben.client.get(f"{ben.url}/transcript.json")))  # and his download has them
    assert next(e for e in downloaded["entries"] if e["move"] == "initial_peek")["seen"] == ["3", "9"]
    history = html.unescape(text(ben.client.get(f"{ben.url}/history")))  # said as what happened: no secret look
    assert "Ana's outer cards are turned face up: a 3 and a 9." in history and "Ana looks at slots" not in history


def test_GEN_13_a_correction_is_taken_only_for_an_entry_the_history_offers_to_correct(table, database):
    """The server refuses (4xx, a plain message, nothing saved) a correction whose target the history
    offers no "Correct" for: an override, an undo, an undone entry, a correction's own number. One rule
    decides both: every entry the history offers to correct opens its correction page."""
    match, ana, ben, cy = table
    assert ana.post(move="turn_up", card="5").status_code == 200                       # 0
    assert ben.post(move="draw").status_code == 422
    assert ben.post(move="override", rule="GEN-7", entry=json.dumps({"move": "draw", "seat": "Ben"}),
                    reason="Ana let Ben go first").status_code == 200                   # 1 an override
    assert ben.post(move="discard", card="4").status_code == 200                        # 2
    assert cy.post(move="draw").status_code == 200                                      # 3
    assert cy.post(move="undo").status_code == 200                                      # 4 undoes 3
    assert cy.post(move="draw").status_code == 200                                      # 5
    assert ana.post(move="correct", target_entry="2", c_move="discard", c_for="Ben", c_card="6",
                    reason="it was a 6").status_code == 200                             # 6 corrects 2
    assert cy.post(move="discard", card="8").status_code == 200                         # 7
    stored = len(store.entries(database, match.id))
    history = text(ana.client.get(f"{ana.url}/history"))
    offered = {int(n) for n in re.findall(rf'/m/{match.id}/correct/(\d+)"', history)}
    assert offered == {0, 2, 7}  # not Cy's draw (5): what he drew is his alone to note, noted or not
    for number in range(stored + 1):
        page = ana.client.get(f"{ana.url}/correct/{number}")
        if number in offered:
            assert page.status_code == 200, number
            continue
        assert 400 <= page.status_code < 500, number
        for fields in ({"entry": json.dumps({"move": "draw", "seat": "Ben"})},
                       {"c_move": "draw", "c_for": "Ben"}):
            refused = ana.post(move="correct", target_entry=str(number), reason="tidy", **fields)
            assert 400 <= refused.status_code < 500, (number, refused.status_code)
            said = html.unescape(text(refused))
            assert ("cannot be corrected" in said or "not an entry that stands" in said
                    or (number == stored and "There is no such entry" in said)
                    # Cy's draws, noted or not: his alone to correct, whether they stand or not
                    or (number in (3, 5) and "Only Cy's phone can correct this entry" in said)), (number, said[-600:])
            assert "Let it stand" not in said, number
            assert len(store.entries(database, match.id)) == stored, number
    # the override at #1 above all: it stays, and nothing after it is set aside
    after = text(ana.client.get(f"{ana.url}/history"))
    assert "no longer fits" not in after and 'class="stands" id="e1"' in after


def test_GEN_5_an_override_of_an_unreadable_entry_says_not_readable_once(table, database):
    """An override whose refused entry cannot be read is told so once, not "That entry is not readable:
    The entry is not readable."."""
    match, ana, _, _ = table
    for raw in ("{bad", "[1, 2]"):
        answer = ana.post(move="override", rule="GEN-7", entry=raw, reason="why not")
        said = html.unescape(text(answer))
        assert answer.status_code == 400 and said.lower().count("not readable") == 1, said[-400:]
    assert entry_count(database, match.id) == 0


# --- Scans at a table: what a live update keeps (static/screen.js) ----------------------------------


class _ScanBoxes(HTMLParser):
    """Each scan form of a page, with the scan box it lies in (the block its result replaces, its
    ``hx-target``, by id; or a picker's scan part, ``data-scan``) and its words for a scan whose entry can no
    longer be made."""
    VOID = {"input", "img", "br", "meta", "link", "hr", "source", "wbr", "area", "col", "embed"}

    def __init__(self):
        super().__init__()
        self.open, self.forms = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "scan-form" in (attrs.get("class") or "").split():
            target = attrs.get("hx-target", "")
            boxes = [a["data-scan"] if "data-scan" in a else "#" + a["id"] for _, a in self.open
                     if "data-scan" in a or (a.get("id") and "#" + a["id"] == target)]
            self.forms.append((boxes[-1] if boxes else None, attrs.get("data-dropped-words")))
        if tag not in self.VOID:
            self.open.append((tag, attrs))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break


def scan_boxes(page: str) -> list[str]:
    """The scan boxes of a page's scan forms, in order ("#reveal-Ana", "pick"); every scan form lies in one
    and says, in words, a scan whose entry can no longer be made."""
    parser = _ScanBoxes()
    parser.feed(page)
    for box, words in parser.forms:
        assert box is not None and words and "can no longer be made" in words, (box, words)
    return [box for box, _ in parser.forms]


def test_every_scan_at_a_table_lies_in_a_scan_box_a_live_update_keeps(app, database):
    """Where a photo may be scanned, the scan form and where its result goes lie in one scan box: the
    block the result replaces (a set-up's face-up cards, a reveal), or the scan part of a picker."""
    from .test_cabo_table import CAMBIO, CaboPhone
    from .test_scan import at_reveal
    from .test_shithead_table import ShPhone

    rtc = at_reveal(database)
    ben = CaboPhone(app, rtc.id, "1")
    assert scan_boxes(ben.screen()) == ["#reveal-Ana", "#reveal-Ben"]
    ana = CaboPhone(app, store.create_match(database, "ratatat", ["Ana", "Ben"]).id, "0")
    picker = ana.pick(move="turn_up", field="card")
    assert scan_boxes(picker) == ["pick"]
    assert re.search(r'data-scan="pick">\s*<form class="scan-form".*?</form>\s*<div id="scan-result"></div>\s*</div>',
                     picker, re.S)
    cambio = CaboPhone(app, store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO).id, "0")
    assert scan_boxes(cambio.pick(move="turn_up", field="card")) == ["pick"]
    sm = CaboPhone(app, store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5}).id, "0")
    assert scan_boxes(sm.pick(move="top", seat="Ann")) == ["pick"]
    sh = ShPhone(app, store.create_match(database, "shithead", ["Ann", "Bo", "Cy"], {}).id, "0")
    assert scan_boxes(sh.screen()) == ["#faceup-Ann", "#faceup-Bo", "#faceup-Cy"]


def test_a_scanned_row_keeps_its_scan_box_and_a_cambio_reveal_names_the_cards_read(app, database):
    """A scan's result replaces its block whole, a scan box of the same id; its form is a draft box.
    Cambio's one confirm button names the cards read, as Rat-a-Tat Cat's does (and camera.js keeps it so)."""
    import io

    from .cardphotos import standard_row_photo
    from .test_cabo_table import CAMBIO, CaboPhone

    match = store.create_match(database, "cabo", ["Ana", "Ben"], CAMBIO)
    table = CaboPhone(app, match.id, "shared")
    table.ok(move="turn_up", card="4C")
    table.ok(move="draw", **{"for": "Ana"})
    table.ok(move="discard", card="5S", **{"for": "Ana"})
    table.ok(move="call", **{"for": "Ben"})
    table.ok(move="draw", **{"for": "Ana"})
    table.ok(move="discard", card="8D", **{"for": "Ana"})
    photo = standard_row_photo(["7D", "QS", "2D", "KC"], seed=7, left=60, step=370, top=260)
    response = table.client.post(f"{table.url}/scan", headers=HX, content_type="multipart/form-data",
                                 data={"move": "reveal", "for": "Ana", "photo": (io.BytesIO(photo), "row.jpg")})
    page = html.unescape(text(response))
    assert response.status_code == 200 and scan_boxes(page) == ["#reveal-Ana"]
    assert 'class="stack reveal-form scan-reveal-form" data-draft="reveal-Ana"' in page
    assert 'data-unknown-words="unknown card"' in page
    assert re.search(r'class="big confirm-reveal">Reveal Ana: 7♦ Q♠ 2♦ K♣</button>', page)


def test_RTC_K10_a_row_says_what_its_known_cards_add_up_to_and_how_many_are_not_known(table):
    """RTC-K10: the known subtotal reads as a sum of the cards known, not as a count of cards."""
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="take_discard")
    screen = text(ana.post(move="replace", slot="3", out="8"))
    assert "known cards add up to 5; 3 cards not known" in screen
    assert "known 5 + 3 unknown" not in screen


def test_RTC_K10_a_row_nobody_knows_a_card_of_says_so_not_that_it_adds_up_to_0(table):
    match, ana, _, _ = table
    screen = text(ana.post(move="turn_up", card="5"))
    assert screen.count("4 cards not known") == 3
    assert "add up to 0" not in screen


def test_RTC_K10_GEN_6_a_player_sees_what_her_own_first_look_adds_up_to_and_nobody_else_does(table):
    """The subtotal on the shared rows counts public cards only; on Ana's own phone her row also says
    what the cards she saw add up to. Ben's phone shows no trace of it."""
    match, ana, ben, _ = table
    ana.post(move="turn_up", card="5")
    screen = text(ana.post(move="initial_peek", slots="1,4", seen1="3", seen2="8"))
    assert "To the table: 4 cards not known. With the cards you saw: known cards add up to 11; 2 cards not known" in screen
    assert screen.count("With the cards you saw") == 1
    theirs = text(ben.client.get(f"{ben.url}/screen"))
    assert "With the cards you saw" not in theirs and "add up to 11" not in theirs


def test_RTC_K10_RTC_44_a_power_card_put_into_the_row_counts_as_one_to_be_replaced_not_as_a_number(table):
    match, ana, _, _ = table
    ana.post(move="turn_up", card="5")
    ana.post(move="draw", card="PEEK")
    screen = text(ana.post(move="replace", slot="2", out="8"))
    assert ("To the table: 4 cards not known. With the cards you saw: 3 cards not known; "
            "1 power card, to be replaced by a draw at the reveal") in screen


def test_GEN_6_after_the_round_only_the_player_may_correct_their_first_look(table, database):
    """Once the cards are revealed anyone may read Ana's first look, but only her phone may change it:
    Ben's history offers no "Correct" there and his correction is refused (403, nothing stored)."""
    match, ana, ben, cy = table
    for phone, fields in [
        (ana, {"move": "turn_up", "card": "5"}),
        (ana, {"move": "initial_peek", "slots": "1,4", "seen1": "0", "seen2": "1"}),
        (ana, {"move": "draw"}), (ana, {"move": "discard", "card": "7"}), (ana, {"move": "call"}),
        (ben, {"move": "draw"}), (ben, {"move": "discard", "card": "8"}),
        (cy, {"move": "draw"}), (cy, {"move": "discard", "card": "8"}),
        (ana, {"move": "reveal", "for": "Ana", "card1": "0", "card2": "4", "card3": "2", "card4": "1"}),
        (ben, {"move": "reveal", "for": "Ben", "card1": "3", "card2": "6", "card3": "5", "card4": "9"}),
        (cy, {"move": "reveal", "for": "Cy", "card1": "6", "card2": "6", "card3": "1", "card4": "9"}),
    ]:
        assert phone.post(**fields).status_code == 200, fields
    assert f'/m/{match.id}/correct/1"' not in text(ben.client.get(f"{ben.url}/history"))
    assert f'/m/{match.id}/correct/1"' in text(ana.client.get(f"{ana.url}/history"))
    before = entry_count(database, match.id)
    refused = ben.post(move="correct", target_entry="1", c_move="initial_peek", c_for="Ana", c_slots="1,4",
                       c_seen1="9", c_seen2="9", reason="tidy")
    assert refused.status_code == 403 and "Only Ana&#39;s phone can correct this entry" in text(refused)
    assert entry_count(database, match.id) == before


def test_the_match_table_says_its_columns_to_a_screen_reader(table):
    """Each total is read with its column's name ("Total"), not as a bare number beside a name."""
    match, ana, _, _ = table
    page = text(ana.client.get(f"/m/{match.id}"))
    standings = re.search(r'<section class="card standings" id="standings".*?</table>', page, re.S).group(0)
    assert re.search(r'<thead class="unseen"><tr><th scope="col"><span class="visually-hidden">Player</span></th>'
                     r'<th scope="col"><span class="visually-hidden">Total</span></th></tr></thead>', standings)
    assert '<th scope="row"><bdi>Ana</bdi>' in standings
