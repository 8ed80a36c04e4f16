"""Slitherlink: the grid's dots, the numbers in their cells, and the solution's loop along the edges.

In play mode each edge is a ``<g data-edge="field,r,c">`` (the answer's field and index) whose hit area is the
diamond between its two dots and the centres of the cells beside it, holding a line and a cross the page shows
by the edge's state (app/static/play-edges.js); each cell stays a ``<g data-cell>`` for the page's marks.
"""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, INK, Grid, canvas, cell_background, cell_group, finish, text
from solvers.slitherlink.rules import SlitherlinkAnswer, SlitherlinkPuzzle, edge_namer, edges_of

MARGIN = 10
LOOP, CROSS = "#1f4e9c", "#c1121f"


def _edge(grid: Grid, field: str, r: int, c: int, a: tuple[int, int], b: tuple[int, int], play: bool,
          on: bool, label: str) -> draw.Group:
    (x0, y0), (x1, y1) = (grid.x(a[1]), grid.y(a[0])), (grid.x(b[1]), grid.y(b[0]))
    group = draw.Group(class_="edge", data_edge=f"{field},{r},{c}", tabindex="-1", role="button",
                       aria_label=label) if play else draw.Group()
    if play:
        half = grid.size / 2
        dx, dy = (0, half) if field == "horizontal" else (half, 0)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        group.append(draw.Lines(x0, y0, mx + dx, my + dy, x1, y1, mx - dx, my - dy, close=True, fill="#fff",
                                fill_opacity=0, class_="hit"))
        arm = grid.size * 0.12
        group.append(draw.Path(stroke=CROSS, stroke_width=2.5, class_="e-cross").M(mx - arm, my - arm)
                     .L(mx + arm, my + arm).M(mx - arm, my + arm).L(mx + arm, my - arm))
    if play or on:
        group.append(draw.Line(x0, y0, x1, y1, stroke=LOOP, stroke_width=grid.size * 0.12, stroke_linecap="round",
                               class_="e-line" if play else None))
    return group


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
        d.append(_edge(grid, field, r, c, a, b, play, on, name(field, r, c)))
    dots = draw.Group(fill=INK, class_="dots")
    for i in range(puzzle.rows + 1):
        for j in range(puzzle.cols + 1):
            dots.append(draw.Circle(grid.x(j), grid.y(i), CELL * 0.07))
    d.append(dots)
    return finish(d)
