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


def _environ(**headers) -> dict:
    from werkzeug.test import EnvironBuilder

    return EnvironBuilder(path="/", headers=headers).get_environ()


@pytest.mark.parametrize("name", ["Cookie", "cookie", "HX-Request", "hx-request", "Accept-Language", "Origin",
                                  "Content-Type", "Content-Length", "X-Missing", "Host"])
def test_a_requests_headers_read_as_werkzeugs(name):
    from flask import Request as FlaskRequest

    from referee.headers import Request

    environ = _environ(**{"HX-Request": "true", "Cookie": "a=1; b=2", "Accept-Language": "he",
                          "Content-Type": "text/plain", "Content-Length": "0"})
    ours, theirs = Request(environ).headers, FlaskRequest(environ).headers
    assert ours.get(name) == theirs.get(name)
    assert ours.get(name, "none") == theirs.get(name, "none")
    assert ours.get("Content-Length", type=int) == theirs.get("Content-Length", type=int)
    assert ours.get("Content-Type") == "text/plain" and ours.get("hx-request") == "true"
    assert (name in ours) == (name in theirs)


@pytest.mark.parametrize("header", ["", "a=1; b=2", "a=1; a=2", 'session="x;y"; lang=he', "junk"])
def test_a_requests_cookies_read_as_werkzeugs_and_each_header_parsed_once(header):
    from flask import Request as FlaskRequest

    from referee.headers import Request

    environ = _environ(Cookie=header) if header else _environ()
    ours = Request(environ).cookies
    assert ours.to_dict(flat=False) == FlaskRequest(environ).cookies.to_dict(flat=False)
    assert Request(dict(environ)).cookies is ours  # the same header: parsed once
    other = Request(_environ(Cookie=header + "; extra=1")).cookies
    assert other is not ours and other.get("extra") == "1"


def test_the_app_reads_requests_with_its_own_class(app, client):
    from referee.headers import Request

    assert app.request_class is Request
    assert client.get("/", headers={"Cookie": "referee_lang=he"}).status_code == 200


def test_a_huge_cookie_header_is_parsed_but_not_kept():
    from referee import headers
    from referee.headers import Request

    huge = "a=" + "x" * (headers._COOKIE_KEPT_BELOW + 1)
    assert Request(_environ(Cookie=huge)).cookies["a"] == "x" * (headers._COOKIE_KEPT_BELOW + 1)
    assert huge not in headers._cookies
