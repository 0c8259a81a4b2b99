"""The server `referee serve` runs: live streams on the event loop, Flask in worker threads.

Before it, each open stream held one of waitress's worker threads: a few hundred open streams
(or slow connections) blocked every other request."""

from __future__ import annotations

import http.client
import os
import pickle
import re
import selectors
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from referee import live, store
from referee.server import Background, _frame

STREAMS = 300
SLOW = 100


def _wait_until(condition, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"condition not met within {timeout}s")


def _raw_stream(port: int, match_id: str) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(f"GET /m/{match_id}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 f"Accept: text/event-stream\r\n\r\n".encode())
    return sock


def _read_all_until(socks: list[socket.socket], needle: bytes, timeout: float = 30.0) -> int:
    """How many of `socks` delivered `needle` (each read until it does or `timeout` passes)."""
    selector = selectors.DefaultSelector()
    buffers = {}
    for sock in socks:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
        buffers[sock] = b""
    done = set()
    end = time.monotonic() + timeout
    while len(done) < len(socks) and time.monotonic() < end:
        for key, _ in selector.select(timeout=0.5):
            sock = key.fileobj
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:
                continue
            buffers[sock] += chunk
            if needle in buffers[sock] or not chunk:
                selector.unregister(sock)
                if needle in buffers[sock]:
                    done.add(sock)
    selector.close()
    for sock in socks:
        sock.setblocking(True)
    return len(done)


def test_hundreds_of_open_streams_and_slow_clients_leave_the_server_answering(live_server, database, tally):
    """8 worker threads, 300 open streams, 100 clients that never finish their request: pages
    load, entries are applied, and every stream hears the doorbell."""
    match = store.create_match(database, "tally", ["Ann", "Bo"])
    streams = [_raw_stream(live_server.port, match.id) for _ in range(STREAMS)]
    slow = [socket.create_connection(("127.0.0.1", live_server.port), timeout=10) for _ in range(SLOW)]
    try:
        for sock in slow:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never more
        assert _read_all_until(streams, b": connected") == STREAMS
        _wait_until(lambda: live.broker.subscriber_count(match.id) == STREAMS)
        with urllib.request.urlopen(f"{live_server.url}/", timeout=10) as page:
            assert page.status == 200 and b"Join a table" in page.read()
        store.append(database, match.id, 0, {"n": 1}, "k1", tally.apply, replay_fn=tally.replay, notify=live.publish)
        assert _read_all_until(streams, b"event: changed") == STREAMS
    finally:
        for sock in streams + slow:
            sock.close()
    _wait_until(lambda: live.broker.subscriber_count(match.id) == 0)


def test_stream_carries_security_headers_and_no_cache(live_server, database):
    match = store.create_match(database, "tally", ["Ann"])
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=10)
    try:
        conn.request("GET", f"/m/{match.id}/events")
        response = conn.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type").startswith("text/event-stream")
        assert response.getheader("Cache-Control") == "no-cache"
        assert response.getheader("X-Frame-Options") == "DENY"
        assert response.getheader("Server") == "referee"
        assert response.readline().startswith(b": connected to " + match.id.encode())
    finally:
        conn.close()


@pytest.mark.parametrize("path, headers, status", [
    ("/m/nosuchmatch/events", {}, 404),
    ("/m/{id}/events", {"Host": "attacker.example"}, 400),
    ("/m/{id}/events", {"Host": "attacker.example:8000"}, 400),
])
def test_unusual_stream_requests_get_flasks_friendly_answer(live_server, database, path, headers, status):
    match = store.create_match(database, "tally", ["Ann"])
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=10)
    try:
        conn.request("GET", path.format(id=match.id), headers=headers)
        response = conn.getresponse()
        assert response.status == status
        assert response.getheader("Content-Type").startswith("text/html")
        assert b"Referee" in response.read()
    finally:
        conn.close()
    assert live.broker.subscriber_count(match.id) == 0


