"""The SSE doorbell: broker, stream generator, and real streams over the server `referee serve` runs."""

from __future__ import annotations

import http.client
import socket
import threading
import time

from referee import live, store
from referee.live import Broker, event_stream

from .own_loop import run_in_own_loop


def test_broker_fans_out_and_unsubscribes():
    broker = Broker()
    a, b = broker.subscribe("m1"), broker.subscribe("m1")
    other = broker.subscribe("m2")
    assert broker.publish("m1", 7) == 2
    assert a.get_nowait() == 7 and b.get_nowait() == 7 and other.empty()
    broker.unsubscribe("m1", a)
    broker.unsubscribe("m1", b)
    assert broker.subscriber_count("m1") == 0
    assert broker.publish("m1", 8) == 0


def test_stream_sends_comment_first_then_changes_and_closes(tmp_path):
    broker = Broker()
    stream = event_stream("m1", database_path=str(tmp_path / "unused.sqlite"), last_seen=None,
                          keepalive=0.05, lifetime=0.5, the_broker=broker)
    first = next(stream)
    assert first.startswith(": connected")
    assert broker.subscriber_count("m1") == 1
    broker.publish("m1", 3)
    assert next(stream) == "id: 3\nevent: changed\ndata: 3\n\n"
    rest = list(stream)  # runs to the end of its lifetime
    assert rest and all(chunk == ": keepalive\n\n" for chunk in rest)
    assert broker.subscriber_count("m1") == 0


def test_closing_stream_early_unsubscribes(tmp_path):
    broker = Broker()
    stream = event_stream("m1", database_path="unused", last_seen=None, keepalive=5, lifetime=60, the_broker=broker)
    next(stream)
    stream.close()
    assert broker.subscriber_count("m1") == 0


def test_events_for_unknown_match_is_404(client):
    response = client.get("/m/nosuchid/events")
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_events_headers_via_test_client(client, database):
    match = store.create_match(database, "tally", ["Ann"])
    response = client.get(f"/m/{match.id}/events")
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    chunks = response.iter_encoded()
    assert next(chunks).startswith(b": connected")
    response.close()


def _open_stream(live_server, path, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=10)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    return conn, response


def _read_event(response, deadline_s=5.0):
    """Read lines until one whole `changed` event has arrived."""
    lines = []
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        line = response.readline().decode()
        if line.startswith(":") or line == "":
            continue
        if line == "\n":
            if any(part.startswith("event:") for part in lines):
                return lines
            lines = []
            continue
        lines.append(line.rstrip("\n"))
    raise AssertionError(f"no event within {deadline_s}s; got {lines}")


