"""Light Up: walls black with their numbers in white; the solution lights as bulbs and the lit cells tinted."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, SHADE, Grid, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.light_up.rules import LightUpAnswer, LightUpPuzzle, sight

MARGIN = 6
BULB, LIT = "#f2b705", "#fdf3c4"


def render(puzzle: LightUpPuzzle, answer: LightUpAnswer | None = None, play: bool = False) -> str:
    grid = Grid(puzzle.rows, puzzle.cols, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Light Up {puzzle.rows}×{puzzle.cols}")
    lit: set[tuple[int, int]] = set()
    if answer is not None:
        lit = {cell for light, reached in sight(puzzle).items() if answer.lights[light[0]][light[1]] for cell in reached}
    for r, row in enumerate(puzzle.walls):
        for c, wall in enumerate(row):
            group = cell_group(r, c, play, value=0 if wall is not None else None,
                               label=f"row {r + 1}, column {c + 1}, a wall" if wall is not None else None)
            x, y = grid.centre(r, c)
            if wall is not None:
                group.append(cell_background(grid, r, c, SHADE))
                if wall >= 0:
                    group.append(text(wall, x, y, CELL * 0.55, fill="white"))
            else:
                group.append(cell_background(grid, r, c, LIT if (r, c) in lit else "white"))
                if answer is not None and answer.lights[r][c]:
                    group.append(draw.Circle(x, y, CELL * 0.32, fill=BULB, stroke="#1a1a1a", stroke_width=1.5))
                if play:  # filled = a light, empty = marked as holding none (a dot)
                    group.append(draw.Circle(x, y, CELL * 0.32, fill=BULB, stroke="#1a1a1a", stroke_width=1.5,
                                             class_="m-fill"))
                    group.append(draw.Circle(x, y, CELL * 0.08, fill="#1a1a1a", class_="m-empty"))
            d.append(group)
    d.append(grid_lines(grid))
    return finish(d)
