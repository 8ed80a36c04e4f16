"""Nurikabe: numbers in their cells; the solution shades the sea."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, SHADE, Grid, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.nurikabe.rules import NurikabeAnswer, NurikabePuzzle

MARGIN = 6


def render(puzzle: NurikabePuzzle, answer: NurikabeAnswer | None = None, play: bool = False) -> str:
    grid = Grid(puzzle.rows, puzzle.cols, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Nurikabe {puzzle.rows}×{puzzle.cols}")
    for r, row in enumerate(puzzle.numbers):
        for c, number in enumerate(row):
            sea = answer is not None and answer.shaded[r][c] == 1
            group = cell_group(r, c, play, value=0 if number is not None else None,
                               label=f"row {r + 1}, column {c + 1}, the number {number}" if number is not None else None)
            group.append(cell_background(grid, r, c, SHADE if sea else "white"))
            x, y = grid.centre(r, c)
            if number is not None:
                group.append(text(number, x, y, CELL * 0.55))
            elif play:  # filled = sea, empty = marked as island (a dot)
                group.append(draw.Rectangle(grid.x(c), grid.y(r), CELL, CELL, fill=SHADE, class_="m-fill"))
                group.append(draw.Circle(x, y, CELL * 0.08, fill="#1a1a1a", class_="m-empty"))
            d.append(group)
    d.append(grid_lines(grid))
    return finish(d)
