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
"""

from __future__ import annotations

from collections import ChainMap
from typing import Any, MutableMapping

from flask.templating import Environment as FlaskEnvironment
from jinja2.runtime import Context as JinjaContext, missing


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


class Environment(FlaskEnvironment):
    context_class = Context

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return ChainMap(d, self.globals) if d else self.globals
