"""Hashi: islands as circles with their numbers over a faint grid of water, the solution's bridges as one or two
lines. In play mode each island is a cell group (the play page's `links` widget joins them) and an empty
`<g data-links>` above the water takes the player's bridges."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, GRID_LINE, INK, Grid, canvas, cell_group, finish, text
from solvers.hashi.rules import HashiAnswer, HashiPuzzle, islands

MARGIN = 6
RADIUS, GAP, LINE = 0.38 * CELL, 0.18 * CELL, 2.5


def bridge(grid: Grid, start: tuple[int, int], to: tuple[int, int], count: int) -> draw.Group:
    """One or two lines between two islands' circles, side by side."""
    (x0, y0), (x1, y1) = grid.centre(*start), grid.centre(*to)
    across = (GAP / 2, 0) if x0 == x1 else (0, GAP / 2)
    along = (0, RADIUS) if x0 == x1 else (RADIUS, 0)
    group = draw.Group(stroke=INK, stroke_width=LINE)
    for side in ((0,) if count == 1 else (-1, 1)):
        dx, dy = across[0] * side, across[1] * side
        group.append(draw.Line(x0 + dx + along[0], y0 + dy + along[1], x1 + dx - along[0], y1 + dy - along[1]))
    return group


def render(puzzle: HashiPuzzle, answer: HashiAnswer | None = None, play: bool = False) -> str:
    grid = Grid(puzzle.rows, puzzle.cols, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Hashi {puzzle.rows}×{puzzle.cols}")
    water = draw.Group(stroke=GRID_LINE, stroke_width=0.6, stroke_dasharray="2 4", opacity=0.6)
    for r in range(puzzle.rows):
        water.append(draw.Line(grid.x(0.5), grid.y(r + 0.5), grid.x(puzzle.cols - 0.5), grid.y(r + 0.5)))
    for c in range(puzzle.cols):
        water.append(draw.Line(grid.x(c + 0.5), grid.y(0.5), grid.x(c + 0.5), grid.y(puzzle.rows - 0.5)))
    d.append(water)
    for item in answer.bridges if answer is not None else ():
        d.append(bridge(grid, item.start, item.to, item.count))
    if play:
        d.append(draw.Group(data_links="", stroke=INK, stroke_width=LINE))
    for r, c in islands(puzzle):
        number = puzzle.islands[r][c]
        group = cell_group(r, c, play, label=f"row {r + 1}, column {c + 1}, island {number}")
        x, y = grid.centre(r, c)
        group.append(draw.Circle(x, y, RADIUS, fill="white", stroke=INK, stroke_width=2, class_="bg",
                                 data_number=str(number)))
        group.append(text(number, x, y, CELL * 0.5))
        d.append(group)
    return finish(d)
