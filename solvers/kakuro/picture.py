"""Kakuro: the board with its outer row and column of clues; a clue cell grey, split by its diagonal, its down
sum below the diagonal and its across sum above it. The solution writes the digits in the white cells.

In play mode only white cells are cells (each with an empty ``<text class="entry">`` the digits widget writes
into, ``app/static/play-digits.js``); clue cells carry no hooks, so the page never takes them for one.
"""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, GRID_LINE, Grid, canvas, cell_background, digit_cell, finish, grid_lines, text
from solvers.kakuro.rules import KakuroAnswer, KakuroPuzzle

MARGIN = 6
CLUE_FILL = "#c8c8c8"


def _clue_cell(grid: Grid, r: int, c: int, down: int | None, across: int | None) -> draw.Group:
    group = draw.Group(class_="clue")
    group.append(cell_background(grid, r, c, CLUE_FILL))
    x0, y0, size = grid.x(c), grid.y(r), grid.size
    group.append(draw.Line(x0, y0, x0 + size, y0 + size, stroke=GRID_LINE, stroke_width=1))
    if down is not None:
        group.append(text(down, x0 + size * 0.3, y0 + size * 0.72, size * 0.32, class_="clue-down"))
    if across is not None:
        group.append(text(across, x0 + size * 0.7, y0 + size * 0.3, size * 0.32, class_="clue-across"))
    return group


def render(puzzle: KakuroPuzzle, answer: KakuroAnswer | None = None, play: bool = False) -> str:
    outer = Grid(puzzle.rows + 1, puzzle.cols + 1, MARGIN, MARGIN)
    grid = Grid(puzzle.rows, puzzle.cols, MARGIN + CELL, MARGIN + CELL)
    d = canvas(outer.width + 2 * MARGIN, outer.height + 2 * MARGIN, f"Kakuro {puzzle.rows}×{puzzle.cols}")
    d.append(_clue_cell(outer, 0, 0, None, None))
    for c in range(puzzle.cols):
        d.append(_clue_cell(outer, 0, c + 1, puzzle.top[c], None))
    for r in range(puzzle.rows):
        d.append(_clue_cell(outer, r + 1, 0, None, puzzle.left[r]))
    font = CELL * 0.6
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if puzzle.black[r][c]:
                d.append(_clue_cell(grid, r, c, puzzle.down[r][c], puzzle.across[r][c]))
                continue
            d.append(digit_cell(grid, r, c, play, font, solved=answer.digits[r][c] if answer else None))
    d.append(grid_lines(outer))
    return finish(d)
