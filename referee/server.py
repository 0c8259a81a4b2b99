"""Serving Referee: one uvicorn server for HTTP and HTTPS, on Linux, macOS and Windows.

The live streams (`GET /m/<id>/events`) are coroutines on uvicorn's event loop, so an open
stream costs a socket and a few KB instead of a worker thread; every other request goes to the
Flask app, run in a pool of ``threads`` worker threads (the doorbell is rung from
those threads after COMMIT, and hands the version over to the loop), except the screen re-fetches
and pickers (ON_LOOP_PATHS), short reads that Flask answers on the loop itself. Anything unusual about a
stream request (a foreign Host, an unknown match, a database error) is left to Flask, which
answers it with its usual page. Why this design: docs/server.md.
"""

from __future__ import annotations

import asyncio
import io
import re
import socket
import threading
import time
from urllib.parse import parse_qs

import uvicorn
from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from flask import Flask

from . import db, hosts, live, security

EVENTS_PATH = re.compile(r"/m/([^/]+)/events")
ON_LOOP_PATHS = re.compile(r"/m/[^/]+/(?:screen|pick)")
"""GETs answered on the event loop itself, not handed to a worker thread: the screen every other phone
re-fetches on each doorbell, and the card picker. They only read (a few ms at most), and the hand-over
to a thread and back cost about a fifth of the server's CPU under load (docs/server.md)."""
STREAM_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
                  (b"x-accel-buffering", b"no")] + [
    (name.lower().encode(), value.encode()) for name, value in security.SECURITY_HEADERS.items()]
DEFAULT_THREADS = 16
DEFAULT_CONNECTION_LIMIT = 5000
BUFFERED_BODY = 256 * 1024  # request bodies up to this size are read whole before Flask runs


class RefereeASGI:
    """The ASGI application: live streams on the loop, the rest to Flask in threads."""

    def __init__(self, app: Flask, threads: int = DEFAULT_THREADS, *, on_loop: bool = True) -> None:
        self.app = app
        self.on_loop = on_loop  # answer ON_LOOP_PATHS on the loop
        self.wsgi = WSGIMiddleware(app, workers=threads)  # streams request and response bodies
        self.executor = self.wsgi.executor
        self.streams: set[live.AsyncSubscription] = set()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.wsgi(scope, receive, send)
            return
        found = EVENTS_PATH.fullmatch(scope["path"])
        if found and scope["method"] == "GET" and await self.stream(found.group(1), scope, receive, send):
            return
        length = _content_length(scope)
        if found or length is None or length > BUFFERED_BODY:
            await self.wsgi(scope, receive, send)  # big uploads and live streams: streamed
        else:
            await self.buffered(scope, receive, send)

    async def buffered(self, scope, receive, send) -> None:
        """Most requests: the body read whole, Flask run in a worker thread (or, for ON_LOOP_PATHS,
        on the loop), its whole answer sent at once (one hand-over between the loop and the thread
        each way, where a2wsgi makes one per chunk)."""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        environ = build_environ(scope, io.BytesIO(bytes(body)))  # type: ignore[arg-type]
        if self.on_loop and scope["method"] == "GET" and ON_LOOP_PATHS.fullmatch(scope["path"]):
            status, headers, content = _run_wsgi(self.app, environ)
        else:
            status, headers, content = await asyncio.get_running_loop().run_in_executor(
                self.executor, _run_wsgi, self.app, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content, "more_body": False})

    async def stream(self, match_id: str, scope, receive, send) -> bool:
        """Serve a live stream; False (nothing sent) leaves the request to Flask."""
        headers = {}
        for name, value in scope["headers"]:
            headers.setdefault(name.decode("latin-1"), value.decode("latin-1"))
        server = scope.get("server")
        if not hosts.host_allowed(headers.get("host"), security.allow_list(self.app), server and server[0]):
            return False
        loop = asyncio.get_running_loop()
        subscription = live.AsyncSubscription(loop)
        live.broker.subscribe(match_id, subscription)  # before reading the version: no commit missed
        self.streams.add(subscription)
        try:
            try:
                current = await loop.run_in_executor(self.wsgi.executor, live.match_version,
                                                     self.app.config["DATABASE"], match_id)
            except Exception:  # noqa: BLE001  (Flask answers it with its friendly error page)
                return False
            if current is None:
                return False
            query = parse_qs(scope["query_string"].decode("latin-1"))
            last_seen = live.parse_last_seen(headers.get("last-event-id"), (query.get("v") or [None])[0])
            await live.asgi_stream(match_id, subscription, send, receive, current=current, last_seen=last_seen,
                                   keepalive=float(self.app.config["SSE_KEEPALIVE"]),
                                   lifetime=float(self.app.config["SSE_MAX_LIFETIME"]), headers=STREAM_HEADERS)
            return True
        finally:
            self.streams.discard(subscription)
            live.broker.unsubscribe(match_id, subscription)

    def end_streams(self) -> None:
        """End every open stream now (on the loop): the server is stopping."""
        for subscription in list(self.streams):
            subscription.end()


