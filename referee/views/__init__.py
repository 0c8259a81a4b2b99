"""HTTP views, one blueprint per area: home (create and join tables) and play (the table itself)."""

from __future__ import annotations

from flask import Flask

from . import home, nights, play, rules, scan, screen_parts


def register_blueprints(app: Flask) -> None:
    app.register_blueprint(home.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(scan.bp)
    app.register_blueprint(rules.bp)
    app.register_blueprint(nights.bp)
    screen_parts.init_app(app)  # after Flask-Babel, whose numberformat it replaces
