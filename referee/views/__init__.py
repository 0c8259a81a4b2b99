"""HTTP views, one blueprint per area.  Game screens will join these later."""

from __future__ import annotations

from flask import Flask

from . import home, match


def register_blueprints(app: Flask) -> None:
    app.register_blueprint(home.bp)
    app.register_blueprint(match.bp)
