"""The layout is the architecture (issue #25, docs/architecture.md "Layers"): the imports of
`shared/` and `host/`, read with `ast` (at any depth of a module: a function's own imports
and the type-only ones count too), form no circle, and none runs up the layers.

    shared  <  host.core  <  host.rulesets, host.board, host.dice  <  host.screens  <  host.web
            <  host.commands  <  host.cli  <  host.lab

A ruleset's own bench figures (`host/rulesets/<id>/bench_turn.py`, named by the ruleset's
`bench_module` and imported only by `turnlight bench`) are lab code in the ruleset's folder: they
count in the lab's layer. A package may import its own modules and those of the layers below it, not
those of a package beside it in its layer. A ruleset imports no other ruleset, and the generic host
imports no ruleset (only the lab, which measures them, may). Nothing in `shared/` or `firmware/`
imports `host`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

LAYERS = (
    ("shared",),
    ("host", "host.core"),  # `host` itself: its __init__ loads two shared modules
    ("host.rulesets", "host.board", "host.dice"),
    ("host.screens",),
    ("host.web",),
    ("host.commands",),
    ("host.cli",),
    ("host.lab",),
)


def modules(under: str) -> dict[str, Path]:
    """Every module below ROOT/under, by dotted name (a package by its own name)."""
    found = {}
    for path in sorted((ROOT / under).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "stubs" in parts:  # host/board/vm/stubs: CircuitPython's module stubs
            continue
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


ALL = {**modules("shared"), **modules("host"), **modules("firmware")}


def _known(name: str) -> str | None:
    """The module `name` is, or is in (`pkg.mod.attr` -> `pkg.mod`); None: not ours."""
    while name:
        if name in ALL:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(module: str) -> Iterator[tuple[str, int]]:
    """(the module imported, the line) for every import of ours in `module`."""
    path = ALL[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            names = [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            target = _known(name)
            if target is not None and target != module:
                yield target, node.lineno


def graph() -> dict[str, set[str]]:
    return {m: {t for t, _ in imports(m)} for m in ALL}


def is_bench(module: str) -> bool:
    """A ruleset's bench figures: lab code kept in the ruleset's folder."""
    parts = module.split(".")
    return parts[:2] == ["host", "rulesets"] and len(parts) == 4 and parts[3] == "bench_turn"


def layer(module: str) -> int:
    if is_bench(module):
        return len(LAYERS) - 1
    best, found = -1, -1
    for rank, roots in enumerate(LAYERS):
        for root in roots:
            if (module == root or module.startswith(root + ".")) and len(root) > best:
                best, found = len(root), rank
    return found


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_in_host_or_shared() -> None:
    edges = {m: t for m, t in graph().items() if not m.startswith("firmware")}
    assert circles(edges) == []


def test_the_circle_check_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _package(module: str) -> str:
    """The package of LAYERS `module` is in (the longest root that holds it)."""
    if is_bench(module):
        return "host.lab"
    roots = [r for rs in LAYERS for r in rs if module == r or module.startswith(r + ".")]
    return max(roots, key=len)


def _up(module: str, target: str) -> bool:
    """Whether `module` importing `target` runs up the layers, or across to a package
    beside its own."""
    if module.startswith("firmware") or target.startswith("firmware"):
        return False
    if layer(target) != layer(module):
        return layer(target) > layer(module)
    return _package(target) != _package(module)


def test_no_import_runs_up_the_layers() -> None:
    wrong = [
        f"{ALL[m].relative_to(ROOT)}:{line}: {m} imports {t}"
        for m in ALL
        for t, line in imports(m)
        if _up(m, t)
    ]
    assert wrong == []


def test_every_module_of_host_and_shared_has_a_layer() -> None:
    assert [m for m in ALL if not m.startswith("firmware") and layer(m) < 0] == []


def test_a_ruleset_imports_no_other_ruleset() -> None:
    wrong = []
    for m in ALL:
        if m.startswith("host.rulesets."):
            own = m.split(".")[2]
            for t, line in imports(m):
                if t.startswith("host.rulesets.") and t.split(".")[2] != own:
                    wrong.append(f"{ALL[m].relative_to(ROOT)}:{line}: {m} imports {t}")
    assert wrong == []


@pytest.mark.parametrize("under", ["shared", "firmware"])
def test_board_code_imports_nothing_of_the_host(under: str) -> None:
    wrong = [
        f"{ALL[m].relative_to(ROOT)}:{line}: {t}"
        for m in ALL
        if m.startswith(under)
        for t, line in imports(m)
        if t.startswith("host")
    ]
    assert wrong == []


def test_the_generic_host_imports_no_ruleset() -> None:
    wrong = [
        f"{ALL[m].relative_to(ROOT)}:{line}: {m} imports {t}"
        for m in ALL
        if m.startswith("host")
        and not m.startswith(("host.rulesets", "host.lab"))
        and not is_bench(m)
        for t, line in imports(m)
        if t.startswith("host.rulesets")
    ]
    assert wrong == []


def test_the_interface_imports_nothing_that_implements_it() -> None:
    of_the_host = {t for t, _ in imports("host.core.interface") if t.startswith("host")}
    leaves = {"host.core.commandline", "host.core.errors", "host.core.state_check"}
    assert of_the_host <= leaves | {"host.core.timeline"}
    users = {m for m in ALL if "host.core.interface" in {t for t, _ in imports(m)}}
    assert not of_the_host & users, of_the_host & users


def test_a_ruleset_s_bench_is_named_not_imported() -> None:
    """Only the lab imports a ruleset's bench module (the ruleset names it by string)."""
    wrong = [
        f"{ALL[m].relative_to(ROOT)}:{line}: {m} imports {t}"
        for m in ALL
        for t, line in imports(m)
        if is_bench(t) and layer(m) != len(LAYERS) - 1
    ]
    assert wrong == []


def test_the_layer_check_sees_an_import_that_runs_up() -> None:
    assert _up("host.core.session", "host.rulesets.korxsol.engine")
    assert _up("host.rulesets.korxsol.engine", "host.board.tether")
    assert not _up("host.board.tether", "host.core.session")
    assert _up("shared.state", "host.core.session")
    assert _up("host.rulesets.stones.engine", "host.rulesets.stones.bench_turn")
    assert not _up("host.rulesets.stones.bench_turn", "host.lab.bench_session")
