"""Who a phone is at a table: its seat, the shared phone, a watcher; seats taken over by another phone."""

from __future__ import annotations

import pytest
from flask import session

from referee import seats, store

ORIGIN = {"Origin": "http://localhost"}


def _as_phone(app, device: str, seat_by_match: dict | None = None):
    """A request context for one phone (its session as its cookie would carry it)."""
    context = app.test_request_context("/")
    context.push()
    session["device"] = device
    if seat_by_match:
        session["seats"] = dict(seat_by_match)
    return context


def test_a_phone_that_sits_holds_the_seat(app, database):
    match = store.create_match(database, "tally", ["Ann", "Bo"])
    context = _as_phone(app, "phone-a")
    try:
        assert seats.phone_seat(match.id) is None and not seats.can_enter(match.id)
        assert seats.sit(match.id, 1) is None
        assert seats.phone_seat(match.id) == 1 and seats.can_enter(match.id)
        assert seats.lost_seat(match.id) is None
    finally:
        context.pop()
    assert store.seat_holder(database, match.id, 1) == "phone-a"


def test_a_phone_whose_seat_was_taken_over_watches_at_once(app, database):
    """The holder is cached per process; a takeover is seen by the next request of the old phone."""
    match = store.create_match(database, "tally", ["Ann", "Bo"])
    context = _as_phone(app, "phone-a")
    try:
        seats.sit(match.id, 0)
        assert seats.phone_seat(match.id) == 0  # now cached
    finally:
        context.pop()
    context = _as_phone(app, "phone-b")
    try:
        assert seats.holder_of(match.id, 0) == "phone-a"
        assert seats.sit(match.id, 0) == "phone-a"
    finally:
        context.pop()
    context = _as_phone(app, "phone-a", {match.id: 0})
    try:
        assert seats.phone_seat(match.id) is None
        assert seats.lost_seat(match.id) == 0
        assert not seats.can_enter(match.id)
    finally:
        context.pop()


def test_standing_up_frees_the_seat_for_the_next_phone(app, database):
    match = store.create_match(database, "tally", ["Ann", "Bo"])
    context = _as_phone(app, "phone-a")
    try:
        seats.sit(match.id, 1)
        seats.stand_up(match.id, "watch")
        assert seats.is_watching(match.id) and seats.phone_seat(match.id) is None
    finally:
        context.pop()
    context = _as_phone(app, "phone-b")
    try:
        assert seats.holder_of(match.id, 1) is None  # released: nobody to ask
        assert seats.sit(match.id, 1) is None
    finally:
        context.pop()


def test_the_shared_phone_enters_without_a_seat(app, database):
    match = store.create_match(database, "tally", ["Ann", "Bo"])
    context = _as_phone(app, "phone-s")
    try:
        seats.sit(match.id, 0)
        seats.stand_up(match.id, "shared")
        assert seats.is_shared(match.id) and seats.can_enter(match.id)
        assert seats.phone_seat(match.id) is None
    finally:
        context.pop()
    assert store.seat_holder(database, match.id, 0) is None


def test_a_takeover_over_the_wire_reaches_the_old_phones_next_request(app, database):
    """Through the real app: right after another phone took its seat, the old phone's entry is refused."""
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    old, new = app.test_client(), app.test_client()
    headers = {"Origin": "http://localhost"}
    assert old.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=headers).status_code == 303
    assert old.get(f"/m/{match.id}/screen", headers={"HX-Request": "true"}).status_code == 200  # holder cached
    assert new.post(f"/m/{match.id}/seat", data={"seat": "0", "confirm": "1"}, headers=headers).status_code == 303
    answer = old.post(f"/m/{match.id}/entry", data={"version": "0", "move": "turn_up", "card": "5"}, headers=headers)
    assert answer.status_code == 403


