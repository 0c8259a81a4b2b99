"""Phones tapping the same free seat at once, against the server `referee serve` runs (real threads, a real
SQLite file): one phone sits, every other one is asked whether to take the seat over (409), and the table's
history records one claim and no take-over."""

from __future__ import annotations

import http.client
import threading

import pytest

from referee import seats, store
from referee.server import Background

PHONES = 12


@pytest.fixture
def server(app):
    """The app served as `referee serve` serves it, with a worker thread for every phone."""
    background = Background(app, "127.0.0.1", threads=PHONES + 4)
    yield background
    background.stop()


def _tap_seat(port: int, match_id: str, seat: str, start: threading.Barrier, answers: list, lock: threading.Lock):
    """One new phone (no cookie yet) posting the seat picker's form."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        start.wait(timeout=30)
        conn.request("POST", f"/m/{match_id}/seat", body=f"seat={seat}", headers={
            "Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{port}"})
        response = conn.getresponse()
        body = response.read().decode()
        with lock:
            answers.append((response.status, body, response.getheader("Set-Cookie") or ""))
    finally:
        conn.close()


def _all_at_once(port: int, match_id: str, seat: str = "0") -> list[tuple[int, str, str]]:
    answers: list = []
    lock = threading.Lock()
    start = threading.Barrier(PHONES)
    threads = [threading.Thread(target=_tap_seat, args=(port, match_id, seat, start, answers, lock))
               for _ in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(answers) == PHONES
    return answers


def _one_sat_and_the_others_were_asked(database, match_id: str, answers) -> None:
    statuses = sorted(status for status, _, _ in answers)
    assert statuses == [303] + [409] * (PHONES - 1), statuses
    for status, body, _ in answers:
        if status == 409:
            assert "Ann's seat is taken" in body and 'name="confirm" value="1"' in body
    claims = store.seat_claims(database, match_id)
    assert len(claims) == 1 and claims[0]["previous_device"] is None  # one claim, no take-over recorded
    assert store.seat_holder(database, match_id, 0) == claims[0]["device"]


def test_phones_tapping_a_free_seat_together_one_sits_the_others_are_asked(server, database, monkeypatch):
    """Every phone has been told the seat is free before any of them claims it (the view's check is held
    until all twelve have made it): the claim checks again, in its own write transaction."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob"])
    checked = threading.Barrier(PHONES)
    seen = seats.holder_of

    def holder_of_then_wait(match_id, seat):
        holder = seen(match_id, seat)
        try:
            checked.wait(timeout=10)
        except threading.BrokenBarrierError:
            pass
        return holder

    monkeypatch.setattr(seats, "holder_of", holder_of_then_wait)
    answers = _all_at_once(server.port, match.id)
    assert not checked.broken  # all twelve were told "free" before any claimed
    _one_sat_and_the_others_were_asked(database, match.id, answers)


def test_phones_tapping_a_free_seat_together_as_they_come(server, database):
    """The same without holding anyone up, a few times over."""
    for _ in range(4):
        match = store.create_match(database, "ratatat", ["Ann", "Bob"])
        _one_sat_and_the_others_were_asked(database, match.id, _all_at_once(server.port, match.id))


def test_the_phone_that_was_asked_takes_the_seat_over_when_it_confirms(server, database):
    """A phone that lost the race is asked, and confirming is a recorded take-over, as for any held seat."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob"])
    answers = _all_at_once(server.port, match.id)
    loser = next(cookie for status, _, cookie in answers if status == 409)  # a session, if it got one yet
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("POST", f"/m/{match.id}/seat", body="seat=0&confirm=1", headers={
        "Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{server.port}",
        **({"Cookie": loser.split(";", 1)[0]} if loser else {})})
    response = conn.getresponse()
    response.read()
    conn.close()
    assert response.status == 303
    claims = store.seat_claims(database, match.id)
    assert len(claims) == 2 and claims[1]["previous_device"] == claims[0]["device"]


def test_a_seat_claimed_since_the_phone_looked_is_asked_for_again(app, database):
    """`sit` takes the seat only from the holder `holder_of` showed in the same request."""
    match = store.create_match(database, "ratatat", ["Ann", "Bob"])
    with app.test_request_context("/", method="POST"):
        from flask import session

        session["device"] = "phone-a"
        assert seats.holder_of(match.id, 0) is None  # free when this phone looked
        store.claim_seat(database, match.id, 0, "phone-b")  # then another phone sat down
        with pytest.raises(Exception) as asked:
            seats.sit(match.id, 0)
        assert asked.value.response.status_code == 409
        assert "Ann's seat is taken" in asked.value.response.get_data(as_text=True)
    assert store.seat_holder(database, match.id, 0) == "phone-b"
    assert len(store.seat_claims(database, match.id)) == 1