def test_foreign_host_is_refused_over_the_wire(live_server):
    request = urllib.request.Request(f"{live_server.url}/", headers={"Host": "rebound.attacker.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400
    assert b"--allow-host" in refused.value.read()


def test_a_request_with_huge_headers_is_answered_431_and_a_usual_one_still_served(live_server):
    """A header of megabytes (an Accept-Language of 4 MB) is refused before Flask reads it; the server keeps
    nothing of it and answers the next phone as usual."""
    status, _, body = _ask(live_server.port, "GET", "/", {"Accept-Language": "it-" + "x" * 4_000_000})
    assert status == 431 and b"headers are too large" in body
    status, _, body = _ask(live_server.port, "GET", "/", {"Accept-Language": "it"})
    assert status == 200 and b'lang="it"' in body


def test_a_second_host_header_is_refused_on_a_live_stream_as_everywhere(live_server, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    sock = socket.create_connection(("127.0.0.1", live_server.port), timeout=10)
    try:
        sock.sendall((f"GET /m/{match.id}/events HTTP/1.1\r\nHost: 127.0.0.1:{live_server.port}\r\n"
                      "Host: rebound.attacker.example\r\nConnection: close\r\n\r\n").encode())
        assert sock.recv(64).startswith(b"HTTP/1.1 400")
    finally:
        sock.close()


def test_connection_limit_answers_503_past_it(app, database):
    match = store.create_match(database, "tally", ["Ann"])
    background = Background(app, "127.0.0.1", threads=2, connection_limit=10)
    streams = []
    try:
        streams = [_raw_stream(background.port, match.id) for _ in range(10)]
        assert _read_all_until(streams, b": connected") == 10
        conn = http.client.HTTPConnection("127.0.0.1", background.port, timeout=10)
        conn.request("GET", "/healthz")
        assert conn.getresponse().status == 503
        conn.close()
    finally:
        for sock in streams:
            sock.close()
        background.stop()


def test_stopping_the_server_ends_open_streams(app, database):
    match = store.create_match(database, "tally", ["Ann"])
    app.config["SSE_MAX_LIFETIME"] = 600.0  # would hold the stop for 10 minutes if not ended
    background = Background(app, "127.0.0.1", threads=2)
    sock = _raw_stream(background.port, match.id)
    try:
        assert _read_all_until([sock], b": connected") == 1
        background.stop()
        assert not background.thread.is_alive()
        sock.settimeout(10)
        rest = b""
        while chunk := sock.recv(65536):
            rest += chunk
        assert rest.endswith(b"0\r\n\r\n") or rest == b""  # the stream's last chunk, then EOF
    finally:
        sock.close()
    assert live.broker.subscriber_count(match.id) == 0


def _slow_route(app):
    """A POST that holds its worker thread until released (stands in for a long scan)."""
    release, entered = threading.Event(), threading.Event()

    @app.post("/test-slow")
    def slow():
        entered.set()
        release.wait(20)
        return "done"

    return release, entered


def test_screens_and_pickers_are_answered_while_every_worker_is_busy(app, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    release, entered = _slow_route(app)
    background = Background(app, "127.0.0.1", threads=1)
    held = threading.Thread(target=lambda: _post(background.port, "/test-slow"))
    try:
        held.start()
        assert entered.wait(10)  # the only worker thread is taken
        conn = http.client.HTTPConnection("127.0.0.1", background.port, timeout=10)
        conn.request("GET", f"/m/{match.id}/screen", headers={"HX-Request": "true"})
        response = conn.getresponse()
        assert response.status == 200 and b"Ann" in response.read()
        conn.request("GET", f"/m/{match.id}/pick?move=turn_up&field=card", headers={"HX-Request": "true"})
        response = conn.getresponse()
        assert response.status == 403  # a phone without a seat may not pick: still Flask's own answer
        response.read()
        conn.request("GET", "/m/nosuch/screen")
        response = conn.getresponse()
        assert response.status == 404 and b"no table" in response.read()
        conn.close()
    finally:
        release.set()
        held.join(10)
        background.stop()


def test_the_same_screen_answer_on_the_loop_as_from_a_worker(app, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    answers = []
    for on_loop in (True, False):
        background = Background(app, "127.0.0.1", threads=2)
        background.server.asgi.on_loop = on_loop
        try:
            conn = http.client.HTTPConnection("127.0.0.1", background.port, timeout=10)
            conn.request("GET", f"/m/{match.id}/screen?shown=0-w", headers={"HX-Request": "true"})
            response = conn.getresponse()
            headers = {k.lower(): v for k, v in response.getheaders() if k.lower() not in ("date", "content-length")}
            answers.append((response.status, headers))
            response.read()
            conn.close()
        finally:
            background.stop()
    assert answers[0] == answers[1] and answers[0][0] == 204


def test_stopping_the_server_closes_its_database_connections(app, database):
    from referee import db

    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    background = Background(app, "127.0.0.1", threads=4)
    for _ in range(8):
        conn = http.client.HTTPConnection("127.0.0.1", background.port, timeout=10)
        conn.request("GET", f"/m/{match.id}")
        assert conn.getresponse().status == 200
        conn.close()
    background.stop()
    assert db.close_idle(app.config["DATABASE"]) == 0  # none left open by the stopped server's threads


def _trickle(port: int, path: str, length: int) -> socket.socket:
    """A phone that starts a big upload and sends a few bytes of it (then nothing)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                  f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n\r\n"
                  "version=0&").encode())
    return sock


def test_slow_uploads_hold_no_worker_thread_and_a_stalled_one_is_given_up(app, database, monkeypatch):
    """Big bodies are read on the loop before Flask runs: phones trickling uploads (more of them than the
    server has threads) leave every page answering; a body that stops coming is answered 408."""
    from referee import server

    monkeypatch.setattr(server, "BODY_STALL_SECONDS", 2.0)
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    background = Background(app, "127.0.0.1", threads=2)
    slow = []
    try:
        slow = [_trickle(background.port, f"/m/{match.id}/seat", 300_000) for _ in range(6)]  # read before any check
        started = time.monotonic()
        status, _, body = _ask(background.port, "GET", f"/m/{match.id}/history")
        assert status == 200 and b"History" in body and time.monotonic() - started < 1.5
        status, _, _ = _ask(background.port, "POST", f"/m/{match.id}/seat", body="seat=0",
                            headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303
        slow[0].settimeout(10)
        answer = slow[0].recv(4096)  # two seconds of nothing: given up
        assert answer.startswith(b"HTTP/1.1 408")
        conn = http.client.HTTPConnection("127.0.0.1", background.port, timeout=10)
        conn.putrequest("POST", f"/m/{match.id}/seat", skip_host=True)  # a body of unknown length reaches Flask whole
        for name, value in (("Host", f"127.0.0.1:{background.port}"), ("Origin", f"http://127.0.0.1:{background.port}"),
                            ("Content-Type", "application/x-www-form-urlencoded"), ("Transfer-Encoding", "chunked")):
            conn.putheader(name, value)
        conn.endheaders()
        data = b"seat=1"
        conn.send(b"%x\r\n%s\r\n0\r\n\r\n" % (len(data), data))
        response = conn.getresponse()
        assert response.status == 303, response.status  # the seat was read from the body
        response.read()
        conn.close()
    finally:
        for sock in slow:
            sock.close()
        background.stop()


def _closed_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server sent before closing the connection, waited for at most ``seconds``."""
    sock.settimeout(seconds)
    said = b""
    while True:
        chunk = sock.recv(4096)  # socket.timeout (a test failure) when the server keeps it open
        if not chunk:
            return said
        said += chunk


def test_connections_that_never_finish_their_request_are_closed_and_hold_no_place(app, database, monkeypatch):
    """A client on the Wi-Fi opening connections that send nothing, half a request head, or half a small
    body held them for ever: enough of them filled the connection limit and every phone got 503. Each is now
    closed (the head after HEAD_SECONDS, a small body after BODY_STALL_SECONDS with a 408), and the places
    they held serve phones again."""
    from referee import one_write, server

    monkeypatch.setattr(one_write, "HEAD_SECONDS", 1.0)
    monkeypatch.setattr(server, "BODY_STALL_SECONDS", 1.0)
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    background = Background(app, "127.0.0.1", threads=2, connection_limit=10)
    held = []
    try:
        port = background.port
        silent = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(5)]
        half_head = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(4)]
        for sock in half_head:
            sock.sendall(f"GET /m/{match.id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-a: ".encode())
        half_body = socket.create_connection(("127.0.0.1", port), timeout=10)
        half_body.sendall((f"POST /m/{match.id}/seat HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           f"Origin: http://127.0.0.1:{port}\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                           "Content-Length: 100\r\n\r\nseat=").encode())
        held = silent + half_head + [half_body]
        status, _, _ = _ask(port, "GET", "/healthz")
        assert status == 503  # every one of the ten places held
        for sock in silent + half_head:
            assert _closed_within(sock, 10) == b""
        assert _closed_within(half_body, 10).startswith(b"HTTP/1.1 408")
        status, _, body = _ask(port, "GET", f"/m/{match.id}")
        assert status == 200 and b"Ann" in body  # the places are free again
        # a kept-alive connection whose next request's head stops coming is closed too
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz")
        assert conn.getresponse().read() is not None
        conn.sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: ")
        assert _closed_within(conn.sock, 10) == b""
        conn.close()
    finally:
        for sock in held:
            sock.close()
        background.stop()


def _post(port: int, path: str) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", path, body=b"", headers={"Origin": f"http://127.0.0.1:{port}"})
    conn.getresponse().read()
    conn.close()


# --- Screen processes ------------------------------------------------------------------------------------

KEY = re.compile(rb'name="key" value="[^"]*"')  # a fresh random key in every screen


def _ready(background, timeout: float = 30.0) -> list:
    workers = background.server.asgi.screens.workers
    _wait_until(lambda: workers and all(w.ready for w in workers), timeout)
    return workers


def _ask(port: int, method: str, path: str, headers: dict | None = None, body: str | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request(method, path, body=body, headers={"Origin": f"http://127.0.0.1:{port}", **(headers or {})})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def _seat(port: int, match_id: str, seat: int, cookie: str = "", confirm: bool = False) -> str:
    body = f"seat={seat}" + ("&confirm=1" if confirm else "")
    status, headers, _ = _ask(port, "POST", f"/m/{match_id}/seat", {
        "Content-Type": "application/x-www-form-urlencoded", **({"Cookie": cookie} if cookie else {})}, body)
    assert status == 303
    return headers["set-cookie"].split(";", 1)[0]


def _comparable(answer):
    status, headers, body = answer
    return status, {k: v for k, v in headers.items() if k != "date"}, KEY.sub(b"", body)


def test_screen_processes_answer_screens_and_pickers_as_the_loop_does(app, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    background = Background(app, "127.0.0.1", threads=2, screen_processes=1)
    try:
        worker = _ready(background)[0]
        cookie = _seat(background.port, match.id, 0)
        phone = {"Cookie": cookie, "HX-Request": "true"}
        requests = [f"/m/{match.id}/screen", f"/m/{match.id}/screen?shown=0-0", f"/m/{match.id}/screen?shown=x%00y",
                    f"/m/{match.id}/pick?move=turn_up&field=card", f"/m/{match.id}/pick?move=nosuch",
                    "/m/nosuch/screen", f"/m/{match.id}/screen?shown=" + "9" * 5000]
        answers = {}
        for path in requests:
            for who in ({"HX-Request": "true"}, phone, {**phone, "Cookie": "referee_session=forged"}):
                answers[(path, str(who))] = _comparable(_ask(background.port, "GET", path, who))
        assert worker.next_id == len(answers)  # every one was answered by the screen process
        screens, background.server.asgi.screens = background.server.asgi.screens, None
        try:
            for (path, who), answer in answers.items():
                assert _comparable(_ask(background.port, "GET", path, eval(who))) == answer, path  # noqa: S307
        finally:
            background.server.asgi.screens = screens
        assert {a[0] for a in answers.values()} >= {200, 204, 400, 403, 404}
    finally:
        background.stop()
    assert worker.proc.poll() is not None  # stopping the server ended it


def test_a_screen_process_shows_each_entry_and_a_lost_seat_at_once(app, database):
    """What a screen process answers right after the serving process committed an entry or another phone
    took the seat over: the new version, and the old phone watching (nothing of the seat's own)."""
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    background = Background(app, "127.0.0.1", threads=2, screen_processes=1)
    try:
        worker = _ready(background)[0]
        ann = _seat(background.port, match.id, 0)
        bo = {"Cookie": _seat(background.port, match.id, 1), "HX-Request": "true"}
        phone = {"Cookie": ann, "HX-Request": "true"}
        status, _, body = _ask(background.port, "GET", f"/m/{match.id}/screen", bo)
        assert status == 200 and b'value="0-1"' in body
        status, _, _ = _ask(background.port, "POST", f"/m/{match.id}/entry", {
            **phone, "Content-Type": "application/x-www-form-urlencoded"}, "version=0&move=turn_up&card=5&key=k0")
        assert status == 200
        status, _, body = _ask(background.port, "GET", f"/m/{match.id}/screen?shown=0-1", bo)
        assert status == 200 and b'value="1-1"' in body
        assert _ask(background.port, "GET", f"/m/{match.id}/screen?shown=0-0&posting=1", phone)[0] == 204  # its own
        asked = worker.next_id
        _seat(background.port, match.id, 0, confirm=True)  # another phone takes Ann's seat
        status, _, body = _ask(background.port, "GET", f"/m/{match.id}/screen?shown=1-0", phone)
        assert status == 200 and b"taken Ann" in body and b'value="1-w"' in body
        status, _, _ = _ask(background.port, "GET", f"/m/{match.id}/pick?move=discard&field=card", phone)
        assert status == 403
        assert worker.next_id == asked + 2
        status, _, _ = _ask(background.port, "POST", f"/m/{match.id}/entry", {
            **phone, "Content-Type": "application/x-www-form-urlencoded"}, "version=1&move=draw&key=k9")
        assert status == 403
    finally:
        background.stop()


def test_a_screen_process_that_dies_is_replaced_and_no_screen_is_lost(app, database):
    match = store.create_match(database, "ratatat", ["Ann", "Bo"])
    background = Background(app, "127.0.0.1", threads=2, screen_processes=1)
    try:
        worker = _ready(background)[0]
        first = worker.proc
        first.kill()
        first.wait()
        for _ in range(3):  # answered by the loop meanwhile
            status, _, body = _ask(background.port, "GET", f"/m/{match.id}/screen", {"HX-Request": "true"})
            assert status == 200 and b"Ann" in body
        _wait_until(lambda: worker.ready and worker.proc is not first)
        asked = worker.next_id
        assert _ask(background.port, "GET", f"/m/{match.id}/screen", {"HX-Request": "true"})[0] == 200
        assert worker.next_id == asked + 1
    finally:
        background.stop()


def test_an_accepted_entry_is_answered_with_the_screen_a_screen_process_draws(app, database):
    """The fresh screen an entry is answered with is drawn by a screen process, the refusal (its rule,
    words and override form) or the stale entry's notice included: the same answer as the serving
    process draws."""
    background = Background(app, "127.0.0.1", threads=2, screen_processes=1)
    answers = []
    try:
        worker = _ready(background)[0]
        for drawn_there in (True, False):
            screens = background.server.asgi.screens
            if not drawn_there:
                app.extensions.pop("referee.screens")
            match = store.create_match(database, "ratatat", ["Ann", "Bo"])
            phone = {"Cookie": _seat(background.port, match.id, 0), "HX-Request": "true",
                     "Content-Type": "application/x-www-form-urlencoded"}
            asked = worker.next_id
            ok = _ask(background.port, "POST", f"/m/{match.id}/entry", phone, "version=0&move=turn_up&card=5&key=a")
            again = _ask(background.port, "POST", f"/m/{match.id}/entry", phone, "version=0&move=turn_up&card=5&key=a")
            stale = _ask(background.port, "POST", f"/m/{match.id}/entry", phone, "version=0&move=turn_up&card=6&key=b")
            refused = _ask(background.port, "POST", f"/m/{match.id}/entry", phone, "version=1&move=turn_up&card=6&key=c")
            assert [ok[0], again[0], stale[0], refused[0]] == [200, 200, 409, 422]
            assert worker.next_id - asked == (4 if drawn_there else 0)  # each of the four answers
            answers.append([_comparable(a) for a in (ok, again, stale, refused)])
            app.extensions["referee.screens"] = screens
            assert b'value="1-0"' in ok[2] and b"Refused (" in refused[2]
    finally:
        background.stop()
    ids = re.compile(rb"/m/[a-z0-9]{8}/|[A-Z]{4}")  # the two matches' ids and join codes
    assert [[(s, h, ids.sub(b"", b)) for s, h, b in a] for a in answers[:1]] == \
        [[(s, h, ids.sub(b"", b)) for s, h, b in a] for a in answers[1:]]


def test_a_tables_requests_go_to_its_own_screen_process_unless_that_one_is_behind(app):
    """One screen process draws a table's screens (so the parts every phone shares are drawn once per
    version there); a busier one than the least busy by more than AFFINITY_SLACK is passed over."""
    from referee.server import AFFINITY_SLACK, ScreenProcesses, _match_of, _ScreenProcess

    pool = ScreenProcesses(app, 2)
    pool.workers = [_ScreenProcess(pool), _ScreenProcess(pool)]
    for worker in pool.workers:
        worker.ready = True
    tables = [f"table{n}" for n in range(20)]
    chosen = {t: pool._ready(t) for t in tables}
    assert set(chosen.values()) == set(pool.workers)  # tables are spread over both
    assert all(pool._ready(t) is chosen[t] for t in tables)  # and each keeps its own
    own = chosen["table0"]
    other = next(w for w in pool.workers if w is not own)
    own.waiting = {n: (None, 0.0) for n in range(AFFINITY_SLACK)}
    assert pool._ready("table0") is own
    own.waiting[AFFINITY_SLACK] = (None, 0.0)
    assert pool._ready("table0") is other
    own.waiting, own.ready = {}, False
    assert pool._ready("table0") is other and pool._ready(None) is other
    assert _match_of("/m/abc123/screen") == "abc123" and _match_of("/decks") is None


def test_tables_are_given_to_screen_processes_evenly_as_they_come():
    """Each new table goes to the screen process that owns the fewest: two tables never share one
    process while another has none, and fifty split 25/25 (a hash of their ids did not)."""
    from referee.server import OWNERS_KEPT, ScreenProcesses, _ScreenProcess

    pool = ScreenProcesses(None, 2)
    pool.workers = [_ScreenProcess(pool), _ScreenProcess(pool)]
    for worker in pool.workers:
        worker.ready = True
    assert pool._ready("first") is not pool._ready("second")
    tables = [f"t{n:03d}" for n in range(50)]
    owners = [pool._ready(t) for t in tables]
    assert owners.count(pool.workers[0]) == owners.count(pool.workers[1]) == 25
    assert [pool._ready(t) for t in tables] == owners  # each keeps its own
    for n in range(OWNERS_KEPT + 10):  # a server up for months: what it remembers stays bounded
        pool._owner(f"old{n}")
    assert len(pool._owners) <= OWNERS_KEPT


def test_what_a_server_loads_at_start_is_left_out_of_every_collection():
    import gc

    from referee.server import settle_heap

    loaded = [{"card": i} for i in range(2000)]
    try:
        settle_heap()
        assert gc.isenabled() and gc.get_freeze_count() >= len(loaded)
        assert not any(obj is loaded for obj in gc.get_objects())  # a full collection no longer walks it
        made_later = [{"card": i} for i in range(10)]
        assert any(obj is made_later for obj in gc.get_objects())
    finally:
        gc.unfreeze()


def test_a_screen_process_whose_server_stopped_while_it_started_ends_quietly(app, tmp_path):
    """Ctrl+C in the first seconds: the screen process finds its socket closed when it reports ready, and
    ends without a traceback on the terminal."""
    ours, theirs = socket.socketpair()
    counter = tmp_path / "counter"
    counter.write_bytes(bytes(8))
    with open(counter, "rb") as counter_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from referee.server import screen_process_main; screen_process_main()",
             str(theirs.fileno()), str(counter_file.fileno())],
            pass_fds=(theirs.fileno(), counter_file.fileno()), stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": os.getcwd()})
        theirs.close()
        ours.sendall(_frame(pickle.dumps({"config": dict(app.config), "instance_path": app.instance_path})))
        ours.close()  # the server is gone before the process is ready
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()[-2000:]
