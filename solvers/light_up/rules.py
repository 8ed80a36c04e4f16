"""Light Up: place lights in open cells so every open cell is lit (a light shines along its row and column
until a wall), no light shines on another, and each numbered wall has that many lights beside it.

The whole genre is its model: four rules, each a count over cells (``solvers.kit.rules.Count``).
"""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator

from solvers.common import Cell, grid_shape_violations
from solvers.grid import lines, neighbours, runs
from solvers.kit.rules import Cells, Count, Model
from solvers.techniques.human import cell_name, cells_named

MAX_SIDE = 30
WALL = -1  # a wall without a number; 0-4 a numbered wall; null an open cell


class LightUpPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE)
    cols: int = Field(ge=1, le=MAX_SIDE)
    walls: list[list[int | None]] = Field(
        description="R×C: null for an open cell, -1 for a wall without a number, 0–4 for a wall with its number.")

    @model_validator(mode="after")
    def _walls_fit(self) -> LightUpPuzzle:
        cells = [[-2 if v is None else v for v in row] if isinstance(row, list) else row for row in self.walls]
        problems = grid_shape_violations(cells, self.rows, self.cols, "walls", range(-2, 5))
        if problems:
            raise ValueError("; ".join(p.message.replace("-2..4", "null, -1..4") for p in problems))
        return self


class LightUpAnswer(BaseModel):
    lights: list[list[int]] = Field(description="R×C of 1 (a light) / 0 (none); 0 on every wall.")


def _segments(puzzle: LightUpPuzzle) -> list[tuple[Cell, ...]]:
    """Maximal runs of open cells along rows and columns: the cells that see one another."""
    return [tuple(run) for line in lines(puzzle.rows, puzzle.cols)
            for run in runs(line, lambda cell: puzzle.walls[cell[0]][cell[1]] is None)]


def sight(puzzle: LightUpPuzzle) -> dict[Cell, set[Cell]]:
    """Each open cell and the open cells a light there reaches (itself included): the generator lights a
    board with it, the picture tints what the lights reach."""
    seen: dict[Cell, set[Cell]] = {}
    for segment in _segments(puzzle):
        for cell in segment:
            seen.setdefault(cell, set()).update(segment)
    return seen


def model(puzzle: LightUpPuzzle) -> Model:
    """The four rules as counts: open cells that see one another hold one light at most, every open cell sees
    at least one, a wall holds none, a numbered wall has its number beside it (a clue the generator may hide)."""
    counts: list[Count] = []
    seen = sight(puzzle)
    for segment in _segments(puzzle):
        if len(segment) > 1:
            counts.append(Count(segment, 0, 1, "lights-see-each-other",
                                f"{cells_named(segment[:1])}–{cells_named(segment[-1:])} see one another (one light at most)"))
    for (r, c), wall in (((r, c), puzzle.walls[r][c]) for r in range(puzzle.rows) for c in range(puzzle.cols)):
        if wall is None:
            counts.append(Count(tuple(sorted(seen[(r, c)])), 1, len(seen[(r, c)]), "unlit",
                                f"{cell_name((r, c))} must be lit from its row or column", ((r, c),)))
            continue
        counts.append(Count(((r, c),), 0, 0, "light-on-wall", f"{cell_name((r, c))} is a wall, which holds no light",
                            given=True))
        if wall >= 0:
            beside = tuple(n for n in neighbours((r, c), puzzle.rows, puzzle.cols) if puzzle.walls[n[0]][n[1]] is None)
            counts.append(Count(beside, wall, wall, "wall-number",
                                f"the {wall} at {cell_name((r, c))} counts the lights beside it", clue=(r, c)))
    return Model(Cells("lights", puzzle.rows, puzzle.cols, "a light", "empty"), tuple(counts))
