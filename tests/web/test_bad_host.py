"""A Host header no DNS name can be (an empty label, a label over 63 characters) is refused with the friendly
400 "malformed Host header" page on every path, through the app and the real server, and logs no traceback."""

from __future__ import annotations

import http.client
import logging
import socket

import pytest

from referee import hosts, store

BAD_HOSTS = ["a..b", "a..b:8000", "a" * 64, "a" * 64 + ".com", "a" * 64 + ".com:80", ".localhost", "localhost..",
             "xn--", "xn--zz"]
PATHS = ["/", "/nowhere", "/static/app.css", "/m/nope", "/m/nope/events", "/decks"]


@pytest.mark.parametrize("host", BAD_HOSTS)
def test_a_malformed_host_is_not_a_host_name(host):
    assert hosts.host_name(host) is None
    assert not hosts.host_allowed(host, {"*"})


@pytest.mark.parametrize("host", ["localhost", "localhost.", "a" * 63 + ".b", "referee.home:8000", "[::1]:8000",
                                  "192.168.1.20", "xn--bcher-kva.example"])
def test_a_well_formed_host_still_is(host):
    assert hosts.host_name(host) is not None


def _no_tracebacks(caplog):
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info], caplog.text


@pytest.mark.parametrize("host", BAD_HOSTS[:4])
@pytest.mark.parametrize("path", PATHS)
def test_the_app_answers_the_friendly_400(app, caplog, host, path):
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    caplog.set_level(logging.INFO)
    response = app.test_client().get(path, headers={"Host": host})
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and response.mimetype == "text/html"
    assert "malformed Host header" in page and "That request made no sense" in page
    assert 'href="/"' in page  # the page's own links are built (paths, never the Host)
    _no_tracebacks(caplog)


def test_a_post_and_an_htmx_request_too(app, caplog):
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    client = app.test_client()
    answer = client.post("/join", data={"code": "ABCD"}, headers={"Host": "a..b", "Origin": "http://a..b",
                                                                   "Referer": "http://a..b/"})
    assert answer.status_code == 400 and "malformed Host header" in answer.get_data(as_text=True)
    fragment = client.get("/", headers={"Host": "a" * 64, "HX-Request": "true"})
    assert fragment.status_code == 400 and fragment.headers["HX-Retarget"] == "#flash"
    _no_tracebacks(caplog)


def test_a_host_the_guard_lets_through_but_werkzeug_cannot_bind_still_gets_its_page(app, caplog, monkeypatch):
    """With ALLOWED_HOSTS "*" and a name werkzeug's IDNA refuses (as if the guard had let it by), the request
    has no URL adapter; its error page builds its links all the same."""
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False, ALLOWED_HOSTS=["*"])
    monkeypatch.setattr(hosts, "_well_formed_name", lambda name: True)
    response = app.test_client().get("/", headers={"Host": "a..b"})
    assert response.status_code == 400 and "That request made no sense" in response.get_data(as_text=True)
    _no_tracebacks(caplog)


def _raw(port: int, path: str, host: str) -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize("host", BAD_HOSTS[:5])
def test_the_server_answers_the_friendly_400(live_server, database, caplog, host):
    live_server.app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    match = store.create_match(database, "ratatat", ["Ann", "Bob"])
    for path in PATHS + [f"/m/{match.id}", f"/m/{match.id}/events", f"/m/{match.id}/screen"]:
        status, body = _raw(live_server.port, path, host)
        assert status == 400 and b"malformed Host header" in body, (path, status, body[:200])
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=10)
    conn.request("POST", f"/m/{match.id}/seat", body="seat=0", headers={
        "Host": host, "Origin": f"http://{host}", "Content-Type": "application/x-www-form-urlencoded"})
    response = conn.getresponse()
    assert response.status == 400 and b"malformed Host header" in response.read()
    conn.close()
    _no_tracebacks(caplog)
