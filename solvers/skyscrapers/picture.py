"""Skyscrapers: the grid with the clues around it and the given heights in bold; the solution adds the other
heights in a lighter weight and another colour, so a black-and-white print still tells them from the givens.

In play mode every cell holds an empty ``<text class="entry">`` the digits widget writes the player's height
into (``app/static/play-digits.js``); the clues stay outside the cells, so the page never takes them for one.
"""

from __future__ import annotations

from pictures.grid import CELL, Grid, canvas, digit_cell, finish, grid_lines, text
from solvers.skyscrapers.rules import SkyscrapersAnswer, SkyscrapersPuzzle

MARGIN = 6
CLUE_INK = "#1a1a1a"


def render(puzzle: SkyscrapersPuzzle, answer: SkyscrapersAnswer | None = None, play: bool = False) -> str:
    n = puzzle.size
    grid = Grid(n, n, MARGIN + CELL, MARGIN + CELL)
    side = grid.width + 2 * (MARGIN + CELL)
    d = canvas(side, side, f"Skyscrapers {n}×{n}")
    font = CELL * (0.62 if n < 10 else 0.5)
    for r in range(n):
        for c in range(n):
            d.append(digit_cell(grid, r, c, play, font, puzzle.givens[r][c], answer.digits[r][c] if answer else None))
    d.append(grid_lines(grid))
    for where, i, clue, _ in puzzle.lines():
        if clue is not None:
            r, c = {"top": (-1, i), "bottom": (n, i), "left": (i, -1), "right": (i, n)}[where]
            x, y = grid.centre(r, c)
            d.append(text(clue, x, y, CELL * 0.5, fill=CLUE_INK, class_=f"clue clue-{where}"))
    return finish(d)
