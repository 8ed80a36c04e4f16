"""Sudoku: the rules, the checker and the two exact solvers.

Rules: fill every cell of the N×N grid (N = 4, 6, 9, 16; boxes 2×2, 2×3 — two rows of three —, 3×3,
4×4) with a digit 1..N so that each row, each column and each box holds every digit once; the givens
stay as they are.

Solvers: ``search`` (the default), the bitset search of ``solvers.sudoku.engine`` compiled with numba,
and ``cadical`` / ``z3``, the one-hot SAT model below on the shared SAT layer. The search proves a
published 9×9 unique in well under a millisecond where CaDiCaL takes several (``python -m
bench.bench_sudoku --solve``), and counts 100,000 solutions of an empty grid within the budget; the
SAT model is the independent method the tests compare it with.
"""

from __future__ import annotations

from collections import Counter
from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, model_validator

from solvers.common import Cell, Deadline, InvalidInput, SolveOutcome, Violation, at, grid_shape_violations, violation
from solvers.sat import SatBackend, count_models, make_backend
from solvers.sudoku import engine

BACKENDS = ("search", "cadical", "z3")  # the first is the default
DEFAULT_BACKEND = BACKENDS[0]
SIZES = tuple(engine.BOXES)


def _known_size(n: int) -> int:
    if n not in SIZES:
        raise ValueError(f"size must be 4, 6, 9 or 16 (boxes 2×2, 2×3, 3×3, 4×4), got {n}")
    return n


# An int checked against the sizes (a Literal would refuse the query string's "16"); the schema lists them.
Size = Annotated[int, AfterValidator(_known_size), Field(json_schema_extra={"enum": list(SIZES)})]
Grid = list[list[int]]
# Digits as a player types them on a 16×16 (1-9, then A-G for 10-16) is a play-page matter; the API
# always speaks numbers.


class SudokuPuzzle(BaseModel):
    size: Size = Field(description="N: the grid is N×N with boxes 2×2 (4), 2 rows × 3 columns (6), 3×3 (9), "
                                   "4×4 (16).")
    givens: Grid = Field(description="N×N digits 1..N; 0 for an empty cell.")

    @model_validator(mode="after")
    def _givens_fit(self) -> SudokuPuzzle:
        problems = grid_shape_violations(self.givens, self.size, self.size, "givens", range(0, self.size + 1))
        if problems:
            raise ValueError("; ".join(p.message for p in problems))
        return self


class SudokuAnswer(BaseModel):
    digits: Grid = Field(description="N×N digits 1..N (the givens included); 0 for a cell left empty.")


def box_rows_cols(n: int) -> tuple[int, int]:
    return engine.BOXES[n]


def units(n: int) -> list[tuple[str, list[Cell]]]:
    """Every row, column and box with the name a player reads (`row 3`, `box 2 (rows 1–3, columns 4–6)`)."""
    g = engine.geometry(n)
    named: list[tuple[str, list[Cell]]] = []
    for k, unit in enumerate(g.units.tolist()):
        cells = [divmod(i, n) for i in unit]
        kind, index = ("row", "column", "box")[k // n], k % n + 1
        if kind == "box":
            (r0, c0), (r1, c1) = cells[0], cells[-1]
            named.append((f"box {index} (rows {r0 + 1}–{r1 + 1}, columns {c0 + 1}–{c1 + 1})", cells))
        else:
            named.append((f"{kind} {index}", cells))
    return named


def check(puzzle: SudokuPuzzle, answer: SudokuAnswer) -> list[Violation]:
    """Every broken rule with its cells; raises InvalidInput if the answer has the wrong shape."""
    n, givens, digits = puzzle.size, puzzle.givens, answer.digits
    shape = grid_shape_violations(digits, n, n, "digits", range(0, n + 1))
    if shape:
        raise InvalidInput("; ".join(v.message for v in shape), shape)
    found: list[Violation] = []
    for r in range(n):
        for c in range(n):
            if givens[r][c] and digits[r][c] != givens[r][c]:
                shown = digits[r][c] or "empty"
                found.append(violation("given-changed", f"{at((r, c))} is given as {givens[r][c]}, the answer has "
                                                        f"{shown}", [(r, c)]))
    empty = [(r, c) for r in range(n) for c in range(n) if not digits[r][c]]
    if empty:
        found.append(violation("cell-empty", f"{len(empty)} cell(s) have no digit yet (first: {at(empty[0])})",
                               empty))
    for name, cells in units(n):
        seen = Counter(digits[r][c] for r, c in cells if digits[r][c])
        for digit, times in sorted(seen.items()):
            if times > 1:
                kind = name.split()[0]
                where = [(r, c) for r, c in cells if digits[r][c] == digit]
                found.append(violation(f"duplicate-in-{kind}", f"{digit} appears {times} times in {name}", where))
    return found


# --- the SAT model: the independent method -----------------------------------------------------------


class SudokuModel:
    """One variable per (cell, digit); each cell one digit, each unit each digit once, givens fixed."""

    def __init__(self, backend: SatBackend, puzzle: SudokuPuzzle):
        n = self.n = puzzle.size
        self.backend = backend
        self.var = [[[backend.new_var() for _ in range(n)] for _ in range(n)] for _ in range(n)]
        self.cells = [v for row in self.var for cell in row for v in cell]
        groups = [cell for row in self.var for cell in row]  # per cell: its digits
        for _, unit in units(n):
            for d in range(n):
                groups.append([self.var[r][c][d] for r, c in unit])  # per unit and digit: its cells
        for group in groups:
            backend.add_clause(group)
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    backend.add_clause([-a, -b])
        for r, row in enumerate(puzzle.givens):
            for c, digit in enumerate(row):
                if digit:
                    backend.add_clause([self.var[r][c][digit - 1]])

    def grid(self, model: set[int]) -> Grid:
        return [[next(d + 1 for d, v in enumerate(cell) if v in model) for cell in row] for row in self.var]


def flat(grid: Grid) -> list[int]:
    return [v for row in grid for v in row]


def square(values: list[int], n: int) -> Grid:
    return [values[r * n:(r + 1) * n] for r in range(n)]


def solve(puzzle: SudokuPuzzle, limit: int, deadline: Deadline, backend: str | None = None,
          keep: int | None = None) -> SolveOutcome:
    """Counts up to ``max(limit, 2)`` solutions, so the outcome always tells unique from multiple."""
    limit = max(limit, 2)
    keep = limit if keep is None else min(keep, limit)
    backend = backend or DEFAULT_BACKEND
    n = puzzle.size
    if backend == "search":
        search = engine.count(n, flat(puzzle.givens), limit, deadline, keep)
        grids = [square(found, n) for found in search.found()]
        return SolveOutcome([{"digits": g} for g in grids], search.complete, count=search.count)
    with make_backend(backend) as sat:
        model = SudokuModel(sat, puzzle)
        found, count, complete = count_models(sat, model.cells, limit, deadline, keep=keep)
        return SolveOutcome([{"digits": model.grid(m)} for m in found], complete, count=count)


def other_solution(puzzle: SudokuPuzzle, solution: Grid, deadline: Deadline, backend: str | None = None) -> Grid | None:
    """A solution of ``puzzle`` other than ``solution``, or None when ``solution`` is its only one."""
    outcome = solve(puzzle, 2, deadline, backend)
    return next((s["digits"] for s in outcome.solutions if s["digits"] != solution), None)
