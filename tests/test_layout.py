"""The code's layout keeps its promises: no module imports one that imports it back (directly or round a
longer circle, imports inside functions included), and the HTTP layer knows puzzle types only through
``PuzzleType`` (it imports no type's own module)."""

from __future__ import annotations

import ast
import os
import re
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
    genres = {kind.replace("-", "_") for kind in TYPES}
    per_type = {name for name in known if name.split(".")[0] in ("solvers", "generators", "pictures")
                and set(name.split(".")[1:]) & genres}
    assert per_type
    leaks = {name: sorted(set(imported(path, known)) & per_type) for name, path in known.items() if name.startswith("app")}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_numba_caches_per_version_of_the_compiled_sources(tmp_path: Path) -> None:
    """A cached kernel must never run a stale copy of a compiled function from another file: any edit to
    any compiled source moves the cache to a new folder, and edits elsewhere leave it where it is."""
    from numba.core import config

    import solvers

    assert str(solvers.compiled_cache_dir()) == config.CACHE_DIR
    assert Path(config.CACHE_DIR).name == solvers.compiled_sources_digest()
    (tmp_path / "kernels").mkdir()
    engine, kernel, plain = tmp_path / "engine.py", tmp_path / "kernels" / "kernel.py", tmp_path / "plain.py"
    engine.write_text("from numba import njit\n\n@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    kernel.write_text("from numba import njit\nfrom engine import f\n")
    plain.write_text("X = 1\n")
    before = solvers.compiled_sources_digest(tmp_path)
    plain.write_text("X = 2\n")
    assert solvers.compiled_sources_digest(tmp_path) == before
    engine.write_text(engine.read_text().replace("x + 1", "x + 2"))
    changed = solvers.compiled_sources_digest(tmp_path)
    assert changed != before
    kernel.rename(tmp_path / "kernels" / "renamed.py")
    assert solvers.compiled_sources_digest(tmp_path) not in (before, changed)


def test_numba_caches_a_function_by_its_place_in_the_package_not_on_disk(tmp_path: Path) -> None:
    """The same sources in two places (a checkout and the installed wheel) share one cache: the second place
    loads what the first compiled."""
    import shutil
    import subprocess
    import sys

    probe = ("import numpy as np, solvers; from solvers.engines import bits; bits.popcount(np.uint64(7)); "
             "print(solvers.__file__, sum(bits.popcount.stats.cache_hits.values()), "
             "sum(bits.popcount.stats.cache_misses.values()))")
    seen = []
    for place in ("checkout", "installed"):
        shutil.copytree(REPO / "solvers", tmp_path / place / "solvers", ignore=shutil.ignore_patterns("__pycache__"))
        done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path / place, capture_output=True, text=True,
                              env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}, check=True)
        where, hits, misses = done.stdout.split()
        assert Path(where).is_relative_to(tmp_path / place)
        seen.append((int(hits), int(misses)))
    assert seen == [(0, 1), (1, 0)]


def test_make_compiles_before_serving_whenever_a_compiled_source_changed() -> None:
    """After a pull that changes compiled code, numba's cache starts a new folder: ``make serve`` and ``make
    test`` must fill it before the server or the tests start, not in a worker while requests wait."""
    import subprocess

    import solvers

    compiled = sorted(path.relative_to(REPO).as_posix() for path in (REPO / "solvers").rglob("*.py")
                      if b"from numba" in path.read_bytes())
    assert "solvers/ubongo/kernel.py" in compiled
    for target in ("serve", "test"):
        for changed in compiled:
            plan = subprocess.run(["make", "-n", "-W", changed, target], cwd=REPO, capture_output=True, text=True,
                                  check=True).stdout.splitlines()
            warm = next(i for i, line in enumerate(plan) if "app.warm" in line)
            starts = next(i for i, line in enumerate(plan) if "uvicorn" in line or "pytest" in line)
            assert warm < starts, (target, changed)
    assert solvers.compiled_sources_digest() == Path(solvers.compiled_cache_dir()).name


SHARED = ("solvers/kit", "solvers/grid.py", "solvers/sat.py", "solvers/common.py", "solvers/techniques/human.py",
          "solvers/formats/puzzlink/codec.py", "pictures", "generators/kit.py", "generators/pipeline.py", "app/static")


def genre_words() -> re.Pattern[str]:
    names = {variant for name in TYPES for variant in (name, name.replace("-", "_"), name.replace("-", ""))}
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, names))) + r")\b", re.IGNORECASE)


def code_text(path: Path) -> str:
    """What a file does, without what it says: Python's names and non-docstring strings; JS and CSS without
    their comments. A comment may name a genre as an example; the code may not depend on one."""
    if path.suffix == ".py":
        tree = ast.parse(path.read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        return " ".join(node.value if isinstance(node, ast.Constant) else node.id if isinstance(node, ast.Name) else node.attr
                        for node in ast.walk(tree)
                        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings)
                        or isinstance(node, (ast.Name, ast.Attribute)))
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(), flags=re.DOTALL)


def test_the_shared_layers_name_no_genre() -> None:
    words = genre_words()
    files = [p for place in SHARED for p in ((REPO / place).rglob("*") if (REPO / place).is_dir() else [REPO / place])
             if p.suffix in (".py", ".js", ".css", ".html")]
    assert len(files) > 10
    named = {str(p.relative_to(REPO)): sorted(set(words.findall(code_text(p)))) for p in files}
    assert {path: found for path, found in named.items() if found} == {}


def test_the_genre_word_check_sees_a_genre_in_code(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""Docstrings may say light-up."""\n# and comments sudoku\nMODES = ["cycle", "nonogram"]\n')
    assert genre_words().findall(code_text(sample)) == ["nonogram"]