def _wait_until(condition, timeout=5.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError(f"condition not met within {timeout}s")


def _wait_for_subscriber(match_id, count=1):
    _wait_until(lambda: live.broker.subscriber_count(match_id) >= count)


def test_stream_delivers_changed_after_append(live_server, database, tally):
    match = store.create_match(database, "tally", ["Ann", "Bo"])
    conn, response = _open_stream(live_server, f"/m/{match.id}/events")
    try:
        assert response.status == 200
        assert response.getheader("Content-Type").startswith("text/event-stream")
        assert response.readline().startswith(b": connected")
        _wait_for_subscriber(match.id)
        store.append(database, match.id, 0, {"n": 2}, "k1", tally.apply, replay_fn=tally.replay, notify=live.publish)
        assert _read_event(response) == ["id: 1", "event: changed", "data: 1"]
        store.append(database, match.id, 1, {"n": 2}, "k2", tally.apply, replay_fn=tally.replay, notify=live.publish)
        assert _read_event(response)[0] == "id: 2"
    finally:
        conn.close()


def test_refused_move_rings_no_doorbell(live_server, database, tally):
    match = store.create_match(database, "tally", ["Ann"])
    conn, response = _open_stream(live_server, f"/m/{match.id}/events")
    try:
        response.readline()
        _wait_for_subscriber(match.id)
        try:
            store.append(database, match.id, 0, {"n": -1}, None, tally.apply, replay_fn=tally.replay, notify=live.publish)
        except tally.Refused:
            pass
        store.append(database, match.id, 0, {"n": 1}, None, tally.apply, replay_fn=tally.replay, notify=live.publish)
        assert _read_event(response)[0] == "id: 1"  # the first doorbell is the committed move
    finally:
        conn.close()


def test_reconnect_with_stale_last_event_id_rings_at_once(live_server, database, tally):
    match = store.create_match(database, "tally", ["Ann"])
    store.append(database, match.id, 0, {"n": 1}, None, tally.apply, replay_fn=tally.replay, notify=live.publish)
    conn, response = _open_stream(live_server, f"/m/{match.id}/events", {"Last-Event-ID": "0"})
    try:
        assert _read_event(response) == ["id: 1", "event: changed", "data: 1"]
    finally:
        conn.close()
    conn, response = _open_stream(live_server, f"/m/{match.id}/events?v=0")
    try:
        assert _read_event(response)[0] == "id: 1"
    finally:
        conn.close()


def test_stream_ends_after_max_lifetime(live_server, database):
    match = store.create_match(database, "tally", ["Ann"])
    lifetime = live_server.app.config["SSE_MAX_LIFETIME"]
    started = time.monotonic()
    conn, response = _open_stream(live_server, f"/m/{match.id}/events")
    try:
        body = response.read()  # returns when the server ends the stream
    finally:
        conn.close()
    elapsed = time.monotonic() - started
    assert lifetime - 0.5 <= elapsed < lifetime + 3
    assert b": keepalive" in body
    _wait_until(lambda: live.broker.subscriber_count(match.id) == 0)


def test_disconnected_client_releases_its_thread(live_server, database):
    match = store.create_match(database, "tally", ["Ann"])
    sock = socket.create_connection(("127.0.0.1", live_server.port), timeout=5)
    sock.sendall(f"GET /m/{match.id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    assert b"200" in sock.recv(1024)
    _wait_for_subscriber(match.id)
    sock.close()
    # the next keepalive write fails and the stream unsubscribes
    _wait_until(lambda: live.broker.subscriber_count(match.id) == 0)


def test_many_watchers_all_hear_the_doorbell(live_server, database, tally):
    match = store.create_match(database, "tally", ["Ann"])
    streams = [_open_stream(live_server, f"/m/{match.id}/events") for _ in range(5)]
    try:
        for _, response in streams:
            response.readline()
        _wait_for_subscriber(match.id, 5)
        store.append(database, match.id, 0, {"n": 1}, None, tally.apply, replay_fn=tally.replay, notify=live.publish)
        heard = []
        threads = [threading.Thread(target=lambda r=r: heard.append(_read_event(r)[0])) for _, r in streams]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert heard == ["id: 1"] * 5
    finally:
        for conn, _ in streams:
            conn.close()


def test_a_stream_on_the_loop_rings_in_order_and_keeps_alive_only_after_silence():
    """`asgi_stream` as `referee serve` runs it: doorbells from a worker thread arrive in order (the
    broker hands a match's streams on one loop their version in one call), a keepalive only after
    `keepalive` seconds without one, and the stream ends at its lifetime."""
    import asyncio

    from referee import live

    sent: list[tuple[float, bytes]] = []
    broker = live.Broker()

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        streams = [live.AsyncSubscription(loop) for _ in range(3)]
        for subscription in streams:
            broker.subscribe("m1", subscription)
        forever = loop.create_future()

        async def receive():
            await forever
            return {"type": "http.disconnect"}

        async def send(message, who=0):
            if who == 0 and message["type"] == "http.response.body":
                sent.append((loop.time(), message["body"]))

        started = loop.time()
        tasks = [asyncio.ensure_future(live.asgi_stream("m1", s, (lambda m, i=i: send(m, i)), receive, current=0,
                                                        last_seen=None, keepalive=0.3, lifetime=1.5, headers=[]))
                 for i, s in enumerate(streams)]
        await asyncio.sleep(0.2)
        await loop.run_in_executor(None, lambda: [broker.publish("m1", v) for v in (1, 2, 3)])
        await asyncio.wait_for(asyncio.gather(*tasks), 8)
        assert 1.4 <= loop.time() - started < 4
        forever.cancel()

    run_in_own_loop(scenario)
    bodies = [body for _, body in sent]
    assert bodies[1:4] == [live.changed_event(v).encode() for v in (1, 2, 3)] and bodies[-1] == b""
    times = [when for when, body in sent if body == b": keepalive\n\n"]
    rung = sent[3][0]
    assert times and times[0] - rung >= 0.29  # silence first
    assert all(later - earlier >= 0.29 for earlier, later in zip(times, times[1:]))
    assert 2 <= len(times) <= 5


def test_a_seat_taken_over_rings_at_the_same_version_and_says_so():
    """A page skips a doorbell for the version it shows (its own entry's), never one for seats."""
    assert live.changed_event(7) == "id: 7\nevent: changed\ndata: 7\n\n"
    assert live.changed_event(live.SeatsChanged(7)) == "id: 7\nevent: changed\ndata: 7 seats\n\n"
    assert live.SeatsChanged(7) == 7 and live.parse_last_seen("7", None) == 7