@pytest.mark.parametrize("game", ["ratatat", "cabo", "shithead", "spite_malice"])
def test_a_table_page_before_a_seat_is_picked_has_exactly_one_h1(app, database, game):
    """The seat picker's question is the page's one heading; the game's status under it is a level lower
    (also on the screen the doorbell re-fetches, and once a seat is taken the status is the h1 again)."""
    match = store.create_match(database, game, ["Ann", "Bo"])
    phone = app.test_client()
    page = phone.get(f"/m/{match.id}").get_data(as_text=True)
    assert page.count("<h1") == 1 and "who are you?</h1>" in page
    fragment = phone.get(f"/m/{match.id}/screen", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert fragment.count("<h1") == 0 and 'id="status"' in fragment
    assert phone.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=ORIGIN).status_code == 303
    seated = phone.get(f"/m/{match.id}").get_data(as_text=True)
    assert seated.count("<h1") == 1 and '<h1 id="status">' in seated


def test_a_seated_phone_switches_straight_to_the_shared_phone(app, database):
    """From a seat to "one phone for everyone" in one step: a link on the table, a page that says the seat
    is given up (a link never changes a phone's seat: GET is safe), then the same post as the picker's."""
    match = store.create_match(database, "shithead", ["Ann", "Bo"])
    phone = app.test_client()
    assert phone.post(f"/m/{match.id}/seat", data={"seat": "1"}, headers=ORIGIN).status_code == 303
    screen = phone.get(f"/m/{match.id}").get_data(as_text=True)
    assert f'href="/m/{match.id}/shared"' in screen
    page = phone.get(f"/m/{match.id}/shared")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "It gives up Bo's seat." in html and 'name="seat" value="shared"' in html
    assert store.seat_holder(database, match.id, 1) is not None  # asking changed nothing
    assert phone.post(f"/m/{match.id}/seat", data={"seat": "shared"}, headers=ORIGIN).status_code == 303
    assert store.seat_holder(database, match.id, 1) is None
    shared = phone.get(f"/m/{match.id}").get_data(as_text=True)
    assert "One phone for everyone" in shared and "who are you?" not in shared
    assert f'href="/m/{match.id}/shared"' not in shared  # already the shared phone
    # the same guard as every post: another site cannot switch it
    other = app.test_client()
    other.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=ORIGIN)
    assert other.post(f"/m/{match.id}/seat", data={"seat": "shared"}, headers={"Origin": "http://evil.example"}
                      ).status_code == 403
    assert store.seat_holder(database, match.id, 0) is not None
    assert app.test_client().get("/m/nope/shared").status_code == 404


def test_a_phone_that_played_hundreds_of_tables_can_still_take_a_seat(app, database):
    """The seats a phone holds live in its cookie: it keeps its last 50 tables, so the cookie stays under
    the 4 KB a browser keeps (past it the browser drops the cookie and the phone can never sit again)."""
    client = app.test_client()
    matches = [store.create_match(database, "ratatat", ["Ann", "Bo"]) for _ in range(120)]
    for match in matches:
        assert client.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=ORIGIN).status_code == 303
    cookie = client.get_cookie("referee_session")
    assert cookie is not None and len(cookie.value) < 4000, len(cookie.value)
    assert "You enter for <strong>Ann</strong>" in client.get(f"/m/{matches[-1].id}").get_data(as_text=True)
    assert "You enter for <strong>Ann</strong>" in client.get(f"/m/{matches[-50].id}").get_data(as_text=True)
    page = client.get(f"/m/{matches[0].id}").get_data(as_text=True)  # forgotten: the phone picks its seat again
    assert "seat-picker" in page
    assert client.post(f"/m/{matches[0].id}/seat", data={"seat": "0"}, headers=ORIGIN).status_code == 303
    assert "You enter for <strong>Ann</strong>" in client.get(f"/m/{matches[0].id}").get_data(as_text=True)


def test_a_new_phone_opening_a_finished_match_sees_the_result_first_and_the_seats_under_it(app, database):
    """After the match, a phone opening the table's link was asked "who are you?" before anything, and
    "Match over" came below: the result is the page's heading now, and the seats follow it (a player may
    still take theirs, to read their notes or correct an entry)."""
    from tests.web.test_home import finished_match

    match = finished_match(database)
    page = app.test_client().get(f"/m/{match.id}").get_data(as_text=True)
    assert page.count("<h1") == 1 and '<h1 id="status">Match over</h1>' in page
    assert "who are you?</h2>" in page and page.index('id="status"') < page.index('id="seat-picker"')
    assert 'name="seat" value="0"' in page.split('id="seat-picker"', 1)[1]
