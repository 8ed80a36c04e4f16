"""Masyu: the grid, its pearls, and the solution's loop through the cells' centres.

Each line between two centres is drawn by ``pictures.edges`` (in play mode, a ``<g data-edge>`` the page's edges
widget plays); their group says ``data-joins="centres"`` so the widget's keys draw from the focused cell toward a
neighbour. Each cell stays a ``<g data-cell>`` for the page's marks.
"""

from __future__ import annotations

import drawsvg as draw

from pictures.edges import edge
from pictures.grid import CELL, INK, Grid, canvas, cell_background, cell_group, finish, grid_lines
from solvers.masyu.rules import BLACK, MasyuAnswer, MasyuPuzzle, line_name, lines_of

MARGIN = 10


def render(puzzle: MasyuPuzzle, answer: MasyuAnswer | None = None, play: bool = False) -> str:
    grid = Grid(puzzle.rows, puzzle.cols, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Masyu {puzzle.rows}×{puzzle.cols}")
    for r, row in enumerate(puzzle.pearls):
        for c, kind in enumerate(row):
            what = "" if kind is None else ", black pearl" if kind == BLACK else ", white pearl"
            group = cell_group(r, c, play, label=f"row {r + 1}, column {c + 1}{what}")
            group.append(cell_background(grid, r, c))
            if kind is not None:
                group.append(draw.Circle(*grid.centre(r, c), CELL * 0.3, stroke=INK, stroke_width=2,
                                         fill=INK if kind == BLACK else "white", class_="pearl"))
            d.append(group)
    d.append(grid_lines(grid))
    lines = draw.Group(data_joins="centres", class_="loop")
    for (field, r, c), a, b in lines_of(puzzle.rows, puzzle.cols):
        on = answer is not None and bool(getattr(answer, field)[r][c])
        centres = (a[0] + 0.5, a[1] + 0.5), (b[0] + 0.5, b[1] + 0.5)  # as the grid's dots count
        lines.append(edge(grid, f"{field},{r},{c}", *centres, play, on, line_name(field, r, c)))  # type: ignore[arg-type]
    d.append(lines)
    return finish(d)
