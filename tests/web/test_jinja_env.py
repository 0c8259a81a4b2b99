"""The app's Jinja environment: templates share the environment's globals dict, and its contexts draw
as Jinja's own (referee/jinja_env.py)."""

from __future__ import annotations

import jinja2
import pytest
from markupsafe import Markup

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

    from referee.jinja_env import Context, Template

    class Env(jinja2.Environment):
        context_class = Context
        template_class = Template

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


class _CallableObject:
    @jinja2.pass_context
    def __call__(self, context, value):  # Jinja hands the context to an object's own __call__
        return f"obj {value} {context.get('word')}"


class _Html:
    def __html__(self):
        return "<i>own</i>"


def _stop():
    raise StopIteration


_CALLS = ("{{ env_fn() }}|{{ eval_fn() }}|{{ ctx_fn() }}|{{ obj(1) }}|{{ 'a.b'.split('.')|join('+') }}|"
          "{{ word.upper() }}|{{ plain(2) }}|{{ len([1, 2]) }}|{{ stop() }}|"
          "{% for w in [word] %}{% set inner = w ~ '!' %}{{ ctx_fn() }}{% endfor %}|"
          "{{ '<b>&' }}|{{ marked }}|{{ 3 }}|{{ 2.5 }}|{{ html }}|{{ none }}|{{ marked ~ '<' }}|"
          "{% macro m(x) %}<{{ x }}>{% endmacro %}{{ m('<') }}|{% set block %}<{{ '<' }}>{% endset %}{{ block }}")


def _call_values() -> dict:
    return {
        "env_fn": jinja2.pass_environment(lambda env: f"env {env.autoescape}"),
        "eval_fn": jinja2.pass_eval_context(lambda eval_ctx: f"eval {eval_ctx.autoescape}"),
        "ctx_fn": jinja2.pass_context(lambda context: f"ctx {context.get('word')} {context.get('inner')}"),
        "obj": _CallableObject(), "plain": lambda n: n * 2, "len": len, "stop": _stop,
        "word": "w<", "marked": Markup("<em>kept</em>"), "html": _Html(),
    }


@pytest.mark.parametrize("autoescape", [True, False])
def test_every_kind_of_call_and_output_draws_as_with_jinjas_own(autoescape):
    """Functions, methods, builtins, objects whose __call__ takes the context, a callable that raises
    StopIteration; markup, text, numbers, objects with __html__: as Jinja's own environment draws them."""
    out, values = [], _call_values()
    for env in (jinja2.Environment(autoescape=autoescape), _plain_app_environment(None)):
        env.autoescape = autoescape
        out.append(env.from_string(_CALLS).render(**values))
    assert out[1] == out[0]
    if autoescape:
        assert out[1].endswith("&lt;b&gt;&amp;|<em>kept</em>|3|2.5|<i>own</i>|None|<em>kept</em>&lt;|<&lt;>|<&lt;>")
    else:
        assert out[1].endswith("|None|<em>kept</em><|<<>|<<>") and "<b>&|<em>kept</em>|3|2.5|" in out[1]
    assert out[1].startswith(f"env {autoescape}|eval {autoescape}|ctx w")


def test_markup_is_output_as_it_is_and_everything_else_escaped():
    from referee.jinja_env import _escape

    marked = Markup("<b>")
    assert _escape(marked) is marked
    assert _escape("<b>") == "&lt;b&gt;" and type(_escape("<b>")) is Markup
    assert _escape(7) == "7" and _escape(_Html()) == "<i>own</i>"


def test_the_apps_templates_output_through_the_markup_keeping_escape(app):
    from referee.jinja_env import _escape

    template = app.jinja_env.get_template("table/_screen.html")
    assert template.root_render_func.__globals__["escape"] is _escape


def test_a_page_context_callable_in_a_loop_gets_the_renders_own_context():
    from referee.jinja_env import page_context

    seen = []

    @page_context
    def page_fn(context):
        seen.append(context)
        return context.get("word")

    @jinja2.pass_context
    def loop_fn(context):
        return context.get("inner")

    env = _plain_app_environment(None)
    template = env.from_string("{% for w in [1, 2] %}{% set inner = w %}{{ page_fn() }}{{ loop_fn() }};{% endfor %}")
    assert template.render(page_fn=page_fn, loop_fn=loop_fn, word="p") == "p1;p2;"
    assert len(seen) == 2 and seen[0] is seen[1]  # no context derived per call
    assert "inner" not in seen[0].get_all()


def test_the_apps_words_and_card_faces_read_only_the_page(app):
    for name in ("_", "gettext", "ngettext", "face"):
        function = app.jinja_env.globals[name]
        assert function.page_context_only and function.jinja_pass_arg is jinja2.utils._PassArg.context
