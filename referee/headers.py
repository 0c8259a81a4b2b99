"""Headers read and written on most requests, without werkzeug's general parsing: the request's
headers and cookies (`Request`), and the answer's ``Vary`` (`vary_on`)."""

from __future__ import annotations

from flask import Request as FlaskRequest
from werkzeug.datastructures import EnvironHeaders, ImmutableMultiDict
from werkzeug.http import parse_cookie
from werkzeug.utils import cached_property
from werkzeug.wrappers import Response

_BODY_HEADERS = frozenset(("CONTENT_TYPE", "CONTENT_LENGTH"))  # the two a WSGI server names without HTTP_


class _Headers(EnvironHeaders):
    """The request's headers; ``get`` reads the environ's key (werkzeug raised and caught a KeyError for
    each header a request does not carry: about nine per screen)."""

    def get(self, key, default=None, type=None):  # noqa: A002 - werkzeug's own signature
        if type is not None or not isinstance(key, str):
            return super().get(key, default, type)
        name = key.upper().replace("-", "_")
        value = self.environ.get(name if name in _BODY_HEADERS else "HTTP_" + name)
        return default if value is None else value


_cookies: dict[str, ImmutableMultiDict] = {}  # Cookie header -> its parsed cookies (read-only)
_COOKIE_KEPT_BELOW = 4096  # bytes: at most 4,096 headers of at most this size are kept (16 MB)


class Request(FlaskRequest):
    """Flask's request, reading its headers and cookies more cheaply (see `_Headers`). A phone sends the
    same Cookie header on every request, so it is parsed once (werkzeug gathered it by walking every
    header of the environ, then parsed it)."""

    @cached_property
    def headers(self) -> EnvironHeaders:
        return _Headers(self.environ)

    @cached_property
    def cookies(self) -> ImmutableMultiDict:
        header = self.environ.get("HTTP_COOKIE", "")
        found = _cookies.get(header)
        if found is None:
            found = parse_cookie(_readable_cookies(header), cls=self.dict_storage_class)
            if len(header) <= _COOKIE_KEPT_BELOW:  # a phone's is a few hundred bytes: a huge one is not kept
                if len(_cookies) >= 4096:
                    _cookies.clear()
                _cookies[header] = found
        return found


def _readable_cookies(header: str) -> str:
    """The Cookie header without the cookies that are not UTF-8 (werkzeug raised on them, and every page
    answered 500 to a phone holding one: another service at the same address may have set it)."""
    try:
        header.encode("latin-1").decode("utf-8")
        return header
    except UnicodeError:
        pass
    kept = []
    for part in header.split(";"):
        try:
            part.encode("latin-1").decode("utf-8")
        except UnicodeError:
            continue
        kept.append(part)
    return ";".join(kept)


def vary_on(response: Response, *names: str) -> None:
    """Add ``names`` to the answer's ``Vary`` header, each once (what ``response.vary.add`` does; that
    parses the header into a set and writes it back on every call, and most answers carry one)."""
    vary = response.headers.get("Vary")
    if vary is None:
        response.headers["Vary"] = ", ".join(dict.fromkeys(names))
        return
    named = {name.strip().lower() for name in vary.split(",")}
    missing = [name for name in dict.fromkeys(names) if name.lower() not in named]
    if missing:
        response.headers["Vary"] = ", ".join([vary, *missing]) if vary.strip() else ", ".join(missing)
