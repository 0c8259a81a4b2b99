"""Response headers set on most answers, without werkzeug's parse-and-rebuild of each one."""

from __future__ import annotations

from werkzeug.wrappers import Response


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
