"""Fillomino: the givens in bold; the solution adds the other numbers in a lighter colour and draws each region's
outline, so a print shows the regions as well as the numbers.

In play mode every open cell holds an empty ``<text class="entry">`` the digits widget writes the player's number
into (``app/static/play-digits.js``), which fixes the given cells.
"""

from __future__ import annotations

from pictures.grid import CELL, INK, Grid, borders, canvas, digit_cell, finish, grid_lines
from solvers.fillomino.rules import FillominoAnswer, FillominoPuzzle

MARGIN = 6


def render(puzzle: FillominoPuzzle, answer: FillominoAnswer | None = None, play: bool = False) -> str:
    rows, cols = puzzle.rows, puzzle.cols
    grid = Grid(rows, cols, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Fillomino {rows}×{cols}")
    for r in range(rows):
        for c in range(cols):
            given = puzzle.givens[r][c]
            font = CELL * (0.6 if (given or 0) < 10 else 0.45)
            d.append(digit_cell(grid, r, c, play, font, given, answer.digits[r][c] if answer else None))
    d.append(grid_lines(grid))
    if answer is not None:
        inside = [(r, c) for r in range(rows) for c in range(cols)]
        d.append(borders(grid, inside, lambda a, b: 0 <= b[0] < rows and 0 <= b[1] < cols and
                         answer.digits[a[0]][a[1]] != answer.digits[b[0]][b[1]], INK, 2.5))
    return finish(d)
