"""Number Sums: the puzzle model, the rules checker and two exact solvers (the CSV format is in
``solvers.number_sums.csv_format``).

Rules: select cells so that the selected digits of every row add up to its target, likewise every
column, and (region variant) every coloured region.

Every rule is the same constraint, "the selected digits of these cells add up to this total", so
the puzzle is a list of ``SumRule``s built in one place (``sum_rules``) and used by the checker and
both solvers.

* ``search``: depth-first search with exact per-rule propagation, compiled
  (``solvers.number_sums.kernel``). For each rule the sums the undecided digits before
  and after each cell reach tell whether the cell can still be off and whether it can still be on.
  An inconsistent rule fails at once, so an inconsistent puzzle is answered ``none`` quickly
  instead of looping, and no combination list is ever built. ``portfolio`` (the default) runs it up
  to a node allowance, then hands the puzzle to z3.
* ``cadical`` / ``z3``: the SAT model (one variable per cell, one weighted equality per rule),
  kept as the independent cross-check. See ``bench/bench_number_sums.py`` for the comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, Field, model_validator

from solvers.common import (
    Cell,
    Deadline,
    InvalidInput,
    SolveOutcome,
    Violation,
    grid_shape_violations,
    violation,
)
from solvers.number_sums import kernel
from solvers.sat import count_models, make_backend

MAX_SIDE = 15
MAX_SUM = 9 * MAX_SIDE * MAX_SIDE
# bench/bench_number_sums.py: the compiled search has the best median everywhere, z3 the best tail on
# the few hard plain grids; so by default the search runs up to SEARCH_NODE_CAP nodes, then z3.
SEARCH_NODE_CAP = 5_000
BACKENDS = ("portfolio", "search", "cadical", "z3")  # the first is the default
DEFAULT_BACKEND = BACKENDS[0]

Grid = list[list[int]]


class NumberSumsPuzzle(BaseModel):
    numbers: list[list[int]] = Field(description=f"R×C digits 1..9 (R, C at most {MAX_SIDE}).")
    row_sums: list[int] = Field(description="Target sum of the selected digits of each row, top to bottom.")
    col_sums: list[int] = Field(description="Target sum of the selected digits of each column, left to right.")
    regions: list[list[int | None]] | None = Field(
        None, description="Optional R×C region ids (0..len(region_sums)-1), `null` for a cell in no region."
    )
    region_sums: list[int] | None = Field(None, description="Target sum of each region, indexed by region id.")

    @model_validator(mode="after")
    def _consistent(self) -> NumberSumsPuzzle:
        rows = len(self.numbers)
        cols = len(self.numbers[0]) if rows and isinstance(self.numbers[0], list) else 0
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise ValueError(f"`numbers` must be R×C with 1 ≤ R, C ≤ {MAX_SIDE}, got {rows}×{cols}")
        problems = [p.message for p in grid_shape_violations(self.numbers, rows, cols, "numbers", range(1, 10))]
        for name, sums, want in (("row_sums", self.row_sums, rows), ("col_sums", self.col_sums, cols)):
            if len(sums) != want:
                problems.append(f"`{name}` must have {want} values (one per {name[:3]}), got {len(sums)}")
        if (self.regions is None) != (self.region_sums is None):
            problems.append("`regions` and `region_sums` must be given together")
        if self.regions is not None and self.region_sums is not None:
            problems += _region_problems(self.regions, rows, cols, len(self.region_sums))
            sums = self.region_sums
        else:
            sums = []
        if any(not 0 <= s <= MAX_SUM for s in [*self.row_sums, *self.col_sums, *sums]):
            problems.append(f"every target sum must be between 0 and {MAX_SUM}")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.numbers), len(self.numbers[0])


def _region_problems(regions: list[list[int | None]], rows: int, cols: int, count: int) -> list[str]:
    if len(regions) != rows:
        return [f"`regions` must have {rows} rows, got {len(regions)}"]
    problems = []
    for r, row in enumerate(regions):
        if len(row) != cols:
            problems.append(f"`regions` row {r + 1} must have {cols} values, got {len(row)}")
        elif any(v is not None and not 0 <= v < count for v in row):
            problems.append(f"`regions` row {r + 1} has ids outside 0..{count - 1} (one per region sum) or null")
    return problems


class NumberSumsAnswer(BaseModel):
    selected: list[list[int]] = Field(description="R×C of 1 (selected) / 0 (not selected).")


@dataclass(frozen=True)
class SumRule:
    """The selected digits of ``cells`` must add up to ``total``; ``code``/``name`` say which rule it is."""

    code: str
    name: str
    cells: tuple[Cell, ...]
    total: int


def sum_rules(puzzle: NumberSumsPuzzle) -> list[SumRule]:
    """Every rule of the puzzle: rows, then columns, then regions (the one place the rules live)."""
    rows, cols = puzzle.shape
    rules = [SumRule("row-sum-wrong", f"Row {r + 1}", tuple((r, c) for c in range(cols)), puzzle.row_sums[r])
             for r in range(rows)]
    rules += [SumRule("col-sum-wrong", f"Column {c + 1}", tuple((r, c) for r in range(rows)), puzzle.col_sums[c])
              for c in range(cols)]
    if puzzle.regions is not None and puzzle.region_sums is not None:
        for k, total in enumerate(puzzle.region_sums):
            cells = tuple((r, c) for r in range(rows) for c in range(cols) if puzzle.regions[r][c] == k)
            rules.append(SumRule("region-sum-wrong", f"Region {k}", cells, total))
    return rules


def check(puzzle: NumberSumsPuzzle, answer: NumberSumsAnswer) -> list[Violation]:
    """Every rule whose selected digits miss the target, with all the rule's cells."""
    rows, cols = puzzle.shape
    shape = grid_shape_violations(answer.selected, rows, cols, "selected", {0, 1})
    if shape:
        raise InvalidInput("; ".join(v.message for v in shape), shape)
    found = []
    for rule in sum_rules(puzzle):
        got = sum(puzzle.numbers[r][c] for r, c in rule.cells if answer.selected[r][c])
        if got != rule.total:
            found.append(violation(
                rule.code, f"{rule.name}: the selected digits add up to {got}, the target is {rule.total}",
                list(rule.cells),
            ))
    return found


