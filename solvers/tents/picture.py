"""Tents: trees drawn in their cells, the counts above the columns and left of the rows; the solution adds the
tents, and the grass tinted. In play mode each open cell holds a tent (shown when filled) and a dot (when grass)."""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, Grid, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.tents.rules import TentsAnswer, TentsPuzzle

MARGIN = 6
LEAF, TRUNK, TENT, GRASS = "#5fa83a", "#7a4b23", "#d9822b", "#e6f2d8"


def _tree(x: float, y: float) -> draw.Group:
    group = draw.Group()
    group.append(draw.Rectangle(x - CELL * 0.06, y, CELL * 0.12, CELL * 0.32, fill=TRUNK))
    group.append(draw.Circle(x, y - CELL * 0.06, CELL * 0.26, fill=LEAF, stroke="#1a1a1a", stroke_width=1))
    return group


def _tent(x: float, y: float, **attrs: object) -> draw.Lines:
    half = CELL * 0.3
    return draw.Lines(x, y - half, x + half, y + half * 0.8, x - half, y + half * 0.8, close=True, fill=TENT,
                      stroke="#1a1a1a", stroke_width=1.5, **attrs)


def render(puzzle: TentsPuzzle, answer: TentsAnswer | None = None, play: bool = False) -> str:
    grid = Grid(puzzle.rows, puzzle.cols, MARGIN + CELL, MARGIN + CELL)
    d = canvas(grid.width + 2 * MARGIN + CELL, grid.height + 2 * MARGIN + CELL, f"Tents {puzzle.rows}×{puzzle.cols}")
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            tree = bool(puzzle.trees[r][c])
            group = cell_group(r, c, play, value=0 if tree else None,
                               label=f"row {r + 1}, column {c + 1}, a tree" if tree else None)
            x, y = grid.centre(r, c)
            tent = answer is not None and bool(answer.tents[r][c])
            group.append(cell_background(grid, r, c, GRASS if answer is not None and not tree and not tent else "white"))
            if tree:
                group.append(_tree(x, y))
            elif tent:
                group.append(_tent(x, y))
            elif play:  # filled = a tent, empty = marked as grass (a dot)
                group.append(_tent(x, y, class_="m-fill"))
                group.append(draw.Circle(x, y, CELL * 0.08, fill="#1a1a1a", class_="m-empty"))
            d.append(group)
    d.append(grid_lines(grid))
    for c, count in enumerate(puzzle.col_counts):
        if count is not None:
            d.append(text(count, grid.x(c + 0.5), grid.y(-0.5), CELL * 0.5, class_="clue clue-top"))
    for r, count in enumerate(puzzle.row_counts):
        if count is not None:
            d.append(text(count, grid.x(-0.5), grid.y(r + 0.5), CELL * 0.5, class_="clue clue-left"))
    return finish(d)
