"""In-process SSE "doorbell": tells every phone watching a match that it changed.

The stream carries no game data, only `event: changed` with `id: <version>` (its data the
version, or "<version> seats" when a seat was taken over, `SeatsChanged`); each phone then
re-GETs its own view (so nothing private leaks).  Publish only
after the change is committed (store.append does this, from a worker thread).
Each stream sends a `: keepalive` comment every SSE_KEEPALIVE seconds and ends
after SSE_MAX_LIFETIME seconds (the browser's EventSource reconnects with
Last-Event-ID).

Two ways to serve a stream: `asgi_stream`, a coroutine on the server's event
loop (what `referee serve` uses: an open stream costs a socket and a few KB,
no thread; see docs/server.md), and the Flask route `events`, a generator that
holds a worker thread (for a plain WSGI server and the Flask test client).
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterator

from flask import Blueprint, Flask, Response, current_app, request

from .db import checkin, checkout, get_db
from .store import UnknownMatch, get_match

bp = Blueprint("live", __name__)


class Broker:
    """Fan out (match_id, version) notifications to subscriber queues."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[queue.Queue]] = {}

    def subscribe(self, match_id: str, q=None):
        """Add a subscriber: anything with ``put_nowait(version)`` (default: a new
        ``queue.Queue``, for a thread); returns it."""
        if q is None:
            q = queue.Queue(maxsize=64)
        with self._lock:
            self._subscribers.setdefault(match_id, set()).add(q)
        return q

    def unsubscribe(self, match_id: str, q: queue.Queue) -> None:
        with self._lock:
            subs = self._subscribers.get(match_id)
            if subs is not None:
                subs.discard(q)
                if not subs:
                    del self._subscribers[match_id]

    def publish(self, match_id: str, version: int) -> int:
        """Ring every subscriber of `match_id`; returns how many were rung. The streams on an event
        loop are handed the version in one call to that loop, whatever their number."""
        with self._lock:
            subs = list(self._subscribers.get(match_id, ()))
        loops: dict[asyncio.AbstractEventLoop, list[AsyncSubscription]] = {}
        for q in subs:
            if isinstance(q, AsyncSubscription):
                loops.setdefault(q.loop, []).append(q)
                continue
            try:
                q.put_nowait(version)
            except queue.Full:
                pass  # a slow reader only needs the latest doorbell anyway
        for loop, batch in loops.items():
            try:
                loop.call_soon_threadsafe(_put_all, batch, version)
            except RuntimeError:
                pass  # the loop is closed: the server has stopped
        return len(subs)

    def subscriber_count(self, match_id: str) -> int:
        with self._lock:
            return len(self._subscribers.get(match_id, ()))

    def total(self) -> int:
        """Subscribers of every match (open streams)."""
        with self._lock:
            return sum(len(subs) for subs in self._subscribers.values())


class AsyncSubscription:
    """A subscriber whose reader is a coroutine on `loop`: `put_nowait` may be called from
    any thread (the worker that committed), and hands the version over to the loop. The reader
    waits on one future at a time (no timer, no task per doorbell: `asgi_stream`)."""

    END = -1  # not a version: the stream must end (client gone, server stopping)

    def __init__(self, loop: asyncio.AbstractEventLoop, maxsize: int = 64) -> None:
        self.loop = loop
        self.maxsize = maxsize
        self.versions: deque[int] = deque()
        self.ended = False
        self._waiter: asyncio.Future | None = None

    def put_nowait(self, version: int) -> None:
        try:
            self.loop.call_soon_threadsafe(self._put, version)
        except RuntimeError:
            pass  # the loop is closed: the server has stopped

    def _put(self, version: int) -> None:
        if len(self.versions) < self.maxsize:  # a slow reader only needs the latest doorbell anyway
            self.versions.append(version)
        self.wake()

    def wake(self) -> None:
        """Wake the reader (on the loop): something to send, the stream's end, or a timer."""
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self) -> None:
        """Until a version arrives, the stream is ended, or `wake` is called."""
        if self.versions or self.ended:
            return
        self._waiter = self.loop.create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    def end(self) -> None:
        """Wake the reader to end its stream (call on the loop)."""
        self.ended = True
        self.wake()


def _put_all(subscriptions: list[AsyncSubscription], version: int) -> None:
    for subscription in subscriptions:
        subscription._put(version)


broker = Broker()


def publish(match_id: str, version: int) -> int:
    """Notify the process-wide broker that `match_id` reached `version`."""
    return broker.publish(match_id, version)


class SeatsChanged(int):
    """A doorbell at an unchanged version: a phone's seat was taken over. A page skips the re-fetch of a
    doorbell for the version it already shows (its own entry's answer was its fresh screen), but not
    this one, whose data says "seats"."""


