"""Fillomino: write a number in every cell so that each orthogonally joined group of equal numbers has as many
cells as that number (two regions of one size never touch along an edge). Some numbers are given.

The model: a cell's number as one key per size (``Sizes``, the kit's ``Digits``), one number per cell, the
givens, and per size ``d`` the kit's ``Islands`` rule over the cells' ``d`` keys: every group of ``d``s has ``d``
cells. Sizes are named one by one up to ``top`` (``FLOOR``, or the largest given); a region of more cells than
that holds the one key "more than ``top``", whose islands have at least ``top + 1`` cells. Uniqueness stays
sound (docs/genres/fillomino.md): an answer of that model is a real one (each group over ``top`` one region of its
cells), two different ones are two different real answers, and every real answer is one of them; only when the
one answer has a region over ``top`` might it stand for several, and ``solve`` then counts again with sizes
named further (up to R×C, where nothing is over).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel, Field, model_validator

from solvers.common import Deadline, SolveOutcome, Violation, grid_shape_violations
from solvers.grid import connected_regions
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.islands import Islands
from solvers.kit.rules import Count, Digits, Key, Model, _grid_of
from solvers.techniques.human import Hint, cell_name

MAX_SIDE = 30
FLOOR = 9  # the sizes the model names one by one at least (Tatham's regions reach 9): larger ones are "over"
KEEP_ALL = 50  # a count up to this keeps its answers to look for one over ``top``; above, one more solve asks


class FillominoPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE)
    cols: int = Field(ge=1, le=MAX_SIDE)
    givens: list[list[int | None]] = Field(description="R×C: null for an empty cell, else the size of its region.")

    @model_validator(mode="after")
    def _givens_fit(self) -> FillominoPuzzle:
        cells = [[1 if v is None else v for v in row] if isinstance(row, list) else row for row in self.givens]
        problems = grid_shape_violations(cells, self.rows, self.cols, "givens", range(1, self.rows * self.cols + 1))
        if problems:
            raise ValueError("; ".join(p.message.replace("1..", "null, 1..") for p in problems))
        return self


class FillominoAnswer(BaseModel):
    digits: list[list[int]] = Field(description="R×C: each cell's number, the size of its region.")


@dataclass(frozen=True)
class Sizes(Digits):
    """``Digits`` whose last digit, past ``top``, stands for every size over it (None: no such digit). An answer
    reads any size 1..R×C; a group of cells "over" is written as one region of its cells."""

    top: int | None = None

    def _key_digit(self, value: int) -> int:
        return value if self.top is None else min(value, self.top + 1)

    def named(self, digit: int) -> str:
        return f"more than {self.top}" if self.top is not None and digit > self.top else str(digit)

    def read(self, answer: Mapping[str, Any]) -> dict[Key, int]:
        grid = _grid_of(answer.get(self.field), self.rows, self.cols, self.field, range(1, self.rows * self.cols + 1))
        return {(r, c, d): int(self._key_digit(grid[r][c]) == d) for r, c, d in self.keys()}

    def write(self, ones: set[Key]) -> dict[str, Any]:
        grid = super().write(ones)[self.field]
        top = self.top or self.rows * self.cols
        for group in connected_regions(self.rows, self.cols, lambda cell: grid[cell[0]][cell[1]] > top):
            for r, c in group:
                grid[r][c] = len(group)
        return {self.field: grid}

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        """A size over ``top`` the player wrote or pencilled is the "over" digit."""
        grid, marks = state.get(self.field), state.get("candidates")
        mapped = {self.field: grid and [[self._key_digit(v) if isinstance(v, int) and v > 0 else None for v in row]
                                        for row in grid],
                  "candidates": marks and [[None if m is None else sorted({self._key_digit(d) for d in m}) for m in row]
                                           for row in marks]}
        return super().partial(mapped)


def top_of(puzzle: FillominoPuzzle, largest: int = 0) -> int:
    """The largest size the model names alone: ``FLOOR``, the largest given or ``largest``, at most R×C."""
    given = max((v for row in puzzle.givens for v in row if v is not None), default=0)
    return min(puzzle.rows * puzzle.cols, max(FLOOR, given, largest))


def model(puzzle: FillominoPuzzle, largest: int = 0) -> Model:
    """One number per cell, the givens (each a clue the generator may hide), and per size its regions' size (sizes
    past ``top_of`` as one, ``largest`` naming sizes further)."""
    rows, cols = puzzle.rows, puzzle.cols
    top = top_of(puzzle, largest)
    over = top < rows * cols
    layout = Sizes("digits", rows, cols, top + over, top=top if over else None)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rules: list[Any] = [Count(tuple((r, c, d) for d in range(1, layout.digits + 1)), 1, 1, "one-number",
                              f"{cell_name((r, c))} holds one number", where=((r, c),)) for r, c in cells]
    rules += [Count(((r, c, v),), 1, 1, "given", f"{cell_name((r, c))} holds its given {v}", given=True, clue=(r, c))
              for r, c in cells if (v := puzzle.givens[r][c]) is not None]
    for d in range(1, top + 1):
        rules.append(Islands(tuple((r, c, d) for r, c in cells), 1, {}, "region-size",
                             f"a region of {d}s has {d} cell{'s' if d > 1 else ''}", size=d,
                             each=f"the {d} at {{cell}} is in a region of {{cells}}"))
    if over:
        rules.append(Islands(tuple((r, c, top + 1) for r, c in cells), 1, {}, "region-size",
                             f"a region over {top} has more than {top} cells", size=top + 1, at_least=True,
                             each=f"the number over {top} at {{cell}} is in a region of {{cells}}"))
    return Model(layout, tuple(rules))


def check(puzzle: FillominoPuzzle, answer: FillominoAnswer) -> list[Violation]:
    """The kit's check on a model naming every size the answer writes, so each region is judged by its number."""
    written = max((v for row in answer.digits for v in row if isinstance(v, int)), default=0)
    return kit.check(model(puzzle, min(written, puzzle.rows * puzzle.cols)), answer.model_dump())


