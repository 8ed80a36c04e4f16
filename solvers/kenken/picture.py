"""KenKen: the grid with each cage outlined in bold and its target and operation in its first cell's corner; the
solution adds the digits in another colour.

In play mode every cell holds an empty ``<text class="entry">`` the digits widget writes the player's digit
into (``app/static/play-digits.js``); the cage labels sit outside the cells' groups, so the page never takes
them for an entry.
"""

from __future__ import annotations

from pictures.grid import CELL, INK, Grid, borders, canvas, digit_cell, finish, grid_lines, text
from solvers.kenken.rules import KenkenAnswer, KenkenPuzzle

MARGIN = 6


def render(puzzle: KenkenPuzzle, answer: KenkenAnswer | None = None, play: bool = False) -> str:
    n = puzzle.size
    grid = Grid(n, n, MARGIN, MARGIN)
    side = grid.width + 2 * MARGIN
    d = canvas(side, side, f"KenKen {n}×{n}")
    font = CELL * 0.55
    for r in range(n):
        for c in range(n):
            d.append(digit_cell(grid, r, c, play, font, solved=answer.digits[r][c] if answer else None,
                                lower=CELL * 0.08))
    d.append(grid_lines(grid))
    cage_of = {tuple(cell): k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    d.append(borders(grid, cage_of, lambda a, b: cage_of.get(a) != cage_of.get(b), INK, 2.5))
    for cage in puzzle.cages:
        r, c = min(map(tuple, cage.cells))
        d.append(text(cage.label(), grid.x(c) + CELL * 0.08, grid.y(r) + CELL * 0.16, CELL * 0.22, anchor="start",
                      class_="cage-label"))
    return finish(d)
