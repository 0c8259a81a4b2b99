"""Every route of the app, given hostile fields (unicode digits, huge numbers, deep JSON, control
characters), from a seated phone, the shared phone and a watcher, answers below 500."""
from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import store

PLAYERS = ["Ana", "Ben", "Cy"]
HX = {"Origin": "http://localhost", "HX-Request": "true"}
HOSTILE = ["²", "٣", "9" * 5000, "[" * 100_000, '{"a":' * 5000, "\x00", "\x1b[2J", "-1", "1e9", " 1", "",
           "x" * 5000, "Ana\u200b", "0x10", "١٢", "NaN", "true", "null", "{}", "[]", "🂡", "\ud7ff"]


def _routes(match_id: str) -> list[tuple[str, str]]:
    m = f"/m/{match_id}"
    return [("POST", f"{m}/entry"), ("POST", f"{m}/seat"), ("POST", f"{m}/again"), ("POST", f"{m}/scan"),
            ("POST", "/join"), ("POST", "/new"), ("POST", "/decks"),
            ("GET", f"{m}/pick"), ("GET", f"{m}/screen"), ("GET", f"{m}/correct/0"), ("GET", f"{m}/watch"),
            ("GET", f"{m}/history"), ("GET", f"{m}/transcript.json"), ("GET", "/new")]


FIELDS = ["move", "version", "key", "slot", "out", "card", "target", "target_slot", "seen", "for", "flag",
          "decision", "reason", "rule", "entry", "target_entry", "card1", "card4", "shown", "slots", "seen1",
          "then", "attach", "c_move", "c_for", "c_slot", "c_card", "seat", "confirm", "code", "game",
          "player1", "player2", "preset", "tie_policy", "rounds_n", "name", "kind", "field", "shown",
          "v"]


def test_every_route_answers_hostile_fields_below_500(app, database):
    """Hypothesis over every route and field, with unicode digits, huge numbers and deep JSON."""
    match = store.create_match(database, "ratatat", PLAYERS)
    seated = app.test_client()
    assert seated.post(f"/m/{match.id}/seat", data={"seat": "0"}, headers=HX).status_code == 303
    shared = app.test_client()
    assert shared.post(f"/m/{match.id}/seat", data={"seat": "shared"}, headers=HX).status_code == 303
    watcher = app.test_client()
    values = st.one_of(st.sampled_from(HOSTILE + ["0", "1", "4", "5", "draw", "turn_up", "reveal", "correct",
                                                  "override", "Ana", "shared", "watch", "ratatat"]),
                       st.text(max_size=20))

    @settings(max_examples=int(os.environ.get("HOSTILE_EXAMPLES", "200")), deadline=None, database=None)
    @given(route=st.sampled_from(_routes(match.id)), who=st.sampled_from([seated, shared, watcher]),
           fields=st.dictionaries(st.sampled_from(FIELDS), values, max_size=6))
    def hit(route, who, fields):
        method, path = route
        if method == "GET":
            response = who.get(path, query_string=fields, headers=HX)
        else:
            response = who.post(path, data=fields, headers=HX)
        assert response.status_code < 500, (route, fields, response.status_code)

    hit()
