"""The geometry of a rectangular grid that grid puzzles share: neighbours, lines, runs and connected
regions. Rules checkers, solvers and human-style deductions use these instead of their own loops.

Cells are ``(row, col)`` pairs counted from 0; a grid is ``rows`` × ``cols``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

Cell = tuple[int, int]

ORTHOGONAL: tuple[Cell, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAGONAL: tuple[Cell, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))
AROUND: tuple[Cell, ...] = ORTHOGONAL + DIAGONAL  # the 8 cells of a king's move


def neighbours(cell: Cell, rows: int, cols: int, steps: Iterable[Cell] = ORTHOGONAL) -> Iterator[Cell]:
    """The cells one step away inside the grid (orthogonal steps unless ``steps`` says otherwise)."""
    r, c = cell
    for dr, dc in steps:
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            yield rr, cc


def row_lines(rows: int, cols: int) -> list[list[Cell]]:
    return [[(r, c) for c in range(cols)] for r in range(rows)]


def column_lines(rows: int, cols: int) -> list[list[Cell]]:
    return [[(r, c) for r in range(rows)] for c in range(cols)]


def lines(rows: int, cols: int) -> list[list[Cell]]:
    """Every row (left to right), then every column (top to bottom)."""
    return row_lines(rows, cols) + column_lines(rows, cols)


def runs(line: Iterable[Cell], member: Callable[[Cell], bool]) -> Iterator[list[Cell]]:
    """The maximal stretches of consecutive cells of ``line`` that are members, in line order."""
    run: list[Cell] = []
    for cell in line:
        if member(cell):
            run.append(cell)
        elif run:
            yield run
            run = []
    if run:
        yield run


def connected_regions(
    rows: int, cols: int, member: Callable[[Cell], bool], steps: Iterable[Cell] = ORTHOGONAL
) -> list[list[Cell]]:
    """The connected groups of member cells (flood fill over ``steps``), each sorted, in reading order
    of their first cell."""
    steps = tuple(steps)
    seen: set[Cell] = set()
    regions = []
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        if start in seen or not member(start):
            continue
        seen.add(start)
        stack, region = [start], []
        while stack:
            cell = stack.pop()
            region.append(cell)
            for near in neighbours(cell, rows, cols, steps):
                if near not in seen and member(near):
                    seen.add(near)
                    stack.append(near)
        regions.append(sorted(region))
    return regions
