"""The app's Jinja environment: Flask's, with three per-render costs of Jinja's cut.

* **Globals.** Jinja gives every template a ChainMap over the environment's globals, and every render
  (each `include` and each part of a screen drawn separately) copied that map key by key through the
  ChainMap: 5% of a screen process's time under the load benchmark. A template loaded without globals
  of its own now shares the environment's dict, which a plain dict copy reads at C speed. Jinja's own
  rule stays: globals are set before templates are loaded (`create_app` and `server.speed_up` do),
  never after.
* **Derived contexts.** A callable that takes the context (``_()``, ``entry_form``), called inside a
  loop, gets a context derived for the loop's variables: Jinja copied the variables twice and built
  an evaluation context only to replace it. Now one copy, and the parent's evaluation context.
* **The set of the globals' names**, built for every context, is read only by an ``import`` of a
  template whose globals differ (`Template._get_default_module`): now built when read.
* **Calls.** Each call a template makes (``_()``, ``table_url``, ``fragment``) went through Jinja's
  check of whether the callable is an object whose ``__call__`` takes the context, which builds a
  method wrapper per call; a function, a method or a builtin cannot be one, so those skip it.
* **Calls that read only the render's own variables** (`page_context`: the words of ``_()``, a
  card's ``face``), called in a loop, get the render's context as it is: Jinja derived one per call
  for the loop's variables, copying every variable of the page each time.
* **Output.** Each ``{{ … }}`` is escaped, and two in three of a screen's are already markup (a kept
  part, a word of ``_()``), which markupsafe copies into a new Markup: now given back as it is.
"""

from __future__ import annotations

from collections import ChainMap
from types import BuiltinFunctionType, FunctionType, MethodType
from typing import Any, MutableMapping

from flask.templating import Environment as FlaskEnvironment
from jinja2 import Template as JinjaTemplate, pass_context
from jinja2.runtime import Context as JinjaContext, missing
from jinja2.utils import _PassArg, internalcode
from markupsafe import Markup, escape

_PLAIN_CALLABLES = frozenset((FunctionType, MethodType, BuiltinFunctionType))  # their __call__ takes nothing


class Context(JinjaContext):
    def __init__(self, environment, parent, name, blocks, globals=None):
        super().__init__(environment, parent, name, blocks, None)
        self._globals = globals

    @property  # type: ignore[override]
    def globals_keys(self) -> set:
        return set() if self._globals is None else set(self._globals)

    @globals_keys.setter
    def globals_keys(self, value) -> None:  # Jinja's __init__ sets it; the property answers instead
        pass

    @internalcode
    def call(__self, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature (a variable may be "self")
        """Jinja's ``Context.call``, without its look at ``__call__`` for the callables that cannot use it."""
        if type(__obj) not in _PLAIN_CALLABLES:
            return JinjaContext.call(__self, __obj, *args, **kwargs)
        pass_arg = getattr(__obj, "jinja_pass_arg", None)
        if pass_arg is _PassArg.context:
            if not getattr(__obj, "page_context_only", False):  # (see `page_context`)
                if kwargs.get("_loop_vars"):
                    __self = __self.derived(kwargs["_loop_vars"])
                if kwargs.get("_block_vars"):
                    __self = __self.derived(kwargs["_block_vars"])
            args = (__self, *args)
        elif pass_arg is _PassArg.eval_context:
            args = (__self.eval_ctx, *args)
        elif pass_arg is _PassArg.environment:
            args = (__self.environment, *args)
        if kwargs:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
        try:
            return __obj(*args, **kwargs)
        except StopIteration:
            return __self.environment.undefined("value was undefined because a callable raised a"
                                                " StopIteration exception")

    def derived(self, locals=None):
        """What Jinja's ``derived`` makes (the same variables, ``locals`` over them, the same blocks and
        evaluation context), built with one copy of the variables."""
        parent = dict(self.parent, **self.vars) if self.vars else dict(self.parent)
        if locals:
            for key, value in locals.items():
                if value is not missing:
                    parent[key] = value
        context = JinjaContext.__new__(type(self))
        context.parent, context.vars, context.environment = parent, {}, self.environment
        context.eval_ctx, context.exported_vars, context.name = self.eval_ctx, set(), self.name
        context._globals = None
        context.blocks = {k: list(v) for k, v in self.blocks.items()}
        return context


def page_context(function):
    """Mark a callable that takes the context (``pass_context``) and reads only what the render was
    given (never a variable a loop or a block sets): inside a loop it is called with the render's own
    context, not one derived for the loop."""
    function = pass_context(function)
    function.page_context_only = True
    return function


def _escape(value: Any) -> Markup:
    """What a template outputs: markupsafe's ``escape``, but markup comes back as it is (not copied)."""
    return value if type(value) is Markup else escape(value)


class Template(JinjaTemplate):
    """A compiled template whose output goes through `_escape`."""

    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        template.root_render_func.__globals__["escape"] = _escape  # the compiled module's own name
        return template


class Environment(FlaskEnvironment):
    context_class = Context
    template_class = Template

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return ChainMap(d, self.globals) if d else self.globals
