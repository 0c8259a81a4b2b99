"""Serving Referee: one uvicorn server for HTTP and HTTPS, on Linux, macOS and Windows.

The live streams (`GET /m/<id>/events`) are coroutines on uvicorn's event loop, so an open
stream costs a socket and a few KB instead of a worker thread; every other request goes to the
Flask app, run in a pool of ``threads`` worker threads (the doorbell is rung from
those threads after COMMIT, and hands the version over to the loop), except the screen re-fetches
and pickers (ON_LOOP_PATHS): short reads that the screen processes answer (`ScreenProcesses`:
the same app in other processes, which only read the database, so that drawing screens runs
beside this process), or, without them, Flask on the loop itself. The screen an accepted entry is
answered with is drawn by a screen process too. Anything unusual about a stream request (a foreign
Host, an unknown match, a database error) is left to Flask, which answers it with its usual page.
Why this design: docs/server.md.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import gc
import io
import logging
import marshal
import mmap
import os
import pickle
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import parse_qs

import uvicorn
from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from flask import Flask
from flask.globals import _cv_request

from . import db, hosts, live, security, store
from .one_write import OneWriteProtocol

logger = logging.getLogger(__name__)

EVENTS_PATH = re.compile(r"/m/([^/]+)/events")
ON_LOOP_PATHS = re.compile(r"/m/[^/]+/(?:screen|pick)")
_TABLE_PATH = re.compile(r"/m/([^/]+)/")


def _match_of(path: str) -> str | None:
    """The table a request's path is about (``/m/<id>/...``), if any."""
    found = _TABLE_PATH.match(path)
    return found.group(1) if found else None
"""GETs never handed to a worker thread: the screen every other phone re-fetches on each doorbell, and
the card picker. They only read (a few ms at most): a screen process answers them, else Flask on the
loop itself (the hand-over to a thread and back cost about a fifth of the server's CPU under load,
docs/server.md)."""
STREAM_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-cache"),
                  (b"x-accel-buffering", b"no")] + [
    (name.lower().encode(), value.encode()) for name, value in security.SECURITY_HEADERS.items()]
DEFAULT_THREADS = 16
DEFAULT_CONNECTION_LIMIT = 5000
BUFFERED_BODY = 256 * 1024  # request bodies up to this size are read whole in memory before Flask runs
BODY_STALL_SECONDS = 30.0  # a request body that sends nothing for this long is given up (408)
# A body of unknown length past the upload limit is still read, and dropped, up to this much more and this
# long before the answer closes the connection: a sender whose connection is closed while it is still
# sending gets a reset instead of the answer (a phone would show "connection reset", not the refusal).
DRAIN_BYTES = 64 << 20
DRAIN_SECONDS = 30.0
HEADER_BYTES = 32 * 1024  # a request whose headers hold more than this is answered 431 (a phone sends ~1 KB)


