"""CSRF origin check, security headers, friendly 4xx pages, seat binding."""

from __future__ import annotations

import datetime
import time

import flask
import pytest
from flask import Blueprint, abort

from referee import store
from referee.security import SECURITY_HEADERS, bind_seat, require_seat, seat_for

# (headers, base_url, expected status) for POST /join with an unknown code:
# 404 means the CSRF check let it through, 403 means it was refused.
CSRF_MATRIX = [
    pytest.param({"Sec-Fetch-Site": "same-origin"}, "http://localhost", 404, id="fetch-site-same-origin"),
    pytest.param({"Sec-Fetch-Site": "none"}, "http://localhost", 404, id="fetch-site-none"),
    pytest.param({"Sec-Fetch-Site": "same-origin", "Origin": "http://evil.example"}, "http://localhost", 404,
                 id="fetch-site-wins-over-origin"),
    pytest.param({"Sec-Fetch-Site": "cross-site"}, "http://localhost", 403, id="fetch-site-cross-site"),
    pytest.param({"Sec-Fetch-Site": "same-site", "Origin": "http://localhost"}, "http://localhost", 403,
                 id="fetch-site-same-site"),
    pytest.param({"Origin": "http://192.168.1.20:8000"}, "http://192.168.1.20:8000", 404, id="lan-http-origin-only"),
    pytest.param({"Origin": "http://192.168.1.20:8000"}, "http://192.168.1.20:8001", 403, id="lan-other-port"),
    pytest.param({"Origin": "http://192.168.1.21:8000"}, "http://192.168.1.20:8000", 403, id="lan-other-host"),
    pytest.param({"Origin": "https://192.168.1.20:8000"}, "http://192.168.1.20:8000", 403, id="other-scheme"),
    pytest.param({"Origin": "http://localhost:80"}, "http://localhost", 404, id="explicit-default-port"),
    pytest.param({"Origin": "HTTP://LOCALHOST"}, "http://localhost", 404, id="case-insensitive"),
    pytest.param({"Origin": "https://localhost"}, "https://localhost", 404, id="https-origin"),
    pytest.param({"Origin": "http://evil.example"}, "http://localhost", 403, id="foreign-origin"),
    pytest.param({"Origin": "null"}, "http://localhost", 403, id="null-origin"),
    pytest.param({"Origin": "http://localhost/path"}, "http://localhost", 403, id="origin-with-path"),
    pytest.param({"Origin": "http://localhost/"}, "http://localhost", 403, id="origin-with-a-slash"),
    pytest.param({"Origin": "http://evil@localhost"}, "http://localhost", 403, id="origin-with-a-user"),
    pytest.param({"Origin": "http://localhost?x=1"}, "http://localhost", 403, id="origin-with-a-query"),
    pytest.param({"Origin": "http://local host:99999"}, "http://localhost", 403, id="malformed-origin"),
    pytest.param({}, "http://localhost", 403, id="no-headers"),
    pytest.param({"Referer": "http://localhost/"}, "http://localhost", 403, id="referer-is-not-enough"),
]


@pytest.mark.parametrize("headers, base_url, expected", CSRF_MATRIX)
def test_csrf_header_matrix(client, headers, base_url, expected):
    response = client.post("/join", data={"code": "ZZZZ"}, headers=headers, base_url=base_url)
    assert response.status_code == expected
    if expected == 403:
        assert "Refused" in response.get_data(as_text=True)


@pytest.mark.parametrize("method", ["PUT", "PATCH", "DELETE"])
def test_every_unsafe_method_is_checked(client, method):
    assert client.open("/join", method=method).status_code == 403
    assert client.open("/join", method=method, headers={"Origin": "http://localhost"}).status_code == 405


def test_safe_requests_need_no_origin(client):
    assert client.get("/").status_code == 200
    assert client.head("/").status_code == 200
    assert client.options("/").status_code == 200


@pytest.mark.parametrize("path", ["/", "/nowhere", "/static/app.css"])
def test_security_headers_on_every_response(client, path):
    response = client.get(path)
    for name, value in SECURITY_HEADERS.items():
        assert response.headers[name] == value
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]


