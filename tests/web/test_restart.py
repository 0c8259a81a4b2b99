"""A table survives a restart whatever was posted to it: hostile entries are refused with a 4xx or
stored so that they replay, and a log holding an entry that no longer applies still opens.

Real SQLite file, the real Flask app; the restart is a new app on the same file with the state
cache cleared.
"""
from __future__ import annotations

import json
import re

import pytest

from referee import create_app, store
from referee.db import connect

HX = {"Origin": "http://localhost", "HX-Request": "true"}

GOOD = [
    ("0", {"move": "turn_up", "card": "5"}),
    ("0", {"move": "draw"}),
    ("0", {"move": "replace", "slot": "2", "out": "8"}),
    ("1", {"move": "draw"}),
]


def deep_override(depth: int) -> dict:
    entry: dict = {"move": "draw", "seat": "Ben"}
    for _ in range(depth):
        entry = {"move": "override", "rule": "RTC-13", "entry": entry, "reason": "x", "seat": "Ben"}
    return entry


def hostile_forms() -> list[dict]:
    return [
        {"move": "override", "rule": "RTC-13", "reason": "deep", "entry": json.dumps(deep_override(487))},
        {"move": "override", "rule": "RTC-13", "reason": "note",
         "entry": json.dumps({"move": "draw", "seat": "Ben", "note": "n" * 450_000})},
        {"move": "override", "rule": "RTC-13", "reason": "note", "entry": json.dumps({"move": "draw", "seat": "Ben"}),
         "note": "n" * 450_000},
        {"move": "discard", "card": "\u0663"},  # an Arabic-Indic 3
        {"move": "replace", "slot": "\u0662", "out": "\u0667"},
        {"move": "override", "rule": "RTC-13", "reason": "r", "entry": '{"move": "draw", "seat": "\\ud800"}'},
        {"move": "override", "rule": "RTC-13", "reason": "r", "entry": "[" * 5000 + "]" * 5000},
    ]


class Phone:
    def __init__(self, app, match_id: str, seat: str | None, same_as: Phone | None = None):
        self.client = app.test_client()
        self.url = f"/m/{match_id}"
        if same_as is not None:  # the same phone (its cookie) on the restarted server
            cookie = same_as.client.get_cookie("referee_session")
            self.client.set_cookie(cookie.key, cookie.value, domain=cookie.domain)
        if seat is not None:
            assert self.client.post(f"{self.url}/seat", data={"seat": seat}, headers=HX).status_code == 303

    def version(self) -> int:
        html = self.client.get(f"{self.url}/screen").get_data(as_text=True)
        return int(re.search(r'data-version="(\d+)"', html).group(1))

    def post(self, **fields):
        return self.client.post(f"{self.url}/entry", data={"version": self.version(), **fields}, headers=HX)


def restarted(app_config, tmp_path):
    store.state_cache.clear()
    return create_app(app_config, instance_path=str(tmp_path / "instance"))


def good_entries(path: str, match_id: str) -> list[dict]:
    db = connect(path)
    try:
        return [e["entry"] for e in store.entries(db, match_id)]
    finally:
        db.close()


def assert_table_opens(app, match_id: str, same_as: Phone) -> None:
    phone = Phone(app, match_id, None, same_as)
    for path in ("", "/screen", "/history", "/transcript.json"):
        response = phone.client.get(f"{phone.url}{path}", headers=HX if path == "/screen" else {})
        assert response.status_code == 200, (path, response.get_data(as_text=True)[:300])
    undo = phone.post(move="undo")
    assert undo.status_code < 500, undo.get_data(as_text=True)[:300]


@pytest.fixture
def table(app, database):
    match = store.create_match(database, "ratatat", ["Ana", "Ben", "Cy"], {"rounds_n": 1})
    phones = {seat: Phone(app, match.id, seat) for seat in ("0", "1")}
    return match, phones


def test_hostile_entries_leave_a_table_that_opens_after_a_restart(table, app, app_config, tmp_path):
    match, phones = table
    for seat, fields in GOOD[:2]:
        assert phones[seat].post(**fields).status_code == 200
    for form in hostile_forms():
        response = phones["1"].post(**form)
        assert response.status_code < 500, (form["move"], response.get_data(as_text=True)[:300])
    for seat, fields in GOOD[2:]:
        assert phones[seat].post(**fields).status_code == 200
    stored = good_entries(app.config["DATABASE"], match.id)
    assert all(len(store.dumps(e).encode()) <= store.MAX_ENTRY_BYTES for e in stored)
    assert [e["move"] for e in stored if e["move"] != "override"] == ["turn_up", "draw", "replace", "draw"]

    again = restarted(app_config, tmp_path)
    assert_table_opens(again, match.id, phones["1"])
    assert [e["move"] for e in good_entries(app.config["DATABASE"], match.id)][:len(stored)] == \
        [e["move"] for e in stored]


def test_a_stored_entry_that_no_longer_applies_is_skipped_not_fatal(table, app, app_config, tmp_path, database):
    """As if stored by an older referee: an entry nested 487 deep, one deeper than Python parses,
    one the engine refuses, and a malformed one, amid good entries."""
    match, phones = table
    assert phones["0"].post(**GOOD[0][1]).status_code == 200
    bad = [store.dumps(deep_override(487)), "[" * 100_000 + "]" * 100_000,
           store.dumps({"move": "draw", "seat": "Cy"}), store.dumps({"move": "fly"})]
    with database.conn:
        for seq, payload in enumerate(bad, start=2):
            database.conn.execute("INSERT INTO entries (match_id, seq, entry, created_at) VALUES (?, ?, ?, ?)",
                                  (match.id, seq, payload, store.now()))
        database.conn.execute("UPDATE matches SET version = ? WHERE id = ?", (1 + len(bad), match.id))

    again = restarted(app_config, tmp_path)
    ana = Phone(again, match.id, None, phones["0"])
    drew = ana.post(move="draw")
    assert drew.status_code == 200, drew.get_data(as_text=True)[:300]  # the table goes on after them
    assert_table_opens(again, match.id, phones["0"])
    moves = [e["move"] for e in good_entries(app.config["DATABASE"], match.id)]
    assert moves[0] == "turn_up" and moves[5] == "draw" and "unreadable" in moves
