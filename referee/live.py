"""In-process SSE "doorbell": tells every phone watching a match that it changed.

The stream carries no game data, only `event: changed` with `id: <version>`;
each phone then re-GETs its own view (so nothing private leaks).  Publish only
after the change is committed (store.append does this).  Each stream sends a
`: keepalive` comment every SSE_KEEPALIVE seconds and ends after
SSE_MAX_LIFETIME seconds (the browser's EventSource reconnects with
Last-Event-ID), so waitress worker threads are never held forever.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

from flask import Blueprint, Flask, Response, current_app, request

from .db import connect, get_db
from .store import get_match

bp = Blueprint("live", __name__)


class Broker:
    """Fan out (match_id, version) notifications to subscriber queues."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[queue.Queue]] = {}

    def subscribe(self, match_id: str) -> queue.Queue:
        q: queue.Queue = queue.Queue(maxsize=64)
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
        """Ring every subscriber of `match_id`; returns how many were rung."""
        with self._lock:
            subs = list(self._subscribers.get(match_id, ()))
        for q in subs:
            try:
                q.put_nowait(version)
            except queue.Full:
                pass  # a slow reader only needs the latest doorbell anyway
        return len(subs)

    def subscriber_count(self, match_id: str) -> int:
        with self._lock:
            return len(self._subscribers.get(match_id, ()))


broker = Broker()


def publish(match_id: str, version: int) -> int:
    """Notify the process-wide broker that `match_id` reached `version`."""
    return broker.publish(match_id, version)


def changed_event(version: int) -> str:
    return f"id: {version}\nevent: changed\ndata: {version}\n\n"


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
            database = connect(database_path)
            try:
                current = get_match(database, match_id).version
            finally:
                database.close()
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


def _last_seen() -> int | None:
    """Last-Event-ID on reconnect, else the `v` the page was drawn at."""
    for raw in (request.headers.get("Last-Event-ID"), request.args.get("v")):
        try:
            return int(raw)
        except (TypeError, ValueError):
            continue
    return None


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