# ------------------------------------------------------------------------------ direct search

SEARCH_SLICE = 2_000  # nodes per call of the compiled search, between two deadline checks
Found = tuple[list[Grid], int, bool]  # the solutions kept, how many were counted, whether that count is exact


class NodeCapReached(Exception):
    """The search used its node allowance: a hard instance, better left to a SAT solver."""


@dataclass
class SearchStats:
    nodes: int = 0


def search_board(puzzle: NumberSumsPuzzle) -> tuple[np.ndarray, ...]:
    """The compiled search's arrays: digits per flat cell, and every rule of ``sum_rules`` as flat cells."""
    rows, cols = puzzle.shape
    rules = [([r * cols + c for r, c in rule.cells], rule.total) for rule in sum_rules(puzzle)]
    return kernel.board_arrays([d for row in puzzle.numbers for d in row], rules)


def search_solutions(
    puzzle: NumberSumsPuzzle, limit: int, deadline: Deadline, max_nodes: int | None = None, keep: int | None = None
) -> tuple[Found, SearchStats]:
    """The first ``keep`` (all when None) of up to ``limit`` solutions, how many were counted and whether
    the search was exhausted (the count is exact): the compiled depth-first search (selected tried
    first, branching in the open rule with the fewest ways), in slices between deadline checks.
    Raises NodeCapReached after ``max_nodes`` nodes, so a caller can switch methods."""
    rows, cols = puzzle.shape
    if sum(puzzle.row_sums) != sum(puzzle.col_sums):  # both count every selected digit once
        return ([], 0, True), SearchStats()
    board = search_board(puzzle)
    keep = limit if keep is None else min(keep, limit)
    state, work = kernel.search_state(board, keep), kernel.scratch(board)
    counters = state[-1]
    while True:
        deadline.check()
        slice_nodes = SEARCH_SLICE if max_nodes is None else min(SEARCH_SLICE, max_nodes - int(counters[4]))
        outcome = kernel.search(board, state, work, limit, keep, max(slice_nodes, 0))
        if outcome != kernel.SLICE_USED:
            break
        if max_nodes is not None and counters[4] >= max_nodes:
            raise NodeCapReached
    count = int(counters[3])
    grids = [[row.tolist() for row in flat.reshape(rows, cols)] for flat in state[10][:min(count, keep)]]
    return (grids, count, outcome == kernel.EXHAUSTED), SearchStats(int(counters[4]))


# ------------------------------------------------------------------------------- SAT model


def sat_solutions(puzzle: NumberSumsPuzzle, limit: int, deadline: Deadline, backend: str, keep: int | None = None) -> Found:
    """The same rules as one weighted equality each over one variable per cell."""
    rows, cols = puzzle.shape
    with make_backend(backend) as sat:
        var = [[sat.new_var() for _ in range(cols)] for _ in range(rows)]
        for rule in sum_rules(puzzle):
            sat.add_weighted_equal([var[r][c] for r, c in rule.cells],
                                   [puzzle.numbers[r][c] for r, c in rule.cells], rule.total)
        cells = [v for row in var for v in row]
        models, count, complete = count_models(sat, cells, limit, deadline, keep=keep)
        return [[[int(v in m) for v in row] for row in var] for m in models], count, complete


def find_solutions(
    puzzle: NumberSumsPuzzle, limit: int, deadline: Deadline, backend: str | None = None, keep: int | None = None
) -> Found:
    """Count up to ``limit`` solutions with ``backend`` (one of ``BACKENDS``), keeping the first ``keep``."""
    backend = backend or DEFAULT_BACKEND
    if backend == "portfolio":
        try:
            return search_solutions(puzzle, limit, deadline, SEARCH_NODE_CAP, keep)[0]
        except NodeCapReached:
            return sat_solutions(puzzle, limit, deadline, "z3", keep)
    if backend == "search":
        return search_solutions(puzzle, limit, deadline, keep=keep)[0]
    if backend not in BACKENDS:
        raise ValueError(f"unknown number-sums backend {backend!r}; known: {', '.join(BACKENDS)}")
    return sat_solutions(puzzle, limit, deadline, backend, keep)


def solve(
    puzzle: NumberSumsPuzzle, limit: int, deadline: Deadline, backend: str | None = None, keep: int | None = None
) -> SolveOutcome:
    """Counts up to ``max(limit, 2)`` solutions, so the outcome always tells unique from multiple."""
    grids, count, complete = find_solutions(puzzle, max(limit, 2), deadline, backend, keep)
    return SolveOutcome([{"selected": g} for g in grids], complete, count=count)
