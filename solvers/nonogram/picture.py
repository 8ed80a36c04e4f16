"""Nonogram: the clues as real text beside the rows (right-aligned, read left to right) and above the
columns (bottom-aligned, read top to bottom), grid lines thicker every 5 cells, black on white so it
prints. The solution view fills the cells black.

In play mode every cell is a ``<g data-cell>`` with a black square (filled) and a small cross (marked
empty), and each line's clue is a ``<g data-clue="row,R">`` / ``<g data-clue="col,C">`` with its runs in
``data-runs``, so the page can grey out a clue whose filled runs match it.
"""

from __future__ import annotations

import drawsvg as draw

from pictures.grid import CELL, GRID_LINE, INK, SHADE, Grid, canvas, cell_background, cell_group, finish, text
from solvers.nonogram.rules import NonogramAnswer, NonogramPuzzle

MARGIN = 6
SLOT = CELL * 0.62  # room for one clue number down (column clues), or across when it has one digit
WIDE_SLOT = CELL * 0.92  # across, for two digits
MAJOR = 5  # a thicker line every 5 cells, as printed nonograms have


def render(puzzle: NonogramPuzzle, answer: NonogramAnswer | None = None, play: bool = False) -> str:
    rows, cols = puzzle.rows, puzzle.cols
    widest = max((len(runs) for runs in puzzle.row_clues), default=0) or 1
    tallest = max((len(runs) for runs in puzzle.col_clues), default=0) or 1
    across = WIDE_SLOT if any(run >= 10 for runs in puzzle.row_clues for run in runs) else SLOT
    grid = Grid(rows, cols, MARGIN + widest * across + CELL * 0.15, MARGIN + tallest * SLOT + CELL * 0.15)
    d = canvas(grid.x(cols) + MARGIN, grid.y(rows) + MARGIN, f"Nonogram {rows}×{cols}")
    font = CELL * 0.46
    for r, runs in enumerate(puzzle.row_clues):
        group = draw.Group(class_="clue", data_clue=f"row,{r}", data_runs=" ".join(map(str, runs)))
        shown = runs or [0]
        for k, run in enumerate(shown):
            x = grid.x(0) - CELL * 0.15 - (len(shown) - k - 0.5) * across
            group.append(text(run, x, grid.y(r + 0.5), font))
        d.append(group)
    for c, runs in enumerate(puzzle.col_clues):
        group = draw.Group(class_="clue", data_clue=f"col,{c}", data_runs=" ".join(map(str, runs)))
        shown = runs or [0]
        for k, run in enumerate(shown):
            y = grid.y(0) - CELL * 0.15 - (len(shown) - k - 0.5) * SLOT
            group.append(text(run, grid.x(c + 0.5), y, font))
        d.append(group)
    for r in range(rows):
        for c in range(cols):
            group = cell_group(r, c, play)
            filled = answer is not None and answer.filled[r][c] == 1
            group.append(cell_background(grid, r, c, SHADE if filled else "white"))
            if play:
                x, y, s = grid.x(c), grid.y(r), grid.size
                group.append(draw.Rectangle(x + 1, y + 1, s - 2, s - 2, fill=SHADE, class_="m-fill"))
                cross = draw.Path(stroke=INK, stroke_width=2, stroke_linecap="round", class_="m-empty")
                cross.M(x + s * 0.35, y + s * 0.35).L(x + s * 0.65, y + s * 0.65)
                cross.M(x + s * 0.65, y + s * 0.35).L(x + s * 0.35, y + s * 0.65)
                group.append(cross)
            d.append(group)
    d.append(lines(grid))
    return finish(d)


def lines(grid: Grid) -> draw.Group:
    """Thin lines between cells, thick ones every ``MAJOR`` cells and around the grid."""
    group = draw.Group(fill="none", stroke_linecap="square", class_="lines")
    for r in range(grid.rows + 1):
        major = r % MAJOR == 0 or r == grid.rows
        group.append(draw.Line(grid.x(0), grid.y(r), grid.x(grid.cols), grid.y(r), stroke=INK if major else GRID_LINE,
                               stroke_width=2.5 if major else 1))
    for c in range(grid.cols + 1):
        major = c % MAJOR == 0 or c == grid.cols
        group.append(draw.Line(grid.x(c), grid.y(0), grid.x(c), grid.y(grid.rows), stroke=INK if major else GRID_LINE,
                               stroke_width=2.5 if major else 1))
    group.append(draw.Rectangle(grid.x(0), grid.y(0), grid.width, grid.height, stroke=INK, stroke_width=3))
    return group
