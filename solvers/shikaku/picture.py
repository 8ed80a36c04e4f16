"""Shikaku: the numbers in their cells over faint grid lines, the solution's rectangles outlined and tinted. In
play mode every inner grid line is an edge of the shared edges widget (``pictures.edges``): the player draws the
rectangles' borders, and the genre's page module (play.js) reads the rectangles off them."""

from __future__ import annotations

import drawsvg as draw

from pictures.edges import edge
from pictures.grid import CELL, INK, REGION_TINTS, Grid, canvas, cell_background, cell_group, finish, text
from solvers.shikaku.rules import ShikakuAnswer, ShikakuPuzzle

MARGIN = 8
FAINT = "#bbbbbb"


def render(puzzle: ShikakuPuzzle, answer: ShikakuAnswer | None = None, play: bool = False) -> str:
    rows, cols = puzzle.rows, puzzle.cols
    grid = Grid(rows, cols, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Shikaku {rows}×{cols}")
    regions = answer.regions if answer is not None else None
    tint = {v: REGION_TINTS[k % len(REGION_TINTS)] for k, v in enumerate(dict.fromkeys(
        v for row in regions or () for v in row))}
    for r, row in enumerate(puzzle.numbers):
        for c, number in enumerate(row):
            label = f"row {r + 1}, column {c + 1}" + (f", {number}" if number is not None else "")
            group = cell_group(r, c, play, label=label)
            group.append(cell_background(grid, r, c, tint[regions[r][c]] if regions else "white"))
            if number is not None:
                group.append(text(number, *grid.centre(r, c), CELL * 0.55))
            d.append(group)
    lines = draw.Group(stroke=FAINT, stroke_width=1, stroke_dasharray="3 3")
    for r in range(1, rows):
        lines.append(draw.Line(grid.x(0), grid.y(r), grid.x(cols), grid.y(r)))
    for c in range(1, cols):
        lines.append(draw.Line(grid.x(c), grid.y(0), grid.x(c), grid.y(rows)))
    d.append(lines)
    for r in range(rows):  # the edge above row r's cell c, and the edge left of cell c
        for c in range(cols):
            for field, inner, a, b, other in (("horizontal", r > 0, (r, c), (r, c + 1), (r - 1, c)),
                                              ("vertical", c > 0, (r, c), (r + 1, c), (r, c - 1))):
                on = regions is not None and inner and regions[r][c] != regions[other[0]][other[1]]
                if inner and (play or on):
                    name = f"the line {'above' if field == 'horizontal' else 'left of'} row {r + 1}, column {c + 1}"
                    d.append(edge(grid, f"{field},{r},{c}", a, b, play, on, name, colour=INK, width=0.08))
    d.append(draw.Rectangle(grid.x(0), grid.y(0), grid.width, grid.height, fill="none", stroke=INK, stroke_width=3))
    return finish(d)