class RefereeASGI:
    """The ASGI application: live streams on the loop, the rest to Flask in threads."""

    def __init__(self, app: Flask, threads: int = DEFAULT_THREADS, *, on_loop: bool = True,
                 screen_processes: int = 0) -> None:
        self.app = app
        speed_up(app)
        self.on_loop = on_loop  # answer ON_LOOP_PATHS on the loop (or in a screen process)
        self.wsgi = WSGIMiddleware(app, workers=threads)  # streams request and response bodies
        self.executor = self.wsgi.executor
        self.streams: set[live.AsyncSubscription] = set()
        self.screens = ScreenProcesses(app, screen_processes) if screen_processes > 0 else None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.wsgi(scope, receive, send)
            return
        if sum(len(name) + len(value) for name, value in scope["headers"]) > HEADER_BYTES:
            await _plain_answer(send, 431, "The request's headers are too large.")
            return
        found = EVENTS_PATH.fullmatch(scope["path"])
        if found and scope["method"] == "GET" and await self.stream(found.group(1), scope, receive, send):
            return
        length = _content_length(scope)
        if found:
            await self.wsgi(scope, receive, send)  # a stream Flask answers (refused, or not a GET)
        elif length is not None and length <= BUFFERED_BODY:
            await self.buffered(scope, receive, send)
        elif length is not None and length > (self.app.config.get("MAX_CONTENT_LENGTH") or float("inf")):
            await self.wsgi(scope, receive, send)  # refused (413) before a byte of it is read
        else:
            await self.spooled(scope, receive, send, length)

    async def spooled(self, scope, receive, send, length: int | None) -> None:
        """A big body (an upload, or one of unknown length) read on the loop into a temporary file before
        Flask runs: a slow or stalled sender holds a socket, never a worker thread (sixteen phones
        trickling uploads would otherwise block every page). A body that stops coming for
        BODY_STALL_SECONDS is answered 408; one of unknown length past the upload limit, 413."""
        limit = self.app.config.get("MAX_CONTENT_LENGTH") or (1 << 62)
        body = tempfile.SpooledTemporaryFile(max_size=BUFFERED_BODY)
        try:
            size = 0
            while True:
                try:
                    message = await asyncio.wait_for(receive(), BODY_STALL_SECONDS)
                except asyncio.TimeoutError:
                    await _plain_answer(send, 408, "The upload stopped coming: send it again.")
                    return
                if message["type"] == "http.disconnect":
                    return
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    if message.get("more_body") and not await _drained(receive, DRAIN_BYTES):
                        return
                    await _plain_answer(send, 413, "That upload is too large for the referee: a photo may be at "
                                                   "most 15 MB. Send a smaller one.")
                    return
                body.write(chunk)
                if not message.get("more_body"):
                    break
            body.seek(0)
            environ = build_environ(scope, body)  # type: ignore[arg-type]
            if length is None:  # chunked: Flask reads the body it was given, whole
                environ["CONTENT_LENGTH"] = str(size)
                environ["wsgi.input_terminated"] = True
            status, headers, content = await asyncio.get_running_loop().run_in_executor(
                self.executor, _run_wsgi, self.app, environ)
        finally:
            body.close()
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content, "more_body": False})

    async def buffered(self, scope, receive, send) -> None:
        """Most requests: the body read whole, Flask run in a worker thread (or, for ON_LOOP_PATHS,
        in a screen process or on the loop), its whole answer sent at once (one hand-over between the
        loop and the thread each way, where a2wsgi makes one per chunk)."""
        body = bytearray()
        while True:
            try:
                message = await asyncio.wait_for(receive(), BODY_STALL_SECONDS)
            except asyncio.TimeoutError:  # a small body that stopped coming holds a connection for ever
                await _plain_answer(send, 408, "The request stopped coming: send it again.")
                return
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if self.on_loop and scope["method"] == "GET" and ON_LOOP_PATHS.fullmatch(scope["path"]):
            answer = await self.screens.answer(scope, bytes(body)) if self.screens is not None else None
            if answer is None:  # no screen process (or none could answer): Flask answers on the loop
                answer = _run_wsgi(self.app, build_environ(scope, io.BytesIO(bytes(body))))  # type: ignore[arg-type]
            status, headers, content = answer
        else:
            environ = build_environ(scope, io.BytesIO(bytes(body)))  # type: ignore[arg-type]
            status, headers, content = await asyncio.get_running_loop().run_in_executor(
                self.executor, _run_wsgi, self.app, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content, "more_body": False})

    async def stream(self, match_id: str, scope, receive, send) -> bool:
        """Serve a live stream; False (nothing sent) leaves the request to Flask."""
        headers = {}
        for name, value in scope["headers"]:
            if name == b"host" and "host" in headers:
                return False  # two Host headers: Flask refuses the request (400), as on every other path
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


_DICT_ATTRIBUTES = frozenset(dir(dict))
URLS_REMEMBERED = 4096


