"""The app's Jinja environment: templates share the environment's globals dict, and its contexts draw
as Jinja's own (referee/jinja_env.py)."""

from __future__ import annotations

import pytest

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


_TEMPLATES = {
    "base.txt": "{% block body %}base{% endblock %}|{% for i in [1, 2] %}{{ ctx_fn(i) }}{% endfor %}",
    "child.txt": ("{% extends 'base.txt' %}{% block body %}{% set outer = 'o' %}"
                  "{% for n in names if n != 'skip' %}{% set seen = n ~ '!' %}{{ ctx_fn(n) }}-{{ outer }}-"
                  "{{ loop.index }};{% endfor %}{{ super() }}{% endblock %}"),
    "macros.txt": "{% set SHARED = 'shared' %}{% macro hello(n) %}hi {{ n }} {{ ctx_fn(n) }}{% endmacro %}",
    "importer.txt": ("{% from 'macros.txt' import hello, SHARED %}{% for n in names %}{{ hello(n) }} {{ SHARED }};"
                     "{% endfor %}"),
    "with_context.txt": "{% from 'macros.txt' import hello with context %}{{ hello('w') }}",
}


def _render_both(name: str, **values) -> tuple[str, str]:
    """The same template rendered by the app's environment and by Jinja's own."""
    import jinja2

    @jinja2.pass_context
    def ctx_fn(context, value):  # what a loop's derived context holds
        return f"{value}:{context.get('seen', '')}:{context.get('outer', '')}:{context.get('names', '')!s}"

    out = []
    for env in (jinja2.Environment(loader=jinja2.DictLoader(_TEMPLATES)),
                _plain_app_environment(jinja2.DictLoader(_TEMPLATES))):
        env.globals["ctx_fn"] = ctx_fn
        out.append(env.get_template(name).render(**values))
    return out[0], out[1]


def _plain_app_environment(loader):
    """The app's Environment class, without Flask's app (only its Jinja behaviour is compared)."""
    import jinja2

    from referee.jinja_env import Context

    class Env(jinja2.Environment):
        context_class = Context

        def make_globals(self, d):
            from collections import ChainMap
            return ChainMap(d, self.globals) if d else self.globals

    return Env(loader=loader)



@pytest.mark.parametrize("name", sorted(_TEMPLATES))
def test_templates_render_as_with_jinjas_own_context(name):
    jinja, ours = _render_both(name, names=["Ana", "skip", "Ben"])
    assert ours == jinja
    assert ours or name == "macros.txt"  # every template but the macros' draws something


def test_a_loop_calls_a_context_callable_with_the_loops_variables():
    _, ours = _render_both("child.txt", names=["Ana", "Ben"])
    # what the loop set is seen by the callable (Jinja derives a context for it), the render's variables too
    assert ours.startswith("Ana:Ana!::['Ana', 'Ben']-o-1;Ben:Ben!::['Ana', 'Ben']-o-2;base|1:")


def test_the_apps_screens_use_the_lean_context(app):
    from referee.jinja_env import Context

    assert app.jinja_env.context_class is Context
    template = app.jinja_env.from_string("{% for i in [1] %}{{ _('Match') }}{% endfor %}")
    with app.test_request_context():
        assert template.render() == "Match"
