"""The Vary header, named without werkzeug's parse-and-rebuild (referee/headers.py)."""

from __future__ import annotations

import pytest
from werkzeug.wrappers import Response

from referee.headers import vary_on


@pytest.mark.parametrize("before, names, after", [
    (None, ("Accept-Language", "Cookie"), "Accept-Language, Cookie"),
    ("HX-Request, Cookie", ("Accept-Language", "Cookie"), "HX-Request, Cookie, Accept-Language"),
    ("hx-request,cookie", ("Cookie",), "hx-request,cookie"),  # named already, in any case
    ("Accept-Language, Cookie", ("Accept-Language", "Cookie"), "Accept-Language, Cookie"),
    ("", ("Cookie",), "Cookie"),
    (None, ("Cookie", "Cookie"), "Cookie"),
])
def test_each_name_is_in_vary_once(before, names, after):
    response = Response("")
    if before is not None:
        response.headers["Vary"] = before
    vary_on(response, *names)
    assert response.headers["Vary"] == after
    # what werkzeug's own parsing reads from it: each name once
    assert sorted(v.lower() for v in response.vary) == sorted({v.strip().lower() for v in after.split(",") if v.strip()})


def test_a_screen_varies_by_request_kind_cookie_and_language_each_named_once(client, database):
    from referee import store

    match = store.create_match(database, "ratatat", ["Ana", "Ben"], {"rounds_n": 1})
    assert client.post(f"/m/{match.id}/seat", data={"seat": "0"},
                       headers={"Origin": "http://localhost", "HX-Request": "true"}).status_code == 303
    vary = client.get(f"/m/{match.id}/screen", headers={"HX-Request": "true"}).headers.getlist("Vary")
    assert len(vary) == 1
    names = [v.strip() for v in vary[0].split(",")]
    assert sorted(names) == ["Accept-Language", "Cookie", "HX-Request"]