def speed_up(app: Flask) -> None:
    """Shortcuts for the work every screen repeats, none changing any answer:

    * Jinja reads ``view.round`` by trying the attribute first and catching the AttributeError, then
      the key. The screens' views are plain dicts read a hundred times a screen, and those exceptions
      were about a third of a screen's cost. A plain dict has no attributes but dict's own, so for
      those reads the key is looked up at once (the item, else Jinja's undefined, as before).
    * ``url_for`` (a screen builds eight links) remembers the URLs it built, by everything a URL
      inside a request depends on (the app's root, the endpoint and its values); anything unusual
      (an option such as ``_external``, a relative endpoint, values other than text and numbers,
      url_defaults functions, no request) is built as before.
    * Flask asks whether each hook and view is a coroutine function on every request; a function found
      not to be is remembered."""
    env = app.jinja_env
    if getattr(app, "referee_sped_up", False):
        return
    app.referee_sped_up = True
    generic = env.getattr

    def getattr_(obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return env.undefined(obj=obj, name=attribute)
        return generic(obj, attribute)

    env.getattr = getattr_

    build = app.url_for
    built: dict[tuple, str] = {}

    def url_for(endpoint: str, /, *, _anchor=None, _method=None, _scheme=None, _external=None, **values) -> str:
        context = _cv_request.get(None)
        adapter = context.url_adapter if context is not None else None
        if (adapter is None or _anchor is not None or _method is not None or _scheme is not None
                or _external is not None or endpoint[:1] == "." or app.url_default_functions
                or not all(type(v) is str or type(v) is int for v in values.values())):
            return build(endpoint, _anchor=_anchor, _method=_method, _scheme=_scheme, _external=_external, **values)
        key = (adapter.script_name, adapter.server_name, adapter.subdomain, endpoint, *sorted(values.items()))
        url = built.get(key)
        if url is None:
            url = build(endpoint, **values)
            if len(built) >= URLS_REMEMBERED:
                built.clear()
            built[key] = url
        return url

    app.url_for = url_for  # what flask.url_for calls
    env.globals["url_for"] = url_for

    ensure_sync = app.ensure_sync  # Flask asks it of every hook and view, every request
    plain: dict = {}

    def ensure_sync_(func):
        try:
            if func in plain:
                return func
        except TypeError:  # an unhashable callable
            return ensure_sync(func)
        found = ensure_sync(func)
        if found is func and len(plain) < 1024:
            plain[func] = True
        return found

    app.ensure_sync = ensure_sync_


async def _drained(receive, budget: int) -> bool:
    """Read and drop the rest of a refused body, up to ``budget`` bytes and DRAIN_SECONDS; False when the
    sender went away (nothing is to be answered)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DRAIN_SECONDS
    while budget > 0:
        left = deadline - loop.time()
        if left <= 0:
            return True
        try:
            message = await asyncio.wait_for(receive(), min(BODY_STALL_SECONDS, left))
        except asyncio.TimeoutError:
            return True
        if message["type"] == "http.disconnect":
            return False
        budget -= len(message.get("body", b""))
        if not message.get("more_body"):
            return True
    return True


async def _plain_answer(send, status: int, words: str) -> None:
    """A short plain-text answer from the loop (the request never reached Flask)."""
    body = words.encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"), *((name.lower().encode(), value.encode())
                                    for name, value in security.SECURITY_HEADERS.items())]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


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


# --- Screen processes ------------------------------------------------------------------------------

SCREEN_SCOPE_KEYS = ("type", "http_version", "method", "scheme", "path", "raw_path", "root_path", "query_string",
                     "headers", "client", "server")
AFFINITY_SLACK = 4  # requests a table's own screen process may have waiting beyond the least busy one
OWNERS_KEPT = 4096  # tables whose screen process is remembered
SCREEN_TIMEOUT = 10.0  # seconds a screen process may take before the serving process answers itself
ANSWER, RENDER = 0, 1  # what a screen process is asked: a whole request, or a phone's screen at a version


def default_screen_processes() -> int:
    """Screen processes `referee serve` starts unless config SCREEN_PROCESSES says otherwise: as many as
    the cores this process may use, at most 3 (drawing screens is most of the work, and the serving
    process leaves them part of a core); none on Windows or on one core."""
    if os.name != "posix":
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS
        cores = os.cpu_count() or 1
    return min(cores, 3) if cores > 1 else 0


class ScreenGone(Exception):
    """A screen process did not answer (it is starting, stopped, too slow, or failed on the request):
    the serving process answers the request itself."""


def _frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(4, "big") + payload


def _read_frame(reader) -> bytes | None:
    head = reader.read(4)
    if len(head) < 4:
        return None
    size = int.from_bytes(head, "big")
    payload = reader.read(size)
    return payload if len(payload) == size else None


def _on_a_loop() -> bool:
    """Whether this thread runs an event loop (the serving loop must never wait for itself)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _scope_fields(scope) -> dict:
    return {k: scope[k] for k in SCREEN_SCOPE_KEYS if k in scope}


class ScreenProcesses:
    """Processes that draw the phones' screens for the serving process: they answer the screen re-fetches
    and pickers (ON_LOOP_PATHS) and draw the fresh screen an accepted entry is answered with, so that
    rendering, most of the server's work, runs beside the serving process instead of in it (one process
    runs Python on one core at a time).

    Each is the same Flask app (built from this app's config) and only reads the database: the serving
    process stays the file's only writer (entries, seats, scans, snapshots all stay here), rings every
    doorbell and keeps every stream. A screen process reads what was committed before each doorbell
    (SQLite WAL), catches up its state cache by the entries in between (`store.state_at`), and follows
    this process's seat claims through a shared counter (`store.HolderCache.share`), checked before
    every answer. A request goes over a socket pair (the scope's fields and body in; status, headers
    and body out); a screen process that is not ready, fails on a request or takes longer than
    SCREEN_TIMEOUT leaves it to the serving process, which answers it as before (and a stuck one is
    replaced). Why: docs/server.md."""

    def __init__(self, app: Flask, count: int, timeout: float = SCREEN_TIMEOUT) -> None:
        self.app, self.count, self.timeout = app, count, timeout
        self.workers: list[_ScreenProcess] = []
        self.counter: mmap.mmap | None = None
        self._counter_file = None
        self.spec: bytes | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        self._watchdog: asyncio.TimerHandle | None = None
        self._owners: dict[str, int] = {}  # table -> the index of its screen process
        self._owned: list[int] = [0] * count  # tables given to each

    async def start(self) -> None:
        try:
            self.spec = pickle.dumps({"config": dict(self.app.config), "instance_path": self.app.instance_path})
        except Exception:  # noqa: BLE001  (an app config that cannot be sent: the serving process draws)
            logger.warning("screen processes not started: the app's config cannot be sent to them", exc_info=True)
            return
        self.loop = asyncio.get_running_loop()
        self._counter_file = tempfile.TemporaryFile()
        os.ftruncate(self._counter_file.fileno(), 8)
        self.counter = mmap.mmap(self._counter_file.fileno(), 8)
        store.holder_cache.share(self.counter, writer=True)
        for _ in range(self.count):
            worker = _ScreenProcess(self)
            self.workers.append(worker)
            await worker.start()
        self._watchdog = self.loop.call_later(1.0, self._watch)
        self.app.extensions["referee.screens"] = self  # views.play.render_screen draws through it

    def _ready(self, match_id: str | None = None) -> _ScreenProcess | None:
        """The screen process for a table's requests: the table's own one (so one process draws the parts
        of a version every phone shares once, and follows the table's state entry by entry), unless it
        is not ready or is further behind than the least busy one; else the least busy one."""
        best = None
        for worker in self.workers:
            if worker.ready and (best is None or len(worker.waiting) < len(best.waiting)):
                best = worker
        if match_id is not None and best is not None:
            own = self.workers[self._owner(match_id)]
            if own.ready and len(own.waiting) <= len(best.waiting) + AFFINITY_SLACK:
                return own
        return best

    def _owner(self, match_id: str) -> int:
        """The index of a table's own screen process: given when the table is first seen, to the process
        that owns the fewest tables. (A hash of the id split 50 tables 21/29 as often as not: the busier
        process then passed its overflow to the other, which drew those tables' shared parts again.)"""
        index = self._owners.get(match_id)
        if index is None:
            if len(self._owners) >= OWNERS_KEPT:  # a long-running server: start the count again
                self._owners.clear()
                self._owned = [0] * len(self._owned)
            index = min(range(len(self._owned)), key=self._owned.__getitem__)
            self._owners[match_id] = index
            self._owned[index] += 1
        return index

    async def answer(self, scope, body: bytes) -> tuple[int, list, bytes] | None:
        """A screen process's answer to this request (on the loop), or None: the loop answers it."""
        worker = self._ready(_match_of(scope.get("path", "")))
        if worker is None:
            return None
        future = self.loop.create_future()
        worker.send(future, ANSWER, _scope_fields(scope), body)
        try:
            answer = await future
        except ScreenGone:
            return None
        if answer is None:
            return None  # it failed on this request: the loop answers it (and shows the same error)
        return answer[0], [tuple(header) for header in answer[1]], answer[2]

    def render_screen(self, environ: dict, match_id: str, version: int, extra: dict | None = None) -> bytes | None:
        """From a worker thread: the screen the phone of this request (its cookie, its Host) sees at
        `version`, drawn by a screen process as `views.play.render_screen(match, state)` draws it
        (the same HTML), or None (the caller draws it)."""
        scope = environ.get("asgi.scope")
        if scope is None or self.loop is None or self._ready() is None or _on_a_loop():
            return None
        future: concurrent.futures.Future = concurrent.futures.Future()
        try:
            self.loop.call_soon_threadsafe(self._render, future, _scope_fields(scope), match_id, version, extra)
            return future.result(self.timeout)
        except Exception:  # noqa: BLE001  (gone, too slow, loop closed: the caller draws it)
            return None

    def _render(self, future: concurrent.futures.Future, fields: dict, match_id: str, version: int,
                extra: dict | None) -> None:
        worker = self._ready(match_id)
        if worker is None:
            future.set_exception(ScreenGone())
        else:
            worker.send(future, RENDER, fields, (match_id, version, extra))

    def _watch(self) -> None:
        """Once a second: a screen process sitting on a request longer than the timeout is stuck; it is
        replaced (its requests go back to the serving process)."""
        now = time.monotonic()
        for worker in self.workers:
            if worker.waiting and now - min(sent for _, sent in worker.waiting.values()) > self.timeout:
                logger.error("a screen process did not answer within %s s; replacing it", self.timeout)
                worker.kill()
        if not self.stopping:
            self._watchdog = self.loop.call_later(1.0, self._watch)

    def lost(self, worker: _ScreenProcess) -> None:
        """A screen process ended: start another unless stopping, or it keeps failing at once."""
        if self.stopping:
            return
        quick = time.monotonic() - worker.started_at < 30
        worker.failures = worker.failures + 1 if quick else 0
        if worker.failures > 3:
            logger.error("a screen process keeps failing; the serving process draws the screens itself")
            return
        logger.warning("a screen process ended; starting another")
        self.loop.call_later(1.0 if quick else 0, lambda: asyncio.ensure_future(worker.start()))

    async def stop(self) -> None:
        self.stopping = True
        self.app.extensions.pop("referee.screens", None)
        if self._watchdog is not None:
            self._watchdog.cancel()
        for worker in self.workers:
            worker.close()
        deadline = time.monotonic() + 5
        for worker in self.workers:
            while worker.proc is not None and worker.proc.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            if worker.proc is not None and worker.proc.poll() is None:
                worker.proc.kill()
                worker.proc.wait()
        if self.counter is not None:
            store.holder_cache.unshare(self.counter)
            self.counter.close()
            self._counter_file.close()
            self.counter = None


class _ScreenProcess(asyncio.Protocol):
    """One screen process and the serving process's end of its socket pair (used on the loop)."""

    def __init__(self, pool: ScreenProcesses) -> None:
        self.pool = pool
        self.proc: subprocess.Popen | None = None
        self.transport: asyncio.Transport | None = None
        self.ready = False
        self.waiting: dict[int, tuple] = {}  # request number -> (future, when sent)
        self.next_id = 0
        self.buffer = bytearray()
        self.started_at = 0.0
        self.failures = 0

    async def start(self) -> None:
        if self.pool.stopping:
            return
        self.ready, self.buffer, self.started_at = False, bytearray(), time.monotonic()
        ours, theirs = socket.socketpair()
        counter_fd = self.pool._counter_file.fileno()
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", "from referee.server import screen_process_main; screen_process_main()",
                 str(theirs.fileno()), str(counter_fd)],
                pass_fds=(theirs.fileno(), counter_fd), stdin=subprocess.DEVNULL, env=env)
        except OSError:
            logger.warning("could not start a screen process", exc_info=True)
            ours.close()
            return
        finally:
            theirs.close()
        self.transport, _ = await asyncio.get_running_loop().create_unix_connection(lambda: self, sock=ours)
        self.transport.write(_frame(self.pool.spec))

    def send(self, future, kind: int, fields: dict, extra) -> None:
        """Ask (on the loop); `future` (asyncio's or concurrent's) gets the answer, or ScreenGone."""
        if self.transport is None:
            future.set_exception(ScreenGone())
            return
        try:
            frame = _frame(marshal.dumps((self.next_id + 1, kind, fields, extra)))
        except ValueError:  # a value marshal cannot send: the serving process draws it
            future.set_exception(ScreenGone())
            return
        self.next_id += 1
        self.waiting[self.next_id] = (future, time.monotonic())
        self.transport.write(frame)

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        while len(buffer) >= 4:
            end = 4 + int.from_bytes(buffer[:4], "big")
            if len(buffer) < end:
                break
            ident, answer = marshal.loads(buffer[4:end])
            del buffer[:end]
            if ident == 0:
                self.ready = True  # the app is built and its templates compiled
                continue
            future = self.waiting.pop(ident, (None,))[0]
            if future is not None and not future.done():
                future.set_result(answer)

    def connection_lost(self, exc) -> None:
        self.ready = False
        self.transport = None
        waiting, self.waiting = self.waiting, {}
        for future, _ in waiting.values():
            if not future.done():
                future.set_exception(ScreenGone())
        if self.pool.stopping:
            return  # it ends by itself once it reads the end of its socket
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.pool.lost(self)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # its socket closes: connection_lost

    def close(self) -> None:
        """Close its socket: the process ends once it has answered what it was asked."""
        self.ready = False
        if self.transport is not None:
            self.transport.close()