def test_csp_has_no_unsafe_sources(client):
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "unsafe" not in csp and "*" not in csp


def test_oversized_body_is_413(client):
    body = b"x" * (16 * 1024 * 1024 + 1)
    response = client.post("/join", data=body, headers={"Origin": "http://localhost",
                                                        "Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)


def test_oversized_body_without_csrf_headers_is_still_413(client):
    response = client.post("/join", data=b"x" * (16 * 1024 * 1024 + 1))
    assert response.status_code == 413


def test_too_many_multipart_parts_is_413(client):
    parts = "".join(f'--xx\r\nContent-Disposition: form-data; name="f{i}"\r\n\r\n1\r\n' for i in range(2000))
    response = client.post("/join", data=(parts + "--xx--\r\n").encode(), headers={
        "Origin": "http://localhost", "Content-Type": "multipart/form-data; boundary=xx"})
    assert response.status_code == 413


def test_huge_form_field_is_a_clean_4xx(client):
    response = client.post("/join", data=b"code=" + b"A" * 2_000_000, headers={
        "Origin": "http://localhost", "Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413  # refused before it is read (FORM_LIMIT)
    response = client.post("/join", data=b"code=" + b"A" * 900_000, headers={
        "Origin": "http://localhost", "Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 404  # read: no table has that code
    assert b"A" * 13 not in response.get_data()  # the code is not echoed back in full (12 characters at most)


def test_malformed_multipart_is_a_clean_4xx(client):
    response = client.post("/join", data=b"--xx\r\nnonsense", headers={
        "Origin": "http://localhost", "Content-Type": "multipart/form-data; boundary=xx"})
    assert 400 <= response.status_code < 500


@pytest.mark.parametrize("path", ["/m/%ff%fe", "/m/' OR 1=1 --", "/m/" + "a" * 5000, "/m/x/../../etc/passwd",
                                  "/static/../referee/__init__.py"])
def test_hostile_paths_are_404(client, path):
    assert client.get(path).status_code == 404


def test_wrong_method_is_friendly_405(client):
    response = client.post("/healthz", headers={"Origin": "http://localhost"})
    assert response.status_code == 405
    assert "GET" in response.headers["Allow"]
    assert "Not allowed here" in response.get_data(as_text=True)


def test_unknown_match_page_is_404(client):
    response = client.get("/m/nosuchmatch")
    assert response.status_code == 404
    assert "no table with that id" in response.get_data(as_text=True)


def test_htmx_error_is_a_fragment_retargeted_to_flash(client):
    response = client.get("/m/nosuchmatch", headers={"HX-Request": "true"})
    assert response.status_code == 404
    assert response.headers["HX-Retarget"] == "#flash"
    assert response.headers["HX-Reswap"] == "innerHTML"
    body = response.get_data(as_text=True)
    assert "<html" not in body and 'data-status="404"' in body


@pytest.fixture
def error_app(app):
    """Extra routes raising each error the game views will raise."""
    bp = Blueprint("errors_for_test", __name__)

    @bp.get("/_raise/<int:code>")
    def raise_code(code):
        abort(code)

    @bp.get("/_stale")
    def stale():
        raise store.StaleVersion("m", 1, 2)

    @bp.get("/_boom")
    def boom():
        raise RuntimeError("bug")

    app.register_blueprint(bp)
    return app


@pytest.mark.parametrize("code, title", [(400, "made no sense"), (403, "Not allowed"), (404, "Not found"),
                                         (409, "moved on"), (413, "too large"), (422, "cannot be done")])
def test_error_pages_are_friendly(error_app, code, title):
    response = error_app.test_client().get(f"/_raise/{code}")
    assert response.status_code == code
    assert response.mimetype == "text/html"
    assert title in response.get_data(as_text=True)


def test_stale_version_fallback_is_409(error_app):
    response = error_app.test_client().get("/_stale")
    assert response.status_code == 409
    assert "Someone else moved first" in response.get_data(as_text=True)


def test_unexpected_error_is_friendly_500(error_app):
    error_app.config["TESTING"] = False
    error_app.config["PROPAGATE_EXCEPTIONS"] = False
    response = error_app.test_client().get("/_boom")
    assert response.status_code == 500
    assert "Something went wrong" in response.get_data(as_text=True)
    assert response.headers["X-Frame-Options"] == "DENY"


def test_seat_helpers_round_trip_in_session(app):
    with app.test_request_context("/"):
        assert seat_for("m1") is None
        bind_seat("m1", 2)
        bind_seat("m2", 0)
        assert (seat_for("m1"), seat_for("m2")) == (2, 0)
        assert require_seat("m1") == 2
        bind_seat("m1", None)
        assert seat_for("m1") is None


def test_spectator_is_refused_by_require_seat(app):
    from werkzeug.exceptions import Forbidden

    with app.test_request_context("/"):
        with pytest.raises(Forbidden, match="watching"):
            require_seat("m1")


def test_seat_cookie_is_signed(client, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    client.post(f"/m/{match.id}/seat", data={"seat": "1"}, headers={"Origin": "http://localhost"})
    cookie = client.get_cookie("referee_session")
    assert cookie is not None
    forged = cookie.value[:-4] + ("AAAA" if not cookie.value.endswith("AAAA") else "BBBB")
    client.set_cookie("referee_session", forged)
    assert "You are watching" in client.get(f"/m/{match.id}/screen").get_data(as_text=True)


def _seated_cookie(client, database) -> tuple[str, str]:
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    client.post(f"/m/{match.id}/seat", data={"seat": "1"}, headers={"Origin": "http://localhost"})
    return match.id, client.get_cookie("referee_session").value


def test_a_verified_session_cookie_is_remembered_and_each_request_gets_its_own_copy(app, client, database):
    match_id, value = _seated_cookie(client, database)
    with app.test_request_context("/", headers={"Cookie": f"referee_session={value}"}):
        first = app.session_interface.open_session(app, flask.request)
        first["seats"][match_id] = 0  # a request changing its session in place...
    with app.test_request_context("/", headers={"Cookie": f"referee_session={value}"}):
        again = app.session_interface.open_session(app, flask.request)
    assert again["seats"][match_id] == 1  # ...changes nothing for the next request
    assert len(app.extensions["referee.sessions"]._items) == 1


def test_a_remembered_session_still_expires(app, client, database):
    match_id, value = _seated_cookie(client, database)
    assert "You are watching" not in client.get(f"/m/{match_id}/screen").get_data(as_text=True)
    app.permanent_session_lifetime = datetime.timedelta(seconds=0)
    time.sleep(1.1)
    with app.test_request_context("/", headers={"Cookie": f"referee_session={value}"}):
        assert dict(app.session_interface.open_session(app, flask.request)) == {}  # expired: a fresh session


def test_a_forged_cookie_is_not_remembered(app, client, database):
    match_id, value = _seated_cookie(client, database)
    forged = value[:-4] + ("AAAA" if not value.endswith("AAAA") else "BBBB")
    for _ in range(2):
        with app.test_request_context("/", headers={"Cookie": f"referee_session={forged}"}):
            assert dict(app.session_interface.open_session(app, flask.request)) == {}
    assert all(key[0] != forged for key in app.extensions.get("referee.sessions")._items)


def test_the_verified_cookie_cache_is_bounded(app, client, database):
    app.session_interface.SESSION_CACHE_SIZE = 2
    values = []
    for _ in range(3):
        phone = app.test_client()
        values.append(_seated_cookie(phone, database)[1])
        phone.get("/healthz")  # a request carrying the cookie
    remembered = [key[0] for key in app.extensions["referee.sessions"]._items]
    assert len(remembered) == 2 and values[0] not in remembered


# --- Host allow-list (DNS rebinding) ---------------------------------------------------------

@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "192.168.77.77:8000",
                                  "localhost.attacker.example"])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_foreign_host_header_is_400_with_a_message(client, host, method):
    headers = {"Host": host, "Origin": f"http://{host}"}
    response = client.open("/", method=method, headers=headers)
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert "answers only to its own names" in body and "--allow-host" in body
    assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("host", ["bad host", "x:99999", "a/b", "", "[::1", "é" * 3])
def test_malformed_host_header_is_400(client, host):
    response = client.get("/", headers={"Host": host})
    assert response.status_code == 400
    assert "Refused" in response.get_data(as_text=True)


@pytest.mark.parametrize("host", ["localhost", "localhost:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_own_hosts_are_served(client, host):
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_foreign_host_is_refused_even_for_stream_and_static(client, database):
    match = store.create_match(database, "tally", ["Ann"])
    for path in [f"/m/{match.id}/events", "/static/app.css", "/healthz"]:
        assert client.get(path, headers={"Host": "attacker.example"}).status_code == 400


def test_allowed_hosts_config_adds_names(app, client):
    app.config["ALLOWED_HOSTS"] = ["referee.lan", "Table.Example"]
    assert client.get("/", headers={"Host": "referee.lan:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "table.example"}).status_code == 200
    assert client.get("/", headers={"Host": "other.example"}).status_code == 400
    app.config["ALLOWED_HOSTS"] = "a.example, b.example"  # one string in config.py works too
    assert client.get("/", headers={"Host": "b.example"}).status_code == 200


def test_server_host_is_allowed(app, client):
    app.config["SERVER_HOST"] = "10.1.2.3"
    assert client.get("/", headers={"Host": "10.1.2.3:8000"}).status_code == 200


@pytest.mark.parametrize("cookie", [b"x=\xc3", b"session=\xff", b"referee_zone=\xff; referee_lang=it", b"session=.eJx\xff\xfe"])
def test_a_cookie_that_is_not_utf8_is_left_out_not_a_500(app, cookie):
    """Another service at the same address may have set a cookie in Latin-1: every page answered 500 to a phone
    holding one. It is left out; the page is served, and the phone's other cookies still count."""
    header = cookie.decode("latin-1")
    response = app.test_client(use_cookies=False).get("/", headers={"Cookie": header})  # (sent as it is)
    assert response.status_code == 200
    if "lang=it" in header:
        assert '<html lang="it"' in response.get_data(as_text=True)


@pytest.mark.parametrize("body", [b"player=%FF%FEBob&player=Ana", b"name=%ED%A0%80", b"%FF=1"])
def test_percent_escapes_that_are_not_utf8_are_refused_not_saved_as_typed(client, database, body):
    """werkzeug keeps an escape that is no UTF-8 as the text "%FF": a table was created for a player named
    "%FF%FEBob". Such a form is refused (400) with a message; nothing is stored."""
    response = client.post("/new/ratatat", data=body, content_type="application/x-www-form-urlencoded",
                           headers={"Origin": "http://localhost"})
    assert response.status_code == 400 and "is not UTF-8" in response.get_data(as_text=True)
    assert database.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 0
    fine = client.post("/new/ratatat", data="player=Zo%C3%AB&player=Ana".encode(),
                       content_type="application/x-www-form-urlencoded", headers={"Origin": "http://localhost"})
    assert fine.status_code == 303


def test_a_url_encoded_form_past_a_megabyte_is_413_before_it_is_read(client, database):
    """No screen sends a form of more than a few kilobytes; a 2 MB one is refused with a message before it is
    parsed (a 10 MB reason held half a gigabyte of the server's memory at its peak)."""
    body = b"player=Ana&player=Bo&reason=" + b"x" * (2 * 1024 * 1024)
    response = client.post("/new/ratatat", data=body, content_type="application/x-www-form-urlencoded",
                           headers={"Origin": "http://localhost"})
    assert response.status_code == 413 and "far larger than any screen sends" in response.get_data(as_text=True)
    assert database.conn.execute("SELECT count(*) FROM matches").fetchone()[0] == 0
