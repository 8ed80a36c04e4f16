"""Slitherlink: the grid's dots, the numbers in their cells, and the solution's loop along the edges.

In play mode each edge is the shared edges widget's (``pictures.edges``); each cell stays a ``<g data-cell>`` for
the page's marks.
"""

from __future__ import annotations

import drawsvg as draw

from pictures.edges import edge
from pictures.grid import CELL, INK, Grid, canvas, cell_background, cell_group, finish, text
from solvers.slitherlink.rules import SlitherlinkAnswer, SlitherlinkPuzzle, edge_namer, edges_of

MARGIN = 10


def render(puzzle: SlitherlinkPuzzle, answer: SlitherlinkAnswer | None = None, play: bool = False) -> str:
    grid = Grid(puzzle.rows, puzzle.cols, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Slitherlink {puzzle.rows}×{puzzle.cols}")
    for r, row in enumerate(puzzle.clues):
        for c, clue in enumerate(row):
            group = cell_group(r, c, play, label=f"row {r + 1}, column {c + 1}" + (f", {clue}" if clue is not None else ""))
            group.append(cell_background(grid, r, c))
            if clue is not None:
                group.append(text(clue, *grid.centre(r, c), CELL * 0.55))
            d.append(group)
    name = edge_namer(puzzle.rows, puzzle.cols)
    for (field, r, c), a, b in edges_of(puzzle.rows, puzzle.cols):
        on = answer is not None and bool(getattr(answer, field)[r][c])
        d.append(edge(grid, f"{field},{r},{c}", a, b, play, on, name(field, r, c)))
    dots = draw.Group(fill=INK, class_="dots")
    for i in range(puzzle.rows + 1):
        for j in range(puzzle.cols + 1):
            dots.append(draw.Circle(grid.x(j), grid.y(i), CELL * 0.07))
    d.append(dots)
    return finish(d)
