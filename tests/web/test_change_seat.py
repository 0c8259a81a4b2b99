"""A phone that tapped the wrong name gets back to the seat picker: "Not you? Change seat" on a seated phone's
screen, a post (never a link) that gives up this phone's own seat only."""
from __future__ import annotations

import re

import pytest

from referee import store

from .test_play import HX, Phone, text

GAMES = [("ratatat", ["Ana", "Ben", "Cy"]), ("cabo", ["Ana", "Ben"]), ("shithead", ["Ana", "Ben"]),
         ("spite_malice", ["Ana", "Ben"])]
PLAIN = {"Origin": "http://localhost"}  # a plain form post (no htmx): as the browser sends the control's form


def _change_seat_form(page: str, match_id: str) -> str | None:
    """The form of the "change seat" control, or None when the screen has none."""
    for form in re.findall(r"<form\b[^>]*>.*?</form>", page, re.S):
        if f'action="/m/{match_id}/seat"' in form and 'value="choose"' in form:
            return form
    return None


@pytest.mark.parametrize("game, players", GAMES, ids=[g for g, _ in GAMES])
def test_a_seated_phone_is_offered_a_way_back_to_the_seat_picker(app, database, game, players):
    match = store.create_match(database, game, players)
    ana = Phone(app, match.id, "0")
    page = text(ana.client.get(f"/m/{match.id}"))
    assert "You enter for <strong>Ana</strong>." in page
    form = _change_seat_form(page, match.id)
    assert form is not None, "no change-seat control on a seated phone's screen"
    assert 'method="post"' in form and "hx-get" not in form
    assert "Not you? Change seat" in form


def test_the_shared_phone_and_a_watcher_are_not_offered_it(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    shared, watcher = Phone(app, match.id, "shared"), Phone(app, match.id, "watch")
    for phone in (shared, watcher):
        assert _change_seat_form(text(phone.client.get(f"/m/{match.id}")), match.id) is None


def test_changing_seat_gives_up_only_this_phones_seat_and_shows_the_picker(app, database):
    match = store.create_match(database, "ratatat", ["Hana", "Ben", "Cy"])
    wrong, ben = Phone(app, match.id, "0"), Phone(app, match.id, "1")  # "wrong" is Cy's phone, tapped Hana
    response = wrong.client.post(f"/m/{match.id}/seat", data={"seat": "choose"}, headers=PLAIN)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/m/{match.id}")
    page = text(wrong.client.get(f"/m/{match.id}"))
    assert 'id="seat-picker"' in page and "who are you?" in page
    assert "You enter for" not in page and _change_seat_form(page, match.id) is None
    assert store.seat_holder(database, match.id, 0) is None  # Hana's seat is free for Hana's phone
    assert store.seat_holder(database, match.id, 1) is not None  # Ben's phone keeps its seat
    assert "You enter for <strong>Ben</strong>." in text(ben.client.get(f"/m/{match.id}"))
    # the phone now takes its own seat, with nobody asked (the seat it left is nobody's)
    assert wrong.client.post(f"/m/{match.id}/seat", data={"seat": "2"}, headers=PLAIN).status_code == 303
    assert "You enter for <strong>Cy</strong>." in text(wrong.client.get(f"/m/{match.id}"))
    holders = {store.seat_holder(database, match.id, seat) for seat in range(3)}
    assert None in holders and len(holders) == 3


def test_a_phone_that_lost_its_seat_takes_nothing_from_the_phone_that_took_it(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    first = Phone(app, match.id, "0")
    second = Phone(app, match.id, None)
    taken = second.client.post(f"/m/{match.id}/seat", data={"seat": "0", "confirm": "1"}, headers=PLAIN)
    assert taken.status_code == 303
    holder = store.seat_holder(database, match.id, 0)
    assert first.client.post(f"/m/{match.id}/seat", data={"seat": "choose"}, headers=PLAIN).status_code == 303
    assert store.seat_holder(database, match.id, 0) == holder  # still the second phone's
    assert "You enter for <strong>Ana</strong>." in text(second.client.get(f"/m/{match.id}"))


def test_changing_seat_needs_the_apps_own_origin_and_a_post(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    ana = Phone(app, match.id, "0")
    holder = store.seat_holder(database, match.id, 0)
    refused = ana.client.post(f"/m/{match.id}/seat", data={"seat": "choose"},
                              headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403
    assert ana.client.post(f"/m/{match.id}/seat", data={"seat": "choose"}).status_code == 403  # no Origin
    assert ana.client.get(f"/m/{match.id}/seat?seat=choose").status_code == 303  # a link changes nothing
    assert store.seat_holder(database, match.id, 0) == holder
    assert "You enter for <strong>Ana</strong>." in text(ana.client.get(f"/m/{match.id}"))


def test_the_control_is_on_the_screen_a_live_update_draws_too(app, database):
    """The fragment each phone re-fetches when the doorbell rings keeps it (it is part of the screen)."""
    match = store.create_match(database, "ratatat", ["Ana", "Ben"])
    ana = Phone(app, match.id, "0")
    page = text(ana.client.get(f"/m/{match.id}/screen", headers=HX))
    assert _change_seat_form(page, match.id) is not None
