"""Takuzu: a 1 a dark disc, a 0 a white disc; the givens on grey cells, so the player tells them from their own."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, INK, Grid, canvas, cell_background, cell_group, finish, grid_lines
from solvers.takuzu.rules import TakuzuAnswer, TakuzuPuzzle

MARGIN = 6
GIVEN_CELL, ONE, ZERO = "#d9d9d9", "#2b2b2b", "white"


def _disc(x: float, y: float, value: int, **attrs: str) -> draw.Circle:
    return draw.Circle(x, y, CELL * 0.34, fill=ONE if value else ZERO, stroke=INK, stroke_width=1.5, **attrs)


def render(puzzle: TakuzuPuzzle, answer: TakuzuAnswer | None = None, play: bool = False) -> str:
    n = puzzle.size
    grid = Grid(n, n, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Takuzu {n}×{n}")
    for r, row in enumerate(puzzle.givens):
        for c, given in enumerate(row):
            group = cell_group(r, c, play, value=given,
                               label=None if given is None else f"row {r + 1}, column {c + 1}, given {given}")
            x, y = grid.centre(r, c)
            group.append(cell_background(grid, r, c, "white" if given is None else GIVEN_CELL))
            if given is not None:
                group.append(_disc(x, y, given))
            elif answer is not None:
                group.append(_disc(x, y, answer.grid[r][c]))
            elif play:  # filled = a 1, empty = a 0
                group.append(_disc(x, y, 1, class_="m-fill"))
                group.append(_disc(x, y, 0, class_="m-empty"))
            d.append(group)
    d.append(grid_lines(grid))
    return finish(d)
