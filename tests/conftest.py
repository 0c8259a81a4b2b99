"""Shared fixtures: a Flask app on a tmp file database, a tiny pure "tally"
game standing in for the real engines, and a live waitress server."""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

import pytest
from hypothesis import settings
from waitress import create_server, wasyncore

from referee import create_app
from referee.db import connect
from referee.store import fold

settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ORIGIN = "http://localhost"  # the Flask test client's own origin
SAME_ORIGIN = {"Origin": ORIGIN}


class Refused(Exception):
    """The tally's stand-in for the engine's Ruling."""


def tally_apply(total: int, entry: dict) -> int:
    """A pure rules function: add `n`, but the total may never go negative."""
    new_total = total + int(entry["n"])
    if new_total < 0:
        raise Refused(f"total would be {new_total}")
    return new_total


tally_replay = fold(lambda match: 0, tally_apply)


@dataclass(frozen=True)
class Tally:
    apply: object = staticmethod(tally_apply)
    replay: object = staticmethod(tally_replay)
    Refused: type = Refused


@pytest.fixture
def tally() -> Tally:
    return Tally()


@pytest.fixture
def app_config(tmp_path) -> dict:
    return {
        "TESTING": True,
        "DATABASE": str(tmp_path / "referee.sqlite"),
        "SECRET_KEY": "test-secret",
        "SSE_KEEPALIVE": 0.2,
        "SSE_MAX_LIFETIME": 3.0,
    }


@pytest.fixture
def app(app_config, tmp_path):
    return create_app(app_config, instance_path=str(tmp_path / "instance"))


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def database(app):
    db = connect(app.config["DATABASE"])
    yield db
    db.close()


@dataclass
class LiveServer:
    url: str
    port: int
    app: object


@pytest.fixture
def live_server(app):
    """The app served by real waitress on 127.0.0.1 (free port) in a thread."""
    server = create_server(app, host="127.0.0.1", port=0, threads=8, ident="referee-test")
    thread = threading.Thread(target=server.run, name="waitress-test", daemon=True)
    thread.start()
    port = server.effective_port
    yield LiveServer(url=f"http://127.0.0.1:{port}", port=port, app=app)
    server.task_dispatcher.shutdown(timeout=10)  # let open streams notice and end
    wasyncore.close_all(server._map)  # the listening socket, trigger and channels
    thread.join(timeout=5)