def settle_heap() -> None:
    """Everything a server loads before its first request (the app, its compiled templates, the card
    reader, the catalogues: about 61,000 objects) lives as long as it does: moved out of the
    collector's sight (``gc.freeze``), so that the full collections a busy server makes every few
    seconds walk only what requests made. Walking those objects took 36 ms of CPU per full
    collection, with every thread of the process stopped."""
    gc.collect()
    gc.freeze()


def screen_process_main() -> None:
    """A screen process (started by ScreenProcesses): builds the app from the serving process's config,
    then answers what it is asked, one request at a time, until its socket closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the serving process, which stops this one
    sock = socket.socket(fileno=int(sys.argv[1]))
    counter = mmap.mmap(int(sys.argv[2]), 8, access=mmap.ACCESS_READ)
    reader = sock.makefile("rb", buffering=65536)
    try:
        payload = _read_frame(reader)
    except OSError:  # the serving process ended while this one was starting
        return
    if payload is None:
        return
    spec = pickle.loads(payload)
    from . import create_app

    app = create_app({**spec["config"], "MIGRATE_ON_START": False}, instance_path=spec["instance_path"])
    store.writes_snapshots = False  # only the serving process writes the file
    store.holder_cache.share(counter, writer=False)
    speed_up(app)
    security.allow_list(app)  # this machine's names, looked up now rather than under the first request
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)  # compiled now, not under the first phones' taps
    settle_heap()
    try:
        sock.sendall(_frame(marshal.dumps((0, None))))
    except OSError:
        return  # the server stopped while this process was starting
    while True:
        try:
            payload = _read_frame(reader)
        except OSError:  # the serving process ended
            return
        if payload is None:
            return
        ident, kind, fields, extra = marshal.loads(payload)
        try:
            if kind == ANSWER:
                answer = _run_wsgi(app, build_environ(fields, io.BytesIO(extra)))  # type: ignore[arg-type]
            else:
                answer = _draw_screen(app, fields, *extra)
        except Exception:  # noqa: BLE001  (the serving process answers it, and shows the error)
            answer = None
        try:
            sock.sendall(_frame(marshal.dumps((ident, answer))))
        except OSError:
            return


def _draw_screen(app: Flask, fields: dict, match_id: str, version: int, extra: dict | None = None) -> bytes:
    """In a screen process: what `views.play.render_screen(match, state, **extra)` answers the phone of
    this request (its scope's cookie and Host) at `version` (with a refusal or notice the serving
    process sent as plain values), without running the request's view."""
    from . import tables
    from .views import play

    with app.request_context(build_environ(fields, io.BytesIO(b""))):  # type: ignore[arg-type]
        database = db.get_db()
        match = dataclasses.replace(store.get_match(database, match_id), version=version)
        return play.render_screen(match, store.state_at(database, match, tables.replay, tables.feed),
                                  **play.screen_extra_from_wire(extra)).get_data()


