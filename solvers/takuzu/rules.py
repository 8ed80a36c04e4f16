"""Takuzu: fill an N×N grid (N even) with 0s and 1s so that no three alike lie in a row along a row or column,
each row and column holds as many 0s as 1s and, unless the puzzle drops the rule (Tatham's Unruly does by
default), no two rows and no two columns are the same.

The model: a count per window of three cells (one or two 1s), a count per line (N/2 ones), a count per given
cell, and a ``Distinct`` rule (``solvers.kit.distinct``) per pair of rows and per pair of columns.
"""

from __future__ import annotations

from itertools import combinations

from pydantic import BaseModel, Field, model_validator

from solvers.common import grid_shape_violations
from solvers.kit.distinct import Distinct
from solvers.kit.rules import Cells, Count, Model, Rule
from solvers.techniques.human import cell_name, cells_named

MIN_SIDE, MAX_SIDE = 4, 30


class TakuzuPuzzle(BaseModel):
    size: int = Field(ge=MIN_SIDE, le=MAX_SIDE, description="N, even: the grid is N×N.")
    givens: list[list[int | None]] = Field(description="N×N: 0 or 1 for a given cell, null for an open one.")
    unique_lines: bool = Field(True, description="No two rows and no two columns may be the same (the classic "
                                                 "rule; Tatham's Unruly leaves it out unless its ID says `u`).")

    @model_validator(mode="after")
    def _fits(self) -> TakuzuPuzzle:
        if self.size % 2:
            raise ValueError(f"size must be even, got {self.size}")
        cells = [[0 if v is None else v for v in row] if isinstance(row, list) else row for row in self.givens]
        problems = grid_shape_violations(cells, self.size, self.size, "givens", range(2))
        if problems:
            raise ValueError("; ".join(p.message.replace("[0, 1]", "0, 1 and null") for p in problems))
        return self


class TakuzuAnswer(BaseModel):
    grid: list[list[int]] = Field(description="N×N of 0 and 1.")


def lines(n: int) -> list[tuple[str, int, tuple[tuple[int, int], ...]]]:
    """Every row, then every column: its kind, number and cells."""
    return ([("row", i, tuple((i, c) for c in range(n))) for i in range(n)]
            + [("column", i, tuple((r, i) for r in range(n))) for i in range(n)])


def model(puzzle: TakuzuPuzzle, givens_decided: bool = True) -> Model:
    """The rules as counts and distinct pairs; each given a count the generator may hide (``clue`` its cell).
    ``givens_decided=False``: givens are rules like the others, not decided up front (the generator's model with
    every clue, of which a level check shows only some)."""
    n, rules = puzzle.size, []
    for kind, i, line in lines(n):
        rules.append(Count(line, n // 2, n // 2, "unbalanced", f"{kind} {i + 1} holds as many 1s as 0s ({n // 2} each)"))
        for window in zip(line, line[1:], line[2:], strict=False):
            rules.append(Count(window, 1, 2, "three-alike", f"{cells_named(window)} are not all alike"))
    if puzzle.unique_lines:
        by_kind = {"rows": lines(n)[:n], "columns": lines(n)[n:]}
        for kind, group in by_kind.items():
            for (_, i, a), (_, j, b) in combinations(group, 2):
                rules.append(Distinct((a, b), "same-lines", f"{kind} {i + 1} and {j + 1} differ"))
    for r, row in enumerate(puzzle.givens):
        for c, value in enumerate(row):
            if value is not None:
                rules.append(Count(((r, c),), value, value, "given", f"{cell_name((r, c))} is given as {value}",
                                   clue=(r, c), given=givens_decided))
    kept: tuple[Rule, ...] = tuple(rules)
    return Model(Cells("grid", n, n, "1", "0"), kept)
