"""A card picker opened for an entry that is no longer open (a link kept from earlier, a second tab, a tap after
another phone moved the game on) says so in words, with a link back to the table, and shows no card to tap
(200, as the pickers' own "That choice is no longer open" answers). A picker whose entry is open is drawn as before. Each of these showed its
cards before the fix (a tap on one was then refused: RTC-13 and the like)."""
from __future__ import annotations

import html
import re

import pytest

from referee import store, tables

from .test_pick_params import TABLES, WALK, _open_moves
from .test_play import HX, Phone, text

CLOSED = "That choice is no longer open"
BACK = "Back to the table"


def _get(phone: Phone, query: str, htmx: bool = True):
    return phone.client.get(f"{phone.url}/pick?{query}", headers=HX if htmx else {})


def _entry_fields(page: str) -> list[str]:
    """The entries the page's forms would make (each form's hidden ``move``)."""
    return re.findall(r'<input type="hidden" name="move" value="([^"]*)"', page)


def _assert_closed(response, *words: str) -> str:
    page = html.unescape(text(response))
    assert response.status_code == 200, (response.status_code, page[-800:])
    assert CLOSED in page and BACK in page and 'class="pick pick-closed"' in page, page[-800:]
    pick = page[page.index('id="pick"'):]
    assert "<form" not in pick and "cardbtn" not in pick, pick[:800]  # no card to tap
    assert 'href="/m/' in pick  # the link back to the table (a plain link: it works without scripts too)
    for word in words:
        assert word in page, (word, page[-800:])
    return page


def _assert_open(response) -> str:
    page = html.unescape(text(response))
    assert response.status_code == 200, (response.status_code, page[-800:])
    assert CLOSED not in page
    return page


def _state(database, match_id):
    return store.state_at(database, store.get_match(database, match_id), tables.replay)


# --- Rat-a-Tat Cat: the cases the tester found --------------------------------------------------------------


def _ratatat(app, database, rules=None, players=("Ana", "Ben")):
    match = store.create_match(database, "ratatat", list(players), {"rounds_n": 1, **(rules or {})})
    phones = [Phone(app, match.id, str(i)) for i in range(len(players))]
    assert phones[0].post(move="turn_up", card="5").status_code == 200
    return match, phones


@pytest.mark.parametrize("htmx", [True, False])
def test_the_replace_picker_after_the_card_was_discarded_is_closed_and_says_why(app, database, htmx):
    match, (ana, ben) = _ratatat(app, database)
    assert ana.post(move="draw").status_code == 200
    query = "move=replace&slot=2&field=out"
    page = _assert_open(_get(ana, query, htmx))  # open: the cards of slot 2, unchanged
    assert "Which card came out of slot 2?" in page and _entry_fields(page).count("replace") >= 10
    assert ana.post(move="discard", card="7").status_code == 200  # from another tab
    closed = _assert_closed(_get(ana, query, htmx), "Ana discards a 7")
    if not htmx:  # a whole page: the table's, live
        assert "<html" in closed and 'id="screen"' in closed and f'data-table-path="/m/{match.id}"' in closed
    # the other phone (whose turn it now is) is not offered Ana's replace either
    _assert_closed(_get(ben, query, htmx))
    assert [e["entry"]["move"] for e in store.entries(database, match.id)] == ["turn_up", "draw", "discard"]


def test_a_draw_2s_discard_and_draw_again_after_the_second_draw_was_used_is_closed(app, database):
    match, (ana, _) = _ratatat(app, database)
    assert ana.post(move="draw").status_code == 200
    assert ana.post(move="power", card="DRAW2", then="draw").status_code == 200
    query = "move=discard&field=card&then=draw"
    page = _assert_open(_get(ana, query))  # the first of the two draws: discard it and draw again
    assert _entry_fields(page).count("discard") >= 10
    assert ana.post(move="discard", card="7", then="draw").status_code == 200  # the second draw, used
    _assert_closed(_get(ana, query), "Ana")
    _assert_open(_get(ana, "move=discard&field=card"))  # the second card may still be discarded
    answer = ana.post(move="discard", card="8", then="draw")  # what a card of the stale picker would have made
    assert answer.status_code == 422


def test_a_picker_of_an_entry_already_made_is_closed_in_every_rat_a_tat_cat_step(app, database):
    match, (ana, ben) = _ratatat(app, database, {"seed_reveal_then_choose": True})
    _assert_closed(_get(ana, "move=turn_up&field=card"))  # turned up already
    _assert_open(_get(ana, "move=draw&field=card"))
    assert ana.post(move="draw", card="4").status_code == 200
    _assert_closed(_get(ana, "move=draw&field=card"), "Ana")
    assert ana.post(move="discard", card="4").status_code == 200
    assert ben.post(move="draw", card="PEEK").status_code == 200
    assert ben.post(move="power", card="PEEK").status_code == 200
    _assert_open(_get(ben, "move=peek&slot=1&field=seen"))
    assert ben.post(move="peek", slot="1", seen="unknown").status_code == 200
    _assert_closed(_get(ben, "move=peek&slot=1&field=seen"))
    _assert_closed(_get(ana, "move=take_discard&field=card"))  # Ana's turn, but a Peek tops the discard (RTC-12)
    _assert_closed(_get(ben, "move=swap&slot=1&field=target_slot"))