def _content_length(scope) -> int | None:
    """The request's body length: 0 without a body, None when unknown (chunked) or malformed."""
    length = 0
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                length = int(value)
            except ValueError:
                return None
        elif name == b"transfer-encoding":
            return None
    return length


def _run_wsgi(app, environ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Run a WSGI app to the end of its answer (in a worker thread)."""
    started: list = []
    written: list[bytes] = []

    def start_response(status, headers, exc_info=None):
        if exc_info is not None and started:
            raise exc_info[1].with_traceback(exc_info[2])
        started[:] = [status, headers]
        return written.append

    result = app(environ, start_response)
    try:
        for chunk in result:
            written.append(chunk)
    finally:
        if hasattr(result, "close"):
            result.close()
    status, headers = started
    return (int(status.split(" ", 1)[0]),
            [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
            b"".join(written))


class Server(uvicorn.Server):
    """uvicorn's server, ending the live streams first when it stops (else it would wait
    for each to reach SSE_MAX_LIFETIME)."""

    def __init__(self, config: uvicorn.Config, asgi: RefereeASGI) -> None:
        super().__init__(config)
        self.asgi = asgi

    async def shutdown(self, sockets=None) -> None:
        self.asgi.end_streams()
        await super().shutdown(sockets)
        self.asgi.executor.shutdown(wait=False)  # idle workers end, and their connections close
        db.close_idle(self.asgi.app.config["DATABASE"])


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, *, threads: int = DEFAULT_THREADS,
                connection_limit: int = DEFAULT_CONNECTION_LIMIT, certfile: str | None = None,
                keyfile: str | None = None, log_level: str = "warning") -> Server:
    """The server `referee serve` runs (and the tests' live_server). ``connection_limit``: open
    connections at most (live streams included); past it uvicorn answers 503."""
    asgi = RefereeASGI(app, threads)
    config = uvicorn.Config(
        asgi, host=host, port=port, lifespan="off", interface="asgi3", proxy_headers=False,
        server_header=False, headers=[("server", "referee")], access_log=False, log_level=log_level,
        limit_concurrency=connection_limit + 1,  # uvicorn counts the new one too
        backlog=2048, timeout_keep_alive=30, timeout_graceful_shutdown=5, ssl_certfile=certfile, ssl_keyfile=keyfile)
    return Server(config, asgi)


def bound_socket(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free one), for running a server in a thread."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def raise_file_limit(wanted: int) -> int:
    """Raise this process's open-file limit towards `wanted` (each connection is a file);
    the limit in force. A no-op where the resource module does not exist (Windows)."""
    try:
        import resource
    except ImportError:
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            return soft
    return soft


class Background:
    """A server running in a thread on ``host`` (a free port unless given): for tests and
    benchmarks, which must serve the app exactly as `referee serve` does."""

    def __init__(self, app: Flask, host: str = "127.0.0.1", port: int = 0, **options) -> None:
        self.sock = bound_socket(host, port)
        self.port = self.sock.getsockname()[1]
        self.server = make_server(app, host, self.port, **options)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       name="referee-server", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)

    def stop(self, timeout: float = 15) -> None:
        """End the open streams, then stop (as Ctrl+C does)."""
        self.server.should_exit = True
        self.thread.join(timeout)
        self.sock.close()