def _over(puzzle_model: Model) -> tuple[Key, ...]:
    layout = puzzle_model.layout
    assert isinstance(layout, Sizes)
    return () if layout.top is None else tuple(k for k in puzzle_model.keys if k[2] > layout.top)  # type: ignore[index]


def solve(puzzle: FillominoPuzzle, limit: int, deadline: Deadline, backend: str | None = None,
          keep: int | None = None) -> SolveOutcome:
    """The kit's count, exact: when a counted answer may have a region over ``top`` (one kept, or, for a long
    count, a solve that finds one), the count is made again with sizes named twice as far (R×C at most)."""
    top, kept_all = top_of(puzzle), keep is None or limit <= KEEP_ALL
    while True:
        counted = model(puzzle, top)
        over = _over(counted)
        found = kit_solving.solve(counted, limit, deadline, backend, None if kept_all else keep)
        if not over or not found.complete or found.count == 0:
            break
        if kept_all:
            if all(v <= top for s in found.solutions for row in s["digits"] for v in row):
                break
        else:
            beyond = Count(over, 1, len(over), "over", f"a region is over {top}")
            if kit_solving.solve(replace(counted, rules=(*counted.rules, beyond)), 1, deadline, backend).count == 0:
                break
        top = min(puzzle.rows * puzzle.cols, 2 * top)
    return SolveOutcome(found.solutions[:keep] if keep is not None else found.solutions, found.complete,
                        count=found.count)


def hint_sizes(hint: Callable[..., Hint]) -> Callable[..., Hint]:
    """A kit hint whose step places the "over" number writes the solution's size there (the digits widget writes
    what a hint names; its sentence keeps "more than ``top``")."""

    def sized(puzzle: FillominoPuzzle, state: Any, solution: FillominoAnswer, deadline: Deadline) -> Hint:
        found, top = hint(puzzle, state, solution, deadline), top_of(puzzle)
        decide = [{**entry, "value": solution.digits[entry["cell"][0]][entry["cell"][1]]}
                  if entry["value"] > top and not entry.get("eliminate") else entry for entry in found.decide]
        return replace(found, decide=decide)

    return sized