def test_the_shared_phone_is_told_too_and_an_open_picker_of_another_seat_stays_open(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    shared = Phone(app, match.id, "shared")
    for fields in ({"move": "turn_up", "card": "5"}, {"move": "draw"}):
        assert shared.post(**fields).status_code == 200
    _assert_open(_get(shared, "move=replace&slot=3&field=out"))
    assert shared.post(move="replace", slot="3", out="9").status_code == 200
    _assert_closed(_get(shared, "move=replace&slot=3&field=out"), "Ana")
    _assert_closed(_get(shared, "move=replace&slot=3&field=out", htmx=False), "Ana")


def test_a_picker_of_a_match_ended_says_the_match_is_over(app, database):
    from tests.web.nights_helpers import example, play

    match = play(database, example("three-rounds"), None, upto=13)  # a round scored, the second begun
    ana = Phone(app, match.id, "0")
    query = "move=turn_up&field=card"
    log = _state(database, match.id)
    if "turn_up" not in {m["move"] for m in _open_moves(log)}:
        query = "move=draw&field=card"
    version = store.get_match(database, match.id).version
    ended = ana.client.post(f"{ana.url}/end", data={"version": version, "confirm": "1"}, headers=HX)
    assert ended.status_code == 200
    _assert_closed(_get(ana, query), "the match is over")
    _assert_closed(_get(ana, query, htmx=False), "the match is over")


# --- The other games' pickers left open before ------------------------------------------------------------------


def test_shithead_pickers_of_entries_made_are_closed(app, database):
    match = store.create_match(database, "shithead", ["Ana", "Ben"], {})
    ana, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    _assert_open(_get(ana, "move=faceup&seat=Ana"))
    assert ana.post(move="faceup", cards="9S,KD,AH").status_code == 200
    _assert_closed(_get(ana, "move=faceup&seat=Ana"), "Ana")  # entered already
    _assert_open(_get(ben, "move=faceup&seat=Ben"))
    assert ben.post(move="faceup", cards="5H,6S,QD").status_code == 200
    _assert_open(_get(ana, "move=start&seat=Ana"))
    assert ana.post(move="start", card="4C").status_code == 200
    _assert_closed(_get(ana, "move=start&seat=Ana"))  # who starts is said
    _assert_closed(_get(ben, "move=start&seat=Ben"))
    _assert_closed(_get(ben, "move=play&seat=Ben&field=unseen"))  # Ana's turn, not Ben's
    _assert_closed(_get(ben, "move=play_any&seat=Ben"))


def test_a_spite_and_malice_pay_off_top_entered_already_is_closed(app, database):
    match = store.create_match(database, "spite_malice", ["Ann", "Bob"], {"payoff_size": 5})
    ann, bob = Phone(app, match.id, "0"), Phone(app, match.id, "1")
    _assert_open(_get(ann, "move=top&seat=Bob"))  # either phone enters a pay-off top
    assert ann.post(move="top", card="9").status_code == 200
    assert bob.post(move="top", card="4").status_code == 200
    for phone in (ann, bob):
        _assert_closed(_get(phone, "move=top&seat=Ann"))
        _assert_closed(_get(phone, "move=top&seat=Bob"))
    _assert_closed(_get(bob, "move=discard&seat=Bob"))  # Ann's turn
    _assert_closed(_get(bob, "move=build_any&seat=Bob"))


def test_a_cabo_picker_of_a_turn_taken_is_closed_with_its_reason(app, database):
    match = store.create_match(database, "cabo", ["Ana", "Ben"], {})
    shared = Phone(app, match.id, "shared")
    assert shared.post(move="turn_up", card="5").status_code == 200
    _assert_closed(_get(shared, "move=turn_up&field=card"))
    assert shared.post(move="draw").status_code == 200
    _assert_open(_get(shared, "move=discard&field=card"))
    assert shared.post(move="discard", card="3").status_code == 200
    _assert_closed(_get(shared, "move=discard&field=card&seat=Ana"), "Ana")


# --- Every picker of every game, at every step of a table: closed exactly when its entry is not open ----------

ALIASES = {"play_any": ("play", "pickup"), "build_any": ("build", "discard")}


@pytest.mark.parametrize("name", list(TABLES))
def test_every_picker_is_closed_exactly_when_no_entry_of_its_move_is_open(app, database, name):
    game, players, rules, script = TABLES[name]
    match = store.create_match(database, game, players, rules)
    shared = Phone(app, match.id, "shared")
    seated = [Phone(app, match.id, str(i)) for i in range(len(players))]
    closed = opened = 0
    for step in script:
        if step != WALK:
            who, fields = step
            phone = shared if who == "shared" else seated[who]
            assert phone.post(**fields).status_code == 200, (name, fields)
            continue
        log = _state(database, match.id)
        kinds = {m["move"] for m in _open_moves(log)}
        for move in log.game.PICK_MOVES:
            response = _get(shared, f"move={move}")
            if kinds & set(ALIASES.get(move, (move,))):
                assert 'class="pick pick-closed"' not in text(response), (name, move)
                opened += 1
            else:
                _assert_closed(response)
                _assert_closed(_get(shared, f"move={move}", htmx=False))
                closed += 1
    assert closed and opened
