"""A genre's rules as counts over 0/1 cells: the checker and the SAT encoding both read them.

Most shading and placing genres say every rule as "between ``low`` and ``high`` of these cells are 1":
a number on a wall counts the lights beside it (exactly n), a lit cell sees at least one light, a row of
open cells holds at most one light, a row of a star battle exactly two stars, a 2×2 block at most one.
A rule is written once, as a ``Count``, and the checker, the solver and the techniques all read it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from solvers.common import Cell, Deadline, InvalidInput, SolveOutcome, Violation, grid_shape_violations, violation
from solvers.sat import SatBackend, block, count_models, make_backend

Grid = Sequence[Sequence[int]]


@dataclass(frozen=True)
class Count:
    """Between ``low`` and ``high`` of ``cells`` are 1. ``code`` is the stable rule code a broken rule
    reports; ``says`` is the rule as a person reads it ("the 2 at r1c2 counts the lights beside it")."""

    cells: tuple[Cell, ...]
    low: int
    high: int
    code: str
    says: str
    where: tuple[Cell, ...] | None = None  # the cells a broken rule points at, when not all of ``cells``
    clue: Hashable | None = None  # the clue this rule reads, where the generator may show or hide it
    given: bool = False  # the puzzle shows its cells' value (a wall holds no light): decided before any deduction

    def ones(self, grid: Grid) -> int:
        return sum(grid[r][c] for r, c in self.cells)

    def broken_by(self, grid: Grid) -> bool:
        return not self.low <= self.ones(grid) <= self.high


@dataclass(frozen=True)
class Flat:
    """A model's rules by number: each rule's cells (flat indices), each cell's rules, bounds, clues and givens."""

    cells: list[list[int]]
    at: list[list[int]]
    low: list[int]
    high: list[int]
    clue: list[Hashable | None]
    givens: dict[int, int]


@dataclass(frozen=True)
class Model:
    """A puzzle as the kit reads it: its grid's size, the answer's field name, what a 1 is called, and its
    rules. A genre's ``model(puzzle)`` builds it; nothing else of the genre is needed to solve or check."""

    rows: int
    cols: int
    field: str  # the answer's field, e.g. "lights"
    one: str  # a 1 in a sentence: "a light"
    zero: str  # a 0 in a sentence: "empty"
    counts: tuple[Count, ...]

    def cells(self) -> Iterator[Cell]:
        return ((r, c) for r in range(self.rows) for c in range(self.cols))

    def givens(self) -> dict[Cell, int]:
        """Cells whose value the puzzle shows (a wall holds no light): decided before any deduction."""
        return {cell: count.low for count in self.counts if count.given for cell in count.cells}

    def showing(self, shown: Iterable[Hashable]) -> Model:
        """The same puzzle showing only the clues ``shown`` (the generator's model has every clue)."""
        kept = set(shown)
        return replace(self, counts=tuple(c for c in self.counts if c.clue is None or c.clue in kept))

    @cached_property
    def flat(self) -> Flat:
        """The rules by number: each rule's cells and each cell's rules (a look after a change reads only those),
        for the techniques and for the generator's thousands of level checks (``solvers.kit.human.Fixpoint``)."""
        cells = [[r * self.cols + c for r, c in count.cells] for count in self.counts]
        at: list[list[int]] = [[] for _ in range(self.rows * self.cols)]
        for k, members in enumerate(cells):
            for i in members:
                at[i].append(k)
        givens = {r * self.cols + c: value for (r, c), value in self.givens().items()}
        return Flat(cells, at, [c.low for c in self.counts], [c.high for c in self.counts], [c.clue for c in self.counts],
                    givens)


def described(count: Count, ones: int) -> str:
    """Why ``count`` is broken, for a person: the rule and what the answer has instead."""
    bound = (f"exactly {count.low}" if count.low == count.high else f"at least {count.low}" if count.high >= len(count.cells)
             else f"at most {count.high}" if count.low == 0 else f"{count.low} to {count.high}")
    return f"{count.says}: {bound}, the answer has {ones}"


def check(model: Model, grid: Grid) -> list[Violation]:
    """Every broken rule of ``model`` in ``grid``; raises InvalidInput when ``grid`` is not a 0/1 grid of its size."""
    shape = grid_shape_violations(grid, model.rows, model.cols, model.field, {0, 1})
    if shape:
        raise InvalidInput("; ".join(v.message for v in shape), shape)
    return [violation(count.code, described(count, count.ones(grid)), list(count.where or count.cells))
            for count in model.counts if count.broken_by(grid)]


def _encode(sat: SatBackend, model: Model, guards: dict[Hashable, int] | None = None) -> dict[Cell, int]:
    """One variable per cell, one cardinality constraint per rule; a clue's rules only under its guard, where
    ``guards`` has one (the generator's prover switches clues on by assuming their guards)."""
    var = {cell: sat.new_var() for cell in model.cells()}
    for count in model.counts:
        lits = [var[cell] for cell in count.cells]
        guard = None if guards is None or count.clue is None else guards.setdefault(count.clue, sat.new_var())
        if count.low > 0:
            sat.add_at_least(lits, count.low, guard)
        if count.high < len(lits):
            sat.add_at_most(lits, count.high, guard)
    return var


def _grid(model: Model, var: dict[Cell, int], chosen: set[int]) -> list[list[int]]:
    return [[int(var[(r, c)] in chosen) for c in range(model.cols)] for r in range(model.rows)]


def solve(model: Model, limit: int, deadline: Deadline, backend: str | None = None,
          keep: int | None = None) -> SolveOutcome:
    """Count the answers up to ``max(limit, 2)`` on a SAT backend (CaDiCaL by default, z3 the second opinion),
    keeping the first ``keep``."""
    with make_backend(backend or "cadical") as sat:
        var = _encode(sat, model)
        found, counted, complete = count_models(sat, list(var.values()), max(limit, 2), deadline, keep=keep)
    return SolveOutcome([{model.field: _grid(model, var, chosen)} for chosen in found], complete, count=counted)


class Prover:
    """Whether one answer is the only one under any set of shown clues, on one incremental SAT instance: every
    clue's rules guarded by a literal, the answer itself ruled out once, and a set of clues asked by assuming
    their guards. The generator asks it again and again as it adds and removes clues on one board."""

    def __init__(self, model: Model, answer: Grid):
        self.model, self.answer = model, answer
        self.sat = make_backend("cadical")
        self.guards: dict[Hashable, int] = {}
        self.var = _encode(self.sat, model, self.guards)
        self.sat.add_clause(block({self.var[(r, c)] for r, c in model.cells() if answer[r][c]}, self.var.values()))

    def other(self, shown: Iterable[Hashable], deadline: Deadline) -> list[list[int]] | None:
        """An answer other than the prover's under the ``shown`` clues, or None when it is the only one."""
        if self.sat.solve(deadline, [self.guards[clue] for clue in shown if clue in self.guards]):
            return _grid(self.model, self.var, self.sat.true_vars())
        return None

    def close(self) -> None:
        self.sat.close()
