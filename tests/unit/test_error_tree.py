"""One error tree with a code per error, and one table of HTTP statuses that knows every code.

Every module of the package is imported, so an error class added anywhere is walked too: one
whose code the table lacks would be answered 500 (``edges.status_of``), found here instead.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import floor
from floor.engine.errors import FloorError
from floor.server.edges import STATUS, status_of

#: Exceptions of the package outside the tree, and why no client ever gets one.
OUTSIDE_THE_TREE = {
    # ``floor scenario`` reports a bad scenario file on stderr and exits 2.
    "floor.scenario.ScenarioError",
    # The embedded Valkey would not start: the operator's terminal, before any request.
    "floor.redisdb.embedded.EmbeddedServerError",
    # A signing key or key list that cannot be used: ``floor keys``, ``floor verify`` and
    # ``floor export`` exit 2 with it; ``floor serve`` will not start.
    "floor.signing.SigningError",
    # ``floor verify`` given a file that is neither an export nor signed results: exit 2.
    "floor.verify.Unreadable",
    # Two features registering one command or event: ``floor.engine`` does not import.
    "floor.engine.registry.DoubleEntry",
}


def _modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(floor.__path__, "floor.")]
    # ``python -m floor`` runs the command line when imported.
    return [n for n in names if n != "floor.__main__"]


def _subclasses(cls: type[FloorError]) -> set[type[FloorError]]:
    found: set[type[FloorError]] = set()
    for sub in cls.__subclasses__():
        found |= {sub, *_subclasses(sub)}
    return found


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def test_every_error_class_has_a_code_the_status_table_knows() -> None:
    for name in _modules():
        importlib.import_module(name)
    classes: set[type[FloorError]] = {FloorError, *_subclasses(FloorError)}
    ours = [c for c in classes if c.__module__.startswith("floor.")]
    # The walk found the tree: the engine's, the store's, sign-in's and the edge's errors.
    assert {"RuleError", "StoreError", "AuthError", "BadRequest"} <= {c.__name__ for c in ours}
    unknown = {_name(c): c.code for c in ours if c.code not in STATUS}
    assert not unknown, f"error codes without an HTTP status in edges.STATUS: {unknown}"


def test_every_exception_of_the_package_is_in_the_tree() -> None:
    outside = set()
    for name in _modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            mine = cls.__module__ == name and issubclass(cls, BaseException)
            if mine and not issubclass(cls, FloorError):
                outside.add(_name(cls))
    assert outside == OUTSIDE_THE_TREE


def test_a_code_missing_from_the_table_is_a_server_error_not_a_guess() -> None:
    assert status_of("not_found") == 404
    assert status_of("unavailable") == 503
    assert status_of("no such code") == 500
