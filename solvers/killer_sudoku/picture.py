"""Killer Sudoku: Sudoku's grid (thick box lines, givens in bold) with each cage's outline dashed and its sum in
its first cell's corner; the solution adds the other digits in another colour.

In play mode every cell holds an empty ``<text class="entry">`` for the digits widget; the sums sit outside the
cells' groups, so the page never takes them for an entry.
"""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, INK, Grid, borders, canvas, digit_cell, finish, grid_lines, text
from solvers.killer_sudoku.rules import BOX, KillerSudokuAnswer, KillerSudokuPuzzle, N

MARGIN = 6
CAGE_INK = "#8a3b12"


def render(puzzle: KillerSudokuPuzzle, answer: KillerSudokuAnswer | None = None, play: bool = False) -> str:
    grid = Grid(N, N, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, "Killer Sudoku 9×9")
    font = CELL * 0.55
    for r in range(N):
        for c in range(N):
            d.append(digit_cell(grid, r, c, play, font, puzzle.givens[r][c] or None,
                                answer.digits[r][c] if answer else None, lower=CELL * 0.08))
    d.append(grid_lines(grid))
    boxes = draw.Group(stroke=INK, stroke_width=3, stroke_linecap="square", class_="boxes")
    for k in range(BOX, N, BOX):
        boxes.append(draw.Line(grid.x(0), grid.y(k), grid.x(N), grid.y(k)))
        boxes.append(draw.Line(grid.x(k), grid.y(0), grid.x(k), grid.y(N)))
    d.append(boxes)
    cage_of = {tuple(cell): k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    outline = borders(grid, cage_of, lambda a, b: cage_of.get(a) != cage_of.get(b), CAGE_INK, 1.5)
    outline.args["stroke-dasharray"] = "4 3"
    d.append(outline)
    for cage in puzzle.cages:
        r, c = min(map(tuple, cage.cells))
        d.append(text(cage.sum, grid.x(c) + CELL * 0.08, grid.y(r) + CELL * 0.16, CELL * 0.22, anchor="start",
                      fill=CAGE_INK, class_="cage-sum"))
    return finish(d)
