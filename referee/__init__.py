"""Referee: a LAN web app that referees card games played with a real deck.

`create_app` is the Flask application factory (flaskr style).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

from .games import GAMES as ENGINES
from .headers import Request
from .jinja_env import Environment

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TEMPLATES_DIR = PROJECT_ROOT / "templates"
SECRET_KEY_FILE = "secret_key"


def load_or_create_secret_key(instance_path: str | os.PathLike) -> str:
    """Return the instance's secret key, generating it (mode 0600) on first run."""
    path = Path(instance_path) / SECRET_KEY_FILE
    try:
        key = path.read_text().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    os.chmod(path, 0o600)
    return key


def create_app(test_config: dict | None = None, instance_path: str | None = None) -> Flask:
    """Build the Flask app.

    The configuration is the defaults, then the instance folder's ``config.py`` (if any), then
    `test_config` (the options of `referee serve`, or a test's DATABASE, SECRET_KEY, ...), which
    wins. A config with ``TESTING`` true skips ``config.py``, so a developer's own instance
    config never leaks into the tests. `instance_path` overrides the instance folder (default:
    $REFEREE_INSTANCE, else <project>/instance).
    """
    instance_path = instance_path or os.environ.get("REFEREE_INSTANCE") or None
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=instance_path,
        template_folder=str(TEMPLATES_DIR),
    )
    app.jinja_environment = Environment  # each template's globals: the environment's dict (referee/jinja_env.py)
    app.request_class = Request  # headers and cookies read without werkzeug's walk of the environ (referee/headers.py)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "referee.sqlite"),
        MAX_CONTENT_LENGTH=16 * 1024 * 1024,  # room for card photos later
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_NAME="referee_session",
        SESSION_REFRESH_EACH_REQUEST=False,  # re-sign the cookie only when a seat changes
        SSE_MAX_LIFETIME=300.0,  # seconds an event stream stays open
        SSE_KEEPALIVE=15.0,  # seconds between keepalive comments
        JOIN_URL=None,  # set by `referee serve` to the LAN address
        SERVER_HOST=None,  # the address `referee serve --host` listens on (allowed as a Host)
        ALLOWED_HOSTS=[],  # more Host names to answer to, beyond this machine's own (security.py)
        GAMES={name: engine.TITLE for name, engine in ENGINES.items()},  # name -> title
    )
    if not (test_config or {}).get("TESTING"):
        app.config.from_pyfile("config.py", silent=True)
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret_key(app.instance_path)

    from . import db, i18n, live, security
    from .views import register_blueprints

    i18n.init_app(app)
    db.init_app(app)
    security.init_app(app)
    live.init_app(app)
    register_blueprints(app)
    return app
