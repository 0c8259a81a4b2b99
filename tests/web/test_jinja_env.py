"""The app's Jinja environment: templates share the environment's globals dict (referee/jinja_env.py)."""

from __future__ import annotations

from referee.jinja_env import Environment


def test_a_template_reads_the_environments_own_globals_dict(app):
    assert isinstance(app.jinja_env, Environment)
    template = app.jinja_env.get_template("table/_screen.html")
    assert template.globals is app.jinja_env.globals


def test_template_globals_of_its_own_overlay_the_environments_and_leave_them_alone(app):
    env = app.jinja_env
    template = env.from_string("{{ word }} {{ both }}", globals={"word": "own"})
    env.globals["both"] = "shared"
    try:
        assert template.render() == "own shared"
        assert "word" not in env.globals
    finally:
        del env.globals["both"]
