"""KenKen: the grid with each cage outlined in bold and its target and operation in its first cell's corner; the
solution adds the digits in another colour.

In play mode every cell holds an empty ``<text class="entry">`` the digits widget writes the player's digit
into (``app/static/play-digits.js``); the cage labels sit outside the cells' groups, so the page never takes
them for an entry.
"""

from __future__ import annotations

from pictures.grid import CELL, INK, Grid, borders, canvas, cell_background, cell_group, finish, grid_lines, text
from solvers.kenken.rules import KenkenAnswer, KenkenPuzzle

MARGIN = 6
SOLVED_INK = "#1f5fbf"


def render(puzzle: KenkenPuzzle, answer: KenkenAnswer | None = None, play: bool = False) -> str:
    n = puzzle.size
    grid = Grid(n, n, MARGIN, MARGIN)
    side = grid.width + 2 * MARGIN
    d = canvas(side, side, f"KenKen {n}×{n}")
    font = CELL * 0.55
    for r in range(n):
        for c in range(n):
            group = cell_group(r, c, play)
            group.append(cell_background(grid, r, c))
            x, y = grid.centre(r, c)
            if answer is not None:
                group.append(text(answer.digits[r][c], x, y + CELL * 0.08, font, fill=SOLVED_INK, class_="solved-digit"))
            elif play:
                group.append(text("", x, y + CELL * 0.08, font, fill=SOLVED_INK, class_="entry"))
            d.append(group)
    d.append(grid_lines(grid))
    cage_of = {tuple(cell): k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    d.append(borders(grid, cage_of, lambda a, b: cage_of.get(a) != cage_of.get(b), INK, 2.5))
    for cage in puzzle.cages:
        r, c = min(map(tuple, cage.cells))
        d.append(text(cage.label(), grid.x(c) + CELL * 0.08, grid.y(r) + CELL * 0.16, CELL * 0.22, anchor="start",
                      class_="cage-label"))
    return finish(d)
