"""Nurikabe: shade cells (the sea) so that each island, a group of orthogonally connected unshaded cells, holds
exactly one number, equal to its size; the sea is one orthogonally connected group; no 2×2 block is all sea.

The model: numbered cells are islands (given), a count per 2×2 block (three sea at most), and two kit rules on
groups of cells: ``OneGroup`` for the sea and ``Islands`` for the numbered islands.
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from solvers.common import grid_shape_violations
from solvers.kit.islands import Islands
from solvers.kit.region import OneGroup
from solvers.kit.rules import Cells, Count, Model
from solvers.techniques.human import cell_name, cells_named

MAX_SIDE = 30


class NurikabePuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE)
    cols: int = Field(ge=1, le=MAX_SIDE)
    numbers: list[list[int | None]] = Field(description="R×C: null for a cell without a number, else its island's size.")

    @model_validator(mode="after")
    def _numbers_fit(self) -> NurikabePuzzle:
        cells = [[0 if v is None else v for v in row] if isinstance(row, list) else row for row in self.numbers]
        problems = grid_shape_violations(cells, self.rows, self.cols, "numbers", range(0, self.rows * self.cols + 1))
        if problems:
            raise ValueError("; ".join(p.message.replace("0..", "null, 1..") for p in problems))
        return self


class NurikabeAnswer(BaseModel):
    shaded: list[list[int]] = Field(description="R×C of 1 (sea) / 0 (island).")


def model(puzzle: NurikabePuzzle) -> Model:
    rows, cols = puzzle.rows, puzzle.cols
    cells = tuple((r, c) for r in range(rows) for c in range(cols))
    numbers = {(r, c): v for r, c in cells if (v := puzzle.numbers[r][c]) is not None}
    rules: list[Count | OneGroup | Islands] = [
        Count((cell,), 0, 0, "number-shaded", f"{cell_name(cell)} holds a number: it is island", given=True)
        for cell in numbers]
    for r in range(rows - 1):
        for c in range(cols - 1):
            block = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
            rules.append(Count(block, 0, 3, "sea-pool", f"the 2×2 block {cells_named(block)} is not all sea"))
    rules.append(OneGroup(cells, 1, "sea-disconnected", "the sea is one orthogonally connected group"))
    rules.append(Islands(cells, 0, numbers, "island-size", "each island holds exactly one number, equal to its size"))
    return Model(Cells("shaded", rows, cols, "sea", "island"), tuple(rules))
