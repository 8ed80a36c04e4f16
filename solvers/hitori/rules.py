"""Hitori: shade cells so no number repeats among the unshaded cells of a row or column, shaded cells never
touch orthogonally, and the unshaded cells stay one orthogonally connected group.

The model: a count per two touching cells (one shaded at most), a count per two equal numbers of a line (one
shaded at least; every pair, as a shaded cell between them does not split them), and the kit's connected-group
rule on the unshaded cells (``solvers.kit.region.OneGroup``). There is no clue to hide: every cell shows its number.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from solvers.common import grid_shape_violations
from solvers.grid import lines
from solvers.kit.region import OneGroup
from solvers.kit.rules import Cells, Count, Model
from solvers.techniques.human import cell_name

MAX_SIZE = 30


class HitoriPuzzle(BaseModel):
    size: int = Field(ge=2, le=MAX_SIZE, description="N: the grid is N×N.")
    numbers: list[list[int]] = Field(description="N×N numbers, each 1..N.")

    @model_validator(mode="after")
    def _numbers_fit(self) -> HitoriPuzzle:
        problems = grid_shape_violations(self.numbers, self.size, self.size, "numbers", range(1, self.size + 1))
        if problems:
            raise ValueError("; ".join(p.message for p in problems))
        return self


class HitoriAnswer(BaseModel):
    shaded: list[list[int]] = Field(description="N×N of 1 (shaded) / 0 (unshaded).")


def model(puzzle: HitoriPuzzle) -> Model:
    n, numbers = puzzle.size, puzzle.numbers
    rules: list[Count | OneGroup] = []
    for r in range(n):
        for c in range(n):
            for other in ((r, c + 1), (r + 1, c)):
                if other[0] < n and other[1] < n:
                    rules.append(Count(((r, c), other), 0, 1, "shaded-adjacent",
                                       f"shaded cells never touch: {cell_name((r, c))} and {cell_name(other)}"))
    for k, line in enumerate(lines(n, n)):
        for i, a in enumerate(line):
            for b in line[i + 1:]:
                if numbers[a[0]][a[1]] == numbers[b[0]][b[1]]:
                    rules.append(Count((a, b), 1, 2, "duplicate-in-line",
                                       f"the two {numbers[a[0]][a[1]]}s at {cell_name(a)} and {cell_name(b)} share a "
                                       f"{'row' if k < n else 'column'}: one of them is shaded"))
    rules.append(OneGroup(tuple((r, c) for r in range(n) for c in range(n)), 0, "unshaded-disconnected",
                          "the unshaded cells form one orthogonally connected group"))
    return Model(Cells("shaded", n, n, "shaded", "unshaded"), tuple(rules))