def changed_event(version: int) -> str:
    data = f"{version} seats" if isinstance(version, SeatsChanged) else version
    return f"id: {version}\nevent: changed\ndata: {data}\n\n"


def event_stream(
    match_id: str,
    *,
    database_path: str,
    last_seen: int | None,
    keepalive: float,
    lifetime: float,
    the_broker: Broker,
) -> Iterator[str]:
    """Yield SSE text until `lifetime` runs out; always unsubscribes.

    Subscribes first, then compares the client's last seen version with the
    database, so a change committed in between is never missed.
    """
    deadline = time.monotonic() + lifetime
    subscription = the_broker.subscribe(match_id)
    try:
        yield f": connected to {match_id}\nretry: 2000\n\n"
        if last_seen is not None:
            database = checkout(database_path)
            try:
                current = get_match(database, match_id).version
            finally:
                checkin(database, database_path)
            if current != last_seen:
                yield changed_event(current)  # missed while (re)connecting
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            try:
                version = subscription.get(timeout=min(keepalive, remaining))
            except queue.Empty:
                if deadline - time.monotonic() > 0:
                    yield ": keepalive\n\n"
                continue
            yield changed_event(version)
    finally:
        the_broker.unsubscribe(match_id, subscription)


def parse_last_seen(last_event_id: str | None, v: str | None) -> int | None:
    """Last-Event-ID on reconnect, else the `v` the page was drawn at."""
    for raw in (last_event_id, v):
        try:
            return int(raw)
        except (TypeError, ValueError):
            continue
    return None


def _last_seen() -> int | None:
    return parse_last_seen(request.headers.get("Last-Event-ID"), request.args.get("v"))


def match_version(database_path: str, match_id: str) -> int | None:
    """The match's version, or None if there is no such match (on the worker thread's pooled
    connection, see `db.checkout`)."""
    database = checkout(database_path)
    try:
        version = get_match(database, match_id).version
    except UnknownMatch:
        version = None
    except sqlite3.Error:
        database.close()  # not given back: it may be what failed
        raise
    checkin(database, database_path)
    return version


Send = Callable[[dict], Awaitable[None]]
Receive = Callable[[], Awaitable[dict]]


async def asgi_stream(match_id: str, subscription: AsyncSubscription, send: Send, receive: Receive, *,
                      current: int,
                      last_seen: int | None, keepalive: float, lifetime: float,
                      headers: list[tuple[bytes, bytes]]) -> None:
    """Serve one SSE stream on the event loop until `lifetime` runs out, the client goes
    away or `subscription.end()` is called. The caller subscribed `subscription` before
    reading `current` from the database (so no commit is missed) and unsubscribes after.
    A `: keepalive` comment follows `keepalive` seconds without a doorbell; one timer per stream
    wakes it for that (re-armed only when it fires, never per doorbell)."""

    async def watch_disconnect() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        subscription.end()

    loop = asyncio.get_running_loop()
    watcher = asyncio.ensure_future(watch_disconnect())
    last_sent = loop.time()
    deadline = last_sent + lifetime
    fired = False

    def ring() -> None:
        nonlocal fired
        fired = True
        subscription.wake()

    timer = loop.call_at(min(last_sent + keepalive, deadline), ring)
    try:
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        first = f": connected to {match_id}\nretry: 2000\n\n"
        if last_seen is not None and current != last_seen:
            first += changed_event(current)  # missed while (re)connecting
        await send({"type": "http.response.body", "body": first.encode(), "more_body": True})
        while True:
            if subscription.versions:
                version = subscription.versions.popleft()
                await send({"type": "http.response.body", "body": changed_event(version).encode(),
                            "more_body": True})
                last_sent = loop.time()
                continue
            if subscription.ended:
                break
            now = loop.time()
            if now >= deadline:
                break
            if now >= last_sent + keepalive:
                await send({"type": "http.response.body", "body": b": keepalive\n\n", "more_body": True})
                last_sent = now = loop.time()
            if fired:  # the timer rang: armed again for the next keepalive, or the end of the stream's life
                fired = False
                timer = loop.call_at(min(last_sent + keepalive, deadline), ring)
            await subscription.wait()
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        timer.cancel()
        watcher.cancel()


@bp.get("/m/<match_id>/events")
def events(match_id: str) -> Response:
    """text/event-stream of `changed` doorbells for one match (?v=<version>
    makes the stream ring at once if the match already moved past it)."""
    get_match(get_db(), match_id)  # UnknownMatch -> 404 before streaming
    stream = event_stream(
        match_id,
        database_path=current_app.config["DATABASE"],
        last_seen=_last_seen(),
        keepalive=float(current_app.config["SSE_KEEPALIVE"]),
        lifetime=float(current_app.config["SSE_MAX_LIFETIME"]),
        the_broker=broker,
    )
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
