"""Slitherlink: draw one closed loop along the grid's edges, with no branches or crossings; a number in a cell
counts the loop's edges around it.

The whole genre is its model over the edges (two layers of 0/1 keys, ``(field, r, c)``): each number a count of
its four edges, each dot of the grid a count of 0 or 2 (the loop passes through or not at all), and the edges
that are drawn connected (``solvers.kit.rules.Connected``), which with the dots makes them a single loop.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field, model_validator

from solvers.common import Cell, grid_shape_violations
from solvers.kit.loop import Loop
from solvers.kit.rules import Count, Layers, Model
from solvers.techniques.human import cell_name

MAX_SIDE = 30
Key = tuple[str, int, int]
Dot = tuple[int, int]


class SlitherlinkPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE)
    cols: int = Field(ge=1, le=MAX_SIDE)
    clues: list[list[int | None]] = Field(
        description="R×C: the number of the cell's four edges the loop uses (0–4), or null for no number.")

    @model_validator(mode="after")
    def _clues_fit(self) -> SlitherlinkPuzzle:
        cells = [[-1 if v is None else v for v in row] if isinstance(row, list) else row for row in self.clues]
        problems = grid_shape_violations(cells, self.rows, self.cols, "clues", range(-1, 5))
        if problems:
            raise ValueError("; ".join(p.message.replace("-1..4", "null, 0..4") for p in problems))
        return self


class SlitherlinkAnswer(BaseModel):
    horizontal: list[list[int]] = Field(
        description="(R+1)×C of 1 (the loop uses it) / 0: the edge above row r's cell c, the last row the bottom edges.")
    vertical: list[list[int]] = Field(
        description="R×(C+1) of 1 / 0: the edge left of row r's cell c, the last column the right edges.")


def edges_of(rows: int, cols: int) -> list[tuple[Key, Dot, Dot]]:
    """Every edge with the two dots it joins (dot (i, j) is the top-left corner of cell (i, j))."""
    across = [(("horizontal", r, c), (r, c), (r, c + 1)) for r in range(rows + 1) for c in range(cols)]
    down = [(("vertical", r, c), (r, c), (r + 1, c)) for r in range(rows) for c in range(cols + 1)]
    return across + down


def around(r: int, c: int) -> tuple[Key, ...]:
    """The four edges of cell (r, c)."""
    return ("horizontal", r, c), ("horizontal", r + 1, c), ("vertical", r, c), ("vertical", r, c + 1)


def layout(rows: int, cols: int) -> Layers:
    """The two edge grids as the kit's keys, each edge named and drawn at the cell it borders."""
    return Layers({"horizontal": (rows + 1, cols), "vertical": (rows, cols + 1)}, "drawn", "crossed",
                  name=edge_namer(rows, cols), at=lambda field, r, c: (min(r, rows - 1), min(c, cols - 1)))


def edge_namer(rows: int, cols: int) -> Callable[[str, int, int], str]:
    """Edges named by the cell they border: above or left of it, below or right of it on the last row or column."""
    def name(field: str, r: int, c: int) -> str:
        if field == "horizontal":
            return f"the edge below {cell_name((r - 1, c))}" if r == rows else f"the edge above {cell_name((r, c))}"
        return f"the edge right of {cell_name((r, c - 1))}" if c == cols else f"the edge left of {cell_name((r, c))}"
    return name


def _cells_at(dot: Dot, rows: int, cols: int) -> tuple[Cell, ...]:
    i, j = dot
    return tuple((r, c) for r in (i - 1, i) for c in (j - 1, j) if 0 <= r < rows and 0 <= c < cols)


def dot_name(dot: Dot, rows: int, cols: int) -> str:
    """A dot named as a corner of a cell it touches: "the top-left corner of r2c3"."""
    i, j = dot
    r, c = min(i, rows - 1), min(j, cols - 1)
    return f"the {'top' if i == r else 'bottom'}-{'left' if j == c else 'right'} corner of {cell_name((r, c))}"


def model(puzzle: SlitherlinkPuzzle) -> Model:
    """Each number a count of its four edges (a clue the generator may hide), each dot 0 or 2 of its edges, and
    the drawn edges one connected whole."""
    rows, cols = puzzle.rows, puzzle.cols
    edges = edges_of(rows, cols)
    rules: list[Count | Loop] = []
    for (r, c), clue in (((r, c), puzzle.clues[r][c]) for r in range(rows) for c in range(cols)):
        if clue is not None:
            rules.append(Count(around(r, c), clue, clue, "clue", f"the {clue} at {cell_name((r, c))} counts the "
                               "loop's edges around it", where=((r, c),), clue=(r, c)))
    touching: dict[Dot, list[Key]] = {}
    for key, a, b in edges:
        touching.setdefault(a, []).append(key)
        touching.setdefault(b, []).append(key)
    for (i, j), keys in sorted(touching.items()):
        rules.append(Count(tuple(keys), 0, 2, "dot", f"the loop passes through {dot_name((i, j), rows, cols)} "
                           "or not at all", where=_cells_at((i, j), rows, cols), allowed=frozenset({0, 2})))
    rules.append(Loop(tuple(edges), "one-loop", "the lines form one single loop",
                           where=tuple((r, c) for r in range(rows) for c in range(cols))))
    return Model(layout(rows, cols), tuple(rules))
