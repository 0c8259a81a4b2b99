"""Shared fixtures: a Flask app on a tmp file database, a tiny pure "tally"
game standing in for the real engines, and a live server (the one `referee serve` runs)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest
from hypothesis import settings

from referee import create_app
from referee.db import connect
from referee.server import Background
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
    """The app served on 127.0.0.1 (a free port), in a thread, by the same server as
    `referee serve` (uvicorn: live streams on its event loop, Flask in worker threads)."""
    background = Background(app, "127.0.0.1", threads=8)
    yield LiveServer(url=f"http://127.0.0.1:{background.port}", port=background.port, app=app)
    background.stop()  # open streams are ended, then the server stops
