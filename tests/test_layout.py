"""The code's layout keeps its promises: no module imports one that imports it back (directly or round a
longer circle, imports inside functions included), and the HTTP layer knows puzzle types only through
``PuzzleType`` (it imports no type's own module)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from generators.registry import TYPES

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("app", "solvers", "generators", "pictures", "bench", "tests")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
            found[name] = path
    return found


def imported(path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The project modules ``path`` imports, wherever in the file the import stands."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                if full in known:
                    yield full
                elif node.module in known:
                    yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in known)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    known = modules()
    graph = {name: set(imported(path, known)) - {name} for name, path in known.items()}
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_http_layer_imports_no_puzzle_types_own_module() -> None:
    known = modules()
    per_type = {f"{package}.{kind.replace('-', '_')}" for kind in TYPES for package in ("solvers", "generators", "pictures")}
    per_type |= {f"solvers.techniques.{kind.replace('-', '_')}" for kind in TYPES}
    leaks = {name: sorted(set(imported(path, known)) & per_type) for name, path in known.items() if name.startswith("app")}
    assert {name: found for name, found in leaks.items() if found} == {}
