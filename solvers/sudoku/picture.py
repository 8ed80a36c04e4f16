"""Sudoku: the grid with thick box lines and the givens in bold; the solution adds the other digits in a
lighter weight and another colour, so a black-and-white print still tells them from the givens.

In play mode every cell is a group the page fills in: an empty ``<text class="entry">`` for the player's
digit (the page writes it) and, for pencil marks, nothing yet (the page adds them where the player makes
them), so a 16×16 page stays small.
"""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, INK, Grid, canvas, digit_cell, finish, grid_lines
from solvers.sudoku.rules import SudokuAnswer, SudokuPuzzle, box_rows_cols

MARGIN = 6


def render(puzzle: SudokuPuzzle, answer: SudokuAnswer | None = None, play: bool = False) -> str:
    n = puzzle.size
    box_rows, box_cols = box_rows_cols(n)
    grid = Grid(n, n, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Sudoku {n}×{n}")
    font = CELL * (0.62 if n < 10 else 0.5)
    for r in range(n):
        for c in range(n):
            d.append(digit_cell(grid, r, c, play, font, puzzle.givens[r][c] or None,
                                answer.digits[r][c] if answer else None))
    d.append(grid_lines(grid))
    boxes = draw.Group(stroke=INK, stroke_width=3, stroke_linecap="square", class_="boxes")
    for r in range(box_rows, n, box_rows):
        boxes.append(draw.Line(grid.x(0), grid.y(r), grid.x(n), grid.y(r)))
    for c in range(box_cols, n, box_cols):
        boxes.append(draw.Line(grid.x(c), grid.y(0), grid.x(c), grid.y(n)))
    d.append(boxes)
    return finish(d)
