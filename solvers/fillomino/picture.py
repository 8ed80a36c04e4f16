"""Fillomino: the givens in bold; the solution adds the other numbers in a lighter colour and draws each region's
outline, so a print shows the regions as well as the numbers.

In play mode every open cell holds an empty ``<text class="entry">`` the digits widget writes the player's number
into (``app/static/play-digits.js``), which fixes the given cells.
"""

from __future__ import annotations

from pictures.grid import CELL, INK, Grid, borders, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.fillomino.rules import FillominoAnswer, FillominoPuzzle

MARGIN = 6
SOLVED_INK = "#1f5fbf"


def render(puzzle: FillominoPuzzle, answer: FillominoAnswer | None = None, play: bool = False) -> str:
    rows, cols = puzzle.rows, puzzle.cols
    grid = Grid(rows, cols, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN, f"Fillomino {rows}×{cols}")
    for r in range(rows):
        for c in range(cols):
            given = puzzle.givens[r][c]
            group = cell_group(r, c, play, given=given is not None)
            group.append(cell_background(grid, r, c))
            x, y = grid.centre(r, c)
            font = CELL * (0.6 if (given or 0) < 10 else 0.45)
            if given is not None:
                group.append(text(given, x, y, font, font_weight="bold", class_="given-digit"))
            elif answer is not None:
                group.append(text(answer.digits[r][c], x, y, font, fill=SOLVED_INK, class_="solved-digit"))
            elif play:
                group.append(text("", x, y, font, fill=SOLVED_INK, class_="entry"))
            d.append(group)
    d.append(grid_lines(grid))
    if answer is not None:
        inside = [(r, c) for r in range(rows) for c in range(cols)]
        d.append(borders(grid, inside, lambda a, b: 0 <= b[0] < rows and 0 <= b[1] < cols and
                         answer.digits[a[0]][a[1]] != answer.digits[b[0]][b[1]], INK, 2.5))
    return finish(d)
