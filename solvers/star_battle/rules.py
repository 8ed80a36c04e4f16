"""Star Battle: place stars so every row, every column and every region holds exactly ``stars`` of them, and
no two stars touch, not even diagonally.

The whole genre is its model: counts over cells (``solvers.kit.rules.Count``). Two stars touch exactly when
they share a 2×2 window, so "no two touch" is "every 2×2 window holds one star at most".
"""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, Field, model_validator

from solvers.common import grid_shape_violations
from solvers.grid import column_lines, row_lines
from solvers.kit.partition import groups, region_cells
from solvers.kit.rules import Cells, Count, Model
from solvers.techniques.human import cell_name, cells_named

MAX_SIDE = 30


class StarBattlePuzzle(BaseModel):
    size: int = Field(ge=1, le=MAX_SIDE, description="N: the grid is N×N and has N regions.")
    stars: int = Field(1, ge=1, le=3, description="Stars in every row, column and region.")
    regions: list[list[int]] = Field(description="N×N region ids 0..N-1, each region one orthogonally joined group.")

    @model_validator(mode="after")
    def _regions_fit(self) -> StarBattlePuzzle:
        problems = grid_shape_violations(self.regions, self.size, self.size, "regions", range(self.size))
        if problems:
            raise ValueError("; ".join(p.message for p in problems))
        if len(region_cells(self.regions)) != self.size:
            raise ValueError(f"`regions` must use each id 0..{self.size - 1}: an N×N grid has N regions")
        if len(groups(self.regions)) != self.size:
            raise ValueError("each region must be one orthogonally joined group of cells")
        return self


class StarBattleAnswer(BaseModel):
    stars: list[list[int]] = Field(description="N×N of 1 (a star) / 0 (none).")


def _plural(k: int) -> str:
    return f"{k} star{'s' * (k > 1)}"


@cache
def _lines_and_windows(n: int, k: int) -> tuple[Count, ...]:
    """The rules every N×N map shares: its rows, columns and 2×2 windows."""
    counts = [Count(tuple(line), k, k, "row-stars", f"row {r + 1} holds {_plural(k)}")
              for r, line in enumerate(row_lines(n, n))]
    counts += [Count(tuple(line), k, k, "column-stars", f"column {c + 1} holds {_plural(k)}")
               for c, line in enumerate(column_lines(n, n))]
    counts += [Count(((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)), 0, 1, "stars-touch",
                     f"{cell_name((r, c))}–{cell_name((r + 1, c + 1))} touch (one star at most)")
               for r in range(n - 1) for c in range(n - 1)]
    return tuple(counts)


def model_of(n: int, k: int, regions: list[list[int]]) -> Model:
    """The model of any N×N region map, checked or not (the generator reshapes maps move by move)."""
    counts = [Count(tuple(cells), k, k, "region-stars", f"the region of {cells_named(cells[:1])} holds {_plural(k)}")
              for _, cells in sorted(region_cells(regions).items())]
    return Model(Cells("stars", n, n, "a star", "empty"), _lines_and_windows(n, k) + tuple(counts))


def model(puzzle: StarBattlePuzzle) -> Model:
    """Rows, columns and regions hold exactly ``stars`` each; every 2×2 window one at most."""
    return model_of(puzzle.size, puzzle.stars, puzzle.regions)
