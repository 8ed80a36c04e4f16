"""Star Battle: regions tinted in turn and outlined thick, the stars of a solution drawn in each cell."""

from __future__ import annotations

import math

import drawsvg as draw

from pictures.grid import CELL, INK, Grid, borders, canvas, cell_background, cell_group, finish, grid_lines
from solvers.star_battle.rules import StarBattleAnswer, StarBattlePuzzle

MARGIN = 6
STAR = "#f2b705"
TINTS = ("#ffffff", "#eef3fb", "#fbf1e6", "#eef8ee", "#f6eefa", "#fbfbe8")


def star(x: float, y: float, radius: float, **attrs: object) -> draw.Lines:
    """A five-pointed star centred on (x, y)."""
    points: list[float] = []
    for i in range(10):
        angle, r = math.pi / 2 + i * math.pi / 5, radius if i % 2 == 0 else radius * 0.45
        points += [x + r * math.cos(angle), y - r * math.sin(angle)]
    return draw.Lines(*points, close=True, **attrs)


def render(puzzle: StarBattlePuzzle, answer: StarBattleAnswer | None = None, play: bool = False) -> str:
    n, regions = puzzle.size, puzzle.regions
    grid = Grid(n, n, MARGIN, MARGIN)
    d = canvas(grid.width + 2 * MARGIN, grid.height + 2 * MARGIN,
               f"Star Battle {n}×{n}, {puzzle.stars} star{'s' * (puzzle.stars > 1)} per row, column and region")
    for r in range(n):
        for c in range(n):
            group = cell_group(r, c, play)
            x, y = grid.centre(r, c)
            group.append(cell_background(grid, r, c, TINTS[regions[r][c] % len(TINTS)]))
            if answer is not None and answer.stars[r][c]:
                group.append(star(x, y, CELL * 0.36, fill=STAR, stroke=INK, stroke_width=1.5))
            if play:  # filled = a star, empty = marked as holding none (a dot)
                group.append(star(x, y, CELL * 0.36, fill=STAR, stroke=INK, stroke_width=1.5, class_="m-fill"))
                group.append(draw.Circle(x, y, CELL * 0.08, fill=INK, class_="m-empty"))
            d.append(group)
    d.append(grid_lines(grid))
    cells = [(r, c) for r in range(n) for c in range(n)]
    d.append(borders(grid, cells, lambda a, b: 0 <= b[0] < n and 0 <= b[1] < n and regions[a[0]][a[1]] != regions[b[0]][b[1]],
                     INK, 3))
    return finish(d)
