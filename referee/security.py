"""Request hardening: Host allow-list, CSRF origin check, security headers, friendly errors, seats.

Host allow-list (DNS rebinding): a request whose Host header is not one of the server's own
names or addresses (see `referee.hosts`) gets 400 before anything else runs.

CSRF (datasette/Go-style, no tokens): an unsafe request (POST, PUT, ...) is
accepted when the browser says `Sec-Fetch-Site: same-origin` or `none`;
otherwise its `Origin` must equal the request's own scheme://host:port.
Phones on the plain-HTTP LAN send no Sec-Fetch-Site (not a secure context)
but always send Origin on POST, so they pass; other sites do not.

Seats are bound in the signed session cookie issued at join: `bind_seat`,
`seat_for`, `require_seat`.  No seat means spectator: read-only.
"""

from __future__ import annotations

import copy
import logging
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from urllib.parse import parse_qsl, urlsplit

from flask import Flask, Request, abort, current_app, render_template, request, session
from flask.globals import request_ctx
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext, lazy_gettext as _l
from itsdangerous import BadSignature
from werkzeug.exceptions import HTTPException, InternalServerError

from . import hosts
from .db import storage_trouble
from .headers import vary_on
from .store import StaleVersion, UnknownMatch

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
TRUSTED_FETCH_SITES = frozenset({"same-origin", "none"})
DEFAULT_PORTS = {"http": 80, "https": 443}