class Server(uvicorn.Server):
    """uvicorn's server, ending the live streams first when it stops (else it would wait
    for each to reach SSE_MAX_LIFETIME)."""

    def __init__(self, config: uvicorn.Config, asgi: RefereeASGI) -> None:
        super().__init__(config)
        self.asgi = asgi
        self.stopped_by: list[int] = []  # the signals (Ctrl+C, SIGTERM) that stopped it

    def handle_exit(self, sig: int, frame) -> None:
        """Ctrl+C or SIGTERM: stop. The screen processes are not started again from now on (a SIGTERM to
        the process group ends them too, before the shutdown itself begins)."""
        if self.asgi.screens is not None:
            self.asgi.screens.stopping = True
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self):
        """uvicorn's, without raising the signal again once the server has stopped (which made Ctrl+C end
        in click's "Aborted!" with status 1, and SIGTERM kill the process): a signal is a clean stop."""
        with super().capture_signals():
            try:
                yield
            finally:
                self.stopped_by = list(self._captured_signals)
                self._captured_signals.clear()

    async def startup(self, sockets=None) -> None:
        if self.asgi.screens is not None:
            await self.asgi.screens.start()  # they get ready while the server starts; until then, the loop answers
        try:
            await super().startup(sockets)
        except BaseException:  # e.g. the port is taken (uvicorn exits)
            if self.asgi.screens is not None:
                await self.asgi.screens.stop()
            raise

    async def shutdown(self, sockets=None) -> None:
        self.asgi.end_streams()
        await super().shutdown(sockets)
        if self.asgi.screens is not None:
            await self.asgi.screens.stop()
        self.asgi.executor.shutdown(wait=False)  # idle workers end, and their connections close
        db.close_idle(self.asgi.app.config["DATABASE"])


def make_server(app: Flask, host: str = "127.0.0.1", port: int = 8000, *, threads: int = DEFAULT_THREADS,
                connection_limit: int = DEFAULT_CONNECTION_LIMIT, certfile: str | None = None,
                keyfile: str | None = None, log_level: str = "warning", screen_processes: int | None = None) -> Server:
    """The server `referee serve` runs (and the tests' live_server). ``connection_limit``: open
    connections at most (live streams included); past it uvicorn answers 503. ``screen_processes``:
    processes that answer the screen re-fetches and pickers (default: config SCREEN_PROCESSES, else
    `default_screen_processes()`)."""
    if screen_processes is None:
        configured = app.config.get("SCREEN_PROCESSES")
        screen_processes = default_screen_processes() if configured is None else int(configured)
    asgi = RefereeASGI(app, threads, screen_processes=screen_processes)
    config = uvicorn.Config(
        asgi, host=host, port=port, lifespan="off", interface="asgi3", proxy_headers=False, http=OneWriteProtocol,
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
        options.setdefault("screen_processes", 0)  # a test asks for them (they would not see its patches)
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
