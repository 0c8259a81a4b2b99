"""The app's Jinja environment: Flask's, with each template's globals the environment's own dict.

Jinja gives every template a ChainMap over the environment's globals, and every render (each
`include` and each part of a screen drawn separately) copies that map key by key through the
ChainMap: about 150 globals (the app's helpers, the translations), 5% of a screen process's time
under the load benchmark. A template loaded without globals of its own now shares the environment's
dict, which a plain dict copy reads at C speed. Jinja's own rule stays: globals are set before
templates are loaded (`create_app` and `server.speed_up` do), never after.
"""

from __future__ import annotations

from collections import ChainMap
from typing import Any, MutableMapping

from flask.templating import Environment as FlaskEnvironment


class Environment(FlaskEnvironment):
    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return ChainMap(d, self.globals) if d else self.globals