SECURITY_HEADERS = {
    # img-src blob:: the phone decodes a chosen photo as a blob image to scale it before upload (camera.js)
    "Content-Security-Policy": "default-src 'self'; img-src 'self' blob:; base-uri 'self'; form-action 'self'; "
                               "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


# --- Host allow-list ----------------------------------------------------------

def configured_hosts(value) -> tuple[str, ...]:
    """Config ``ALLOWED_HOSTS`` as a tuple: a list of hosts, or one string of them separated by
    commas or spaces."""
    if value is None:
        return ()
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    return tuple(str(h) for h in value)


def allow_list(app: Flask) -> frozenset[str]:
    """The app's allow-list: this machine's names and addresses, ``SERVER_HOST`` (the address
    `referee serve` listens on) and ``ALLOWED_HOSTS``; recomputed only when those change."""
    key = (app.config.get("SERVER_HOST"), configured_hosts(app.config.get("ALLOWED_HOSTS")))
    cached = app.extensions.get("referee.allowed_hosts")
    if cached is None or cached[0] != key:
        cached = app.extensions["referee.allowed_hosts"] = (key, _machine_allow_list(*key))
    return cached[1]


_machine_lists: dict = {}


def _machine_allow_list(listen_host, extra) -> frozenset[str]:
    if (listen_host, extra) not in _machine_lists:  # DNS look-ups of our own names: once a process
        _machine_lists[(listen_host, extra)] = hosts.allowed_hosts(listen_host, extra)
    return _machine_lists[(listen_host, extra)]


def host_failure(req: Request) -> str | None:
    """Why this request's Host header is refused, or None if it names this server."""
    header = req.headers.get("Host")
    if hosts.host_allowed(header, allow_list(current_app._get_current_object()), req.environ.get("SERVER_NAME")):
        return None
    shown = repr((header or "")[:80])
    if hosts.host_name(header) is None:
        return gettext("Refused a request with a malformed Host header (%(host)s).", host=shown)
    return gettext("Refused a request for %(host)s: this server answers only to its own names and addresses. If that "
                   "name is really this laptop, start it with --allow-host %(name)s.", host=shown,
                   name=hosts.host_name(header))


def check_host() -> None:
    """before_request: the DNS-rebinding guard, ahead of everything else."""
    reason = host_failure(request._get_current_object())
    if reason:
        abort(400, description=reason)


# --- CSRF -------------------------------------------------------------------

def _origin_key(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the default port filled in; None if malformed."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


def csrf_failure(req: Request) -> str | None:
    """Why this unsafe request looks cross-site, or None if it is acceptable."""
    fetch_site = req.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        if fetch_site.strip().lower() in TRUSTED_FETCH_SITES:
            return None
        return gettext("Refused a cross-site request (Sec-Fetch-Site: %(site)s).", site=fetch_site)
    origin = req.headers.get("Origin")
    if not origin:
        return gettext("Refused a request without an Origin header; please use the app's own forms.")
    parsed = urlsplit(origin) if "://" in origin else None
    # an Origin is a scheme, a host and a port alone (RFC 6454): a path, a query or a user name is no origin
    plain = parsed is not None and not (parsed.path or parsed.query or parsed.fragment or "@" in parsed.netloc)
    theirs = _origin_key(parsed.scheme, parsed.netloc) if plain else None
    ours = _origin_key(req.scheme, req.host)
    if theirs is None or theirs != ours:
        return gettext("Refused a request from another site (Origin: %(origin)s).", origin=origin)
    return None


def protect_unsafe_requests() -> None:
    """before_request: size limit first, then the CSRF origin check."""
    req = request._get_current_object()
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and req.content_length is not None and req.content_length > limit:
        abort(413)
    if req.method in SAFE_METHODS:
        return
    reason = csrf_failure(req)
    if reason:
        abort(403, description=reason)
    if req.mimetype == "application/x-www-form-urlencoded":
        if req.content_length is not None and req.content_length > FORM_LIMIT:
            # no screen's form comes near it; read whole, a 10 MB one held half a GB at its peak
            abort(413, description=gettext("That form is far larger than any screen sends: nothing was saved."))
        if not _utf8_form(req.get_data(cache=True)):
            abort(400, description=gettext("The form's text could not be read (it is not UTF-8): nothing was saved."))


FORM_LIMIT = 1024 * 1024  # bytes of a URL-encoded form (photos come as multipart, up to MAX_CONTENT_LENGTH)


def _utf8_form(body: bytes) -> bool:
    """Whether every name and value of a URL-encoded form is UTF-8 once its %XX escapes are read (werkzeug
    keeps an escape that is no UTF-8 as the text "%FF", which would be saved as typed)."""
    try:
        parse_qsl(body.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="strict")
    except (UnicodeDecodeError, ValueError):
        return False
    return True


_SECURITY_HEADERS_LOWER = [(name.lower(), name, value) for name, value in SECURITY_HEADERS.items()]


def add_security_headers(response):
    """Each security header the response does not set itself (what ``headers.setdefault`` did, without
    the KeyError it raises and catches for every header missing)."""
    headers = response.headers
    present = {name.lower() for name in headers.keys()}
    for lower, name, value in _SECURITY_HEADERS_LOWER:
        if lower not in present:
            headers.add(name, value)
    return response


class HttpsOnlySecureSessionInterface(SecureCookieSessionInterface):
    """Mark the session cookie Secure exactly when the request came over https.

    A phone sends the same signed cookie with every request, so a cookie whose signature was checked
    once is remembered (per app, the newest SESSION_CACHE_SIZE) with the time it was signed: later
    requests skip the HMAC and decoding, and still honour the session's lifetime. Each request gets
    its own copy of the data."""

    SESSION_CACHE_SIZE = 4096

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config.get("SESSION_COOKIE_SECURE")) or request.is_secure

    def open_session(self, app: Flask, req: Request):
        value = req.cookies.get(self.get_cookie_name(app))
        if not value or not app.secret_key:
            return super().open_session(app, req)
        cache = app.extensions.get("referee.sessions")
        if cache is None:
            cache = app.extensions.setdefault("referee.sessions", _VerifiedCookies(self.SESSION_CACHE_SIZE))
        max_age = int(app.permanent_session_lifetime.total_seconds())
        key = (value, app.secret_key)
        found = cache.get(key)
        if found is not None and 0 <= time.time() - found[0] <= max_age:
            return self.session_class(_copy(found[1]))
        serializer = self.get_signing_serializer(app)
        try:
            data, signed_at = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        cache.put(key, (signed_at.timestamp(), data))
        return self.session_class(_copy(data))

    def save_session(self, app: Flask, session, response) -> None:
        """Flask's, but the usual answer (a session read, not changed, no cookie to send) only names
        Cookie in Vary, without parsing the header."""
        if not session.modified and not (session and self.should_set_cookie(app, session)):
            if session.accessed:
                vary_on(response, "Cookie")
            return
        super().save_session(app, session, response)


def _copy(value):
    """A deep copy of a session's data (JSON: dicts, lists, text, numbers), quicker than copy.deepcopy;
    anything else is copied by copy.deepcopy."""
    kind = type(value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is list:
        return [_copy(v) for v in value]
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value
    return copy.deepcopy(value)


class _VerifiedCookies:
    """A bounded, thread-safe LRU of session cookies already verified: value -> (signed at, data)."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)


# --- Friendly errors ----------------------------------------------------------

FRIENDLY_TITLES = {
    400: _l("That request made no sense"),
    403: _l("Not allowed"),
    404: _l("Not found"),
    405: _l("Not allowed here"),
    409: _l("The game moved on"),
    413: _l("That upload is too large"),
    422: _l("That cannot be done"),
    500: _l("Something went wrong"),
    503: _l("The referee is busy"),
}


DEFAULT_MESSAGES = {  # for an abort() that gives no words of its own
    400: _l("The phone sent something the referee could not read. Go back and try again."),
    403: _l("This phone may not do that here."),
    404: _l("There is no such page here. Check the link or go back to the start."),
    405: _l("That address cannot be used this way."),
    413: _l("That upload is too large for the referee: a photo may be at most 15 MB. Send a smaller one."),  # vision.MAX_BYTES
    429: _l("Too many requests at once. Wait a moment and try again."),
    503: _l("The referee is busy right now. Wait a moment and try again."),
}

CANNOT_SAVE_TITLE = _l("The referee cannot save right now")  # 503: the computer cannot store anything
CANNOT_SAVE = {  # what the phone is told, by what the database said (db.storage_trouble)
    "full": _l("The referee cannot save right now: the computer running it has a full disk. Nothing was saved; "
               "tell whoever runs the referee."),
    "readonly": _l("The referee cannot save right now: the computer running it cannot write its file. Nothing was "
                   "saved; tell whoever runs the referee."),
}
CONSOLE_WORDS = {  # and the operator's console, in one line
    "full": "the disk is full: free some space",
    "readonly": "its file cannot be written: check the permissions of the file and its folder, and the disk",
}
CONSOLE_EVERY = 60.0  # seconds: the same trouble is said again on the console at most this often

logger = logging.getLogger(__name__)

FORM_TOO_LARGE = (_l("That form is too large"), _l("That form is too large for the referee."))  # title, words


def render_error(code: int, message: str, headers: dict | None = None, title: str | None = None):
    """A small friendly page, or a fragment retargeted to #flash for htmx; ``title`` when the code's own
    title would not fit (a damaged photo is no "request that made no sense")."""
    title = title or str(FRIENDLY_TITLES.get(code) or (gettext("Something went wrong") if code >= 500
                                                       else gettext("Request refused")))
    headers = dict(headers or {})
    _bind_urls()
    if request.headers.get("HX-Request") == "true":
        body = render_template("_error.html", code=code, title=title, message=message)
        headers.update({"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"})
    else:
        body = render_template("error.html", code=code, title=title, message=message, back=_page_before())
    return body, code, headers


def _bind_urls() -> None:
    """Every page builds URLs (its links, the stylesheet), with the request's URL adapter; a request whose
    Host werkzeug could not bind (a malformed name that got past the guard, e.g. with ALLOWED_HOSTS "*") has
    none. Its error page is built with one bound to a neutral name: its links are paths, never the Host."""
    context = request_ctx._get_current_object()
    if context.url_adapter is None:
        context.url_adapter = current_app.url_map.bind("localhost", script_name=request.script_root or "/",
                                                       url_scheme=request.scheme)


def _page_before() -> str | None:
    """The page of this server the request came from (a form's page), to go back to; else None. A form
    posted to its own address (the page asking "End the match now?") goes back to that page; a page
    never links to itself."""
    referrer = request.referrer or ""
    if not referrer or len(referrer) > 2000:
        return None
    try:
        parts = urlsplit(referrer)
        if (parts.scheme not in ("http", "https") or parts.netloc != request.host
                or (referrer == request.url and request.method == "GET")):
            return None
    except (ValueError, UnicodeError):  # a Host or referrer no URL can be made of
        return None
    return referrer


def handle_http_exception(exc: HTTPException):
    if exc.code is None or exc.code < 400:
        return exc
    if isinstance(exc, InternalServerError):
        message = gettext("The referee hit an unexpected problem. Your last move was not saved unless the screen shows it.")
    elif exc.description == type(exc).description and exc.code in DEFAULT_MESSAGES:
        message = str(DEFAULT_MESSAGES[exc.code])  # werkzeug's own English words: said in the phone's language
    else:
        message = exc.description or ""
    title = None
    if exc.code == 413 and exc.description == type(exc).description and not _refused_upload():
        title, message = (str(words) for words in FORM_TOO_LARGE)
    headers = {k: v for k, v in exc.get_headers() if k.lower() in {"allow", "retry-after"}}
    return render_error(exc.code, message, headers, title=title)


def _refused_upload() -> bool:
    """Whether a 413 refused a file upload: a multipart body past the upload limit (or of a length not
    said). A form is no upload, nor is a multipart form refused for a text field past its limit or for
    too many parts (those are refused within the upload limit)."""
    if request.mimetype != "multipart/form-data":
        return False
    limit, length = current_app.config.get("MAX_CONTENT_LENGTH"), request.content_length
    return length is None or limit is None or length > limit


_said: dict[str, float] = {}  # trouble -> when the console was last told


def handle_storage_error(exc: sqlite3.OperationalError):
    """The database could not be written (a full disk, a read-only file or folder, a failing disk): the
    phone gets 503 with plain words (nothing was saved, tell whoever runs the referee), the console one
    line now and then, never a traceback per request. Any other SQLite error is left to Flask: the
    usual 500 (logged with its traceback)."""
    trouble = storage_trouble(exc)
    if trouble is None:
        raise exc
    now = time.monotonic()
    if now - _said.get(trouble, -CONSOLE_EVERY) >= CONSOLE_EVERY:
        _said[trouble] = now
        logger.error("Cannot save to %s: %s (%s). Phones are told that nothing was saved.",
                     current_app.config.get("DATABASE"), CONSOLE_WORDS[trouble], exc)
    return render_error(503, str(CANNOT_SAVE[trouble]), {"Retry-After": "60"}, title=str(CANNOT_SAVE_TITLE))


def handle_unknown_match(exc: UnknownMatch):
    return render_error(404, gettext("There is no table with that id. Check the link or code."))


def handle_stale_version(exc: StaleVersion):
    """Fallback only: game views should answer 409 with the fresh screen."""
    return render_error(409, gettext("Someone else moved first. Reload to see the table as it is now."))


# --- Seats ----------------------------------------------------------------------

REMEMBERED_TABLES = 50  # seats a phone's cookie keeps, its last tables: a browser drops a cookie over 4 KB


def bind_seat(match_id: str, seat: int | None) -> None:
    """Remember in the signed session which seat this phone plays at `match_id`
    (None makes it a spectator)."""
    seats = dict(session.get("seats", {}))
    # which tables were sat at last, oldest first (the cookie's JSON sorts a dict's keys): they are kept
    order = [m for m in session.get("seat_order", list(seats)) if m in seats and m != match_id]
    if seat is None:
        seats.pop(match_id, None)
    else:
        seats[match_id] = int(seat)
        order.append(match_id)
    order = order[-REMEMBERED_TABLES:]
    session["seat_order"] = order
    session["seats"] = {m: seats[m] for m in order}
    session.permanent = True


def seat_for(match_id: str) -> int | None:
    """This phone's seat at `match_id`, or None for a spectator."""
    seat = session.get("seats", {}).get(match_id)
    return seat if isinstance(seat, int) else None


def require_seat(match_id: str) -> int:
    """The caller's seat, or 403: spectators are read-only."""
    seat = seat_for(match_id)
    if seat is None:
        abort(403, description=gettext("You are watching this table. Take a seat to play."))
    return seat


def device_id() -> str:
    """A random id for this phone, kept in its session (recorded with entries)."""
    device = session.get("device")
    if not isinstance(device, str):
        device = secrets.token_hex(8)
        session["device"] = device
        session.permanent = True
    return device


def init_app(app: Flask) -> None:
    app.session_interface = HttpsOnlySecureSessionInterface()
    app.before_request(check_host)
    app.before_request(protect_unsafe_requests)
    app.after_request(add_security_headers)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(UnknownMatch, handle_unknown_match)
    app.register_error_handler(StaleVersion, handle_stale_version)
    app.register_error_handler(sqlite3.OperationalError, handle_storage_error)
