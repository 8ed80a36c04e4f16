"""Skyscrapers: the grid with the clues around it and the given heights in bold; the solution adds the other
heights in a lighter weight and another colour, so a black-and-white print still tells them from the givens.

In play mode every cell holds an empty ``<text class="entry">`` the digits widget writes the player's height
into (``app/static/play-digits.js``); the clues stay outside the cells, so the page never takes them for one.
"""

from __future__ import annotations

from pictures.grid import CELL, Grid, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.skyscrapers.rules import SkyscrapersAnswer, SkyscrapersPuzzle

MARGIN = 6
SOLVED_INK = "#1f5fbf"
CLUE_INK = "#1a1a1a"


def render(puzzle: SkyscrapersPuzzle, answer: SkyscrapersAnswer | None = None, play: bool = False) -> str:
    n = puzzle.size
    grid = Grid(n, n, MARGIN + CELL, MARGIN + CELL)
    side = grid.width + 2 * (MARGIN + CELL)
    d = canvas(side, side, f"Skyscrapers {n}×{n}")
    font = CELL * (0.62 if n < 10 else 0.5)
    for r in range(n):
        for c in range(n):
            given = puzzle.givens[r][c]
            group = cell_group(r, c, play, given=given is not None)
            group.append(cell_background(grid, r, c))
            x, y = grid.centre(r, c)
            if given is not None:
                group.append(text(given, x, y, font, font_weight="bold", class_="given-digit"))
            elif answer is not None:
                group.append(text(answer.digits[r][c], x, y, font, fill=SOLVED_INK, class_="solved-digit"))
            elif play:
                group.append(text("", x, y, font, fill=SOLVED_INK, class_="entry"))
            d.append(group)
    d.append(grid_lines(grid))
    for where, i, clue, _ in puzzle.lines():
        if clue is not None:
            r, c = {"top": (-1, i), "bottom": (n, i), "left": (i, -1), "right": (i, n)}[where]
            x, y = grid.centre(r, c)
            d.append(text(clue, x, y, CELL * 0.5, fill=CLUE_INK, class_=f"clue clue-{where}"))
    return finish(d)
